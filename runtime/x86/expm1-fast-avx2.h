/* expm1-fast-avx2.h: nf_vexpm1f_fast_avx2, the fast-math expm1 of 8
   floats in a ymm, for nf_expm1_fast_f32_avx2 and for vector-ABI clones
   of the scalar functions.  The algorithm, tables and results of the
   AVX-512 one (expm1-fast-avx512.c has the design comment and the error
   analysis); what differs: the two table lookups are four vpermps and
   three vblendvps each (lut32-avx2.h), the range test is a compare and
   vmovmskps, and the slow path clamps x to [-87, 88.8] and builds 2^k
   from bits, as AVX2 has no vscalefps or vrangeps.

   Include with -mavx2 -mfma and -ffp-contract=off.  Round-to-nearest
   assumed; errno is never set.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EXPM1_FAST_AVX2_H
#define NF_EXPM1_FAST_AVX2_H

#include <immintrin.h>

#include "expm1-fast-consts.h"
#include "lut32-avx2.h"

/* Steps 1-3 for X: set *S to 2^k T_j from bits (valid for k in [-126,
   127]) and return p = expm1 (r).  */
static inline __attribute__ ((always_inline)) __m256
nf_e1f_reduce_avx2 (__m256 x, __m256 *s)
{
  const __m256 shift = _mm256_set1_ps (NF_E1F_SHIFT);
  __m256 z = _mm256_fmadd_ps (x, _mm256_set1_ps (NF_E1F_INV), shift);
  __m256 md = _mm256_sub_ps (z, shift);
  __m256 t = _mm256_fnmadd_ps (md, _mm256_set1_ps (NF_E1F_L1), x);
  __m256i zi = _mm256_castps_si256 (z);
  struct nf_sel32 j = nf_sel32 (zi);
  struct nf_lut32 dt = nf_lut32_load (nf_e1f_d);
  struct nf_lut32 tt = nf_lut32_load (nf_e1f_tb);
  __m256 d = nf_lut32 (&dt, &j);
  __m256 r
    = _mm256_sub_ps (t, _mm256_fmadd_ps (md, _mm256_set1_ps (NF_E1F_L2), d));
  __m256i tb = _mm256_castps_si256 (nf_lut32 (&tt, &j));
  *s = _mm256_castsi256_ps (_mm256_add_epi32 (_mm256_slli_epi32 (zi, 18), tb));
  __m256 q = _mm256_fmadd_ps (_mm256_set1_ps (NF_E1F_Q2), r,
			      _mm256_set1_ps (NF_E1F_Q1));
  q = _mm256_fmadd_ps (q, r, _mm256_set1_ps (NF_E1F_Q0));
  __m256 v = _mm256_fmadd_ps (r, q, _mm256_setzero_ps ());
  return _mm256_fmadd_ps (r, v, r);
}

/* The slow path: every lane of X, also those outside [NF_E1F_LO,
   NF_E1F_HI], NaN and infinities.  Returns expm1 of each lane.  */
static __attribute__ ((noinline)) __m256
nf_vexpm1f_fast_slow_avx2 (__m256 x)
{
  /* x clamped to [-87, NF_E1F_CLAMP] (k >= -126: S stays normal; below
     -17.33 the result is -1 anyway).  maxps and minps return their
     second operand when one is NaN: x's NaN goes through.  */
  __m256 xc = _mm256_min_ps (_mm256_set1_ps (NF_E1F_CLAMP),
			     _mm256_max_ps (_mm256_set1_ps (-87.0f), x));
  __m256 s;
  __m256 p = nf_e1f_reduce_avx2 (xc, &s);
  __m256 y = _mm256_fmsub_ps (s, p, _mm256_sub_ps (_mm256_set1_ps (1.0f), s));
  __m256 ylo
    = _mm256_add_ps (_mm256_set1_ps (-1.0f), _mm256_fmadd_ps (s, p, s));
  /* S/2 by the exponent field, for the lanes above the range (k >= 24).  */
  __m256 h = _mm256_castsi256_ps (
    _mm256_sub_epi32 (_mm256_castps_si256 (s), _mm256_set1_epi32 (1 << 23)));
  __m256 yhi
    = _mm256_add_ps (h, _mm256_fmadd_ps (h, p, _mm256_set1_ps (-0.5f)));
  yhi = _mm256_add_ps (yhi, yhi);
  y = _mm256_blendv_ps (
    y, ylo, _mm256_cmp_ps (x, _mm256_set1_ps (NF_E1F_LO), _CMP_LT_OQ));
  y = _mm256_blendv_ps (
    y, yhi, _mm256_cmp_ps (x, _mm256_set1_ps (NF_E1F_HI), _CMP_GT_OQ));
  return y;
}

/* Returns expm1 of each lane of X within 1 ulp: NaN quietened, +-0 and
   their sign kept, -Inf -> -1, overflow -> +Inf.  */
static inline __m256
nf_vexpm1f_fast_avx2 (__m256 x)
{
  __m256 s;
  __m256 p = nf_e1f_reduce_avx2 (x, &s);
  __m256 y = _mm256_fmsub_ps (s, p, _mm256_sub_ps (_mm256_set1_ps (1.0f), s));
  __m256 in
    = _mm256_and_ps (_mm256_cmp_ps (x, _mm256_set1_ps (NF_E1F_HI), _CMP_LE_OQ),
		     _mm256_cmp_ps (x, _mm256_set1_ps (NF_E1F_LO), _CMP_GE_OQ));
  if (__builtin_expect (_mm256_movemask_ps (in) != 0xff, 0))
    y = nf_vexpm1f_fast_slow_avx2 (x);
  return y;
}

#endif /* NF_EXPM1_FAST_AVX2_H */
