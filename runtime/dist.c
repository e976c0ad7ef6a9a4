/* dist.c: nf_dist_* and nf_rms_* (issue 19), the Euclidean distance and
   the root mean square difference as the root of a dispatched sum of
   squared differences (kernels.h's sumsqd entries: generic/dist.c,
   x86/sumsq-tmpl.h); B NULL is the norm of A, its RMS.

   f32: the double sum (differences exact in double but where exponents
   are more than 29 apart, squares rounded once, relative error of the
   sum about n 2^-53), divided by n in double for the RMS, the root in
   double rounded once to float: within 0.5 ulp + (n + 2) 2^-30 ulp,
   where the plain float loop errs by up to about n 2^-25 ulp.  _d_f32
   (a float loop summing in double, whose sum errs by up to (n - 1)
   2^-53) and f64: the sum error-free in double-double (vector kernels)
   or compensated long double (generic), about 2^-63 relative, /n and
   the root in long double, rounded once to double: within 0.5 ulp +
   2^-10 ulp.  The f64 sum is the accurate one for every n (not
   nf_nrm2_f64's fast sum, whose 3 2^-53 bound is no better than a short
   plain loop's, nrm2.c): it costs a fraction of the plain loop's time
   already (bench/RESULTS.md).  Nothing overflows or underflows
   spuriously (the sums' ranges, generic/dist.c).  n == 0: the sum is 0,
   so the distance is 0 and the RMS 0 / 0 = NaN, as the loop gives them.
   NaN anywhere (or Inf - Inf) gives NaN, else any Inf gives Inf.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

#include <math.h>

float
nf_dist_f32 (const float *a, const float *b, size_t n)
{
  return (float) sqrt (NF_KERNEL (sumsqd_f32) (a, b, n));
}

double
nf_dist_d_f32 (const float *a, const float *b, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsqd_acc_f32) (a, b, n));
}

double
nf_dist_f64 (const double *a, const double *b, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsqd_f64) (a, b, n));
}

float
nf_rms_f32 (const float *a, const float *b, size_t n)
{
  return (float) sqrt (NF_KERNEL (sumsqd_f32) (a, b, n) / (double) n);
}

double
nf_rms_d_f32 (const float *a, const float *b, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsqd_acc_f32) (a, b, n)
			 / (long double) n);
}

double
nf_rms_f64 (const double *a, const double *b, size_t n)
{
  return (double) sqrtl (NF_KERNEL (sumsqd_f64) (a, b, n) / (long double) n);
}
