/* Area: report, notes.
   Purpose: every region says in "notes" that its results change (more
   accurate, not bit-identical), and an Expm1 region under -fmath-errno
   also says what happens to errno.  */
/* { dg-do compile } */
#include <math.h>

double
f (double x)
{
  return exp (x) - 1.0; /* { dg-optimized "Expm1: replaced" } */
}

float
g (float x)
{
  return logf (1 + x); /* { dg-optimized "Log1p: replaced" } */
}

/* { dg-final { nf-report-scan {"more accurate, not bit-identical: expm1} 1 } } */
/* { dg-final { nf-report-scan {"more accurate, not bit-identical: log1p} 1 } } */
/* { dg-final { nf-report-scan {"errno: where exp \(x\) underflowed} [nf-math-errno] } } */
