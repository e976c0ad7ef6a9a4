/* Area: nf-loop, MulRedSqrt.
   Purpose: L2 normalisation: the norm is a MulRedSqrt region, outlined
   into nf_nrm2_f32; the division loop after it stays (no eps and no
   mean: not RMSNorm).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
l2_normalize (float *y, const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  float norm = sqrtf (s);
  for (int i = 0; i < n; i++) y[i] = x[i] / norm;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (l2_normalize (y, x, n));
      CHECK (NF_PLUGIN || !fused);
      long double ss = 0;
      for (size_t i = 0; i < n; i++)
	ss += (long double) x[i] * x[i];
      for (size_t i = 0; i < n; i++)
	{
	  long double ref = x[i] / sqrtl (ss);
	  /* Fused: a 0.5 ulp norm, then one division.  */
	  if (fused)
	    CHECK (NF_ULPS_F (y[i], ref) <= 2);
	  else if (!nf_loop_near ("l2_normalize", i, y[i], ref, 1e-5L,
				  fabsl (ref)))
	    break;
	}
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2_normalize 12 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f32"} 1 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
