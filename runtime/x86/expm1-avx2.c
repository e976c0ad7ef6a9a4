/* expm1-avx2.c: y[i] = expm1(x[i]) with AVX2 and FMA, float and double.

   Built with -mavx2 -mfma (and -mf16c, unused): nothing here needs
   AVX-512.  The algorithm, the error analysis and the limitations are
   those of expm1-avx512.c (read its design comment first); this file
   differs only where AVX2 lacks an instruction:
   1. f64: the same kernel on 4 doubles per vector, with the same
      constants (expm1-consts.h) and the same operations, so the same
      results bit for bit; |x| < 2^-54 is picked out by a compare and a
      blend instead of a mask register.
   2. f32: AVX2 has no 64-bit variable permute, so the table has N = 8
      entries instead of 16 (two 32-bit VPERMD look up its low and high
      halves), |r| <= ln2/16, and q has degree 5 instead of 4: q's error
      times r^2 is below 2^-56.5 (not 2^-55.0); the bound of the float
      result, 0.5 ulp + 2^-23 ulp, is the same.
   3. f32: x is clamped to [-40, 100] by a min and a max (no VRANGEPS);
      below -40 the float result is -1 all the same.
   4. Tails: VMASKMOVPS / VMASKMOVPD with lane masks loaded from a table.
   FP contraction: off (pragmas below); every fused multiply-add is an
   explicit _mm256_fmadd_pd / _mm256_fnmadd_pd.

   nf_expm1_pz_*: the same loops with one addition of +0.0 per vector,
   so that x = -0 gives +0 (neuronfuse.h); nothing else changes.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <errno.h>
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../simd.h"
#include "expm1-consts.h"

/* For the f32 kernels: ln2/8 rounded to double (LN2_HI / 8), and q(r) =
   (expm1(r) - r) / r^2, degree 5 minimax on [-0.0434, 0.0434] (|r| <= ln2/16 =
   0.043322 plus rounding); max |error| of these rounded coefficients 2^-47.4,
   times r^2: 2^-56.5 (runtime/tools/expm1-coeffs.py).  */
#define INV_LN2_8 0x1.71547652b82fep+3
#define LN2_8 0x1.62e42fefa39efp-4
#define Q8_C0 0x1.000000000002fp-1
#define Q8_C1 0x1.55555555555d2p-3
#define Q8_C2 0x1.5555554e87d42p-5
#define Q8_C3 0x1.1111110aaf02ep-7
#define Q8_C4 0x1.6c1b754b84012p-10
#define Q8_C5 0x1.a01f94756ca94p-13

/* The bits of T_j = 2^(j/8) rounded to nearest double, minus j << 49, for
   j = 0..7 (runtime/tools/expm1-coeffs.py), split into their low and
   high 32 bits: AVX2 has no 64-bit variable permute, but two 32-bit ones
   (vpermd) look up all 8 entries.  Adding (8 k + j) << 49 gives the bits
   of 2^k T_j in one integer addition.  */
static const uint32_t tab8_lo[8] __attribute__ ((aligned (32)))
= { 0x00000000u, 0x3c7d517bu, 0x0a31b715u, 0xd5362a27u,
    0x667f3bcdu, 0x422aa0dbu, 0x995ad3adu, 0xdcfba487u };
static const uint32_t tab8_hi[8] __attribute__ ((aligned (32)))
= { 0x3ff00000u, 0x3fef72b8u, 0x3fef06feu, 0x3feebfdau,
    0x3feea09eu, 0x3feeace5u, 0x3feee89fu, 0x3fef5818u };

#define C(v) _mm256_set1_pd (v)

/* Returns expm1 of each lane of X, a double, within 0.5 ulp plus
   0.2 ulp; NaN and +-0 as given, -Inf -> -1, overflow -> +Inf.  */
