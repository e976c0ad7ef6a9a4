/* Area: nf-loop, Softmax in C++: std::max and std::exp.
   Purpose: C++ code takes the max with std::max, whose reference
   arguments keep the max in memory until after the early pass; nf-loop
   meets the loops after header copying (each behind its zero-trip
   guard) and fuses them at -O2 and -O3.  (At -O1 and -Os the max stays
   in memory there too: no candidate, no remark.)  In C the same loops
   with a conditional expression are fused by nf-early-loop at every
   level.  Results within 1 ulp of a long double reference.  */
/* { dg-do run } */
#ifdef __cplusplus
#include <algorithm>
#include <cmath>
#endif
#include "nf-loop.h"

__attribute__ ((noipa)) void
softmax (float *x, int n)
{
  float m = x[0];
#ifdef __cplusplus
  for (int i = 1; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" "" { flags {^-O[23].*gnu\+\+17} } } */
    m = std::max (m, x[i]);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = std::exp (x[i] - m);
      s += x[i];
    }
#else
  for (int i = 1; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" "" { flags {^(?!.*gnu\+\+17)} } } */
    m = x[i] > m ? x[i] : m;
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = expf (x[i] - m);
      s += x[i];
    }
#endif
  for (int i = 0; i < n; i++)
    x[i] /= s;
}

static float x[NF_LOOP_MAX], keep[NF_LOOP_MAX];

#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, keep, NF_LOOP_MAX, 7, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memcpy (x, keep, sizeof x);
      int fused = NF_FUSED (softmax (x, n));
      nf_loop_check_softmax_f32 (x, keep, n, fused);
    }
  NF_DONE ();
}
