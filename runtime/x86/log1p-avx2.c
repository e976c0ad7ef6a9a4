/* nf_log1p_f32_avx2 / nf_log1p_f64_avx2: y[i] = log1p (x[i]) with AVX2
   and FMA, four doubles per ymm.

   The algorithm, tables, polynomials (log1p-consts.h) and error analysis
   are those of log1p-avx512.c (read its design comment first); this file
   differs only where AVX2 lacks an instruction:
   1. k = exponent of u: no 64-bit arithmetic shift nor int64 -> double
      conversion, so (bits (u) - OFF + 1024 2^52) >> 52 = k + 1024 is
      put into the low mantissa bits of 2^52 and 2^52 + 1024 subtracted.
   2. 2^-k (for the c term): built as the bits of 1.0 minus k 2^52, which
      is only valid for k <= 1022, so it is zeroed for u >= 2^1000 (there
      c is 0 or +-2 and its term is far below an ulp of log u).
   3. Table look-up: four VPERMPS (dword pairs) on the four quarters of a
      16-entry table and three VBLENDVPD pick the entry.  That is 7
      instructions a table, yet faster here than VGATHERQPD.
   4. Tails: VMASKMOVPD / VMASKMOVPS loads and stores.
   Accuracy is the same as the AVX-512 kernels' (same operations, same
   roundings).

   Limitations: round-to-nearest assumed; no errno or FP exception flags
   promised.

   FP contraction: off for the whole file; every fused multiply-add is an
   explicit _mm256_fmadd_pd etc., because the error analysis relies on
   which products are rounded.

   nf_log1p_pz_*: the same loops with one addition of +0.0 per vector,
   so that x = -0 gives +0 (neuronfuse.h); nothing else changes.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#pragma GCC optimize("fp-contract=off")

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../simd.h"
#include "log1p-consts.h"

#define SET1 _mm256_set1_pd
#define FMA _mm256_fmadd_pd
#define I64 _mm256_set1_epi64x

/* Index operands of lookup for bucket numbers J (bits 0..3 used): *IDX
   the VPERMD dword indices (2 (j & 3), 2 (j & 3) + 1), *B2 and *B3 bits 2
   and 3 of j in the sign bits.  */
static inline __attribute__ ((always_inline)) void
lookup_prep (__m256i j, __m256i *idx, __m256d *b2, __m256d *b3)
{
  __m256i j2 = _mm256_slli_epi64 (j, 1);
  *idx = _mm256_add_epi64 (_mm256_add_epi64 (j2, _mm256_slli_epi64 (j2, 32)),
			   I64 (1LL << 32));
  *b2 = _mm256_castsi256_pd (_mm256_slli_epi64 (j, 61));
  *b3 = _mm256_castsi256_pd (_mm256_slli_epi64 (j, 60));
}

/* T[j] for each lane, T a 16-entry table: four VPERMPS with T's quarters
   as memory operands (registers would spill: AVX2 has 16), then two
   levels of VBLENDVPD.  On the AMD Zen core measured, this is faster than
   VGATHERQPD.  */
static inline __attribute__ ((always_inline)) __m256d
lookup (const double *t, __m256i idx, __m256d b2, __m256d b3)
{
#define Q(i)                                                                   \
  _mm256_castps_pd (_mm256_permutevar8x32_ps (                                 \
    _mm256_castpd_ps (_mm256_load_pd (t + 4 * i)), idx))
  __m256d p0 = Q (0), p1 = Q (1), p2 = Q (2), p3 = Q (3);
#undef Q
  return _mm256_blendv_pd (_mm256_blendv_pd (p0, p1, b2),
			   _mm256_blendv_pd (p2, p3, b2), b3);
}

/* Steps 1-3 of log1p-avx512.c: from X, set *U = 1 + x rounded, *Z the
   reduced argument, *KD = k as a double, *EX = k 2^52 as an integer;
   return the bucket index in bits 0..3 (higher bits are garbage).  */
