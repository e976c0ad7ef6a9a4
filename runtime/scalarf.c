/* scalarf.c: the scalar functions nf_expf, nf_expm1f and nf_log1pf, what
   a rewritten float expf (x), expf (x) - 1 and logf (1 + x) call per
   element (neuronfuse.h).  Plain C for any x86-64 (SSE2, no FMA) and
   any other target, called directly (no dispatch table): one design, the
   same bits on every CPU.  The vector-ABI clones of these functions are
   in simd.c.

   Design: glibc 2.36's expf and logf (Szabolcs Nagy's, ARM optimized
   routines: evaluation in double, a table, a short polynomial, one
   rounding to float), with a table of 64 and polynomials long enough for
   0.5 ulp + tiny instead of glibc's 0.502 ulp (expf) and 0.82 ulp (logf).
   runtime/tools/scalarf-coeffs.py computed every table and coefficient.

   exp and expm1:
   1. z = x 64/ln2 in double (relative error 2^-53), m = nearest
      integer to z (by adding and subtracting 0x1.8p52, which leaves m in
      the low bits of the sum), t = z - m exactly, |t| <= 1/2.  The FMA
      variant instead: m from fmaf (x, 64/ln2 rounded to float, 0x1.8p23)
      (x's float, no conversion on the way to the table's address; m is
      the nearest integer or, within 2^-12 of a half-integer, its
      neighbour: |t| <= 1/2 + 2^-12, where the polynomials' errors, fits
      on [-1/2, 1/2], have grown by less than 1%), t = fma (x, 64/ln2,
      -m) rounded once (no rounding of z).  m = 64 k + j: S = 2^k
      2^(j/64), from the table of 2^(j/64) (bits minus j << 46) plus m <<
      46, one integer addition (on x86-64 in the vector unit: psllq,
      paddq; only j goes through a general register).
   2. 2^(t/64) - 1 = t G(t), G of degree 4 (expm1: relative error of
      t G below 2^-51.0) or 3 (exp: 2^-47.5 relative to 1 + t G).
   3. expm1 (x) = (S t) G - (1 - S), exp (x) = (S t) G + S, each rounded
      to float once (S t formed while G is: one FMA after G).  For m = 0 (|x| < ln2/128), S = 1 and expm1 (x) =
      t G (1 - S = 0: no cancellation, and -0 gives -0 as t = -0, t G =
      -0 and -0 - 0 = -0); for m != 0, |expm1 (x)| >= 0.0054, and S - 1
      is exact or (|k| > 0) rounded relative to a result of its size.
   Error, expm1: the rounding of z costs |x| 2^-53 in the exponent,
   relative to expm1 (x) at most 2^-46.5 (|x| <= 88.7), and less than
   2^-52 for small |x|; S's rounding (2^-53 absolute in 2^(j/64))
   relative to a result >= 0.0054 at most 2^-45.5 (m = +-1), the
   polynomial's 2^-51.0 and five roundings of 2^-53 each (G by Estrin's
   scheme): relative error of the double result below 2^-44.8, so within
   0.5 ulp + 2^-20.8 ulp after the rounding to float.  exp: the same
   without the cancellation: 2^-46.5 (z), 2^-47.5 (G), four roundings and
   S t's (2^-53 of a term below 0.0055 S): below 2^-45.5, 0.5 ulp +
   2^-21.5 ulp (subnormal results: the same absolute error, smaller in
   their ulps).
   log1p:
   1. u = 1 + x in double, exact for |x| >= 2^-29 (and relative error
      2^-53 for x >= 2^29, far below what matters there); for |x| <
      2^-29, log1p (x) = x - x^2/2 + ... rounds to x: returned as is.
   2. u = 2^k z with the bits of z in [OFF, OFF + 2^52), z in
      [0.6914, 1.3828): the bits of z - OFF pick one of 64 buckets, R =
      1 / the bucket's centre rounded, T = -log (R) rounded.  The bucket
      of 1 ([1 - 2^-8, 1 + 2^-7)) has its centre at 1 (OFF is chosen so),
      R = 1 and T = 0.  k and the bucket are read off the float 1 + x
      (one float addition from x, not the double's bits: the table's
      address is ready sooner); where that rounds across a bucket
      boundary, z = u 2^-k (from the double u) is within 2^-24 of the
      bucket's range and r below within the range g is fitted on.
   3. r = z R - 1, |r| <= 2^-7 (exact for the bucket of 1); log1p (x) =
      (k ln2 + T + r) + r^2 g(r), g of degree 4 (relative error of
      r + r^2 g below 2^-48.8), summed as ((k ln2 + T + r) + r^2 (G0 +
      G1 r)) + r^4 (G2 + G3 r + G4 r^2): two FMAs after r^4.
   Error: for the bucket of 1 and k = 0, r = x exactly and the result is
   r + r^2 g with the polynomial's error and three roundings: 2^-48.4
   relative.  Elsewhere |log1p (x)| >= 2^-8, and the rounding of z R
   (2^-53 absolute), of T, k ln2 and the sums add up to below 2^-44.5
   relative (the sum k ln2 + T cancels at most by a factor of 3, k = +-1):
   within 0.5 ulp + 2^-20.5 ulp after the rounding to float.
   Measured (make check-exhaustive, all 2^32 floats against MPFR):
   see runtime/README.md.

   The vector clones (simd.c) run the array kernels' cores instead,
   which are as accurate but round differently: scalar and vector forms
   may differ in the last bit on the few inputs that are not correctly
   rounded.

   The hot path's range test is one unsigned compare of x's bits
   doubled (|x| >= 88: expf, expm1f), or two compares of x's bits
   (log1pf: |x| < 2^-29 or not finite, x <= -1), done before the
   conversion to double.

   Errno as glibc 2.36 sets it: expf, ERANGE when a finite x overflows (x
   > 0x1.62e42ep6) and when exp (x) < 2^-149 (x < -0x1.9d1d9ep6, the
   results 2^-149 and 0; other subnormal results set nothing), as
   Debian's glibc does (measured over all floats); expm1f, ERANGE when a
   finite x overflows (x > NF_EXPM1F_MAX, the same bound); log1pf, EDOM
   for x < -1 (-Inf included), ERANGE for x = -1.  NaN and +-Inf give
   what glibc gives (expf (-Inf) = +0, expm1f (-Inf) = -1, log1pf (+Inf)
   = +Inf) and set nothing.  FP exception flags: not promised.

   FP contraction: off (Makefile.am): the error analysis counts every
   rounding as written; with FMA the polynomials would be no less
   accurate, but the bits would depend on the compiler flags.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

/* neuronfuse.h: declare the functions without __simd__ (GCC would make
   clones of its own of these definitions; simd.c defines the clones).  */
