/* fast-forms-avx2.c: the register forms of the fast-math functions
   nf_expm1f_fast and nf_log1pf_fast on AVX2, for their vector-ABI clones
   (simd-fast.c): 8 lanes in a ymm, and 4 in an xmm (computed in a ymm
   whose upper half is zero, so no lane there takes the slow path).  The
   cores are the fast array kernels' (expm1-fast-avx2.h,
   log1p-fast-avx2.h): the same bits, within 1 ulp.  Built with the AVX2
   library's -m flags; GCC ends each function with vzeroupper.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <immintrin.h>

#include "../simd-fast.h"
#include "expm1-fast-avx2.h"
#include "log1p-fast-avx2.h"

__m256
nf_expm1f_fast_x8_avx2 (__m256 x)
{
  return nf_vexpm1f_fast_avx2 (x);
}

__m128
nf_expm1f_fast_x4_avx2 (__m128 x)
{
  return _mm256_castps256_ps128 (
    nf_vexpm1f_fast_avx2 (_mm256_insertf128_ps (_mm256_setzero_ps (), x, 0)));
}

__m256
nf_log1pf_fast_x8_avx2 (__m256 x)
{
  return nf_vlog1pf_fast_avx2 (x);
}

__m128
nf_log1pf_fast_x4_avx2 (__m128 x)
{
  return _mm256_castps256_ps128 (
    nf_vlog1pf_fast_avx2 (_mm256_insertf128_ps (_mm256_setzero_ps (), x, 0)));
}
