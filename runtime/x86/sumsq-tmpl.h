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

   Sums of squared differences (issue 19, nf_dist_* and nf_rms_*; B
   NULL is the sums of squares above): f32 the same double sum of
   (x - b)^2, the difference in double (exact unless the exponents are
   more than 29 apart), the square rounded once by the fma; f32 accurate
   that difference squared exactly into the double-double sum of the f64
   kernel; f64 the difference exact as a double-double (TwoSum), dh^2
   exact, 2 dh dl rounded, into the same sum.  One loop (NF_SUMSQ_CC)
   serves every compensated sum, its step naming the term.

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

/* The f32 / f16 sum: LOAD reads VD_N elements of X as doubles; BP is
   NULL (the squares of X) or, for the sums of squared differences, B:
   then each term is (x[i] - b[i])^2, the difference in double (exact but
   where the exponents are more than 29 apart), the square rounded once
   by the fma.  BP is a variable the compiler knows to be NULL or not, so
   the tests of it fold.  The elements before the first
   cache-line-aligned one of X and the tail go through zero-padded
   buffers.  */
#define NF_SUMSQ_NARROW(T, load, bp)                                          \
  NF_SUMSQ_NARROW_X (T, load, bp, NF_PRE_NONE, NF_LD8)

/* NF_SUMSQ_NARROW with two hooks for add_rmsnorm's fused pass: PRE (AT,
   K) runs before elements [AT, AT + K) are read one vector at a time or
   through a buffer (the head and what follows the main loop), LD8 (LOAD,
   BP, I) defines v0 to v7, the 8 VD_N elements from I on of the main
   loop.  The accumulators and their order are NF_SUMSQ_NARROW's
   whatever the hooks, so a sum over the same values has the same
   bits.  */
#define NF_SUMSQ_NARROW_X(T, load, bp, pre, ld8)                              \
  vd a0 = vd_zero (), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,   \
     a7 = a0;                                                                 \
  size_t i = nf_align_head (x, 64, sizeof *x, n);                             \
  pre (0, i);                                                                 \
  NF_SUM_PART (T, load, bp, a2, 0, i);                                        \
  for (; i + 8 * VD_N <= n; i += 8 * VD_N)                                    \
    {                                                                         \
      ld8 (load, bp, i);                                                      \
      a0 = vd_fma (v0, v0, a0), a1 = vd_fma (v1, v1, a1);                     \
      a2 = vd_fma (v2, v2, a2), a3 = vd_fma (v3, v3, a3);                     \
      a4 = vd_fma (v4, v4, a4), a5 = vd_fma (v5, v5, a5);                     \
      a6 = vd_fma (v6, v6, a6), a7 = vd_fma (v7, v7, a7);                     \
    }                                                                         \
  pre (i, n - i);                                                             \
  for (; i + VD_N <= n; i += VD_N)                                            \
    {                                                                         \
      vd v = NF_LDD (load, bp, i);                                            \
      a0 = vd_fma (v, v, a0);                                                 \
    }                                                                         \
  NF_SUM_PART (T, load, bp, a1, i, n - i);                                    \
  return hsum (vd_add (vd_add (vd_add (a0, a1), vd_add (a2, a3)),            \
		       vd_add (vd_add (a4, a5), vd_add (a6, a7))))

/* The hooks of the plain sums: nothing before, 8 loads (less BP's).  */
#define NF_PRE_NONE(at, k) ((void) 0)
#define NF_LD8(load, bp, i)                                                   \
  vd v0 = NF_LDD (load, bp, i), v1 = NF_LDD (load, bp, (i) + VD_N);           \
  vd v2 = NF_LDD (load, bp, (i) + 2 * VD_N);                                  \
  vd v3 = NF_LDD (load, bp, (i) + 3 * VD_N);                                  \
  vd v4 = NF_LDD (load, bp, (i) + 4 * VD_N);                                  \
  vd v5 = NF_LDD (load, bp, (i) + 5 * VD_N);                                  \
  vd v6 = NF_LDD (load, bp, (i) + 6 * VD_N);                                  \
  vd v7 = NF_LDD (load, bp, (i) + 7 * VD_N)

/* X[AT..AT+VD_N-1] as doubles, minus BP[AT..] unless BP is NULL.  */
#define NF_LDD(load, bp, at)                                                  \
  ((bp) ? vd_sub (load (x + (at)), load ((bp) + (at))) : load (x + (at)))

