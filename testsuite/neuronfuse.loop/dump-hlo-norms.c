/* Area: nf-loop, dump-hlo=DIR of the issue-19 norms.
   Purpose: a distance (the difference inside the fused region), an L2
   normalisation with a floor (the max and the quotient inside) and
   Gemma's RMSNorm (the custom call takes 1 + w, added before it) are
   dumped as MHLO, StableHLO and Penguin text, and every .mlir parses
   with mlir-opt.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-dump-hlo=@DUMPS@" } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
dist (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) { float d = a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) void
normalize (float *y, const float *x, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loops outlined into a call to nf_l2normalize_f32" } */
  float d = fmaxf (sqrtf (s), 1e-12f);
  for (int i = 0; i < n; i++) y[i] = x[i] / d;
}

__attribute__ ((noipa)) void
gemma (float *o, const float *x, const float *w, int n)
{
  float ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm1p_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-6f);
  for (int j = 0; j < n; j++) o[j] = x[j] * ss * (1.0f + w[j]);
}

static float x[64], w[64], y[64];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, 64, 1, 0);
  NF_LOOP_FILL (float, w, 64, 2, 0);
  float got;
  int fused = NF_FUSED (got = dist (x, w, 64));
  nf_loop_check_dist_f32 (got, x, w, 64, 0, fused);
  normalize (y, x, 64);
  gemma (y, x, w, 64);
  NF_DONE ();
}

/* { dg-final { nf-dumps 6 MulRedSqrt } } */
/* { dg-final { nf-dumps 4 RMSNorm } } */
