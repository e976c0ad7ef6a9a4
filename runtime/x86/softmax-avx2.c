/* softmax-avx2.c: y[i] = exp (x[i] - max) / sum_k exp (x[k] - max)
   with AVX2 and FMA, float and double (nf_softmax_f32/f64_avx2).

   Built with -mavx2 -mfma (and -mf16c, unused).  The algorithm and the
   error analysis are softmax-avx512.c's (and generic/softmax.c's before
   it), with the same constants and the same operations lane for lane,
   so the same bits; what differs is only where AVX2 lacks an
   instruction:
   1. T_j and its rest: vgatherqpd from the 16-entry tables (AVX2 has no
      64-bit two-table permute).
   2. Vectors of 4 doubles; f32 8 floats a step.
   3. Tails: VMASKMOVPS / VMASKMOVPD with lane masks from a table; lanes
      past the end are blended with the max (d = 0) and masked out of
      the sums by an AND.
   4. The max's tail is a scalar loop (quiet compares, as every compare
      here).
   Tried and dropped (the 2-vCPU AVX-512 Xeon guest of bench/kernels,
   NEURONFUSE_ISA=avx2, n = 256): T_j's 32-bit halves by two VPERMD each
   and blends (1.03 ns per element against the gathers' 0.79), a table
   of 4 by one VPERMD with q of degree 6 (0.86).  The kernel is
   bound by instruction issue: twice AVX-512's instructions for the same
   work, hence about 1.7 times its time.
   Example, limitations and semantics: generic/softmax.c.

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

#define C(v) _mm256_set1_pd (v)

/* Rows up to this many floats keep their exps (doubles) on the stack.  */
#define BUF 2048

/* Lane masks of the tails: 8 elements from MASK32 + 8 - R (resp. 4
   from MASK64 + 4 - R) are all-ones in the first R lanes.  */
static const int32_t mask32[16]
  = { -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0 };
static const int64_t mask64[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };

/* 2^k T_j of M = 16 k + j, the bits in Z's low mantissa bits, with
   SCALE added to the exponent; *TL the rest of T_j if TL.  */
static inline __attribute__ ((always_inline)) __m256d
scale_2k (__m256d z, int64_t scale, __m256d *tl)
{
  __m256i zi = _mm256_castpd_si256 (z);
  __m256i j = _mm256_and_si256 (zi, _mm256_set1_epi64x (15));
  __m256i tj = _mm256_i64gather_epi64 ((const long long *) nf_sm_tab, j, 8);
  if (tl)
    *tl = _mm256_i64gather_pd (nf_sm_tab_lo, j, 8);
  __m256i b = _mm256_add_epi64 (_mm256_slli_epi64 (zi, 48), tj);
  return _mm256_castsi256_pd (
    _mm256_add_epi64 (b, _mm256_set1_epi64x (scale << 52)));
}

/* exp (D) of a clamped D in [-120, 0] (or NaN) within 2^-45 relative.  */
static inline __attribute__ ((always_inline)) __m256d
exp_f32core (__m256d d)
{
  __m256d z = _mm256_fmadd_pd (d, C (INV_LN2_16), C (NF_SM_SHIFT));
  __m256d md = _mm256_sub_pd (z, C (NF_SM_SHIFT));
  __m256d r = _mm256_fnmadd_pd (md, C (LN2_16), d);
  __m256d s = scale_2k (z, 0, NULL);
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q01 = _mm256_fmadd_pd (C (Q16_C1), r, C (Q16_C0));
  __m256d q23 = _mm256_fmadd_pd (C (Q16_C3), r, C (Q16_C2));
  __m256d q24 = _mm256_fmadd_pd (C (Q16_C4), r2, q23);
  __m256d q = _mm256_fmadd_pd (q24, r2, q01);
  __m256d p = _mm256_fmadd_pd (r2, q, r);
  return _mm256_fmadd_pd (s, p, s);
}

/* D clamped below at LO by a quiet compare (VMAXPD would raise INVALID
   on a NaN); NaN stays NaN.  */
static inline __attribute__ ((always_inline)) __m256d
clamp (__m256d d, double lo)
{
  return _mm256_blendv_pd (d, C (lo), _mm256_cmp_pd (d, C (lo), _CMP_LT_OQ));
}

