/* Area: plugin arguments, mode=report.
   Purpose: the idioms are found and reported ("reported"), and the code
   is left exactly as without the plugin.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-mode=report" } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 1.0;
}

__attribute__ ((noipa)) float
g (float x)
{
  return logf (1 + x);
}

double (*volatile exp_fp) (double) = exp;
float (*volatile logf_fp) (float) = logf;

int
main (void)
{
  double x = 1e-10, a = f (x), ea = exp_fp (x) - 1.0;
  float xf = 1e-7f, b = g (xf), eb = logf_fp (1 + xf);
  CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
  CHECK (memcmp (&b, &eb, sizeof b) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 1 } } */
/* { dg-final { nf-report-regions Log1p 1 } } */
/* { dg-final { nf-report-region Expm1 f 11 reported } } */
/* { dg-final { nf-report-region Log1p g 17 reported } } */
/* { dg-final { nf-asm-identical } } */
