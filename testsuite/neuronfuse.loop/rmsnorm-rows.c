/* Area: nf-loop, RMSNorm, rows.
   Purpose: rows of DIM floats normalised in an outer loop, one gain for
   all rows: the two inner loops are one region, outlined (a call per
   row, or one nf_rmsnorm_rows_f32 call for all).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm_rows (float *out, const float *in, const float *w, int rows, int dim)
{
  for (int r = 0; r < rows; r++)
    {
      const float *x = in + r * dim;
      float *y = out + r * dim;
      float ss = 0.0f;
      for (int j = 0; j < dim; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_(rows_)?f32" } */
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (int j = 0; j < dim; j++) y[j] = w[j] * (ss * x[j]);
    }
}

#define ROWS 3
static float x[ROWS * NF_LOOP_MAX], w[NF_LOOP_MAX], y[ROWS * NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  static const int rowss[] = { 0, 1, ROWS };
  NF_LOOP_FILL (float, x, ROWS * NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns) * NF_N (rowss); k++)
    {
      size_t n = nf_loop_ns[k / NF_N (rowss)];
      int rows = rowss[k % NF_N (rowss)];
      memset (y, 0, sizeof y);
      y[rows * n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm_rows (y, x, w, rows, n));
      for (int r = 0; r < rows; r++)
	nf_loop_check_rmsnorm_f32 (y + r * n, x + r * n, w, n, 1e-5f,
				   fused);
      CHECK (y[rows * n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm_rows 16 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_rmsnorm_(rows_)?f32"} 1 } } */
