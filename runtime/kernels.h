/* kernels.h: libneuronfuse's internal kernel interface (not installed).

   Every kernel exists once per instruction set: nf_<kernel>_<dtype>_<isa>
   with <isa> generic (portable C, runtime/generic/), avx2 (AVX2 + FMA +
   F16C) and avx512 (AVX-512 F/DQ/VL/BW), the x86 ones in runtime/x86/,
   each built in a convenience library with its own -m flags so that no
   AVX instruction leaks into code that runs before the CPU is checked.
   dispatch.c picks one variant per kernel on the first call (zlib-ng's
   function table) and the public functions of neuronfuse.h call through
   the table.  The generic variants are also the references the others
   are tested against.

   NF_KERNELS (X) lists the table: X (name, return type, parameters,
   arguments).  The row kernels take one argument more than the public
   nf_rmsnorm_*: STREAM, nonzero to write Y with non-temporal stores
   (nf_rmsnorm_rows_* asks for it when its output cannot stay cached).
   The matvec kernels compute rows R0 to R1 - 1 of the product (the
   public nf_matvec_* split the rows over threads).
   The sumsqd kernels (issue 19) are the sums of squared differences
   sum ((x[i] - b[i])^2) behind nf_dist_* and nf_rms_* (dist.c), B NULL
   meaning the sum of squares of X; sumsqd_acc_f32 is the float data's
   sum in long double for the _d_f32 forms.  rmsnorm1p, l2normalize and
   add_rmsnorm (the residual add x += r, then RMSNorm) are the whole
   public kernels, sum and scaling.
   Two entries have no public function of their own: exp_f32, y[i] =
   exp (x[i]) within 0.5 ulp + 2^-20 ulp (nf_expf's clones' core, which
   nf_elementwise's EXP runs), and ew_run, nf_elementwise's block
   interpreter (elementwise.c, ew-run-tmpl.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_KERNELS_H
#define NF_KERNELS_H

#include "neuronfuse.h"

#include <stdint.h>

/* nf_elementwise's decoded program (ewplan.h), which ew_run runs.  */
struct nf_ew_plan;

#define NF_KERNELS_F16(X)                                                      \
  X (nrm2_f16, float, (const _Float16 *x, size_t n), (x, n))                   \
  X (rmsnorm_f16, void,                                                        \
     (_Float16 *y, const _Float16 *x, const _Float16 *w, size_t n, float eps,  \
      int stream),                                                             \
     (y, x, w, n, eps, stream))                                                \
  X (matvec_f16, void,                                                         \
     (float *y, const _Float16 *w, const float *x, size_t r0, size_t r1,       \
      size_t n),                                                               \
     (y, w, x, r0, r1, n))

#ifndef __FLT16_MAX__
#undef NF_KERNELS_F16
#define NF_KERNELS_F16(X)
#endif

#define NF_KERNELS(X)                                                          \
  X (expm1_f32, void, (float *y, const float *x, size_t n), (y, x, n))         \
  X (expm1_f64, void, (double *y, const double *x, size_t n), (y, x, n))       \
  X (log1p_f32, void, (float *y, const float *x, size_t n), (y, x, n))         \
  X (log1p_f64, void, (double *y, const double *x, size_t n), (y, x, n))       \
  X (expm1_pz_f32, void, (float *y, const float *x, size_t n), (y, x, n))      \
  X (expm1_pz_f64, void, (double *y, const double *x, size_t n), (y, x, n))    \
  X (log1p_pz_f32, void, (float *y, const float *x, size_t n), (y, x, n))      \
  X (log1p_pz_f64, void, (double *y, const double *x, size_t n), (y, x, n))    \
  X (expm1_fast_f32, void, (float *y, const float *x, size_t n), (y, x, n))    \
  X (log1p_fast_f32, void, (float *y, const float *x, size_t n), (y, x, n))    \
  X (exp_f32, void, (float *y, const float *x, size_t n), (y, x, n))           \
  X (ew_run, void,                                                             \
     (const struct nf_ew_plan *p, void *y, const void *x0, const void *x1,     \
      size_t n),                                                               \
     (p, y, x0, x1, n))                                                        \
  X (sumsq_f32, double, (const float *x, size_t n), (x, n))                    \
  X (sumsq_acc_f32, long double, (const float *x, size_t n), (x, n))           \
  X (sumsq_f64, long double, (const double *x, size_t n), (x, n))              \
  X (sumsq_fast_f64, long double, (const double *x, size_t n), (x, n))         \
  X (rmsnorm_f32, void,                                                        \
     (float *y, const float *x, const float *w, size_t n, float eps,           \
      int stream),                                                             \
     (y, x, w, n, eps, stream))                                                \
  X (softmax_f32, void, (float *y, const float *x, size_t n), (y, x, n))       \
  X (softmax_f64, void, (double *y, const double *x, size_t n), (y, x, n))     \
  X (matvec_f32, void,                                                         \
     (float *y, const float *w, const float *x, size_t r0, size_t r1,          \
      size_t n),                                                               \
     (y, w, x, r0, r1, n))                                                     \
  X (matvec_f64, void,                                                         \
     (double *y, const double *w, const double *x, size_t r0, size_t r1,       \
      size_t n),                                                               \
     (y, w, x, r0, r1, n))                                                     \
  X (rmsnorm_f64, void,                                                        \
     (double *y, const double *x, const double *w, size_t n, double eps,       \
      int stream),                                                             \
     (y, x, w, n, eps, stream))                                                \
  X (sumsqd_f32, double, (const float *x, const float *b, size_t n),          \
     (x, b, n))                                                                \
  X (sumsqd_acc_f32, long double, (const float *x, const float *b, size_t n), \
     (x, b, n))                                                                \
  X (sumsqd_f64, long double, (const double *x, const double *b, size_t n),   \
     (x, b, n))                                                                \
  X (rmsnorm1p_f32, void,                                                      \
     (float *y, const float *x, const float *w, size_t n, float eps),          \
     (y, x, w, n, eps))                                                        \
  X (rmsnorm1p_f64, void,                                                      \
     (double *y, const double *x, const double *w, size_t n, double eps),      \
     (y, x, w, n, eps))                                                        \
  X (l2normalize_f32, void, (float *y, const float *x, size_t n, float eps),  \
     (y, x, n, eps))                                                           \
  X (l2normalize_f64, void,                                                    \
     (double *y, const double *x, size_t n, double eps), (y, x, n, eps))       \
  X (add_rmsnorm_f32, void,                                                    \
     (float *y, float *x, const float *r, const float *w, size_t n,            \
      float eps),                                                              \
     (y, x, r, w, n, eps))                                                     \
  X (add_rmsnorm_f64, void,                                                    \
     (double *y, double *x, const double *r, const double *w, size_t n,        \
      double eps),                                                             \
     (y, x, r, w, n, eps))                                                     \
  NF_KERNELS_F16 (X)

