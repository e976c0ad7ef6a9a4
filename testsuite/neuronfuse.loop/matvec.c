/* Area: nf-loop, Dot, float and double (_Float16 weights: matvec-f16.c,
   a file of its own, as GCC 11 has no _Float16 on x86-64).
   Purpose: the matrix-vector loop nests inference engines run become one
   call of the matrix-vector kernel: llama2.c's matmul (w[i * n + j],
   int sizes), a double one (size_t sizes), a double sum of float products
   stored as float, a row read through a pointer set per row, a
   layer's matrix at an offset, and induction variables the next loop
   reuses.  Each result is checked against a long double
   reference: a fused one within half an ulp of it plus the double sum's
   error, a plain one within the float loop's.  An output that overlaps
   the matrix runs the original loops (the guard).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
matmul (float *xout, float *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

__attribute__ ((noipa)) void
matmul_f64 (double *y, const double *w, const double *x, size_t d, size_t n)
{
  for (size_t i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f64" } */
    {
      double s = 0;
      for (size_t j = 0; j < n; j++)
	s += w[i * n + j] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
matmul_dacc (float *y, const float *w, const float *x, int d, int n)
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      double s = 0;
      for (int j = 0; j < n; j++)
	s += (double) w[i * n + j] * x[j];
      y[i] = (float) s;
    }
}

/* A row pointer set per row (&w[i * n]), and a layer's matrix at an
   offset, the vector first (llama2.c's w->wq + l * dim * dim).  */
__attribute__ ((noipa)) void
matmul_rowptr (float *y, const float *w, const float *x, int d, int n)
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      const float *row = &w[i * n];
      float s = 0.0f;
      for (int j = 0; j < n; j++)
	s += row[j] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
matmul_layer (float *y, const float *w, int l, const float *x, int d, int n)
{
  const float *wl = w + (size_t) l * d * n;
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float s = 0.0f;
      for (int j = 0; j < n; j++)
	s += x[j] * wl[i * n + j];
      y[i] = s;
    }
}

/* Induction variables declared for the whole function and reused by
   the next loop (opus's tonality_analysis): their values after the
   nest are dead.  */
__attribute__ ((noipa)) void
matmul_reuse (float *y, const float *w, const float *x, float *z, int d,
	      int n)
{
  int i, j;
  for (i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float s = 0.0f;
      for (j = 0; j < n; j++)
	s += w[i * n + j] * x[j];
      y[i] = s;
    }
  for (i = 0; i < d; i++)
    z[i] = 2 * y[i];
}

/* 2-D arrays: a static matrix of constant shape, a variably modified
   parameter w[d][n]; 2^16 elements, so that the call pays at every
   level (NF_MATVEC_PAYS).  */
#define D2 16
#define N2 4096
static float W2[D2][N2], y2[D2];

__attribute__ ((noipa)) void
matmul_2d (float *y, const float *x)
{
  for (int i = 0; i < D2; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float s = 0;
      for (int j = 0; j < N2; j++)
	s += W2[i][j] * x[j];
      y[i] = s;
    }
}

__attribute__ ((noipa)) void
matmul_vla (int d, int n, float y[d], const float w[d][n], const float x[n])
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float s = 0;
      for (int j = 0; j < n; j++)
	s += w[i][j] * x[j];
      y[i] = s;
    }
}

#define D 9
static float w[D * NF_LOOP_MAX], x[NF_LOOP_MAX], y[D + 1];
static double wd[D * NF_LOOP_MAX], xd[NF_LOOP_MAX], yd[D + 1];

#pragma GCC optimize ("O0")

/* matmul, not optimized: the loop's results.  */
static void
matmul_O0 (float *xout, float *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++)
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

/* Row I of a D x N product against the long double reference: within
   NF_LOOP_CR ulp plus N 2^-50 of the sum of |products| when FUSED
   (double sums), within the float loop's N 2^-23 of it otherwise.  */
static void
check_row (const char *what, long double got, long double ref,
	   long double abs, size_t n, size_t i, int fused, int dbl)
{
  long double ulp = dbl ? 0x1p-52L : 0x1p-23L;
  long double r = fabsl (ref);
  long double tol = fused ? NF_LOOP_CR * ulp * (r > 0 ? r : 0)
			      + (dbl ? 0x1p-104L : 0x1p-50L) * n * abs
			  : (n + 1) * ulp * abs;
  if (fabsl (got - ref) > tol)
    {
      fprintf (stderr, "%s n=%zu i=%zu fused=%d: got %La ref %La tol %Lg\n",
	       what, n, i, fused, got, ref, tol);
      nf_failures++;
    }
}

