/* loops19.h: issue 19's plain loops as users write them (a float
   Euclidean distance, Gemma's RMSNorm gain x r (1 + w), PyTorch's
   F.normalize), defined by the file that includes it with L19 (NAME)
   naming each function: naive.c (-O2, -O3 -ffast-math -march=native,
   -Ofast) and calls.c (its -O3 -march=native build, which naive.c
   lacks).  Must never be compiled with the plugin.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

float
L19 (dist_f32) (const float *a, const float *b, int n)
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
L19 (rmsnorm1p_f32) (float *o, const float *x, const float *w, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss /= size;
  ss += 1e-6f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++)
    o[j] = x[j] * ss * (1.0f + w[j]);
}

void
L19 (l2normalize_f32) (float *y, const float *x, int n, float eps)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  float d = fmaxf (sqrtf (s), eps);
  for (int i = 0; i < n; i++)
    y[i] = x[i] / d;
}
