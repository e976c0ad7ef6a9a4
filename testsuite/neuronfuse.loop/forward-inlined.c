/* Area: nf-loop, RMSNorm inlined into a forward pass (issue 15).
   Purpose: llama2.c's forward pass: a static rmsnorm called three times
   between residual adds, matmuls and a SiLU (GCC inlines it where it
   pays).  Every call of rmsnorm and of matmul runs fused at every level
   (matmul is a Dot region of its own body, so each inlined copy is a
   call), each result stays within the contract, and the SiLU gets no
   missed entry (no near miss of anything).  */
/* { dg-do run } */
#include "nf-loop.h"

#define DIM 64
#define HIDDEN 96
#define LAYERS 2

static void
rmsnorm (float *o, float *x, float *weight, int size)
{
  float ss = 0.0f;
  for (int j = 0; j < size; j++) ss += x[j] * x[j]; /* { dg-optimized "RMSNorm: loops outlined into a call to nf_rmsnorm_f32" } */
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf (ss);
  for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}

static void
matmul (float *xout, float *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++) /* { dg-optimized "Dot: loop nest outlined into a call to nf_matvec_f32" } */
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++) val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

struct state
{
  float x[DIM], xb[DIM], xb2[DIM], hb[HIDDEN];
  float w1[DIM * DIM], w2[HIDDEN * DIM], w3[DIM * HIDDEN];
  float rms_att[LAYERS * DIM], rms_ffn[LAYERS * DIM], rms_final[DIM];
};

__attribute__ ((noipa)) void
forward (struct state *s, int dim, int hidden)
{
  for (int l = 0; l < LAYERS; l++)
    {
      rmsnorm (s->xb, s->x, s->rms_att + l * dim, dim);
      matmul (s->xb2, s->xb, s->w1, dim, dim);
      for (int i = 0; i < dim; i++) s->x[i] += s->xb2[i];
      rmsnorm (s->xb, s->x, s->rms_ffn + l * dim, dim);
      matmul (s->hb, s->xb, s->w2, dim, hidden);
      for (int i = 0; i < hidden; i++)
	{
	  float v = s->hb[i];
	  s->hb[i] = v * (1.0f / (1.0f + expf (-v)));
	}
      matmul (s->xb, s->hb, s->w3, hidden, dim);
      for (int i = 0; i < dim; i++) s->x[i] += s->xb[i];
    }
  rmsnorm (s->x, s->x, s->rms_final, dim);
}

static struct state st;

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

/* The same forward pass in long double.  */
static void
ref_rmsnorm (long double *o, const long double *x, const float *w, int n)
{
  long double ss = 0;
  for (int j = 0; j < n; j++)
    ss += x[j] * x[j];
  long double k = 1 / sqrtl (ss / n + 1e-5L);
  for (int j = 0; j < n; j++)
    o[j] = w[j] * (k * x[j]);
}

static void
ref_matmul (long double *o, const long double *x, const float *w, int n,
	    int d)
{
  for (int i = 0; i < d; i++)
    {
      long double v = 0;
      for (int j = 0; j < n; j++)
	v += (long double) w[i * n + j] * x[j];
      o[i] = v;
    }
}

int
main (void)
{
  static long double x[DIM], xb[DIM], xb2[DIM], hb[HIDDEN];
  NF_LOOP_FILL (float, st.x, DIM, 1, 0);
  NF_LOOP_FILL (float, st.w1, DIM * DIM, 2, 0);
  NF_LOOP_FILL (float, st.w2, HIDDEN * DIM, 3, 0);
  NF_LOOP_FILL (float, st.w3, DIM * HIDDEN, 4, 0);
  NF_LOOP_FILL (float, st.rms_att, LAYERS * DIM, 5, 1);
  NF_LOOP_FILL (float, st.rms_ffn, LAYERS * DIM, 6, 1);
  NF_LOOP_FILL (float, st.rms_final, DIM, 7, 1);
  for (int i = 0; i < DIM; i++)
    x[i] = st.x[i];
  for (int l = 0; l < LAYERS; l++)
    {
      ref_rmsnorm (xb, x, st.rms_att + l * DIM, DIM);
      ref_matmul (xb2, xb, st.w1, DIM, DIM);
      for (int i = 0; i < DIM; i++)
	x[i] += xb2[i];
      ref_rmsnorm (xb, x, st.rms_ffn + l * DIM, DIM);
      ref_matmul (hb, xb, st.w2, DIM, HIDDEN);
      for (int i = 0; i < HIDDEN; i++)
	hb[i] = hb[i] / (1 + expl (-hb[i]));
      ref_matmul (xb, hb, st.w3, HIDDEN, DIM);
      for (int i = 0; i < DIM; i++)
	x[i] += xb[i];
    }
  ref_rmsnorm (x, x, st.rms_final, DIM);

  unsigned long before = nf_loop_calls;
  forward (&st, DIM, HIDDEN);
  /* Every copy of rmsnorm and of matmul called its kernel.  */
  CHECK (nf_loop_calls - before
	 == (NF_PLUGIN ? 2 * LAYERS + 1
			   + (NF_MATVEC_PAYS (DIM, HIDDEN) ? 3 * LAYERS : 0)
		       : 0));
  /* The output is the normalised state: of the order of the gains.  The
     float matmuls' own error dominates (64 and 96 terms): relative 1e-4
     (a wrong pointer or a missing scale is off by far more).  */
  for (int i = 0; i < DIM; i++)
    nf_loop_near ("forward", i, st.x[i], x[i], 1e-4L, 1.5L);
  NF_DONE ();
}

/* { dg-final { nf-report-regions RMSNorm 1 } } */
/* { dg-final { nf-report-regions Dot 1 } } */
/* { dg-final { nf-report-region Dot matmul 29 outlined } } */
/* { dg-final { nf-report-region RMSNorm rmsnorm 19 outlined } } */
/* { dg-final { nf-report-missed-count 0 } } */