static inline __m256d
expm1_f64x4 (__m256d x)
{
  __m256d xc = _mm256_min_pd (_mm256_max_pd (x, C (-60.0)), C (710.0));
  __m256d z = _mm256_fmadd_pd (xc, C (INV_LN2), C (SHIFT));
  __m256d kd = _mm256_sub_pd (z, C (SHIFT));

  /* r = rh + rl = x - k ln2.  */
  __m256d t = _mm256_fnmadd_pd (kd, C (LN2_HI), xc);
  __m256d rh = _mm256_fnmadd_pd (kd, C (LN2_LO), t);
  __m256d rl = _mm256_fnmadd_pd (kd, C (LN2_LO), _mm256_sub_pd (t, rh));

  /* expm1(r) = rh + rh (rh/2) + lo, lo = rh^3 w(rh) + rl (1 + rh).
     w by Estrin's scheme: two
     more multiplications than Horner's rule but a third of its
     dependency chain (measured 10% faster).  */
  __m256d r2 = _mm256_mul_pd (rh, rh);
  __m256d r4 = _mm256_mul_pd (r2, r2);
  __m256d w01 = _mm256_fmadd_pd (C (W64_C1), rh, C (W64_C0));
  __m256d w23 = _mm256_fmadd_pd (C (W64_C3), rh, C (W64_C2));
  __m256d w45 = _mm256_fmadd_pd (C (W64_C5), rh, C (W64_C4));
  __m256d w67 = _mm256_fmadd_pd (C (W64_C7), rh, C (W64_C6));
  __m256d w89 = _mm256_fmadd_pd (C (W64_C9), rh, C (W64_C8));
  __m256d w03 = _mm256_fmadd_pd (w23, r2, w01);
  __m256d w47 = _mm256_fmadd_pd (w67, r2, w45);
  __m256d w49 = _mm256_fmadd_pd (w89, r4, w47);
  __m256d w = _mm256_fmadd_pd (w49, r4, w03);
  __m256d r3 = _mm256_mul_pd (r2, rh);
  __m256d lo = _mm256_fmadd_pd (r3, w, _mm256_fmadd_pd (rl, rh, rl));

  /* The sum is formed at half scale, with H = S/2 = 2^(k-1), and
     doubled at the end (exact, or the overflow that is due): H cannot
     overflow for k = 1024 (x in (709.44, 709.79]); as k >= -87, nothing
     below underflows unless x is tiny (handled at the end).  H's bits: shifting
     Z's left by 52 leaves k << 52 (mod 2^64); add the biased exponent of 2^-1.
   */
  __m256d h = _mm256_castsi256_pd (
    _mm256_add_epi64 (_mm256_slli_epi64 (_mm256_castpd_si256 (z), 52),
		      _mm256_set1_epi64x ((int64_t) 1022 << 52)));

  /* A + Ae = H - 1/2 exactly (Knuth's two-sum; A alone is exact for |k|
     <= 53, Ae matters for the results near -1 and the large ones).  */
  __m256d a = _mm256_sub_pd (h, C (0.5));
  __m256d bv = _mm256_sub_pd (a, h);
  __m256d av = _mm256_sub_pd (a, bv);
  __m256d ae
    = _mm256_add_pd (_mm256_sub_pd (h, av), _mm256_sub_pd (C (-0.5), bv));

  /* s + e = A + H rh exactly (Fast2Sum: A = 0 or |A| >= |H rh|).  */
  __m256d u = _mm256_mul_pd (h, rh);
  __m256d s = _mm256_add_pd (a, u);
  __m256d e = _mm256_add_pd (_mm256_sub_pd (a, s), u);

  /* y/2 = s + (H rh (rh/2) + (H lo + (e + Ae))): H rh is u, exact, so
     the square term (up to 0.09 |y|) is rounded once, with the rest.  */
  __m256d c = _mm256_fmadd_pd (h, lo, _mm256_add_pd (e, ae));
  __m256d y
    = _mm256_add_pd (s, _mm256_fmadd_pd (u, _mm256_mul_pd (rh, C (0.5)), c));
  y = _mm256_add_pd (y, y);

  /* |x| < 2^-54, where expm1(x) rounds to x, and NaN (quietened): x - 0,
     which keeps -0.  This also covers the tiny x whose half-scale sum
     above would lose bits to underflow.  */
  __m256d ax = _mm256_andnot_pd (C (-0.0), x);
  __m256d m = _mm256_cmp_pd (ax, C (0x1p-54), _CMP_NGE_UQ);
  return _mm256_blendv_pd (y, _mm256_sub_pd (x, _mm256_setzero_pd ()), m);
}

