/* expm1-fast-avx2.c: nf_expm1_fast_f32_avx2, y[i] = expm1 (x[i]) within
   1 ulp, evaluated in float, for code built with
   -funsafe-math-optimizations.  The same algorithm, tables and results
   as nf_expm1_fast_f32_avx512 (expm1-fast-avx512.c has the design
   comment and the error analysis; expm1-fast-avx2.h says what differs
   in the vector core).

   Built with -mavx2 -mfma -mf16c -ffp-contract=off.  Tails: vmaskmovps
   with a lane mask loaded from a table (the masked-off lanes read as 0).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include <immintrin.h>
#include <stddef.h>

#include "../kernels.h"
#include "expm1-fast-avx2.h"

/* Lane masks of the tails: 8 elements from MASK32 + 8 - R have R
   ones.  */
static const int32_t mask32[16]
  = { -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0 };

/* y[i] = expm1 (x[i]) for i < n.  */
void
nf_expm1_fast_f32_avx2 (float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps (y + i, nf_vexpm1f_fast_avx2 (_mm256_loadu_ps (x + i)));
  if (i < n)
    {
      __m256i m = _mm256_loadu_si256 ((const __m256i *) (mask32 + 8 - (n - i)));
      __m256 v = _mm256_maskload_ps (x + i, m);
      _mm256_maskstore_ps (y + i, m, nf_vexpm1f_fast_avx2 (v));
    }
}
