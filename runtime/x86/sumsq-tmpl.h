/* sumsq-tmpl.h: the sums of squares of one instruction set, included by
   sumsq-<isa>.c after vec-<isa>.h (which names the ISA and the vd type).

   f32 and f16: the squares are exact in double, eight vector
   accumulators hide the add latency (one accumulator runs at a quarter
   of the speed: notes/runtime-facts.md 5.2), and the sum's relative error
   is at most (n / (8 VD_N) + 10) 2^-53 (and never above the (n - 1)
   2^-53 of the plain double loop: the zero padding adds exactly).  No
   overflow or underflow is possible.  nf_nrm2_f16 is the root of the f16
   sum in double, rounded once to float.

   f32, accurate (nf_nrm2d_f32): the exact squares summed with TwoSum
   in four vector accumulators, combined in long double: relative error
   about 2^-63 whatever n.

   f64, accurate (nf_sumsq_f64, RMSNorm f64): each square split exactly
   into a rounded product and its error (an fma), the products summed in
   four vector accumulators with Knuth's TwoSum, every error added into a
   companion; the 8 VD_N pairs are combined in long double with
   Neumaier's compensation.  Relative error about 2^-63, like the
   generic long double kernel, at about fifteen times its speed (and a
   third of the plain double loop's).

   f64, fast (nf_nrm2_f64): chunks of four vectors summed as
   (x1^2 + x0 x0) + (x3^2 + x2 x2), one product and one fma a pair, each
   chunk added into two accumulators with TwoSum: every square is rounded
   at most three times before it meets an exact sum, so the relative error
   is at most 3 2^-53 + O(2^-106) whatever n, where the plain loop's is
   (n - 1) 2^-53; about nine times the plain loop's speed
   (bench/RESULTS.md).

   Both f64 sums hand anything below NF_SUMSQ_F64_MIN (squares may have
   underflowed), overflowed or NaN (TwoSum turns Inf into NaN) to the
   generic long double kernel, whose range holds every square: the rare
   inputs near the limits of double cost a second pass, never a wrong
   answer.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>
#include <string.h>

/* Return the lanes of V summed in double.  */
static inline double
hsum (vd v)
{
  double l[VD_N], s = 0;
  vd_lanes (l, v);
  for (int k = 0; k < VD_N; k++)
    s += l[k];
  return s;
}

/* Return the lanes of the S and C vectors (NV of each) summed in long
   double with Neumaier's compensation.  */
static long double
combine (const vd *s, const vd *c, int nv)
{
  double l[4 * VD_N];
  long double sum = 0, comp = 0;
  for (int j = 0; j < nv; j++)
    {
      vd_lanes (l, s[j]);
      vd_lanes (l + VD_N, c[j]);
      for (int k = 0; k < 2 * VD_N; k++)
	{
	  long double v = l[k], t = sum + v;
	  comp += fabsl (sum) >= fabsl (v) ? (sum - t) + v : (v - t) + sum;
	  sum = t;
	}
    }
  return sum + comp;
}

/* The f32 / f16 sum: LOAD reads VD_N elements of X as doubles.  The
   elements before the first cache-line-aligned one and the tail go
   through a zero-padded buffer.  */
#define NF_SUMSQ_NARROW(T, load)                                              \
  vd a0 = vd_zero (), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,   \
     a7 = a0;                                                                 \
  size_t i = nf_align_head (x, 64, sizeof *x, n);                             \
  NF_SUM_PART (T, load, a2, 0, i);                                            \
  for (; i + 8 * VD_N <= n; i += 8 * VD_N)                                    \
    {                                                                         \
      vd v0 = load (x + i), v1 = load (x + i + VD_N);                         \
      vd v2 = load (x + i + 2 * VD_N), v3 = load (x + i + 3 * VD_N);          \
      vd v4 = load (x + i + 4 * VD_N), v5 = load (x + i + 5 * VD_N);          \
      vd v6 = load (x + i + 6 * VD_N), v7 = load (x + i + 7 * VD_N);          \
      a0 = vd_fma (v0, v0, a0), a1 = vd_fma (v1, v1, a1);                     \
      a2 = vd_fma (v2, v2, a2), a3 = vd_fma (v3, v3, a3);                     \
      a4 = vd_fma (v4, v4, a4), a5 = vd_fma (v5, v5, a5);                     \
      a6 = vd_fma (v6, v6, a6), a7 = vd_fma (v7, v7, a7);                     \
    }                                                                         \
  for (; i + VD_N <= n; i += VD_N)                                            \
    {                                                                         \
      vd v = load (x + i);                                                    \
      a0 = vd_fma (v, v, a0);                                                 \
    }                                                                         \
  NF_SUM_PART (T, load, a1, i, n - i);                                        \
  return hsum (vd_add (vd_add (vd_add (a0, a1), vd_add (a2, a3)),            \
		       vd_add (vd_add (a4, a5), vd_add (a6, a7))))

