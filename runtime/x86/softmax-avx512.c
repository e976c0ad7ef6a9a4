/* softmax-avx512.c: y[i] = exp (x[i] - max) / sum_k exp (x[k] - max)
   with AVX-512, float and double (nf_softmax_f32/f64_avx512).

   Built with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma.
   The algorithm, the NaN and infinity semantics and the f32 error
   analysis are generic/softmax.c's (read its design comment first); the
   constants are softmax-consts.h's.  What differs:
   1. The max: four accumulators, seeded with -Inf (the same m as x[0]
      would give, generic/softmax.c), updated by quiet compares (_OQ)
      and masked moves, never VMAXPS / VMAXPD: those raise INVALID on a
      NaN, which the fmaxf form of the loop does not.  A NaN is never
      taken; its element's d is NaN, and so is every result.  The clamps
      below are quiet compares too: a NaN goes through the whole kernel
      without raising anything.
   2. f32: 16 floats a step as two vectors of 8 doubles; d = x - m in
      double, clamped at -120 (a quiet compare; a NaN goes through); r = d - m'
   ln2/16 in one FMA with ln2/16 rounded to double; T_j by one vpermt2pd of the
   16-entry table; exp (d) = fma (S, p, S).  Rows up to BUF elements keep the
   double exps in a buffer on the stack for the third pass (measured: 0.45
      against 0.75 ns per element computing them again, at n = 1024); longer
   rows compute them again.
   3. f64: d = dh + dl by TwoSum, clamped at -800; S scaled by 2^600 (so
      2^k stays normal for every d >= -800; the scale cancels in the
      quotient); T_j's rest from the second table; e = eh + el exactly
      to about 2^-58 relative: eh = fma (S, p, S), el = fma (S, p, S -
      eh) + S T_lo (S - eh is exact: eh is within 3% of S).  The sum is
      a double-double per lane (Fast2Sum of the larger and the smaller of
      sum and term, their error and el into the low part; a NaN term
      always reaches the low part through el), the lanes added in long
      double at the end, giving sh + sl.  The quotient: q = eh * inv
      (inv = 1 / sh), its residual rho = fma (-q, sh, eh) (exact), then
      y = fma (rho + el - q sl, inv, q): one rounding of a value within
      about 2^-57 relative of (eh + el) / (sh + sl).  Rows up to 1024
      keep eh and el on the stack for it (1.2 against 1.9 ns per element
      at n = 1024).
   Error, f64: exp's 2^-58 (p's rounding times |p| < 0.023, r's, q's
   2^-72), the sum's 2^-100, the quotient's correction 2^-104: within
   0.5 ulp + 2^-4 ulp of the exact softmax; subnormal results are
   rounded once by the last FMA.

   Tails use masked loads and stores; the kernels read only x[0..n-1]
   and write only y[0..n-1].  FP contraction is off (pragma below): every
   fused multiply-add is an explicit intrinsic.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../softmax-consts.h"

#define C(v) _mm512_set1_pd (v)

/* Rows up to this many floats keep their exps (doubles) on the stack.  */
#define BUF 2048

/* 2^k T_j of M = 16 k + j, the bits in Z's low mantissa bits (Z = m +
   NF_SM_SHIFT), with SCALE added to the exponent.  */
static inline __attribute__ ((always_inline)) __m512d
scale_2k (__m512d z, int64_t scale)
{
  __m512i zi = _mm512_castpd_si512 (z);
  __m512d tj
    = _mm512_permutex2var_pd (_mm512_load_pd ((const double *) nf_sm_tab), zi,
			      _mm512_load_pd ((const double *) nf_sm_tab + 8));
  __m512i b
    = _mm512_add_epi64 (_mm512_slli_epi64 (zi, 48), _mm512_castpd_si512 (tj));
  return _mm512_castsi512_pd (
    _mm512_add_epi64 (b, _mm512_set1_epi64 (scale << 52)));
}

/* exp (D) of a clamped D in [-120, 0] (or NaN) within 2^-45 relative.  */
static inline __attribute__ ((always_inline)) __m512d
exp_f32core (__m512d d)
{
  __m512d z = _mm512_fmadd_pd (d, C (INV_LN2_16), C (NF_SM_SHIFT));
  __m512d md = _mm512_sub_pd (z, C (NF_SM_SHIFT));
  __m512d r = _mm512_fnmadd_pd (md, C (LN2_16), d);
  __m512d s = scale_2k (z, 0);
  __m512d r2 = _mm512_mul_pd (r, r);
  __m512d q01 = _mm512_fmadd_pd (C (Q16_C1), r, C (Q16_C0));
  __m512d q23 = _mm512_fmadd_pd (C (Q16_C3), r, C (Q16_C2));
  __m512d q24 = _mm512_fmadd_pd (C (Q16_C4), r2, q23);
  __m512d q = _mm512_fmadd_pd (q24, r2, q01);
  __m512d p = _mm512_fmadd_pd (r2, q, r);
  return _mm512_fmadd_pd (s, p, s);
}

