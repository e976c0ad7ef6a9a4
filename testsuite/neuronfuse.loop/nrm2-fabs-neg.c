/* Area: nf-loop, MulRedSqrt and RMSNorm, float and double.
   Purpose: GCC folds |x| * |x| and (-x) * (-x) to x * x (match.pd), so
   sums of fabsf (x[i]) * fabsf (x[i]), of a temporary d = fabsf (x[i])
   squared and of (-x[i]) * (-x[i]) are L2 norms and RMSNorms of x.
   fabs (x[i]) of a float x is (double) fabsf (x[i]): the square of the
   widened value keeps the fabs, which the plugin does not model.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
l2_fabs (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += fabsf (x[i]) * fabsf (x[i]); /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) double
l2_neg (const double *x, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) { double d = -x[i]; s = s + d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  return sqrt (s);
}

__attribute__ ((noipa)) float
l2_neg_inline (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += (-x[i]) * (-x[i]); /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) void
rms_fabs (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) { float d = fabsf (x[j]); ss += d * d; } /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}

__attribute__ ((noipa)) float
l2_fabs_wide (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += fabs (x[i]) * fabs (x[i]); /* { dg-missed "MulRedSqrt: not rewritten: the region computes something the matchers do not model" } */
  return sqrtf (s);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], o[NF_LOOP_MAX];
static double xd[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = l2_fabs (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      double gd;
      fused = NF_FUSED (gd = l2_neg (xd, n));
      nf_loop_check_nrm2_f64 (gd, xd, n, fused);
      fused = NF_FUSED (got = l2_neg_inline (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      memset (o, 0, sizeof o);
      fused = NF_FUSED (rms_fabs (o, x, w, n));
      nf_loop_check_rmsnorm_f32 (o, x, w, n, 1e-5f, fused);
      CHECK (!NF_FUSED (got = l2_fabs_wide (x, n)));
      nf_loop_check_nrm2_f32 (got, x, n, 0);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 3 } } */
/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2_fabs 14 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_neg 22 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_neg_inline 30 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_fabs 38 outlined } } */
/* { dg-final { nf-report-missed-count 1 } } */
