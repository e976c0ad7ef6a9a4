/* Area: nf-scalar, Expm1.
   Purpose: 1 - exp (x) becomes 0.0 - expm1 (x): the negation is exact, so
   the accuracy of expm1 carries over, and a zero result stays +0.0.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return 1.0 - exp (x); /* { dg-optimized "Expm1: replaced 1 - exp \\(x\\) by -expm1 \\(x\\)" } */
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  static const double xs[] = { 1e-12, -3e-9, 0.25, -7.0, 50.0, 0.0, -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], got = f (x), orig = 1.0 - exp_fp (x);
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, -expm1l (x), 1.0, x);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 1 } } */
