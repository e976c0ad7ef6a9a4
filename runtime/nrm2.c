/* nrm2.c: nf_nrm2_f32/f64, the Euclidean norm as the square root of a
   dispatched sum of squares (kernels.h).

   f32: the double sum of nf_sumsq_f32 cannot overflow or underflow
   (squares of floats lie between 2^-298 and 2^256).  f64: the fast sum
   (nf_sumsq_fast_f64_*, relative error at most 3 2^-53 whatever n) in
   long double; the vector kernels hand sums out of double's comfortable
   range, Inf and NaN to the generic long double kernel, so nothing
   overflows or underflows spuriously there either.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

#include <math.h>

float
nf_nrm2_f32 (const float *x, size_t n)
{
  return (float) sqrt (NF_KERNEL (sumsq_f32) (x, n));
}

double
nf_nrm2_f64 (const double *x, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsq_fast_f64) (x, n));
}
