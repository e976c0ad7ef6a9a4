/* Area: nf-scalar in C++.
   Purpose: std::exp (x) - 1.0 and std::log (1.0f + x) (the float overload,
   an inline wrapper in <cmath>) are rewritten in C++ too, and the Log1p
   region is reported at the user's line, not inside <cmath>.  */
/* { dg-do run } */
#include <cmath>
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return std::exp (x) - 1.0; /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  return std::log (1.0f + x); /* { dg-optimized "Log1p: replaced logf \\(1 \\+ x\\) by nf_log1pf(_fast)? \\(x\\)" } */
}

double (*volatile exp_fp) (double) = std::exp;
float (*volatile logf_fp) (float) = logf;

int
main (void)
{
  static const double xs[] = { 1e-10, -3e-9, 0.5, -7.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], got = f (x), orig = exp_fp (x) - 1.0;
      float xf = (float) x, gotf = g (xf), origf = logf_fp (1.0f + xf);
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, expm1l (x), 1.0, x);
      NF_CHECK_REWRITE (NF_ULPS_F, gotf, origf, log1pl (xf), 1.3, xf);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 1 } } */
/* { dg-final { nf-report-regions Log1p 1 } } */
/* { dg-final { nf-report-scan {"line": 18} 1 } } */