static inline __attribute__ ((always_inline)) __m256i
reduce (__m256d x, __m256d *u, __m256d *z, __m256d *kd, __m256i *ex)
{
  *u = _mm256_add_pd (x, SET1 (1.0));
  __m256i ix = _mm256_castpd_si256 (*u);
  __m256i tmp = _mm256_sub_epi64 (ix, I64 (OFF));
  *ex = _mm256_and_si256 (tmp, I64 ((int64_t) 0xfff0000000000000ULL));
  *z = _mm256_castsi256_pd (_mm256_sub_epi64 (ix, *ex));
  /* k + 1024 in [970, 2048], in the mantissa of 2^52.  */
  __m256i kb
    = _mm256_srli_epi64 (_mm256_add_epi64 (tmp, I64 (1024LL << 52)), 52);
  *kd = _mm256_sub_pd (
    _mm256_castsi256_pd (_mm256_or_si256 (kb, I64 (0x4330000000000000LL))),
    SET1 (0x1p52 + 1024));
  return _mm256_srli_epi64 (tmp, 48);
}

/* log1p (x) in double to within about 0.54 ulp for x in (-1, +Inf) and
   x != -0; other lanes are garbage (see fixup).  */
static inline __attribute__ ((always_inline)) __m256d
core_f64 (__m256d x, const double *tr, const double *th, const double *tl)
{
  __m256d u, z, kd;
  __m256i ex;
  __m256i j = reduce (x, &u, &z, &kd, &ex);
  __m256d c = _mm256_sub_pd (x, _mm256_sub_pd (u, SET1 (1.0)));
  __m256i idx;
  __m256d b2, b3;
  lookup_prep (j, &idx, &b2, &b3);
  __m256d rr = lookup (tr, idx, b2, b3);
  __m256d thi = lookup (th, idx, b2, b3);
  __m256d tlo = lookup (tl, idx, b2, b3);

  /* z R = p + plo exactly, and r = p - 1 exactly (Sterbenz).  */
  __m256d p = _mm256_mul_pd (z, rr);
  __m256d plo = _mm256_fmsub_pd (z, rr, p);
  __m256d r = _mm256_sub_pd (p, SET1 (1.0));
  /* For |x| < 2^-7, k = 0 and R = 1, so r + c = x exactly: use r = x,
     c = 0 (see log1p-avx512.c).  */
  __m256d small = _mm256_cmp_pd (_mm256_andnot_pd (SET1 (-0.0), x),
				 SET1 (0x1p-7), _CMP_LT_OQ);
  r = _mm256_blendv_pd (r, x, small);
  c = _mm256_andnot_pd (small, c);

  /* g = plo + c R 2^-k; 2^-k is zeroed where u >= 2^1000.  */
  __m256d scale = _mm256_and_pd (
    _mm256_castsi256_pd (_mm256_sub_epi64 (I64 (0x3ff0000000000000LL), ex)),
    _mm256_cmp_pd (u, SET1 (0x1p1000), _CMP_LT_OQ));
  __m256d cc = _mm256_mul_pd (_mm256_mul_pd (c, rr), scale);
  __m256d g = _mm256_add_pd (plo, cc);
  __m256d corr = _mm256_fnmadd_pd (g, FMA (g, SET1 (0.5), r), g);

  /* w = k ln2_hi + T_hi exactly; hi + lo1 = w + r by Fast2Sum.  */
  __m256d w = FMA (kd, SET1 (LN2_HI), thi);
  __m256d hi = _mm256_add_pd (w, r);
  __m256d lo1 = _mm256_add_pd (_mm256_sub_pd (w, hi), r);
  __m256d lo2 = FMA (kd, SET1 (LN2_LO), tlo);

  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q = FMA (SET1 (D8), r, SET1 (D7));
  q = FMA (q, r, SET1 (D6));
  q = FMA (q, r, SET1 (D5));
  q = FMA (q, r, SET1 (D4));
  q = FMA (q, r, SET1 (D3));
  q = FMA (q, r, SET1 (D2));
  q = FMA (q, r, SET1 (D1));
  q = FMA (q, r, SET1 (D0));

  __m256d tail = _mm256_add_pd (_mm256_add_pd (lo1, lo2), corr);
  tail = FMA (r2, q, tail);
  return _mm256_add_pd (hi, tail);
}

