/* generic/matvec.c: y[i] = sum_j w[i * n + j] * x[j] for the rows R0 to
   R1 - 1, portable C: the reference of the x86 kernels
   (nf_matvec_{f32,f16,f64}_generic, matvec.c has the design).

   f32 and f16: each product of two floats is exact in double (24 + 24
   bits), so the only errors are the double additions and the one
   rounding to float: four partial sums per row, then the tail.  f64:
   Ogita, Rump and Oishi's Dot2 (TwoProduct through fma, TwoSum), the
   result as accurate as if summed in twice double's precision and
   rounded once.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

#include <math.h>

#define NF_MV_ROW(T, W)                                                        \
  static double row_##T (const W *w, const float *x, size_t n)                 \
  {                                                                            \
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                     \
    size_t j = 0;                                                              \
    for (; j + 4 <= n; j += 4)                                                 \
      {                                                                        \
	s0 += (double) w[j] * x[j];                                            \
	s1 += (double) w[j + 1] * x[j + 1];                                    \
	s2 += (double) w[j + 2] * x[j + 2];                                    \
	s3 += (double) w[j + 3] * x[j + 3];                                    \
      }                                                                        \
    for (; j < n; j++)                                                         \
      s0 += (double) w[j] * x[j];                                              \
    return (s0 + s1) + (s2 + s3);                                              \
  }

NF_MV_ROW (f32, float)

void
nf_matvec_f32_generic (float *y, const float *w, const float *x, size_t r0,
		       size_t r1, size_t n)
{
  for (size_t i = r0; i < r1; i++)
    y[i] = (float) row_f32 (w + i * n, x, n);
}

#ifdef __FLT16_MAX__
NF_MV_ROW (f16, _Float16)

void
nf_matvec_f16_generic (float *y, const _Float16 *w, const float *x, size_t r0,
		       size_t r1, size_t n)
{
  for (size_t i = r0; i < r1; i++)
    y[i] = (float) row_f16 (w + i * n, x, n);
}
#endif

/* The compensated dot product of W and X (Dot2).  */
static double
row_f64 (const double *w, const double *x, size_t n)
{
  double s = 0, c = 0;
  for (size_t j = 0; j < n; j++)
    {
      double p = w[j] * x[j];
      double pe = fma (w[j], x[j], -p);
      double t = s + p;
      double z = t - s;
      c += ((s - (t - z)) + (p - z)) + pe;
      s = t;
    }
  /* An infinite or NaN sum is the loop's (Inf - Inf in the error terms
     would make an overflow NaN).  */
  return isfinite (s) ? s + c : s;
}

void
nf_matvec_f64_generic (double *y, const double *w, const double *x, size_t r0,
		       size_t r1, size_t n)
{
  for (size_t i = r0; i < r1; i++)
    y[i] = row_f64 (w + i * n, x, n);
}