/* M = V > M ? V : M by quiet compares (softmax-avx512.c).  */
static inline __attribute__ ((always_inline)) __m256
qmax_ps (__m256 m, __m256 v)
{
  return _mm256_blendv_ps (m, v, _mm256_cmp_ps (v, m, _CMP_GT_OQ));
}

static inline __attribute__ ((always_inline)) __m256d
qmax_pd (__m256d m, __m256d v)
{
  return _mm256_blendv_pd (m, v, _mm256_cmp_pd (v, m, _CMP_GT_OQ));
}

/* The exps of the 8 floats V (as two vectors of 4 doubles) less M.  */
static inline __attribute__ ((always_inline)) void
exp8 (__m256 v, __m256d m, __m256d *lo, __m256d *hi)
{
  __m256d a = _mm256_sub_pd (_mm256_cvtps_pd (_mm256_castps256_ps128 (v)), m);
  __m256d b = _mm256_sub_pd (_mm256_cvtps_pd (_mm256_extractf128_ps (v, 1)), m);
  *lo = exp_f32core (clamp (a, -120.0));
  *hi = exp_f32core (clamp (b, -120.0));
}

/* The max of X[0..N-1] (a NaN never taken; -Inf seeds it).  */
static float
max_f32 (const float *x, size_t n)
{
  __m256 m0 = _mm256_set1_ps (-__builtin_inff ()), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    {
      m0 = qmax_ps (m0, _mm256_loadu_ps (x + i));
      m1 = qmax_ps (m1, _mm256_loadu_ps (x + i + 8));
      m2 = qmax_ps (m2, _mm256_loadu_ps (x + i + 16));
      m3 = qmax_ps (m3, _mm256_loadu_ps (x + i + 24));
    }
  for (; i + 8 <= n; i += 8)
    m0 = qmax_ps (m0, _mm256_loadu_ps (x + i));
  m0 = qmax_ps (qmax_ps (m0, m1), qmax_ps (m2, m3));
  float v[8], m;
  _mm256_storeu_ps (v, m0);
  m = v[0];
  for (int j = 1; j < 8; j++)
    m = __builtin_isgreater (v[j], m) ? v[j] : m;
  for (; i < n; i++)
    m = __builtin_isgreater (x[i], m) ? x[i] : m;
  return m;
}

/* The 8 floats at X (the first R of them; the others VMF).  */
static inline __m256
load_tail (const float *x, size_t r, __m256 vmf)
{
  __m256i k = _mm256_loadu_si256 ((const __m256i *) (mask32 + 8 - r));
  return _mm256_blendv_ps (vmf, _mm256_maskload_ps (x, k),
			   _mm256_castsi256_ps (k));
}

void
nf_softmax_f32_avx2 (float *y, const float *x, size_t n)
{
  if (n == 0)
    return;
  float mf = max_f32 (x, n);
  /* Lanes past the end hold x[0] (softmax-avx512.c).  */
  __m256 vmf = _mm256_set1_ps (x[0]);
  __m256d m = _mm256_set1_pd (mf);
  double buf[BUF + 8] __attribute__ ((aligned (32)));
  int keep = n <= BUF;
  __m256d s0 = _mm256_setzero_pd (), s1 = s0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      __m256d lo, hi;
      exp8 (_mm256_loadu_ps (x + i), m, &lo, &hi);
      s0 = _mm256_add_pd (s0, lo);
      s1 = _mm256_add_pd (s1, hi);
      if (keep)
	_mm256_store_pd (buf + i, lo), _mm256_store_pd (buf + i + 4, hi);
    }
  if (i < n)
    {
      size_t r = n - i;
      __m256d lo, hi;
      exp8 (load_tail (x + i, r, vmf), m, &lo, &hi);
      __m256d klo = _mm256_castsi256_pd (
	_mm256_loadu_si256 ((const __m256i *) (mask64 + 4 - (r < 4 ? r : 4))));
      __m256d khi = _mm256_castsi256_pd (_mm256_loadu_si256 (
	(const __m256i *) (mask64 + 4 - (r > 4 ? r - 4 : 0))));
      s0 = _mm256_add_pd (s0, _mm256_and_pd (lo, klo));
      s1 = _mm256_add_pd (s1, _mm256_and_pd (hi, khi));
      if (keep)
	_mm256_store_pd (buf + i, lo), _mm256_store_pd (buf + i + 4, hi);
    }
  __m256d s = _mm256_add_pd (s0, s1);
  __m128d s2
    = _mm_add_pd (_mm256_castpd256_pd128 (s), _mm256_extractf128_pd (s, 1));
  __m256d inv
    = C (1.0 / _mm_cvtsd_f64 (_mm_add_sd (s2, _mm_unpackhi_pd (s2, s2))));
  for (i = 0; i < n; i += 8)
    {
      __m256d lo, hi;
      size_t r = n - i;
      if (keep)
	lo = _mm256_load_pd (buf + i), hi = _mm256_load_pd (buf + i + 4);
      else
	exp8 (r >= 8 ? _mm256_loadu_ps (x + i) : load_tail (x + i, r, vmf), m,
	      &lo, &hi);
      __m128 a = _mm256_cvtpd_ps (_mm256_mul_pd (lo, inv));
      __m128 b = _mm256_cvtpd_ps (_mm256_mul_pd (hi, inv));
      __m256 v = _mm256_set_m128 (b, a);
      if (r >= 8)
	_mm256_storeu_ps (y + i, v);
      else
	_mm256_maskstore_ps (
	  y + i, _mm256_loadu_si256 ((const __m256i *) (mask32 + 8 - r)), v);
    }
}

