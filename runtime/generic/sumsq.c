/* nf_sumsq_f32/f16/f64_generic: sums of squares, the portable kernels
   (and the references of the vector ones), from which nrm2.c takes norms;
   nf_nrm2_f16_generic, the f16 norm itself (a table entry of its own).

   Accuracy and range.  A float squared is exact in double and far from
   double's limits, so the f32 kernels sum plain doubles: relative error at
   most (n - 1) 2^-53, the norm within 0.5 ulp + n 2^-29 ulp.  The same
   holds for _Float16 (squares of 22 bits between 2^-48 and 2^32), whose
   norm is the root of that sum in double, rounded once to float.  For
   doubles LAPACK 3.10's dnrm2 scales into three accumulators (Blue's
   algorithm, Anderson, ACM TOMS 44, 2017); here, like OpenBLAS's x87
   dnrm2, we use instead a long double whose 15-bit exponent holds the
   square of every double, subnormals included, so nothing can overflow or
   underflow.  The long double squares (each within 2^-64) are summed with
   Neumaier's compensation (Neumaier, ZAMM 54, 1974), so the sum is within
   about 3 2^-64 and the norm within 0.5 ulp + 2^-9 ulp whatever n.  NaN
   and Inf come out as from the plain loop: any NaN gives NaN, else Inf
   gives Inf.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <float.h>
#include <math.h>

/* Squares of every double, and sums of up to 2^32 of them, must be normal
   long doubles with at least 64 bits (x87 extended, binary128).  Where
   long double is double or double-double, port Blue's scaling instead.  */
#if LDBL_MAX_EXP < 2 * DBL_MAX_EXP + 32 \
    || LDBL_MIN_EXP > 2 * (DBL_MIN_EXP - DBL_MANT_DIG) \
    || LDBL_MANT_DIG < 64
#error "nrm2.c needs a long double with the range of squared doubles"
#endif

/* Return the sum of the squares of X[0..N-1], in double.  */
double
nf_sumsq_f32_generic (const float *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return s;
}

/* X[i] = X[i] + R[i] for i < N, each sum rounded once to float as the
   loop stores it; return the sum of the squares of the new X in double,
   the same additions in the same order as nf_sumsq_f32_generic.  */
double
nf_add_sumsq_f32_generic (float *x, const float *r, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    {
      float v = x[i] + r[i];
      x[i] = v;
      s += (double) v * v;
    }
  return s;
}

#ifdef __FLT16_MAX__
/* Return the sum of the squares of the _Float16s X[0..N-1] in double
   (for nf_nrm2_f16 and RMSNorm f16; not in the table).  */
double
nf_sumsq_f16_generic (const _Float16 *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return s;
}

/* Return the Euclidean norm of the _Float16s X[0..N-1]: the root of the
   double sum taken in double and rounded once to float.  */
float
nf_nrm2_f16_generic (const _Float16 *x, size_t n)
{
  return (float) sqrt (nf_sumsq_f16_generic (x, n));
}
#endif

/* Return the sum of the squares of the floats X[0..N-1] in long double,
   each square exact (48 bits), summed with Neumaier's compensation in
   four chains (independent, so that the x87 adds overlap): relative
   error about 2^-63 for n < 2^30.  */
long double
nf_sumsq_acc_f32_generic (const float *x, size_t n)
{
  long double s[4] = { 0, 0, 0, 0 }, c[4] = { 0, 0, 0, 0 };
  for (size_t i = 0; i < n; i++)
    {
      long double v = (long double) x[i] * x[i], t = s[i % 4] + v;
      /* Both are sums of squares: S >= V or V >= S, no sign.  */
      if (s[i % 4] >= v)
	c[i % 4] += (s[i % 4] - t) + v;
      else
	c[i % 4] += (v - t) + s[i % 4];
      s[i % 4] = t;
    }
  long double sum = (s[0] + s[1]) + (s[2] + s[3]);
  /* Inf - Inf in the compensation is NaN: keep the plain Inf or NaN.  */
  return isfinite (sum) ? sum + ((c[0] + c[1]) + (c[2] + c[3])) : sum;
}

/* *S, *C += V with Neumaier's compensation: the low part lost in the
   new *S into *C, exact when nothing overflows (Fast2Sum on the larger
   of the two, both non-negative).  */
static inline void
neumaier_add (long double *s, long double *c, long double v)
{
  long double t = *s + v;
  if (*s >= v)
    *c += (*s - t) + v;
  else
    *c += (v - t) + *s;
  *s = t;
}

/* Return the sum of the squares of X[0..N-1], squared and summed in long
   double with Neumaier's compensation.  */
long double
nf_sumsq_f64_generic (const double *x, size_t n)
{
  long double s = 0, c = 0;
  for (size_t i = 0; i < n; i++)
    neumaier_add (&s, &c, (long double) x[i] * x[i]);
  /* With an Inf, S - T above is Inf - Inf = NaN in C: keep S alone, it
     is already the plain loop's Inf or NaN.  */
  return isfinite (s) ? s + c : s;
}

/* X[i] = X[i] + R[i] for i < N, each sum rounded once to double and
   stored; return the sum of the squares of the new X as
   nf_sumsq_f64_generic takes it (the same bits).  */
long double
nf_add_sumsq_f64_generic (double *x, const double *r, size_t n)
{
  long double s = 0, c = 0;
  for (size_t i = 0; i < n; i++)
    {
      double v = x[i] + r[i];
      x[i] = v;
      neumaier_add (&s, &c, (long double) v * v);
    }
  return isfinite (s) ? s + c : s;
}

/* The fast sum nf_nrm2_f64 uses: here the same as the accurate one.  */
long double
nf_sumsq_fast_f64_generic (const double *x, size_t n)
{
  return nf_sumsq_f64_generic (x, n);
}
