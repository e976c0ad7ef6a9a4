/* Area: nf-scalar, Expm1, report names (issue 20).
   Purpose: a result that no variable holds and nothing stores, returned
   as it is computed, is named in the report by the expression that
   computes it (as neuronfuse-clang names it), never by GCC's SSA name
   ("_5"); the argument by its variable.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) float
f (float x)
{
  return expf (x) - 1.0f; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

float (*volatile expf_fp) (float) = expf;

int
main (void)
{
  static const float xs[] = { 1e-7f, -3e-4f, 0.5f, -2.0f, 0.0f };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      float x = xs[i], got = f (x), orig = expf_fp (x) - 1.0f;
      NF_CHECK_REWRITE (NF_ULPS_F, got, orig, expm1l (x), 1.0, x);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region Expm1 f 12 } } */
/* { dg-final { nf-report-scan {"live_ins": \[\s*"x"\s*\]} 1 } } */
/* { dg-final { nf-report-scan {"live_outs": \[\s*"expf \(x\) - 1.0f"\s*\]} 1 } } */
