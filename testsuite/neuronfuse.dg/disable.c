/* Area: plugin arguments, disable.
   Purpose: a disabled plugin changes nothing.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-disable" } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 1.0;
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  double x = 1e-10, a = f (x), ea = exp_fp (x) - 1.0;
  CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-asm-identical } } */
