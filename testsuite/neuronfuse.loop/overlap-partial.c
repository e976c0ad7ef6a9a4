/* Area: nf-loop, RMSNorm, aliasing.
   Purpose: llama2.c's rmsnorm called with its output 3 elements into its
   input, rmsnorm (buf + 3, buf, w, n): the scaling loop reads what it
   wrote 3 iterations before.  The function is outlined behind a
   run-time overlap check that falls back to the loops, so no kernel may
   run once the ranges overlap, and the result must be the loops'
   sequential one, computed by a copy built at -O0 (the plugin
   does not run there).  The tolerance grows with the chain of rounded
   values each output depends on; a call ignoring the overlap is off by
   far more (each output is then a different input's).  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
rmsnorm (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

__attribute__ ((noipa, optimize ("O0"))) static void
rmsnorm_seq (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j];
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static float x0[NF_LOOP_MAX], w[NF_LOOP_MAX];
static float buf[NF_LOOP_MAX + 4], seq[NF_LOOP_MAX + 4];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x0, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      /* Gains near the row's rms: the chain neither grows nor vanishes.  */
      long double ss = 0;
      for (size_t j = 0; j < n; j++)
	ss += (long double) x0[j] * x0[j];
      NF_LOOP_FILL (float, w, n, 2, 1);
      for (size_t j = 0; j < n; j++)
	w[j] = sqrtl (ss / n + 1e-5f) * (0.98 + w[j] / 50);
      memcpy (buf, x0, n * sizeof *buf);
      buf[n + 3] = NF_LOOP_SENTINEL;
      memcpy (seq, buf, sizeof seq);
      int fused = NF_FUSED (rmsnorm (buf + 3, buf, w, n));
      /* The ranges overlap from n = 4 on: then the fallback loops run.  */
      CHECK (!fused || n <= 3);
      rmsnorm_seq (seq + 3, seq, w, n);
      for (size_t j = 0; j < n + 4; j++)
	if (!nf_loop_near ("rmsnorm (buf + 3, buf)", j, buf[j], seq[j],
			   4e-6L * (j + 10), fabsl (seq[j])))
	  break;
      CHECK (buf[n + 3] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region RMSNorm rmsnorm 18 outlined } } */
