/* infer.c: a tiny transformer-style forward pass (RMSNorm, matmul, ELU,
   softplus, L2 norm) written as people write it, llama2.c style, and
   checked against the same pass in long double.  With the plugin the
   RMSNorm and L2-norm loops become libneuronfuse calls and the ELU and
   softplus expressions expm1f and log1pf; `make example` shows it.  */

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define DIM 256
#define HIDDEN 512
#define LAYERS 4

static float w1[LAYERS][HIDDEN * DIM]; /* Up projections, HIDDEN x DIM.  */
static float w2[LAYERS][DIM * HIDDEN]; /* Down projections, DIM x HIDDEN.  */
static float rms_w[LAYERS + 1][DIM];   /* RMSNorm gains, the last final.  */

/* The next number of a 32-bit LCG (Numerical Recipes' constants), mapped
   onto [-1, 1) in steps of 2^-23.  */
static float
uniform (void)
{
  static uint32_t state = 20260101u;
  state = state * 1664525u + 1013904223u;
  return (float) (state >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

static void
rmsnorm (float *o, float *x, float *weight, int size)
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

/* XOUT (D) = W (D x N) times X (N).  */
static void
matmul (float *xout, float *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++)
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

static float
l2norm (float *x, int n)
{
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  return sqrtf (ss);
}

/* Run X (DIM, overwritten) through the layers into OUT (DIM) and return
   the L2 norm of OUT.  Each layer is x += W2 elu (W1 rmsnorm (x)), as a
   transformer's feed-forward block; at the end, softplus (rmsnorm (x)).  */
static float
forward (float *x, float *out)
{
  float xb[DIM], hb[HIDDEN];

  for (int l = 0; l < LAYERS; l++)
    {
      rmsnorm (xb, x, rms_w[l], DIM);
      matmul (hb, xb, w1[l], DIM, HIDDEN);
      for (int i = 0; i < HIDDEN; i++)
	hb[i] = hb[i] >= 0 ? hb[i] : expf (hb[i]) - 1.0f; /* ELU.  */
      matmul (xb, hb, w2[l], HIDDEN, DIM);
      for (int i = 0; i < DIM; i++)
	x[i] += xb[i];
    }
  rmsnorm (x, x, rms_w[LAYERS], DIM);
  for (int i = 0; i < DIM; i++)
    out[i] = logf (1.0f + expf (x[i])); /* Softplus.  */
  return l2norm (out, DIM);
}

/* The reference: forward () again in long double on the same weights,
   with expm1l and log1pl, so the plugin has nothing to rewrite here.  */
static void
rmsnorm_ref (long double *o, long double *x, float *weight)
{
  long double ss = 0.0L;
  for (int j = 0; j < DIM; j++)
    ss += x[j] * x[j];
  ss = 1.0L / sqrtl (ss / DIM + 1e-5f); /* The same eps as rmsnorm ().  */
  for (int j = 0; j < DIM; j++)
    o[j] = weight[j] * (ss * x[j]);
}

static void
matmul_ref (long double *xout, long double *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++)
    {
      long double val = 0.0L;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

static long double
forward_ref (long double *x, long double *out)
{
  long double xb[DIM], hb[HIDDEN], ss = 0.0L;

  for (int l = 0; l < LAYERS; l++)
    {
      rmsnorm_ref (xb, x, rms_w[l]);
      matmul_ref (hb, xb, w1[l], DIM, HIDDEN);
      for (int i = 0; i < HIDDEN; i++)
	hb[i] = hb[i] >= 0 ? hb[i] : expm1l (hb[i]);
      matmul_ref (xb, hb, w2[l], HIDDEN, DIM);
      for (int i = 0; i < DIM; i++)
	x[i] += xb[i];
    }
  rmsnorm_ref (x, x, rms_w[LAYERS]);
  for (int i = 0; i < DIM; i++)
    {
      out[i] = log1pl (expl (x[i]));
      ss += out[i] * out[i];
    }
  return sqrtl (ss);
}

int
main (void)
{
  float x[DIM], out[DIM];
  long double xr[DIM], ref[DIM];

  /* Weights uniform in +-1/sqrt (fan-in), gains in [0.9, 1.1).  */
  for (int l = 0; l < LAYERS; l++)
    for (int i = 0; i < HIDDEN * DIM; i++)
      {
	w1[l][i] = uniform () * 0.0625f;     /* 1 / sqrt (DIM).  */
	w2[l][i] = uniform () * 0.04419417f; /* 1 / sqrt (HIDDEN).  */
      }
  for (int l = 0; l <= LAYERS; l++)
    for (int i = 0; i < DIM; i++)
      rms_w[l][i] = 1.0f + 0.1f * uniform ();
  for (int i = 0; i < DIM; i++)
    xr[i] = x[i] = uniform ();

  float norm = forward (x, out);
  long double norm_ref = forward_ref (xr, ref);

  /* Relative errors (the softplus outputs are positive, so is the norm);
     a NaN anywhere makes ERR NaN, which fails.  */
  double sum = 0.0, err = fabsl (norm - norm_ref) / norm_ref;
  for (int i = 0; i < DIM; i++)
    {
      double e = fabsl (out[i] - ref[i]) / ref[i];
      err = isnan (e) || e > err ? e : err;
      sum += out[i];
    }
  int ok = err <= 1e-4;
  printf ("l2 norm of the output = %.7g (long double: %.7Lg)\n", norm,
	  norm_ref);
  printf ("checksum (sum)        = %.5f\n", sum);
  printf ("max relative error    = %.2e (bound 1e-4): %s\n", err,
	  ok ? "ok" : "FAIL");
  return !ok;
}