#pragma GCC optimize("fp-contract=off")

#define NF_DEFINE_CLONES 1
#include "neuronfuse.h"
#include "simd.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined __x86_64__
#include <immintrin.h>
#endif

static inline uint32_t
asuint (float f)
{
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  return u;
}

static inline uint64_t
asuint64 (double d)
{
  uint64_t u;
  memcpy (&u, &d, sizeof u);
  return u;
}

static inline double
asdouble (uint64_t u)
{
  double d;
  memcpy (&d, &u, sizeof d);
  return d;
}

/* The top 12 bits of a float's pattern without the sign.  */
#define TOP12(x) ((asuint (x) >> 20) & 0x7ff)
/* |x| >= 88 (or Inf, NaN) iff OUTSIDE_88 (x): the pattern doubled (the
   sign shifted out) compared once, unsigned (two instructions and the
   branch on the hot path; TOP12's shift and mask took one more).  */
#define OUTSIDE_88(x) (asuint (x) * 2u >= 0x42b00000u * 2u)

/* Below NF_EXPF_UFLOW0 (simd.h: below NF_EXPF_UFLOW_ERRNO glibc sets
   ERANGE), exp (x) rounds to 0.  */
#define NF_EXPF_UFLOW0 -0x1.9fe368p6f

#define SHIFT 0x1.8p52
#define INV_LN2_64 0x1.71547652b82fep+6
#define SHIFTF 0x1.8p23f
#define INV_LN2_64F 0x1.715476p+6f

