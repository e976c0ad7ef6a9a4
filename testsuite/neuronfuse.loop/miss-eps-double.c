/* Area: nf-loop, RMSNorm near miss, eps type.
   Purpose: float data summed in a double with a double eps parameter:
   nf_rmsnorm_f32 takes eps as a float, and 1e-5 is not exact in float,
   so the call would change the result (by up to 0.3 ulp once eps
   dominates the mean, as here).  make check-fuzz found both tools
   narrowing it (seed 2, program 164); the loops stay, and say why.  A
   double eps exact in float (2^-17) still fuses.  */
/* { dg-do run } */
/* { dg-prune-output "(RMSNorm|MulRedSqrt): not rewritten" } */

#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n, double eps)
{
  double ss = 0;
  for (int j = 0; j < n; j++) ss += (double) x[j] * x[j]; /* { dg-missed "RMSNorm: not rewritten: eps is wider than float" } */ /* reason */
  double s = 1.0 / sqrt (ss / n + eps);
  for (int j = 0; j < n; j++) o[j] = x[j] * s * w[j];
}

__attribute__ ((noipa)) void
rmsnorm_exact (float *o, const float *x, const float *w, int n)
{
  double ss = 0;
  for (int j = 0; j < n; j++) ss += (double) x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  double s = 1.0 / sqrt (ss / n + 0x1p-17);
  for (int j = 0; j < n; j++) o[j] = x[j] * s * w[j];
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  /* Small values: the mean is far below eps.  */
  for (size_t j = 0; j < NF_LOOP_MAX; j++)
    x[j] = ldexpf (x[j], -30);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    for (int exact = 0; exact < 2; exact++)
      {
	size_t n = nf_loop_ns[k];
	long double eps = exact ? 0x1p-17 : 1e-5;
	memset (y, 0, sizeof y);
	y[n] = NF_LOOP_SENTINEL;
	if (exact)
	  rmsnorm_exact (y, x, w, n);
	else
	  rmsnorm (y, x, w, n, 1e-5);
	long double ss = 0;
	for (size_t j = 0; j < n; j++)
	  ss += (long double) x[j] * x[j];
	long double s = 1 / sqrtl (ss / n + eps);
	/* The loops round each output once from double: 0.5 ulp and a
	   little; so does the kernel, with the same eps.  */
	for (size_t j = 0; j < n; j++)
	  if (!nf_loop_near ("rmsnorm", j, NF_ULPS_F (y[j], x[j] * s * w[j]),
			     0, 0.501L, 1))
	    break;
	CHECK (y[n] == (float) NF_LOOP_SENTINEL);
      }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm_exact 26 outlined } } */
/* { dg-final { nf-report-missed RMSNorm "eps is wider than float" } } */ /* reason */
