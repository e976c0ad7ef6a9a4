/* Area: nf-loop, RMSNorm, float.
   Purpose: x divided by the root instead of multiplied by its
   inverse: o[j] = x[j] / sqrtf (ss) * w[j].  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = ss / n + 1e-5f;
  for (int j = 0; j < n; j++) o[j] = x[j] / sqrtf (ss) * w[j];
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

/* With errno, sqrtf (ss) stays in the scaling loop inside cdce's
   diamond; at -O3 loop unswitching then makes two copies of that loop.
   nf-early-loop sees the function before either (issue 15: it used to
   be missed at -O3, "the values flow through more than two loops").  */
/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 11 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 1 } } */