/* Polynomials by runtime/tools/scalarf-coeffs.py, on [-1/2, 1/2] (G)
   and [-0.00782, 0.00782] (g), Remez for the absolute error of G and g;
   the errors stated are those of the rounded coefficients, measured.
   expm1: t G(t) = 2^(t/64) - 1 within 2^-51.0 relative, degree 4.
   exp: 1 + t G(t) = 2^(t/64) within 2^-47.5 relative, degree 3.
   log1p: r + r^2 g(r) = log1p (r) within 2^-48.8 relative, degree 4.  */
#define EXPM1F_G0 0x1.62e42fefa39efp-7
#define EXPM1F_G1 0x1.ebfbdff82ac52p-15
#define EXPM1F_G2 0x1.c6b08d70486c1p-23
#define EXPM1F_G3 0x1.3b2ad0385b2b1p-31
#define EXPM1F_G4 0x1.5d881a7673c35p-40
#define EXPF_G0 0x1.62e42fefa2417p-7
#define EXPF_G1 0x1.ebfbdff829d27p-15
#define EXPF_G2 0x1.c6b0b9214bdaep-23
#define EXPF_G3 0x1.3b2ad5460601ep-31
#define LOG1PF_G0 -0x1.0000000000010p-1
#define LOG1PF_G1 0x1.55555552770b0p-2
#define LOG1PF_G2 -0x1.fffffff2f2f73p-3
#define LOG1PF_G3 0x1.999f53572ceedp-3
#define LOG1PF_G4 -0x1.555c58e17bb9dp-3

/* The bits of 2^(j/64) rounded to double, minus j << 46: adding m << 46
   (m = 64 k + j) gives the bits of 2^k 2^(j/64).  */
static const uint64_t exp_tab[64] = {
  0x3ff0000000000000u, 0x3fefec9a3e778061u, 0x3fefd9b0d3158574u,
  0x3fefc74518759bc8u, 0x3fefb5586cf9890fu, 0x3fefa3ec32d3d1a2u,
  0x3fef9301d0125b51u, 0x3fef829aaea92de0u, 0x3fef72b83c7d517bu,
  0x3fef635beb6fcb75u, 0x3fef54873168b9aau, 0x3fef463b88628cd6u,
  0x3fef387a6e756238u, 0x3fef2b4565e27cddu, 0x3fef1e9df51fdee1u,
  0x3fef1285a6e4030bu, 0x3fef06fe0a31b715u, 0x3feefc08b26416ffu,
  0x3feef1a7373aa9cbu, 0x3feee7db34e59ff7u, 0x3feedea64c123422u,
  0x3feed60a21f72e2au, 0x3feece086061892du, 0x3feec6a2b5c13cd0u,
  0x3feebfdad5362a27u, 0x3feeb9b2769d2ca7u, 0x3feeb42b569d4f82u,
  0x3feeaf4736b527dau, 0x3feeab07dd485429u, 0x3feea76f15ad2148u,
  0x3feea47eb03a5585u, 0x3feea23882552225u, 0x3feea09e667f3bcdu,
  0x3fee9fb23c651a2fu, 0x3fee9f75e8ec5f74u, 0x3fee9feb564267c9u,
  0x3feea11473eb0187u, 0x3feea2f336cf4e62u, 0x3feea589994cce13u,
  0x3feea8d99b4492edu, 0x3feeace5422aa0dbu, 0x3feeb1ae99157736u,
  0x3feeb737b0cdc5e5u, 0x3feebd829fde4e50u, 0x3feec49182a3f090u,
  0x3feecc667b5de565u, 0x3feed503b23e255du, 0x3feede6b5579fdbfu,
  0x3feee89f995ad3adu, 0x3feef3a2b84f15fbu, 0x3feeff76f2fb5e47u,
  0x3fef0c1e904bc1d2u, 0x3fef199bdd85529cu, 0x3fef27f12e57d14bu,
  0x3fef3720dcef9069u, 0x3fef472d4a07897cu, 0x3fef5818dcfba487u,
  0x3fef69e603db3285u, 0x3fef7c97337b9b5fu, 0x3fef902ee78b3ff6u,
  0x3fefa4afa2a490dau, 0x3fefba1bee615a27u, 0x3fefd0765b6e4540u,
  0x3fefe7c1819e90d8u,
};

/* log1p: bucket i holds the z with bits (z) - OFF in [i 2^46, (i + 1)
   2^46); {R_i, T_i} = {1 / its centre, -log (R_i)}, each rounded to
   double; R_39 = 1 (the centre of bucket 39 is 1).  */
