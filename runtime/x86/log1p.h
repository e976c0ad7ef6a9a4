/* log1p.h: prototypes of the x86 vector log1p kernels, to be folded into
   runtime/kernels.h.  Each computes y[i] = log1p (x[i]) for i < n, with
   the contract of nf_log1p_f32 / nf_log1p_f64 in neuronfuse.h (y == x in
   place allowed, any n, unaligned pointers); the caller must have checked
   that the CPU has the ISA in the name.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_X86_LOG1P_H
#define NF_X86_LOG1P_H

#include <stddef.h>

/* AVX-512F/DQ (runtime/x86/log1p-avx512.c).  */
void nf_log1p_f32_avx512 (float *y, const float *x, size_t n);
void nf_log1p_f64_avx512 (double *y, const double *x, size_t n);

/* AVX2 + FMA (runtime/x86/log1p-avx2.c).  */
void nf_log1p_f32_avx2 (float *y, const float *x, size_t n);
void nf_log1p_f64_avx2 (double *y, const double *x, size_t n);

#endif /* NF_X86_LOG1P_H */
