/* expm1-avx512.c: y[i] = expm1(x[i]) with AVX-512, float and double.

   Built with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma.
   FP contraction: off (pragmas below); every fused multiply-add is an
   explicit _mm512_fmadd_pd / _mm512_fnmadd_pd, because the error
   analysis counts each rounding.  Round-to-nearest is assumed; nothing
   else of the FP environment is used and errno is never set.

   Algorithm (the classic exp reduction of Cody and Waite 1980 and the
   table of Tang 1989; expm1's cancellation handled as Tang's 1992 expm1
   paper does: keep 2^k - 1 exact and add the small parts last):
   1. Clamp x to [-60, 710] (f32: [-100, 100], in float): below the
      clamp expm1 rounds to -1, above it overflows, so the clamp changes
      no result.  NaN and +-0 (f64: all |x| < 2^-54) are put back at
      the end.
   2. f64: k = nearest integer to x / ln2, by adding 0x1.8p52 (k lands
      in the low mantissa bits); r = x - k ln2 with ln2 in two parts,
      |r| <= ln2/2 + 2^-44.  x - k*LN2_HI by one FMA is exact (|x| >=
      1/4 when k != 0: a multiple of 2^-54 below 1/2), r = rh + rl.
      f32 (in double): m = nearest integer to x N / ln2 = N k + j,
      0 <= j < N, r = x - m ln2/N by one FMA with ln2/N rounded to
      double, |r| <= ln2/(2N), N = 16 (one vpermt2pd looks the table
      up).
   3. f64: expm1(r) = rh + rh^2/2 + lo, lo = rh^3 w(rh) + rl (1 + rh),
      w a degree-9 minimax polynomial.  f32: p = r + r^2 q(r), q of
      degree 4.  runtime/tools/expm1-coeffs.py computes w, q and the
      table; w's coefficients and the ln2 splits, which expm1-avx2.c
      shares, are in expm1-consts.h.
   4. expm1(x) = S expm1(r) + (S - 1), S = 2^k (f32: 2^k T_j, T_j =
      2^(j/N) from a table), built from bits.
      f32: one FMA, fma(S, p, S - 1), then one rounding to float.
      f64, at half scale (H = S/2, so that H does not overflow for k =
      1024, x in (709.44, 709.79]; y doubled at the end): H - 1/2 =
      A + Ae (Knuth's two-sum), A + H rh = s + e exactly (Fast2Sum),
      y/2 = s + (H rh (rh/2) + (H lo + (e + Ae))) with H rh exact: one
      rounding of a term below 0.26 |y/2|, then the final addition.

   Error analysis, f64: the sum added to s, S (rh^2/2 + lo) + e + Ae, is
   below 0.26 |y| and rounded once, which costs at most 1/8 ulp (worst
   for k = 1, |r| near ln2/2, where that sum is 0.107 and y 0.416);
   the errors inside it (w's, below 2^-55.6, times |r|^3; lo's and S lo's
   roundings) add up to below 0.08 ulp there; rl's truncation is below
   2^-100.  So 0.5 + 0.21 ulp at worst; measured against MPFR: 0.702
   ulp over 10^7 inputs spread over the whole range (x =
   0x1.641f566081165p-2: 0.125 + 0.077 ulp as just said), 0.708 over
   2 10^6 inputs in [0.34, 1.04] (k = 1), 0.60 for k = -1.
   f32: relative error of the double result below 2^-47: q's error times
   r^2 is below 2^-55.0, T_j's rounding (2^-53) is amplified at most 24
   times by the cancellation in S - 1 (j = 1, k = 0 or j = N - 1, k =
   -1), r's error (m times that of ln2/N, below 2^-48 relative to the
   result, largest for large x) and the roundings of p and of the FMA.
   The float result is thus within 0.5 ulp + 2^-23 ulp of exact; the
   exhaustive sweep found no input further than 0.5 + 2^-25 ulp from
   glibc's double expm1 (itself within about 2^-29 ulp of exact).

   Limitations: do not build with -ffast-math or -fassociative-math: the
   two-sums need the written evaluation order.  Subnormal results cannot
   occur (expm1 >= -1); sNaN comes back quiet.  Tails use masked loads and
   stores; the kernels read and write only x[0..n-1] and y[0..n-1].

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

/* For the f32 kernels: ln2/16 rounded to double (LN2_HI / 16), and q(r) =
   (expm1(r) - r) / r^2, degree 4 minimax on [-0.0217, 0.0217] (|r| <= ln2/32 =
   0.021661 plus rounding); max |error| of these rounded coefficients 2^-43.9,
   times r^2: 2^-55.0 (runtime/tools/expm1-coeffs.py).  */
