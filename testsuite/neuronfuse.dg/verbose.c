/* Area: plugin arguments, verbose.
   Purpose: verbose gives a note for every decision (rewrite and miss),
   without -fopt-info.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-verbose" } */
#include <math.h>

double
f (double x)
{
  return exp (x) - 1.0; /* { dg-optimized "Expm1: replaced" } */
}
/* { dg-note "neuronfuse: Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" "" { target *-*-* } 11 } */

double
g (double x)
{
  double t = 1 + x;
  return log (t) * t; /* { dg-missed "Log1p: not rewritten" } */
}
/* { dg-note "neuronfuse: Log1p: not rewritten: the argument 1 \\+ x of log is also used elsewhere" "" { target *-*-* } 19 } */

/* { dg-final { nf-report-regions Expm1 1 } } */
/* { dg-final { nf-report-missed Log1p "also used elsewhere" } } */
