/* Area: nf-loop, MulRedSqrt, L2 normalisation with a floor (issue 19).
   Purpose: PyTorch's F.normalize, y[i] = x[i] / fmax (||x||, eps), with
   the quotient written x / d or x * (1 / d), in float and double, in
   place or not, is one call to nf_l2normalize_f32/f64 for both loops:
   within 2 ulps of the exact quotient, no worse than the loop, and
   fmax's rule for a NaN norm (eps) kept.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
normalize (float *y, const float *x, int n, float eps)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loops outlined into a call to nf_l2normalize_f32" } */
  float d = fmaxf (sqrtf (s), eps);
  for (int i = 0; i < n; i++) y[i] = x[i] / d;
}

__attribute__ ((noipa)) void
normalize_recip (float *x, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loops outlined into a call to nf_l2normalize_f32" } */
  float inv = 1.0f / fmaxf (1e-12f, sqrtf (s));
  for (int i = 0; i < n; i++) x[i] = x[i] * inv;
}

__attribute__ ((noipa)) void
normalize_f64 (double *y, const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loops outlined into a call to nf_l2normalize_f64" } */
  double d = fmax (sqrt (s), 1e-12);
  for (int i = 0; i < n; i++) y[i] = x[i] / d;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX + 1], xs[NF_LOOP_MAX];
static double xd[NF_LOOP_MAX], yd[NF_LOOP_MAX + 1];

/* Whether the functions above assume finite math: taken here, as the
   pragma below sets __FINITE_MATH_ONLY__ to 0 for what follows.  */
#if __FINITE_MATH_ONLY__
#define FINITE_ONLY 1
#else
#define FINITE_ONLY 0
#endif

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

/* Y against X / fmax (||X||, EPS) in long double; O the plain loop's.  */
#define CHECK_NORMALIZE(ULPS, LOOSE, y, x, n, eps, fused, o)                  \
  do                                                                          \
    {                                                                         \
      long double ss_ = 0;                                                    \
      for (size_t i = 0; i < (size_t) (n); i++)                               \
	ss_ += (long double) (x)[i] * (x)[i];                                 \
      long double d_ = fmaxl (sqrtl (ss_), (eps));                            \
      CHECK (NF_PLUGIN || !(fused));                                          \
      for (size_t i = 0; i < (size_t) (n); i++)                               \
	{                                                                     \
	  long double r_ = (x)[i] / d_;                                       \
	  long double eg = ULPS ((y)[i], r_), eo = ULPS ((o)[i], r_);         \
	  int ok = (fused) ? eg <= 2 && (eg <= eo || eg <= NF_LOOP_CR)        \
			   : fabsl ((y)[i] - r_) <= (LOOSE) * fabsl (r_);     \
	  if (!nf_loop_elem (ok, "normalize", (n), i, (fused), (y)[i],        \
			     (o)[i], r_, eg, eo))                             \
	    break;                                                            \
	}                                                                     \
    }                                                                         \
  while (0)

static void
plain_f32 (float *y, const float *x, int n, float eps)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  float d = fmaxf (sqrtf (s), eps);
  for (int i = 0; i < n; i++) y[i] = x[i] / d;
}

static void
plain_f64 (double *y, const double *x, int n, double eps)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  double d = fmax (sqrt (s), eps);
  for (int i = 0; i < n; i++) y[i] = x[i] / d;
}

int
main (void)
{
  static float o[NF_LOOP_MAX];
  static double od[NF_LOOP_MAX];
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      plain_f32 (o, x, n, 1e-12f);
      int fused = NF_FUSED (normalize (y, x, n, 1e-12f));
      CHECK_NORMALIZE (NF_ULPS_F, 1e-5L, y, x, n, 1e-12f, fused, o);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
      /* The floor wins: a tiny row divided by eps.  */
      for (int i = 0; i < n; i++)
	xs[i] = x[i] * 0x1p-100f;
      plain_f32 (o, xs, n, 1e-12f);
      fused = NF_FUSED (normalize (y, xs, n, 1e-12f));
      CHECK_NORMALIZE (NF_ULPS_F, 1e-5L, y, xs, n, 1e-12f, fused, o);
      /* In place.  */
      memcpy (xs, x, sizeof xs);
      plain_f32 (o, x, n, 1e-12f);
      fused = NF_FUSED (normalize_recip (xs, n));
      CHECK_NORMALIZE (NF_ULPS_F, 1e-5L, xs, x, n, 1e-12f, fused, o);
      yd[n] = NF_LOOP_SENTINEL;
      plain_f64 (od, xd, n, 1e-12);
      fused = NF_FUSED (normalize_f64 (yd, xd, n));
      CHECK_NORMALIZE (NF_ULPS_D, 1e-12L, yd, xd, n, 1e-12, fused, od);
      CHECK (yd[n] == NF_LOOP_SENTINEL);
    }
#if !FINITE_ONLY
  /* A NaN element: the norm is NaN, fmaxf gives eps, so the other
     elements are x[i] / eps and the NaN stays NaN, as in the loop.  */
  memcpy (xs, x, 8 * sizeof (float));
  xs[3] = NAN;
  normalize (y, xs, 8, 0.5f);
  CHECK (isnan (y[3]) && y[0] == xs[0] / 0.5f && y[7] == xs[7] / 0.5f);
#endif
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 3 } } */
/* { dg-final { nf-report-scan {"callee": "nf_l2normalize_f32"} 2 } } */
/* { dg-final { nf-report-scan {"callee": "nf_l2normalize_f64"} 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