#define INV_LN2_16 0x1.71547652b82fep+4
#define LN2_16 0x1.62e42fefa39efp-5
#define Q16_C0 0x1.0000000000001p-1
#define Q16_C1 0x1.55555554dc65fp-3
#define Q16_C2 0x1.55555554b81d2p-5
#define Q16_C3 0x1.11120bde7e730p-7
#define Q16_C4 0x1.6c18208cb2bbbp-10

/* The bits of T_j = 2^(j/16) rounded to nearest double, minus j << 48,
   for j = 0..15 (runtime/tools/expm1-coeffs.py): adding (16 k + j) << 48
   gives the bits of 2^k T_j in one integer addition.  */
static const uint64_t tab16[16] __attribute__ ((aligned (64))) = {
  0x3ff0000000000000u, 0x3fefb5586cf9890fu, 0x3fef72b83c7d517bu,
  0x3fef387a6e756238u, 0x3fef06fe0a31b715u, 0x3feedea64c123422u,
  0x3feebfdad5362a27u, 0x3feeab07dd485429u, 0x3feea09e667f3bcdu,
  0x3feea11473eb0187u, 0x3feeace5422aa0dbu, 0x3feec49182a3f090u,
  0x3feee89f995ad3adu, 0x3fef199bdd85529cu, 0x3fef5818dcfba487u,
  0x3fefa4afa2a490dau,
};

#define C(v) _mm512_set1_pd (v)

/* Returns expm1 of each lane of X, a double, within 0.5 ulp plus
   0.2 ulp; NaN and +-0 as given, -Inf -> -1, overflow -> +Inf.  */
static inline __m512d
expm1_f64x8 (__m512d x)
{
  __m512d xc = _mm512_min_pd (_mm512_max_pd (x, C (-60.0)), C (710.0));
  __m512d z = _mm512_fmadd_pd (xc, C (INV_LN2), C (SHIFT));
  __m512d kd = _mm512_sub_pd (z, C (SHIFT));

  /* r = rh + rl = x - k ln2.  */
  __m512d t = _mm512_fnmadd_pd (kd, C (LN2_HI), xc);
  __m512d rh = _mm512_fnmadd_pd (kd, C (LN2_LO), t);
  __m512d rl = _mm512_fnmadd_pd (kd, C (LN2_LO), _mm512_sub_pd (t, rh));

  /* expm1(r) = rh + rh (rh/2) + lo, lo = rh^3 w(rh) + rl (1 + rh).
     w by Estrin's scheme: two
     more multiplications than Horner's rule but a third of its
     dependency chain (measured 10% faster).  */
  __m512d r2 = _mm512_mul_pd (rh, rh);
  __m512d r4 = _mm512_mul_pd (r2, r2);
  __m512d w01 = _mm512_fmadd_pd (C (W64_C1), rh, C (W64_C0));
  __m512d w23 = _mm512_fmadd_pd (C (W64_C3), rh, C (W64_C2));
  __m512d w45 = _mm512_fmadd_pd (C (W64_C5), rh, C (W64_C4));
  __m512d w67 = _mm512_fmadd_pd (C (W64_C7), rh, C (W64_C6));
  __m512d w89 = _mm512_fmadd_pd (C (W64_C9), rh, C (W64_C8));
  __m512d w03 = _mm512_fmadd_pd (w23, r2, w01);
  __m512d w47 = _mm512_fmadd_pd (w67, r2, w45);
  __m512d w49 = _mm512_fmadd_pd (w89, r4, w47);
  __m512d w = _mm512_fmadd_pd (w49, r4, w03);
  __m512d r3 = _mm512_mul_pd (r2, rh);
  __m512d lo = _mm512_fmadd_pd (r3, w, _mm512_fmadd_pd (rl, rh, rl));

  /* The sum is formed at half scale, with H = S/2 = 2^(k-1), and
     doubled at the end (exact, or the overflow that is due): H cannot
     overflow for k = 1024 (x in (709.44, 709.79]); as k >= -87, nothing
     below underflows unless x is tiny (handled at the end).  H's bits: shifting
     Z's left by 52 leaves k << 52 (mod 2^64); add the biased exponent of 2^-1.
   */
  __m512d h = _mm512_castsi512_pd (
    _mm512_add_epi64 (_mm512_slli_epi64 (_mm512_castpd_si512 (z), 52),
		      _mm512_set1_epi64 ((int64_t) 1022 << 52)));

  /* A + Ae = H - 1/2 exactly (Knuth's two-sum; A alone is exact for |k|
     <= 53, Ae matters for the results near -1 and the large ones).  */
  __m512d a = _mm512_sub_pd (h, C (0.5));
  __m512d bv = _mm512_sub_pd (a, h);
  __m512d av = _mm512_sub_pd (a, bv);
  __m512d ae
    = _mm512_add_pd (_mm512_sub_pd (h, av), _mm512_sub_pd (C (-0.5), bv));

  /* s + e = A + H rh exactly (Fast2Sum: A = 0 or |A| >= |H rh|).  */
  __m512d u = _mm512_mul_pd (h, rh);
  __m512d s = _mm512_add_pd (a, u);
  __m512d e = _mm512_add_pd (_mm512_sub_pd (a, s), u);

  /* y/2 = s + (H rh (rh/2) + (H lo + (e + Ae))): H rh is u, exact, so
     the square term (up to 0.09 |y|) is rounded once, with the rest.  */
  __m512d c = _mm512_fmadd_pd (h, lo, _mm512_add_pd (e, ae));
  __m512d y
    = _mm512_add_pd (s, _mm512_fmadd_pd (u, _mm512_mul_pd (rh, C (0.5)), c));
  y = _mm512_add_pd (y, y);

  /* |x| < 2^-54, where expm1(x) rounds to x, and NaN (quietened): x - 0,
     which keeps -0.  This also covers the tiny x whose half-scale sum
     above would lose bits to underflow.  */
  __mmask8 m = _mm512_cmp_pd_mask (_mm512_abs_pd (x), C (0x1p-54), _CMP_NGE_UQ);
  return _mm512_mask_sub_pd (y, m, x, _mm512_setzero_pd ());
}

