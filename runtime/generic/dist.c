/* nf_sumsqd_*_generic: sums of squared differences sum ((x[i] - b[i])^2)
   (B NULL: of squares), the portable kernels behind nf_dist_* and
   nf_rms_* (dist.c) and the references of the vector ones.

   Accuracy and range.  f32: the difference of two floats in double is
   exact unless their exponents are more than 29 apart (then rounded
   once, relative 2^-53), its square rounded once in double, the sum a
   plain double one: relative error at most (n + 1) 2^-53, where the
   plain float loop's is about n 2^-24.  f32 accurate (the _d_f32 forms)
   and f64: difference and square in long double (the difference of two
   floats exact unless the exponents are 40 apart, of two doubles unless
   they are 11 apart; the square within 2^-64), summed with Neumaier's
   compensation as nf_sumsq_f64_generic: relative error about 3 2^-64.
   Nothing can overflow or underflow: differences of doubles and their
   squares are inside long double's range (generic/sumsq.c checks it),
   those of floats inside double's.  NaN and Inf as the plain loop: any
   NaN, or Inf - Inf, gives NaN, else any Inf gives Inf.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>

/* Return sum ((X[i] - B[i])^2) for i < N in double; B NULL: sum (X[i]^2)
   (nf_sumsq_f32_generic).  */
double
nf_sumsqd_f32_generic (const float *x, const float *b, size_t n)
{
  if (!b)
    return nf_sumsq_f32_generic (x, n);
  double s = 0;
  for (size_t i = 0; i < n; i++)
    {
      double d = (double) x[i] - b[i];
      s += d * d;
    }
  return s;
}

/* Return the Neumaier sum of the long double squares V(i) for i < N, V
   an expression of I.  */
#define NF_NEUMAIER_SUM(v)                                                     \
  long double s = 0, c = 0;                                                    \
  for (size_t i = 0; i < n; i++)                                               \
    {                                                                          \
      long double d_ = (v), t_ = s + d_;                                       \
      /* The low part lost in T_ (Fast2Sum, both non-negative).  */            \
      if (s >= d_)                                                             \
	c += (s - t_) + d_;                                                    \
      else                                                                     \
	c += (d_ - t_) + s;                                                    \
      s = t_;                                                                  \
    }                                                                          \
  /* Inf - Inf in C is NaN: keep S alone, the plain loop's Inf or NaN.  */     \
  return isfinite (s) ? s + c : s

/* Return sum ((X[i] - B[i])^2) in long double (B NULL: the squares of X,
   nf_sumsq_acc_f32_generic).  */
long double
nf_sumsqd_acc_f32_generic (const float *x, const float *b, size_t n)
{
  if (!b)
    return nf_sumsq_acc_f32_generic (x, n);
  NF_NEUMAIER_SUM (((long double) x[i] - b[i]) * ((long double) x[i] - b[i]));
}

/* Return sum ((X[i] - B[i])^2) in long double (B NULL: the squares of X,
   nf_sumsq_f64_generic).  */
long double
nf_sumsqd_f64_generic (const double *x, const double *b, size_t n)
{
  if (!b)
    return nf_sumsq_f64_generic (x, n);
  NF_NEUMAIER_SUM (((long double) x[i] - b[i]) * ((long double) x[i] - b[i]));
}
