/* Area: nf-loop, the residual add before a call of an RMSNorm function
   (issue 19).
   Purpose: llama2.c's forward as GCC builds it: rmsnorm, a function of
   the unit called after each residual add, stays out of line (here
   noinline, at every level); nf-early-loop made its body one
   nf_rmsnorm_f32 call, and the add with the call after it becomes one
   nf_add_rmsnorm_f32 call, the add and the call of rmsnorm its fallback:
   x holds x + r bit for bit, y the RMSNorm within 2 ulps.  Not looked
   into: a function marked noipa (GCC's promise not to use its body), a
   function doing more than the RMSNorm (a store besides), and a call
   after the add of another array.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noinline)) void
rmsnorm (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

__attribute__ ((noipa)) void
rmsnorm_noipa (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / size + 1e-5f);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static int calls_counted;

__attribute__ ((noinline)) void
rmsnorm_counted (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / size + 1e-5f);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
  calls_counted++;
}

/* The attention's residual, then the FFN's rmsnorm into xb (with a
   weight row of the layer); the FFN's residual adds xb itself.  */
__attribute__ ((noipa)) void
layer (float *x, float *xb, float *xb2, float *w, int l, int dim)
{
  for (int i = 0; i < dim; i++) x[i] += xb2[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f32" } */
  rmsnorm (xb, x, w + l * dim, dim);
  for (int i = 0; i < dim; i++) x[i] += xb[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f32" } */
  rmsnorm (xb, x, w, dim);
}

__attribute__ ((noipa)) void
not_fused (float *x, float *xb, float *xb2, float *w, int dim)
{
  for (int i = 0; i < dim; i++) x[i] += xb2[i];
  rmsnorm_noipa (xb, x, w, dim);
  for (int i = 0; i < dim; i++) x[i] += xb2[i];
  rmsnorm_counted (xb, x, w, dim);
  for (int i = 0; i < dim; i++) xb2[i] += xb[i];
  rmsnorm (xb, x, w, dim);
}

static float x[NF_LOOP_MAX], x0[NF_LOOP_MAX], x1[NF_LOOP_MAX];
static float xb[NF_LOOP_MAX], xb2[NF_LOOP_MAX], keep[NF_LOOP_MAX];
static float w[2 * NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x0, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, xb2, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (float, w, 2 * NF_LOOP_MAX, 3, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      memcpy (x, x0, sizeof x);
      unsigned long before = nf_loop_calls;
      layer (x, xb, xb2, w, 1, n);
      /* Both pairs are one call each.  */
      CHECK (!NF_PLUGIN || n == 0 || nf_loop_calls - before == 2);
      /* Replay: x0 + xb2, its norm into xb, then + xb and its norm.  */
      for (int i = 0; i < n; i++)
	x1[i] = x0[i] + xb2[i];
      nf_loop_plain_rmsnorm_f32 (keep, x1, w + n, n, 1e-5f);
      for (int i = 0; i < n; i++)
	nf_loop_near ("x after both adds", i, x[i], x1[i] + keep[i], 1e-5L,
		      2 + fabsl (x1[i]));
      nf_loop_check_rmsnorm_f32 (xb, x, w, n, 1e-5f, NF_PLUGIN);

      memcpy (x, x0, sizeof x);
      calls_counted = 0;
      not_fused (x, xb, xb2, w, n);
      CHECK (calls_counted == 1);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 5 } } */
/* { dg-final { nf-report-region RMSNorm layer 52 outlined } } */
/* { dg-final { nf-report-region RMSNorm layer 54 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
