/* Area: nf-loop, MulRedSqrt of a difference (issue 19).
   Purpose: the Euclidean distance sqrt (sum ((a[i] - b[i])^2)) of
   k-means and nearest-neighbour code, through a temporary or written
   twice, summed in float, in double of float data (differences in float
   or widened first) and in double, is outlined into nf_dist_f32,
   nf_dist_d_f32 and nf_dist_f64, which sum in a wider type: within 2
   ulps of the exact distance and no worse than the loop.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
dist_tmp (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) { float d = a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
dist_twice (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]); /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) double
dist_double_sum (const float *a, const float *b, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) { double d = (double) a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_d_f32" } */
  return sqrt (s);
}

__attribute__ ((noipa)) double
dist_f64 (const double *a, const double *b, long n)
{
  double s = 0;
  for (long i = 0; i < n; i++) s += pow (a[i] - b[i], 2); /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_f64" } */
  return sqrt (s);
}

static float a[NF_LOOP_MAX], b[NF_LOOP_MAX];
static double ad[NF_LOOP_MAX], bd[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, a, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, b, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (double, ad, NF_LOOP_MAX, 3, 0);
  NF_LOOP_FILL (double, bd, NF_LOOP_MAX, 4, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      float f;
      double d;
      int fused = NF_FUSED (f = dist_tmp (a, b, n));
      nf_loop_check_dist_f32 (f, a, b, n, 0, fused);
      fused = NF_FUSED (f = dist_twice (a, b, n));
      nf_loop_check_dist_f32 (f, a, b, n, 0, fused);
      fused = NF_FUSED (d = dist_double_sum (a, b, n));
      nf_loop_check_dist_f32d (d, a, b, n, 0, fused);
      fused = NF_FUSED (d = dist_f64 (ad, bd, n));
      nf_loop_check_dist_f64 (d, ad, bd, n, 0, fused);
      /* The distance of an array to itself.  */
      fused = NF_FUSED (f = dist_tmp (a, a, n));
      CHECK (f == 0);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 4 } } */
/* { dg-final { nf-report-scan {"callee": "nf_dist_f32"} 2 } } */
/* { dg-final { nf-report-scan {"callee": "nf_dist_d_f32"} 1 } } */
/* { dg-final { nf-report-scan {"callee": "nf_dist_f64"} 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
