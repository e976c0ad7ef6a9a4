/* Area: nf-loop, MulRedSqrt and RMSNorm, float, constant offsets.
   Purpose: accesses x[j + c] at a constant offset from the counter, at
   both ends (c = 2 and c = -1), are arrays starting at x + c: the loops
   are fused with the call reading from there and storing there (a wrong
   offset reads or writes a different element: the checks and the
   sentinels see it).  With an unsigned counter, j + 1 cannot wrap (j <
   n), j + 2 can when n is near UINT_MAX: not an affine access, as GCC's
   analysis finds (at -Os, which copies no loop header, it finds j + 1
   not affine either).  A sum at j + 1 scaling x[j] is no RMSNorm.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
l2_next (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i + 1] * x[i + 1]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
l2_prev (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i - 1] * x[i - 1]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
l2_unsigned (const float *x, unsigned n)
{
  float s = 0.0f;
  for (unsigned i = 0; i < n; i++) s += x[i + 1] * x[i + 1]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" "" { flags {^(?!-Os)} } } */
  /* { dg-missed "MulRedSqrt: not rewritten: an array access is not affine in the loop" "" { flags {^-Os} } 33 } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
l2_wraps (const float *x, unsigned n)
{
  float s = 0.0f;
  for (unsigned i = 0; i < n; i++) s += x[i + 2] * x[i + 2]; /* { dg-missed "MulRedSqrt: not rewritten: an array access is not affine in the loop" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) void
rms_next (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j + 2] * x[j + 2]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j + 2] = w[j] * (ss * x[j + 2]);
}

__attribute__ ((noipa)) void
rms_prev (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j - 1] * x[j - 1]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j - 1] = w[j - 1] * (ss * x[j - 1]);
}

__attribute__ ((noipa)) void
rms_shifted (float *o, const float *x, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j + 1] * x[j + 1]; /* { dg-missed "RMSNorm: not rewritten: the scaled array is not the squared one" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = ss * x[j];
}

#define M (NF_LOOP_MAX + 4)
static float xb[M], wb[M], yb[M];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

/* Y[0..N-1] checked as RMSNorm of X and W, YB's other elements still
   0 (nothing written before or after).  */
static void
check_rms (const float *y, const float *x, const float *w, size_t n,
	   int fused)
{
  nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-5f, fused);
  for (size_t i = 0; i < M; i++)
    if (yb + i < y || yb + i >= y + n)
      CHECK (yb[i] == 0);
}

int
main (void)
{
  NF_LOOP_FILL (float, xb, M, 1, 0);
  NF_LOOP_FILL (float, wb, M, 2, 1);
  int fused_calls = 0;
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = l2_next (xb, n));
      nf_loop_check_nrm2_f32 (got, xb + 1, n, fused);
      fused_calls += fused;
      fused = NF_FUSED (got = l2_prev (xb + 1, n));
      nf_loop_check_nrm2_f32 (got, xb, n, fused);
      fused_calls += fused;
      fused = NF_FUSED (got = l2_unsigned (xb, n));
      nf_loop_check_nrm2_f32 (got, xb + 1, n, fused);
      fused = NF_FUSED (got = l2_wraps (xb, n));
      CHECK (!fused);
      nf_loop_check_nrm2_f32 (got, xb + 2, n, fused);
      memset (yb, 0, sizeof yb);
      fused = NF_FUSED (rms_next (yb, xb, wb, n));
      check_rms (yb + 2, xb + 2, wb, n, fused);
      fused_calls += fused;
      memset (yb, 0, sizeof yb);
      fused = NF_FUSED (rms_prev (yb + 1, xb + 1, wb + 1, n));
      check_rms (yb, xb, wb, n, fused);
      fused_calls += fused;
      if (n == 0)
	continue;
      memset (yb, 0, sizeof yb);
      CHECK (!NF_FUSED (rms_shifted (yb, xb, n)));
      long double s = 0;
      for (size_t i = 0; i < n; i++)
	s += (long double) xb[i + 1] * xb[i + 1];
      long double r = 1 / sqrtl (s / n + 1e-5L);
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("rms_shifted", i, yb[i], xb[i] * r, 1e-5L,
		      fabsl (xb[i] * r) + r * 1e-3L);
    }
  /* The plugin fuses the four (n = 0 does not call the norms' kernels).  */
  CHECK (!NF_PLUGIN || fused_calls >= 4 * (int) (NF_N (nf_loop_ns) - 1));
  NF_DONE ();
}

/* { dg-final { nf-if-flags {^(?!-Os)} { nf-report-regions MulRedSqrt 3 } } } */
/* { dg-final { nf-if-flags {^-Os} { nf-report-regions MulRedSqrt 2 } } } */
/* { dg-final { nf-report-regions RMSNorm 2 } } */
/* { dg-final { nf-report-region MulRedSqrt l2_next 17 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_prev 25 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_next 50 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_prev 59 outlined } } */
/* { dg-final { nf-report-missed MulRedSqrt "not affine" } } */
/* { dg-final { nf-if-flags {^(?!-Os)} { nf-report-missed-count 2 } } } */
/* { dg-final { nf-if-flags {^-Os} { nf-report-missed-count 3 } } } */
