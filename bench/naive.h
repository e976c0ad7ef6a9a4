/* naive.h: the loops users would otherwise write, as bench/naive.c
   defines them once per build of that file (see there).

   naive.c is compiled three times: with NAIVE_SUFFIX=o2 at -O2, with
   NAIVE_SUFFIX=fast at -O3 -ffast-math -march=native and with
   NAIVE_SUFFIX=ofast at -Ofast, so every function below exists as
   naive_o2_<name>, naive_fast_<name> and naive_ofast_<name>.  The signatures
   are the users' ones (int sizes, non-const pointers as in llama2.c), not
   the library's.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_BENCH_NAIVE_H
#define NF_BENCH_NAIVE_H

#define NAIVE_DECLARE(sfx)                                                     \
  void naive_##sfx##_rmsnorm (float *o, float *x, float *weight, int size);    \
  void naive_##sfx##_rmsnorm_rows (float *o, float *x, float *weight,          \
				   int rows, int size);                        \
  void naive_##sfx##_add_rmsnorm_rows (float *o, float *x, const float *r,     \
				       float *weight, int rows, int size);     \
  float naive_##sfx##_nrm2_f32 (const float *x, int n);                        \
  double naive_##sfx##_nrm2_f64 (const double *x, int n);                      \
  void naive_##sfx##_expm1_f32 (float *y, const float *x, int n);              \
  void naive_##sfx##_log1p_f32 (float *y, const float *x, int n);              \
  void naive_##sfx##_expm1_f64 (double *y, const double *x, int n);            \
  void naive_##sfx##_log1p_f64 (double *y, const double *x, int n);           \
  void naive_##sfx##_elu_f32 (float *y, const float *x, int n, float alpha);   \
  void naive_##sfx##_softplus_f32 (float *y, const float *x, int n);         \
  void naive_##sfx##_softmax_f32 (float *y, const float *x, int size);      \
  void naive_##sfx##_matmul_f32 (float *xout, const float *x, const float *w, \
				 int n, int d);                                \
  float naive_##sfx##_dist_f32 (const float *a, const float *b, int n);        \
  void naive_##sfx##_rmsnorm1p_f32 (float *o, const float *x, const float *w,  \
				    int size);                                 \
  void naive_##sfx##_l2normalize_f32 (float *y, const float *x, int n,         \
				      float eps);

NAIVE_DECLARE (o2)
NAIVE_DECLARE (fast)
NAIVE_DECLARE (ofast)

#ifdef __FLT16_MAX__
float naive_o2_nrm2_f16 (const _Float16 *x, int n);
float naive_fast_nrm2_f16 (const _Float16 *x, int n);
float naive_ofast_nrm2_f16 (const _Float16 *x, int n);
#endif

#endif /* NF_BENCH_NAIVE_H */
