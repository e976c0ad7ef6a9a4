/* softmax.c: llama2.c's softmax as its run.c writes it (in place: the
   max seeded with x[0], the exps stored and summed, a divide per
   element), over one long vector and over attention-sized rows
   (workloads.h).  The input is copied to Y first (memcpy, the same in
   every build) so that each call sees the same data.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "workloads.h"

#include <math.h>
#include <string.h>

static void
softmax (float *x, int size)
{
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    {
      x[i] = expf (x[i] - max_val);
      sum += x[i];
    }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

void
PVP (softmax) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  memcpy (y, x, n * sizeof *y);
  softmax (y, n);
}

/* The attention scores of one head over positions 0..63: rows of 1 to
   64 elements, as llama2.c's attention loop softmaxes them early in a
   sequence (where a call's fixed cost matters most).  */
void
PVP (softmax_rows) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  int off = 0;
  for (int len = 1; len <= 64 && off + len <= n; len++)
    {
      memcpy (y + off, x + off, len * sizeof *y);
      softmax (y + off, len);
      off += len;
    }
}