int
main (void)
{
  NF_LOOP_FILL (float, w, D * NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (double, wd, D * NF_LOOP_MAX, 3, 0);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 4, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    for (size_t d = 0; d <= D; d += 4)
      {
	size_t n = nf_loop_ns[k];
	y[d] = yd[d] = NF_LOOP_SENTINEL;
	int f1 = NF_FUSED (matmul (y, x, w, n, d));
	int f2 = NF_FUSED (matmul_f64 (yd, wd, xd, d, n));
	CHECK (y[d] == (float) NF_LOOP_SENTINEL);
	CHECK (yd[d] == NF_LOOP_SENTINEL);
	for (size_t i = 0; i < d; i++)
	  {
	    long double s = 0, a = 0, sd = 0, ad = 0;
	    for (size_t j = 0; j < n; j++)
	      {
		s += (long double) w[i * n + j] * x[j];
		a += fabsl ((long double) w[i * n + j] * x[j]);
		sd += (long double) wd[i * n + j] * xd[j];
		ad += fabsl ((long double) wd[i * n + j] * xd[j]);
	      }
	    check_row ("matmul", y[i], s, a, n, i, f1, 0);
	    check_row ("matmul_f64", yd[i], sd, ad, n, i, f2, 1);
	  }
	int f4 = NF_FUSED (matmul_dacc (y, w, x, d, n));
	for (size_t i = 0; i < d; i++)
	  {
	    long double s = 0, a = 0;
	    for (size_t j = 0; j < n; j++)
	      {
		s += (long double) w[i * n + j] * x[j];
		a += fabsl ((long double) w[i * n + j] * x[j]);
	      }
	    check_row ("matmul_dacc", y[i], s, a, n, i, f4, 0);
	  }
	int f5 = NF_FUSED (matmul_rowptr (y, w, x, d, n));
	for (int pass = 0; pass < 2; pass++)
	  {
	    int f6 = pass ? NF_FUSED (matmul_layer (y, w, 0, x, d, n)) : f5;
	    for (size_t i = 0; i < d; i++)
	      {
		long double s = 0, a = 0;
		for (size_t j = 0; j < n; j++)
		  {
		    s += (long double) w[i * n + j] * x[j];
		    a += fabsl ((long double) w[i * n + j] * x[j]);
		  }
		check_row (pass ? "matmul_layer" : "matmul_rowptr", y[i], s, a,
			   n, i, f6, 0);
	      }
	    if (NF_PLUGIN && d > 0 && NF_MATVEC_PAYS (d, n))
	      CHECK (f6);
	  }
	static float z[D];
	int f7 = NF_FUSED (matmul_reuse (y, w, x, z, d, n));
	for (size_t i = 0; i < d; i++)
	  {
	    long double s = 0, a = 0;
	    for (size_t j = 0; j < n; j++)
	      {
		s += (long double) w[i * n + j] * x[j];
		a += fabsl ((long double) w[i * n + j] * x[j]);
	      }
	    check_row ("matmul_reuse", y[i], s, a, n, i, f7, 0);
	    CHECK (z[i] == 2 * y[i]);
	  }
	if (NF_PLUGIN && d > 0 && NF_MATVEC_PAYS (d, n))
	  CHECK (f1 && f2 && f4 && f7);
      }
  NF_LOOP_FILL (float, &W2[0][0], D2 * N2, 7, 0);
  CHECK (NF_FUSED (matmul_2d (y2, x)) == NF_PLUGIN);
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass)
	CHECK (NF_FUSED (matmul_vla (D2, N2, y2, (const float (*)[N2]) W2, x))
	       == NF_PLUGIN);
      for (int i = 0; i < D2; i++)
	{
	  long double s = 0, a = 0;
	  for (int j = 0; j < N2; j++)
	    {
	      s += (long double) W2[i][j] * x[j];
	      a += fabsl ((long double) W2[i][j] * x[j]);
	    }
	  check_row ("matmul_2d", y2[i], s, a, N2, i, NF_PLUGIN, 0);
	}
    }
  /* The output inside the matrix: the guard's fallback, the loop's
     results (with the rows it overwrites; up to the sum's order, which
     -ffast-math and contraction change).  */
  static float wc[4 * 8], wr[4 * 8];
  NF_LOOP_FILL (float, wc, 4 * 8, 6, 0);
  memcpy (wr, wc, sizeof wc);
  CHECK (!NF_FUSED (matmul (wc + 3 * 8 + 2, x, wc, 8, 4)));
  matmul_O0 (wr + 3 * 8 + 2, x, wr, 8, 4);
  for (int i = 0; i < 4 * 8; i++)
    nf_loop_near ("overlap", i, wc[i], wr[i], 1e-5L, fabsf (wr[i]) + 1);
  NF_DONE ();
}

/* { dg-final { nf-report-regions Dot 8 } } */
/* { dg-final { nf-report-region Dot matmul 18 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
