/* log1p-fast-avx512.h: nf_vlog1pf_fast_avx512, the fast-math log1p of 16
   floats in a zmm, for nf_log1p_fast_f32_avx512 and for vector-ABI clones
   of the scalar functions.  Within 1 ulp (max 0.753 measured over all
   2^32 inputs); the algorithm and its error analysis are in
   log1p-fast-avx512.c.  No branch: every input, NaN and infinities
   included, takes the same path.

   Include with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma and
   -ffp-contract=off (every FMA below is explicit and the analysis counts
   each rounding).  Round-to-nearest assumed; errno is never set.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LOG1P_FAST_AVX512_H
#define NF_LOG1P_FAST_AVX512_H

#include <immintrin.h>

#include "log1p-fast-consts.h"

/* vfixupimmps responses by the class of u = 1 + x (4 bits per class,
   QNaN first): QNaN, SNaN -> u quietened; 0 (x = -1) -> -Inf; 1 -> keep;
   -Inf, negative (x < -1) -> the default NaN; +Inf -> +Inf; positive ->
   keep.  */
#define NF_L1F_FIXUP 0x03530422

/* Returns log1p of each lane of X within 1 ulp: NaN for x < -1 (and
   -Inf), -Inf for -1, +Inf for +Inf, NaN quietened, +-0 and their sign
   kept.  */
static inline __m512
nf_vlog1pf_fast_avx512 (__m512 x)
{
  /* u = 1 + x rounded only decides k and the bucket; r below uses x.  */
  __m512 u = _mm512_add_ps (x, _mm512_set1_ps (1.0f));
  __m512i ixn
    = _mm512_sub_epi32 (_mm512_set1_epi32 (NF_L1F_C), _mm512_castps_si512 (u));
  __m512i kn = _mm512_srai_epi32 (ixn, 23);
  __m512 kfn = _mm512_cvtepi32_ps (kn);
  __m512i j = _mm512_srli_epi32 (ixn, 18);
  __m512 rr = _mm512_permutex2var_ps (_mm512_load_ps (nf_l1f_r), j,
				      _mm512_load_ps (nf_l1f_r + 16));
  /* RS = R 2^-k, exact; r = RS x - (1 - RS) = RS (1 + x) - 1, 1 - RS
     exact for k <= 12: one rounding, of the exact 1 + x.  The product
     is formed as R (x 2^-k), the same exact value: RS itself is
     subnormal for x above 2^125, which the flush-to-zero mode of
     -ffast-math programs would make 0 (r = -1); x 2^-k is near 1.  */
  __m512 rs = _mm512_scalef_ps (rr, kfn);
  __m512 r = _mm512_fmsub_ps (rr, _mm512_scalef_ps (x, kfn),
			      _mm512_sub_ps (_mm512_set1_ps (1.0f), rs));
  /* hi = k LN2_HI + T_hi exactly, lo = k LN2_LO + T_lo.  */
  __m512 thi = _mm512_permutex2var_ps (_mm512_load_ps (nf_l1f_thi), j,
				       _mm512_load_ps (nf_l1f_thi + 16));
  __m512 tlo = _mm512_permutex2var_ps (_mm512_load_ps (nf_l1f_tlo), j,
				       _mm512_load_ps (nf_l1f_tlo + 16));
  __m512 hi = _mm512_fnmadd_ps (kfn, _mm512_set1_ps (NF_L1F_LN2_HI), thi);
  __m512 lo = _mm512_fnmadd_ps (kfn, _mm512_set1_ps (NF_L1F_LN2_LO), tlo);
  /* log1p (r) = r + (-r^2) (-P (r)); -r^2 - 0 is -0 for r = +-0, which
     keeps x = -0 at -0 through the sums.  */
  __m512 r2n = _mm512_fnmsub_ps (r, r, _mm512_setzero_ps ());
  __m512 pn = _mm512_fmadd_ps (_mm512_set1_ps (NF_L1F_PN3), r,
			       _mm512_set1_ps (NF_L1F_PN2));
  pn = _mm512_fmadd_ps (pn, r, _mm512_set1_ps (NF_L1F_PN1));
  pn = _mm512_fmadd_ps (pn, r, _mm512_set1_ps (NF_L1F_PN0));
  __m512 t = _mm512_fmadd_ps (r2n, pn, lo);
  __m512 y = _mm512_add_ps (hi, _mm512_add_ps (r, t));
  return _mm512_fixupimm_ps (y, u, _mm512_set1_epi32 (NF_L1F_FIXUP), 0);
}

/* nf_vlog1pf_fast_avx512 on the 8 lanes of a ymm (AVX-512VL): the same
   operations lane for lane, so the same bits (for the b, c and d
   clones, fast-forms-avx512.c); each 32-entry lookup is one vpermt2ps
   of the zmm table pair, the ymm index in the low half.  */
static inline __m256
nf_vlog1pf_fast_x8_avx512 (__m256 x)
{
#define NF_L1F_LUT8(tab, j)                                                    \
  _mm512_castps512_ps256 (_mm512_permutex2var_ps (                             \
    _mm512_load_ps (tab), _mm512_castsi256_si512 (j), _mm512_load_ps ((tab) + 16)))
  __m256 u = _mm256_add_ps (x, _mm256_set1_ps (1.0f));
  __m256i ixn
    = _mm256_sub_epi32 (_mm256_set1_epi32 (NF_L1F_C), _mm256_castps_si256 (u));
  __m256i kn = _mm256_srai_epi32 (ixn, 23);
  __m256 kfn = _mm256_cvtepi32_ps (kn);
  __m256i j = _mm256_srli_epi32 (ixn, 18);
  __m256 rr = NF_L1F_LUT8 (nf_l1f_r, j);
  __m256 rs = _mm256_scalef_ps (rr, kfn);
  __m256 r = _mm256_fmsub_ps (rr, _mm256_scalef_ps (x, kfn),
			      _mm256_sub_ps (_mm256_set1_ps (1.0f), rs));
  __m256 thi = NF_L1F_LUT8 (nf_l1f_thi, j);
  __m256 tlo = NF_L1F_LUT8 (nf_l1f_tlo, j);
  __m256 hi = _mm256_fnmadd_ps (kfn, _mm256_set1_ps (NF_L1F_LN2_HI), thi);
  __m256 lo = _mm256_fnmadd_ps (kfn, _mm256_set1_ps (NF_L1F_LN2_LO), tlo);
  __m256 r2n = _mm256_fnmsub_ps (r, r, _mm256_setzero_ps ());
  __m256 pn = _mm256_fmadd_ps (_mm256_set1_ps (NF_L1F_PN3), r,
			       _mm256_set1_ps (NF_L1F_PN2));
  pn = _mm256_fmadd_ps (pn, r, _mm256_set1_ps (NF_L1F_PN1));
  pn = _mm256_fmadd_ps (pn, r, _mm256_set1_ps (NF_L1F_PN0));
  __m256 t = _mm256_fmadd_ps (r2n, pn, lo);
  __m256 y = _mm256_add_ps (hi, _mm256_add_ps (r, t));
  return _mm256_fixupimm_ps (y, u, _mm256_set1_epi32 (NF_L1F_FIXUP), 0);
#undef NF_L1F_LUT8
}

#endif /* NF_LOG1P_FAST_AVX512_H */
