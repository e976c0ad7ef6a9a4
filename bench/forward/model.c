/* model.c: a transformer forward pass written as llama2.c's run.c writes
   it (its loops, int sizes, float sums, expf and sqrtf; single-threaded,
   no OpenMP), for bench/forward/driver.c to time plain against the
   plugin.  Written for this benchmark after run.c's structure: RMSNorm,
   the q, k and v matmuls, RoPE, multi-head attention over the cache with
   a softmax per head, the output matmul and the residual, RMSNorm, the
   SwiGLU FFN (w1, w3, SiLU, w2) and the residual; the final RMSNorm and
   the classifier.

   What the plugin makes of it: each matmul a Dot region (nf_matvec_f32,
   split over the cores), each rmsnorm an RMSNorm region, the softmax a
   Softmax region (nf_softmax_f32; not under -Ofast -march=native, where
   GCC's vectorized loops are faster); the attention loops stay.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "forward.h"

#include <math.h>
#include <string.h>

static void
rmsnorm (float *o, float *x, float *weight, int size)
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

static void
softmax (float *x, int size)
{
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    {
      x[i] = expf (x[i] - max_val);
      sum += x[i];
    }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

/* W (d,n) @ x (n,) -> xout (d,).  */
static void
matmul (float *xout, float *x, float *w, int n, int d)
{
  for (int i = 0; i < d; i++)
    {
      float val = 0.0f;
      for (int j = 0; j < n; j++)
	val += w[i * n + j] * x[j];
      xout[i] = val;
    }
}

float *
FWD (forward) (const struct fwd_config *p, const struct fwd_weights *w,
	       struct fwd_state *s, int token, int pos)
{
  float *x = s->x;
  int dim = p->dim;
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  int kv_mul = p->n_heads / p->n_kv_heads;
  int hidden_dim = p->hidden_dim;
  int head_size = dim / p->n_heads;

  memcpy (x, w->token_embedding_table + token * dim, dim * sizeof *x);

  for (int l = 0; l < p->n_layers; l++)
    {
      rmsnorm (s->xb, x, w->rms_att_weight + l * dim, dim);

      int loff = l * p->seq_len * kv_dim;
      float *k = s->key_cache + loff + pos * kv_dim;
      float *v = s->value_cache + loff + pos * kv_dim;
      matmul (s->q, s->xb, w->wq + l * dim * dim, dim, dim);
      matmul (k, s->xb, w->wk + l * dim * kv_dim, dim, kv_dim);
      matmul (v, s->xb, w->wv + l * dim * kv_dim, dim, kv_dim);

      /* RoPE: rotate each pair of q and k by its position's angle.  */
      for (int i = 0; i < dim; i += 2)
	{
	  int head_dim = i % head_size;
	  float freq = 1.0f / powf (10000.0f, head_dim / (float) head_size);
	  float val = pos * freq;
	  float fcr = cosf (val);
	  float fci = sinf (val);
	  int rotn = i < kv_dim ? 2 : 1;
	  for (int r = 0; r < rotn; r++)
	    {
	      float *vec = r == 0 ? s->q : k;
	      float v0 = vec[i];
	      float v1 = vec[i + 1];
	      vec[i] = v0 * fcr - v1 * fci;
	      vec[i + 1] = v0 * fci + v1 * fcr;
	    }
	}

      for (int h = 0; h < p->n_heads; h++)
	{
	  float *q = s->q + h * head_size;
	  float *att = s->att + h * p->seq_len;
	  for (int t = 0; t <= pos; t++)
	    {
	      float *kt = s->key_cache + loff + t * kv_dim
			  + (h / kv_mul) * head_size;
	      float score = 0.0f;
	      for (int i = 0; i < head_size; i++)
		score += q[i] * kt[i];
	      score /= sqrtf (head_size);
	      att[t] = score;
	    }
	  softmax (att, pos + 1);
	  float *xb = s->xb + h * head_size;
	  memset (xb, 0, head_size * sizeof (float));
	  for (int t = 0; t <= pos; t++)
	    {
	      float *vt = s->value_cache + loff + t * kv_dim
			  + (h / kv_mul) * head_size;
	      float a = att[t];
	      for (int i = 0; i < head_size; i++)
		xb[i] += a * vt[i];
	    }
	}

      matmul (s->xb2, s->xb, w->wo + l * dim * dim, dim, dim);
      for (int i = 0; i < dim; i++)
	x[i] += s->xb2[i];

      rmsnorm (s->xb, x, w->rms_ffn_weight + l * dim, dim);
      matmul (s->hb, s->xb, w->w1 + l * dim * hidden_dim, dim, hidden_dim);
      matmul (s->hb2, s->xb, w->w3 + l * dim * hidden_dim, dim, hidden_dim);
      for (int i = 0; i < hidden_dim; i++)
	{
	  float val = s->hb[i];
	  val *= (1.0f / (1.0f + expf (-val)));
	  val *= s->hb2[i];
	  s->hb[i] = val;
	}
      matmul (s->xb, s->hb, w->w2 + l * dim * hidden_dim, hidden_dim, dim);
      for (int i = 0; i < dim; i++)
	x[i] += s->xb[i];
    }

  rmsnorm (x, x, w->rms_final_weight, dim);
  matmul (s->logits, x, w->wcls, p->dim, p->vocab_size);
  return s->logits;
}
