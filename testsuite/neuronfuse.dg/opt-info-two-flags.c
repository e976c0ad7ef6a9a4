/* Area: remarks, -fopt-info.
   Purpose: -fopt-info-optimized -fopt-info-missed (two flags, which GCC
   allows and honours for its own passes) show both the plugin's
   optimized: and missed: remarks.  GCC hands a pass registered after
   the options were read, as a plugin's is, the last flag only, so the
   plugin applies them again (plugin.cc, nf_reapply_opt_info).  */
/* { dg-do compile } */
/* { dg-options "-fopt-info-optimized -fopt-info-missed" } */
#include <math.h>

double
f (double x)
{
  return exp (x) - 1.0; /* { dg-optimized "Expm1: replaced exp \\(x\\) - 1 by expm1 \\(x\\)" } */
}

double
g (double x)
{
  double t = 1 + x;
  return log (t) * t; /* { dg-missed "Log1p: not rewritten: the argument 1 \\+ x of log is also used elsewhere" } */
}

/* { dg-final { nf-report-regions Expm1 1 } } */
/* { dg-final { nf-report-missed Log1p "also used elsewhere" } } */
