/* Area: nf-loop, Expm1, elementwise float loop.
   Purpose: y[i] = expf (x[i]) - 1, which the scalar pass rewrites to
   expm1f (x[i]), is one call to nf_expm1_f32 where signed zeros do not
   matter (-ffast-math); elsewhere the loop keeps the scalar rewrite's
   + 0.0 (+0 for x = -0, where expm1 gives -0) and the remark says why it
   stays a loop.  In place (y == x) too.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
f (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = expf (x[i]) - 1.0f; /* { dg-optimized "Expm1: loop outlined into a call to nf_expm1_f32" "" { flags {fast-math|Ofast} } } */
}
/* { dg-missed "Expm1: not rewritten: the loop gives \\+0 for x = -0" "" { flags {^(?!.*(fast-math|Ofast))} } 13 } */
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
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (f (y, x, n));
      CHECK (NF_PLUGIN || !fused);
      for (size_t i = 0; i < n; i++)
	if (NF_PLUGIN)
	  /* expm1f or the kernel: within 1 ulp.  */
	  CHECK (NF_ULPS_F (y[i], expm1l (x[i])) <= 1);
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

/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-region Expm1 f 13 outlined } } } */
/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-scan {"callee": "nf_expm1_f32"} 1 } } } */
/* { dg-final { nf-if-flags {^(?!.*(fast-math|Ofast))} { nf-report-missed Expm1 "gives \\\+0 for x = -0" } } } */
