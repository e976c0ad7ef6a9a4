/* Area: nf-loop, MulRedSqrt, double, short rows.
   Purpose: the norm of three doubles, outlined into nf_nrm2_f64, is no
   less accurate than the plain loop's.  make check-fuzz found it (seed 1,
   program 138): with the fast sum (relative error up to 3 2^-53, where
   the plain loop's is 2 2^-53 at n = 3) the root was 0.554 ulp off
   against the loop's 0.446; short rows now take the accurate sum.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) double
l2 (const double *x, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  return sqrt (s);
}

static double x[3] = { -0x1.a1b792dc6c15p-2, -0x1.dbb980fc7d26p+0,
		       -0x1.a12d9f8bf5298p+1 };

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  for (size_t n = 0; n <= 3; n++)
    {
      double got;
      int fused = NF_FUSED (got = l2 (x, n));
      nf_loop_check_nrm2_f64 (got, x, n, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2 14 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f64"} 1 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
