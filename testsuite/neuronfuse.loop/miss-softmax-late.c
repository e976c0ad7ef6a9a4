/* Area: nf-loop, Softmax, the late pass's view.
   Purpose: a softmax only inlining shows (its max in a helper) is met
   by nf-loop after loop header copying has put every loop behind a
   zero-trip guard, a shape it does not take: reported with that
   limitation, not passed over in silence, and the loops' results
   kept.  At -Os, with no header copying, nf-loop fuses it.
   (-fno-early-inlining keeps vmax apart until IPA inlining, as
   C++'s std::max through a reference keeps the max in memory until the
   early pass has run.)  */
/* { dg-do run } */
/* { dg-options "-fno-early-inlining" } */
#include "nf-loop.h"

/* The max in a helper: the early pass sees its loop alone (a max, no
   softmax: no remark) and the exp and divide loops without it.  */
static inline float
vmax (const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-missed "Softmax: not rewritten: the loops are guarded against running zero times \\(after loop header copying\\), a shape not supported" "" { flags {^(?!-Os)} } } */
  /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" "" { flags {^-Os} } 20 } */
    if (x[i] > m)
      m = x[i];
  return m;
}

static void
softmax (float *x, int n)
{
  float m = vmax (x, n);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      x[i] = expf (x[i] - m);
      s += x[i];
    }
  for (int i = 0; i < n; i++)
    x[i] /= s;
}

__attribute__ ((noipa)) void
head (float *att, int n)
{
  softmax (att, n);
}

static float x[NF_LOOP_MAX], keep[NF_LOOP_MAX];

#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, keep, NF_LOOP_MAX, 5, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      memcpy (x, keep, sizeof x);
      int fused = NF_FUSED (head (x, n));
      float m = n ? keep[0] : 0, s = 0;
      for (size_t i = 1; i < n; i++)
	m = keep[i] > m ? keep[i] : m;
      float e[NF_LOOP_MAX];
      for (size_t i = 0; i < n; i++)
	s += e[i] = expf (keep[i] - m);
      if (fused)
	nf_loop_check_softmax_f32 (x, keep, n, fused);
      else
	for (size_t i = 0; i < n; i++)
	  nf_loop_near ("head", i, x[i], e[i] / s, 1e-5L, e[i] / s);
    }
  NF_DONE ();
}

