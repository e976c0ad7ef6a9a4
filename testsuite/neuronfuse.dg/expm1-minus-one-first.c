/* Area: nf-scalar, Expm1.
   Purpose: -1 + exp (x) and -1.0f + expf (x) (the constant first) are the
   same idiom.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return -1 + exp (x); /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  return -1.0f + expf (x); /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

double (*volatile exp_fp) (double) = exp;
float (*volatile expf_fp) (float) = expf;

int
main (void)
{
  static const double xs[] = { 1e-12, -3e-9, 0.25, -7.0, 0.0, -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i], got = f (x), orig = -1 + exp_fp (x);
      float xf = (float) x, gotf = g (xf), origf = -1.0f + expf_fp (xf);
      NF_CHECK_REWRITE (NF_ULPS_D, got, orig, expm1l (x), 1.0, x);
      NF_CHECK_REWRITE (NF_ULPS_F, gotf, origf, expm1l (xf), 1.0, xf);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 2 } } */
