/* Area: nf-scalar, Expm1, float.
   Purpose: expf (x) - 1.0f and expf (x) - 1 (the integer literal the
   front end converts) become nf_expm1f (x) (nf_expm1f_fast under
   -ffast-math: libneuronfuse's, as fast as expf); (double) expf (x) - 1.0
   becomes (double) nf_expm1f (x) through the exact widening.  */
/* { dg-do run } */
#include "nf-test.h"

/* The plugin's nf_* functions are within 0.5 ulp (the fast ones 1);
   neuronfuse-clang's rewrite of this file calls glibc's expm1f (0.81 ulp).  */
#define NF_F_ULPS 1.0

__attribute__ ((noipa)) float
f (float x)
{
  return expf (x) - 1.0f; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  return expf (x) - 1; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) double
h (float x)
{
  return expf (x) - 1.0; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

float (*volatile expf_fp) (float) = expf;

int
main (void)
{
  static const float xs[] = { 1e-7f, -1e-7f, 1e-30f, 0x1p-149f, 3e-4f,
			      -2.5e-3f, 0.5f, -0.5f, 2.0f, 15.0f, 17.0f,
			      80.0f, -80.0f, -20.0f, 0.0f, -0.0f };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      float x = xs[i];
      float got = f (x), got2 = g (x), orig = expf_fp (x) - 1.0f;
      double got3 = h (x), orig3 = (double) expf_fp (x) - 1.0;
      /* nf_expm1f: 0.5 ulp + 2^-29; the fast one 1 ulp (glibc 2.36's
	 expm1f: 0.81 ulp at worst, notes/runtime-facts.md).  */
      NF_CHECK_REWRITE (NF_ULPS_F, got, orig, expm1l (x), NF_F_ULPS, x);
      NF_CHECK_REWRITE (NF_ULPS_F, got2, orig, expm1l (x), NF_F_ULPS, x);
      /* h is a float result widened: float accuracy.  */
      NF_CHECK_REWRITE (NF_ULPS_F, got3, orig3, expm1l (x), NF_F_ULPS, x);
    }
  volatile float tiny = 1e-7f;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_F (f (tiny), expm1l (tiny)) <= 1);
  else
    CHECK (NF_ULPS_F (f (tiny), expm1l (tiny)) > 10);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 3 } } */
/* { dg-final { nf-report-region Expm1 h 28 } } */
