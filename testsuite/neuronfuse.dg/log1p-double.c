/* Area: nf-scalar, Log1p, double.
   Purpose: log (1 + x) and log (x + 1.0) become log1p (x).  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return log (1 + x); /* { dg-optimized "Log1p: replaced log \\(1 \\+ x\\) by log1p \\(x\\)" } */
}

__attribute__ ((noipa)) double
g (double x)
{
  return log (x + 1.0); /* { dg-optimized "Log1p: replaced log \\(1 \\+ x\\) by log1p \\(x\\)" } */
}

double (*volatile log_fp) (double) = log;

int
main (void)
{
  static const double xs[] = { 1e-10, -1e-10, 1e-300, 0x1p-1074, 3e-8,
			       -0.5,  0.5,    2.0,    1e300,     -0.999999,
			       0.0,   -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], orig = log_fp (1 + x);
      NF_CHECK_REWRITE (NF_ULPS_D, f (x), orig, log1pl (x), 1.0, x);
      double got = g (x);
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, log1pl (x), 1.0, x);
    }
#if NF_SPECIALS
  static const double sp[] = { -1.0, -2.0, INFINITY, -INFINITY, NAN };
  for (size_t i = 0; i < NF_N (sp); i++)
    {
      double x = sp[i], got = f (x), orig = log_fp (1 + x);
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, log1pl (x), 1.0, x);
    }
#endif
  volatile double tiny = 1e-10;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_D (f (tiny), log1pl (tiny)) <= 1);
  else
    CHECK (NF_ULPS_D (f (tiny), log1pl (tiny)) > 1000);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Log1p 2 } } */
/* { dg-final { nf-report-region Log1p f 9 } } */
/* { dg-final { nf-report-region Log1p g 15 } } */
