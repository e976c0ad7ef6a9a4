/* nf_expm1_f32/f64_generic: portable kernels of y[i] = expm1(x[i]), the
   variant dispatch.c picks where no vector one runs, and the reference the
   vector kernels are compared with.  The float kernel widens to double and
   rounds once: double expm1 is < 0.8 double-ulp off, which is 2^-29 of a
   float ulp, so the float result is within 0.5 ulp + 2^-29 of exact and
   never worse than expm1f (glibc 2.36 expm1f is up to 0.81 ulp off).

   nf_exp_f32_generic, y[i] = exp (x[i]) (kernels.h's exp_f32, which
   nf_elementwise's EXP runs): double exp rounded once, within 0.5 ulp +
   2^-29; x clamped to [-110, 100] first (as the vector kernels do: exp
   rounds to +0 below, overflows above), so that exp never sets errno.

   The _pz kernels add +0.0 to each result: the same values, except
   that x = -0 gives +0 (what the loop `exp (x) - 1` or `log (1 + x)`
   gives) where the plain kernels keep -0.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>

void
nf_expm1_f32_generic (float *y, const float *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = (float) expm1 ((double) x[i]);
}

void
nf_expm1_f64_generic (double *y, const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = expm1 (x[i]);
}

void
nf_expm1_pz_f32_generic (float *y, const float *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = (float) expm1 ((double) x[i]) + 0.0f;
}

void
nf_expm1_pz_f64_generic (double *y, const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    y[i] = expm1 (x[i]) + 0.0;
}

void
nf_exp_f32_generic (float *y, const float *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      float v = x[i]; /* NaN stays NaN: both compares are false.  */
      v = v > 100.0f ? 100.0f : v < -110.0f ? -110.0f : v;
      y[i] = (float) exp ((double) v);
    }
}
