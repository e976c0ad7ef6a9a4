/* dispatch.c: the public kernels of neuronfuse.h, each a call through
   one table of function pointers filled once for this CPU.

   The table starts with stubs (zlib-ng's functable.c): the first call of
   any kernel fills every entry with the best variant the CPU supports
   (x86.c) and then calls through it.  Filling stores each pointer
   atomically and is idempotent, so threads that race on the first call
   each store the same values; later calls cost one indirect call, never
   a CPU check per call, let alone per element.

   NEURONFUSE_ISA=generic|avx2|avx512 caps the instruction set (to compare
   variants, or to rule one out when hunting a bug); it never raises it
   above what the CPU supports, and other values are ignored.
   nf_runtime_isa () names the set in use.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"
#include "simd.h"

#include <stdlib.h>
#include <string.h>

/* The stubs: fill the table, then call through it.  */
#define NF_STUB(name, ret, params, args)                                       \
  static ret nf_stub_##name params { return NF_KERNEL (name) args; }
NF_KERNELS (NF_STUB)
#undef NF_STUB

static struct nf_functable table = {
#define NF_STUB_ENTRY(name, ret, params, args) nf_stub_##name,
  NF_KERNELS (NF_STUB_ENTRY)
#undef NF_STUB_ENTRY
};

/* The instruction set in use, -1 until the table is filled.  */
static int table_isa = -1;

/* Return the cap NEURONFUSE_ISA puts on the instruction set, or the
   highest one if it is unset or not a name we know.  */
static enum nf_isa
isa_cap (void)
{
  const char *s = getenv ("NEURONFUSE_ISA");
  if (!s)
    return NF_ISA_AVX512;
  if (strcmp (s, "generic") == 0)
    return NF_ISA_GENERIC;
  if (strcmp (s, "avx2") == 0)
    return NF_ISA_AVX2;
  return NF_ISA_AVX512;
}

/* Store every entry of the table for instruction set ISA.  */
static void
fill (enum nf_isa isa)
{
#define NF_SET(name, ret, params, args)                                        \
  {                                                                            \
    ret (*f_) params = nf_##name##_generic;                                    \
    if (isa == NF_ISA_AVX2)                                                    \
      f_ = nf_##name##_avx2;                                                   \
    else if (isa == NF_ISA_AVX512)                                             \
      f_ = nf_##name##_avx512;                                                 \
    __atomic_store_n (&table.name, f_, __ATOMIC_RELEASE);                      \
  }
#ifdef NF_HAVE_X86_KERNELS
  NF_KERNELS (NF_SET)
#else
  (void) isa;
#define NF_SET_GENERIC(name, ret, params, args)                                \
  __atomic_store_n (&table.name, nf_##name##_generic, __ATOMIC_RELEASE);
  NF_KERNELS (NF_SET_GENERIC)
#undef NF_SET_GENERIC
#endif
#undef NF_SET
  nf_simd_fill (isa);
}

const struct nf_functable *
nf_functable (void)
{
  if (__atomic_load_n (&table_isa, __ATOMIC_ACQUIRE) < 0)
    {
      enum nf_isa isa = nf_cpu_isa (), cap = isa_cap ();
#ifndef NF_HAVE_X86_KERNELS
      isa = NF_ISA_GENERIC;
#endif
      if (cap < isa)
	isa = cap;
      fill (isa);
      __atomic_store_n (&table_isa, (int) isa, __ATOMIC_RELEASE);
    }
  return &table;
}

const char *
nf_runtime_isa (void)
{
  static const char *const names[] = { "generic", "avx2", "avx512" };
  nf_functable ();
  return names[__atomic_load_n (&table_isa, __ATOMIC_ACQUIRE)];
}

/* The public kernels.  Loads of the entries are relaxed: the functions
   they point to are code and constants, ready before the program ran.  */
#define NF_TBL(name) __atomic_load_n (&table.name, __ATOMIC_RELAXED)

void
nf_expm1_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (expm1_f32) (y, x, n);
}

void
nf_expm1_f64 (double *y, const double *x, size_t n)
{
  NF_TBL (expm1_f64) (y, x, n);
}

void
nf_log1p_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (log1p_f32) (y, x, n);
}

void
nf_log1p_f64 (double *y, const double *x, size_t n)
{
  NF_TBL (log1p_f64) (y, x, n);
}

void
nf_expm1_pz_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (expm1_pz_f32) (y, x, n);
}

void
nf_expm1_pz_f64 (double *y, const double *x, size_t n)
{
  NF_TBL (expm1_pz_f64) (y, x, n);
}

void
nf_log1p_pz_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (log1p_pz_f32) (y, x, n);
}

void
nf_log1p_pz_f64 (double *y, const double *x, size_t n)
{
  NF_TBL (log1p_pz_f64) (y, x, n);
}

void
nf_expm1_fast_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (expm1_fast_f32) (y, x, n);
}

void
nf_log1p_fast_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (log1p_fast_f32) (y, x, n);
}

double
nf_sumsq_f32 (const float *x, size_t n)
{
  return NF_TBL (sumsq_f32) (x, n);
}

long double
nf_sumsq_f64 (const double *x, size_t n)
{
  return NF_TBL (sumsq_f64) (x, n);
}

void
nf_rmsnorm_f32 (float *y, const float *x, const float *w, size_t n, float eps)
{
  NF_TBL (rmsnorm_f32) (y, x, w, n, eps, 0);
}

void
nf_rmsnorm_f64 (double *y, const double *x, const double *w, size_t n,
		double eps)
{
  NF_TBL (rmsnorm_f64) (y, x, w, n, eps, 0);
}

void
nf_rmsnorm1p_f32 (float *y, const float *x, const float *w, size_t n,
		  float eps)
{
  NF_TBL (rmsnorm1p_f32) (y, x, w, n, eps);
}

void
nf_rmsnorm1p_f64 (double *y, const double *x, const double *w, size_t n,
		  double eps)
{
  NF_TBL (rmsnorm1p_f64) (y, x, w, n, eps);
}

void
nf_add_rmsnorm_f32 (float *y, float *x, const float *r, const float *w,
		    size_t n, float eps)
{
  NF_TBL (add_rmsnorm_f32) (y, x, r, w, n, eps);
}

void
nf_add_rmsnorm_f64 (double *y, double *x, const double *r, const double *w,
		    size_t n, double eps)
{
  NF_TBL (add_rmsnorm_f64) (y, x, r, w, n, eps);
}

void
nf_l2normalize_f32 (float *y, const float *x, size_t n, float eps)
{
  NF_TBL (l2normalize_f32) (y, x, n, eps);
}

void
nf_l2normalize_f64 (double *y, const double *x, size_t n, double eps)
{
  NF_TBL (l2normalize_f64) (y, x, n, eps);
}

void
nf_softmax_f32 (float *y, const float *x, size_t n)
{
  NF_TBL (softmax_f32) (y, x, n);
}

void
nf_softmax_f64 (double *y, const double *x, size_t n)
{
  NF_TBL (softmax_f64) (y, x, n);
}

#ifdef __FLT16_MAX__
void
nf_rmsnorm_f16 (_Float16 *y, const _Float16 *x, const _Float16 *w, size_t n,
		float eps)
{
  NF_TBL (rmsnorm_f16) (y, x, w, n, eps, 0);
}
#endif
