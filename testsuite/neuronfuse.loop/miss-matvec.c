/* Area: nf-loop, Dot near misses.
   Purpose: loop nests one step from a matrix-vector product keep their
   loops, each with the guard that failed: a column-major matrix (the
   inner index strides by rows), a sum carried from row to row, a bias
   the sum starts from, two matrices read together (no vector), a row
   stored only on a condition (and, with no remark, a row whose inner
   loop runs only on one: what it stores is a merge of two values), a
   sliding window (a correlation, y[i + j]: rows one element apart); the
   remark is at the inner loop, the row's sum.  Every result is the
   loop's own.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
colmajor (float *y, const float *w, const float *x, int d, int n)
{
  for (int i = 0; i < d; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < n; j++) /* { dg-missed "Dot: not rewritten: an array access is not contiguous" } */
	s += w[j * d + i] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
carried (float *y, const float *w, const float *x, int d, int n)
{
  float s = 0.0f;
  for (int i = 0; i < d; i++)
    {
      for (int j = 0; j < n; j++) /* { dg-missed "Dot: not rewritten: the sum does not start from 0" } */
	s += w[i * n + j] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
bias (float *y, const float *w, const float *x, const float *b, int d, int n)
{
  for (int i = 0; i < d; i++)
    {
      float s = b[i];
      for (int j = 0; j < n; j++) /* { dg-missed "Dot: not rewritten: the sum does not start from 0" } */
	s += w[i * n + j] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
two_matrices (float *y, const float *a, const float *b, int d, int n)
{
  for (int i = 0; i < d; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < n; j++) /* { dg-missed "Dot: not rewritten: both factors advance with the row" } */
	s += a[i * n + j] * b[i * n + j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
masked (float *y, const float *w, const float *x, const int *keep, int d,
	int n)
{
  for (int i = 0; i < d; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < n; j++) /* { dg-missed "Dot: not rewritten: not every row is computed and stored" } */
	s += w[i * n + j] * x[j];
      if (keep[i])
	y[i] = s;
    }
}

__attribute__ ((noipa)) void
skipped (float *y, const float *w, const float *x, const int *keep, int d,
	 int n)
{
  for (int i = 0; i < d; i++)
    {
      float s = 0.0f;
      if (keep[i])
	for (int j = 0; j < n; j++) /* No remark: the stored sum is a merge.  */
	  s += w[i * n + j] * x[j];
      y[i] = s;
    }
}

/* A sliding window (opus's celt_pitch_xcorr_c): the "rows" of y are
   one element apart, never one row length.  */
__attribute__ ((noipa)) void
xcorr (float *xc, const float *x, const float *y, int len, int max_pitch)
{
  for (int i = 0; i < max_pitch; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < len; j++) /* { dg-missed "Dot: not rewritten: the rows of the matrix are not one row length apart" } */
	s += x[j] * y[i + j];
      xc[i] = s;
    }
}

#define D 5
#define N 33
static float w[D * N], x[N], b[D], y[D], r[D];

#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, w, D * N, 1, 0);
  NF_LOOP_FILL (float, x, N, 2, 0);
  NF_LOOP_FILL (float, b, D, 3, 0);
  CHECK (!NF_FUSED (colmajor (y, w, x, D, N)));
  for (int i = 0; i < D; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < N; j++)
	s += w[j * D + i] * x[j];
      nf_loop_near ("colmajor", i, y[i], s, 1e-5L, fabsf (s) + 1);
    }
  static const int keep[D] = { 1, 0, 1, 0, 0 };
  for (int i = 0; i < D; i++)
    y[i] = r[i] = -1;
  CHECK (!NF_FUSED (masked (y, w, x, keep, D, N)));
  CHECK (!NF_FUSED (skipped (r, w, x, keep, D, N)));
  for (int i = 0; i < D; i++)
    {
      float s = 0.0f;
      for (int j = 0; j < N; j++)
	s += w[i * N + j] * x[j];
      if (keep[i])
	{
	  nf_loop_near ("masked", i, y[i], s, 1e-5L, fabsf (s) + 1);
	  nf_loop_near ("skipped", i, r[i], s, 1e-5L, fabsf (s) + 1);
	}
      else
	CHECK (y[i] == -1 && r[i] == 0);
    }
  CHECK (!NF_FUSED (xcorr (r, x, w, N, D)));
  for (int i = 0; i < D; i++)
    {
      float c = 0.0f;
      for (int j = 0; j < N; j++)
	c += x[j] * w[i + j];
      nf_loop_near ("xcorr", i, r[i], c, 1e-5L, fabsf (c) + 1);
    }
  CHECK (!NF_FUSED (carried (y, w, x, D, N)));
  CHECK (!NF_FUSED (bias (r, w, x, b, D, N)));
  CHECK (!NF_FUSED (two_matrices (r, w, w, D, N)));
  float s = 0.0f;
  for (int i = 0; i < D; i++)
    {
      for (int j = 0; j < N; j++)
	s += w[i * N + j] * x[j];
      nf_loop_near ("carried", i, y[i], s, 1e-5L, fabsf (s) + 1);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Dot 0 } } */
/* { dg-final { nf-report-missed Dot "not contiguous" } } */
/* { dg-final { nf-report-missed Dot "does not start from 0" } } */
/* { dg-final { nf-report-missed Dot "both factors advance with the row" } } */
/* { dg-final { nf-report-missed Dot "not every row is computed and stored" } } */
/* { dg-final { nf-report-missed Dot "not one row length apart" } } */
