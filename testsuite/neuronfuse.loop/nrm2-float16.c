/* Area: nf-loop, MulRedSqrt, _Float16.
   Purpose: the L2 norm of _Float16 data summed in float, sqrtf (sum
   (float) x[i] * x[i]), is outlined into a call to nf_nrm2_f16 (a row
   of lower/callees.def and its kernel in runtime/, nothing in either
   front end); the norm is no less accurate than the float loop's.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
l2 (const _Float16 *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += (float) x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f16" } */
  return sqrtf (s);
}

static _Float16 x[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (_Float16, x, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got;
      int fused = NF_FUSED (got = l2 (x, n));
      nf_loop_check_nrm2_f16 (got, x, n, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-region MulRedSqrt l2 13 outlined } } */
/* { dg-final { nf-report-scan {"callee": "nf_nrm2_f16"} 1 } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
