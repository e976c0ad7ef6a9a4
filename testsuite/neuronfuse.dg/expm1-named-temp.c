/* Area: nf-scalar, Expm1, debug info.
   Purpose: with exp (x) in a named variable (whose debug binding must not
   show expm1's value), the rewrite still happens and -g -fchecking stays
   quiet.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  double e = exp (x);
  double r = e - 1; /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
  return r;
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  static const double xs[] = { 1e-10, -4e-12, 1.5, 0.0, -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], got = f (x), orig = exp_fp (x) - 1;
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, expm1l (x), 1.0, x);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region Expm1 f 12 } } */
