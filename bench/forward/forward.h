/* forward.h: a llama2.c-style transformer forward pass, the code users
   write (model.c), built once per flag set plain and with the plugin
   (bench/forward/driver.c times them; issue 18).

   model.c is compiled eight times: at -O2, -O3, -O3 -march=native and
   -Ofast, each plain and with -fplugin=neuronfuse.so, with FWD_BUILD set
   to the build's name (o2_plain, o2_plugin, ...), so that its forward
   exists once per build as <build>_forward and one driver links all
   eight.  The shapes are run-time values, as in run.c, read from the
   checkpoint's header there.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_BENCH_FORWARD_H
#define NF_BENCH_FORWARD_H

struct fwd_config
{
  int dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len;
};

/* The weights, as run.c lays them out (shared classifier: the token
   embedding).  */
struct fwd_weights
{
  float *token_embedding_table; /* vocab x dim */
  float *rms_att_weight;	/* layers x dim */
  float *rms_ffn_weight;	/* layers x dim */
  float *wq, *wk, *wv, *wo;	/* layers x dim x dim (kv: dim x kv_dim) */
  float *w1, *w3;		/* layers x hidden x dim */
  float *w2;			/* layers x dim x hidden */
  float *rms_final_weight;	/* dim */
  float *wcls;			/* vocab x dim */
};

/* One run's activations and KV cache.  */
struct fwd_state
{
  float *x, *xb, *xb2, *hb, *hb2, *q, *att, *logits;
  float *key_cache, *value_cache; /* layers x seq_len x kv_dim */
};

#define FWD_CAT_(a, b) a##_##b
#define FWD_CAT(a, b) FWD_CAT_ (a, b)
#define FWD(name) FWD_CAT (FWD_BUILD, name)

/* The logits of TOKEN at position POS (s->logits), the cache updated.  */
#define FWD_DECLARE(b)                                                         \
  float *b##_forward (const struct fwd_config *p, const struct fwd_weights *w, \
		      struct fwd_state *s, int token, int pos);

FWD_DECLARE (o2_plain)
FWD_DECLARE (o2_plugin)
FWD_DECLARE (o3_plain)
FWD_DECLARE (o3_plugin)
FWD_DECLARE (o3n_plain)
FWD_DECLARE (o3n_plugin)
FWD_DECLARE (ofast_plain)
FWD_DECLARE (ofast_plugin)

#endif /* NF_BENCH_FORWARD_H */