/* ACC += the squares of X[AT..AT+K-1] (less BP's), K < 8 VD_N, through
   buffers.  */
#define NF_SUM_PART(T, load, bp, acc, at, k)                                  \
  for (size_t o_ = 0; o_ < (k); o_ += VD_N)                                   \
    {                                                                         \
      T buf_[VD_N] = { 0 }, bbuf_[VD_N] = { 0 };                              \
      size_t m_ = (k) - o_ < VD_N ? (k) - o_ : VD_N;                          \
      memcpy (buf_, x + (at) + o_, m_ * sizeof *x);                           \
      if (bp)                                                                 \
	memcpy (bbuf_, (bp) + (at) + o_, m_ * sizeof *x);                     \
      vd v_ = (bp) ? vd_sub (load (buf_), load (bbuf_)) : load (buf_);        \
      acc = vd_fma (v_, v_, acc);                                             \
    }

/* Return the sum of the squares of X[0..N-1] in double.  */
double
NF_SFX (nf_sumsq_f32) (const float *x, size_t n)
{
  const float *b = NULL;
  NF_SUMSQ_NARROW (float, vd_load_f32, b);
}

/* Return the sum of the squared differences (X[i] - B[i])^2 in double;
   B NULL: the squares of X.  */
double
NF_SFX (nf_sumsqd_f32) (const float *x, const float *b, size_t n)
{
  if (!b)
    return NF_SFX (nf_sumsq_f32) (x, n);
  NF_SUMSQ_NARROW (float, vd_load_f32, b);
}

/* add_rmsnorm's pass (issue: residual add): X[i] = X[i] + R[i], each
   sum rounded once to float (the loop's store), and the sum of the
   squares of the new X.  The main loop adds four float vectors, stores
   them and squares them widened, without reading them back; the head and
   the rest are added first (NF_PRE_ADD), then summed from X as
   nf_sumsq_f32 sums them.  The result is nf_sumsq_f32's for the new X,
   bit for bit.  */
_Static_assert (8 * VD_N == 4 * VF_N, "NF_LD8_ADD: 4 float vectors");

/* X[0..K-1] += R[0..K-1] in float, VF_N at a time, then one by one.  */
static inline void
add_f32 (float *x, const float *r, size_t k)
{
  size_t j = 0;
  for (; j + VF_N <= k; j += VF_N)
    vf_store_f32 (x + j, vf_add (vf_load_f32 (x + j), vf_load_f32 (r + j)));
  for (; j < k; j++)
    x[j] = x[j] + r[j];
}

#define NF_PRE_ADD(at, k) add_f32 (x + (at), res + (at), (k))
#define NF_LD8_ADD(load, bp, i)                                               \
  vf f0_ = vf_add (vf_load_f32 (x + (i)), vf_load_f32 (res + (i)));             \
  vf f1_ = vf_add (vf_load_f32 (x + (i) + VF_N),                              \
		   vf_load_f32 (res + (i) + VF_N));                             \
  vf f2_ = vf_add (vf_load_f32 (x + (i) + 2 * VF_N),                          \
		   vf_load_f32 (res + (i) + 2 * VF_N));                         \
  vf f3_ = vf_add (vf_load_f32 (x + (i) + 3 * VF_N),                          \
		   vf_load_f32 (res + (i) + 3 * VF_N));                         \
  vf_store_f32 (x + (i), f0_);                                                \
  vf_store_f32 (x + (i) + VF_N, f1_);                                         \
  vf_store_f32 (x + (i) + 2 * VF_N, f2_);                                     \
  vf_store_f32 (x + (i) + 3 * VF_N, f3_);                                     \
  vd v0 = vf_lo_pd (f0_), v1 = vf_hi_pd (f0_), v2 = vf_lo_pd (f1_);           \
  vd v3 = vf_hi_pd (f1_), v4 = vf_lo_pd (f2_), v5 = vf_hi_pd (f2_);           \
  vd v6 = vf_lo_pd (f3_), v7 = vf_hi_pd (f3_)

double
NF_SFX (nf_add_sumsq_f32) (float *x, const float *res, size_t n)
{
  const float *b = NULL;
  NF_SUMSQ_NARROW_X (float, vd_load_f32, b, NF_PRE_ADD, NF_LD8_ADD);
}

