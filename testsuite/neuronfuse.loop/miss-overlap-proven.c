/* Area: nf-loop, RMSNorm, aliasing known at compile time.
   Purpose: rmsnorm inlined with constant arguments: rmsnorm (buf + 3,
   buf, w, 64) overlaps for certain and is reported as missed with that
   reason (no run-time test that always fails); rmsnorm (buf + 70, buf,
   w, 64) is disjoint for certain and is outlined.  Both give the
   sequential result.  */
/* { dg-do run } */
#include "nf-loop.h"

static inline __attribute__ ((always_inline)) void
rmsnorm (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-missed "RMSNorm: not rewritten: the output partially overlaps an input" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}
/* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" "" { target *-*-* } 14 } */

static float buf[140], seq[140], w[64];

__attribute__ ((noipa)) void
overlapping (void)
{
  rmsnorm (buf + 3, buf, w, 64);
}

__attribute__ ((noipa)) void
disjoint (void)
{
  rmsnorm (buf + 70, buf, w, 64);
}

__attribute__ ((noipa, optimize ("O0"))) static void
rmsnorm_seq (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++)
    o[j] = weight[j] * (ss * x[j]);
}

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, w, 64, 2, 1);
  for (int pass = 0; pass < 2; pass++)
    {
      NF_LOOP_FILL (float, buf, 140, 1, 0);
      memcpy (seq, buf, sizeof seq);
      int fused = NF_FUSED (pass ? disjoint () : overlapping ());
      rmsnorm_seq (seq + (pass ? 70 : 3), seq, w, 64);
      CHECK (!fused || (pass && NF_PLUGIN));
      for (int j = 0; j < 140; j++)
	if (!nf_loop_near ("rmsnorm", j, buf[j], seq[j], 4e-6L * (j + 10),
			   fabsl (seq[j])))
	  break;
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-region RMSNorm disjoint 14 outlined } } */
/* { dg-final { nf-report-missed RMSNorm "partially overlaps" } } */
