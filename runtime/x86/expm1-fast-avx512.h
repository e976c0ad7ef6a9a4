/* expm1-fast-avx512.h: nf_vexpm1f_fast_avx512, the fast-math expm1 of 16
   floats in a zmm, for nf_expm1_fast_f32_avx512 and for vector-ABI clones
   of the scalar functions.  Within 1 ulp (max 0.727 measured over all
   2^32 inputs); the algorithm and its error analysis are in
   expm1-fast-avx512.c.

   Include with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma and
   -ffp-contract=off (every FMA below is explicit and the analysis counts
   each rounding).  Round-to-nearest assumed; errno is never set.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EXPM1_FAST_AVX512_H
#define NF_EXPM1_FAST_AVX512_H

#include <immintrin.h>

#include "expm1-fast-consts.h"

/* Steps 1-3 of the design comment for X: set *Z to x 32/ln2 + SHIFT
   (m in its low bits), *TB to the table entry of j, and return p = expm1
   (r).  */
static inline __attribute__ ((always_inline)) __m512
nf_e1f_reduce_avx512 (__m512 x, __m512i *zp, __m512i *tbp)
{
  const __m512 shift = _mm512_set1_ps (NF_E1F_SHIFT);
  __m512 z = _mm512_fmadd_ps (x, _mm512_set1_ps (NF_E1F_INV), shift);
  __m512 md = _mm512_sub_ps (z, shift);
  /* r = (x - m L1) - (m L2 + D_j): the first difference is exact.  */
  __m512 t = _mm512_fnmadd_ps (md, _mm512_set1_ps (NF_E1F_L1), x);
  __m512i zi = _mm512_castps_si512 (z);
  __m512 d = _mm512_permutex2var_ps (_mm512_load_ps (nf_e1f_d), zi,
				     _mm512_load_ps (nf_e1f_d + 16));
  __m512 r
    = _mm512_sub_ps (t, _mm512_fmadd_ps (md, _mm512_set1_ps (NF_E1F_L2), d));
  *zp = zi;
  *tbp = _mm512_permutex2var_epi32 (_mm512_load_si512 (nf_e1f_tb), zi,
				    _mm512_load_si512 (nf_e1f_tb + 16));
  /* p = r + r (r q (r)), the inner product r q + 0 so that r = -0 gives
     p = -0.  */
  __m512 q = _mm512_fmadd_ps (_mm512_set1_ps (NF_E1F_Q2), r,
			      _mm512_set1_ps (NF_E1F_Q1));
  q = _mm512_fmadd_ps (q, r, _mm512_set1_ps (NF_E1F_Q0));
  __m512 v = _mm512_fmadd_ps (r, q, _mm512_setzero_ps ());
  return _mm512_fmadd_ps (r, v, r);
}

/* The slow path: every lane of X, also those outside [NF_E1F_LO,
   NF_E1F_HI], NaN and infinities.  Returns expm1 of each lane.  */
