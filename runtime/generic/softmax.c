/* generic/softmax.c: nf_softmax_f32/f64_generic, y[i] = exp (x[i] - max)
   / sum_k exp (x[k] - max), the portable kernels (the variant dispatch.c
   picks where no vector one runs) and the design every instruction set
   follows (x86/softmax-avx512.c, x86/softmax-avx2.c).

   The loop it replaces (llama2.c's softmax, in place):
     float m = x[0];
     for (i = 1; i < n; i++) if (x[i] > m) m = x[i];
     float s = 0;
     for (i = 0; i < n; i++) { x[i] = expf (x[i] - m); s += x[i]; }
     for (i = 0; i < n; i++) x[i] /= s;
   and its variants (m seeded with -INFINITY or -FLT_MAX, fmaxf, y[i] =
   ... out of place).  Example: x = {1, 2, 3} gives y = {0.09003057,
   0.24472847, 0.66524096}.

   Steps (three passes over x; y == x works because the third pass reads
   x[i] before it writes y[i], and the first two write nothing):
   1. m = max x[i] by the loop's compare x[i] > m, quiet (seeded with
      x[0] here, with -Inf in the vector kernels: the same m, see
      below).  The generic f32 kernel first looks for a NaN (quietly:
      its vectorized selects would signal on one) and then writes NaN
      to every y[i], the result the steps below give.
   2. d = x[i] - m, exactly for f32 (in double: see below), as a
      double-double dh + dl for f64 (Knuth's TwoSum); e = exp (d) by our
      own exp (no libm call): d = (16 k + j) ln2/16 + r, |r| <= ln2/32,
      exp (d) = 2^k T_j (1 + r + r^2 q(r)), T_j = 2^(j/16) from a table
      of 16 (softmax-consts.h; f64: T_j as a double plus its relative
      rest), q of degree 4 (f32) or 6 (f64).  d is clamped below at -120
      (f32) or -800 (f64): there exp (d) / sum, sum >= 1, rounds to +0
      all the same.  The sum of the e in double (f32) or long double
      with compensation (f64; the vector kernels: double-double).
   3. y[i] = e_i / sum rounded once to the type: f32 e_i * (1 / sum) in
      double, then to float; f64 e_i * (1 / sum) in long double rounded
      to double (the vector kernels: q = e * inv corrected by its
      residual with FMAs).  The kernels keep the e_i of rows up to 2048
      (f32) or 1024 (f64) elements in a buffer on the stack (16 KiB)
      instead of computing them twice (AVX-512 f32 at n = 1024: 0.45
      against 0.75 ns per element); longer rows compute them again (the
      same bits as in step 2): keeping them needs 8n (f32) or 16n (f64)
      bytes, twice what y could hold.

   Error analysis, f32: x[i] - m is exact in double whenever it matters:
   both are floats, and if |d| <= 120 they differ by less than 2^7, so
   either they have the same sign and exponents close enough for the
   difference to fit 53 bits, or both are below 2^7 in magnitude with
   ulps above 2^-149: a span of at most 156 bits, where the rounding of
   d costs at most |d| 2^-53 <= 2^-46 relative in exp (d).  exp's error:
   r's (m times ln2/16's rounding, or its two parts without FMA: below
   2^-47 relative for |d| <= 120), q's times r^2 (2^-55.0), T_j's
   rounding (2^-53) and four roundings (2^-51), below 2^-45 relative in
   all.  The sum of n positive terms errs by at most (n - 1) 2^-53
   relative; 1 / sum and the product add 2^-52.  So the double quotient
   is within 2^-44.5 + n 2^-53 relative of the exact softmax, and y,
   rounded once from it, within 0.5 ulp + 2^-20 ulp + n 2^-29 ulp: at
   most 1 ulp for n <= 2^28 (subnormal results: 0.5 ulp of 2^-149 plus
   far less).  Storing exp as a float and dividing later, as the loop
   does, rounds twice (up to about 1.5 ulp; the loop's expf and its
   float sum add more: up to n 2^-24 relative).
   f64 (generic): d = dh + dl exactly (TwoSum; when dh overflows or is
   below -800, d is clamped and dl dropped); r, q's evaluation and 2^k
   T_j (1 + p) in long double (64 bits; the table's rest makes T_j good
   to 2^-106), exp within about 2^-61 relative; the sum with Neumaier's
   compensation; the long double quotient (e times 1 / sum) rounded to
   double: within 0.5 ulp + 2^-7 ulp.  The AVX-512 and AVX2 kernels:
   within 0.5 ulp + 2^-4 ulp (x86/softmax-avx512.c).

   NaN and infinities: the loop's results, in every seeding of m.
   * A NaN anywhere (n >= 1): every y[i] is NaN.  The loop's compare
     skips a NaN (or, as x[0], keeps m NaN), but that element's x[i] - m
     is NaN, so is its exp and the sum, and every quotient.
   * +Inf anywhere (no NaN): m = +Inf, the +Inf elements' Inf - Inf is
     NaN: every y[i] is NaN.
   * -Inf elements, not all: exp (-Inf - m) = +0, so y[i] = +0 there and
     the rest is the softmax of the finite elements (masked attention).
   * All -Inf: m = -Inf, -Inf - -Inf = NaN: every y[i] is NaN.  Seeded
     with -FLT_MAX the loop keeps m = -FLT_MAX, all exps are 0 and 0/0
     is NaN: the same.  -INFINITY seeds give m = -Inf as x[0] does.
   The seeds -INFINITY, -FLT_MAX and x[0] (and fmaxf) thus give the same
   y for every input: m differs only when every element is -Inf (m =
   -FLT_MAX instead of -Inf: all NaN either way), when some are NaN
   (all NaN either way), and in the sign of a zero m (x - (+0) and x -
   (-0) are equal but for x = -0, where exp gives 1 both times).  n ==
   0 reads and writes nothing (the x[0]-seeded loop would read x[0]).
   The NaN's payload and sign are not specified.  No result is +-Inf;
   +0 where exp (d) / sum rounds to 0.

   Exceptions: errno is never set (no libm call).  Computed with the FP
   exceptions masked, as every kernel here, and every compare quiet: the
   kernels raise INVALID only for an element +Inf (Inf - Inf) and when
   the max is -Inf (every element -Inf or NaN, some -Inf: -Inf - -Inf),
   where every form of the loop raises it too (the fmaxf form exactly
   there; the forms with `>` also for any NaN, their compare signals),
   but for the fmaxf form seeded with -FLT_MAX on a row of only NaN and
   -Inf elements (its m stays -FLT_MAX: it raises nothing).  A NaN
   alone raises nothing.  Never DIVBYZERO (the sum is at least 1,
   or NaN) nor OVERFLOW (the float loop's x - m may overflow).  Inexact
   and underflow may differ from the loop's (the clamp makes a tiny exp
   where the loop's is 0).  So with traps enabled the kernels take none
   the loop would not, but for those two.

   Limitations: round-to-nearest is assumed.  Do not build with
   -ffast-math or -fassociative-math (TwoSum and the compensated sums
   need the written order) nor with contraction (-ffp-contract=off, as
   the runtime is built).  Rows are read three times (twice from cache
   for rows that fit it).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"
#include "../softmax-consts.h"

#include <string.h>

/* Blocks of GB elements: each step of exp is a loop over a block, so
   that GCC vectorizes the arithmetic ones (SSE2: 2 doubles) and only
   the table lookup stays scalar; measured 2.4 times the speed of one
   scalar exp per element.  Rows up to BUF elements keep their exps for
   the third pass instead of computing them again.  */
