/* naive.c: the loops that neuronfuse's kernels replace, written as users
   write them, for bench/kernels.c to time the kernels against.

   Built three times from this one source (see the top Makefile.am), each
   object with its own fixed flags and symbol prefix:

     -O2 -DNAIVE_SUFFIX=o2                            naive_o2_*
     -O3 -ffast-math -march=native -DNAIVE_SUFFIX=fast naive_fast_*
     -Ofast -DNAIVE_SUFFIX=ofast                      naive_ofast_*

   -O2 is what most builds use and keeps the strict IEEE serial sum (its
   add latency, about 0.8 ns per element here); the fast build is the best
   plain gcc does with the loop (vectorised, one accumulator, libmvec for
   expf/logf), the bar a kernel must also clear to be worth a call.  The
   flags are fixed on purpose and ignore the user's CFLAGS: they define the
   baselines of issue 5's goals.  Being separate objects (no LTO), the
   functions cannot be inlined into the driver or specialised for its
   constant sizes, exactly as a call from another file of a user's
   program.

   Deliberately not "improved": the float accumulator, the int counters,
   expf (x) - 1.0f instead of expm1f are the point.  This file must never
   be compiled with the neuronfuse plugin (it would fuse the loops).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "naive.h"

#include <math.h>

#ifndef NAIVE_SUFFIX
#error "define NAIVE_SUFFIX (o2, fast or ofast): see the comment at the top"
#endif

/* NAIVE (rmsnorm) is naive_<NAIVE_SUFFIX>_rmsnorm.  */
#define NAIVE_CAT3_(a, b, c) a##b##c
#define NAIVE_CAT3(a, b, c) NAIVE_CAT3_ (a, b, c)
#define NAIVE(name) NAIVE_CAT3 (naive_, NAIVE_SUFFIX, _##name)

/* llama2.c's rmsnorm (run.c), verbatim but for the name: O = X * r *
   WEIGHT for SIZE floats, r = 1 / sqrt (mean (X^2) + 1e-5), summed in
   float.  */
void
NAIVE (rmsnorm) (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++)
    o[j] = weight[j] * (ss * x[j]);
}

/* ROWS rows of SIZE floats, one rmsnorm call per row with the same
   WEIGHT: the loop over a batch (gcc may inline the call here, as it
   would in the user's file).  */
void
NAIVE (rmsnorm_rows) (float *o, float *x, float *weight, int rows, int size)
{
  for (int r = 0; r < rows; r++)
    NAIVE (rmsnorm) (o + (long) r * size, x + (long) r * size, weight, size);
}

/* The residual add, then RMSNorm, per row as a transformer's block
   writes it (llama.cpp's and vLLM's reference): X += R, then O = the
   rmsnorm of the new X; ROWS rows of SIZE, the same WEIGHT.  */
void
NAIVE (add_rmsnorm_rows) (float *o, float *x, const float *r, float *weight,
			  int rows, int size)
{
  for (int k = 0; k < rows; k++)
    {
      float *xk = x + (long) k * size;
      const float *rk = r + (long) k * size;
      for (int j = 0; j < size; j++)
	xk[j] += rk[j];
      NAIVE (rmsnorm) (o + (long) k * size, xk, weight, size);
    }
}

/* sqrt (sum (X[i]^2)) for N floats, summed in float.  */
float
NAIVE (nrm2_f32) (const float *x, int n)
{
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  return sqrtf (ss);
}

/* sqrt (sum (X[i]^2)) for N doubles, summed in double.  */
double
NAIVE (nrm2_f64) (const double *x, int n)
{
  double ss = 0.0;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  return sqrt (ss);
}

#ifdef __FLT16_MAX__
/* sqrt (sum (X[i]^2)) for N _Float16s, summed in float (the products are
   evaluated in float, exact).  */
float
NAIVE (nrm2_f16) (const _Float16 *x, int n)
{
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  return sqrtf (ss);
}
#endif

/* Y[i] = expf (X[i]) - 1 for N floats.  */
void
NAIVE (expm1_f32) (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = expf (x[i]) - 1.0f;
}

/* Y[i] = logf (1 + X[i]) for N floats.  */
void
NAIVE (log1p_f32) (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = logf (1.0f + x[i]);
}

/* Y[i] = exp (X[i]) - 1 for N doubles.  */
void
NAIVE (expm1_f64) (double *y, const double *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = exp (x[i]) - 1.0;
}

/* Y[i] = log (1 + X[i]) for N doubles.  */
void
NAIVE (log1p_f64) (double *y, const double *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = log (1.0 + x[i]);
}

/* ELU: Y[i] = X[i] if X[i] > 0, else ALPHA (expf (X[i]) - 1), for N
   floats (the activation loops of darknet and of hand-written C
   inference code).  */
void
NAIVE (elu_f32) (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0 ? x[i] : alpha * (expf (x[i]) - 1.0f);
}

/* softplus: Y[i] = logf (expf (X[i]) + 1) for N floats.  */
void
NAIVE (softplus_f32) (float *y, const float *x, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = logf (expf (x[i]) + 1.0f);
}

/* softmax: llama2.c's loop (max seeded by x[0], expf and a float sum,
   a division per element), writing Y instead of X in place so that
   every call sees the same inputs.  */
void
NAIVE (softmax_f32) (float *y, const float *x, int size)
{
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    {
      y[i] = expf (x[i] - max_val);
      sum += y[i];
    }
  for (int i = 0; i < size; i++)
    y[i] /= sum;
}

/* matmul: llama2.c's matrix-vector product, W (d,n) @ x (n) -> xout (d),
   a float sum per row.  */
void
NAIVE (matmul_f32) (float *xout, const float *x, const float *w, int n, int d)
{
  for (int i = 0; i < d; i++)
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

/* Issue 19's loops (loops19.h).  */
#define L19(name) NAIVE (name)
#include "loops19.h"
