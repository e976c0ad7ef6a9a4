/* Area: neuronfuse-clang, Softmax loops that carry a #pragma.
   Purpose: the three loops of a softmax become the call behind its
   guard, with the loops and what is between them as its else block;
   a #pragma before the max loop stays with the fallback, and an OpenMP
   one puts the call inside #ifndef _OPENMP (under -fopenmp the
   program's team runs the loops).  A softmax inside a row loop gets
   the row's indentation.  The output builds with and without -fopenmp
   and gives the loops' results (within the float loops' error).  */
/* { nf-include-after "#include <stdlib.h>" } */
/* { nf-paths "" "-fopenmp" } */
#include <math.h>
#include <stdlib.h>

#define N 48
#define ROWS 3

static void
softmax_out (float *y, const float *x, int n)
{
  float m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++)
    m = fmaxf (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  float inv = 1.0f / s;
#pragma GCC ivdep
  for (int i = 0; i < n; i++)
    y[i] *= inv;
}

static void
softmax_rows (float *att, int rows, int n)
{
  for (int r = 0; r < rows; r++)
    {
      float *x = att + r * n;
      float max_val = x[0];
      for (int i = 1; i < n; i++)
	if (x[i] > max_val)
	  max_val = x[i];
      float sum = 0.0f;
      for (int i = 0; i < n; i++)
	{
	  x[i] = expf (x[i] - max_val);
	  sum += x[i];
	}
      for (int i = 0; i < n; i++)
	x[i] /= sum;
    }
}

static float x[ROWS * N], y[N], a[ROWS * N];

/* Whether Y[0..N-1] is the softmax of X within 1e-5 relative.  */
static int
check (const float *y, const float *x, int n)
{
  double m = x[0], s = 0;
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  for (int i = 0; i < n; i++)
    s += exp ((double) x[i] - m);
  for (int i = 0; i < n; i++)
    {
      double r = exp ((double) x[i] - m) / s;
      if (fabs (y[i] - r) > 1e-5 * r)
	return 0;
    }
  return 1;
}

int
main (void)
{
  for (int i = 0; i < ROWS * N; i++)
    a[i] = x[i] = (float) ((i * 7) % 17) / 4 - 2.0f;
  softmax_out (y, x, N);
  if (!check (y, x, N))
    abort ();
  softmax_rows (a, ROWS, N);
  for (int r = 0; r < ROWS; r++)
    if (!check (a + r * N, x + r * N, N))
      abort ();
  return 0;
}
