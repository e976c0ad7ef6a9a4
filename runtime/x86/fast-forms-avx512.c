/* fast-forms-avx512.c: the register forms of the fast-math functions
   nf_expm1f_fast and nf_log1pf_fast on AVX-512, for their clones
   (simd-fast.c): the fast array kernels' cores (expm1-fast-avx512.h,
   log1p-fast-avx512.h), the same bits, within 1 ulp; 16 lanes in a zmm
   (e), 8 in a ymm with AVX-512VL (c, d) and 4 in the low half of a ymm
   whose upper half is zero (b: no lane there takes a slow path).  Built
   with the AVX-512 library's -m flags; GCC ends the x4 form with
   vzeroupper.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <immintrin.h>

#include "../simd-fast.h"
#include "expm1-fast-avx512.h"
#include "log1p-fast-avx512.h"

__m512
nf_expm1f_fast_x16_avx512 (__m512 x)
{
  return nf_vexpm1f_fast_avx512 (x);
}

__m512
nf_log1pf_fast_x16_avx512 (__m512 x)
{
  return nf_vlog1pf_fast_avx512 (x);
}

__m256
nf_expm1f_fast_x8_avx512 (__m256 x)
{
  return nf_vexpm1f_fast_x8_avx512 (x);
}

__m128
nf_expm1f_fast_x4_avx512 (__m128 x)
{
  return _mm256_castps256_ps128 (
    nf_vexpm1f_fast_x8_avx512 (_mm256_zextps128_ps256 (x)));
}

__m256
nf_log1pf_fast_x8_avx512 (__m256 x)
{
  return nf_vlog1pf_fast_x8_avx512 (x);
}

__m128
nf_log1pf_fast_x4_avx512 (__m128 x)
{
  return _mm256_castps256_ps128 (
    nf_vlog1pf_fast_x8_avx512 (_mm256_zextps128_ps256 (x)));
}