/* Returns expm1 of each lane of X (float values, already clamped to
   [-40, 100]) in double, relative error below 2^-47: x = m ln2/8 + r,
   m = 8 k + j, expm1(x) = S p + (S - 1) with S = 2^k T_j and p =
   expm1(r).  */
static inline __attribute__ ((always_inline)) __m256d
expm1_f32core (__m256d x, int expo)
{
  __m256d z = _mm256_fmadd_pd (x, C (INV_LN2_8), C (SHIFT));
  __m256d md = _mm256_sub_pd (z, C (SHIFT));
  /* One FMA with ln2/8 rounded to double: m times its error (2.9e-18)
     is below 2^-48 for |x| <= 100, relative to expm1(x) too.  */
  __m256d r = _mm256_fnmadd_pd (md, C (LN2_8), x);

  /* T_j: both 32-bit halves of each lane index by m's low bits (vpermd
     uses 3 of them), then S's exponent from m's upper bits.  */
  __m256i zi = _mm256_castpd_si256 (z);
  __m256i idx = _mm256_shuffle_epi32 (zi, _MM_SHUFFLE (2, 2, 0, 0));
  __m256i tlo = _mm256_permutevar8x32_epi32 (
    _mm256_load_si256 ((const __m256i *) tab8_lo), idx);
  __m256i thi = _mm256_permutevar8x32_epi32 (
    _mm256_load_si256 ((const __m256i *) tab8_hi), idx);
  __m256i tj = _mm256_blend_epi32 (tlo, thi, 0xaa);
  __m256d s2
    = _mm256_castsi256_pd (_mm256_add_epi64 (_mm256_slli_epi64 (zi, 49), tj));

  /* p = r + r^2 q(r), q by Estrin's scheme.  */
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q01 = _mm256_fmadd_pd (C (Q8_C1), r, C (Q8_C0));
  __m256d q23 = _mm256_fmadd_pd (C (Q8_C3), r, C (Q8_C2));
  __m256d q45 = _mm256_fmadd_pd (C (Q8_C5), r, C (Q8_C4));
  __m256d q25 = _mm256_fmadd_pd (q45, r2, q23);
  __m256d q = _mm256_fmadd_pd (q25, r2, q01);
  __m256d p = _mm256_fmadd_pd (r2, q, r);
  /* EXPO: exp (x) = S p + S instead, rounded once as well.  */
  return _mm256_fmadd_pd (s2, p, expo ? s2 : _mm256_sub_pd (s2, C (1.0)));
}

/* Returns expm1 of each lane of X within 0.5 ulp + 2^-23 ulp; NaN and
   +-0 as given.  */
static inline __m256
expm1_f32x8 (__m256 x)
{
  /* Below -40 the float result is -1, above 100 +Inf.  */
  __m256 xc = _mm256_min_ps (_mm256_max_ps (x, _mm256_set1_ps (-40.0f)),
			     _mm256_set1_ps (100.0f));
  __m256d lo = expm1_f32core (_mm256_cvtps_pd (_mm256_castps256_ps128 (xc)), 0);
  __m256d hi = expm1_f32core (_mm256_cvtps_pd (_mm256_extractf128_ps (xc, 1)), 0);
  __m256 y = _mm256_set_m128 (_mm256_cvtpd_ps (hi), _mm256_cvtpd_ps (lo));
  __m256 m = _mm256_cmp_ps (x, _mm256_setzero_ps (), _CMP_EQ_UQ);
  return _mm256_blendv_ps (y, _mm256_add_ps (x, x), m);
}

/* Lane masks of the tails: loading 8 elements from MASK32 + 8 - R (resp.
   4 from MASK64 + 4 - R) gives all-ones in the first R lanes.  */
static const int32_t mask32[16]
  = { -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0 };
static const int64_t mask64[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };

