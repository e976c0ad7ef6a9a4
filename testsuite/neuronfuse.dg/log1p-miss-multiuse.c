/* Area: nf-scalar, Log1p guards.
   Purpose: when 1 + x is used besides log (1 + x), the program relies on
   the rounded sum: untouched, reported.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  double t = 1 + x;
  return log (t) * t; /* { dg-missed "Log1p: not rewritten: the argument 1 \\+ x of log is also used elsewhere" } */
}

double (*volatile log_fp) (double) = log;

int
main (void)
{
  double x = 3e-9, a = f (x), t = 1 + x, r = log_fp (t) * t;
  CHECK (memcmp (&a, &r, sizeof a) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Log1p 0 } } */
/* { dg-final { nf-report-missed Log1p "also used elsewhere" } } */
