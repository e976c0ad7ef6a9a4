/* Area: nf-loop, RMSNorm, rows, near misses.
   Purpose: row loops one step from the rows kernel keep their call per
   row and say why not one call: rows a constant 64 elements apart whose
   length is a variable (a window, not rows), and a weight indexed by the
   row.  A thread's share of the rows, ggml's for (r = ith; r < rows;
   r += nth), is no row loop to call once (its trip count is not
   computable) and no near miss either: no line for it.  Each row is
   checked against a long double reference.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rows_window (float *out, const float *in, const float *w, int rows, int dim)
{
  for (int r = 0; r < rows; r++) /* { dg-missed "RMSNorm: not rewritten: the rows are not one row length apart" } */
    {
      const float *x = in + r * 64;
      float *y = out + r * 64;
      float ss = 0.0f;
      for (int j = 0; j < dim; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (int j = 0; j < dim; j++) y[j] = w[j] * (ss * x[j]);
    }
}

__attribute__ ((noipa)) void
rows_weights (float *out, const float *in, const float *w, int rows, int dim)
{
  for (int r = 0; r < rows; r++) /* { dg-missed "RMSNorm: not rewritten: the weight is indexed by the row" } */
    {
      const float *x = in + r * dim;
      float *y = out + r * dim;
      const float *wr = w + r * dim;
      float ss = 0.0f;
      for (int j = 0; j < dim; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (int j = 0; j < dim; j++) y[j] = wr[j] * (ss * x[j]);
    }
}

__attribute__ ((noipa)) void
rows_thread (float *out, const float *in, const float *w, long rows, long dim,
	     int ith, int nth)
{
  for (long r = ith; r < rows; r += nth)
    {
      const float *x = in + r * dim;
      float *y = out + r * dim;
      float ss = 0.0f;
      for (long j = 0; j < dim; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (long j = 0; j < dim; j++) y[j] = w[j] * (ss * x[j]);
    }
}

#define ROWS 3
static float x[ROWS * 64], w[ROWS * 64], y[ROWS * 64 + 1];

#pragma GCC optimize ("O0")

int
main (void)
{
  static const int ns[] = { 0, 1, 7, 33, 64 };
  NF_LOOP_FILL (float, x, ROWS * 64, 1, 0);
  NF_LOOP_FILL (float, w, ROWS * 64, 2, 1);
  for (int k = 0; k < 5; k++)
    {
      int n = ns[k];
      memset (y, 0, sizeof y);
      y[ROWS * 64] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rows_window (y, x, w, ROWS, n));
      for (int r = 0; r < ROWS; r++)
	nf_loop_check_rmsnorm_f32 (y + r * 64, x + r * 64, w, n, 1e-5f, fused);
      fused = NF_FUSED (rows_weights (y, x, w, ROWS, n));
      for (int r = 0; r < ROWS; r++)
	nf_loop_check_rmsnorm_f32 (y + r * n, x + r * n, w + r * n, n, 1e-5f,
				   fused);
      memset (y, 0, ROWS * 64 * sizeof *y);
      fused = NF_FUSED (rows_thread (y, x, w, ROWS, n, 0, 2));
      fused &= NF_FUSED (rows_thread (y, x, w, ROWS, n, 1, 2));
      for (int r = 0; r < ROWS; r++)
	nf_loop_check_rmsnorm_f32 (y + r * n, x + r * n, w, n, 1e-5f, fused);
      CHECK (y[ROWS * 64] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 3 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 3 } } */
/* { dg-final { nf-report-scan {"reason": "the loop's trip count is not computable"} 0 } } */
/* { dg-final { nf-report-scan {"reason": "the weight is indexed by the row"} 1 } } */
