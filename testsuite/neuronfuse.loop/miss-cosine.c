/* Area: nf-loop, MulRedSqrt near miss (issue 15).
   Purpose: cosine similarity sums a dot product and two squares in one
   loop: the norms are L2 norms, but no kernel computes several sums in
   one call, so the loop stays (the loops' own result), reported once
   with that reason; under -ffast-math GCC merges sqrtf (na) * sqrtf (nb)
   into one sqrt of the product, and the entry says so (it was RMSNorm's
   "multiplied by something other than 1 / trip count").  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) float
cosine (const float *a, const float *b, int n)
{
  float dot = 0, na = 0, nb = 0;
  for (int i = 0; i < n; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; } /* { dg-missed "MulRedSqrt: not rewritten" } */
  return dot / (sqrtf (na) * sqrtf (nb));
}

static float a[NF_LOOP_MAX], b[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, a, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, b, NF_LOOP_MAX, 2, 0);
  for (size_t k = 1; k < NF_N (nf_loop_ns); k++)
    {
      int n = nf_loop_ns[k];
      long double d = 0, na = 0, nb = 0;
      for (int i = 0; i < n; i++)
	{
	  d += (long double) a[i] * b[i];
	  na += (long double) a[i] * a[i];
	  nb += (long double) b[i] * b[i];
	}
      nf_loop_near ("cosine", n, cosine (a, b, n), d / sqrtl (na * nb), 1e-3L,
		    1);
    }
  CHECK (nf_loop_calls == 0);
  NF_DONE ();
}

/* -ffast-math folds sqrtf (na) * sqrtf (nb) into sqrtf (na * nb): the
   RMSNorm matcher then sees the sum multiplied (and says so).  */
/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-missed-count 1 } } */
/* { dg-final { nf-if-flags {^(?!.*(fast-math|Ofast))} { nf-report-missed MulRedSqrt "computes another sum too" } } } */
/* { dg-final { nf-if-flags {fast-math|Ofast} { nf-report-missed MulRedSqrt "multiplied by another sum under the sqrt" } } } */
