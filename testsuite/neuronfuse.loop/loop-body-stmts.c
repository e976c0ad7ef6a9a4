/* Area: nf-loop, MulRedSqrt and RMSNorm, float, loop bodies of several
   statements.
   Purpose: a sum's loop body may declare temporaries (float d = x[i];
   s += d * d;: d is just x[i]) and compute a second sum that nothing
   reads (GCC deletes it): the idiom is fused.  A second sum that is
   used after the loop is no one call.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
l2_temp (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) { float d = x[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
l2_dead_dot (const float *x, const float *y, int n)
{
  float dot = 0.0f, s = 0.0f;
  for (int i = 0; i < n; i++) { dot += x[i] * y[i]; s += x[i] * x[i]; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) void
rms_temp (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) { float d; d = x[j]; ss = ss + d * d; } /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
}

__attribute__ ((noipa)) float
l2_two (const float *x, const float *y, int n)
{
  float na = 0.0f, nb = 0.0f;
  for (int i = 0; i < n; i++) { na += x[i] * x[i]; nb += y[i] * y[i]; } /* { dg-missed "MulRedSqrt: not rewritten: the loop computes another sum too \\(no kernel computes several\\)" } */
  return sqrtf (na) - sqrtf (nb);
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX], w[NF_LOOP_MAX], o[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, y, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 3, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = l2_temp (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      fused = NF_FUSED (got = l2_dead_dot (x, y, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      memset (o, 0, sizeof o);
      fused = NF_FUSED (rms_temp (o, x, w, n));
      nf_loop_check_rmsnorm_f32 (o, x, w, n, 1e-5f, fused);
      CHECK (n == NF_LOOP_MAX || o[n] == 0);
      CHECK (!NF_FUSED (got = l2_two (x, y, n)));
      long double na = 0, nb = 0;
      for (size_t i = 0; i < n; i++)
	{
	  na += (long double) x[i] * x[i];
	  nb += (long double) y[i] * y[i];
	}
      nf_loop_near ("l2_two", n, got, sqrtl (na) - sqrtl (nb), 1e-5L,
		    sqrtl (na) + sqrtl (nb));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 2 } } */
/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2_temp 14 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_dead_dot 22 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_temp 30 outlined } } */
/* { dg-final { nf-report-missed-count 1 } } */
/* { dg-final { nf-report-missed MulRedSqrt "another sum" } } */
