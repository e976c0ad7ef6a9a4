/* Area: nf-loop, Elementwise: the -ffast-math gate.
   Purpose: under -ffast-math with AVX2 vectors GCC vectorizes ELU itself
   through 8-lane clones, faster than a program (bench/kernels: 0.9x), so
   the loop is left to the vectorizer: prepared, not outlined.  Compiled
   only (the machine may lack AVX2).  */
/* { dg-do compile } */
/* { dg-options "-O2 -ffast-math -mavx2 -mfma" } */
#include <math.h>

void
elu (float *y, const float *x, int n, float alpha)
{
  for (int i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : alpha * (expf (x[i]) - 1.0f); /* { dg-optimized "Elementwise: loop calling nf_expm1f_fast prepared for the vectorizer" } */
}

/* { dg-prune-output "Expm1: replaced|Elementwise: loop outlined" } */
/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */
/* { dg-final { nf-report-regions Elementwise 0 } } */
