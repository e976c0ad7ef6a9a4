/* nf_log1p_f32_avx512 / nf_log1p_f64_avx512: y[i] = log1p (x[i]) with
   AVX-512 (F, DQ), eight doubles per zmm.

   Algorithm (a table-driven logarithm in the manner of Tang, "Table-driven
   implementation of the logarithm function in IEEE floating-point
   arithmetic", ACM TOMS 16, 1990, with the 1 + x splitting of log1p):
   1. u = 1 + x rounded; c = x - (u - 1) is the exact rounding error
      whenever u < 2^53 (u - 1 is then exact), so 1 + x = u + c; for
      larger u, c is 0 or +-2 and c / u is far below the result's ulp.
   2. u = 2^k z with the bit pattern of z in [OFF, OFF + 2^52), i.e.
      z in [0.6953125, 1.390625), found with integer operations on the
      bits of u (OFF subtracted, the exponent field taken off).  k is in
      [-53, 1024]: u >= 2^-53 as x > -1, and u <= DBL_MAX.
   3. Bits 48..51 of bits (z) - OFF pick one of 16 buckets; vpermi2pd looks
      up R ~ 1 / centre of the bucket and T = -log (R) (as T_hi + T_lo
      for f64) from two registers.  The bucket holding 1 has R = 1, T = 0.
   4. r = z R - 1, |r| <= 0.0299: log (z) = T + log1p (r), and
      log1p (x) = k ln2 + T + log1p (r + c R 2^-k (1 - r) + ...).  For
      |x| < 2^-7, k = 0 and R = 1 and r = x, c = 0 is used instead: exact,
      and free of the cancellation between r = u - 1 and c near 2^-53.
   5. log1p (r) = r + r^2 P (r), P a Chebyshev fit of degree 8 (f64) or 6
      (f32) made by runtime/tools/log1p-coeffs.py.  The tables and the
      coefficients, which log1p-avx2.c shares, are in log1p-consts.h.
   6. f64: k ln2_hi + T_hi is exact (both multiples of 2^-42, |k| <= 1024)
      and r is added to it by Fast2Sum; the small terms (Fast2Sum error,
      k ln2_lo + T_lo, the rounding error of z R, the c term, r^2 P) are
      summed and added last.  f32: the same in plain double arithmetic.
   7. Special inputs (NaN, x <= -1, +Inf, -0) are rare: one mask test per
      vector, and a fix-up only for vectors that hold one.

   Error analysis.  f64: the polynomial is good to 2^-62 relative; z R
   is split exactly (product error by fma) so r + r_lo is exact; the
   Fast2Sum is exact; the tail is at most 2^-6 of the result, so its own
   rounding errors are a few 2^-59 relative.  Result: the final rounding
   (0.5 ulp) plus a few hundredths of an ulp: max 0.533 ulp measured over
   10^7 random inputs against MPFR (both ISAs).  f32: the
   double evaluation is good to about 2^-49 relative (the polynomial,
   2^-49.7, dominates), far below the 2^-45 needed for the float result
   to be within 0.5 + 2^-20 ulp after its one rounding; for float x,
   1 + x is exact unless |x| < 2^-29 (then r = x, step 4) or x = 2^53
   (error 2^-53 relative), so c is dropped.

   Limitations: round-to-nearest assumed; no errno or FP exception flags
   promised (the fix-up may raise invalid for x < -1, as libm does).
   Large x, up to DBL_MAX and FLT_MAX, goes through the main path (k up
   to 1024), so log1p (FLT_MAX) = 88.72... and log1p (DBL_MAX) = 709.78...

   FP contraction: off for the whole file; every fused multiply-add is an
   explicit _mm512_fmadd_pd etc., because the error analysis above relies
   on which products are rounded.

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

/* The table registers, loaded once per call.  */
struct tabs
{
  __m512d r0, r1, h0, h1, l0, l1;
};

#define SET1 _mm512_set1_pd
#define FMA _mm512_fmadd_pd