#define LOG1PF_OFF 0x3fe6200000000000u
/* The same bound as a float pattern: the top 6 bits of the significand
   are bits 17..22 there.  */
#define LOG1PF_OFF32 0x3f310000u
#define LN2 0x1.62e42fefa39efp-1
static const struct
{
  double r, t;
} log1p_tab[64] = {
  { 0x1.702e05c0b8170p+0, -0x1.741d876c67bb1p-2 },
  { 0x1.6c16c16c16c17p+0, -0x1.68ac83e9c6a15p-2 },
  { 0x1.6816816816817p+0, -0x1.5d5bddf595f31p-2 },
  { 0x1.642c8590b2164p+0, -0x1.522ae0738a3d7p-2 },
  { 0x1.6058160581606p+0, -0x1.4718dc271c41cp-2 },
  { 0x1.5c9882b931057p+0, -0x1.3c25277333183p-2 },
  { 0x1.58ed2308158edp+0, -0x1.314f1e1d35ce3p-2 },
  { 0x1.5555555555555p+0, -0x1.269621134db91p-2 },
  { 0x1.51d07eae2f815p+0, -0x1.1bf99635a6b95p-2 },
  { 0x1.4e5e0a72f0539p+0, -0x1.1178e8227e47ap-2 },
  { 0x1.4afd6a052bf5bp+0, -0x1.07138604d5864p-2 },
  { 0x1.47ae147ae147bp+0, -0x1.f991c6cb3b37ap-3 },
  { 0x1.446f86562d9fbp+0, -0x1.e530effe71013p-3 },
  { 0x1.4141414141414p+0, -0x1.d1037f2655e7bp-3 },
  { 0x1.3e22cbce4a902p+0, -0x1.bd087383bd8aap-3 },
  { 0x1.3b13b13b13b14p+0, -0x1.a93ed3c8ad9e5p-3 },
  { 0x1.3813813813814p+0, -0x1.95a5adcf70182p-3 },
  { 0x1.3521cfb2b78c1p+0, -0x1.823c16551a3c0p-3 },
  { 0x1.323e34a2b10bfp+0, -0x1.6f0128b756ab9p-3 },
  { 0x1.2f684bda12f68p+0, -0x1.5bf406b543db0p-3 },
  { 0x1.2c9fb4d812ca0p+0, -0x1.4913d8333b563p-3 },
  { 0x1.29e4129e4129ep+0, -0x1.365fcb0159014p-3 },
  { 0x1.27350b8812735p+0, -0x1.23d712a49c201p-3 },
  { 0x1.2492492492492p+0, -0x1.1178e8227e47ap-3 },
  { 0x1.21fb78121fb78p+0, -0x1.fe89139dbd565p-4 },
  { 0x1.1f7047dc11f70p+0, -0x1.da7276384469ep-4 },
  { 0x1.1cf06ada2811dp+0, -0x1.b6ac88dad5b1dp-4 },
  { 0x1.1a7b9611a7b96p+0, -0x1.9335e5d594988p-4 },
  { 0x1.1811811811812p+0, -0x1.700d30aeac0e8p-4 },
  { 0x1.15b1e5f75270dp+0, -0x1.4d3115d207eacp-4 },
  { 0x1.135c81135c811p+0, -0x1.2aa04a44717a1p-4 },
  { 0x1.1111111111111p+0, -0x1.08598b59e3a06p-4 },
  { 0x1.0ecf56be69c90p+0, -0x1.ccb73cdddb2d0p-5 },
  { 0x1.0c9714fbcda3bp+0, -0x1.894aa149fb34bp-5 },
  { 0x1.0a6810a6810a7p+0, -0x1.466aed42de3f9p-5 },
  { 0x1.0842108421084p+0, -0x1.0415d89e74440p-5 },
  { 0x1.0624dd2f1a9fcp+0, -0x1.8492528c8cac5p-6 },
  { 0x1.0410410410410p+0, -0x1.0205658935837p-6 },
  { 0x1.0204081020408p+0, -0x1.010157588de69p-7 },
  { 0x1.0000000000000p+0, 0x0.0p+0 },
  { 0x1.f81f81f81f820p-1, 0x1.fc0a8b0fc03c4p-7 },
  { 0x1.f07c1f07c1f08p-1, 0x1.f829b0e7832f8p-6 },
  { 0x1.e9131abf0b767p-1, 0x1.77458f632dcffp-5 },
  { 0x1.e1e1e1e1e1e1ep-1, 0x1.f0a30c01162a8p-5 },
  { 0x1.dae6076b981dbp-1, 0x1.341d7961bd1d0p-4 },
  { 0x1.d41d41d41d41dp-1, 0x1.6f0d28ae56b4ep-4 },
  { 0x1.cd85689039b0bp-1, 0x1.a926d3a4ad562p-4 },
  { 0x1.c71c71c71c71cp-1, 0x1.e27076e2af2eap-4 },
  { 0x1.c0e070381c0e0p-1, 0x1.0d77e7cd08e5bp-3 },
  { 0x1.bacf914c1bad0p-1, 0x1.29552f81ff521p-3 },
  { 0x1.b4e81b4e81b4fp-1, 0x1.44d2b6ccb7d1cp-3 },
  { 0x1.af286bca1af28p-1, 0x1.5ff3070a793d6p-3 },
  { 0x1.a98ef606a63bep-1, 0x1.7ab890210d907p-3 },
  { 0x1.a41a41a41a41ap-1, 0x1.9525a9cf456b6p-3 },
  { 0x1.9ec8e951033d9p-1, 0x1.af3c94e80bff3p-3 },
  { 0x1.999999999999ap-1, 0x1.c8ff7c79a9a20p-3 },
  { 0x1.948b0fcd6e9e0p-1, 0x1.e27076e2af2e8p-3 },
  { 0x1.8f9c18f9c18fap-1, 0x1.fb9186d5e3e29p-3 },
  { 0x1.8acb90f6bf3aap-1, 0x1.0a324e27390e2p-2 },
  { 0x1.8618618618618p-1, 0x1.1675cababa60fp-2 },
  { 0x1.8181818181818p-1, 0x1.22941fbcf7966p-2 },
  { 0x1.7d05f417d05f4p-1, 0x1.2e8e2bae11d31p-2 },
  { 0x1.78a4c8178a4c8p-1, 0x1.3a64c556945eap-2 },
  { 0x1.745d1745d1746p-1, 0x1.4618bc21c5ec2p-2 },
};

