/* Area: nf-loop, Elementwise: loop bodies around expm1 and log1p as one
   nf_elementwise program.
   Purpose: the activations of real code beyond ELU and SELU (PyTorch's
   softplus with its threshold, CELU through fmaxf/fminf and a division
   by alpha, log-sigmoid, darknet's SELU in double, a body reading two
   arrays, ELU in place) are each one call.  Results: within a few ulps
   of a long double reference and no worse than the plain loop; the
   arithmetic arm of a select bit-identical to the same arithmetic done
   at -O0 (the program does the loop's operations in its order and
   types, without contraction) where the options keep ISO C
   evaluation.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
softplus_thr (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = x[i] > 20.0f ? x[i] : logf (expf (x[i]) + 1.0f); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

__attribute__ ((noipa)) void
celu (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++) y[i] = fmaxf (0.0f, x[i]) + fminf (0.0f, alpha * (expf (x[i] / alpha) - 1.0f)); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

__attribute__ ((noipa)) void
logsigmoid (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = -logf (1.0f + expf (-x[i])); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

static inline float
selu_activate (float x)
{
  return (x >= 0) * 1.0507 * x + (x < 0) * 1.0507 * 1.6732 * (exp (x) - 1);
}

__attribute__ ((noipa)) void
selu_darknet (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = selu_activate (x[i]); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

__attribute__ ((noipa)) void
two_inputs (float *y, const float *x, const float *w, int n, float a)
{
  for (int i = 0; i < n; i++) y[i] = x[i] * w[i] + a * (expf (w[i]) - 1.0f); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

/* The arithmetic arm, for inputs below 100.  */
__attribute__ ((noipa)) void
arith_arm (float *y, const float *x, int n, float a, float b)
{
  for (int i = 0; i < n; i++) y[i] = x[i] > 100.0f ? expf (x[i]) - 1.0f : (x[i] * a - b) / 3.0f + fminf (x[i], b); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

__attribute__ ((noipa)) void
elu_inplace (float *x, int n)
{
  for (int i = 0; i < n; i++) x[i] = x[i] > 0 ? x[i] : 0.5f * (expf (x[i]) - 1.0f); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" } */
}

/* ggml's unary ops: the op is a function the loop's helper calls
   through a pointer, known only after inlining (nf-loop, not
   nf-early-loop: its expf is still libm's and calls nf_expf then).  At
   -O1 GCC does not inline through the pointer.  */
static inline float
op_softplus (float v)
{
  return v > 20.0f ? v : logf (1.0f + expf (v));
}

static inline void
vec_unary_op (int n, float *y, const float *x, float (*op) (float))
{
  for (int i = 0; i < n; i++) y[i] = op (x[i]); /* { dg-optimized "Elementwise: loop outlined into a call to nf_elementwise" "" { flags {^(?!-O1)} } } */
}

__attribute__ ((noipa)) void
softplus_ggml (float *y, const float *x, int n)
{
  vec_unary_op (n, y, x, op_softplus);
}

/* { dg-prune-output "Expm1: replaced|Log1p: replaced|Elementwise: expf" } */
/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */
/* { dg-final { nf-if-flags {^(?!-O1)} { nf-report-regions Elementwise 8 } } } */
/* { dg-final { nf-if-flags {^-O1} { nf-report-regions Elementwise 7 } } } */

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1],
  z[NF_LOOP_MAX + 1];

/* The references: not optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

static float (*volatile expf_fp) (float) = expf;
static float (*volatile logf_fp) (float) = logf;
static double (*volatile exp_fp) (double) = exp;

/* With the plugin: within BOUND ulps of REF, or no worse than the plain
   loop's ORIG.  Without: near ORIG (-ffast-math vectorizes expf through
   libmvec, up to 4 ulps off glibc's).  */
static int
nf_ok (float got, float orig, long double ref, double bound)
{
  if (got == orig || (isnan (got) && isnan (orig)))
    return 1;
  if (!NF_PLUGIN)
    return fabsf (got - orig) <= 8 * FLT_EPSILON * fmaxf (1, fabsf (orig));
  long double eg = NF_ULPS_F (got, ref), eo = NF_ULPS_F (orig, ref);
  return eg <= bound || eg <= eo || fabsl (got - ref) <= 0x1p-24L;
}

