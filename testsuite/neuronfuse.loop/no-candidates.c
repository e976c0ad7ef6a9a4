/* Area: nf-loop, no candidates (issue 15).
   Purpose: what an inference engine runs besides its norms and matrix-
   vector products is no near miss of either: a dot product, a residual add,
   a sum of squares returned as is, a mean squared error, SiLU and its
   sigmoid's 1 + expf (-x).  Nothing is fused and nothing is reported:
   one missed line per matmul or activation was noise.  (The softmax that
   was here is a kind of its own since issue 18: softmax.c.)  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
dot (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

__attribute__ ((noipa)) void
residual (float *x, const float *r, int n)
{
  for (int i = 0; i < n; i++) x[i] += r[i];
}

__attribute__ ((noipa)) float
sumsq (const float *a, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return s;
}

__attribute__ ((noipa)) float
mse (const float *a, const float *b, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s / n;
}

__attribute__ ((noipa)) void
silu (float *hb, int n)
{
  for (int i = 0; i < n; i++)
    {
      float v = hb[i];
      hb[i] = v * (1.0f / (1.0f + expf (-v)));
    }
}

__attribute__ ((noipa)) float
sigmoid (float x)
{
  return 1.0f / (1.0f + expf (-x));
}

#define N 64
static float x[N], y[N], h[N];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, N, 2, 0);
  NF_LOOP_FILL (float, h, N, 3, 0);
  long double d = 0, s = 0, e = 0;
  for (int i = 0; i < N; i++)
    {
      d += (long double) x[i] * h[i];
      s += (long double) x[i] * x[i];
      e += ((long double) x[i] - h[i]) * ((long double) x[i] - h[i]);
    }
  nf_loop_near ("dot", 0, dot (x, h, N), d, 1e-4L, 16);
  nf_loop_near ("sumsq", 0, sumsq (x, N), s, 1e-5L, s);
  nf_loop_near ("mse", 0, mse (x, h, N), e / N, 1e-5L, e / N);
  residual (y, x, N);
  silu (h, N);
  for (int i = 0; i < N; i++)
    CHECK (fabsf (h[i]) < 8 && !isnan (h[i]));
  CHECK (fabsf (sigmoid (0.0f) - 0.5f) < 1e-6f);
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 0 } } */
/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