static __attribute__ ((noinline)) __m512
nf_vexpm1f_fast_slow_avx512 (__m512 x)
{
  /* |x| clamped to NF_E1F_CLAMP, sign kept (vrangeps, min magnitude),
     and x to -87 below, where the result is -1 anyway and S is still
     normal (a subnormal S costs a microcode assist per vector).  maxps
     returns its second operand when one is NaN: x's NaN goes through.  */
  __m512 xc
    = _mm512_max_ps (_mm512_set1_ps (-87.0f),
		     _mm512_range_ps (x, _mm512_set1_ps (NF_E1F_CLAMP), 0x02));
  __m512i zi, tb;
  __m512 p = nf_e1f_reduce_avx512 (xc, &zi, &tb);
  /* Here S by scalef, which neither overflows the exponent field nor
     wraps below 2^-126: T_j = the table entry plus j << 18, k = floor
     (m / 32).  */
  const __m512 shift = _mm512_set1_ps (NF_E1F_SHIFT);
  __m512 z = _mm512_castsi512_ps (zi);
  __m512i j = _mm512_and_si512 (zi, _mm512_set1_epi32 (31));
  __m512 tj
    = _mm512_castsi512_ps (_mm512_add_epi32 (tb, _mm512_slli_epi32 (j, 18)));
  __m512 kf = _mm512_roundscale_ps (
    _mm512_mul_ps (_mm512_sub_ps (z, shift), _mm512_set1_ps (0x1p-5f)),
    _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 s = _mm512_scalef_ps (tj, kf);
  /* Within the main range: S p - (1 - S), as the fast path.  */
  __m512 y = _mm512_fmsub_ps (s, p, _mm512_sub_ps (_mm512_set1_ps (1.0f), s));
  /* Below it (S < 2^-17): -1 + S (1 + p), S (1 + p) rounded first.  */
  __m512 ylo
    = _mm512_add_ps (_mm512_set1_ps (-1.0f), _mm512_fmadd_ps (s, p, s));
  /* Above it: 2 (S/2 + (S/2 p - 1/2)), at half scale so that S/2 is
     finite up to the clamp and the doubling overflows where due.  */
  __m512 h = _mm512_scalef_ps (tj, _mm512_sub_ps (kf, _mm512_set1_ps (1.0f)));
  __m512 yhi
    = _mm512_add_ps (h, _mm512_fmadd_ps (h, p, _mm512_set1_ps (-0.5f)));
  yhi = _mm512_add_ps (yhi, yhi);
  y = _mm512_mask_mov_ps (
    y, _mm512_cmp_ps_mask (x, _mm512_set1_ps (NF_E1F_LO), _CMP_LT_OQ), ylo);
  y = _mm512_mask_mov_ps (
    y, _mm512_cmp_ps_mask (x, _mm512_set1_ps (NF_E1F_HI), _CMP_GT_OQ), yhi);
  /* NaN: vrangeps may have turned a signalling NaN into a number.  */
  return _mm512_mask_add_ps (y, _mm512_cmp_ps_mask (x, x, _CMP_UNORD_Q), x, x);
}

/* Returns expm1 of each lane of X within 1 ulp: NaN quietened, +-0 and
   their sign kept, -Inf -> -1, overflow -> +Inf.  */
static inline __m512
nf_vexpm1f_fast_avx512 (__m512 x)
{
  __m512i zi, tb;
  __m512 p = nf_e1f_reduce_avx512 (x, &zi, &tb);
  /* S = 2^k T_j: m << 18 puts k into the exponent field and j << 18 into
     the mantissa, which the table entry takes back off.  Then expm1 (x) =
     S p - (1 - S), 1 - S exact: one rounding.  */
  __m512 s
    = _mm512_castsi512_ps (_mm512_add_epi32 (_mm512_slli_epi32 (zi, 18), tb));
  __m512 y = _mm512_fmsub_ps (s, p, _mm512_sub_ps (_mm512_set1_ps (1.0f), s));
  __mmask16 in = _mm512_mask_cmp_ps_mask (
    _mm512_cmp_ps_mask (x, _mm512_set1_ps (NF_E1F_HI), _CMP_LE_OQ), x,
    _mm512_set1_ps (NF_E1F_LO), _CMP_GE_OQ);
  if (__builtin_expect (in != 0xffff, 0))
    y = nf_vexpm1f_fast_slow_avx512 (x);
  return y;
}

/* The 32-entry lookups of 8 lanes for the ymm form below: one
   vpermt2ps of the zmm table pair, with the ymm index in the low half of
   the zmm index (the upper lanes of the result unused).  */
static inline __attribute__ ((always_inline)) __m256
nf_lut32x8_avx512 (const void *tab, __m256i idx)
{
  const float *t = (const float *) tab;
  return _mm512_castps512_ps256 (_mm512_permutex2var_ps (
    _mm512_load_ps (t), _mm512_castsi256_si512 (idx), _mm512_load_ps (t + 16)));
}

/* nf_vexpm1f_fast_avx512 on the 8 lanes of a ymm (AVX-512VL): the same
   operations lane for lane, so the same bits; for the b, c and d clones
   (fast-forms-avx512.c), where a zmm would compute twice as many lanes
   as are used (Zen 4 runs a 512-bit operation as two 256-bit ones).
   The rare vector with a lane out of range goes to the zmm slow path,
   upper half zero.  */
static inline __m256
nf_vexpm1f_fast_x8_avx512 (__m256 x)
{
  const __m256 shift = _mm256_set1_ps (NF_E1F_SHIFT);
  __m256 z = _mm256_fmadd_ps (x, _mm256_set1_ps (NF_E1F_INV), shift);
  __m256 md = _mm256_sub_ps (z, shift);
  __m256 t = _mm256_fnmadd_ps (md, _mm256_set1_ps (NF_E1F_L1), x);
  __m256i zi = _mm256_castps_si256 (z);
  __m256 d = nf_lut32x8_avx512 (nf_e1f_d, zi);
  __m256 r
    = _mm256_sub_ps (t, _mm256_fmadd_ps (md, _mm256_set1_ps (NF_E1F_L2), d));
  __m256i tb = _mm256_castps_si256 (nf_lut32x8_avx512 (nf_e1f_tb, zi));
  __m256 q = _mm256_fmadd_ps (_mm256_set1_ps (NF_E1F_Q2), r,
			      _mm256_set1_ps (NF_E1F_Q1));
  q = _mm256_fmadd_ps (q, r, _mm256_set1_ps (NF_E1F_Q0));
  __m256 v = _mm256_fmadd_ps (r, q, _mm256_setzero_ps ());
  __m256 p = _mm256_fmadd_ps (r, v, r);
  __m256 s
    = _mm256_castsi256_ps (_mm256_add_epi32 (_mm256_slli_epi32 (zi, 18), tb));
  __m256 y = _mm256_fmsub_ps (s, p, _mm256_sub_ps (_mm256_set1_ps (1.0f), s));
  __mmask8 in = _mm256_mask_cmp_ps_mask (
    _mm256_cmp_ps_mask (x, _mm256_set1_ps (NF_E1F_HI), _CMP_LE_OQ), x,
    _mm256_set1_ps (NF_E1F_LO), _CMP_GE_OQ);
  if (__builtin_expect (in != 0xff, 0))
    y = _mm512_castps512_ps256 (
      nf_vexpm1f_fast_slow_avx512 (_mm512_zextps256_ps512 (x)));
  return y;
}

#endif /* NF_EXPM1_FAST_AVX512_H */
