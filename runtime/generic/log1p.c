/* nf_log1p_f32/f64_generic: portable kernels of y[i] = log1p(x[i]), the
   variant dispatch.c picks where no vector one runs, and the reference the
   vector kernels are compared with.  The float kernel widens to double and
   rounds once: double log1p is < 0.8 double-ulp off, which is 2^-29 of a
   float ulp, so the float result is within 0.5 ulp + 2^-29 of exact and
   never worse than log1pf (glibc 2.36 log1pf is up to 1.29 ulp off).

   The _pz kernels add +0.0 to each result: the same values, except
   that x = -0 gives +0 (what the loop `exp (x) - 1` or `log (1 + x)`
   gives) where the plain kernels keep -0.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>

void
nf_log1p_f32_generic (float *y, const float *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = (float) log1p ((double) x[i]);
}

void
nf_log1p_f64_generic (double *y, const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = log1p (x[i]);
}

void
nf_log1p_pz_f32_generic (float *y, const float *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = (float) log1p ((double) x[i]) + 0.0f;
}

void
nf_log1p_pz_f64_generic (double *y, const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = log1p (x[i]) + 0.0;
}