/* D clamped below at LO by a quiet compare (VMAXPD would raise INVALID
   on a NaN); NaN stays NaN.  */
static inline __attribute__ ((always_inline)) __m512d
clamp (__m512d d, double lo)
{
  return _mm512_mask_mov_pd (d, _mm512_cmp_pd_mask (d, C (lo), _CMP_LT_OQ),
			     C (lo));
}

/* The exps of the 16 floats V (as two vectors of 8 doubles, low lanes
   first) less the max M.  */
static inline __attribute__ ((always_inline)) void
exp16 (__m512 v, __m512d m, __m512d *lo, __m512d *hi)
{
  __m512d a = _mm512_sub_pd (_mm512_cvtps_pd (_mm512_castps512_ps256 (v)), m);
  __m512d b
    = _mm512_sub_pd (_mm512_cvtps_pd (_mm512_extractf32x8_ps (v, 1)), m);
  *lo = exp_f32core (clamp (a, -120.0));
  *hi = exp_f32core (clamp (b, -120.0));
}

static inline __mmask16
tail16 (size_t r)
{
  return (__mmask16) ((1u << r) - 1);
}

/* M = V > M ? V : M by a quiet compare: VMAXPS would raise INVALID on
   a NaN, which the fmaxf form of the loop does not.  */
static inline __attribute__ ((always_inline)) __m512
qmax_ps (__m512 m, __m512 v)
{
  return _mm512_mask_mov_ps (m, _mm512_cmp_ps_mask (v, m, _CMP_GT_OQ), v);
}

/* The max of X[0..N-1] (a NaN never taken; -Inf seeds it).  */
static float
max_f32 (const float *x, size_t n)
{
  __m512 m0 = _mm512_set1_ps (-__builtin_inff ()), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    {
      m0 = qmax_ps (m0, _mm512_loadu_ps (x + i));
      m1 = qmax_ps (m1, _mm512_loadu_ps (x + i + 16));
      m2 = qmax_ps (m2, _mm512_loadu_ps (x + i + 32));
      m3 = qmax_ps (m3, _mm512_loadu_ps (x + i + 48));
    }
  for (; i + 16 <= n; i += 16)
    m0 = qmax_ps (m0, _mm512_loadu_ps (x + i));
  if (i < n)
    m0 = qmax_ps (m0, _mm512_mask_loadu_ps (m0, tail16 (n - i), x + i));
  m0 = _mm512_max_ps (_mm512_max_ps (m0, m1), _mm512_max_ps (m2, m3));
  return _mm512_reduce_max_ps (m0); /* No NaN left to signal.  */
}

void
nf_softmax_f32_avx512 (float *y, const float *x, size_t n)
{
  if (n == 0)
    return;
  float mf = max_f32 (x, n);
  /* Lanes past the end hold x[0]: whatever x[0] - m raises, the loop
     raises too (the max would not: -Inf - -Inf).  */
  __m512 vmf = _mm512_set1_ps (x[0]);
  __m512d m = _mm512_set1_pd (mf);
  double buf[BUF + 16] __attribute__ ((aligned (64)));
  int keep = n <= BUF;
  __m512d s0 = _mm512_setzero_pd (), s1 = s0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    {
      __m512d lo, hi;
      exp16 (_mm512_loadu_ps (x + i), m, &lo, &hi);
      s0 = _mm512_add_pd (s0, lo);
      s1 = _mm512_add_pd (s1, hi);
      if (keep)
	{
	  _mm512_store_pd (buf + i, lo);
	  _mm512_store_pd (buf + i + 8, hi);
	}
    }
  if (i < n)
    {
      /* The lanes past the end are left out of the sum.  */
      __mmask16 k = tail16 (n - i);
      __m512d lo, hi;
      exp16 (_mm512_mask_loadu_ps (vmf, k, x + i), m, &lo, &hi);
      s0 = _mm512_mask_add_pd (s0, (__mmask8) k, s0, lo);
      s1 = _mm512_mask_add_pd (s1, (__mmask8) (k >> 8), s1, hi);
      if (keep)
	{
	  _mm512_store_pd (buf + i, lo);
	  _mm512_store_pd (buf + i + 8, hi);
	}
    }
  __m512d inv
    = _mm512_set1_pd (1.0 / _mm512_reduce_add_pd (_mm512_add_pd (s0, s1)));
  for (i = 0; i + 16 <= n; i += 16)
    {
      __m512d lo, hi;
      if (keep)
	lo = _mm512_load_pd (buf + i), hi = _mm512_load_pd (buf + i + 8);
      else
	exp16 (_mm512_loadu_ps (x + i), m, &lo, &hi);
      __m256 a = _mm512_cvtpd_ps (_mm512_mul_pd (lo, inv));
      __m256 b = _mm512_cvtpd_ps (_mm512_mul_pd (hi, inv));
      _mm512_storeu_ps (y + i,
			_mm512_insertf32x8 (_mm512_castps256_ps512 (a), b, 1));
    }
  if (i < n)
    {
      __mmask16 k = tail16 (n - i);
      __m512d lo, hi;
      if (keep)
	lo = _mm512_load_pd (buf + i), hi = _mm512_load_pd (buf + i + 8);
      else
	exp16 (_mm512_mask_loadu_ps (vmf, k, x + i), m, &lo, &hi);
      __m256 a = _mm512_cvtpd_ps (_mm512_mul_pd (lo, inv));
      __m256 b = _mm512_cvtpd_ps (_mm512_mul_pd (hi, inv));
      _mm512_mask_storeu_ps (
	y + i, k, _mm512_insertf32x8 (_mm512_castps256_ps512 (a), b, 1));
    }
}

