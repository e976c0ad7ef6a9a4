/* Area: nf-loop, RMSNorm near miss.
   Purpose: a max-reduction of the squares instead of their sum:
   no candidate (a missed remark is allowed, not required), loops stay.  */
/* { dg-do run } */
/* { dg-prune-output "(RMSNorm|MulRedSqrt): not rewritten" } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float m = 0.0f;
  for (int j = 0; j < n; j++) m = fmaxf (m, x[j] * x[j]);
  m = 1.0f / sqrtf (m / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (m * x[j]);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The largest square of x[0..N-1].  */
static long double
nf_max_sq (size_t n)
{
  long double m = 0;
  for (size_t j = 0; j < n; j++)
    m = fmaxl (m, (long double) x[j] * x[j]);
  return m;
}

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
      long double s = 1 / sqrtl (nf_max_sq (n) / n + 1e-5f);
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
