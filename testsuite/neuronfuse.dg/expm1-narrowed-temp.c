/* Area: nf-scalar, Expm1, a double exp narrowed into a float.
   Purpose: float e = exp (x); e - 1 with x a float is (float) exp
   ((double) x) - 1.0f.  Under -ffast-math GCC folds the narrowing into
   expf (x) (-funsafe-math-optimizations, no math errno), and the
   rewrite is nf_expm1f (x) (neuronfuse-clang writes expm1f (x): the
   same fold, made in the source); exact to do, the narrowing only
   rounded exp's value.  Elsewhere the exp stays double and its
   narrowing is no widening the matcher looks through: no rewrite and
   no missed entry, from either front end.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) float
f (float x)
{
  float e = exp (x);
  return e - 1; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f_fast \\(x\\)" "" { flags {fast-math} } } */
}

double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  static const float xs[] = { 1e-7f, -1e-7f, 3e-4f, -2.5e-3f, 0.5f, -0.5f,
			      2.0f, 15.0f, -20.0f, 0.0f, -0.0f };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      float x = xs[i], e = (float) exp_fp (x), orig = e - 1.0f;
      /* nf_expm1f_fast: 1 ulp; glibc's expm1f (the tool's): 0.81.  */
      NF_CHECK_REWRITE (NF_ULPS_F, f (x), orig, expm1l (x), 1.0, x);
    }
  NF_DONE ();
}

/* { dg-final { nf-if-flags {fast-math} { nf-report-region Expm1 f 17 } } } */
/* { dg-final { nf-if-flags {^(?!.*fast-math)} { nf-report-regions Expm1 0 } } } */
/* { dg-final { nf-report-missed-count 0 } } */
