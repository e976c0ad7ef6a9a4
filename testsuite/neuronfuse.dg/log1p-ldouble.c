/* Area: nf-scalar, Log1p, long double.
   Purpose: logl (1.0L + x) becomes log1pl (x), checked against MPFR.  */
/* { dg-do run } */
#include "nf-test.h"
#include "nf-mpfr.h"

__attribute__ ((noipa)) long double
f (long double x)
{
  return logl (1.0L + x); /* { dg-optimized "Log1p: replaced logl \\(1 \\+ x\\) by log1pl \\(x\\)" } */
}

long double (*volatile logl_fp) (long double) = logl;

#define ref_log1p(x) nf_mpfr_ref (mpfr_log1p, (x), 64)

int
main (void)
{
  static const long double xs[]
    = { 1e-15L, -1e-15L, 1e-4000L, 3e-8L, 0.5L, -0.5L, 2.0L, 1e4000L, 0.0L };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      long double x = xs[i], got = f (x), orig = logl_fp (1.0L + x);
      NF_CHECK_REWRITE (NF_ULPS_LD, got, orig, ref_log1p (x), 3.0, x);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Log1p 1 } } */
