/* Area: nf-loop, RMSNorm of a computed value (issue 15).
   Purpose: the RMSNorm of a residual sum, v = x[j] + r[j] normalised
   (summed, then scaled as x[j] + r[j] again): the idiom, over a value no
   kernel takes yet.  It used to be reported as "the weight is not
   indexed like x"; now the loops stay, with their own results, and the
   reason names the guard.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
residual_rmsnorm (float *o, const float *x, const float *r, const float *w,
		  int n)
{
  float ss = 0;
  for (int j = 0; j < n; j++) { float v = x[j] + r[j]; ss += v * v; } /* { dg-missed "RMSNorm: not rewritten: the normalised value is computed in the loop, not read from an array \\(no kernel takes it\\)" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * (x[j] + r[j]));
}

static float x[NF_LOOP_MAX], r[NF_LOOP_MAX], w[NF_LOOP_MAX], o[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, r, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 3, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      residual_rmsnorm (o, x, r, w, n);
      long double ss = 0;
      for (int j = 0; j < n; j++)
	ss += ((long double) x[j] + r[j]) * ((long double) x[j] + r[j]);
      long double scale = 1 / sqrtl (ss / (n ? n : 1) + 1e-5L);
      for (int j = 0; j < n; j++)
	nf_loop_near ("residual_rmsnorm", j, o[j],
		      w[j] * scale * ((long double) x[j] + r[j]), 5e-4L, 4);
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-missed-count 1 } } */
/* { dg-final { nf-report-missed RMSNorm "normalised value is computed" } } */
