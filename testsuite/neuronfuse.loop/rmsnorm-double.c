/* Area: nf-loop, RMSNorm, double.
   Purpose: llama2.c's rmsnorm on double data is outlined into a call to
   nf_rmsnorm_f64.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (double *o, const double *x, const double *weight, int size)
{
  double ss = 0.0;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f64" } */
  ss /= size;
  ss += 1e-5;
  ss = 1.0 / sqrt (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static double x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (double, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (double, w, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm (y, x, w, n));
      nf_loop_check_rmsnorm_f64 (y, x, w, n, 1e-5, fused);
      CHECK (y[n] == NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 11 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f64"} 1 } } */
