/* Area: nf-loop, MulRedSqrt, float data summed in double.
   Purpose: sqrt (s) of a double sum of float squares, as common code
   writes it: exact squares ((double) x[i] * x[i]) and float squares
   widened ((double) (x[i] * x[i]), llama.cpp's common_embd_normalize).
   Where the sum's order is the loop's (no -fassociative-math) the call
   is nf_nrm2d_f32, whose error-free sum makes the norm within 0.5 ulp +
   2^-11 and never worse than the loop (the double sum of
   nf_sumsq_f32, in another order, was 0.597 ulp where the loop's was
   0.403: make check-fuzz-long); under -ffast-math, where the loop's sum
   may be reordered too, nf_sumsq_f32 and the root.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) double
norm_exact (const float *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += (double) x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_(nrm2d|sumsq)_f32" } */
  return sqrt (s);
}

__attribute__ ((noipa)) double
norm_widened (const float *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_(nrm2d|sumsq)_f32" } */
  return sqrt (s);
}

static float x[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

static double
plain_exact (const float *v, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double) v[i] * v[i];
  return sqrt (s);
}

int
main (void)
{
  static const int ns[] = { 1, 2, 3, 5, 7, 13, 33, 100, 4096 };
  for (int rep = 0; rep < 8; rep++)
    for (size_t k = 0; k < NF_N (ns); k++)
      {
	int n = ns[k];
	NF_LOOP_FILL (float, x, n, 10 + rep, 0);
	long double ss = 0;
	for (int i = 0; i < n; i++)
	  ss += (long double) x[i] * x[i];
	long double ref = sqrtl (ss);
	int fused = NF_FUSED (norm_exact (x, n));
	double a = norm_exact (x, n), p = plain_exact (x, n);
	long double ea = NF_ULPS_D (a, ref), ep = NF_ULPS_D (p, ref);
	CHECK (NF_PLUGIN || !fused);
	/* Fused in the loop's order: the error-free kernel, never worse
	   than the loop; else (fast math) within the loop's own bound.  */
	if (fused && NF_EXACT_ORIG && !(ea <= 0.5L + 0x1p-11L && ea <= ep + 0x1p-11L))
	  fprintf (stderr, "norm_exact n=%d: %La (%Lg ulp), loop %La (%Lg)\n",
		   n, (long double) a, ea, (long double) p, ep);
	CHECK (!fused || !NF_EXACT_ORIG
	       || (ea <= 0.5L + 0x1p-11L && ea <= ep + 0x1p-11L));
	CHECK (fabsl (a - ref) <= 1e-12L * ref);
	/* The widened float squares: each rounded to float by the loop,
	   exact in the kernel.  */
	double b = norm_widened (x, n);
	CHECK (fabsl (b - ref) <= 1e-6L * ref);
	if (fused && NF_EXACT_ORIG)
	  CHECK (NF_ULPS_D (b, ref) <= 0.5L + 0x1p-11L);
      }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 2 } } */
/* { dg-final { nf-report-missed-count 0 } } */
/* { dg-final { nf-if-flags {^(?!.*(fast-math|Ofast))} { nf-report-scan {"callee": "nf_nrm2d_f32"} 2 } } } */
/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-scan {"callee": "nf_sumsq_f32"} 2 } } } */
