/* Area: nf-scalar, not Log1p.
   Purpose: log (2 + x) and logf (1.5f + x) are untouched and, being no
   near miss of log1p (issue 15: on real code, log (v + eps) made such
   entries noise), not reported.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return log (2 + x);
}

__attribute__ ((noipa)) float
g (float x)
{
  return logf (1.5f + x);
}

double (*volatile log_fp) (double) = log;
float (*volatile logf_fp) (float) = logf;

int
main (void)
{
  double x = 1e-10, a = f (x), ea = log_fp (2 + x);
  float xf = 1e-7f, b = g (xf), eb = logf_fp (1.5f + xf);
  CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
  CHECK (memcmp (&b, &eb, sizeof b) == 0 || !NF_EXACT_ORIG);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Log1p 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