/* The bodies, written once for two variants: FMA nonzero, each MADD
   (a, b, c) is one fused multiply-add (the variant built with target
   ("fma")), else a * b + c rounded twice (any x86-64).  The error
   analysis above holds for both (it counts two roundings); the two may
   differ in the last bit where a result is not correctly rounded.  */
#define MADD(a, b, c) (fma ? __builtin_fma (a, b, c) : (a) * (b) + (c))

/* X/(ln2/64) = m + t: returns t, sets *S = 2^(m/64).  |x| < 88.8.
   FMA: m from one fused x 64/ln2 + SHIFT, and t = x 64/ln2 - m in one
   more, rounded once (without: z = x 64/ln2 rounded, then m and z - m,
   exact): one operation less on the path to t, and t no less accurate
   (the rounding of z, |x| 2^-53 in the exponent, is gone; 64/ln2's own
   rounding, as much again, remains).  On x86-64, S is built in the
   vector unit: m << 46 by psllq, plus the table entry by paddq, only
   j's 6 bits through a general register (for the load's address): one
   round trip and two instructions less than the integer sum.  */
#if defined __x86_64__
/* The register holding scalar F (D) as a vector, its upper lanes
   whatever they are: no instruction (_mm_set_ss and _mm_set_sd clear
   them, one more operation on the path to S, where only the low 18 bits
   of the low lane are used).  */
static inline __attribute__ ((always_inline)) __m128i
reg_of_float (float f)
{
  __m128 v;
  __asm__ ("" : "=x"(v) : "0"(f));
  return _mm_castps_si128 (v);
}
static inline __attribute__ ((always_inline)) __m128i
reg_of_double (double d)
{
  __m128d v;
  __asm__ ("" : "=x"(v) : "0"(d));
  return _mm_castpd_si128 (v);
}
#endif

