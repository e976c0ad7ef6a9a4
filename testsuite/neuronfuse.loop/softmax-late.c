/* Area: nf-loop, Softmax, the late pass's view.
   Purpose: a softmax only inlining shows (its max in a helper) is met
   by nf-loop after loop header copying has put each loop behind a
   zero-trip guard and joined the max and the sum with their initial
   values after it: fused all the same, from the first loop's guard to
   where the guards' paths meet, the call behind the guards' own tests
   (so n = 0 and 1 run the loops, but at -Os, which copies no loop
   headers).  Checked within 1 ulp of a long
   double reference at every count.  (-fno-early-inlining keeps vmax
   apart until IPA inlining, as C++'s std::max through a reference keeps
   the max in memory until the early pass has run.)  */
/* { dg-do run } */
/* { dg-options "-fno-early-inlining" } */
#include "nf-loop.h"

/* The max in a helper: the early pass sees its loop alone (a max, no
   softmax: no remark) and the exp and divide loops without it; nf-loop
   sees the three, inlined.  */
static inline float
vmax (const float *x, int n)
{
  float m = x[0];
  for (int i = 1; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
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

/* Rows: the region stays inside the row loop (its back edge is not the
   region's exit).  */
__attribute__ ((noipa)) void
rows (float *x, int r, int n)
{
  for (int j = 0; j < r; j++)
    softmax (x + j * n, n);
}

/* Rows of a constant 16: no guards left at all (the region starts at
   the max loop's preheader edge); -O3 unrolls the loops completely.  */
__attribute__ ((noipa)) void
rows16 (float *x, int r)
{
  for (int j = 0; j < r; j++)
    softmax (x + j * 16, 16);
}

/* The three loops from element 0, each one block after header copying
   (the count of each is its latch's plus one: a count one short in
   all three would pass the counts' test and leave the last element
   out).  */
static inline float
vmax0 (const float *x, int n)
{
  float m = -INFINITY;
  for (int i = 0; i < n; i++) /* { dg-optimized "Softmax: loops outlined into a call to nf_softmax_f32" } */
    m = fmaxf (m, x[i]);
  return m;
}

__attribute__ ((noipa)) void
out_of_place (float *y, const float *x, int n)
{
  float m = vmax0 (x, n);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  float inv = 1.0f / s;
  for (int i = 0; i < n; i++)
    y[i] *= inv;
}

static float x[NF_LOOP_MAX], y[NF_LOOP_MAX], keep[NF_LOOP_MAX];

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
      /* n <= 1: the guards' paths, or (at -Os, no header copying) the
	 call too.  */
      CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN && n > 1)
	     || (NF_PLUGIN && !NF_AS_WRITTEN && n <= 1));
      nf_loop_check_softmax_f32 (x, keep, n, fused);
      memset (y, 0, sizeof y);
      fused = NF_FUSED (out_of_place (y, keep, n));
      CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN && n > 0)
	     || (NF_PLUGIN && !NF_AS_WRITTEN && n == 0));
      nf_loop_check_softmax_f32 (y, keep, n, fused);
    }
  memcpy (x, keep, sizeof x);
  int fused = NF_FUSED (rows (x, 64, 16));
  CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN));
  for (int j = 0; j < 64; j++)
    nf_loop_check_softmax_f32 (x + j * 16, keep + j * 16, 16, fused);
  memcpy (x, keep, sizeof x);
  fused = NF_FUSED (rows16 (x, 64));
  CHECK (NF_PLUGIN || !fused);
  for (int j = 0; j < 64; j++)
    nf_loop_check_softmax_f32 (x + j * 16, keep + j * 16, 16, fused);
  NF_DONE ();
}

