/* Area: nf-loop, RMSNorm, float.
   Purpose: eps a parameter of the function (loop-invariant, not a
   constant), passed through to the call.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n, float eps)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + eps);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  static const float epss[] = { 1e-5f, 1e-6f, 0.25f, 0.0f };
  for (size_t k = 0; k < NF_N (nf_loop_ns) * NF_N (epss); k++)
    {
      size_t n = nf_loop_ns[k / NF_N (epss)];
      float eps = epss[k % NF_N (epss)];
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm (y, x, w, n, eps));
      nf_loop_check_rmsnorm_f32 (y, x, w, n, eps, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 11 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 1 } } */