static inline __attribute__ ((always_inline)) double
exp_scale (double kd)
{
#if defined __x86_64__
  __m128i zi = reg_of_double (kd);
  unsigned j = (unsigned) _mm_cvtsi128_si32 (zi) % 64;
  __m128i sb = _mm_add_epi64 (_mm_slli_epi64 (zi, 46),
			      _mm_loadl_epi64 ((const __m128i *) &exp_tab[j]));
  return _mm_cvtsd_f64 (_mm_castsi128_pd (sb));
#else
  uint64_t ki = asuint64 (kd);
  return asdouble (exp_tab[ki % 64] + (ki << 46));
#endif
}

static inline __attribute__ ((always_inline)) double
exp_reduce (float x, double *s, int fma)
{
  double xd = (double) x;
#if defined __x86_64__
  if (fma)
    {
      /* m from x in float, fmaf (x, 64/ln2, 0x1.8p23f): S's load
	 address comes from a float that needs no conversion first, and
	 S is ready before t (where it was the last input of the result).
	 64/ln2 rounded to float makes m the nearest integer to x 64/ln2
	 or, within 2^-12 of a half-integer, its neighbour: |t| <= 1/2 +
	 2^-12, where G's error (a minimax fit on [-1/2, 1/2]) has grown
	 by less than 1%.  psllq puts m's low 18 bits, all that S needs,
	 at bit 46 whatever the upper half of the register holds.  */
      float zf = __builtin_fmaf (x, INV_LN2_64F, SHIFTF);
      double kd = (double) (zf - SHIFTF);
      __m128i zi = reg_of_float (zf);
      unsigned j = (unsigned) _mm_cvtsi128_si32 (zi) % 64;
      __m128i sb
	= _mm_add_epi64 (_mm_slli_epi64 (zi, 46),
			 _mm_loadl_epi64 ((const __m128i *) &exp_tab[j]));
      *s = _mm_cvtsd_f64 (_mm_castsi128_pd (sb));
      return __builtin_fma (xd, INV_LN2_64, -kd);
    }
#endif
  if (fma)
    {
      double kd = __builtin_fma (xd, INV_LN2_64, SHIFT);
      *s = exp_scale (kd);
      kd -= SHIFT;
      return __builtin_fma (xd, INV_LN2_64, -kd);
    }
  double z = xd * INV_LN2_64;
  double kd = z + SHIFT;
  *s = exp_scale (kd);
  kd -= SHIFT;
  return z - kd;
}

/* exp (X) for |x| < 88.8 (and the subnormal results down to -104).  */
static inline __attribute__ ((always_inline)) float
expf_core (float x, int fma)
{
  double s, t = exp_reduce (x, &s, fma);
  double t2 = t * t;
  double g = MADD (t2, MADD (EXPF_G3, t, EXPF_G2), MADD (EXPF_G1, t, EXPF_G0));
  /* (S t) G + S: S t is formed while G is, so the last step is one
     FMA after G (S (1 + t G) took one more, on the path of a call's
     result: what a chain of calls, as mish's expf -> log1pf -> tanhf,
     waits for).  S t's rounding is 2^-53 of a term below 0.0055 S.  */
  return (float) MADD (s * t, g, s);

}

/* expf of |x| >= 88, Inf and NaN, with glibc's errno: a function of its
   own (each variant's, SPECIAL below), reached by a tail jump, so that
   the common path needs no stack frame.  */
static inline __attribute__ ((always_inline)) float
expf_special (float x, int fma)
{
  if (asuint (x) == asuint (-INFINITY))
    return 0.0f;
  if (TOP12 (x) >= 0x7f8) /* NaN, +Inf.  */
    return x + x;
  if (x > NF_EXPM1F_MAX)
    {
      errno = ERANGE;
      return INFINITY;
    }
  if (x < NF_EXPF_UFLOW_ERRNO)
    {
      errno = ERANGE;
      if (x < NF_EXPF_UFLOW0)
	return 0.0f;
    }
  return expf_core (x, fma);
}

static inline __attribute__ ((always_inline)) float
expf_body (float x, int fma, float (*special) (float))
{
  if (__builtin_expect (OUTSIDE_88 (x), 0))
    return special (x);
  return expf_core (x, fma);
}

