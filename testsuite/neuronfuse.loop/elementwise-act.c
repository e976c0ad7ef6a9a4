/* Area: nf-loop, Elementwise: activations around the Expm1 idiom.
   Purpose: ELU (a run-time alpha, the call under the condition) and SELU
   in darknet's form with float constants (branch-free) become one call of
   nf_elementwise each: the scalar rewrite calls nf_expm1f, nf-loop makes
   ELU's call unconditional and its condition a select, and the body is
   one program (match-ew.c).  Results: each element within 2 ulps of a
   long double reference, and no worse than the plain loop's.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
elu (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * (expf (x[i]) - 1.0f); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

__attribute__ ((noipa)) void
selu (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = (x[i] >= 0) * 1.0507f * x[i] + (x[i] < 0) * 1.0507f * 1.6732f * (expf (x[i]) - 1); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

/* { dg-prune-output "Expm1: replaced" } */
/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX];

/* The references: not optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

static long double
nf_elu_ref (long double x, long double alpha)
{
  return x > 0 ? x : alpha * expm1l (x);
}

static long double
nf_selu_ref (long double x)
{
  return x >= 0 ? 1.0507f * x : (long double) (1.0507f * 1.6732f) * expm1l (x);
}

/* With the plugin: within BOUND ulps of REF, or no worse than the plain
   loop's ORIG.  Without: near ORIG (-ffast-math vectorizes expf through
   libmvec, up to 4 ulps off glibc's).  */
static int
nf_ok (float got, float orig, long double ref, double bound)
{
  if (!NF_PLUGIN)
    return fabsf (got - orig) <= 8 * FLT_EPSILON * fmaxf (1, fabsf (orig));
  long double eg = NF_ULPS_F (got, ref), eo = NF_ULPS_F (orig, ref);
  return eg <= bound || eg <= eo || fabsl (got - ref) <= 0x1p-24L;
}

float (*volatile expf_fp) (float) = expf;

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 3, 0);
  x[0] = -0.0f, x[1] = 0.0f, x[2] = 1e-7f, x[5] = -1e-7f, x[6] = -30.0f;
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      elu (y, x, n, 0.75f);
      for (size_t i = 0; i < n; i++)
	{
	  float o = x[i] > 0 ? x[i] : 0.75f * (expf_fp (x[i]) - 1.0f);
	  CHECK (nf_ok (y[i], o, nf_elu_ref (x[i], 0.75L), 2));
	}
      selu (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = (x[i] >= 0) * 1.0507f * x[i]
		    + (x[i] < 0) * 1.0507f * 1.6732f * (expf_fp (x[i]) - 1);
	  CHECK (nf_ok (y[i], o, nf_selu_ref (x[i]), 3));
	}
    }
  NF_DONE ();
}
