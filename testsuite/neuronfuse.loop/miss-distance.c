/* Area: nf-loop, MulRedSqrt and RMSNorm of a computed value (issues 15,
   19).  Purpose: sums of squares of something other than an array
   element.  Each crashed GCC once (segfault in nf-loop).  The Euclidean
   distance (a[i] - b[i])^2, written twice or through a temporary, summed
   in float or double, and ggml's array_rmse sqrtf (s) / n are distances
   now (nf_dist_*, dist.c has their accuracy); a scaled element 2 * a[i],
   an offset (a[i] + 1)^2 in double, signed char data scaled to float,
   the deviation from a scalar mean (x[i] - m)^2 are left alone, with the
   loops' own results, and reported with the guard that failed: no
   kernel takes a computed value, nor a difference with a scalar; and the
   sample deviation's sqrt (s / (n - 1)) is no mean of the loop
   (miss-residual.c has the RMSNorm of a computed value).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
dist (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]); /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) double
dist_double (const float *a, const float *b, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) { float d = a[i] - b[i]; s += d * d; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_d_f32" } */
  return sqrt (s);
}

__attribute__ ((noipa)) float
rmse (const float *a, const float *b, int n)
{
  double sum = 0;
  for (int i = 0; i < n; i++) { double diff = a[i] - b[i]; sum += diff * diff; } /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_dist_d_f32" } */
  return sqrtf (sum) / n;
}

__attribute__ ((noipa)) float
scaled (const float *a, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) { float v = 2 * a[i]; s += v * v; } /* { dg-missed "MulRedSqrt: not rewritten: the squared value is computed" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) double
offset (const float *a, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += (a[i] + 1) * (a[i] + 1); /* { dg-missed "MulRedSqrt: not rewritten: the squared value is computed" } */
  return sqrt (s);
}

__attribute__ ((noipa)) float
quantized (const signed char *q, float scale, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) { float v = q[i] * scale; s += v * v; } /* { dg-missed "MulRedSqrt: not rewritten: the squared value is computed" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
deviation (const float *x, float m, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m); /* { dg-missed "MulRedSqrt: not rewritten: the squared difference is not of two arrays \\(no kernel takes x - c\\)" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) double
sample_deviation (const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-missed "MulRedSqrt: not rewritten: the divisor of the mean is not the reduction's trip count" } */
  return sqrt (s / (n - 1));
}

static float a[NF_LOOP_MAX], b[NF_LOOP_MAX];
static double ad[NF_LOOP_MAX];
static signed char q[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, a, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, b, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (double, ad, NF_LOOP_MAX, 3, 0);
  for (int i = 0; i < NF_LOOP_MAX; i++)
    q[i] = (signed char) (i * 37 % 255 - 127);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      long double d2 = 0, s2 = 0, o2 = 0, q2 = 0, m2 = 0, a2 = 0;
      for (int i = 0; i < n; i++)
	{
	  long double d = (long double) a[i] - b[i];
	  d2 += d * d;
	  s2 += 4.0L * a[i] * a[i];
	  o2 += ((long double) a[i] + 1) * ((long double) a[i] + 1);
	  q2 += (long double) q[i] * 0.25L * q[i] * 0.25L;
	  m2 += ((long double) a[i] - 0.5L) * ((long double) a[i] - 0.5L);
	  a2 += (long double) ad[i] * ad[i];
	}
      /* The loops' own error (up to n = 4096 terms): relative 5e-4 for
	 a float sum, 1e-6 for a double one of float terms.  */
      nf_loop_near ("dist", n, dist (a, b, n), sqrtl (d2), 5e-4L, sqrtl (d2));
      nf_loop_near ("dist_double", n, dist_double (a, b, n), sqrtl (d2),
		    1e-6L, sqrtl (d2));
      if (n)
	nf_loop_near ("rmse", n, rmse (a, b, n), sqrtl (d2) / n, 1e-6L,
		      sqrtl (d2) / n);
      nf_loop_near ("scaled", n, scaled (a, n), sqrtl (s2), 5e-4L, sqrtl (s2));
      nf_loop_near ("offset", n, offset (a, n), sqrtl (o2), 1e-6L, sqrtl (o2));
      nf_loop_near ("quantized", n, quantized (q, 0.25f, n), sqrtl (q2),
		    5e-4L, sqrtl (q2));
      nf_loop_near ("deviation", n, deviation (a, 0.5f, n), sqrtl (m2),
		    5e-4L, sqrtl (m2));
      if (n > 1)
	nf_loop_near ("sample_deviation", n, sample_deviation (ad, n),
		      sqrtl (a2 / (n - 1)), 1e-12L, sqrtl (a2 / (n - 1)));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 3 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-missed-count 5 } } */
/* { dg-final { nf-report-missed MulRedSqrt "computed in the loop" } } */