static inline __attribute__ ((always_inline)) float
expm1f_body (float x, int fma)
{
  if (__builtin_expect (OUTSIDE_88 (x), 0))
    {
      if (x != x)
	return x + x;
      if (x < 0)
	return -1.0f; /* -Inf included.  */
      if (x > NF_EXPM1F_MAX)
	{
	  if (x < INFINITY)
	    errno = ERANGE;
	  return INFINITY;
	}
    }
  double s, t = exp_reduce (x, &s, fma);
  /* G = (G0 + G1 t) + t^2 (G2 + G3 t) + t^4 G4: two FMAs after t^2
     and t^4, not three after t^2.  */
  double t2 = t * t;
  double t4 = t2 * t2;
  double g = MADD (t4, EXPM1F_G4,
		   MADD (t2, MADD (EXPM1F_G3, t, EXPM1F_G2),
			 MADD (EXPM1F_G1, t, EXPM1F_G0)));
  /* (S t) G - (1 - S): for m = 0, 1 - S = +0 and S t = t, so x = -0
     gives -0 - +0 = -0.  */
  return (float) MADD (s * t, g, -(1.0 - s));
}

/* log1pf of the inputs outside [2^-29, +Inf) and (-1, -2^-29]: tiny x
   (log1p rounds to x, -0 included), NaN, +Inf, and x <= -1 with glibc's
   errno.  */
static __attribute__ ((noinline, cold)) float
log1pf_special (float x)
{
  if (x != x)
    return x + x;
  if (__builtin_fabsf (x) < 0x1p-29f || x == INFINITY)
    return x; /* -0 kept.  */
  if (x == -1.0f)
    {
      errno = ERANGE;
      return -INFINITY;
    }
  errno = EDOM;
  return (x - x) / (x - x);
}

static inline __attribute__ ((always_inline)) float
log1pf_body (float x, int fma)
{
  /* Out of the main path, on x's bits (no wait for 1 + x, no 64-bit
     constants): |x| < 2^-29 or not finite (the first compare, on the
     bits doubled, the sign shifted out, minus 2^-29's: tiny magnitudes
     wrap around; one lea), and x <= -1 (-Inf and negative NaNs
     included).  */
  uint32_t ix = asuint (x);
  if (__builtin_expect (ix * 2u - 0x31000000u * 2u
			    >= (0x7f800000u - 0x31000000u) * 2u
			  || ix >= 0xbf800000u,
			0))
    return log1pf_special (x);
  /* The bucket and k from 1 + x rounded to float (one float addition
     from x, then its 32-bit pattern: the table load's address is ready
     long before the double's bits would be), z = u 2^-k from the double
     u = 1 + x (exact).  Where the float sum rounds across a bucket
     boundary (or up to a power of two), R is the neighbour's and z R - 1
     lies beyond the bucket's range by at most 2^-24: r stays within the
     range g is fitted on.  */
  double u = 1.0 + (double) x;
  uint32_t tmp = asuint (1.0f + x) - LOG1PF_OFF32;
  /* The entry's byte offset, 16 i, in one shift and mask.  */
  const double *e = (const double *) ((const char *) log1p_tab
				      + ((tmp >> 13) & (63 << 4)));
  int32_t k = (int32_t) tmp >> 23;
#if defined __x86_64__
  /* z and k as a double in the vector unit, from k moved there once:
     psllq by 52 (only k's low 12 bits reach the exponent field, as
     needed), psubq from u's bits, cvtdq2pd (no general-register round
     trip of u, no dependency-breaking xor before a cvtsi2sd).  */
  __m128i kv = _mm_cvtsi32_si128 (k);
  double kd = _mm_cvtsd_f64 (_mm_cvtepi32_pd (kv));
  double z = _mm_cvtsd_f64 (_mm_castsi128_pd (
    _mm_sub_epi64 (reg_of_double (u), _mm_slli_epi64 (kv, 52))));
#else
  double kd = (double) k;
  double z = asdouble (asuint64 (u) - ((uint64_t) (int64_t) k << 52));
#endif
  double r = MADD (z, e[0], -1.0);
  double w = MADD (kd, LN2, e[1]);
  /* (w + r) + r^2 (G0 + G1 r) + r^4 (G2 + G3 r + G4 r^2): two FMAs
     after r^4 (Horner's form of g took three after r^2, then one
     more).  */
  double r2 = r * r;
  double r4 = r2 * r2;
  double lo = MADD (r2, MADD (LOG1PF_G1, r, LOG1PF_G0), w + r);
  double hi = MADD (LOG1PF_G4, r2, MADD (LOG1PF_G3, r, LOG1PF_G2));
  return (float) MADD (r4, hi, lo);
}