/* Steps 1-3 shared by both kernels: from X, set *U = 1 + x rounded,
   *Z the reduced argument, *KD = k as a double; return the bucket index
   (in bits 0..3 of each lane, as vpermi2pd wants it).  */
static inline __attribute__ ((always_inline)) __m512i
reduce (__m512d x, __m512d *u, __m512d *z, __m512d *kd)
{
  *u = _mm512_add_pd (x, SET1 (1.0));
  __m512i ix = _mm512_castpd_si512 (*u);
  __m512i tmp = _mm512_sub_epi64 (ix, _mm512_set1_epi64 (OFF));
  __m512i k = _mm512_srai_epi64 (tmp, 52);
  *z = _mm512_castsi512_pd (_mm512_sub_epi64 (ix, _mm512_slli_epi64 (k, 52)));
  *kd = _mm512_cvtepi64_pd (k);
  return _mm512_srli_epi64 (tmp, 48);
}

/* log1p (x) in double to within about 0.54 ulp for x in (-1, +Inf) and
   x != -0; other lanes are garbage (see fixup).  */
static inline __attribute__ ((always_inline)) __m512d
core_f64 (__m512d x, const struct tabs *t)
{
  __m512d u, z, kd;
  __m512i j = reduce (x, &u, &z, &kd);
  __m512d c = _mm512_sub_pd (x, _mm512_sub_pd (u, SET1 (1.0)));
  __m512d rr = _mm512_permutex2var_pd (t->r0, j, t->r1);
  __m512d thi = _mm512_permutex2var_pd (t->h0, j, t->h1);
  __m512d tlo = _mm512_permutex2var_pd (t->l0, j, t->l1);

  /* z R = p + plo exactly, and r = p - 1 exactly (Sterbenz).  */
  __m512d p = _mm512_mul_pd (z, rr);
  __m512d plo = _mm512_fmsub_pd (z, rr, p);
  __m512d r = _mm512_sub_pd (p, SET1 (1.0));
  /* For |x| < 2^-7, k = 0 and R = 1, so r + c = x exactly: use r = x,
     c = 0.  With r = u - 1 and c apart, r and the tail nearly cancel for
     |x| near 2^-53 and the tail's roundings cost up to 0.25 ulp.  */
  __mmask8 small
    = _mm512_cmp_pd_mask (_mm512_abs_pd (x), SET1 (0x1p-7), _CMP_LT_OQ);
  r = _mm512_mask_mov_pd (r, small, x);
  c = _mm512_mask_mov_pd (c, small, _mm512_setzero_pd ());

  /* log (z R + plo + c R 2^-k) = log1p (r) + g (1 - r - g / 2)
     + O (g r^2 + g^2 r) with g = plo + c R 2^-k, |g| < 2^-51.  The g^2
     term matters for tiny x, where r and g are both about x.  */
  __m512d cc = _mm512_scalef_pd (_mm512_mul_pd (c, rr), -kd);
  __m512d g = _mm512_add_pd (plo, cc);
  __m512d corr = _mm512_fnmadd_pd (g, FMA (g, SET1 (0.5), r), g);

  /* w = k ln2_hi + T_hi exactly; hi + lo1 = w + r (Fast2Sum: |w| > |r|
     or w = 0).  */
  __m512d w = FMA (kd, SET1 (LN2_HI), thi);
  __m512d hi = _mm512_add_pd (w, r);
  __m512d lo1 = _mm512_add_pd (_mm512_sub_pd (w, hi), r);
  __m512d lo2 = FMA (kd, SET1 (LN2_LO), tlo);

  __m512d r2 = _mm512_mul_pd (r, r);
  __m512d q = FMA (SET1 (D8), r, SET1 (D7));
  q = FMA (q, r, SET1 (D6));
  q = FMA (q, r, SET1 (D5));
  q = FMA (q, r, SET1 (D4));
  q = FMA (q, r, SET1 (D3));
  q = FMA (q, r, SET1 (D2));
  q = FMA (q, r, SET1 (D1));
  q = FMA (q, r, SET1 (D0));

  __m512d tail = _mm512_add_pd (_mm512_add_pd (lo1, lo2), corr);
  tail = FMA (r2, q, tail);
  return _mm512_add_pd (hi, tail);
}