/* The f64 scale: S = 2^(k + 600) T_j.  */
#define SCALE64 600

/* Rows up to this many doubles keep their exps, eh and el (16 KiB).  */
#define BUF64 1024

/* exp (DH + DL) * 2^600 as EH + EL, for DH clamped to [-800, 0] (or
   NaN: then EL is NaN).  */
static inline __attribute__ ((always_inline)) void
exp_f64core (__m512d dh, __m512d dl, __m512d *eh, __m512d *el)
{
  __m512d z = _mm512_fmadd_pd (dh, C (INV_LN2_16), C (NF_SM_SHIFT));
  __m512d md = _mm512_sub_pd (z, C (NF_SM_SHIFT));
  __m512d t = _mm512_fnmadd_pd (md, C (LN2_16_HI), dh); /* Exact.  */
  __m512d r = _mm512_add_pd (_mm512_fnmadd_pd (md, C (LN2_16_LO), t), dl);
  __m512d s = scale_2k (z, SCALE64);
  __m512d tl = _mm512_permutex2var_pd (_mm512_load_pd (nf_sm_tab_lo),
				       _mm512_castpd_si512 (z),
				       _mm512_load_pd (nf_sm_tab_lo + 8));
  __m512d r2 = _mm512_mul_pd (r, r);
  __m512d r4 = _mm512_mul_pd (r2, r2);
  __m512d q01 = _mm512_fmadd_pd (C (Q16D_C1), r, C (Q16D_C0));
  __m512d q23 = _mm512_fmadd_pd (C (Q16D_C3), r, C (Q16D_C2));
  __m512d q45 = _mm512_fmadd_pd (C (Q16D_C5), r, C (Q16D_C4));
  __m512d q46 = _mm512_fmadd_pd (C (Q16D_C6), r2, q45);
  __m512d q03 = _mm512_fmadd_pd (q23, r2, q01);
  __m512d q = _mm512_fmadd_pd (q46, r4, q03);
  __m512d p = _mm512_fmadd_pd (r2, q, r);
  __m512d h = _mm512_fmadd_pd (s, p, s);
  *eh = h;
  *el = _mm512_fmadd_pd (s, tl, _mm512_fmadd_pd (s, p, _mm512_sub_pd (s, h)));
}

/* D = X - M as DH + DL (TwoSum), clamped at -800 (-Inf included, DL
   then 0); NaN stays NaN.  Clamped lanes run the TwoSum on m - m: on
   -Inf it would raise INVALID (Inf - Inf), which the loop does not.  */
static inline __attribute__ ((always_inline)) void
d_f64 (__m512d x, __m512d m, __m512d *dh, __m512d *dl)
{
  __mmask8 low
    = _mm512_cmp_pd_mask (_mm512_sub_pd (x, m), C (-800.0), _CMP_LT_OQ);
  x = _mm512_mask_mov_pd (x, low, m);
  __m512d s = _mm512_sub_pd (x, m);
  __m512d bv = _mm512_sub_pd (s, x);
  __m512d e = _mm512_add_pd (
    _mm512_sub_pd (x, _mm512_sub_pd (s, bv)),
    _mm512_sub_pd (_mm512_setzero_pd (), _mm512_add_pd (m, bv)));
  *dh = _mm512_mask_mov_pd (s, low, C (-800.0));
  *dl = _mm512_mask_mov_pd (e, low, _mm512_setzero_pd ());
}

