/* calls.h: loops that call a scalar function per element, as
   bench/calls.c defines them once per build of that file (see there).

   calls.c is compiled three times: with CALLS_SUFFIX=sc at -O2
   -fno-tree-vectorize (one call per element: the scalar functions),
   with o3 at -O3 (GCC vectorizes the loops over nf_expm1f and nf_log1pf
   through the SSE2 clones _ZGVbN4v_) and with nat at -O3 -march=native
   (the widest clones the machine has, _ZGVeN16v_ on AVX-512), so every
   function below exists as calls_<sfx>_<name>.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_BENCH_CALLS_H
#define NF_BENCH_CALLS_H

#define CALLS_DECLARE(sfx)                                                     \
  void calls_##sfx##_nf_expf (float *y, const float *x, int n);                \
  void calls_##sfx##_expf (float *y, const float *x, int n);                   \
  void calls_##sfx##_nf_expm1f (float *y, const float *x, int n);              \
  void calls_##sfx##_nf_log1pf (float *y, const float *x, int n);              \
  void calls_##sfx##_expf_m1 (float *y, const float *x, int n);                \
  void calls_##sfx##_logf_1p (float *y, const float *x, int n);                \
  void calls_##sfx##_expm1f (float *y, const float *x, int n);                 \
  void calls_##sfx##_log1pf (float *y, const float *x, int n);                 \
  float calls_##sfx##_dist_f32 (const float *a, const float *b, int n);        \
  void calls_##sfx##_rmsnorm1p_f32 (float *o, const float *x, const float *w,  \
				    int size);                                 \
  void calls_##sfx##_l2normalize_f32 (float *y, const float *x, int n,         \
				      float eps);

CALLS_DECLARE (sc)
CALLS_DECLARE (o3)
CALLS_DECLARE (nat)

#endif /* NF_BENCH_CALLS_H */
