/* lut32-avx2.h: 32-entry table lookups for the AVX2 fast-math kernels
   (expm1-fast-avx2.h, log1p-fast-avx2.h), which share their tables with
   the AVX-512 kernels' vpermt2ps.  AVX2's vpermps reaches 8 entries: the
   lookup permutes each quarter of the table by bits 0..2 of the index
   and picks among the four by bits 3 and 4 (vblendvps, on the sign bits
   of the index shifted left by 28 and 27).  Seven instructions: the
   kernels ran 2 to 2.7 times slower with vgatherdps instead (measured on
   the Zen 5 development machine; on Intel CPUs with the microcode
   mitigation of Gather Data Sampling, 2023, gathers are slower still).

   Include with -mavx2.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LUT32_AVX2_H
#define NF_LUT32_AVX2_H

#include <immintrin.h>

/* A table of 32 floats (or their bits) in four registers.  */
struct nf_lut32
{
  __m256 q0, q1, q2, q3;
};

/* The selectors of an index vector: bits 3 and 4 moved to the sign.  */
struct nf_sel32
{
  __m256i idx;
  __m256 b3, b4;
};

static inline __attribute__ ((always_inline)) struct nf_lut32
nf_lut32_load (const void *tab)
{
  const float *t = (const float *) tab;
  struct nf_lut32 l = { _mm256_loadu_ps (t), _mm256_loadu_ps (t + 8),
			_mm256_loadu_ps (t + 16), _mm256_loadu_ps (t + 24) };
  return l;
}

/* The selectors of IDX; only its bits 0..4 count.  */
static inline __attribute__ ((always_inline)) struct nf_sel32
nf_sel32 (__m256i idx)
{
  struct nf_sel32 s = { idx, _mm256_castsi256_ps (_mm256_slli_epi32 (idx, 28)),
			_mm256_castsi256_ps (_mm256_slli_epi32 (idx, 27)) };
  return s;
}

/* Returns the entries of L at the indices of S.  */
static inline __attribute__ ((always_inline)) __m256
nf_lut32 (const struct nf_lut32 *l, const struct nf_sel32 *s)
{
  __m256 a = _mm256_blendv_ps (_mm256_permutevar8x32_ps (l->q0, s->idx),
			       _mm256_permutevar8x32_ps (l->q1, s->idx), s->b3);
  __m256 b = _mm256_blendv_ps (_mm256_permutevar8x32_ps (l->q2, s->idx),
			       _mm256_permutevar8x32_ps (l->q3, s->idx), s->b3);
  return _mm256_blendv_ps (a, b, s->b4);
}

#endif /* NF_LUT32_AVX2_H */
