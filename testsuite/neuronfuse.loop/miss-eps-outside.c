/* Area: nf-loop, RMSNorm near miss.
   Purpose: eps added to the root instead of under it,
   1 / (sqrtf (ss / n) + eps): another function, the loops stay.  */
/* { dg-do run } */
/* { dg-prune-output "(RMSNorm|MulRedSqrt): not rewritten" } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-missed "RMSNorm: not rewritten: .*outside the sqrt" } */ /* reason */
  ss = 1.0f / (sqrtf (ss / n) + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
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
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      rmsnorm (y, x, w, n);
      long double ss = 0;
      for (size_t j = 0; j < n; j++)
	ss += (long double) x[j] * x[j];
      long double s = 1 / (sqrtl (ss / n) + 1e-5f);
      for (size_t j = 0; j < n; j++)
	{
	  long double r = w[j] * (s * x[j]);
	  if (!nf_loop_near ("rmsnorm", j, y[j], r, 1e-5L, fabsl (r)))
	    break;
	}
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-missed RMSNorm "outside the sqrt" } } */ /* reason */
