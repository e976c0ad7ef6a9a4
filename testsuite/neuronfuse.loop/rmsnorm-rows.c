/* Area: nf-loop, RMSNorm, rows.
   Purpose: rows of DIM normalised in an outer loop, one gain for all
   rows, become one call of the rows kernel: float rows written out
   (int sizes), double rows (size_t sizes, no gain), and llama2.c's
   rmsnorm inlined into a row loop (its own body keeps its per-row call).
   The rows in place (y == x) take the call too; an output one row
   before the input overlaps it and runs the per-row code (the guard).
   Each row is checked against a long double reference.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm_rows (float *out, const float *in, const float *w, int rows, int dim)
{
  for (int r = 0; r < rows; r++) /* { dg-optimized "RMSNorm: loop nest outlined into a call to nf_rmsnorm_rows_f32" } */
    {
      const float *x = in + r * dim;
      float *y = out + r * dim;
      float ss = 0.0f;
      for (int j = 0; j < dim; j++) ss += x[j] * x[j];
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (int j = 0; j < dim; j++) y[j] = w[j] * (ss * x[j]);
    }
}

__attribute__ ((noipa)) void
rmsnorm_rows_f64 (double *y, const double *x, size_t rows, size_t n)
{
  for (size_t r = 0; r < rows; r++) /* { dg-optimized "RMSNorm: loop nest outlined into a call to nf_rmsnorm_rows_f64" } */
    {
      double ss = 0;
      for (size_t j = 0; j < n; j++) ss += x[r * n + j] * x[r * n + j];
      ss = 1.0 / sqrt (ss / n + 1e-6);
      for (size_t j = 0; j < n; j++) y[r * n + j] = ss * x[r * n + j];
    }
}

static void
rmsnorm (float *o, const float *x, const float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

__attribute__ ((noipa)) void
rmsnorm_rows_inlined (float *out, const float *in, const float *w, int rows,
		      int dim)
{
  for (int r = 0; r < rows; r++) /* { dg-optimized "RMSNorm: loop nest outlined into a call to nf_rmsnorm_rows_f32" } */
    rmsnorm (out + r * dim, in + r * dim, w, dim);
}

#define ROWS 3
static float x[ROWS * NF_LOOP_MAX], w[NF_LOOP_MAX], y[(ROWS + 1) * NF_LOOP_MAX];
static float keep[ROWS * NF_LOOP_MAX];
static double xd[ROWS * NF_LOOP_MAX], yd[ROWS * NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  static const int rowss[] = { 0, 1, ROWS };
  NF_LOOP_FILL (float, x, ROWS * NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  NF_LOOP_FILL (double, xd, ROWS * NF_LOOP_MAX, 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns) * NF_N (rowss); k++)
    {
      size_t n = nf_loop_ns[k / NF_N (rowss)];
      int rows = rowss[k % NF_N (rowss)];
      for (int f = 0; f < 2; f++)
	{
	  memset (y, 0, sizeof y);
	  y[rows * n] = NF_LOOP_SENTINEL;
	  int fused = NF_FUSED (f ? rmsnorm_rows_inlined (y, x, w, rows, n)
				  : rmsnorm_rows (y, x, w, rows, n));
	  for (int r = 0; r < rows; r++)
	    nf_loop_check_rmsnorm_f32 (y + r * n, x + r * n, w, n, 1e-5f,
				       fused);
	  CHECK (y[rows * n] == (float) NF_LOOP_SENTINEL);
	}
      memset (yd, 0, sizeof yd);
      yd[rows * n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm_rows_f64 (yd, xd, rows, n));
      for (int r = 0; r < rows; r++)
	nf_loop_check_rmsnorm_f64 (yd + r * n, xd + r * n, NULL, n, 1e-6,
				   fused);
      CHECK (yd[rows * n] == (double) NF_LOOP_SENTINEL);
      /* In place: one call.  */
      memcpy (y, x, rows * n * sizeof *y);
      memcpy (keep, x, rows * n * sizeof *y);
      fused = NF_FUSED (rmsnorm_rows (y, y, w, rows, n));
      for (int r = 0; r < rows; r++)
	nf_loop_check_rmsnorm_f32 (y + r * n, keep + r * n, w, n, 1e-5f,
				   fused);
      /* The output one row before the input: the ranges overlap, row r
	 writes where row r - 1 read; each row's own, in turn.  */
      if (rows > 1 && n > 0)
	{
	  memcpy (y + n, x, rows * n * sizeof *y);
	  memcpy (keep, x, rows * n * sizeof *y);
	  fused = NF_FUSED (rmsnorm_rows (y, y + n, w, rows, n));
	  for (int r = 0; r < rows; r++)
	    nf_loop_check_rmsnorm_f32 (y + r * n, keep + r * n, w, n, 1e-5f,
				       fused);
	}
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 4 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm_rows 15 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_rows_f32"} 2 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_rows_f64"} 1 } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_f32"} 1 } } */
