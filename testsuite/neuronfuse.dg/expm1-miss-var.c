/* Area: nf-scalar, not Expm1.
   Purpose: exp (x) - y is untouched even when y is 1 at run time, and
   not reported: only exp (x) - 1 itself is the idiom (issue 15).  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x, double y)
{
  return exp (x) - y;
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  double x = 1e-10, a = f (x, 1.0), e = exp_fp (x) - 1.0;
  CHECK (memcmp (&a, &e, sizeof a) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
