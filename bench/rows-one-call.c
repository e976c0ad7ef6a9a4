/* rows-one-call.c: issue 19's measurement by hand: a loop over ROWS rows
   of N floats normalised as users write it, built plain (PLAIN) and with
   the plugin (one nf_rmsnorm_rows_f32 call), against nf_rmsnorm_f32
   called once per row and nf_rmsnorm_rows_f32 called once, on the
   threads nf_get_num_threads gives.

     cc -O3 -march=native -c -DROWS_BUILD=plain bench/rows-one-call.c
     ... (bench/README.md, "rows in one call", has the commands)

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <math.h>
#include <stddef.h>

#ifdef ROWS_BUILD
#define ROWS_CAT_(a, b) a##_##b
#define ROWS_CAT(a, b) ROWS_CAT_ (a, b)
/* The row loop of one build (plain, or the plugin's).  */
void
ROWS_CAT (ROWS_BUILD, rmsnorm_rows) (float *out, const float *in,
				     const float *w, int rows, int dim)
{
  for (int r = 0; r < rows; r++)
    {
      const float *x = in + r * dim;
      float *y = out + r * dim;
      float ss = 0.0f;
      for (int j = 0; j < dim; j++)
	ss += x[j] * x[j];
      ss = 1.0f / sqrtf (ss / dim + 1e-5f);
      for (int j = 0; j < dim; j++)
	y[j] = w[j] * (ss * x[j]);
    }
}
#else
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "neuronfuse.h"

void plain_rmsnorm_rows (float *, const float *, const float *, int, int);
void plugin_rmsnorm_rows (float *, const float *, const float *, int, int);

enum { ROWS = 8192, N = 4096, REPS = 9 };

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (void)
{
  float *x = malloc (sizeof (float) * ROWS * N);
  float *y = malloc (sizeof (float) * ROWS * N);
  float *w = malloc (sizeof (float) * N);
  if (!x || !y || !w)
    return 1;
  for (size_t i = 0; i < (size_t) ROWS * N; i++)
    x[i] = (float) ((i * 2654435761u) % 2001) / 1000.0f - 1.0f, y[i] = 0;
  for (int i = 0; i < N; i++)
    w[i] = 1.0f + i / (float) N;
  const char *names[4] = { "plain loop", "plugin (one call)",
			   "nf_rmsnorm_f32 per row", "nf_rmsnorm_rows_f32" };
  double t[4][REPS];
  for (int r = 0; r < REPS; r++)
    for (int k = 0; k < 4; k++)
      {
	double t0 = now ();
	switch (k)
	  {
	  case 0:
	    plain_rmsnorm_rows (y, x, w, ROWS, N);
	    break;
	  case 1:
	    plugin_rmsnorm_rows (y, x, w, ROWS, N);
	    break;
	  case 2:
	    for (int i = 0; i < ROWS; i++)
	      nf_rmsnorm_f32 (y + (size_t) i * N, x + (size_t) i * N, w, N,
			      1e-5f);
	    break;
	  case 3:
	    nf_rmsnorm_rows_f32 (y, x, w, ROWS, N, 1e-5f);
	    break;
	  }
	t[k][r] = now () - t0;
      }
  printf ("%d rows of %d floats, %d threads, medians of %d:\n", ROWS, N,
	  nf_get_num_threads (), REPS);
  double m[4];
  for (int k = 0; k < 4; k++)
    {
      qsort (t[k], REPS, sizeof t[k][0], cmp);
      m[k] = t[k][REPS / 2];
      printf ("  %-24s %8.2f ms\n", names[k], 1e3 * m[k]);
    }
  printf ("plain / plugin %.2fx; per-row calls / one call %.2fx\n",
	  m[0] / m[1], m[2] / m[3]);
  return 0;
}
#endif
