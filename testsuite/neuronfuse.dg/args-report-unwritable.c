/* Area: plugin arguments.
   Purpose: a report path that cannot be written is a clear error of the
   compilation, never a crash or a silently missing report.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-report=/nonexistent-dir/r.json" } */
/* { dg-error "cannot write neuronfuse report '/nonexistent-dir/r.json': No such file or directory" "" { target *-*-* } 0 } */
#include <math.h>
double
f (double x)
{
  return exp (x) - 1; /* { dg-optimized "Expm1: replaced" } */
}