/* ACC += the squares of X[AT..AT+K-1], K < 8 VD_N, through a buffer.  */
#define NF_SUM_PART(T, load, acc, at, k)                                      \
  for (size_t o_ = 0; o_ < (k); o_ += VD_N)                                   \
    {                                                                         \
      T buf_[VD_N] = { 0 };                                                   \
      size_t m_ = (k) - o_ < VD_N ? (k) - o_ : VD_N;                          \
      memcpy (buf_, x + (at) + o_, m_ * sizeof *x);                           \
      vd v_ = load (buf_);                                                    \
      acc = vd_fma (v_, v_, acc);                                             \
    }

/* Return the sum of the squares of X[0..N-1] in double.  */
double
NF_SFX (nf_sumsq_f32) (const float *x, size_t n)
{
  NF_SUMSQ_NARROW (float, vd_load_f32);
}

#ifdef __FLT16_MAX__
/* Return the sum of the squares of the _Float16s X[0..N-1] in double
   (for RMSNorm f16 and nf_nrm2_f16; not in the table).  */
double
NF_SFX (nf_sumsq_f16) (const _Float16 *x, size_t n)
{
  NF_SUMSQ_NARROW (_Float16, vd_load_f16);
}

/* Return the Euclidean norm of the _Float16s X[0..N-1]: the root of
   that sum in double, rounded once to float.  The conversions keep NaN
   and Inf (F16C's vcvtph2ps, then vcvtps2pd), the squares and sums of
   non-negative values propagate them (NaN + Inf is NaN), and the zero
   padding of the head and tail adds nothing: any NaN gives NaN, else any
   Inf gives Inf, as the generic kernel.  */
float
NF_SFX (nf_nrm2_f16) (const _Float16 *x, size_t n)
{
  return (float) sqrt (NF_SFX (nf_sumsq_f16) (x, n));
}
#endif

/* S, C += P with Knuth's TwoSum: S + C gains P exactly, the rounding
   error of S + P going into C.  */
#define NF_TWOSUM(s, c, p)                                                     \
  do                                                                           \
    {                                                                          \
      vd p_ = (p), t_ = vd_add (s, p_), b_ = vd_sub (t_, s);                   \
      c = vd_add (c, vd_add (vd_sub (s, vd_sub (t_, b_)), vd_sub (p_, b_)));   \
      s = t_;                                                                  \
    }                                                                          \
  while (0)

/* S, C += V^2 exactly: the rounded square into S with TwoSum, its
   rounding error (an fma) and TwoSum's into C.  */
#define NF_SQ_STEP(s, c, v)                                                    \
  do                                                                           \
    {                                                                          \
      vd v_ = (v), p_ = vd_mul (v_, v_), t_ = vd_add (s, p_);                  \
      vd b_ = vd_sub (t_, s);                                                  \
      vd e_ = vd_add (vd_sub (s, vd_sub (t_, b_)), vd_sub (p_, b_));           \
      c = vd_add (c, vd_add (e_, vd_fms (v_, v_, p_)));                        \
      s = t_;                                                                  \
    }                                                                          \
  while (0)

/* Return the sum of the squares of the floats X[0..N-1] in long double:
   the squares, exact in double, summed in four vector accumulators with
   TwoSum (each error into a companion), the lanes combined in long
   double.  Relative error about 2^-63 whatever n; an Inf or NaN (which
   TwoSum turns into NaN) goes to the generic kernel, which gives the
   plain loop's.  */
