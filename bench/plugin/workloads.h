/* workloads.h: the code users write, as the sources beside it define it once
   per build (see bench/plugin-vs-plain.c).

   Each source here is compiled six times: at -O2, -O3 -march=native and
   -Ofast, each plain and with -fplugin=neuronfuse.so, with PVP_BUILD set
   to the build's name (o2_plain, o2_plugin, o3n_plain, o3n_plugin,
   ofast_plain, ofast_plugin), so that every function below exists once
   per build as <build>_<name> and one driver links all six.  The
   signatures are the users' ones: int sizes, no restrict.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_BENCH_PLUGIN_WORKLOADS_H
#define NF_BENCH_PLUGIN_WORKLOADS_H

/* The forward pass's shape and weights (forward.c): llama2.c's FFN
   block and an attention-sized matmul per layer, without attention.  */
#define FW_DIM 288
#define FW_HIDDEN 768
#define FW_LAYERS 4

struct fw_weights
{
  float *rms_att;  /* FW_LAYERS x FW_DIM */
  float *rms_ffn;  /* FW_LAYERS x FW_DIM */
  float *wo;	   /* FW_LAYERS x FW_DIM x FW_DIM */
  float *w1, *w3;  /* FW_LAYERS x FW_HIDDEN x FW_DIM */
  float *w2;	   /* FW_LAYERS x FW_DIM x FW_HIDDEN */
  float *rms_final; /* FW_DIM */
};

struct fw_state
{
  float x[FW_DIM], xb[FW_DIM], xb2[FW_DIM];
  float hb[FW_HIDDEN], hb2[FW_HIDDEN];
};

#define PVP_CAT_(a, b) a##_##b
#define PVP_CAT(a, b) PVP_CAT_ (a, b)
/* PVP (name): NAME's symbol in the build being compiled.  */
#define PVP(name) PVP_CAT (PVP_BUILD, name)

/* Every workload of one build B.  The float elementwise ones share one
   signature; ALPHA is ELU's and CELU's run-time alpha (ignored by the
   others).  */
#define PVP_DECLARE(b)                                                         \
  void b##_expm1_f32 (float *y, const float *x, int n, float alpha);          \
  void b##_log1p_f32 (float *y, const float *x, int n, float alpha);          \
  void b##_elu (float *y, const float *x, int n, float alpha);                \
  void b##_selu (float *y, const float *x, int n, float alpha);               \
  void b##_selu_darknet (float *y, const float *x, int n, float alpha);       \
  void b##_celu (float *y, const float *x, int n, float alpha);               \
  void b##_softplus (float *y, const float *x, int n, float alpha);           \
  void b##_softplus_thr (float *y, const float *x, int n, float alpha);       \
  void b##_tanh_exp (float *y, const float *x, int n, float alpha);           \
  void b##_logsigmoid (float *y, const float *x, int n, float alpha);         \
  void b##_mish (float *y, const float *x, int n, float alpha);               \
  void b##_em1_calls (float *y, const float *x, int n, float alpha);          \
  void b##_l2normalize (float *y, const float *x, int n, float alpha);        \
  void b##_dist (float *y, const float *x, int n, float alpha);               \
  void b##_rms (float *y, const float *x, int n, float alpha);                \
  void b##_l2normalize_floor (float *y, const float *x, int n, float alpha);  \
  void b##_rmsnorm_gemma (float *y, const float *x, int n, float alpha);      \
  void b##_add_rmsnorm (float *y, const float *x, int n, float alpha);        \
  void b##_softmax (float *y, const float *x, int n, float alpha);            \
  void b##_softmax_rows (float *y, const float *x, int n, float alpha);       \
  float b##_em1 (float v);                                                     \
  void b##_log1p_f64 (double *y, const double *x, int n);                     \
  void b##_forward (float *out, const float *in,                              \
		    const struct fw_weights *w, struct fw_state *s);

/* The forward pass of build B at the code offsets 16, 32 and 48
   (forward.c; offset 0 is B's own).  */
#define PVP_DECLARE_SHIFTED(b)                                                 \
  void b##_s16_forward (float *out, const float *in,                          \
			const struct fw_weights *w, struct fw_state *s);       \
  void b##_s32_forward (float *out, const float *in,                          \
			const struct fw_weights *w, struct fw_state *s);       \
  void b##_s48_forward (float *out, const float *in,                          \
			const struct fw_weights *w, struct fw_state *s);
#define PVP_DECLARE_ALL(b) PVP_DECLARE (b) PVP_DECLARE_SHIFTED (b)

PVP_DECLARE_ALL (o2_plain)
PVP_DECLARE_ALL (o2_plugin)
PVP_DECLARE_ALL (o3n_plain)
PVP_DECLARE_ALL (o3n_plugin)
PVP_DECLARE_ALL (ofast_plain)
PVP_DECLARE_ALL (ofast_plugin)

#endif /* NF_BENCH_PLUGIN_WORKLOADS_H */
