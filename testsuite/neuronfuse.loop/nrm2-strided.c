/* Area: nf-loop, MulRedSqrt and RMSNorm over a run-time stride (issue 19).
   Purpose: BLAS's x[i * incx] and GSL's v->data[i * v->stride] are
   contiguous when the stride is 1, which only the run time knows: the
   call stands for the loop behind the test that the step is the element
   size, and any other stride runs the loop itself (with its own
   results).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
nrm2 (const float *x, int n, int incx)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i * incx] * x[i * incx]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

struct vec
{
  size_t size, stride;
  double *data;
};

/* The stride read once before the loop.  Read in the loop, as GSL's
   gsl_vector_get (f, i) inlined reads it, the step is the late pass's
   alone, which -O3's own versioning for a unit stride
   (-fversion-loops-for-strides) splits into two loops first, and -Os
   leaves in the loop: fused at -O2 only (a limitation).  */
__attribute__ ((noipa)) double
enorm (const struct vec *f)
{
  double e2 = 0;
  size_t n = f->size, stride = f->stride;
  const double *data = f->data;
  for (size_t i = 0; i < n; i++) /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
    {
      double fi = data[i * stride];
      e2 += fi * fi;
    }
  return sqrt (e2);
}

static float x[2 * NF_LOOP_MAX];
static double xd[2 * NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, 2 * NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (double, xd, 2 * NF_LOOP_MAX, 2, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = nrm2 (x, n, 1));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      struct vec v = { n, 1, xd };
      double gd;
      fused = NF_FUSED (gd = enorm (&v));
      nf_loop_check_nrm2_f64 (gd, xd, n, fused);
      /* Stride 2: the loop, no call.  */
      long double s2 = 0, d2 = 0;
      for (int i = 0; i < n; i++)
	{
	  s2 += (long double) x[2 * i] * x[2 * i];
	  d2 += (long double) xd[2 * i] * xd[2 * i];
	}
      fused = NF_FUSED (got = nrm2 (x, n, 2));
      CHECK (!fused || n == 0);
      nf_loop_near ("nrm2 incx=2", n, got, sqrtl (s2), 1e-5L, sqrtl (s2));
      v.stride = 2;
      fused = NF_FUSED (gd = enorm (&v));
      CHECK (!fused || n == 0);
      nf_loop_near ("enorm stride=2", n, gd, sqrtl (d2), 1e-12L, sqrtl (d2));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 2 } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f32"} 1 } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f64"} 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
