/* Area: nf-loop, RMSNorm, report names (issue 20).
   Purpose: the gain read through a struct pointer (s->w[j]): the report
   names the live-in after the source, s->w, as neuronfuse-clang does,
   never by GCC's SSA name of the loaded pointer ("_13").  At -O1 and -Os
   s->w is loaded in the loop (not hoisted): no region, its reason.  */
/* { dg-do run } */
#include "nf-loop.h"

struct layer
{
  float *w;
  float eps;
};

__attribute__ ((noipa)) void
rmsnorm (const struct layer *s, float *o, const float *x, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" "" { flags {-O([23]|fast)} } } */
  /* { dg-missed "RMSNorm: not rewritten: an array access is not affine in the loop" "" { flags {-O[1s]} } 19 } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = s->w[j] * (ss * x[j]);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      struct layer l = { w, 1e-5f };
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm (&l, y, x, n));
      nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-5f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* { dg-final { nf-if-flags {-O([23]|fast)} { nf-report-region RMSNorm rmsnorm 19 outlined } } } */
/* { dg-final { nf-if-flags {-O([23]|fast)} { nf-report-scan {"live_ins": \[\s*"o",\s*"x",\s*"s->w",} 1 } } } */
