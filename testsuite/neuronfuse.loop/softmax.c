/* Area: nf-loop, Softmax, float and double.
   Purpose: the three-loop softmax of inference code becomes one call of
   the softmax kernel: llama2.c's (in place, the max seeded with x[0]
   and taken from the second element by a comparison), an out-of-place
   one seeded with -INFINITY through fmaxf and scaled by the sum's
   reciprocal, and a double one with a conditional expression and
   size_t counts.  Each result is checked against a long double
   reference: a fused one within 1 ulp, a plain one within the float
   loop's own error.  An output that partially overlaps the input runs
   the original loops (the guard).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
softmax (float *x, int size)
{
  float max_val = x[0];
  for (int i = 1; i < size; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
    {
      if (x[i] > max_val)
	max_val = x[i];
    }
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    {
      x[i] = expf (x[i] - max_val);
      sum += x[i];
    }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

__attribute__ ((noipa)) void
softmax_out (float *y, const float *x, int n)
{
  float m = -INFINITY;
  for (int i = 0; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  float inv = 1.0f / s;
  for (int i = 0; i < n; i++)
    y[i] *= inv;
}

__attribute__ ((noipa)) void
softmax_f64 (double *y, const double *x, size_t n)
{
  double m = x[0];
  for (size_t i = 0; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f64" } */
    m = x[i] > m ? x[i] : m;
  double s = 0;
  for (size_t i = 0; i < n; i++)
    {
      y[i] = exp (x[i] - m);
      s += y[i];
    }
  for (size_t i = 0; i < n; i++)
    y[i] = y[i] / s;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX + 1], keep[NF_LOOP_MAX];
static double xd[NF_LOOP_MAX], yd[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, keep, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 2, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memcpy (x, keep, sizeof x);
      x[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (softmax (x, n));
      CHECK (NF_PLUGIN == 0 || n == 0 || fused);
      nf_loop_check_softmax_f32 (x, keep, n, fused);
      CHECK (n == NF_LOOP_MAX || x[n] == (float) NF_LOOP_SENTINEL);

      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      fused = NF_FUSED (softmax_out (y, keep, n));
      CHECK (NF_PLUGIN == 0 || n == 0 || fused);
      nf_loop_check_softmax_f32 (y, keep, n, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);

      memset (yd, 0, sizeof yd);
      yd[n] = NF_LOOP_SENTINEL;
      fused = NF_FUSED (softmax_f64 (yd, xd, n));
      CHECK (NF_PLUGIN == 0 || n == 0 || fused);
      nf_loop_check_softmax_f64 (yd, xd, n, fused);
      CHECK (yd[n] == NF_LOOP_SENTINEL);
    }
  /* Partial overlap: y one element past x; the loops run.  */
  memcpy (x, keep, sizeof x);
  int fused = NF_FUSED (softmax_out (x + 1, x, 33));
  CHECK (!fused);
  NF_DONE ();
}