/* Returns expm1 of each lane of X (float values, already clamped to
   [-100, 100]) in double, relative error below 2^-47: x = m ln2/16 + r,
   m = 16 k + j, expm1(x) = S p + (S - 1) with S = 2^k T_j and p =
   expm1(r).  */
static inline __attribute__ ((always_inline)) __m512d
expm1_f32core (__m512d x, int expo)
{
  __m512d z = _mm512_fmadd_pd (x, C (INV_LN2_16), C (SHIFT));
  __m512d md = _mm512_sub_pd (z, C (SHIFT));
  /* One FMA with ln2/16 rounded to double: m times its error (1.5e-18
     or less) is below 2^-48 for |x| <= 100, relative to expm1(x) too.  */
  __m512d r = _mm512_fnmadd_pd (md, C (LN2_16), x);

  /* T_j by the low 4 bits of m, then S's exponent from m's upper bits.  */
  __m512i zi = _mm512_castpd_si512 (z);
  __m512d tj
    = _mm512_permutex2var_pd (_mm512_load_pd ((const double *) tab16), zi,
			      _mm512_load_pd ((const double *) tab16 + 8));
  __m512d s2 = _mm512_castsi512_pd (
    _mm512_add_epi64 (_mm512_slli_epi64 (zi, 48), _mm512_castpd_si512 (tj)));

  /* p = r + r^2 q(r), q by Estrin's scheme (as many FMAs as Horner's
     rule, a shorter chain).  */
  __m512d r2 = _mm512_mul_pd (r, r);
  __m512d q01 = _mm512_fmadd_pd (C (Q16_C1), r, C (Q16_C0));
  __m512d q23 = _mm512_fmadd_pd (C (Q16_C3), r, C (Q16_C2));
  __m512d q24 = _mm512_fmadd_pd (C (Q16_C4), r2, q23);
  __m512d q = _mm512_fmadd_pd (q24, r2, q01);
  __m512d p = _mm512_fmadd_pd (r2, q, r);
  /* EXPO: exp (x) = S p + S instead, rounded once as well.  */
  return _mm512_fmadd_pd (s2, p, expo ? s2 : _mm512_sub_pd (s2, C (1.0)));
}

/* expm1_f32core on the 4 doubles of a ymm (AVX-512VL), for the b clones:
   the same operations lane for lane, so the same bits, in half the
   work of a zmm whose upper half is unused (Zen 4 runs a 512-bit
   operation as two 256-bit ones).  T_j is looked up by one vpermt2pd
   of the zmm table pair, the index in the low half of the zmm index.  */
