/* Area: nf-loop, plugin arguments, mode=report.
   Purpose: an RMSNorm and an L2 norm are found and reported ("reported"),
   and the code is left exactly as without the plugin: no call reaches
   libneuronfuse and the assembly is the same.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-mode=report" } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j];
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}

__attribute__ ((noipa)) float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrtf (s);
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
      float got;
      fused = NF_FUSED (got = l2 (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 13 reported } } */
/* { dg-final { nf-report-region MulRedSqrt l2 22 reported } } */
/* { dg-final { nf-asm-identical } } */
