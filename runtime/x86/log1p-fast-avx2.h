/* log1p-fast-avx2.h: nf_vlog1pf_fast_avx2, the fast-math log1p of 8
   floats in a ymm, for nf_log1p_fast_f32_avx2 and for vector-ABI clones
   of the scalar functions.  The algorithm, tables and results of the
   AVX-512 one (log1p-fast-avx512.c has the design comment and the error
   analysis); what differs: the three table lookups are four vpermps
   and three vblendvps each (lut32-avx2.h), R 2^-k is built from bits, which is
   only valid for k <= 125, and what AVX-512's vscalefps and vfixupimmps
   do in line (k up to 128, NaN, x <= -1, +Inf) is a slow path, taken when
   a compare finds such a lane.

   Include with -mavx2 -mfma and -ffp-contract=off.  Round-to-nearest
   assumed; errno is never set.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LOG1P_FAST_AVX2_H
#define NF_LOG1P_FAST_AVX2_H

#include <immintrin.h>

#include "log1p-fast-consts.h"
#include "lut32-avx2.h"

/* Returns log1p (x) from R = R_j 2^-k (1 + x) - 1 (rounded once), the
   bucket J and KFN = -k as a float: steps 4-6 of the design comment.  */
static inline __attribute__ ((always_inline)) __m256
nf_l1f_finish_avx2 (__m256 r, const struct nf_sel32 *j, __m256 kfn)
{
  struct nf_lut32 th = nf_lut32_load (nf_l1f_thi);
  struct nf_lut32 tl = nf_lut32_load (nf_l1f_tlo);
  __m256 thi = nf_lut32 (&th, j);
  __m256 tlo = nf_lut32 (&tl, j);
  __m256 hi = _mm256_fnmadd_ps (kfn, _mm256_set1_ps (NF_L1F_LN2_HI), thi);
  __m256 lo = _mm256_fnmadd_ps (kfn, _mm256_set1_ps (NF_L1F_LN2_LO), tlo);
  __m256 r2n = _mm256_fnmsub_ps (r, r, _mm256_setzero_ps ());
  __m256 pn = _mm256_fmadd_ps (_mm256_set1_ps (NF_L1F_PN3), r,
			       _mm256_set1_ps (NF_L1F_PN2));
  pn = _mm256_fmadd_ps (pn, r, _mm256_set1_ps (NF_L1F_PN1));
  pn = _mm256_fmadd_ps (pn, r, _mm256_set1_ps (NF_L1F_PN0));
  __m256 t = _mm256_fmadd_ps (r2n, pn, lo);
  return _mm256_add_ps (hi, _mm256_add_ps (r, t));
}

/* The slow path: every lane of X.  2^-k is applied in two halves, to R
   and to x, so that both stay normal up to k = 128; special lanes are
   set afterwards.  */
static __attribute__ ((noinline)) __m256
nf_vlog1pf_fast_slow_avx2 (__m256 x)
{
  __m256 u = _mm256_add_ps (x, _mm256_set1_ps (1.0f));
  __m256i ixn
    = _mm256_sub_epi32 (_mm256_set1_epi32 (NF_L1F_C), _mm256_castps_si256 (u));
  __m256i kn = _mm256_srai_epi32 (ixn, 23);
  struct nf_sel32 j = nf_sel32 (_mm256_srli_epi32 (ixn, 18));
  struct nf_lut32 rt = nf_lut32_load (nf_l1f_r);
  __m256 rr = nf_lut32 (&rt, &j);
  /* -k = kn = k1 + k2; R 2^k1 and x 2^k2 (x is normal where k2 != 0).  */
  __m256i k1 = _mm256_srai_epi32 (kn, 1);
  __m256i k2 = _mm256_sub_epi32 (kn, k1);
  __m256 rs1 = _mm256_castsi256_ps (
    _mm256_add_epi32 (_mm256_castps_si256 (rr), _mm256_slli_epi32 (k1, 23)));
  __m256 a = _mm256_castsi256_ps (
    _mm256_add_epi32 (_mm256_castps_si256 (x), _mm256_slli_epi32 (k2, 23)));
  /* 1 - R 2^-k with kn clamped to -100: 1 - RS rounds to 1 anyway.  */
  __m256i knc = _mm256_max_epi32 (kn, _mm256_set1_epi32 (-100));
  __m256 rs = _mm256_castsi256_ps (
    _mm256_add_epi32 (_mm256_castps_si256 (rr), _mm256_slli_epi32 (knc, 23)));
  __m256 r
    = _mm256_fmsub_ps (rs1, a, _mm256_sub_ps (_mm256_set1_ps (1.0f), rs));
  __m256 y = nf_l1f_finish_avx2 (r, &j, _mm256_cvtepi32_ps (kn));
  /* u = 0 (x = -1): -Inf; u < 0 or NaN: NaN (x's, quietened, or the
     default one); u = +Inf: +Inf.  */
  const __m256 inf = _mm256_set1_ps (__builtin_inff ());
  __m256 zero = _mm256_setzero_ps ();
  y = _mm256_blendv_ps (y, _mm256_sub_ps (zero, inf),
			_mm256_cmp_ps (u, zero, _CMP_EQ_OQ));
  __m256 nan = _mm256_sub_ps (_mm256_add_ps (u, inf), inf);
  y = _mm256_blendv_ps (y, nan, _mm256_cmp_ps (u, zero, _CMP_NGE_UQ));
  return _mm256_blendv_ps (y, inf, _mm256_cmp_ps (u, inf, _CMP_EQ_OQ));
}

/* Returns log1p of each lane of X within 1 ulp: NaN for x < -1 (and
   -Inf), -Inf for -1, +Inf for +Inf, NaN quietened, +-0 and their sign
   kept.  */
static inline __m256
nf_vlog1pf_fast_avx2 (__m256 x)
{
  __m256 u = _mm256_add_ps (x, _mm256_set1_ps (1.0f));
  __m256i ixn
    = _mm256_sub_epi32 (_mm256_set1_epi32 (NF_L1F_C), _mm256_castps_si256 (u));
  __m256i kn = _mm256_srai_epi32 (ixn, 23);
  struct nf_sel32 j = nf_sel32 (_mm256_srli_epi32 (ixn, 18));
  struct nf_lut32 rt = nf_lut32_load (nf_l1f_r);
  __m256 rr = nf_lut32 (&rt, &j);
  /* RS = R 2^-k by the exponent field: normal for u < 2^125 (k <= 125).  */
  __m256 rs = _mm256_castsi256_ps (
    _mm256_add_epi32 (_mm256_castps_si256 (rr), _mm256_slli_epi32 (kn, 23)));
  __m256 r = _mm256_fmsub_ps (rs, x, _mm256_sub_ps (_mm256_set1_ps (1.0f), rs));
  __m256 y = nf_l1f_finish_avx2 (r, &j, _mm256_cvtepi32_ps (kn));
  /* 0 < u < 2^125, false for NaN.  */
  __m256 ok
    = _mm256_and_ps (_mm256_cmp_ps (u, _mm256_setzero_ps (), _CMP_GT_OQ),
		     _mm256_cmp_ps (u, _mm256_set1_ps (0x1p125f), _CMP_LT_OQ));
  if (__builtin_expect (_mm256_movemask_ps (ok) != 0xff, 0))
    y = nf_vlog1pf_fast_slow_avx2 (x);
  return y;
}

#endif /* NF_LOG1P_FAST_AVX2_H */