/* log1p (x) in double to within about 2^-49 relative, for float X
   widened to double, x in (-1, +Inf) and x != -0.  */
static inline __attribute__ ((always_inline)) __m256d
core_f32 (__m256d x, const double *tr, const double *tt32)
{
  __m256d u, z, kd;
  __m256i ex;
  __m256i j = reduce (x, &u, &z, &kd, &ex);
  __m256i idx;
  __m256d b2, b3;
  lookup_prep (j, &idx, &b2, &b3);
  __m256d rr = lookup (tr, idx, b2, b3);
  __m256d tt = lookup (tt32, idx, b2, b3);
  __m256d r = _mm256_fmsub_pd (z, rr, SET1 (1.0));
  /* 1 + x is exact for float x unless |x| < 2^-29 (or x = 2^53, where
     the error is negligible): for |x| < 2^-7, where k = 0 and R = 1, take
     r = x itself.  */
  r = _mm256_blendv_pd (r, x,
			_mm256_cmp_pd (_mm256_andnot_pd (SET1 (-0.0), x),
				       SET1 (0x1p-7), _CMP_LT_OQ));
  __m256d w = FMA (kd, SET1 (LN2), tt);
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q = FMA (SET1 (F6), r, SET1 (F5));
  q = FMA (q, r, SET1 (F4));
  q = FMA (q, r, SET1 (F3));
  q = FMA (q, r, SET1 (F2));
  q = FMA (q, r, SET1 (F1));
  q = FMA (q, r, SET1 (F0));
  return _mm256_add_pd (w, FMA (r2, q, r));
}

/* Y with the lanes of X that core_* cannot do set as libm's log1p sets
   them: NaN for NaN and x < -1, -Inf for -1, +Inf for +Inf, -0 for -0.
   Returns the patched Y.  */
static __attribute__ ((noinline)) __m256d
fixup (__m256d x, __m256d y)
{
  __m256d d = _mm256_sub_pd (x, x); /* 0, or NaN for NaN and Inf.  */
  y = _mm256_blendv_pd (y, _mm256_div_pd (d, d),
			_mm256_cmp_pd (x, SET1 (-1.0), _CMP_NGE_UQ));
  y = _mm256_blendv_pd (y, SET1 (-__builtin_inf ()),
			_mm256_cmp_pd (x, SET1 (-1.0), _CMP_EQ_OQ));
  __m256d keep
    = _mm256_or_pd (_mm256_cmp_pd (x, SET1 (__builtin_inf ()), _CMP_EQ_OQ),
		    _mm256_castsi256_pd (_mm256_cmpeq_epi64 (
		      _mm256_castpd_si256 (x), I64 (INT64_MIN))));
  return _mm256_blendv_pd (y, x, keep);
}

/* Nonzero if a lane of X is NaN, <= -1, +Inf or -0.  */
static inline __attribute__ ((always_inline)) int
special_f64 (__m256d x)
{
  __m256d m
    = _mm256_or_pd (_mm256_cmp_pd (x, SET1 (-1.0), _CMP_NGT_UQ),
		    _mm256_cmp_pd (x, SET1 (__builtin_inf ()), _CMP_EQ_OQ));
  m = _mm256_or_pd (m, _mm256_castsi256_pd (_mm256_cmpeq_epi64 (
			 _mm256_castpd_si256 (x), I64 (INT64_MIN))));
  return _mm256_movemask_pd (m);
}

/* Compute the f64 result of the 4 lanes at X.  */
static inline __attribute__ ((always_inline)) __m256d
block_f64 (__m256d x, const double *tr, const double *th, const double *tl)
{
  __m256d y = core_f64 (x, tr, th, tl);
  if (__builtin_expect (special_f64 (x) != 0, 0))
    y = fixup (x, y);
  return y;
}

