/* Area: nf-loop, MulRedSqrt and RMSNorm near misses, issue 15.
   Purpose: a sum of squares started from a small constant instead of 0
   (opus's stereo_itheta: Emid = EPSILON; Emid += m * m; sqrt (Emid)) is
   not the idiom, and its missed entry names the kind its use shows: the
   sum passed straight to sqrt is an L2 norm's near miss, also when the
   loop has a second sum and the sums are added too (stereo_itheta at
   -Ofast), the sum whose mean is taken RMSNorm's (the two matchers share
   the failed guard).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
energy (const float *x, int n)
{
  float e = 1e-15f;
  for (int i = 0; i < n; i++) e += x[i] * x[i]; /* { dg-missed "MulRedSqrt: not rewritten: the reduction does not start from 0" } */
  return sqrtf (e);
}

__attribute__ ((noipa)) float
stereo (const float *x, const float *y, int n)
{
  float em = 1e-15f, es = 1e-15f;
  for (int i = 0; i < n; i++) { float m = x[i] + y[i], s = x[i] - y[i]; em += m * m; es += s * s; } /* { dg-missed "MulRedSqrt: not rewritten: the reduction does not start from 0" } */
  return (sqrtf (em) - sqrtf (es)) / (em + es);
}

__attribute__ ((noipa)) void
rmsnorm_start (float *o, const float *x, int n)
{
  float ss = 1e-15f;
  for (int i = 0; i < n; i++) ss += x[i] * x[i]; /* { dg-missed "RMSNorm: not rewritten: the reduction does not start from 0" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int i = 0; i < n; i++) o[i] = x[i] * ss;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX], o[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, y, NF_LOOP_MAX, 2, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      long double s = 1e-15L;
      for (int i = 0; i < n; i++)
	s += (long double) x[i] * x[i];
      nf_loop_near ("energy", n, energy (x, n), sqrtl (s), 5e-4L, sqrtl (s));
      long double em = 1e-15L, es = 1e-15L;
      for (int i = 0; i < n; i++)
	{
	  long double m = (long double) x[i] + y[i], d = (long double) x[i] - y[i];
	  em += m * m;
	  es += d * d;
	}
      nf_loop_near ("stereo", n, stereo (x, y, n),
		    (sqrtl (em) - sqrtl (es)) / (em + es), 5e-4L,
		    (sqrtl (em) + sqrtl (es)) / (em + es));
      if (n == 0)
	continue;
      rmsnorm_start (o, x, n);
      long double k2 = 1 / sqrtl (s / n + 1e-5L);
      for (int i = 0; i < n; i++)
	nf_loop_near ("rmsnorm_start", n, o[i], x[i] * k2, 5e-4L,
		      fabsl (x[i] * k2) + k2 * 1e-3L);
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-missed-count 3 } } */
/* { dg-final { nf-report-missed MulRedSqrt "does not start from 0" } } */
/* { dg-final { nf-report-missed RMSNorm "does not start from 0" } } */
