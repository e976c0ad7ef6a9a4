/* Area: nf-loop, MulRedSqrt, double.
   Purpose: the L2 norm sqrt (sum x[i] * x[i]) is outlined into a call to
   nf_nrm2_f64.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) double
l2 (const double *x, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  return sqrt (s);
}

static double x[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (double, x, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      double got;
      int fused = NF_FUSED (got = l2 (x, n));
      nf_loop_check_nrm2_f64 (got, x, n, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2 11 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f64"} 1 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