/* The f64 scale: S = 2^(k + 600) T_j (softmax-avx512.c).  */
#define SCALE64 600

/* Rows up to this many doubles keep eh and el (softmax-avx512.c).  */
#define BUF64 1024

/* exp (DH + DL) * 2^600 as EH + EL, for DH clamped to [-800, 0] (or
   NaN: then EL is NaN).  */
static inline __attribute__ ((always_inline)) void
exp_f64core (__m256d dh, __m256d dl, __m256d *eh, __m256d *el)
{
  __m256d z = _mm256_fmadd_pd (dh, C (INV_LN2_16), C (NF_SM_SHIFT));
  __m256d md = _mm256_sub_pd (z, C (NF_SM_SHIFT));
  __m256d t = _mm256_fnmadd_pd (md, C (LN2_16_HI), dh); /* Exact.  */
  __m256d r = _mm256_add_pd (_mm256_fnmadd_pd (md, C (LN2_16_LO), t), dl);
  __m256d tl;
  __m256d s = scale_2k (z, SCALE64, &tl);
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d r4 = _mm256_mul_pd (r2, r2);
  __m256d q01 = _mm256_fmadd_pd (C (Q16D_C1), r, C (Q16D_C0));
  __m256d q23 = _mm256_fmadd_pd (C (Q16D_C3), r, C (Q16D_C2));
  __m256d q45 = _mm256_fmadd_pd (C (Q16D_C5), r, C (Q16D_C4));
  __m256d q46 = _mm256_fmadd_pd (C (Q16D_C6), r2, q45);
  __m256d q03 = _mm256_fmadd_pd (q23, r2, q01);
  __m256d q = _mm256_fmadd_pd (q46, r4, q03);
  __m256d p = _mm256_fmadd_pd (r2, q, r);
  __m256d h = _mm256_fmadd_pd (s, p, s);
  *eh = h;
  *el = _mm256_fmadd_pd (s, tl, _mm256_fmadd_pd (s, p, _mm256_sub_pd (s, h)));
}

/* The exp pair of the 4 doubles at X, R of them in the row (R < 4: the
   others X0 = x[0]).  D = X - M by TwoSum, clamped at -800.  */
static inline __attribute__ ((always_inline)) void
exp4 (const double *x, size_t r, __m256d m, __m256d x0, __m256d *eh,
      __m256d *el)
{
  __m256d v;
  if (r >= 4)
    v = _mm256_loadu_pd (x);
  else
    {
      __m256i k = _mm256_loadu_si256 ((const __m256i *) (mask64 + 4 - r));
      v = _mm256_blendv_pd (x0, _mm256_maskload_pd (x, k),
			    _mm256_castsi256_pd (k));
    }
  /* Clamped lanes run the TwoSum on m - m (on -Inf it would raise
     INVALID, which the loop does not).  */
  __m256d low = _mm256_cmp_pd (_mm256_sub_pd (v, m), C (-800.0), _CMP_LT_OQ);
  v = _mm256_blendv_pd (v, m, low);
  __m256d s = _mm256_sub_pd (v, m);
  __m256d bv = _mm256_sub_pd (s, v);
  __m256d e = _mm256_add_pd (
    _mm256_sub_pd (v, _mm256_sub_pd (s, bv)),
    _mm256_sub_pd (_mm256_setzero_pd (), _mm256_add_pd (m, bv)));
  __m256d dh = _mm256_blendv_pd (s, C (-800.0), low);
  __m256d dl = _mm256_andnot_pd (low, e);
  exp_f64core (dh, dl, eh, el);
}

