/* Area: nf-scalar in a loop, Expm1, report names (issue 20).
   Purpose: the argument of expf is a load, p[2 * i + 1]: the report
   names it as C from the address arithmetic (the element size divided
   out of the offsets, the index's variable), never by GCC's SSA name
   ("_4"); the result is named after where it is stored, y[i].  The
   strided read keeps the loop out of the array kernels: the scalar
   rewrite is the region.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
f (float *y, const float *p, int n)
{
  for (int i = 0; i < n; i++) y[i] = expf (p[2 * i + 1]) - 1.0f; /* { dg-optimized "Expm1: replaced expf \\(x\\) - 1 by nf_expm1f(_fast)? \\(x\\)" } */
}

/* Through a pointer: the reference is no Expm1 for neuronfuse-clang.  */
float (*volatile expf_fp) (float) = expf;

static float p[2 * NF_LOOP_MAX + 2], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  for (int i = 0; i < 2 * NF_LOOP_MAX + 2; i++)
    p[i] = ldexpf ((i % 2 ? -1 : 1) * (1 + i % 97), i % 30 - 30);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      y[n] = NF_LOOP_SENTINEL;
      f (y, p, n);
      for (size_t i = 0; i < n; i++)
	CHECK (NF_PLUGIN ? NF_ULPS_F (y[i], expm1l (p[2 * i + 1])) <= 1
			 : fabsf (y[i] - (expf_fp (p[2 * i + 1]) - 1.0f))
			     <= 4 * FLT_EPSILON
				  * fmaxf (1, fabsf (expf_fp (p[2 * i + 1]))));
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region Expm1 f 14 rewritten } } */
/* { dg-final { nf-report-scan {"live_ins": \[\s*"p\[2 \* i \+ 1\]"\s*\]} 1 } } */
/* { dg-final { nf-report-scan {"live_outs": \[\s*"y\[i\]"\s*\]} 1 } } */