static inline __attribute__ ((always_inline)) __m256d
expm1_f32core4 (__m256d x, int expo)
{
#define C4(v) _mm256_set1_pd (v)
  __m256d z = _mm256_fmadd_pd (x, C4 (INV_LN2_16), C4 (SHIFT));
  __m256d md = _mm256_sub_pd (z, C4 (SHIFT));
  __m256d r = _mm256_fnmadd_pd (md, C4 (LN2_16), x);
  __m256i zi = _mm256_castpd_si256 (z);
  __m256d tj = _mm512_castpd512_pd256 (_mm512_permutex2var_pd (
    _mm512_load_pd ((const double *) tab16), _mm512_castsi256_si512 (zi),
    _mm512_load_pd ((const double *) tab16 + 8)));
  __m256d s2 = _mm256_castsi256_pd (
    _mm256_add_epi64 (_mm256_slli_epi64 (zi, 48), _mm256_castpd_si256 (tj)));
  __m256d r2 = _mm256_mul_pd (r, r);
  __m256d q01 = _mm256_fmadd_pd (C4 (Q16_C1), r, C4 (Q16_C0));
  __m256d q23 = _mm256_fmadd_pd (C4 (Q16_C3), r, C4 (Q16_C2));
  __m256d q24 = _mm256_fmadd_pd (C4 (Q16_C4), r2, q23);
  __m256d q = _mm256_fmadd_pd (q24, r2, q01);
  __m256d p = _mm256_fmadd_pd (r2, q, r);
  return _mm256_fmadd_pd (s2, p, expo ? s2 : _mm256_sub_pd (s2, C4 (1.0)));
#undef C4
}

/* Returns expm1 of each lane of X within 0.5 ulp + 2^-23 ulp; NaN and
   +-0 as given.  */
static inline __m512
expm1_f32x16 (__m512 x)
{
  /* Clamp to [-100, 100] in one vrangeps (the one of x and 100 smaller
     in magnitude, with x's sign): below -100 the float result is -1 and
     2^k still normal, above 100 +Inf.  NaN stays NaN.  */
  __m512 xc = _mm512_range_ps (x, _mm512_set1_ps (100.0f), 0x02);
  __m512d lo = expm1_f32core (_mm512_cvtps_pd (_mm512_castps512_ps256 (xc)), 0);
  __m512d hi = expm1_f32core (_mm512_cvtps_pd (_mm512_extractf32x8_ps (xc, 1)), 0);
  __m512 y = _mm512_insertf32x8 (_mm512_castps256_ps512 (_mm512_cvtpd_ps (lo)),
				 _mm512_cvtpd_ps (hi), 1);
  __mmask16 m = _mm512_cmp_ps_mask (x, _mm512_setzero_ps (), _CMP_EQ_UQ);
  return _mm512_mask_add_ps (y, m, x, x);
}

/* y[i] = expm1(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
expm1_f32_loop (float *y, const float *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm512_add_ps ((v), _mm512_setzero_ps ()) : (v))
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps (y + i, PZ (expm1_f32x16 (_mm512_loadu_ps (x + i))));
  if (i < n)
    {
      __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
      __m512 v = _mm512_maskz_loadu_ps (m, x + i);
      _mm512_mask_storeu_ps (y + i, m, PZ (expm1_f32x16 (v)));
    }
#undef PZ
}

void
nf_expm1_f32_avx512 (float *y, const float *x, size_t n)
{
  expm1_f32_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_expm1_pz_f32_avx512 (float *y, const float *x, size_t n)
{
  expm1_f32_loop (y, x, n, 1);
}

/* y[i] = expm1(x[i]) for i < n, plus +0.0 if PZ (a constant once
   inlined: the _pz kernel's one extra addition per vector).  */
static inline __attribute__ ((always_inline)) void
expm1_f64_loop (double *y, const double *x, size_t n, int pz)
{
#define PZ(v) (pz ? _mm512_add_pd ((v), _mm512_setzero_pd ()) : (v))
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_pd (y + i, PZ (expm1_f64x8 (_mm512_loadu_pd (x + i))));
  if (i < n)
    {
      __mmask8 m = (__mmask8) ((1u << (n - i)) - 1);
      __m512d v = _mm512_maskz_loadu_pd (m, x + i);
      _mm512_mask_storeu_pd (y + i, m, PZ (expm1_f64x8 (v)));
    }
#undef PZ
}

