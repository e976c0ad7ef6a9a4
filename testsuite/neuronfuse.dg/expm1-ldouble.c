/* Area: nf-scalar, Expm1, long double.
   Purpose: expl (x) - 1.0L becomes expm1l (x), checked against MPFR.  */
/* { dg-do run } */
#include "nf-test.h"
#include "nf-mpfr.h"

__attribute__ ((noipa)) long double
f (long double x)
{
  return expl (x) - 1.0L; /* { dg-optimized "Expm1: replaced expl \\(x\\) - 1 by expm1l \\(x\\)" } */
}

long double (*volatile expl_fp) (long double) = expl;

#define ref_expm1(x) nf_mpfr_ref (mpfr_expm1, (x), 64)

int
main (void)
{
  /* Under -ffast-math GCC expands expl/expm1l inline with x87 code that
     is ~1000 ulp off for x of several thousands: not ours to test.  */
  static const long double xs[] = { 1e-15L, -1e-15L, 1e-4000L, 3e-8L, 0.5L,
				    -0.5L, 2.0L, -50.0L, 0.0L,
#if NF_SPECIALS
				    11000.0L
#endif
  };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      long double x = xs[i], got = f (x), orig = expl_fp (x) - 1.0L;
      /* glibc's x87 expm1l is within a few ulp; allow 3.  */
      NF_CHECK_REWRITE (NF_ULPS_LD, got, orig, ref_expm1 (x), 3.0, x);
    }
  volatile long double tiny = 1e-15L;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_LD (f (tiny), ref_expm1 (tiny)) <= 3);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 1 } } */
/* { dg-final { nf-report-region Expm1 f 10 } } */
