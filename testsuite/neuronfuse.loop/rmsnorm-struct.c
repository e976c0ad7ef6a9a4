/* Area: nf-loop, RMSNorm, struct fields.
   Purpose: the gain, the length and eps read through a struct pointer
   (s->w[j], s->dim, s->eps), and x an array member (s->x[j]): two
   regions, both outlined.  */
/* { dg-do run } */
#include "nf-loop.h"

struct layer
{
  float *w;
  int dim;
  float eps;
};

__attribute__ ((noipa)) void
rmsnorm_layer (const struct layer *s, float *o, const float *x)
{
  float ss = 0.0f;
  for (int j = 0; j < s->dim; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" "" { flags {-O([23]|fast)} } } */
  ss = 1.0f / sqrtf (ss / s->dim + s->eps);
  for (int j = 0; j < s->dim; j++) o[j] = s->w[j] * (ss * x[j]);
}

struct buf
{
  float x[64];
};

__attribute__ ((noipa)) void
rmsnorm_buf (float *o, const struct buf *s, const float *w, int n)
{
  float ss = 0.0f;
  for (int j = 0; j < n; j++) ss += s->x[j] * s->x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss = 1.0f / sqrtf (ss / n + 1e-5f);
  for (int j = 0; j < n; j++) o[j] = w[j] * (ss * s->x[j]);
}

static float x[NF_LOOP_MAX], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];
static struct buf b;

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  NF_LOOP_FILL (float, b.x, NF_N (b.x), 3, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      struct layer l = { w, (int) n, 1e-6f };
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      int fused = NF_FUSED (rmsnorm_layer (&l, y, x));
      nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-6f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);

      n = n < NF_N (b.x) ? n : NF_N (b.x);
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      fused = NF_FUSED (rmsnorm_buf (y, &b, w, n));
      nf_loop_check_rmsnorm_f32 (y, b.x, w, n, 1e-5f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);
    }
  NF_DONE ();
}

/* s->w and s->dim are loop-invariant loads only where GCC can prove the
   stores to o[j] do not change them: type-based alias analysis, from -O2
   on; at -O1 the trip count is reloaded each iteration and at -Os s->w
   is (both reported as missed, with that reason).  */
/* { dg-prune-output "RMSNorm: not rewritten: (the loop's trip count is not computable|an array access is not affine)" } */
/* { dg-final { nf-if-flags {-O([23]|fast)} { nf-report-regions RMSNorm 2 } } } */
/* { dg-final { nf-if-flags {-O([23]|fast)} { nf-report-region RMSNorm rmsnorm_layer 19 outlined } } } */
/* { dg-final { nf-if-flags {-O([23]|fast)} { nf-report-scan {"callee": "nf_rmsnorm_f32"} 2 } } } */
/* { dg-final { nf-if-flags {-O[1s]} { nf-report-regions RMSNorm 1 } } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm_buf 33 outlined } } */
