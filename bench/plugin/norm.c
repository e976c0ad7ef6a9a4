/* norm.c: an L2 normalisation as users write it: a float sum of
   squares, sqrtf, a divide per element (workloads.h).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "workloads.h"

#include <math.h>
#include <string.h>

void
PVP (l2normalize) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  float norm = sqrtf (ss);
  for (int i = 0; i < n; i++)
    y[i] = x[i] / norm;
}

/* The norms of issue 19.  k-means's assignment step: the distance of a
   point to each of 16 centroids of N / 16 elements (y[k]).  */
static float
distance (const float *a, const float *b, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      float d = a[i] - b[i];
      s += d * d;
    }
  return sqrtf (s);
}

void
PVP (dist) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  int dim = n / 16;
  for (int k = 0; k < 16; k++)
    y[k] = distance (x, x + k * dim, dim);
}

/* The RMS of the whole vector, sqrtf (sum / n) (y[0]).  */
void
PVP (rms) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  y[0] = sqrtf (ss / n);
}

/* PyTorch's F.normalize: x / fmaxf (||x||, eps).  */
void
PVP (l2normalize_floor) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  float d = fmaxf (sqrtf (ss), 1e-12f);
  for (int i = 0; i < n; i++)
    y[i] = x[i] / d;
}

/* Gemma's RMSNorm, gain 1 + w, of N - 1 elements (the weights are the
   input's next ones).  */
static void
rmsnorm_gemma (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++)
    ss += x[j] * x[j];
  ss = 1.0f / sqrtf (ss / n + 1e-6f);
  for (int j = 0; j < n; j++)
    o[j] = x[j] * ss * (1.0f + w[j]);
}

void
PVP (rmsnorm_gemma) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  rmsnorm_gemma (y, x, x + 1, n - 1);
}

/* A transformer block's residual add, then its RMSNorm (llama2.c's
   `x[i] += xb2[i]` before rmsnorm (xb, x, w)): one pass over h less
   with the plugin (nf_add_rmsnorm_f32).  */
static void
add_rmsnorm (float *o, float *h, const float *r, const float *w, int n)
{
  for (int i = 0; i < n; i++)
    h[i] += r[i];
  float ss = 0.0f;
  for (int j = 0; j < n; j++)
    ss += h[j] * h[j];
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++)
    o[j] = w[j] * (ss * h[j]);
}

void
PVP (add_rmsnorm) (float *y, const float *x, int n, float alpha)
{
  /* The hidden state: x every 16 calls (so it stays of order 1), with x
     added at each; the first call, the check's, starts from x.  */
  static float h[4096];
  static unsigned calls;
  (void) alpha;
  if (n > 4096)
    return;
  if (calls++ % 16 == 0)
    memcpy (h, x, (size_t) n * sizeof *h);
  add_rmsnorm (y, h, x, x + 1, n - 1);
}
