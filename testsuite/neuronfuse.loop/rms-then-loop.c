/* Area: nf-loop, MulRedSqrt of a mean read by a later loop (issue 19).
   Purpose: ggml's quantize_row_q4_K_ref shape: per block of 32, the RMS
   av_x = sqrtf (sum_x2 / 32) of the block's squares, then a loop that
   reads av_x (the weights av_x + |x|).  The RMS is outlined into
   nf_rms_f32; the loop reading it stays, and reads the call's value:
   the weights within 2 ulps of av_x's reference and the RMS no worse
   than the loop's.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
block_weights (const float *x, float *weights, float *av, int nb)
{
  for (int j = 0; j < nb; j++)
    {
      float sum_x2 = 0;
      for (int l = 0; l < 32; ++l) sum_x2 += x[32 * j + l] * x[32 * j + l]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_rms_f32" } */
      float av_x = sqrtf (sum_x2 / 32);
      for (int l = 0; l < 32; ++l) weights[32 * j + l] = av_x + fabsf (x[32 * j + l]);
      av[j] = av_x;
    }
}

#define NB 4
static float x[32 * NB], weights[32 * NB], av[NB];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, 32 * NB, 1, 0);
  int fused = NF_FUSED (block_weights (x, weights, av, NB));
  for (int j = 0; j < NB; j++)
    {
      nf_loop_check_dist_f32 (av[j], x + 32 * j, NULL, 32, 1, fused);
      for (int l = 0; l < 32; l++)
	CHECK (weights[32 * j + l] == av[j] + fabsf (x[32 * j + l]));
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions MulRedSqrt 1 } } */
/* { dg-final { nf-report-missed-count 0 } } */