static inline __attribute__ ((always_inline)) __m512d
qmax_pd (__m512d m, __m512d v)
{
  return _mm512_mask_mov_pd (m, _mm512_cmp_pd_mask (v, m, _CMP_GT_OQ), v);
}

/* As max_f32.  */
static double
max_f64 (const double *x, size_t n)
{
  __m512d m0 = _mm512_set1_pd (-__builtin_inf ()), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    {
      m0 = qmax_pd (m0, _mm512_loadu_pd (x + i));
      m1 = qmax_pd (m1, _mm512_loadu_pd (x + i + 8));
      m2 = qmax_pd (m2, _mm512_loadu_pd (x + i + 16));
      m3 = qmax_pd (m3, _mm512_loadu_pd (x + i + 24));
    }
  for (; i + 8 <= n; i += 8)
    m0 = qmax_pd (m0, _mm512_loadu_pd (x + i));
  if (i < n)
    {
      __mmask8 k = (__mmask8) ((1u << (n - i)) - 1);
      m0 = qmax_pd (m0, _mm512_mask_loadu_pd (m0, k, x + i));
    }
  m0 = _mm512_max_pd (_mm512_max_pd (m0, m1), _mm512_max_pd (m2, m3));
  return _mm512_reduce_max_pd (m0);
}

/* The exp pair of the 8 doubles at X (K: the lanes in the row; the
   others hold X0 = x[0], as in the f32 kernel).  */
static inline __attribute__ ((always_inline)) void
exp8 (const double *x, __mmask8 k, __m512d m, __m512d x0, __m512d *eh,
      __m512d *el)
{
  __m512d dh, dl;
  d_f64 (_mm512_mask_loadu_pd (x0, k, x), m, &dh, &dl);
  exp_f64core (dh, dl, eh, el);
}

void
nf_softmax_f64_avx512 (double *y, const double *x, size_t n)
{
  if (n == 0)
    return;
  __m512d m = _mm512_set1_pd (max_f64 (x, n)), x0 = _mm512_set1_pd (x[0]);
  __m512d sh = _mm512_setzero_pd (), sl = sh;
  double bh[BUF64 + 8] __attribute__ ((aligned (64)));
  double bl[BUF64 + 8] __attribute__ ((aligned (64)));
  int keep = n <= BUF64;
  for (size_t i = 0; i < n; i += 8)
    {
      __mmask8 k = n - i >= 8 ? 0xff : (__mmask8) ((1u << (n - i)) - 1);
      __m512d eh, el;
      exp8 (x + i, k, m, x0, &eh, &el);
      if (keep)
	_mm512_store_pd (bh + i, eh), _mm512_store_pd (bl + i, el);
      eh = _mm512_maskz_mov_pd (k, eh);
      el = _mm512_maskz_mov_pd (k, el);
      /* The larger and the smaller by a quiet compare (a NaN term goes
	 to the low part through el in any case).  */
      __mmask8 gt = _mm512_cmp_pd_mask (eh, sh, _CMP_GT_OQ);
      __m512d a = _mm512_mask_mov_pd (sh, gt, eh);
      __m512d b = _mm512_mask_mov_pd (eh, gt, sh);
      __m512d t = _mm512_add_pd (a, b);
      __m512d err = _mm512_sub_pd (b, _mm512_sub_pd (t, a));
      sl = _mm512_add_pd (sl, _mm512_add_pd (err, el));
      sh = t;
    }
  double hv[8], lv[8];
  _mm512_storeu_pd (hv, sh);
  _mm512_storeu_pd (lv, sl);
  long double s = 0;
  for (int j = 0; j < 8; j++)
    s += (long double) hv[j] + lv[j];
  double shd = (double) s, sld = (double) (s - shd);
  __m512d vsh = _mm512_set1_pd (shd), vsl = _mm512_set1_pd (sld);
  __m512d inv = _mm512_set1_pd (1.0 / shd);
  for (size_t i = 0; i < n; i += 8)
    {
      __mmask8 k = n - i >= 8 ? 0xff : (__mmask8) ((1u << (n - i)) - 1);
      __m512d eh, el;
      if (keep)
	eh = _mm512_load_pd (bh + i), el = _mm512_load_pd (bl + i);
      else
	exp8 (x + i, k, m, x0, &eh, &el);
      __m512d q = _mm512_mul_pd (eh, inv);
      __m512d rho = _mm512_fnmadd_pd (q, vsh, eh);
      rho = _mm512_fnmadd_pd (q, vsl, _mm512_add_pd (rho, el));
      _mm512_mask_storeu_pd (y + i, k, _mm512_fmadd_pd (rho, inv, q));
    }
}