#ifdef __FLT16_MAX__
/* Return the sum of the squares of the _Float16s X[0..N-1] in double
   (for RMSNorm f16 and nf_nrm2_f16; not in the table).  */
double
NF_SFX (nf_sumsq_f16) (const _Float16 *x, size_t n)
{
  const _Float16 *b = NULL;
  NF_SUMSQ_NARROW (_Float16, vd_load_f16, b);
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

/* The loop of the compensated sums: STEP (S, C, VX, VB) adds the term
   of the vectors VX of X and VB of BP (zeros where BP is NULL, which the
   compiler knows) exactly into S + C; four pairs of accumulators (the
   full vectors of a step of four into pairs 0 to 3, the other full
   vectors into pair 0, the zero-padded tail into pair 1), their lanes
   combined in long double.  Sets long double R.  */
#define NF_SUMSQ_CC(T, load, bp, step)                                         \
  NF_SUMSQ_CC_X (T, load, bp, step, NF_LDX, NF_PRE_NONE)

/* NF_SUMSQ_CC with the hooks of add_rmsnorm's fused pass: LDX (LOAD, AT)
   is the vector of X's elements at AT, evaluated once per step, PRE (AT,
   K) runs before the zero-padded tail [AT, AT + K) is copied.  The same
   accumulators in the same order whatever the hooks.  */
#define NF_SUMSQ_CC_X(T, load, bp, step, ldx, pre)                             \
  vd s0 = vd_zero (), s1 = s0, s2 = s0, s3 = s0;                               \
  vd c0 = s0, c1 = s0, c2 = s0, c3 = s0;                                       \
  size_t i = 0;                                                                \
  for (; i + 4 * VD_N <= n; i += 4 * VD_N)                                     \
    {                                                                          \
      step (s0, c0, ldx (load, i), NF_LDB (load, bp, i));                      \
      step (s1, c1, ldx (load, i + VD_N), NF_LDB (load, bp, i + VD_N));        \
      step (s2, c2, ldx (load, i + 2 * VD_N), NF_LDB (load, bp, i + 2 * VD_N));\
      step (s3, c3, ldx (load, i + 3 * VD_N), NF_LDB (load, bp, i + 3 * VD_N));\
    }                                                                          \
  for (; i + VD_N <= n; i += VD_N)                                             \
    step (s0, c0, ldx (load, i), NF_LDB (load, bp, i));                        \
  pre (i, n - i);                                                              \
  if (i < n)                                                                   \
    {                                                                          \
      T bx_[VD_N] = { 0 }, bb_[VD_N] = { 0 };                                  \
      memcpy (bx_, x + i, (n - i) * sizeof *x);                                \
      if (bp)                                                                  \
	memcpy (bb_, (bp) + i, (n - i) * sizeof *x);                           \
      step (s1, c1, load (bx_), (bp) ? load (bb_) : vd_zero ());               \
    }                                                                          \
  vd s_[4] = { s0, s1, s2, s3 }, c_[4] = { c0, c1, c2, c3 };                   \
  long double r = combine (s_, c_, 4)

/* X's vector at AT, for the plain sums.  */
#define NF_LDX(load, at) load (x + (at))

/* BP[AT..AT+VD_N-1] as doubles, zeros if BP is NULL.  */
#define NF_LDB(load, bp, at) ((bp) ? load ((bp) + (at)) : vd_zero ())

/* The steps.  Squares of floats, exact in double: TwoSum.  */
#define NF_STEP_SQ_F32(s, c, vx, vb) NF_TWOSUM (s, c, vd_mul (vx, vx))
/* Squares of doubles, the rounded square and its error: NF_SQ_STEP.  */
#define NF_STEP_SQ_F64(s, c, vx, vb) NF_SQ_STEP (s, c, vx)
/* Differences of floats, in double (exact but where the exponents are
   more than 29 apart, relative 2^-53 there), squared exactly.  */
#define NF_STEP_SQD_F32(s, c, vx, vb) NF_SQ_STEP (s, c, vd_sub (vx, vb))

/* Differences of doubles: S, C += (VX - VB)^2, the difference exact as
   dh + dl (TwoSum), dh^2 exact as a rounded product and its error (an
   fma), 2 dh dl rounded (dl^2 dropped: both below 2^-52 dh^2 and
   2^-105 dh^2 relative), the errors into C.  */
#define NF_STEP_SQD_F64(s, c, vx, vb)                                          \
  do                                                                           \
    {                                                                          \
      vd x_ = (vx), b_ = (vb), dh_ = vd_sub (x_, b_), z_ = vd_sub (dh_, x_);   \
      vd dl_ = vd_sub (vd_sub (x_, vd_sub (dh_, z_)), vd_add (b_, z_));        \
      vd p_ = vd_mul (dh_, dh_), t_ = vd_add (s, p_), q_ = vd_sub (t_, s);     \
      vd e_ = vd_add (vd_sub (s, vd_sub (t_, q_)), vd_sub (p_, q_));           \
      vd f_ = vd_fma (vd_add (dh_, dh_), dl_, vd_fms (dh_, dh_, p_));          \
      c = vd_add (c, vd_add (e_, f_));                                         \
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
  const float *b = NULL;
  NF_SUMSQ_CC (float, vd_load_f32, b, NF_STEP_SQ_F32);
  if (!isfinite (r))
    return nf_sumsq_acc_f32_generic (x, n);
  return r;
}

/* Return sum ((X[i] - B[i])^2) for floats in long double, each term
   exact (but for differences of exponents more than 29 apart) and summed
   error-free in double-double; B NULL: nf_sumsq_acc_f32.  Relative error
   about 2^-63; Inf and NaN go to the generic kernel, as above.  No
   square of a difference of floats is below 2^-298: nothing
   underflows.  */
long double
NF_SFX (nf_sumsqd_acc_f32) (const float *x, const float *b, size_t n)
{
  if (!b)
    return NF_SFX (nf_sumsq_acc_f32) (x, n);
  NF_SUMSQ_CC (float, vd_load_f32, b, NF_STEP_SQD_F32);
  if (!isfinite (r))
    return nf_sumsqd_acc_f32_generic (x, b, n);
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
  const double *b = NULL;
  NF_SUMSQ_CC (double, vd_load_f64, b, NF_STEP_SQ_F64);
  if (!isfinite (r) || r < NF_SUMSQ_F64_MIN)
    return nf_sumsq_f64_generic (x, n);
  return r;
}

/* add_rmsnorm's f64 pass: X[i] = X[i] + R[i] rounded once to double
   and stored, each vector squared from the register (add_store_f64),
   the tail added first and summed from X; the sum and its fall-back to
   the generic kernel (on the new X) are nf_sumsq_f64's, so the result
   is that kernel's for the new X, bit for bit.  */
static inline vd
add_store_f64 (double *x, const double *r)
{
  vd v = vd_add (vd_load_f64 (x), vd_load_f64 (r));
  vd_store_f64 (x, v);
  return v;
}

#define NF_LDX_ADD(load, at) add_store_f64 (x + (at), res + (at))
#define NF_PRE_ADD64(at, k)                                                    \
  for (size_t j_ = (at); j_ < (at) + (k); j_++)                                \
    x[j_] = x[j_] + res[j_]

long double
NF_SFX (nf_add_sumsq_f64) (double *x, const double *res, size_t n)
{
  const double *b = NULL;
  NF_SUMSQ_CC_X (double, vd_load_f64, b, NF_STEP_SQ_F64, NF_LDX_ADD,
		 NF_PRE_ADD64);
  if (!isfinite (r) || r < NF_SUMSQ_F64_MIN)
    return nf_sumsq_f64_generic (x, n);
  return r;
}

/* Return sum ((X[i] - B[i])^2) for doubles in long double, each term
   to about 2^-104 and summed error-free (NF_STEP_SQD_F64); B NULL:
   nf_sumsq_f64.  Relative error about 2^-63.  Sums out of range
   (a difference or a square overflowed, or squares may have
   underflowed), NaN and Inf go to the generic long double kernel.  */
long double
NF_SFX (nf_sumsqd_f64) (const double *x, const double *b, size_t n)
{
  if (!b)
    return NF_SFX (nf_sumsq_f64) (x, n);
  NF_SUMSQ_CC (double, vd_load_f64, b, NF_STEP_SQD_F64);
  if (!isfinite (r) || r < NF_SUMSQ_F64_MIN)
    return nf_sumsqd_f64_generic (x, b, n);
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