#define GB 64
#define BUF 2048

/* For the loops of selects GCC should vectorize: without -ftrapping-math
   it if-converts the compares (the clamp, the max) into selects; the FP
   exceptions are masked and the results the same, but it may then also
   compute on both arms of a select, so these loops hold nothing else.  */
#define NF_VEC                                                                 \
  __attribute__ ((optimize ("no-trapping-math", "fp-contract=off")))

/* E[i] = exp (X[i] - M) for the GB floats at X, each clamped to [-120,
   0] (NaN stays NaN), within 2^-45 relative, without FMA: r = d - m
   ln2/16 in two parts (m * LN2_16_HI exact, d - m * LN2_16_HI exact:
   both multiples of 2^-58 or m = 0, the difference below ln2/32 +
   2^-40).  */
/* D[i] = X[i] - M clamped below at -120, NaN kept: a loop of its own,
   the only one built without -ftrapping-math (with the arithmetic in
   the same loop, GCC computed it on both arms of the select: Inf - Inf
   from x = -Inf, an INVALID the loop does not raise).  */
static NF_VEC void
clamp_block (double *restrict d, const float *restrict x, double m)
{
  for (int i = 0; i < GB; i++)
    {
      double v = (double) x[i] - m;
      d[i] = v < -120.0 ? -120.0 : v;
    }
}

