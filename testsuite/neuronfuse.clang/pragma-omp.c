/* Area: neuronfuse-clang, loops that carry a #pragma.
   Purpose: a #pragma on the line before a loop (OpenMP's parallel for,
   GCC's ivdep) belongs to the loop: the call and its guard go before
   the pragma, which stays with the fallback loop (a Dot nest, an
   elementwise loop, an RMSNorm's first loop), or goes with a loop the
   rewrite removes (an L2 norm's); before an OpenMP loop the call is
   inside #ifndef _OPENMP (under -fopenmp the program's team runs the
   loop: the library's threads would compete with it).  The output
   builds with and without -fopenmp (a call between "#pragma omp
   parallel for" and its loop does not compile there) and gives the
   loops' results.  */
/* { nf-include-after "#include <stdlib.h>" } */
/* { nf-paths "" "-fopenmp" } */
#include <math.h>
#include <stdlib.h>

#define N 64

static void
matmul (float *xout, const float *x, const float *w, int n, int d)
{
  int i;
#pragma omp parallel for private(i)
  for (i = 0; i < d; i++)
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

static void
act (float *y, const float *x, int n)
{
  #pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = expf (x[i]) - 1.0f;
}

static void
rmsnorm (float *o, const float *x, const float *w, int n)
{
  float ss = 0.0f;
#pragma GCC ivdep
  for (int j = 0; j < n; j++)
    ss += x[j] * x[j];
  ss /= n;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < n; j++)
    o[j] = w[j] * (ss * x[j]);
}

static float
l2 (const float *x, int n)
{
  float s = 0.0f;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}

static float w[N * N], x[N], y[N], o[N];

int
main (void)
{
  for (int i = 0; i < N * N; i++)
    w[i] = (float) ((i * 7) % 13) / 8 - 0.75f;
  for (int i = 0; i < N; i++)
    x[i] = (float) ((i * 5) % 11) / 4 - 1.25f;
  matmul (y, x, w, N, N);
  for (int i = 0; i < N; i++)
    {
      double s = 0;
      for (int j = 0; j < N; j++)
	s += (double) w[i * N + j] * x[j];
      if (fabs (y[i] - s) > 1e-4 * (fabs (s) + 1))
	abort ();
    }
  act (y, x, N);
  for (int i = 0; i < N; i++)
    if (fabs (y[i] - expm1 (x[i])) > 1e-6 * (fabs (expm1 (x[i])) + 1))
      abort ();
  rmsnorm (o, x, x, N);
  double ss = 0;
  for (int i = 0; i < N; i++)
    ss += (double) x[i] * x[i];
  double r = 1 / sqrt (ss / N + 1e-5);
  for (int i = 0; i < N; i++)
    if (fabs (o[i] - x[i] * (r * x[i])) > 1e-5 * (fabs (x[i] * r * x[i]) + 1))
      abort ();
  if (fabs (l2 (x, N) - sqrt (ss)) > 1e-5 * sqrt (ss))
    abort ();
  return 0;
}