long double
NF_SFX (nf_sumsq_acc_f32) (const float *x, size_t n)
{
  vd s0 = vd_zero (), s1 = s0, s2 = s0, s3 = s0;
  vd c0 = s0, c1 = s0, c2 = s0, c3 = s0;
  size_t i = 0;
  for (; i + 4 * VD_N <= n; i += 4 * VD_N)
    {
      vd v0 = vd_load_f32 (x + i), v1 = vd_load_f32 (x + i + VD_N);
      vd v2 = vd_load_f32 (x + i + 2 * VD_N);
      vd v3 = vd_load_f32 (x + i + 3 * VD_N);
      NF_TWOSUM (s0, c0, vd_mul (v0, v0));
      NF_TWOSUM (s1, c1, vd_mul (v1, v1));
      NF_TWOSUM (s2, c2, vd_mul (v2, v2));
      NF_TWOSUM (s3, c3, vd_mul (v3, v3));
    }
  for (; i + VD_N <= n; i += VD_N)
    {
      vd v = vd_load_f32 (x + i);
      NF_TWOSUM (s0, c0, vd_mul (v, v));
    }
  if (i < n)
    {
      float buf[VD_N] = { 0 };
      memcpy (buf, x + i, (n - i) * sizeof *x);
      vd v = vd_load_f32 (buf);
      NF_TWOSUM (s1, c1, vd_mul (v, v));
    }
  vd s[4] = { s0, s1, s2, s3 }, c[4] = { c0, c1, c2, c3 };
  long double r = combine (s, c, 4);
  if (!isfinite (r))
    return nf_sumsq_acc_f32_generic (x, n);
  return r;
}

/* The sum of four vectors of squares at P, each square rounded at most
   three times: (x1^2 + x0 x0) + (x3^2 + x2 x2) with fmas.  */
static inline vd
sq4 (const double *p)
{
  vd v0 = vd_load_f64 (p), v1 = vd_load_f64 (p + VD_N);
  vd v2 = vd_load_f64 (p + 2 * VD_N), v3 = vd_load_f64 (p + 3 * VD_N);
  return vd_add (vd_fma (v1, v1, vd_mul (v0, v0)),
		 vd_fma (v3, v3, vd_mul (v2, v2)));
}

/* Return the sum of the squares of X[0..N-1] in long double, squares
   and sums error-free in double-double.  */
long double
NF_SFX (nf_sumsq_f64) (const double *x, size_t n)
{
  vd s0 = vd_zero (), s1 = s0, s2 = s0, s3 = s0;
  vd c0 = s0, c1 = s0, c2 = s0, c3 = s0;
  size_t i = 0;
  for (; i + 4 * VD_N <= n; i += 4 * VD_N)
    {
      NF_SQ_STEP (s0, c0, vd_load_f64 (x + i));
      NF_SQ_STEP (s1, c1, vd_load_f64 (x + i + VD_N));
      NF_SQ_STEP (s2, c2, vd_load_f64 (x + i + 2 * VD_N));
      NF_SQ_STEP (s3, c3, vd_load_f64 (x + i + 3 * VD_N));
    }
  for (; i + VD_N <= n; i += VD_N)
    NF_SQ_STEP (s0, c0, vd_load_f64 (x + i));
  if (i < n)
    {
      double buf[VD_N] = { 0 };
      memcpy (buf, x + i, (n - i) * sizeof *x);
      NF_SQ_STEP (s1, c1, vd_load_f64 (buf));
    }
  vd s[4] = { s0, s1, s2, s3 }, c[4] = { c0, c1, c2, c3 };
  long double r = combine (s, c, 4);
  if (!isfinite (r) || r < NF_SUMSQ_F64_MIN)
    return nf_sumsq_f64_generic (x, n);
  return r;
}

/* Return the sum of the squares of X[0..N-1] in long double, with
   relative error at most 3 2^-53 (see the top of the file).  */
long double
NF_SFX (nf_sumsq_fast_f64) (const double *x, size_t n)
{
  vd s0 = vd_zero (), s1 = s0, c0 = s0, c1 = s0;
  size_t i = 0;
  for (; i + 8 * VD_N <= n; i += 8 * VD_N)
    {
      NF_TWOSUM (s0, c0, sq4 (x + i));
      NF_TWOSUM (s1, c1, sq4 (x + i + 4 * VD_N));
    }
  for (; i + VD_N <= n; i += VD_N)
    {
      vd v = vd_load_f64 (x + i);
      NF_TWOSUM (s0, c0, vd_mul (v, v));
    }
  if (i < n)
    {
      double buf[VD_N] = { 0 };
      memcpy (buf, x + i, (n - i) * sizeof *x);
      vd v = vd_load_f64 (buf);
      NF_TWOSUM (s1, c1, vd_mul (v, v));
    }
  vd s[2] = { s0, s1 }, c[2] = { c0, c1 };
  long double r = combine (s, c, 2);
  if (!isfinite (r) || r < NF_SUMSQ_F64_MIN)
    return nf_sumsq_f64_generic (x, n);
  return r;
}