/* The variants: nf_F_sse2 (any x86-64 and any other target) and, on
   x86-64, nf_F_fma.  */
#if defined __x86_64__
#define NF_FMA_TARGET __attribute__ ((target ("fma"), aligned (64)))
#else
#define NF_FMA_TARGET
#endif
#define NF_SCALARF_VARIANTS(f)                                                 \
  NF_SCALARF_STATIC float nf_##f##_sse2 (float x)                              \
  {                                                                            \
    return f##_body (x, 0);                                                    \
  }                                                                            \
  NF_SCALARF_STATIC NF_FMA_TARGET float nf_##f##_fma (float x)                 \
  {                                                                            \
    return f##_body (x, 1);                                                    \
  }
static __attribute__ ((noinline, cold)) float
expf_special_sse2 (float x)
{
  return expf_special (x, 0);
}
static __attribute__ ((noinline, cold)) NF_FMA_TARGET float
expf_special_fma (float x)
{
  return expf_special (x, 1);
}
#ifndef NF_SCALARF_STATIC
#define NF_SCALARF_STATIC static
#endif
NF_SCALARF_STATIC float
nf_expf_sse2 (float x)
{
  return expf_body (x, 0, expf_special_sse2);
}
NF_SCALARF_STATIC NF_FMA_TARGET float
nf_expf_fma (float x)
{
  return expf_body (x, 1, expf_special_fma);
}
NF_SCALARF_VARIANTS (expm1f)
NF_SCALARF_VARIANTS (log1pf)
#undef NF_SCALARF_VARIANTS

/* The public functions.  On x86-64 (GNU/Linux: ifunc) each is resolved
   once, when the program's call is bound, to the FMA variant if the CPU
   and OS have FMA, else the SSE2 one: the call then jumps straight to
   it, as glibc's own expf does (a function table would add an indirect
   jump per call, measured 5-10% of a call).  NEURONFUSE_ISA does not
   apply here.  (NF_SCALARF_NO_PUBLIC: testsuite/exhaustive/sweep.c,
   which includes this file to test both variants.)  */
#ifndef NF_SCALARF_NO_PUBLIC
#if defined __x86_64__ && defined __gnu_linux__
#define NF_RESOLVER(f)                                                         \
  static __attribute__ ((no_sanitize ("address", "thread", "undefined"),      \
			  used)) float (                                       \
    *resolve_##f (void)) (float)                                               \
  {                                                                            \
    __builtin_cpu_init ();                                                     \
    return __builtin_cpu_supports ("fma") ? nf_##f##_fma : nf_##f##_sse2;      \
  }                                                                            \
  float nf_##f (float) __attribute__ ((ifunc ("resolve_" #f)));
#else
#define NF_RESOLVER(f)                                                         \
  float nf_##f (float x)                                                       \
  {                                                                            \
    return nf_##f##_sse2 (x);                                                  \
  }
#endif
NF_RESOLVER (expf)
NF_RESOLVER (expm1f)
NF_RESOLVER (log1pf)
#undef NF_RESOLVER

/* The names the plugin calls under -funsafe-math-optimizations
   (neuronfuse.h): the same functions, resolved the same way (they were
   functions of generic/fast.c calling nf_expm1f and nf_log1pf, two more
   jumps per call through the library's own PLT).  Their vector clones
   are simd-fast.c's.  */
#if defined __x86_64__ && defined __gnu_linux__
float nf_expm1f_fast (float) __attribute__ ((ifunc ("resolve_expm1f")));
float nf_log1pf_fast (float) __attribute__ ((ifunc ("resolve_log1pf")));
#else
float
nf_expm1f_fast (float x)
{
  return nf_expm1f_sse2 (x);
}
float
nf_log1pf_fast (float x)
{
  return nf_log1pf_sse2 (x);
}
#endif
#endif
