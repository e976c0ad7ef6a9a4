/* Area: nf-loop, Elementwise: tanh written with exp, in a loop.
   Purpose: y[i] = (expf (2 x[i]) - 1) / (expf (2 x[i]) + 1), whose two
   exps GCC would compute once, becomes t / (t + 2) with t = nf_expm1f
   (2 x[i]) (one call), and the loop becomes one call of nf_elementwise
   (its body one program).  Accuracy: within 2.5 ulps of tanh (x) (measured over 1.4e9
   floats, nf_expm1f within 0.5 ulp and two roundings), where the
   original loses every digit near 0; the original can also be off by
   about 2 ulps for x < 0, so the check is the bound, not a comparison
   element by element.  Under -ffast-math t is the fast nf_expm1f_fast
   (1 ulp), so the bound is 4.5 ulps (the plain -ffast-math loop calls
   libmvec's expf, up to 4 ulps off).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
tanh_exp (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = (expf (2 * x[i]) - 1) / (expf (2 * x[i]) + 1); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}
/* { dg-optimized "Expm1: replaced \\(expf \\(x\\) - 1\\) / \\(expf \\(x\\) \\+ 1\\) by t / \\(t \\+ 2\\)" "" { target *-*-* } 18 } */
/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */

#ifdef __FAST_MATH__
#define NF_TANH_ULPS 4.5
#else
#define NF_TANH_ULPS 2.5
#endif

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX];

/* The references: not optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

float (*volatile expf_fp) (float) = expf;
static double nf_worst;

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 5, 0);
  x[0] = -0.0f, x[1] = 0.0f, x[2] = 1e-7f, x[5] = -1e-7f, x[6] = -30.0f;
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      tanh_exp (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float e = expf_fp (2 * x[i]), o = (e - 1) / (e + 1);
	  long double r = tanhl (x[i]);
	  if (NF_PLUGIN)
	    {
	      CHECK (NF_ULPS_F (y[i], r) <= NF_TANH_ULPS);
	      /* NF_SIGNED_ZEROS: -ffast-math as the unit started (the O0 pragma
	         below undefines __FAST_MATH__ under -Ofast).  */
	      if (NF_SIGNED_ZEROS && x[i] == 0)
		CHECK (!signbit (y[i]));
	    }
	  else
	    CHECK (fabsf (y[i] - o) <= 8 * FLT_EPSILON);
	  if (NF_PLUGIN && NF_ULPS_F (y[i], r) > nf_worst)
	    nf_worst = NF_ULPS_F (y[i], r);
	}
    }
  printf ("worst %.3f ulp\n", nf_worst);
  NF_DONE ();
}

/* { dg-final { nf-report-region Expm1 tanh_exp 18 } } */
/* { dg-final { nf-report-region Elementwise tanh_exp 18 outlined } } */