static void
exp_block_f32 (double *restrict e, const float *restrict x, double m)
{
  double r[GB], s[GB], dd[GB];
  uint64_t zb[GB];
  clamp_block (dd, x, m);
  for (int i = 0; i < GB; i++)
    {
      double d = dd[i];
      double z = d * INV_LN2_16 + NF_SM_SHIFT;
      double md = z - NF_SM_SHIFT;
      r[i] = (d - md * LN2_16_HI) - md * LN2_16_LO;
      memcpy (&zb[i], &z, sizeof z);
    }
  for (int i = 0; i < GB; i++)
    {
      uint64_t b = (zb[i] << 48) + nf_sm_tab[zb[i] & 15];
      memcpy (&s[i], &b, sizeof b);
    }
  for (int i = 0; i < GB; i++)
    {
      double t = r[i];
      double q
	= Q16_C0 + t * (Q16_C1 + t * (Q16_C2 + t * (Q16_C3 + t * Q16_C4)));
      double p = t + (t * t) * q;
      e[i] = s[i] + s[i] * p;
    }
}

/* The exps of the block of X at I (the elements past N padded with
   x[0], whose d the loop computes too) into E; returns how many are in
   the row.  */
static size_t
exps_f32 (double *e, const float *x, size_t i, size_t n, float mf)
{
  size_t k = n - i < GB ? n - i : GB;
  if (k == GB)
    exp_block_f32 (e, x + i, mf);
  else
    {
      float t[GB];
      for (size_t j = 0; j < GB; j++)
	t[j] = j < k ? x[i + j] : x[0];
      exp_block_f32 (e, t, mf);
    }
  return k;
}

/* Whether X[0..N-1] holds a NaN: a quiet compare, vectorized.  */
static NF_VEC int
any_nan_f32 (const float *x, size_t n)
{
  int nan = 0;
  for (size_t i = 0; i < n; i++)
    nan |= x[i] != x[i];
  return nan;
}

/* The max of X[0..N-1], N >= 1, no NaN among them, in 8 lanes that
   GCC vectorizes (the compare is the loop's).  */
static NF_VEC float
max_f32_generic (const float *x, size_t n)
{
  float m[8];
  for (int j = 0; j < 8; j++)
    m[j] = x[0];
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; j++)
      m[j] = x[i + j] > m[j] ? x[i + j] : m[j];
  for (; i < n; i++)
    m[0] = x[i] > m[0] ? x[i] : m[0];
  for (int j = 1; j < 8; j++)
    m[0] = m[j] > m[0] ? m[j] : m[0];
  return m[0];
}

/* S[0..1] += the K exps at E, in two lanes.  */
static void
sum_block (double *s, const double *e, size_t k)
{
  if (k == GB)
    for (int j = 0; j < GB; j += 2)
      s[0] += e[j], s[1] += e[j + 1];
  else
    for (size_t j = 0; j < k; j++)
      s[0] += e[j];
}

/* Y[j] = E[j] * INV rounded to float for the K elements.  */
static void
scale_block (float *y, const double *e, size_t k, double inv)
{
  if (k == GB)
    for (int j = 0; j < GB; j++)
      y[j] = (float) (e[j] * inv);
  else
    for (size_t j = 0; j < k; j++)
      y[j] = (float) (e[j] * inv);
}

void
nf_softmax_f32_generic (float *y, const float *x, size_t n)
{
  if (n == 0)
    return;
  /* A NaN makes every result NaN (see above); GCC's selects below (MAXPS
     in the vector loops) would raise INVALID on it, which the fmaxf
     form of the loop does not, so it is found first, quietly.  */
  if (any_nan_f32 (x, n))
    {
      for (size_t i = 0; i < n; i++)
	y[i] = __builtin_nanf ("");
      return;
    }
  float mf = max_f32_generic (x, n);
  double buf[BUF + GB], eb[GB], s[2] = { 0, 0 };
  int keep = n <= BUF;
  for (size_t i = 0; i < n; i += GB)
    {
      double *e = keep ? buf + i : eb;
      sum_block (s, e, exps_f32 (e, x, i, n, mf));
    }
  double inv = 1.0 / (s[0] + s[1]);
  for (size_t i = 0; i < n; i += GB)
    {
      double *e = keep ? buf + i : eb;
      size_t k = keep ? (n - i < GB ? n - i : GB) : exps_f32 (e, x, i, n, mf);
      scale_block (y + i, e, k, inv);
    }
}

