/* Area: nf-loop, RMSNorm, float.
   Purpose: the mean taken as ss * (1.0f / n), not ss / n.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = ss * (1.0f / n);
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
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
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm (y, x, w, n));
      nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-5f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 10 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 1 } } */