/* log1p (x) in double to within about 2^-49 relative, for float X
   widened to double, x in (-1, +Inf) and x != -0.  */
static inline __attribute__ ((always_inline)) __m512d
core_f32 (__m512d x, __mmask8 small, __m512d r0, __m512d r1, __m512d t0,
	  __m512d t1)
{
  __m512d u, z, kd;
  __m512i j = reduce (x, &u, &z, &kd);
  __m512d rr = _mm512_permutex2var_pd (r0, j, r1);
  __m512d tt = _mm512_permutex2var_pd (t0, j, t1);
  __m512d r = _mm512_fmsub_pd (z, rr, SET1 (1.0));
  /* 1 + x is exact for float x unless |x| < 2^-29 (or x = 2^53, where
     the error is negligible): for |x| < 2^-7, where k = 0 and R = 1, take
     r = x itself (SMALL: the lanes with |x| < 2^-7).  */
  r = _mm512_mask_mov_pd (r, small, x);
  __m512d w = FMA (kd, SET1 (LN2), tt);
  __m512d r2 = _mm512_mul_pd (r, r);
  __m512d q = FMA (SET1 (F6), r, SET1 (F5));
  q = FMA (q, r, SET1 (F4));
  q = FMA (q, r, SET1 (F3));
  q = FMA (q, r, SET1 (F2));
  q = FMA (q, r, SET1 (F1));
  q = FMA (q, r, SET1 (F0));
  return _mm512_add_pd (w, FMA (r2, q, r));
}

/* core_f32 on the 4 doubles of a ymm (AVX-512VL), for the b clone: the
   same operations lane for lane, so the same bits, in half the work of
   a zmm whose upper half is unused.  The lookups are one vpermt2pd each
   of the zmm table pairs, the index in the low half of the zmm index.  */
static inline __attribute__ ((always_inline)) __m256d
core_f32x4 (__m256d x, __mmask8 small, __m512d r0, __m512d r1, __m512d t0,
	    __m512d t1)
{
  __m256d u = _mm256_add_pd (x, _mm256_set1_pd (1.0));
  __m256i ix = _mm256_castpd_si256 (u);
  __m256i tmp = _mm256_sub_epi64 (ix, _mm256_set1_epi64x (OFF));
  __m256i k = _mm256_srai_epi64 (tmp, 52);
  __m256d z
    = _mm256_castsi256_pd (_mm256_sub_epi64 (ix, _mm256_slli_epi64 (k, 52)));
  __m256d kd = _mm256_cvtepi64_pd (k);
  __m512i j = _mm512_castsi256_si512 (_mm256_srli_epi64 (tmp, 48));
  __m256d rr = _mm512_castpd512_pd256 (_mm512_permutex2var_pd (r0, j, r1));
  __m256d tt = _mm512_castpd512_pd256 (_mm512_permutex2var_pd (t0, j, t1));
  __m256d r = _mm256_fmsub_pd (z, rr, _mm256_set1_pd (1.0));
  r = _mm256_mask_mov_pd (r, small, x);
  __m256d w = _mm256_fmadd_pd (kd, _mm256_set1_pd (LN2), tt);
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q = _mm256_fmadd_pd (_mm256_set1_pd (F6), r, _mm256_set1_pd (F5));
  q = _mm256_fmadd_pd (q, r, _mm256_set1_pd (F4));
  q = _mm256_fmadd_pd (q, r, _mm256_set1_pd (F3));
  q = _mm256_fmadd_pd (q, r, _mm256_set1_pd (F2));
  q = _mm256_fmadd_pd (q, r, _mm256_set1_pd (F1));
  q = _mm256_fmadd_pd (q, r, _mm256_set1_pd (F0));
  return _mm256_add_pd (w, _mm256_fmadd_pd (r2, q, r));
}

/* Mask of the lanes of X that core_* cannot do: NaN, x <= -1, +Inf and
   -0.  */