/* 2^-512 and 2^512: the f64 scale is built from double bits with 512
   added to the exponent, so that 2^k stays normal down to k = -1154
   (d = -800), and taken out again in long double, exactly.  */
#define TWO_M512 0x1p-512L

/* Rows up to this many doubles keep their exps (long doubles, 16 KiB on
   x86-64) for the third pass.  */
#define BUF64 1024

/* exp (DH + DL) in long double, within about 2^-61 relative, for DH in
   [-800, 0] (or NaN) and |DL| <= ulp (DH) / 2.  */
static inline long double
exp_f64_generic (double dh, double dl)
{
  double z = dh * INV_LN2_16 + NF_SM_SHIFT;
  long double md = (long double) (z - NF_SM_SHIFT);
  uint64_t zi, sb;
  memcpy (&zi, &z, sizeof zi);
  sb = (zi << 48) + nf_sm_tab[zi & 15] + ((uint64_t) 512 << 52);
  double sd;
  memcpy (&sd, &sb, sizeof sd);
  long double s = (long double) sd * TWO_M512;
  s += s * nf_sm_tab_lo[zi & 15];
  long double r = ((long double) dh - md * LN2_16_HI) - md * LN2_16_LO;
  r += dl;
  long double q
    = Q16D_C0
      + r
	  * (Q16D_C1
	     + r
		 * (Q16D_C2
		    + r
			* (Q16D_C3
			   + r * (Q16D_C4 + r * (Q16D_C5 + r * Q16D_C6)))));
  long double p = r + (r * r) * q;
  return s + s * p;
}

/* X - M as DH + DL exactly (Knuth's TwoSum), clamped: below -800, or
   -Inf (x = -Inf, or an overflow of x - m), DH = -800 and DL = 0; NaN
   stays NaN.  The TwoSum then runs on m - m instead: on -Inf it would
   compute Inf - Inf, an INVALID the loop does not raise.  */
static inline void
d_f64 (double x, double m, double *dh, double *dl)
{
  int low = __builtin_isless (x - m, -800.0); /* Quiet, as below.  */
  double xs = low ? m : x;
  double s = xs - m;
  double bv = s - xs;
  double e = (xs - (s - bv)) + (-m - bv);
  *dh = low ? -800.0 : s;
  *dl = low ? 0.0 : e;
}

void
nf_softmax_f64_generic (double *y, const double *x, size_t n)
{
  if (n == 0)
    return;
  double m = x[0];
  for (size_t i = 1; i < n; i++)
    if (__builtin_isgreater (x[i], m))
      m = x[i];
  /* Neumaier's sum: the terms are positive, so the larger of the sum
     and the term is known without a branch on signs.  Rows up to BUF64
     keep their exps.  */
  long double s = 0, c = 0, buf[BUF64];
  int keep = n <= BUF64;
  for (size_t i = 0; i < n; i++)
    {
      double dh, dl;
      d_f64 (x[i], m, &dh, &dl);
      long double e = exp_f64_generic (dh, dl);
      if (keep)
	buf[i] = e;
      long double t = s + e;
      c += __builtin_isgreaterequal (s, e) ? (s - t) + e : (e - t) + s;
      s = t;
    }
  /* e * (1 / s) in long double, not e / s: x87 FDIV is several times
     slower, and the product is still within 2^-60 relative of the
     quotient before it is rounded to double.  */
  long double inv = 1.0L / (s + c);
  for (size_t i = 0; i < n; i++)
    {
      long double e;
      if (keep)
	e = buf[i];
      else
	{
	  double dh, dl;
	  d_f64 (x[i], m, &dh, &dl);
	  e = exp_f64_generic (dh, dl);
	}
      y[i] = (double) (e * inv);
    }
}
