/* Area: nf-loop, no candidate.
   Purpose: the root of a dot product, sqrtf (sum x[i] * y[i]), is no
   norm (the two factors differ) and no near miss of one either: the loop
   stays, with no region and no missed entry (issue 15: one missed line
   per dot product or matmul is noise).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
dotroot (const float *x, const float *y, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return sqrtf (s);
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  /* Positive factors: the sum has a root.  */
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 1);
  NF_LOOP_FILL (float, y, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      long double s = 0;
      for (size_t i = 0; i < n; i++)
	s += (long double) x[i] * y[i];
      nf_loop_near ("dotroot", n, dotroot (x, y, n), sqrtl (s), 1e-5L,
		    sqrtl (s));
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
