/* neuronfuse.h: the fused kernels that neuronfuse-rewritten code calls.

   Names are nf_<kind>_<dtype>.  Array kernels take (y, x, n): y[i] =
   f(x[i]) for i < n; n == 0 does nothing; exact in-place operation
   (y == x) is supported, any other overlap of y and x is undefined.
   Accuracy: every kernel is at least as accurate as the loop it replaces
   (DESIGN.md section 4); the bound of each is stated below.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NEURONFUSE_H
#define NEURONFUSE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = exp(x[i]) - 1.  f32: within 0.5 ulp + 2^-29 (evaluated in double,
   rounded once); f64: glibc expm1, < 0.8 ulp measured.  */
void nf_expm1_f32 (float *y, const float *x, size_t n);
void nf_expm1_f64 (double *y, const double *x, size_t n);

/* y[i] = log(1 + x[i]), same accuracy as nf_expm1_*.  */
void nf_log1p_f32 (float *y, const float *x, size_t n);
void nf_log1p_f64 (double *y, const double *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* NEURONFUSE_H */
