/* expm1.h: prototypes of the x86 vector kernels of y[i] = expm1(x[i]),
   to be folded into runtime/kernels.h.  Contract of each: as
   nf_expm1_f32 / nf_expm1_f64 in neuronfuse.h (any n, unaligned
   pointers, y == x allowed, special values as glibc's expm1); call the
   _avx512 ones only when the CPU and OS support AVX-512F/DQ/VL/BW, the
   _avx2 ones only with AVX2 and FMA.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_X86_EXPM1_H
#define NF_X86_EXPM1_H

#include <stddef.h>

void nf_expm1_f32_avx512 (float *y, const float *x, size_t n);
void nf_expm1_f64_avx512 (double *y, const double *x, size_t n);
void nf_expm1_f32_avx2 (float *y, const float *x, size_t n);
void nf_expm1_f64_avx2 (double *y, const double *x, size_t n);

#endif /* NF_X86_EXPM1_H */
