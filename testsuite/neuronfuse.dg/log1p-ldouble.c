/* Area: nf-scalar, Log1p, long double.
   Purpose: logl (1.0L + x) becomes log1pl (x), checked against MPFR.  */
/* { dg-do run } */
#include "nf-test.h"
#include <mpfr.h>

__attribute__ ((noipa)) long double
f (long double x)
{
  return logl (1.0L + x); /* { dg-optimized "Log1p: replaced logl \\(1 \\+ x\\) by log1pl \\(x\\)" } */
}

long double (*volatile logl_fp) (long double) = logl;

static long double
ref_log1p (long double x)
{
  mpfr_t m;
  mpfr_init2 (m, 160);
  mpfr_set_ld (m, x, MPFR_RNDN);
  mpfr_log1p (m, m, MPFR_RNDN);
  long double r = mpfr_get_ld (m, MPFR_RNDN);
  mpfr_clear (m);
  return r;
}

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