static long double
softplus_ref (long double v)
{
  return v > 20 ? v : log1pl (expl (v));
}

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 5, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 6, 0);
  x[0] = -0.0f, x[1] = 0.0f, x[2] = 1e-7f, x[5] = -1e-7f, x[6] = -30.0f;
  x[7] = 25.0f, x[8] = -90.0f, x[9] = 1e-30f;
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      softplus_thr (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = x[i] > 20.0f ? x[i] : logf_fp (expf_fp (x[i]) + 1.0f);
	  CHECK (nf_ok (y[i], o, softplus_ref (x[i]), 3));
	}
      softplus_ggml (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = x[i] > 20.0f ? x[i] : logf_fp (expf_fp (x[i]) + 1.0f);
	  CHECK (nf_ok (y[i], o, softplus_ref (x[i]), 3));
	}
      celu (y, x, n, 0.75f);
      for (size_t i = 0; i < n; i++)
	{
	  float o = fmaxf (0.0f, x[i])
		    + fminf (0.0f, 0.75f * (expf_fp (x[i] / 0.75f) - 1.0f));
	  long double r = fmaxl (0, x[i])
			  + fminl (0, 0.75L * expm1l ((float) (x[i] / 0.75f)));
	  CHECK (nf_ok (y[i], o, r, 3));
	}
      logsigmoid (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = -logf_fp (1.0f + expf_fp (-x[i]));
	  CHECK (nf_ok (y[i], o, -log1pl (expl (-x[i])), 3));
	}
      selu_darknet (y, x, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = (x[i] >= 0) * 1.0507 * x[i]
		    + (x[i] < 0) * 1.0507 * 1.6732 * (exp_fp (x[i]) - 1);
	  long double r = x[i] >= 0 ? 1.0507L * x[i]
				    : 1.0507L * 1.6732L * expm1l (x[i]);
	  CHECK (nf_ok (y[i], o, r, 2));
	}
      two_inputs (y, x, w, n, 0.25f);
      for (size_t i = 0; i < n; i++)
	{
	  float o = x[i] * w[i] + 0.25f * (expf_fp (w[i]) - 1.0f);
	  long double p = (long double) x[i] * w[i], e = 0.25L * expm1l (w[i]);
	  /* The sum may cancel: the bound is on the terms' scale.  */
	  CHECK (nf_ok (y[i], o, p + e, 4)
		 || fabsl (y[i] - (p + e)) <= 4 * FLT_EPSILON * (fabsl (p)
								 + fabsl (e)));
	}
      arith_arm (y, x, n, 1.5f, 0.25f);
      for (size_t i = 0; i < n; i++)
	{
	  float o = (x[i] * 1.5f - 0.25f) / 3.0f + fminf (x[i], 0.25f);
	  /* Without the plugin GCC may contract x * a - b into an FMA
	     (-march=native); the program never does.  */
#if defined __FAST_MATH__ || !NF_SIGNED_ZEROS
	  CHECK (fabsf (y[i] - o) <= 4 * FLT_EPSILON * fmaxf (1, fabsf (o)));
#else
	  CHECK (NF_PLUGIN ? y[i] == o || (y[i] == 0 && o == 0)
			   : fabsf (y[i] - o)
				 <= 4 * FLT_EPSILON * fmaxf (1, fabsf (o)));
#endif
	}
      for (size_t i = 0; i < n; i++)
	z[i] = x[i];
      z[n] = NF_LOOP_SENTINEL;
      elu_inplace (z, n);
      for (size_t i = 0; i < n; i++)
	{
	  float o = x[i] > 0 ? x[i] : 0.5f * (expf_fp (x[i]) - 1.0f);
	  CHECK (nf_ok (z[i], o, x[i] > 0 ? x[i] : 0.5L * expm1l (x[i]), 2));
	}
      CHECK (y[n] == NF_LOOP_SENTINEL && z[n] == NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}