/* y[i] = expm1(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
expm1_f32_loop (float *y, const float *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm256_add_ps ((v), _mm256_setzero_ps ()) : (v))
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps (y + i, PZ (expm1_f32x8 (_mm256_loadu_ps (x + i))));
  if (i < n)
    {
      __m256i m = _mm256_loadu_si256 ((const __m256i *) (mask32 + 8 - (n - i)));
      __m256 v = _mm256_maskload_ps (x + i, m);
      _mm256_maskstore_ps (y + i, m, PZ (expm1_f32x8 (v)));
    }
#undef PZ
}

void
nf_expm1_f32_avx2 (float *y, const float *x, size_t n)
{
  expm1_f32_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_expm1_pz_f32_avx2 (float *y, const float *x, size_t n)
{
  expm1_f32_loop (y, x, n, 1);
}

/* y[i] = expm1(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
expm1_f64_loop (double *y, const double *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm256_add_pd ((v), _mm256_setzero_pd ()) : (v))
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd (y + i, PZ (expm1_f64x4 (_mm256_loadu_pd (x + i))));
  if (i < n)
    {
      __m256i m = _mm256_loadu_si256 ((const __m256i *) (mask64 + 4 - (n - i)));
      __m256d v = _mm256_maskload_pd (x + i, m);
      _mm256_maskstore_pd (y + i, m, PZ (expm1_f64x4 (v)));
    }
#undef PZ
}

void
nf_expm1_f64_avx2 (double *y, const double *x, size_t n)
{
  expm1_f64_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_expm1_pz_f64_avx2 (double *y, const double *x, size_t n)
{
  expm1_f64_loop (y, x, n, 1);
}

/* The clones' registers (simd.h): expm1_f32x8 on 8 or 4 lanes.  */
__m256
nf_expm1f_x8_avx2 (__m256 x)
{
  return expm1_f32x8 (x);
}

__m128
nf_expm1f_x4_avx2 (__m128 x)
{
  __m128 xc
    = _mm_min_ps (_mm_max_ps (x, _mm_set1_ps (-40.0f)), _mm_set1_ps (100.0f));
  __m128 y = _mm256_cvtpd_ps (expm1_f32core (_mm256_cvtps_pd (xc), 0));
  __m128 m = _mm_cmp_ps (x, _mm_setzero_ps (), _CMP_EQ_UQ);
  return _mm_blendv_ps (y, _mm_add_ps (x, x), m);
}

/* nf_expf's clones: exp (x) = S p + S from the same core, rounded once
   (expm1-avx512.c says why that is within 0.5 ulp + 2^-23 ulp); x
   clamped to [-110, 100], NaN kept (max and min return their second
   operand for NaN).  */
static inline __m256
exp_f32x8 (__m256 x)
{
  __m256 xc = _mm256_min_ps (_mm256_set1_ps (100.0f),
			     _mm256_max_ps (_mm256_set1_ps (-110.0f), x));
  __m256d lo = expm1_f32core (_mm256_cvtps_pd (_mm256_castps256_ps128 (xc)), 1);
  __m256d hi = expm1_f32core (_mm256_cvtps_pd (_mm256_extractf128_ps (xc, 1)), 1);
  return _mm256_set_m128 (_mm256_cvtpd_ps (hi), _mm256_cvtpd_ps (lo));
}

__m256
nf_expf_x8_avx2 (__m256 x)
{
  return exp_f32x8 (x);
}

__m128
nf_expf_x4_avx2 (__m128 x)
{
  __m128 xc = _mm_min_ps (_mm_set1_ps (100.0f),
			  _mm_max_ps (_mm_set1_ps (-110.0f), x));
  return _mm256_cvtpd_ps (expm1_f32core (_mm256_cvtps_pd (xc), 1));
}

/* The array kernel of the clones' exp (kernels.h's exp_f32, for
   nf_elementwise): y[i] = exp (x[i]), the bits of nf_expf's d clone.  */
void
nf_exp_f32_avx2 (float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps (y + i, exp_f32x8 (_mm256_loadu_ps (x + i)));
  if (i < n)
    {
      __m256i m = _mm256_loadu_si256 ((const __m256i *) (mask32 + 8 - (n - i)));
      __m256 v = _mm256_maskload_ps (x + i, m);
      _mm256_maskstore_ps (y + i, m, exp_f32x8 (v));
    }
}
