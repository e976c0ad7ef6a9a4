/* Area: nf-loop, RMSNorm with Gemma's gain (issue 19).
   Purpose: Gemma scales the normalised row by 1 + w[i], not w[i]:
   x[i] * ss * (1.0f + w[i]), the one written first or last, in float and
   in double, is outlined into nf_rmsnorm1p_f32 and nf_rmsnorm1p_f64,
   which take 1 + w[i] in the wider type: within 2 ulps and no worse than
   the loop.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
gemma (float *o, const float *x, const float *w, int n)
{
  float ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm1p_f32" } */
  ss /= n;
  ss += 1e-6f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < n; j++) o[j] = x[j] * ss * (1.0f + w[j]);
}

__attribute__ ((noipa)) void
gemma_first (float *o, const float *x, const float *w, int n)
{
  float ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm1p_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-6f);
  for (int j = 0; j < n; j++) o[j] = (w[j] + 1.0f) * (ss * x[j]);
}

__attribute__ ((noipa)) void
gemma_f64 (double *o, const double *x, const double *w, int n)
{
  double ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm1p_f64" } */
  ss = 1.0 / sqrt (ss / n + 1e-6);
  for (int j = 0; j < n; j++) o[j] = x[j] * ss * (1.0 + w[j]);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];
static double xd[NF_LOOP_MAX], wd[NF_LOOP_MAX], yd[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

/* Y against x * r * (1 + w) in long double, fused within 2 ulps and no
   worse than the plain loop O, else within the loop's own error.  */
#define CHECK_GEMMA(T, ULPS, LOOSE, y, x, w, n, eps, fused, o)                \
  do                                                                          \
    {                                                                         \
      static long double xl_[NF_LOOP_MAX], wl_[NF_LOOP_MAX], r_[NF_LOOP_MAX]; \
      for (size_t i = 0; i < (size_t) (n); i++)                               \
	{                                                                     \
	  xl_[i] = (x)[i];                                                    \
	  wl_[i] = 1 + (long double) (w)[i];                                  \
	}                                                                     \
      nf_loop_ref_rmsnorm (r_, xl_, wl_, (n), (eps));                         \
      CHECK (NF_PLUGIN || !(fused));                                          \
      for (size_t i = 0; i < (size_t) (n); i++)                               \
	{                                                                     \
	  long double eg = ULPS ((y)[i], r_[i]), eo = ULPS ((o)[i], r_[i]);   \
	  int ok = (fused) ? eg <= 2 && (eg <= eo || eg <= NF_LOOP_CR)        \
			   : fabsl ((y)[i] - r_[i]) <= (LOOSE) * fabsl (r_[i]); \
	  if (!nf_loop_elem (ok, "gemma", (n), i, (fused), (y)[i], (o)[i],    \
			     r_[i], eg, eo))                                  \
	    break;                                                            \
	}                                                                     \
    }                                                                         \
  while (0)

/* The plain loops, not optimized.  */
static void
plain_f32 (float *o, const float *x, const float *w, int n)
{
  float ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j];
  ss = 1.0f / sqrtf (ss / n + 1e-6f);
  for (int j = 0; j < n; j++) o[j] = x[j] * ss * (1.0f + w[j]);
}

static void
plain_f64 (double *o, const double *x, const double *w, int n)
{
  double ss = 0;
  for (int j = 0; j < n; j++) ss += x[j] * x[j];
  ss = 1.0 / sqrt (ss / n + 1e-6);
  for (int j = 0; j < n; j++) o[j] = x[j] * ss * (1.0 + w[j]);
}

int
main (void)
{
  static float o[NF_LOOP_MAX];
  static double od[NF_LOOP_MAX];
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  /* Gemma's weights lie around 0: the gain is 1 + w.  */
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 3, 0);
  NF_LOOP_FILL (double, wd, NF_LOOP_MAX, 4, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      plain_f32 (o, x, w, n);
      int fused = NF_FUSED (gemma (y, x, w, n));
      CHECK_GEMMA (float, NF_ULPS_F, 1e-5L, y, x, w, n, 1e-6f, fused, o);
      fused = NF_FUSED (gemma_first (y, x, w, n));
      CHECK_GEMMA (float, NF_ULPS_F, 1e-5L, y, x, w, n, 1e-6f, fused, o);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
      yd[n] = NF_LOOP_SENTINEL;
      plain_f64 (od, xd, wd, n);
      fused = NF_FUSED (gemma_f64 (yd, xd, wd, n));
      CHECK_GEMMA (double, NF_ULPS_D, 1e-12L, yd, xd, wd, n, 1e-6, fused, od);
      CHECK (yd[n] == NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 3 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm1p_f32"} 2 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm1p_f64"} 1 } } */
