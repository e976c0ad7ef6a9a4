/* Area: nf-scalar, Expm1, double.
   Purpose: exp (x) - 1.0 becomes expm1 (x): within 1 ulp where the
   original loses every digit; a call inlined with a constant argument
   folds to the accurate constant.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 1.0; /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
}

static double
g (double x)
{
  return exp (x) - 1; /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  static const double xs[]
    = { 1e-10, -1e-10, 1e-300, 0x1p-1074, 3e-8, -2.5e-5, 0.5, -0.5, 2.0,
	30.0,  36.0,   40.0,   700.0,     -700.0, -40.0, 0.0, -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], got = f (x), orig = exp_fp (x) - 1.0;
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, expm1l (x), 1.0, x);
    }
#if NF_SPECIALS
  static const double sp[] = { INFINITY, -INFINITY, NAN, 710.0, -1000.0 };
  for (size_t i = 0; i < NF_N (sp); i++)
    {
      double x = sp[i], got = f (x), orig = exp_fp (x) - 1.0;
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, expm1l (x), 1.0, x);
    }
#endif
  /* The original is off by ~1e7 ulp here: this fails without a rewrite.  */
  volatile double tiny = 1e-10;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_D (f (tiny), expm1l (tiny)) <= 1);
  else
    CHECK (NF_ULPS_D (f (tiny), expm1l (tiny)) > 1000);
  double c = g (1e-10);
  if (NF_PLUGIN)
    CHECK (NF_ULPS_D (c, expm1l (1e-10)) <= 1);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 2 } } */
/* { dg-final { nf-report-region Expm1 f 11 } } */
/* { dg-final { nf-report-region Expm1 g 17 } } */
/* { dg-final { nf-report-missed-count 0 } } */