/* Internal symbols stay out of the library's ABI.  */
#pragma GCC visibility push(hidden)

/* The prototypes of every variant.  */
#define NF_PROTO(name, ret, params, args)                                      \
  ret nf_##name##_generic params;                                              \
  ret nf_##name##_avx2 params;                                                 \
  ret nf_##name##_avx512 params;
NF_KERNELS (NF_PROTO)
#undef NF_PROTO

#ifdef __FLT16_MAX__
/* Not in the table: the _Float16 sum in double that the f16 RMSNorm and
   nrm2 kernels of each instruction set share.  */
double nf_sumsq_f16_generic (const _Float16 *x, size_t n);
double nf_sumsq_f16_avx2 (const _Float16 *x, size_t n);
double nf_sumsq_f16_avx512 (const _Float16 *x, size_t n);
#endif

/* Not in the table: the residual add and the sum of squares of
   add_rmsnorm in one pass, X[i] = X[i] + R[i] rounded once to X's type
   and stored, returning the sum of the squares of the new X: the same
   value, bit for bit, as nf_sumsq_f32 / nf_sumsq_f64 of that instruction
   set returns for the new X (the same accumulators in the same order),
   so that add_rmsnorm gives rmsnorm's bits for the updated row.  */
double nf_add_sumsq_f32_generic (float *x, const float *r, size_t n);
double nf_add_sumsq_f32_avx2 (float *x, const float *r, size_t n);
double nf_add_sumsq_f32_avx512 (float *x, const float *r, size_t n);
long double nf_add_sumsq_f64_generic (double *x, const double *r, size_t n);
long double nf_add_sumsq_f64_avx2 (double *x, const double *r, size_t n);
long double nf_add_sumsq_f64_avx512 (double *x, const double *r, size_t n);

/* Run RUN (CTX, R0, R1) over rows 0 to ROWS - 1 (ELEMS elements in
   all), split in chunks of whole rows over the thread pool when ELEMS is
   at least PAR_MIN (rows.c).  */
void nf_rows_split (void (*run) (const void *ctx, size_t r0, size_t r1),
		    const void *ctx, size_t rows, size_t elems, size_t par_min);

/* The table the public functions call through.  */
struct nf_functable
{
#define NF_FIELD(name, ret, params, args) ret (*name) params;
  NF_KERNELS (NF_FIELD)
#undef NF_FIELD
};

/* Return the table, filled for this CPU (fills it on the first call).  */
const struct nf_functable *nf_functable (void);

/* The entry NAME of the filled table.  Loaded atomically: a thread that
   races another's first call may still see that thread store the same
   pointers.  */
#define NF_KERNEL(name)                                                        \
  __atomic_load_n (&nf_functable ()->name, __ATOMIC_RELAXED)

/* The instruction sets, oldest first.  */
enum nf_isa
{
  NF_ISA_GENERIC,
  NF_ISA_AVX2,
  NF_ISA_AVX512
};

/* Return the best instruction set this CPU and OS support (x86.c).  */
enum nf_isa nf_cpu_isa (void);

/* nf_sumsq_f64's range: at or above this sum, nothing the fast kernels
   round can have underflowed (squares below DBL_MIN lose at most
   2^-1075 each, n of them at most 2^-1045 for n < 2^30: 2^-75 of it);
   below it, or not finite, they hand the sum to the generic long double
   kernel, whose range holds every square.  */
#define NF_SUMSQ_F64_MIN 0x1p-970

/* Return how many elements of size ELEM from P on come before the first
   one aligned to AL bytes (a power of two), at most N; 0 if P is not
   aligned to ELEM.  The vector kernels peel these so that their loads
   (or streaming stores) never split a cache line: a load that does costs
   up to half the speed of a pass over L1 data.  */
static inline size_t
nf_align_head (const void *p, size_t al, size_t elem, size_t n)
{
  uintptr_t a = (uintptr_t) p;
  if (a % elem != 0)
    return 0;
  size_t head = (al - a % al) % al / elem;
  return head < n ? head : n;
}

#pragma GCC visibility pop

#endif /* NF_KERNELS_H */
