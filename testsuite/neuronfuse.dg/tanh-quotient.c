/* Area: nf-scalar, Expm1, the tanh quotient.
   Purpose: (exp (a) - 1) / (exp (a) + 1), with two exps of the same a
   (as written, before FRE merges them) or one, becomes t / (t + 2) with
   t = expm1 (a): one call, where rewriting the numerator alone would
   leave expm1 (a) and exp (a).  Exps of two different arguments are no
   quotient: only the numerator is the idiom.  Accuracy: within 2.5 ulps
   (t within 0.5 ulp, then two roundings; 2.496 measured over 1.4e9
   floats) where the original cancels near 0; NaN where both exps
   overflow, as the original.  */
/* { dg-do run } */
#include "nf-test.h"

__attribute__ ((noipa)) float
f (float x)
{
  return (expf (2 * x) - 1) / (expf (2 * x) + 1); /* { dg-optimized "Expm1: replaced \\(expf \\(x\\) - 1\\) / \\(expf \\(x\\) \\+ 1\\) by t / \\(t \\+ 2\\), t = nf_expm1f(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  float e = expf (x);
  return (e - 1) / (e + 1); /* { dg-optimized "Expm1: replaced \\(expf \\(x\\) - 1\\) / \\(expf \\(x\\) \\+ 1\\) by t / \\(t \\+ 2\\), t = nf_expm1f(_fast)? \\(x\\)" } */
}

__attribute__ ((noipa)) double
h (double x)
{
  return (exp (x) - 1.0) / (exp (x) + 1.0); /* { dg-optimized "Expm1: replaced \\(exp \\(x\\) - 1\\) / \\(exp \\(x\\) \\+ 1\\) by t / \\(t \\+ 2\\), t = expm1 \\(x\\)" } */
}

__attribute__ ((noipa)) float
k (float x, float y)
{
  return (expf (x) - 1) / (expf (y) + 1); /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

float (*volatile expf_fp) (float) = expf;
double (*volatile exp_fp) (double) = exp;

int
main (void)
{
  static const float xs[] = { 1e-7f, -1e-7f, 1e-20f, 3e-4f, -2.5e-3f, 0.5f,
			      -0.5f, 2.0f, 9.0f, -9.0f, 30.0f, 50.0f, -50.0f,
			      0.0f, -0.0f };
  for (size_t i = 0; i < NF_N (xs); i++)
    {
      float x = xs[i];
      float e2 = expf_fp (2 * x), e = expf_fp (x), ey = expf_fp (0.5f);
      float of = (e2 - 1) / (e2 + 1), og = (e - 1) / (e + 1);
      float ok = (e - 1) / (ey + 1);
      double ed = exp_fp (x), oh = (ed - 1.0) / (ed + 1.0);
      /* t / (t + 2): t within 0.5 ulp, then two roundings.  */
      NF_CHECK_REWRITE (NF_ULPS_F, f (x), of, tanhl (x), 2.5, x);
      NF_CHECK_REWRITE (NF_ULPS_F, g (x), og, tanhl (x / 2.0L), 2.5, x);
      NF_CHECK_REWRITE (NF_ULPS_D, h (x), oh, tanhl (x / 2.0L), 2.5, x);
      NF_CHECK_REWRITE (NF_ULPS_F, k (x, 0.5f), ok,
			expm1l (x) / (expl (0.5L) + 1), 2.0, x);
    }
  /* Near 0 the original cancels: tanh (1e-7) is not 0.  */
  volatile float tiny = 1e-7f;
  if (NF_PLUGIN)
    CHECK (NF_ULPS_F (f (tiny), tanhl (tiny)) <= 2);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Expm1 4 } } */
/* { dg-final { nf-report-region Expm1 g 23 } } */
