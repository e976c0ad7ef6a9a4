/* simd.h: libneuronfuse's internal interface of the vector-ABI clones
   of nf_expf / nf_expm1f / nf_log1pf (not installed; the scalar functions are in
   scalarf.c).

   On x86-64 each function F exists per instruction set as nf_F_x4_<isa>,
   nf_F_x8_<isa> and nf_F_x16_<isa> (__m128, __m256, __m512 in and out:
   the registers of the clones _ZGVbN4v_F, _ZGVcN8v_F / _ZGVdN8v_F and
   _ZGVeN16v_F).  The avx2 and avx512 ones are in runtime/x86/ next to
   the array kernels whose cores they share, so that every width of F
   gives the array kernel's bits on the same instruction set; simd.c has
   the generic ones, the table the clones call through and the clones
   themselves.  Variants of a register width wider than the ISA's own
   (x16 for avx2) are composed in simd.c.

   Errno: the vector variants never set it (the clones in simd.c do, one
   compare per vector).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_SIMD_H
#define NF_SIMD_H

#include "kernels.h"

#if defined __x86_64__
#include <immintrin.h>
#endif

#pragma GCC visibility push(hidden)

/* The largest float whose expm1 does not overflow (expm1 of the next one
   rounds to +Inf): glibc's expm1f sets ERANGE from the next one up to
   FLT_MAX.  */
#define NF_EXPM1F_MAX 0x1.62e42ep+6f
/* Below it, glibc's expf sets ERANGE (exp (x) < 2^-149).  */
#define NF_EXPF_UFLOW_ERRNO -0x1.9d1d9ep6f

#if defined __x86_64__
#define NF_SIMD_PROTO(f, isa)                                                  \
  __m128 nf_##f##_x4_##isa (__m128 x);                                         \
  __m256 nf_##f##_x8_##isa (__m256 x);
NF_SIMD_PROTO (expf, avx2)
NF_SIMD_PROTO (expm1f, avx2)
NF_SIMD_PROTO (log1pf, avx2)
NF_SIMD_PROTO (expf, avx512)
NF_SIMD_PROTO (expm1f, avx512)
NF_SIMD_PROTO (log1pf, avx512)
#undef NF_SIMD_PROTO
__m512 nf_expf_x16_avx512 (__m512 x);
__m512 nf_expm1f_x16_avx512 (__m512 x);
__m512 nf_log1pf_x16_avx512 (__m512 x);
#endif

/* The table every clone calls through, one entry per (function,
   width), filled with dispatch.c's table (same ISA, same NEURONFUSE_ISA
   cap) and until then pointing at stubs that fill it (simd.c).  The
   clones of the fast-math functions (simd-fast.c) have their entries
   here too: one table, one fill, and each clone one tail jump.  */
#if defined __x86_64__
struct nf_simdtable
{
#define NF_SIMD_FIELDS(f)                                                      \
  __m128 (*f##_x4) (__m128);                                                   \
  __m256 (*f##_x8) (__m256);                                                   \
  __m512 (*f##_x16) (__m512);
  NF_SIMD_FIELDS (expf)
  NF_SIMD_FIELDS (expm1f)
  NF_SIMD_FIELDS (log1pf)
  NF_SIMD_FIELDS (expm1f_fast)
  NF_SIMD_FIELDS (log1pf_fast)
#undef NF_SIMD_FIELDS
};
extern struct nf_simdtable nf_simd;

/* The entry NAME, loaded atomically (a first call may race the fill,
   which stores the same pointers).  */
#define NF_SIMD(name) __atomic_load_n (&nf_simd.name, __ATOMIC_RELAXED)
#define NF_SIMD_SET(name, v)                                                   \
  __atomic_store_n (&nf_simd.name, v, __ATOMIC_RELEASE)

/* The fast-math entries' stubs and their fill (simd-fast.c).  */
__m128 nf_expm1f_fast_x4_stub (__m128 x);
__m256 nf_expm1f_fast_x8_stub (__m256 x);
__m512 nf_expm1f_fast_x16_stub (__m512 x);
__m128 nf_log1pf_fast_x4_stub (__m128 x);
__m256 nf_log1pf_fast_x8_stub (__m256 x);
__m512 nf_log1pf_fast_x16_stub (__m512 x);
void nf_simd_fast_fill (enum nf_isa isa);
#endif

/* Point the scalar and clone table at the variants of ISA (simd.c;
   dispatch.c calls it when it fills its own table).  */
void nf_simd_fill (enum nf_isa isa);

#pragma GCC visibility pop

#endif /* NF_SIMD_H */
