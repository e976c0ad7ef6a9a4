/* fast-forms-avx512.c: the 16-lane register forms of the fast-math
   functions nf_expm1f_fast and nf_log1pf_fast on AVX-512, for their e
   clones (simd-fast.c): the fast array kernels' cores
   (expm1-fast-avx512.h, log1p-fast-avx512.h), the same bits, within
   1 ulp.  Built with the AVX-512 library's -m flags.

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
