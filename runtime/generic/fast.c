/* fast.c: the generic variants of the fast-math f32 kernels and the
   fast-math scalar entry points.

   nf_expm1_fast_f32_generic / nf_log1p_fast_f32_generic are the accurate
   generic kernels (double evaluation, 0.5 ulp + 2^-29): without vector
   instructions a float evaluation would not be faster, and the contract
   of the fast variants (within 1 ulp) holds a fortiori.  The vector
   variants are in x86/expm1-fast-*.c and x86/log1p-fast-*.c.

   nf_expm1f_fast / nf_log1pf_fast, the names the plugin calls for scalar
   code under -funsafe-math-optimizations: the same double evaluation
   per call, within 0.5 ulp + 2^-29 (glibc's double expm1 / log1p; errno
   as expm1f / log1pf set it: never for expm1 of a float, EDOM and ERANGE
   for log1p of x < -1 and x = -1).  Simplest correct; the fast scalar
   path of nf_expm1f / nf_log1pf (issue 16) can take their place.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>

void
nf_expm1_fast_f32_generic (float *y, const float *x, size_t n)
{
  nf_expm1_f32_generic (y, x, n);
}

void
nf_log1p_fast_f32_generic (float *y, const float *x, size_t n)
{
  nf_log1p_f32_generic (y, x, n);
}

float
nf_expm1f_fast (float x)
{
  return (float) expm1 ((double) x);
}

float
nf_log1pf_fast (float x)
{
  return (float) log1p ((double) x);
}
