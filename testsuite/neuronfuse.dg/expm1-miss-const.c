/* Area: nf-scalar, not Expm1.
   Purpose: exp (x) - 2, exp (x) + 0.5, 2 - exp (x) and a sigmoid's
   1 + exp (-x) are not exp (x) - 1 and no near miss of it: untouched and
   not reported (issue 15: on real code such entries were noise, one per
   sigmoid).  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 2;
}

__attribute__ ((noipa)) double
g (double x)
{
  return exp (x) + 0.5;
}

__attribute__ ((noipa)) float
sigmoid (float x)
{
  return 1.0f / (1.0f + expf (-x));
}

__attribute__ ((noipa)) double
h (double x)
{
  return 2.0 - exp (x);
}

double (*volatile exp_fp) (double) = exp;
float (*volatile expf_fp) (float) = expf;

int
main (void)
{
  static const double xs[] = { 1e-10, 0.5, -3.0, 0.0, -0.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i];
      double a = f (x), b = g (x), c = h (x);
      double ea = exp_fp (x) - 2, eb = exp_fp (x) + 0.5, ec = 2.0 - exp_fp (x);
      float s = sigmoid ((float) x), es = 1.0f / (1.0f + expf_fp (-(float) x));
      /* Untouched, so bit-identical with and without the plugin.  */
      CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
      CHECK (memcmp (&b, &eb, sizeof b) == 0 || !NF_EXACT_ORIG);
      CHECK (memcmp (&c, &ec, sizeof c) == 0 || !NF_EXACT_ORIG);
      CHECK (memcmp (&s, &es, sizeof s) == 0 || !NF_EXACT_ORIG);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
