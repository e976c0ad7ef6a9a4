/* Area: nf-loop, MulRedSqrt, float.
   Purpose: the sum written s = s + x[i] * x[i] (and s = x[i] * x[i] + s)
   instead of s += ...: the same accumulation, outlined like it.  The
   idiom fuzzer found that neuronfuse-clang took only +=.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s = s + x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

__attribute__ ((noipa)) float
l2_swapped (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s = x[i] * x[i] + s; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  return sqrtf (s);
}

static float x[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = l2 (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      fused = NF_FUSED (got = l2_swapped (x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 2 } } */
/* { dg-final { nf-report-region MulRedSqrt l2 12 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_swapped 20 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f32"} 2 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
