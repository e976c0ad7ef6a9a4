/* Area: nf-loop, Log1p, elementwise double loop.
   Purpose: y[i] = log (1 + x[i]), which the scalar pass rewrites to
   log1p (x[i]) + 0.0, is one call at every flag set: to nf_log1p_pz_f64,
   which keeps the loop's +0 for x = -0 (log1p gives -0), where signed
   zeros matter, to nf_log1p_f64 under -ffast-math (no fast double
   kernel).  In place (y == x) too.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
f (double *y, const double *x, int n)
{
  for (int i = 0; i < n; i++) y[i] = log (1.0 + x[i]); /* { dg-optimized "Log1p: loop outlined into a call to nf_log1p_pz_f64" "" { flags {^(?!.*(fast-math|Ofast))} } } */
  /* { dg-optimized "Log1p: loop outlined into a call to nf_log1p_f64" "" { flags {fast-math|Ofast} } 13 } */
}
/* { dg-prune-output "Log1p: replaced log" } */

double (*volatile log_fp) (double) = log;
/* Within 4 ulps of O, relative, or of 1 for |O| < 1.  */
static int
nf_near_d (double got, double o)
{
  return fabs (got - o) <= 4 * DBL_EPSILON * fmax (1, fabs (o));
}

static double x[NF_LOOP_MAX], y[NF_LOOP_MAX + 1], z[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  for (int i = 0; i < NF_LOOP_MAX; i++)
    x[i] = i % 2 ? -ldexp (1 + i % 97, i % 20 - 30)
		 : ldexp (1 + i % 97, i % 30 - 30);
  x[3] = -0.0, x[4] = 0.0;
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
	    CHECK (NF_ULPS_D (y[i], log1pl (x[i])) <= 1);
	    /* NF_SIGNED_ZEROS: -ffast-math as the unit started (the O0 pragma
	       below undefines __FAST_MATH__ under -Ofast).  */
	    if (NF_SIGNED_ZEROS && x[i] == 0)
	      CHECK (!signbit (y[i]));
	  }
	else /* -ffast-math may vectorize log: then not bit for bit.  */
	  CHECK (nf_near_d (y[i], log_fp (1.0 + x[i])));
      CHECK (y[n] == (double) NF_LOOP_SENTINEL);
      /* In place.  */
      memcpy (z, x, n * sizeof *z);
      NF_FUSED (f (z, z, n));
      for (size_t i = 0; i < n; i++)
	CHECK (NF_PLUGIN ? NF_ULPS_D (z[i], log1pl (x[i])) <= 1
			 : nf_near_d (z[i], log_fp (1.0 + x[i])));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region Log1p f 13 outlined } } */
/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-scan {"callee": "nf_log1p_f64"} 1 } } } */
/* { dg-final { nf-if-flags {^(?!.*(fast-math|Ofast))} { nf-report-scan {"callee": "nf_log1p_pz_f64"} 1 } } } */
