/* Area: nf-loop, RMSNorm, float, aliasing.
   Purpose: llama2.c's rmsnorm called in place (o == x) is outlined too:
   the kernel takes the whole sum before writing, and y == x is allowed.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static float x0[NF_LOOP_MAX], w[NF_LOOP_MAX], x[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x0, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memcpy (x, x0, sizeof x0);
      x[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm (x, x, w, n));
      nf_loop_check_rmsnorm_f32 (x, x0, w, n, 1e-5f, fused);
      CHECK (x[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 11 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 1 } } */
