/* Area: nf-loop, Dot, _Float16 weights.
   Purpose: a float sum of _Float16 weights against a float vector (a
   quantized model's matmul) becomes one call of nf_matvec_f16, its
   results within half an ulp of a long double reference plus the double
   sum's error; a plain one within the float loop's.  A file of its own:
   GCC 11 has no _Float16 on x86-64, and matvec.c's float and double
   cases must still run there.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
matmul_f16 (float *y, const _Float16 *w, const float *x, int d, int n)
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f16" } */
    {
      float s = 0;
      for (int j = 0; j < n; j++)
	s += (float) w[i * n + j] * x[j];
      y[i] = s;
    }
}

#define D 9
static float x[NF_LOOP_MAX], y[D + 1];
static _Float16 wh[D * NF_LOOP_MAX];

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 2, 0);
  NF_LOOP_FILL (_Float16, wh, D * NF_LOOP_MAX, 5, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    for (size_t d = 0; d <= D; d += 4)
      {
	size_t n = nf_loop_ns[k];
	y[d] = NF_LOOP_SENTINEL;
	int fused = NF_FUSED (matmul_f16 (y, wh, x, d, n));
	CHECK (y[d] == (float) NF_LOOP_SENTINEL);
	for (size_t i = 0; i < d; i++)
	  {
	    long double s = 0, a = 0;
	    for (size_t j = 0; j < n; j++)
	      {
		s += (long double) wh[i * n + j] * x[j];
		a += fabsl ((long double) wh[i * n + j] * x[j]);
	      }
	    /* Fused: NF_LOOP_CR ulp of the result plus n 2^-50 of the sum
	       of |products| (double sums); plain: the float loop's
	       n 2^-23.  */
	    long double r = fabsl (s);
	    long double tol = fused ? NF_LOOP_CR * 0x1p-23L * r
					+ 0x1p-50L * n * a
				    : (n + 1) * 0x1p-23L * a;
	    if (fabsl (y[i] - s) > tol)
	      {
		fprintf (stderr, "n=%zu i=%zu fused=%d: got %a ref %La\n", n,
			 i, fused, y[i], s);
		nf_failures++;
	      }
	  }
	if (NF_PLUGIN && d > 0 && NF_MATVEC_PAYS (d, n))
	  CHECK (fused);
      }
  NF_DONE ();
}

/* { dg-final { nf-report-regions Dot 1 } } */
/* { dg-final { nf-report-region Dot matmul_f16 14 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
