/* Area: nf-loop, the residual add then RMSNorm (issue 19).
   Purpose: a transformer block's x[i] += r[i] followed by the RMSNorm of
   x, written in one function or as llama2.c writes it (an rmsnorm
   function inlined after the add, with y another buffer, or y the very
   buffer just added: its FFN residual), in float and double, is one
   call of nf_add_rmsnorm_f32/f64: x holds x + r bit for bit as the loop
   stores it, y the RMSNorm of the new x within 2 ulps and no worse than
   the loops.  The call is guarded: r overlapping x, or the add over
   fewer elements than the norm, run the loops.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
block (float *y, float *x, const float *r, const float *w, int n)
{
  for (int i = 0; i < n; i++) x[i] += r[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f32" } */
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) y[j] = w[j] * (ss * x[j]);
}

__attribute__ ((noipa)) void
block_f64 (double *y, double *x, const double *r, size_t n)
{
  for (size_t i = 0; i < n; i++) x[i] = r[i] + x[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f64" } */
  double ss = 0;
  for (size_t j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f64" } */
  ss = 1.0 / sqrt (ss / n + 1e-6);
  for (size_t j = 0; j < n; j++) y[j] = ss * x[j];
}

/* llama2.c's rmsnorm, once per caller, inline: GCC inlines it from -O2
   on (the add and the inlined call fuse in nf-loop); at -O1 and -Os the
   call stays, a call of a function that is one RMSNorm call (the add and
   the call fuse in nf-early-loop).  */
static inline void
rmsnorm_attn (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static inline void
rmsnorm_ffn (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

/* llama2.c's forward: the attention's residual xb2, the FFN's rmsnorm
   into xb; then the FFN's residual xb, the next layer's rmsnorm into
   xb, the very buffer just added.  */
__attribute__ ((noipa)) void
attn_residual (float *x, float *xb, float *xb2, float *w, int dim)
{
  for (int i = 0; i < dim; i++) x[i] += xb2[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f32" } */
  rmsnorm_attn (xb, x, w, dim);
}

__attribute__ ((noipa)) void
ffn_residual (float *x, float *xb, float *w, int dim)
{
  for (int i = 0; i < dim; i++) x[i] += xb[i]; /* { dg-optimized "RMSNorm: residual add and RMSNorm outlined into a call to nf_add_rmsnorm_f32" } */
  rmsnorm_ffn (xb, x, w, dim);
}

static float x[NF_LOOP_MAX], r[2 * NF_LOOP_MAX], w[NF_LOOP_MAX];
static float y[NF_LOOP_MAX + 1], x0[NF_LOOP_MAX], xb2[NF_LOOP_MAX];
static double xd[NF_LOOP_MAX], rd[NF_LOOP_MAX], yd[NF_LOOP_MAX], xd0[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

/* X0 + R as the loop adds it, in X.  */
static void
check_add (const float *x1, const float *xs, const float *rs, int n)
{
  for (int i = 0; i < n; i++)
    CHECK (x1[i] == (float) (xs[i] + rs[i]));
}

int
main (void)
{
  NF_LOOP_FILL (float, x0, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, r, 2 * NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 3, 1);
  NF_LOOP_FILL (double, xd0, NF_LOOP_MAX, 4, 0);
  NF_LOOP_FILL (double, rd, NF_LOOP_MAX, 5, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      memcpy (x, x0, sizeof x);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (block (y, x, r, w, n));
      check_add (x, x0, r, n);
      nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-5f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);

      memcpy (xd, xd0, sizeof xd);
      fused = NF_FUSED (block_f64 (yd, xd, rd, n));
      for (int i = 0; i < n; i++)
	CHECK (xd[i] == xd0[i] + rd[i]);
      nf_loop_check_rmsnorm_f64 (yd, xd, NULL, n, 1e-6, fused);

      /* In place: y is x.  */
      memcpy (x, x0, sizeof x);
      static float keep[NF_LOOP_MAX];
      for (int i = 0; i < n; i++)
	keep[i] = x0[i] + r[i];
      fused = NF_FUSED (block (x, x, r, w, n));
      nf_loop_check_rmsnorm_f32 (x, keep, w, n, 1e-5f, fused);

      /* r overlapping x (r = x + 1): the loops, with their results.  */
      memcpy (r, x0, sizeof x0);
      memcpy (keep, x0, sizeof x0);
      unsigned long before = nf_loop_calls;
      block (y, r, r + 1, w, n > 0 ? n - 1 : 0);
      if (n > 1)
	{
	  for (int i = 0; i < n - 1; i++)
	    CHECK (r[i] == (float) (keep[i] + keep[i + 1]));
	  /* The add ran as a loop; the RMSNorm after it may be a call.  */
	  CHECK (nf_loop_calls - before <= 1);
	}
      NF_LOOP_FILL (float, r, 2 * NF_LOOP_MAX, 2, 0);

      /* llama2.c's two residuals, the second adding y itself.  */
      memcpy (x, x0, sizeof x);
      memcpy (xb2, r, sizeof xb2);
      static float xb[NF_LOOP_MAX], x1[NF_LOOP_MAX], keep2[NF_LOOP_MAX];
      fused = NF_FUSED (attn_residual (x, xb, xb2, w, n));
      check_add (x, x0, r, n);
      nf_loop_check_rmsnorm_f32 (xb, x, w, n, 1e-5f, fused);
      memcpy (x1, x, sizeof x1);
      memcpy (keep2, xb, sizeof keep2);
      fused = NF_FUSED (ffn_residual (x, xb, w, n));
      check_add (x, x1, keep2, n);
      nf_loop_check_rmsnorm_f32 (xb, x, w, n, 1e-5f, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 8 } } */
/* { dg-final { nf-report-region RMSNorm attn_residual 65 outlined } } */
/* { dg-final { nf-report-region RMSNorm ffn_residual 72 outlined } } */
/* { dg-final { nf-report-region RMSNorm block 16 outlined } } */
/* { dg-final { nf-report-region RMSNorm block_f64 26 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
