/* Area: plugin arguments, kinds=.
   Purpose: kinds=Log1p rewrites log (1 + x) and leaves exp (x) - 1 alone,
   without reporting it as missed.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-kinds=Log1p" } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 1.0;
}

__attribute__ ((noipa)) double
g (double x)
{
  return log (1 + x); /* { dg-optimized "Log1p: replaced log \\(1 \\+ x\\) by log1p \\(x\\)" } */
}

double (*volatile exp_fp) (double) = exp;
double (*volatile log_fp) (double) = log;

int
main (void)
{
  double x = 1e-10, a = f (x), ea = exp_fp (x) - 1.0;
  CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
  NF_CHECK_REWRITE (NF_ULPS_D, g (x), log_fp (1 + x), log1pl (x), 1.0, x);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 0 } } */
/* { dg-final { nf-report-regions Log1p 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
