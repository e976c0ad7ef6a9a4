/* Area: nf-scalar, Log1p, float.
   Purpose: logf (1 + x) (integer literal converted by the front end) and
   logf (x + 1.0f) become nf_log1pf (x) (nf_log1pf_fast under
   -ffast-math: libneuronfuse's, as fast as logf); log (1 + xf) with a float xf, where
   C adds in float and widens, becomes log1p ((double) xf).  */
/* { dg-do run } */
#include "nf-test.h"

/* The plugin's nf_* functions are within 0.5 ulp (the fast ones 1);
   neuronfuse-clang's rewrite of this file calls glibc's log1pf (1.29 ulp).  */
#define NF_F_ULPS 1.3

__attribute__ ((noipa)) float
f (float x)
{
  return logf (1 + x); /* { dg-optimized "Log1p: replaced logf \\(1 \\+ x\\) by nf_log1pf(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  return logf (x + 1.0f); /* { dg-optimized "Log1p: replaced logf \\(1 \\+ x\\) by nf_log1pf(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) double
h (float x)
{
  return log (1 + x); /* { dg-optimized "Log1p: replaced log \\(1 \\+ x\\) by log1p \\(x\\)" } */
}

float (*volatile logf_fp) (float) = logf;
double (*volatile log_fp) (double) = log;

int
main (void)
{
  static const float xs[] = { 1e-7f, -1e-7f, 1e-30f, 0x1p-149f, 3e-4f,
			      -0.5f, 0.5f,   2.0f,   1e30f,     0.0f, -0.0f };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      float x = xs[i], orig = logf_fp (1 + x);
      float got = f (x), got2 = g (x);
      /* nf_log1pf: 0.5 ulp + 2^-29; the fast one 1 ulp (glibc 2.36's
	 log1pf is up to 1.29 ulp off: notes/runtime-facts.md).  */
      NF_CHECK_REWRITE (NF_ULPS_F, got, orig, log1pl (x), NF_F_ULPS, x);
      NF_CHECK_REWRITE (NF_ULPS_F, got2, orig, log1pl (x), NF_F_ULPS, x);
      double got3 = h (x), orig3 = log_fp (1 + x);
      NF_CHECK_REWRITE (NF_ULPS_D, got3, orig3, log1pl (x), 1.0, x);
    }
  volatile float tiny = 1e-7f;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_F (f (tiny), log1pl (tiny)) <= 1.3);
  else
    CHECK (NF_ULPS_F (f (tiny), log1pl (tiny)) > 10);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Log1p 3 } } */
