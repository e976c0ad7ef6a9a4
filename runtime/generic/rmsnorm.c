/* nf_rmsnorm_*_generic: RMSNorm, y[i] = x[i] * r * w[i] with
   r = 1 / sqrt (sum (x[j]^2) / n + eps), the portable kernels (and the
   references of the vector ones).  They ignore STREAM (kernels.h).

   Accuracy.  The sum is taken wider than the data (f32 and f16 in double,
   f64 in long double with Neumaier's compensation, see nrm2.c), r and
   x[i] * r * w[i] are computed in that wider type too and each output is
   rounded once: f32 within 0.5 ulp + (n + 10) 2^-30 ulp, f16 within
   0.5 ulp + (n + 10) 2^-43 ulp, f64 within 0.5 ulp + 2^-8 ulp, where the
   plain loop in the data type is off by several ulps and, in _Float16,
   overflows once sum (x^2) > 65504 (an RMS of 4 at n = 4096).  The whole
   sum is taken before any store, so y == x works.  NaN and Inf behave as
   in the plain loop.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>

/* Y = X * r * W (W may be NULL) for N > 0 floats whose sum of squares
   is S (double), r = 1 / sqrt (S / N + EPS) and the scaling in double
   (nf_rmsnorm_f32_generic, nf_add_rmsnorm_f32_generic).  */
static void
scale_f32 (float *y, const float *x, const float *w, size_t n, double s,
	   float eps)
{
  double r = 1 / sqrt (s / (double) n + eps);
  if (w)
    for (size_t i = 0; i < n; i++)
      y[i] = (float) (x[i] * r * w[i]);
  else
    for (size_t i = 0; i < n; i++)
      y[i] = (float) (x[i] * r);
}

/* Y = X * r * W (W may be NULL) for N > 0 doubles whose sum of squares
   is S, r and the scaling in long double.  */
static void
scale_f64 (double *y, const double *x, const double *w, size_t n,
	   long double s, double eps)
{
  long double r = 1 / sqrtl (s / (long double) n + eps);
  if (w)
    for (size_t i = 0; i < n; i++)
      y[i] = (double) (x[i] * r * w[i]);
  else
    for (size_t i = 0; i < n; i++)
      y[i] = (double) (x[i] * r);
}

/* Y = X * r * W (W may be NULL) for N floats, sum and scaling in
   double.  */
void
nf_rmsnorm_f32_generic (float *y, const float *x, const float *w, size_t n,
			float eps, int stream)
{
  (void) stream;
  if (n == 0)
    return;
  scale_f32 (y, x, w, n, nf_sumsq_f32_generic (x, n), eps);
}

/* Y = X * r * W (W may be NULL) for N doubles, sum and scaling in long
   double.  */
void
nf_rmsnorm_f64_generic (double *y, const double *x, const double *w, size_t n,
			double eps, int stream)
{
  (void) stream;
  if (n == 0)
    return;
  scale_f64 (y, x, w, n, nf_sumsq_f64_generic (x, n), eps);
}

/* The residual add, then RMSNorm: X += R (each sum rounded once and
   stored), then Y = X * r * W as nf_rmsnorm_f32_generic computes it for
   the new X (the same bits: the fused pass sums the squares in the same
   order).  Y == X works: the sum is complete before the first store of
   Y.  */
void
nf_add_rmsnorm_f32_generic (float *y, float *x, const float *r,
			    const float *w, size_t n, float eps)
{
  if (n == 0)
    return;
  scale_f32 (y, x, w, n, nf_add_sumsq_f32_generic (x, r, n), eps);
}

/* The same for doubles, as nf_rmsnorm_f64_generic.  */
void
nf_add_rmsnorm_f64_generic (double *y, double *x, const double *r,
			    const double *w, size_t n, double eps)
{
  if (n == 0)
    return;
  scale_f64 (y, x, w, n, nf_add_sumsq_f64_generic (x, r, n), eps);
}

#ifdef __FLT16_MAX__
/* Y = X * r * W (W may be NULL) for N _Float16s, sum and scaling in
   double (the squares are exact there), each output rounded once.  */
void
nf_rmsnorm_f16_generic (_Float16 *y, const _Float16 *x, const _Float16 *w,
			size_t n, float eps, int stream)
{
  (void) stream;
  if (n == 0)
    return;
  double r = 1 / sqrt (nf_sumsq_f16_generic (x, n) / (double) n + eps);
  if (w)
    for (size_t i = 0; i < n; i++)
      y[i] = (_Float16) ((double) x[i] * r * w[i]);
  else
    for (size_t i = 0; i < n; i++)
      y[i] = (_Float16) ((double) x[i] * r);
}
#endif

/* Gemma's RMSNorm: Y = X * r * (1 + W) for N floats, sum, gain and
   scaling in double (1 + w[i] exact there unless |w[i]| < 2^-29), each
   output rounded once.  */
void
nf_rmsnorm1p_f32_generic (float *y, const float *x, const float *w, size_t n,
			  float eps)
{
  if (n == 0)
    return;
  double r = 1 / sqrt (nf_sumsq_f32_generic (x, n) / (double) n + eps);
  for (size_t i = 0; i < n; i++)
    y[i] = (float) (x[i] * r * (1.0 + w[i]));
}

/* Y = X * r * (1 + W) for N doubles, in long double.  */
void
nf_rmsnorm1p_f64_generic (double *y, const double *x, const double *w,
			  size_t n, double eps)
{
  if (n == 0)
    return;
  long double r
    = 1 / sqrtl (nf_sumsq_f64_generic (x, n) / (long double) n + eps);
  for (size_t i = 0; i < n; i++)
    y[i] = (double) (x[i] * r * (1.0L + w[i]));
}

/* L2 normalisation with a floor: Y = X / fmax (||X||, EPS) for N floats,
   the norm, the floor and the quotients in double, each output rounded
   once (double rounding: within 0.5 ulp + 2^-29 ulp).  fmax takes EPS
   for a NaN norm, as fmaxf in the loop.  */
void
nf_l2normalize_f32_generic (float *y, const float *x, size_t n, float eps)
{
  if (n == 0)
    return;
  double d = fmax (sqrt (nf_sumsq_f32_generic (x, n)), eps);
  for (size_t i = 0; i < n; i++)
    y[i] = (float) (x[i] / d);
}

/* Y = X / fmax (||X||, EPS) for N doubles, in long double.  */
void
nf_l2normalize_f64_generic (double *y, const double *x, size_t n, double eps)
{
  if (n == 0)
    return;
  long double d = fmaxl (sqrtl (nf_sumsq_f64_generic (x, n)), eps);
  for (size_t i = 0; i < n; i++)
    y[i] = (double) (x[i] / d);
}
