/* fast.c: the generic variants of the fast-math f32 kernels.

   nf_expm1_fast_f32_generic / nf_log1p_fast_f32_generic are the accurate
   generic kernels (double evaluation, 0.5 ulp + 2^-29): without vector
   instructions a float evaluation would not be faster, and the contract
   of the fast variants (within 1 ulp) holds a fortiori.  The vector
   variants are in x86/expm1-fast-*.c and x86/log1p-fast-*.c.

   nf_expm1f_fast / nf_log1pf_fast, the names the plugin calls for scalar
   code under -funsafe-math-optimizations, are nf_expm1f / nf_log1pf
   (0.5 ulp, errno as they set it), the fastest scalar forms the library
   has: scalarf.c resolves them to the same variants; their vector-ABI
   clones are simd-fast.c's (the fast float cores).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

/* neuronfuse.h: declare the scalar functions without __simd__ (their
   clones are simd-fast.c's, not GCC's of these definitions).  */
#define NF_DEFINE_CLONES 1
#include "../kernels.h"

#include <math.h>

void
nf_expm1_fast_f32_generic (float *y, const float *x, size_t n)
{
  nf_expm1_f32_generic (y, x, n);
}

void
nf_log1p_fast_f32_generic (float *y, const float *x, size_t n)
{
  nf_log1p_f32_generic (y, x, n);
}