static double
max_f64 (const double *x, size_t n)
{
  __m256d m0 = C (-__builtin_inf ()), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    {
      m0 = qmax_pd (m0, _mm256_loadu_pd (x + i));
      m1 = qmax_pd (m1, _mm256_loadu_pd (x + i + 4));
      m2 = qmax_pd (m2, _mm256_loadu_pd (x + i + 8));
      m3 = qmax_pd (m3, _mm256_loadu_pd (x + i + 12));
    }
  m0 = qmax_pd (qmax_pd (m0, m1), qmax_pd (m2, m3));
  double v[4], m;
  _mm256_storeu_pd (v, m0);
  m = v[0];
  for (int j = 1; j < 4; j++)
    m = __builtin_isgreater (v[j], m) ? v[j] : m;
  for (; i < n; i++)
    m = __builtin_isgreater (x[i], m) ? x[i] : m;
  return m;
}

void
nf_softmax_f64_avx2 (double *y, const double *x, size_t n)
{
  if (n == 0)
    return;
  __m256d m = C (max_f64 (x, n)), x0 = C (x[0]);
  __m256d sh = _mm256_setzero_pd (), sl = sh;
  double bh[BUF64 + 4] __attribute__ ((aligned (32)));
  double bl[BUF64 + 4] __attribute__ ((aligned (32)));
  int keep = n <= BUF64;
  for (size_t i = 0; i < n; i += 4)
    {
      size_t r = n - i;
      __m256d eh, el;
      exp4 (x + i, r, m, x0, &eh, &el);
      if (keep)
	_mm256_store_pd (bh + i, eh), _mm256_store_pd (bl + i, el);
      if (r < 4)
	{
	  __m256d k = _mm256_castsi256_pd (
	    _mm256_loadu_si256 ((const __m256i *) (mask64 + 4 - r)));
	  eh = _mm256_and_pd (eh, k), el = _mm256_and_pd (el, k);
	}
      __m256d gt = _mm256_cmp_pd (eh, sh, _CMP_GT_OQ); /* Quiet.  */
      __m256d a = _mm256_blendv_pd (sh, eh, gt);
      __m256d b = _mm256_blendv_pd (eh, sh, gt);
      __m256d t = _mm256_add_pd (a, b);
      __m256d err = _mm256_sub_pd (b, _mm256_sub_pd (t, a));
      sl = _mm256_add_pd (sl, _mm256_add_pd (err, el));
      sh = t;
    }
  double hv[4], lv[4];
  _mm256_storeu_pd (hv, sh);
  _mm256_storeu_pd (lv, sl);
  long double s = 0;
  for (int j = 0; j < 4; j++)
    s += (long double) hv[j] + lv[j];
  double shd = (double) s, sld = (double) (s - shd);
  __m256d vsh = C (shd), vsl = C (sld), inv = C (1.0 / shd);
  for (size_t i = 0; i < n; i += 4)
    {
      size_t r = n - i;
      __m256d eh, el;
      if (keep)
	eh = _mm256_load_pd (bh + i), el = _mm256_load_pd (bl + i);
      else
	exp4 (x + i, r, m, x0, &eh, &el);
      __m256d q = _mm256_mul_pd (eh, inv);
      __m256d rho = _mm256_fnmadd_pd (q, vsh, eh);
      rho = _mm256_fnmadd_pd (q, vsl, _mm256_add_pd (rho, el));
      __m256d v = _mm256_fmadd_pd (rho, inv, q);
      if (r >= 4)
	_mm256_storeu_pd (y + i, v);
      else
	_mm256_maskstore_pd (
	  y + i, _mm256_loadu_si256 ((const __m256i *) (mask64 + 4 - r)), v);
    }
}