void
nf_expm1_f64_avx512 (double *y, const double *x, size_t n)
{
  expm1_f64_loop (y, x, n, 0);
}

/* The same, x = -0 giving +0 (neuronfuse.h).  */
void
nf_expm1_pz_f64_avx512 (double *y, const double *x, size_t n)
{
  expm1_f64_loop (y, x, n, 1);
}

/* The clones' registers (simd.h): expm1_f32x16 on 16 or 8 lanes, and
   on 4 its ymm core.  */
__m512
nf_expm1f_x16_avx512 (__m512 x)
{
  return expm1_f32x16 (x);
}

__m256
nf_expm1f_x8_avx512 (__m256 x)
{
  __m256 xc = _mm256_range_ps (x, _mm256_set1_ps (100.0f), 0x02);
  __m256 y = _mm512_cvtpd_ps (expm1_f32core (_mm512_cvtps_pd (xc), 0));
  __mmask8 m = _mm256_cmp_ps_mask (x, _mm256_setzero_ps (), _CMP_EQ_UQ);
  return _mm256_mask_add_ps (y, m, x, x);
}

/* 4 lanes: the ymm core, the steps of nf_expm1f_x8_avx512 on xmm.  */
__m128
nf_expm1f_x4_avx512 (__m128 x)
{
  __m128 xc = _mm_range_ps (x, _mm_set1_ps (100.0f), 0x02);
  __m128 y = _mm256_cvtpd_ps (expm1_f32core4 (_mm256_cvtps_pd (xc), 0));
  __mmask8 m = _mm_cmp_ps_mask (x, _mm_setzero_ps (), _CMP_EQ_UQ);
  return _mm_mask_add_ps (y, m, x, x);
}

/* nf_expf's clones: exp (x) = S p + S from the same core, rounded once
   (relative error of the double result below 2^-47.5 as for expm1,
   without the cancellation: within 0.5 ulp + 2^-23 ulp, subnormal
   results included).  x is clamped to [-110, 100] (NaN kept: max and
   min return their second operand for NaN): below -110 exp rounds to
   +0 and 2^k stays a normal double, above 100 it overflows.  No zero
   fix-up: exp (+-0) = 1 exactly.  */
static inline __m512
exp_clamp16 (__m512 x)
{
  return _mm512_min_ps (_mm512_set1_ps (100.0f),
			_mm512_max_ps (_mm512_set1_ps (-110.0f), x));
}

static inline __m512
exp_f32x16 (__m512 x)
{
  __m512 xc = exp_clamp16 (x);
  __m512d lo = expm1_f32core (_mm512_cvtps_pd (_mm512_castps512_ps256 (xc)), 1);
  __m512d hi = expm1_f32core (_mm512_cvtps_pd (_mm512_extractf32x8_ps (xc, 1)), 1);
  return _mm512_insertf32x8 (_mm512_castps256_ps512 (_mm512_cvtpd_ps (lo)),
			     _mm512_cvtpd_ps (hi), 1);
}

__m512
nf_expf_x16_avx512 (__m512 x)
{
  return exp_f32x16 (x);
}

__m256
nf_expf_x8_avx512 (__m256 x)
{
  __m256 xc = _mm256_min_ps (_mm256_set1_ps (100.0f),
			     _mm256_max_ps (_mm256_set1_ps (-110.0f), x));
  return _mm512_cvtpd_ps (expm1_f32core (_mm512_cvtps_pd (xc), 1));
}

__m128
nf_expf_x4_avx512 (__m128 x)
{
  __m128 xc = _mm_min_ps (_mm_set1_ps (100.0f),
			  _mm_max_ps (_mm_set1_ps (-110.0f), x));
  return _mm256_cvtpd_ps (expm1_f32core4 (_mm256_cvtps_pd (xc), 1));
}

/* The array kernel of the clones' exp (kernels.h's exp_f32, for
   nf_elementwise): y[i] = exp (x[i]), the bits of nf_expf's e clone.  */
void
nf_exp_f32_avx512 (float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps (y + i, exp_f32x16 (_mm512_loadu_ps (x + i)));
  if (i < n)
    {
      __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
      __m512 v = _mm512_maskz_loadu_ps (m, x + i);
      _mm512_mask_storeu_ps (y + i, m, exp_f32x16 (v));
    }
}
