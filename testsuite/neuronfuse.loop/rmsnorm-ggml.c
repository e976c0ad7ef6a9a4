/* Area: nf-loop, RMSNorm, ggml's forms (issue 15).
   Purpose: ggml's rms_norm row (ggml-cpu/ops.cpp): a double sum of the
   float squares (double) (x[i] * x[i]), a float mean of it over the
   int64_t count, 1.0f / sqrtf (mean + eps); then either the copy and
   in-place scale (memcpy (y, x, n * sizeof (float)) and
   ggml_vec_scale_f32's y[i] *= scale, whose loop runs (int) n times) or
   the fused RMS_NORM+MUL's y[i] = x[i] * scale * w[i].  Both are
   outlined (the copy is written over by the call; the guard checks that
   (int) n is n and that the copy's bytes are the elements scaled), in
   place too, and in ggml's loop over the rows of a tensor; a partial
   overlap runs the loops.  */
/* { dg-do run } */
#include "nf-loop.h"
#include <stdint.h>

typedef double ggml_float;

static inline void
vec_scale_f32 (const int n, float *y, const float v)
{
  for (int i = 0; i < n; ++i) y[i] *= v;
}

__attribute__ ((noipa)) void
rms_norm_row (float *y, const float *x, int64_t ne00, float eps)
{
  ggml_float sum = 0.0;
  for (int64_t i00 = 0; i00 < ne00; i00++) sum += (ggml_float) (x[i00] * x[i00]); /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  const float mean = sum / ne00;
  const float scale = 1.0f / sqrtf (mean + eps);
  memcpy (y, x, ne00 * sizeof (float));
  vec_scale_f32 (ne00, y, scale);
}

__attribute__ ((noipa)) void
rms_norm_mul_row (float *y, const float *x, const float *w, int64_t ne00,
		  float eps)
{
  ggml_float sum = 0.0;
  for (int64_t i00 = 0; i00 < ne00; i00++) sum += (ggml_float) (x[i00] * x[i00]); /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  const float mean = sum / ne00;
  const float scale = 1.0f / sqrtf (mean + eps);
  for (int64_t i00 = 0; i00 < ne00; i00++) y[i00] = x[i00] * scale * w[i00];
}

/* The rows as ggml walks them: each row's x and y from a base and a
   byte stride (so a row's address is the base plus an offset, in the
   memcpy as in the loops), the rows of one thread of NTH.  */
__attribute__ ((noipa)) void
rms_norm_rows (void *dst, const void *src, int64_t ne00, int64_t ne01,
	       size_t nb1, size_t nb01, int ith, int nth, float eps)
{
  for (int64_t i01 = ith; i01 < ne01; i01 += nth)
    {
      const float *x = (const float *) ((const char *) src + i01 * nb01);
      ggml_float sum = 0.0;
      for (int64_t i00 = 0; i00 < ne00; i00++) sum += (ggml_float) (x[i00] * x[i00]); /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
      const float mean = sum / ne00;
      const float scale = 1.0f / sqrtf (mean + eps);
      float *y = (float *) ((char *) dst + i01 * nb1);
      memcpy (y, x, ne00 * sizeof (float));
      vec_scale_f32 (ne00, y, scale);
    }
}

static float x[NF_LOOP_MAX + 1], w[NF_LOOP_MAX], y[NF_LOOP_MAX + 1];
static float xs[NF_LOOP_MAX + 1];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX + 1, 1, 0);
  NF_LOOP_FILL (float, w, NF_LOOP_MAX, 2, 1);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      int fused;
      memset (y, 0, sizeof y);
      y[n] = NF_LOOP_SENTINEL;
      fused = NF_FUSED (rms_norm_row (y, x, n, 1e-6f));
      /* Through the inline vec_scale_f32: fused once inlined.  */
      CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN));
      nf_loop_check_rmsnorm_f32 (y, x, NULL, n, 1e-6f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);

      fused = NF_FUSED (rms_norm_mul_row (y, x, w, n, 1e-6f));
      CHECK (fused == NF_PLUGIN);
      nf_loop_check_rmsnorm_f32 (y, x, w, n, 1e-6f, fused);
      CHECK (y[n] == (float) NF_LOOP_SENTINEL);

      /* In place, as ggml calls it on its own rows.  */
      memcpy (xs, x, sizeof xs);
      fused = NF_FUSED (rms_norm_row (xs, xs, n, 1e-6f));
      CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN));
      nf_loop_check_rmsnorm_f32 (xs, x, NULL, n, 1e-6f, fused);

      /* Two rows of n, row stride n + 1 floats, every other row from
	 thread 0 of 2: row 0 only, then both.  */
      if (2 * n + 1 <= NF_LOOP_MAX)
	{
	  memset (y, 0, sizeof y);
	  y[n] = NF_LOOP_SENTINEL;
	  fused = NF_FUSED (rms_norm_rows (y, x, n, 2, (n + 1) * 4,
					   (n + 1) * 4, 0, 2, 1e-6f));
	  CHECK (fused == (NF_PLUGIN && !NF_AS_WRITTEN));
	  nf_loop_check_rmsnorm_f32 (y, x, NULL, n, 1e-6f, fused);
	  CHECK (y[n] == (float) NF_LOOP_SENTINEL);
	  fused = NF_FUSED (rms_norm_rows (y, x, n, 2, (n + 1) * 4,
					   (n + 1) * 4, 0, 1, 1e-6f));
	  nf_loop_check_rmsnorm_f32 (y + n + 1, x + n + 1, NULL, n, 1e-6f,
				     fused);
	}

      /* A partial overlap: the loops' own result (memcpy itself would
	 be undefined: the mul form only).  */
      if (n > 1)
	{
	  memcpy (xs, x, sizeof xs);
	  CHECK (!NF_FUSED (rms_norm_mul_row (xs + 1, xs, w, n, 1e-6f)));
	}
    }
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 3 } } */
/* { dg-final { nf-report-region RMSNorm rms_norm_row 28 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_norm_mul_row 40 outlined } } */
/* { dg-final { nf-report-region RMSNorm rms_norm_rows 57 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
