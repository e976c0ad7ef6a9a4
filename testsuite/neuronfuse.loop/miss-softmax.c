/* Area: nf-loop, Softmax, near misses.
   Purpose: three loops one step from a softmax are reported with the
   guard that failed, and keep their own results: a max seeded with 0
   (not the max of a negative row), exponentials kept in a third array,
   a max that skips the first element, a loop that also counts, and a
   sum of the inputs instead of the exponentials (no softmax: the kernel
   would give another result).  A max whose only use is elsewhere is no
   candidate (no remark).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
seeded_zero (float *x, int n)
{
  float m = 0.0f;
  for (int i = 0; i < n; i++) /* { dg-missed "Softmax: not rewritten: the max is seeded with a value other than the first element" } */
    if (x[i] > m)
      m = x[i];
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = expf (x[i] - m);
      s += x[i];
    }
  for (int i = 0; i < n; i++)
    x[i] /= s;
}

__attribute__ ((noipa)) void
kept (float *y, float *z, const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-missed "Softmax: not rewritten: the exponentials are stored apart from the result" } */
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      z[i] = expf (x[i] - m);
      s += z[i];
    }
  for (int i = 0; i < n; i++)
    y[i] = z[i] / s;
}

__attribute__ ((noipa)) void
skips_first (float *x, int n)
{
  float m = -INFINITY;
  for (int i = 1; i < n; i++) /* { dg-missed "Softmax: not rewritten: the max skips elements of the array" } */
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = expf (x[i] - m);
      s += x[i];
    }
  for (int i = 0; i < n; i++)
    x[i] /= s;
}

int big;

__attribute__ ((noipa)) void
counts (float *x, int n)
{
  float m = x[0];
  for (int i = 0; i < n; i++) /* { dg-missed "Softmax: not rewritten: a loop of the softmax does other work too" } */
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = expf (x[i] - m);
      s += x[i];
      big += x[i] > 0.5f;
    }
  for (int i = 0; i < n; i++)
    x[i] /= s;
}

__attribute__ ((noipa)) void
wrong_sum (float *y, const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-missed "Softmax: not rewritten: the loops are no softmax" } */
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += x[i];
    }
  for (int i = 0; i < n; i++)
    y[i] /= s;
}

__attribute__ ((noipa)) float
max_only (const float *x, float *y, int n)
{
  float m = x[0];
  for (int i = 0; i < n; i++) /* No remark: a max, no softmax.  */
    m = fmaxf (m, x[i]);
  for (int i = 0; i < n; i++)
    y[i] = x[i] / m;
  return m;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX], z[NF_LOOP_MAX];
static float keep[NF_LOOP_MAX];

#pragma GCC optimize ("O0")

/* The softmax of KEEP[0..N-1] by the loops with max seed SEED from
   element FIRST.  */
static void
plain (float *r, size_t n, float seed, size_t first)
{
  float m = seed, s = 0;
  for (size_t i = first; i < n; i++)
    m = keep[i] > m ? keep[i] : m;
  for (size_t i = 0; i < n; i++)
    s += r[i] = expf (keep[i] - m);
  for (size_t i = 0; i < n; i++)
    r[i] /= s;
}

int
main (void)
{
  static float r[NF_LOOP_MAX];
  NF_LOOP_FILL (float, keep, NF_LOOP_MAX, 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memcpy (x, keep, sizeof x);
      CHECK (!NF_FUSED (seeded_zero (x, n)));
      plain (r, n, 0.0f, 0);
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("seeded_zero", i, x[i], r[i], 1e-5L, r[i]);
      CHECK (!NF_FUSED (kept (y, z, keep, n)));
      plain (r, n, n ? keep[0] : 0, 1);
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("kept", i, y[i], r[i], 1e-5L, r[i]);
      memcpy (x, keep, sizeof x);
      CHECK (!NF_FUSED (skips_first (x, n)));
      plain (r, n, -INFINITY, 1);
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("skips_first", i, x[i], r[i], 1e-5L, r[i]);
      memcpy (x, keep, sizeof x);
      big = 0;
      CHECK (!NF_FUSED (counts (x, n)));
      plain (r, n, n ? keep[0] : 0, 0);
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("counts", i, x[i], r[i], 1e-5L, r[i]);
      CHECK (!NF_FUSED (wrong_sum (y, keep, n)));
      float m = n ? keep[0] : 0, t = 0;
      for (size_t i = 1; i < n; i++)
	m = keep[i] > m ? keep[i] : m;
      for (size_t i = 0; i < n; i++)
	t += keep[i];
      for (size_t i = 0; i < n; i++)
	nf_loop_near ("wrong_sum", i, y[i], expf (keep[i] - m) / t, 1e-4L,
		      fabsl ((long double) expf (keep[i] - m) / t));
      CHECK (!NF_FUSED (max_only (keep, y, n)));
    }
  NF_DONE ();
}
