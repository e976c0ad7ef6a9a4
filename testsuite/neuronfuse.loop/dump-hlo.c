/* Area: nf-loop, dump-hlo=DIR and the details dump.
   Purpose: each outlined loop region is dumped as MHLO, StableHLO,
   Penguin text (and RMSNorm as a custom call too; Softmax too, from
   three loops), every .mlir parses
   with mlir-opt; -fplugin-arg-neuronfuse-dump writes the nf-loop
   details dump with the region's IR and one line per decision.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-dump-hlo=@DUMPS@ -fplugin-arg-neuronfuse-dump" } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}

__attribute__ ((noipa)) double
l2 (const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  return sqrt (s);
}

__attribute__ ((noipa)) void
softmax (float *y, const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
    if (x[i] > m)
      m = x[i];
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  for (int i = 0; i < n; i++)
    y[i] /= s;
}

static float x[64], w[64], y[64];
static double xd[64];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, 64, 1, 0);
  NF_LOOP_FILL (float, w, 64, 2, 1);
  NF_LOOP_FILL (double, xd, 64, 3, 0);
  int fused = NF_FUSED (rmsnorm (y, x, w, 64));
  nf_loop_check_rmsnorm_f32 (y, x, w, 64, 1e-5f, fused);
  double got;
  fused = NF_FUSED (got = l2 (xd, 64));
  nf_loop_check_nrm2_f64 (got, xd, 64, fused);
  fused = NF_FUSED (softmax (y, x, 64));
  nf_loop_check_softmax_f32 (y, x, 64, fused);
  NF_DONE ();
}

/* { dg-final { nf-dumps 4 RMSNorm } } */
/* { dg-final { nf-dumps 3 MulRedSqrt } } */
/* { dg-final { nf-dumps 3 Softmax } } */
/* { dg-final { nf-scan-details {^neuronfuse: region [0-9]+: RMSNorm outlined in nf_rmsnorm_f32 \(2 loops\)$} 1 } } */
/* { dg-final { nf-scan-details {^neuronfuse: region [0-9]+: MulRedSqrt outlined in nf_nrm2_f64 \(1 loop\)$} 1 } } */
/* { dg-final { nf-scan-details {^  %[0-9]+ = reduce %[0-9]+, %[0-9]+ : f32$} 1 } } */
