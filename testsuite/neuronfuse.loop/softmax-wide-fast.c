/* Area: nf-loop, Softmax: the -ffast-math gate.
   Purpose: under -ffast-math with AVX2 vectors GCC vectorizes the three
   loops itself (libmvec's 8-lane expf), faster than the kernel from a
   few hundred elements on (bench/plugin-vs-plain), so the loops are
   left alone and the remark says why.  Compiled only (the machine may
   lack AVX2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -ffast-math -mavx2 -mfma" } */
#include <math.h>

void
softmax (float *x, int size)
{
  float max_val = x[0];
  for (int i = 1; i < size; i++) /* { dg-missed "Softmax: not rewritten: the compiler vectorizes this softmax itself with wide vectors \\(-ffast-math\\), faster than the kernel" } */
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    {
      x[i] = expf (x[i] - max_val);
      sum += x[i];
    }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */
/* { dg-final { nf-report-regions Softmax 0 } } */
