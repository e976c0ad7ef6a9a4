/* Area: nf-scalar, the function the rewrite would call.
   Purpose: a fallback expm1 and log1p of the program's own, written the
   naive way (as GSL's sys/expm1.c and sys/log1p.c are, for libms that
   lack them), are not rewritten into calls of themselves: that recursed
   forever (found by running the plugin over real code).  */
/* { dg-do run } */
#include "nf-test.h"

double
expm1 (double x)
{
  if (fabs (x) < 1e-5)
    return x + 0.5 * x * x;
  return exp (x) - 1.0; /* { dg-missed "Expm1: not rewritten: the unit defines the function the rewrite would call" } */
}

double
log1p (double x)
{
  return log (1.0 + x); /* { dg-missed "Log1p: not rewritten: the unit defines the function the rewrite would call" } */
}

double (*volatile exp_fp) (double) = exp;
double (*volatile log_fp) (double) = log;

int
main (void)
{
  static const double xs[] = { 0.5, -3.0, 1e-3, 7.0 };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      double x = xs[i];
      volatile double y = fabs (x); /* No 1 + y shared with log1p's.  */
      double a = expm1 (x), ea = exp_fp (x) - 1.0;
      double b = log1p (fabs (x)), eb = log_fp (1.0 + y);
      CHECK (memcmp (&a, &ea, sizeof a) == 0 || !NF_EXACT_ORIG);
      CHECK (memcmp (&b, &eb, sizeof b) == 0 || !NF_EXACT_ORIG);
      CHECK (fabs (a - ea) <= 1e-12 * fabs (ea));
      CHECK (fabs (b - eb) <= 1e-12 * fabs (eb));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 0 } } */
/* { dg-final { nf-report-regions Log1p 0 } } */
/* { dg-final { nf-report-missed Expm1 "the function the rewrite would call" } } */
