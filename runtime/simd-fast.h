/* simd-fast.h: libneuronfuse's internal interface of the vector-ABI
   clones of the fast-math functions nf_expm1f_fast and nf_log1pf_fast
   (simd-fast.c): their register forms per instruction set, in
   runtime/x86/fast-forms-*.c next to the fast array kernels whose cores
   they share (the avx512 x4 and x8 forms: the AVX-512 core on a ymm with
   AVX-512VL).  x86-64 only.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_SIMD_FAST_H
#define NF_SIMD_FAST_H

#include "kernels.h"

#include <immintrin.h>

#pragma GCC visibility push(hidden)

__m128 nf_expm1f_fast_x4_avx2 (__m128 x);
__m256 nf_expm1f_fast_x8_avx2 (__m256 x);
__m128 nf_expm1f_fast_x4_avx512 (__m128 x);
__m256 nf_expm1f_fast_x8_avx512 (__m256 x);
__m512 nf_expm1f_fast_x16_avx512 (__m512 x);
__m128 nf_log1pf_fast_x4_avx2 (__m128 x);
__m256 nf_log1pf_fast_x8_avx2 (__m256 x);
__m128 nf_log1pf_fast_x4_avx512 (__m128 x);
__m256 nf_log1pf_fast_x8_avx512 (__m256 x);
__m512 nf_log1pf_fast_x16_avx512 (__m512 x);

#pragma GCC visibility pop

#endif /* NF_SIMD_FAST_H */
