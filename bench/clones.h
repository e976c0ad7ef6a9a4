/* clones.h: loops that call a vector-ABI clone per vector (bench/clones.c)
   as clones_<isa>_<f> (y, x, n), isa b, c, d or e; n a multiple of 16.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_BENCH_CLONES_H
#define NF_BENCH_CLONES_H

#define CLONES_DECLARE(isa)                                                    \
  void clones_##isa##_nf_expf (float *y, const float *x, int n);               \
  void clones_##isa##_nf_expm1f (float *y, const float *x, int n);             \
  void clones_##isa##_nf_expm1f_fast (float *y, const float *x, int n);        \
  void clones_##isa##_nf_log1pf (float *y, const float *x, int n);             \
  void clones_##isa##_nf_log1pf_fast (float *y, const float *x, int n);        \
  void clones_##isa##_expf (float *y, const float *x, int n);                  \
  void clones_##isa##_logf (float *y, const float *x, int n);                  \
  void clones_##isa##_bench_ident (float *y, const float *x, int n);

CLONES_DECLARE (b)
CLONES_DECLARE (c)
CLONES_DECLARE (d)
CLONES_DECLARE (e)

#endif /* NF_BENCH_CLONES_H */
