/* activations.c: elementwise loops as users write them, around
   expf (x) - 1 and logf (1 + x).  One build of it per flag set, plain
   and with the plugin (workloads.h); bench/plugin-vs-plain.c times them.
   The forms are the ones found in real code: darknet's src/activations.h
   (its SELU verbatim, exp in double), PyTorch's definitions of ELU, CELU,
   softplus (threshold 20), log-sigmoid and mish.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "workloads.h"

#include <math.h>

void
PVP (expm1_f32) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = expf (x[i]) - 1.0f;
}

void
PVP (log1p_f32) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = logf (1.0f + x[i]);
}

void
PVP (log1p_f64) (double *y, const double *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = log (1.0 + x[i]);
}

/* ELU with a run-time alpha.  */
void
PVP (elu) (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : alpha * (expf (x[i]) - 1);
}

/* SELU with float constants.  */
void
PVP (selu) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    {
      float v = x[i];
      y[i] = (v >= 0) * 1.0507f * v + (v < 0) * 1.0507f * 1.6732f * (expf (v) - 1);
    }
}

/* darknet's selu_activate verbatim: exp (double) of a float, double
   constants.  */
static inline float
selu_activate (float x)
{
  return (x >= 0) * 1.0507 * x + (x < 0) * 1.0507 * 1.6732 * (exp (x) - 1);
}

void
PVP (selu_darknet) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = selu_activate (x[i]);
}

/* CELU as PyTorch defines it: max (0, x) + min (0, alpha (exp (x / alpha) - 1)).  */
void
PVP (celu) (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++)
    y[i] = fmaxf (0.0f, x[i]) + fminf (0.0f, alpha * (expf (x[i] / alpha) - 1.0f));
}

void
PVP (softplus) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = logf (expf (x[i]) + 1.0f);
}

/* PyTorch's softplus (beta 1): linear above the threshold 20.  */
void
PVP (softplus_thr) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 20.0f ? x[i] : logf (expf (x[i]) + 1.0f);
}

/* darknet's tanh_activate, in float.  */
void
PVP (tanh_exp) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = (expf (2 * x[i]) - 1) / (expf (2 * x[i]) + 1);
}

/* log (sigmoid (x)) = -log (1 + exp (-x)).  */
void
PVP (logsigmoid) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = -logf (1.0f + expf (-x[i]));
}

/* mish (x) = x tanh (softplus (x)).  */
void
PVP (mish) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = x[i] * tanhf (logf (1.0f + expf (x[i])));
}

/* A scalar function of another translation unit (em1.c), called per
   element: the call stays, the plugin can only rewrite em1's body.  */
float PVP (em1) (float v);

void
PVP (em1_calls) (float *y, const float *x, int n, float alpha)
{
  (void) alpha;
  for (int i = 0; i < n; i++)
    y[i] = PVP (em1) (x[i]);
}
