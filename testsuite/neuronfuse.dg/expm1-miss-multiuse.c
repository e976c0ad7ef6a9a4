/* Area: nf-scalar, Expm1 guards.
   Purpose: when exp (x) is used besides exp (x) - 1, both values are
   needed: untouched, reported.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  double e = exp (x);
  return (e - 1.0) * e; /* { dg-missed "Expm1: not rewritten: the result of exp is also used elsewhere" } */
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  double x = 1e-10, a = f (x), e = exp_fp (x), r = (e - 1.0) * e;
  CHECK (memcmp (&a, &r, sizeof a) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 0 } } */
/* { dg-final { nf-report-missed Expm1 "also used elsewhere" } } */
