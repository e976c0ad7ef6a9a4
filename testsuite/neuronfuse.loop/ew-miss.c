/* Area: nf-loop, Elementwise near misses.
   Purpose: bodies around expm1 that no program holds stay loops (made
   vectorizable through the clones where they can be) and say why: three
   input arrays (a program reads two), an integer scale (programs hold
   float and double values only), a value of the body used after the
   loop.  The results stay the plain loop's, within the scalar rewrite's
   bounds.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
three (float *y, const float *a, const float *b, const float *c, int n)
{
  for (int i = 0; i < n; i++) y[i] = a[i] * b[i] + (expf (c[i]) - 1.0f); /* { dg-missed "Elementwise: not rewritten: the loop body reads more than two arrays" "" { flags {^(?!-Os -ffast-math)} } } */
}

__attribute__ ((noipa)) void
int_scale (float *y, const float *x, int n, int k)
{
  for (int i = 0; i < n; i++) y[i] = k * (expf (x[i]) - 1.0f); /* { dg-missed "Elementwise: not rewritten: the loop body converts an integer" } */
}

__attribute__ ((noipa)) float
used_after (float *y, const float *x, int n)
{
  float t = 0;
  for (int i = 0; i < n; i++) /* { dg-missed "Elementwise: not rewritten: a value computed in the (loop|region) is used after it" } */
    {
      t = expf (x[i]) - 1.0f;
      y[i] = 2 * t;
    }
  return t;
}

/* { dg-prune-output "Expm1: replaced|Elementwise: loop calling|Elementwise: expf" } */
/* { dg-prune-output "loop versioned|unrolled|never loops|vectorized|loop with" } */
/* { dg-final { nf-report-regions Elementwise 0 } } */
/* At -Os -ffast-math GCC reassociates a * b + (expf (c) - 1) so that no
   exp (x) - 1 is left: no candidate.  */
/* { dg-final { nf-if-flags {^(?!-Os -ffast-math)} { nf-report-missed Elementwise {reads more than two arrays} } } } */

static float a[NF_LOOP_MAX], b[NF_LOOP_MAX], c[NF_LOOP_MAX], y[NF_LOOP_MAX];

#pragma GCC optimize ("O0")

static float (*volatile expf_fp) (float) = expf;

/* Near the plain computation: the scalar rewrite is within 1 ulp of
   expm1, the plain one (libmvec's expf under -ffast-math) within a few
   of exp, before the cancellation of - 1.  */
static int
nf_near (float got, float orig)
{
  return got == orig || fabsf (got - orig) <= 1e-5f * fmaxf (1, fabsf (orig));
}

int
main (void)
{
  NF_LOOP_FILL (float, a, NF_LOOP_MAX, 7, 0);
  NF_LOOP_FILL (float, b, NF_LOOP_MAX, 8, 0);
  NF_LOOP_FILL (float, c, NF_LOOP_MAX, 9, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      unsigned long calls = nf_loop_calls;
      three (y, a, b, c, n);
      for (size_t i = 0; i < n; i++)
	CHECK (nf_near (y[i], a[i] * b[i] + (expf_fp (c[i]) - 1.0f)));
      int_scale (y, a, n, 3);
      for (size_t i = 0; i < n; i++)
	CHECK (nf_near (y[i], 3 * (expf_fp (a[i]) - 1.0f)));
      float t = used_after (y, a, n);
      for (size_t i = 0; i < n; i++)
	CHECK (nf_near (y[i], 2 * (expf_fp (a[i]) - 1.0f)));
      CHECK (n == 0 || nf_near (t, expf_fp (a[n - 1]) - 1.0f));
      /* No kernel of libneuronfuse was called.  */
      CHECK (nf_loop_calls == calls);
    }
  NF_DONE ();
}