/* y[i] = log1p(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
log1p_f64_loop (double *y, const double *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm256_add_pd ((v), _mm256_setzero_pd ()) : (v))
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd (
      y + i, PZ (block_f64 (_mm256_loadu_pd (x + i), tab_r, tab_thi, tab_tlo)));
  if (i < n)
    {
      __m256i m = _mm256_cmpgt_epi64 (I64 ((int64_t) (n - i)),
				      _mm256_set_epi64x (3, 2, 1, 0));
      __m256d v
	= PZ (block_f64 (_mm256_maskload_pd (x + i, m), tab_r, tab_thi, tab_tlo));
      _mm256_maskstore_pd (y + i, m, v);
    }
#undef PZ
}

void
nf_log1p_f64_avx2 (double *y, const double *x, size_t n)
{
  log1p_f64_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_log1p_pz_f64_avx2 (double *y, const double *x, size_t n)
{
  log1p_f64_loop (y, x, n, 1);
}

/* Compute the f32 result of the 8 floats of X.  */
static inline __attribute__ ((always_inline)) __m256
block_f32 (__m256 x, const double *tr, const double *tt)
{
  __m256d xl = _mm256_cvtps_pd (_mm256_castps256_ps128 (x));
  __m256d xh = _mm256_cvtps_pd (_mm256_extractf128_ps (x, 1));
  __m256d yl = core_f32 (xl, tr, tt);
  __m256d yh = core_f32 (xh, tr, tt);
  __m256 m = _mm256_or_ps (
    _mm256_cmp_ps (x, _mm256_set1_ps (-1.0f), _CMP_NGT_UQ),
    _mm256_cmp_ps (x, _mm256_set1_ps (__builtin_inff ()), _CMP_EQ_OQ));
  m = _mm256_or_ps (m,
		    _mm256_castsi256_ps (_mm256_cmpeq_epi32 (
		      _mm256_castps_si256 (x), _mm256_set1_epi32 (INT32_MIN))));
  if (__builtin_expect (_mm256_movemask_ps (m) != 0, 0))
    {
      yl = fixup (xl, yl);
      yh = fixup (xh, yh);
    }
  return _mm256_set_m128 (_mm256_cvtpd_ps (yh), _mm256_cvtpd_ps (yl));
}

/* y[i] = log1p(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
log1p_f32_loop (float *y, const float *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm256_add_ps ((v), _mm256_setzero_ps ()) : (v))
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps (y + i,
		      PZ (block_f32 (_mm256_loadu_ps (x + i), tab_r, tab_t32)));
  if (i < n)
    {
      __m256i m
	= _mm256_cmpgt_epi32 (_mm256_set1_epi32 ((int) (n - i)),
			      _mm256_set_epi32 (7, 6, 5, 4, 3, 2, 1, 0));
      __m256 v = PZ (block_f32 (_mm256_maskload_ps (x + i, m), tab_r, tab_t32));
      _mm256_maskstore_ps (y + i, m, v);
    }
#undef PZ
}

void
nf_log1p_f32_avx2 (float *y, const float *x, size_t n)
{
  log1p_f32_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_log1p_pz_f32_avx2 (float *y, const float *x, size_t n)
{
  log1p_f32_loop (y, x, n, 1);
}

/* The clones' registers (simd.h): block_f32 on 8 lanes, its half on 4.  */
__m256
nf_log1pf_x8_avx2 (__m256 x)
{
  return block_f32 (x, tab_r, tab_t32);
}

__m128
nf_log1pf_x4_avx2 (__m128 x)
{
  __m256d xd = _mm256_cvtps_pd (x);
  __m256d y = core_f32 (xd, tab_r, tab_t32);
  __m128 m
    = _mm_or_ps (_mm_cmp_ps (x, _mm_set1_ps (-1.0f), _CMP_NGT_UQ),
		 _mm_cmp_ps (x, _mm_set1_ps (__builtin_inff ()), _CMP_EQ_OQ));
  m = _mm_or_ps (m, _mm_castsi128_ps (_mm_cmpeq_epi32 (
		      _mm_castps_si128 (x), _mm_set1_epi32 (INT32_MIN))));
  if (__builtin_expect (_mm_movemask_ps (m) != 0, 0))
    y = fixup (xd, y);
  return _mm256_cvtpd_ps (y);
}
