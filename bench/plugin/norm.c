/* norm.c: an L2 normalisation as users write it: a float sum of
   squares, sqrtf, a divide per element (workloads.h).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "workloads.h"

#include <math.h>

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
