/* Area: nf-loop, Softmax: the report's errno note.
   Purpose: with math errno (GCC's default) the region's notes say that
   the kernel never sets errno, where the loop's expf sets ERANGE for an
   exp that underflows (a difference below about -103).  Compiled only:
   the report is what is tested.  */
/* { dg-do compile } */
/* { dg-options "-fmath-errno -fno-finite-math-only" } */
#include <math.h>

void
softmax (float *y, const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
    if (x[i] > m)
      m = x[i];
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  for (int i = 0; i < n; i++)
    y[i] /= s;
}

/* { dg-final { nf-report-regions Softmax 1 } } */
/* { dg-final { nf-report-scan {errno: the fused kernel never sets errno} 1 } } */