static inline __attribute__ ((always_inline)) __mmask8
special (__m512d x)
{
  return _mm512_cmp_pd_mask (x, SET1 (-1.0), _CMP_NGT_UQ)
	 | _mm512_fpclass_pd_mask (x, 0x04 | 0x08); /* -0, +Inf.  */
}

/* Y with the special lanes of X set as libm's log1p sets them: NaN for
   NaN and x < -1, -Inf for -1, +Inf for +Inf, -0 for -0.  Returns the
   patched Y.  */
static __attribute__ ((noinline)) __m512d
fixup (__m512d x, __m512d y)
{
  __m512d d = _mm512_sub_pd (x, x); /* 0, or NaN for NaN and Inf.  */
  y = _mm512_mask_mov_pd (y, _mm512_cmp_pd_mask (x, SET1 (-1.0), _CMP_NGE_UQ),
			  _mm512_div_pd (d, d));
  y = _mm512_mask_mov_pd (y, _mm512_cmp_pd_mask (x, SET1 (-1.0), _CMP_EQ_OQ),
			  SET1 (-__builtin_inf ()));
  return _mm512_mask_mov_pd (y, _mm512_fpclass_pd_mask (x, 0x04 | 0x08), x);
}

/* Compute the f64 result of the 8 lanes at X.  */
static inline __attribute__ ((always_inline)) __m512d
block_f64 (__m512d x, const struct tabs *t)
{
  __m512d y = core_f64 (x, t);
  if (__builtin_expect (special (x) != 0, 0))
    y = fixup (x, y);
  return y;
}

/* y[i] = log1p(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
log1p_f64_loop (double *y, const double *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm512_add_pd ((v), _mm512_setzero_pd ()) : (v))
  struct tabs t;
  t.r0 = _mm512_load_pd (tab_r);
  t.r1 = _mm512_load_pd (tab_r + 8);
  t.h0 = _mm512_load_pd (tab_thi);
  t.h1 = _mm512_load_pd (tab_thi + 8);
  t.l0 = _mm512_load_pd (tab_tlo);
  t.l1 = _mm512_load_pd (tab_tlo + 8);
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_pd (y + i, PZ (block_f64 (_mm512_loadu_pd (x + i), &t)));
  if (i < n)
    {
      __mmask8 m = (__mmask8) ((1u << (n - i)) - 1);
      __m512d v = PZ (block_f64 (_mm512_maskz_loadu_pd (m, x + i), &t));
      _mm512_mask_storeu_pd (y + i, m, v);
    }
#undef PZ
}

void
nf_log1p_f64_avx512 (double *y, const double *x, size_t n)
{
  log1p_f64_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_log1p_pz_f64_avx512 (double *y, const double *x, size_t n)
{
  log1p_f64_loop (y, x, n, 1);
}

/* Compute the f32 result of the 16 floats of X.  */
static inline __attribute__ ((always_inline)) __m512
block_f32 (__m512 x, __m512d r0, __m512d r1, __m512d t0, __m512d t1)
{
  __m512d xl = _mm512_cvtps_pd (_mm512_castps512_ps256 (x));
  __m512d xh = _mm512_cvtps_pd (
    _mm256_castpd_ps (_mm512_extractf64x4_pd (_mm512_castps_pd (x), 1)));
  __mmask16 small = _mm512_cmp_ps_mask (_mm512_abs_ps (x),
					_mm512_set1_ps (0x1p-7f), _CMP_LT_OQ);
  __m512d yl = core_f32 (xl, (__mmask8) small, r0, r1, t0, t1);
  __m512d yh = core_f32 (xh, (__mmask8) (small >> 8), r0, r1, t0, t1);
  /* NaN, x <= -1, -0 or +Inf in any lane.  */
  __mmask16 sp = _mm512_cmp_ps_mask (x, _mm512_set1_ps (-1.0f), _CMP_NGT_UQ)
		 | _mm512_fpclass_ps_mask (x, 0x04 | 0x08);
  if (__builtin_expect (sp != 0, 0))
    {
      yl = fixup (xl, yl);
      yh = fixup (xh, yh);
    }
  __m256 fl = _mm512_cvtpd_ps (yl);
  __m256 fh = _mm512_cvtpd_ps (yh);
  return _mm512_castpd_ps (_mm512_insertf64x4 (
    _mm512_castpd256_pd512 (_mm256_castps_pd (fl)), _mm256_castps_pd (fh), 1));
}

