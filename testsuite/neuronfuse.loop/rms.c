/* Area: nf-loop, MulRedSqrt of a mean (issue 19).
   Purpose: the root mean square sqrt (sum (x[i]^2) / n), with the mean
   written s / n or s * (1.0f / n), and the RMSE sqrt (sum ((a[i] -
   b[i])^2) / n), in float, float summed in double and double, are
   outlined into nf_rms_f32, nf_rms_d_f32 and nf_rms_f64 (b NULL for
   the RMS of one array), which sum and divide in a wider type: within 2
   ulps and no worse than the loop; n = 0 gives the loop's NaN.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
rms (const float *x, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_f32" } */
  return sqrtf (s / n);
}

__attribute__ ((noipa)) float
rms_recip (const float *x, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_f32" } */
  return sqrtf (s * (1.0f / n));
}

__attribute__ ((noipa)) float
rmse (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) { float d = a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_f32" } */
  return sqrtf (s / n);
}

__attribute__ ((noipa)) double
rmse_double_sum (const float *a, const float *b, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) { double d = (double) a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_d_f32" } */
  return sqrt (s / n);
}

__attribute__ ((noipa)) double
rms_f64 (const double *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_f64" } */
  return sqrt (s / (double) n);
}

static float a[NF_LOOP_MAX], b[NF_LOOP_MAX];
static double ad[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, a, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, b, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (double, ad, NF_LOOP_MAX, 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      float f;
      double d;
      int fused = NF_FUSED (f = rms (a, n));
      nf_loop_check_dist_f32 (f, a, NULL, n, 1, fused);
      fused = NF_FUSED (f = rms_recip (a, n));
      nf_loop_check_dist_f32 (f, a, NULL, n, 1, fused);
      fused = NF_FUSED (f = rmse (a, b, n));
      nf_loop_check_dist_f32 (f, a, b, n, 1, fused);
      fused = NF_FUSED (d = rmse_double_sum (a, b, n));
      nf_loop_check_dist_f32d (d, a, b, n, 1, fused);
      fused = NF_FUSED (d = rms_f64 (ad, n));
      nf_loop_check_dist_f64 (d, ad, NULL, n, 1, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 5 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rms_f32"} 3 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rms_d_f32"} 1 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rms_f64"} 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
