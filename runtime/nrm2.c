/* nrm2.c: nf_nrm2_f32/f64/f16 and nf_nrm2d_f32, the Euclidean norm as
   the square root of a dispatched sum of squares (kernels.h); f16 is one
   table entry, sum and root together (generic/sumsq.c,
   x86/sumsq-tmpl.h).

   f32: the double sum of nf_sumsq_f32 cannot overflow or underflow
   (squares of floats lie between 2^-298 and 2^256).  f64: the fast sum
   (nf_sumsq_fast_f64_*, relative error at most 3 2^-53 whatever n) in
   long double, or for rows shorter than 16 the accurate one (whose error
   is then below the plain loop's as well); the vector kernels hand sums out of double's comfortable
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

/* The squares of floats summed without error in long double
   (nf_sumsq_acc_f32_*), the root of the sum in long double, then
   rounded once to double.  */
double
nf_nrm2d_f32 (const float *x, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsq_acc_f32) (x, n));
}

/* Below this length the fast sum's bound (3 2^-53) is no better than
   the plain loop's ((n - 1) 2^-53): a root of it can come out worse than
   the loop's (n = 3: 0.554 ulp against 0.446, found by make check-fuzz),
   so short rows take the accurate sum, which costs nothing there.  */
#define NF_NRM2_F64_SHORT 16

double
nf_nrm2_f64 (const double *x, size_t n)
{
  if (n < NF_NRM2_F64_SHORT)
    return (double) sqrtl (NF_KERNEL (sumsq_f64) (x, n));
  return (double) sqrtl (NF_KERNEL (sumsq_fast_f64) (x, n));
}

#ifdef __FLT16_MAX__
/* The squares of _Float16s, exact in double, summed there (no overflow
   or underflow: every square lies between 2^-48 and 2^32); the root in
   double, rounded once to float.  */
float
nf_nrm2_f16 (const _Float16 *x, size_t n)
{
  return NF_KERNEL (nrm2_f16) (x, n);
}
#endif
