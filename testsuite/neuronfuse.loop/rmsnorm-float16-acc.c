/* Area: nf-loop, RMSNorm, _Float16 accumulator.
   Purpose: _Float16 data summed in a _Float16 accumulator is outlined
   into nf_rmsnorm_f16, which sums in double: the report says so in its
   own note.  It matters: at n = 4096 with RMS (x) = 8 the sum of squares
   (262144) overflows _Float16 (max 65504), so the loop's scale is 0 and
   every output 0, where the fused kernel gives the right answer.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (_Float16 *o, const _Float16 *x, const _Float16 *w, int n)
{
  _Float16 ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f16" } */
  _Float16 k = 1.0f / sqrtf ((float) ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (k * x[j]);
}

#define N 4096
static _Float16 x[N], w[N], y[N];
static long double xl[N], wl[N], r[N];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  /* |x| = 8 throughout (RMS 8), signs varying; gains near 1.  */
  for (int i = 0; i < N; i++)
    {
      x[i] = (i % 3 ? 8 : -8);
      w[i] = 1 + (i % 7) / 64.0f;
      xl[i] = x[i];
      wl[i] = w[i];
    }
  static const int ns[] = { 7, N };
  for (size_t k = 0; k < NF_N (ns); k++)
    {
      int n = ns[k];
      int fused = NF_FUSED (rmsnorm (y, x, w, n));
      CHECK (NF_PLUGIN == fused);
      nf_loop_ref_rmsnorm (r, xl, wl, n, 1e-5f);
      for (int i = 0; i < n; i++)
	if (fused || n == 7)
	  CHECK (NF_ULPS_H (y[i], r[i]) <= 1);
	else			/* The loop's sum overflowed, unless
				   -ffast-math (-Ofast) summed in float.  */
	  CHECK (y[i] == 0
		 || (!NF_EXACT_ORIG && NF_ULPS_H (y[i], r[i]) <= 1));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 14 outlined } } */
/* { dg-final { nf-report-scan {"accum_dtype": "f16"} 1 } } */
/* { dg-final { nf-report-scan {the loop accumulated in _Float16, which overflows} 1 } } */