/* y[i] = log1p(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
log1p_f32_loop (float *y, const float *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm512_add_ps ((v), _mm512_setzero_ps ()) : (v))
  __m512d r0 = _mm512_load_pd (tab_r), r1 = _mm512_load_pd (tab_r + 8);
  __m512d t0 = _mm512_load_pd (tab_t32), t1 = _mm512_load_pd (tab_t32 + 8);
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps (y + i,
		      PZ (block_f32 (_mm512_loadu_ps (x + i), r0, r1, t0, t1)));
  if (i < n)
    {
      __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
      __m512 v
	= PZ (block_f32 (_mm512_maskz_loadu_ps (m, x + i), r0, r1, t0, t1));
      _mm512_mask_storeu_ps (y + i, m, v);
    }
#undef PZ
}

void
nf_log1p_f32_avx512 (float *y, const float *x, size_t n)
{
  log1p_f32_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_log1p_pz_f32_avx512 (float *y, const float *x, size_t n)
{
  log1p_f32_loop (y, x, n, 1);
}

/* The clones' registers (simd.h): block_f32 on 16 lanes, its half on 8,
   and on 4 its ymm core.  */
__m512
nf_log1pf_x16_avx512 (__m512 x)
{
  return block_f32 (x, _mm512_load_pd (tab_r), _mm512_load_pd (tab_r + 8),
		    _mm512_load_pd (tab_t32), _mm512_load_pd (tab_t32 + 8));
}

__m256
nf_log1pf_x8_avx512 (__m256 x)
{
  __m512d xd = _mm512_cvtps_pd (x);
  __mmask8 small
    = _mm256_cmp_ps_mask (_mm256_andnot_ps (_mm256_set1_ps (-0.0f), x),
			  _mm256_set1_ps (0x1p-7f), _CMP_LT_OQ);
  __m512d y
    = core_f32 (xd, small, _mm512_load_pd (tab_r), _mm512_load_pd (tab_r + 8),
		_mm512_load_pd (tab_t32), _mm512_load_pd (tab_t32 + 8));
  __mmask8 sp = _mm256_cmp_ps_mask (x, _mm256_set1_ps (-1.0f), _CMP_NGT_UQ)
		| _mm256_fpclass_ps_mask (x, 0x04 | 0x08);
  if (__builtin_expect (sp != 0, 0))
    y = fixup (xd, y);
  return _mm512_cvtpd_ps (y);
}

/* 4 lanes: the ymm core, the steps of nf_log1pf_x8_avx512 on xmm; the
   rare fix-up on the zmm, upper half zero.  */
__m128
nf_log1pf_x4_avx512 (__m128 x)
{
  __m256d xd = _mm256_cvtps_pd (x);
  __mmask8 small
    = _mm_cmp_ps_mask (_mm_andnot_ps (_mm_set1_ps (-0.0f), x),
		       _mm_set1_ps (0x1p-7f), _CMP_LT_OQ);
  __m256d y = core_f32x4 (xd, small, _mm512_load_pd (tab_r),
			  _mm512_load_pd (tab_r + 8), _mm512_load_pd (tab_t32),
			  _mm512_load_pd (tab_t32 + 8));
  __mmask8 sp = _mm_cmp_ps_mask (x, _mm_set1_ps (-1.0f), _CMP_NGT_UQ)
		| _mm_fpclass_ps_mask (x, 0x04 | 0x08);
  if (__builtin_expect (sp != 0, 0))
    y = _mm512_castpd512_pd256 (
      fixup (_mm512_zextpd256_pd512 (xd), _mm512_zextpd256_pd512 (y)));
  return _mm256_cvtpd_ps (y);
}
