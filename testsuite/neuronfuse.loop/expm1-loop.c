/* Area: nf-loop, Expm1, elementwise float loop.
   Purpose: y[i] = expf (x[i]) - 1, which the scalar pass rewrites to
   nf_expm1f (x[i]) + 0.0f, is one call at every flag set: to
   nf_expm1_pz_f32, which keeps the loop's +0 for x = -0 (expm1 gives
   -0), where signed zeros matter, to the fast kernel nf_expm1_fast_f32
   under -ffast-math.  In place (y == x) too.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
f (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = expf (x[i]) - 1.0f; /* { dg-optimized "Expm1: loop outlined into a call to nf_expm1_pz_f32" "" { flags {^(?!.*(fast-math|Ofast))} } } */
  /* { dg-optimized "Expm1: loop outlined into a call to nf_expm1_fast_f32" "" { flags {fast-math|Ofast} } 13 } */
}
/* { dg-prune-output "Expm1: replaced expf" } */

float (*volatile expf_fp) (float) = expf;
/* Within 4 ulps of O, relative, or of 1 for |O| < 1.  */
static int
nf_near_f (float got, float o)
{
  return fabsf (got - o) <= 4 * FLT_EPSILON * fmaxf (1, fabsf (o));
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX + 1], z[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  for (int i = 0; i < NF_LOOP_MAX; i++)
    x[i] = ldexpf ((i % 2 ? -1 : 1) * (1 + i % 97), i % 30 - 30);
  x[3] = -0.0f, x[4] = 0.0f;
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (f (y, x, n));
      CHECK (NF_PLUGIN || !fused);
      for (size_t i = 0; i < n; i++)
	if (NF_PLUGIN)
	  {
	    /* The kernel: within 1 ulp; the original's +0 for x = -0.  */
	    CHECK (NF_ULPS_F (y[i], expm1l (x[i])) <= 1);
	    /* NF_SIGNED_ZEROS: -ffast-math as the unit started (the O0 pragma
	       below undefines __FAST_MATH__ under -Ofast).  */
	    if (NF_SIGNED_ZEROS && x[i] == 0)
	      CHECK (!signbit (y[i]));
	  }
	else /* -ffast-math may vectorize expf: then not bit for bit.  */
	  CHECK (nf_near_f (y[i], expf_fp (x[i]) - 1.0f));
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
      /* In place.  */
      memcpy (z, x, n * sizeof *z);
      NF_FUSED (f (z, z, n));
      for (size_t i = 0; i < n; i++)
	CHECK (NF_PLUGIN ? NF_ULPS_F (z[i], expm1l (x[i])) <= 1
			 : nf_near_f (z[i], expf_fp (x[i]) - 1.0f));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region Expm1 f 13 outlined } } */
/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-scan {"callee": "nf_expm1_fast_f32"} 1 } } } */
/* { dg-final { nf-if-flags {^(?!.*(fast-math|Ofast))} { nf-report-scan {"callee": "nf_expm1_pz_f32"} 1 } } } */
