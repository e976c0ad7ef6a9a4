/* expm1-fast-avx512.c: nf_expm1_fast_f32_avx512, y[i] = expm1 (x[i])
   within 1 ulp, evaluated in float: the fast-math variant of
   nf_expm1_f32 (which evaluates in double, 0.5 ulp), for code built with
   -funsafe-math-optimizations.  The vector core, nf_vexpm1f_fast_avx512,
   is in expm1-fast-avx512.h; the tables in expm1-fast-consts.h, by
   runtime/tools/fast-coeffs.py.

   Built with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma.
   FP contraction: off (the Makefile's -ffp-contract=off); every fused
   multiply-add is an explicit intrinsic.  Round-to-nearest assumed.

   Algorithm (Tang's table-driven exp, 1989, with Gal's "accurate table"
   idea of table points whose exponentials are short floats, and expm1's
   cancellation kept inside one fused multiply-add):
   1. m = nearest integer to x 32/ln2 (the 0x1.8p23 shift), m = 32 k + j,
      0 <= j < 32 (the low five bits of m, which vpermt2ps reads).
   2. The table point of j is log (T_j) + k ln2, T_j = 2^(j/32) rounded
      to 8 significant bits, except T_1 = 1 and T_31 = 2: r = x - k ln2 -
      log (T_j) = (x - m L1) - (m L2 + D_j), D_j = log (T_j) - j ln2/32.
      x - m L1 is exact (L1 has 11 bits; Sterbenz).  |r| <= ln2/64 + 2^-8
      in most cells and <= 1.5 ln2/32 = 0.0325 in the cells next to a
      multiple of ln2 (j = 31, 0, 1), where S = 2^k is a power of two and,
      for k = 0, r = x exactly (m = +-1: m L2 + D_j rounds to -+L1).
   3. p = expm1 (r) = r + r^2 q (r), q of degree 2 (relative error of p
      2^-28.6 on [-0.0326, 0.0326]).
   4. S = 2^k T_j from bits (the table holds bits (T_j) - j << 18 and m
      << 18 adds k << 23 + j << 18), and y = S p - (1 - S) by one FMA:
      S and 1 - S are exact (T_j has 8 bits, so 2^k T_j - 1 fits in 24
      for k in [-17, 23]), the only rounding is the final one.
   5. Outside x in [-11.7, 16.5] (and for NaN) the vector goes to a slow
      path: x clamped in magnitude to 88.8, S by vscalefps, and y = S p -
      (1 - S) in the range, -1 + S (1 + p) below it (S < 2^-17: S (1 + p)
      is rounded relative to itself, then one rounding to the result), 2
      (S/2 + (S/2 p - 1/2)) above it (S > 2^24: the inner sum is S/2 p to
      within 1/2, rounded relative to itself; S/2 is finite up to the
      clamp, the doubling overflows to +Inf where expm1 does).

   Error analysis: y = RN (S p - (1 - S)) with S, 1 - S exact, so the
   error is 0.5 ulp plus S times p's error, relative to y.  p's error:
   its own rounding (0.5 ulp of p), r's (0.5 ulp of r, from the rounding
   of x - m L1 - u and u = m L2 + D_j, below 2^-31 for the k = 0 cells),
   D_j's (2^-33 absolute at most) and q's (2^-28.6 relative to p).  That
   sum matters where S p is not small against y: for k = 0, j = 2 (x near
   0.055, S = 1.047, y >= 0.033 with ulp 2^-28, |p| <= 0.0139 with ulp
   2^-30) it is about 1.05 (0.5 + 0.5) 2^-30 / 2^-28 = 0.26 ulp, so y is
   within 0.77 ulp; in the cells j = 31, 0, 1 of k = 0 and -1, S = 1 and
   r = x: y = p, within 0.5 ulp + 2^-28.6 relative.  For |k| >= 1 S p is
   below 0.04 y.  The slow path's three forms are within 0.5 ulp plus at
   most 0.05.  Exhaustive sweep over all 2^32 floats (against glibc's
   double expm1, testsuite/exhaustive/sweep.c against MPFR): max 0.7273
   ulp at x = 0x1.c3346p-5 (0.05508, the j = 2 cell as just said).

   Specials: NaN quietened; -Inf -> -1; x > 88.7228 -> +Inf; +-0 keep
   their sign (p = r + r (r q + 0), so r = -0 gives -0, and S p - (1 - S)
   = -0 - +0).  errno is never set.  Tails use masked loads and stores;
   the kernel reads and writes only x[0..n-1] and y[0..n-1].

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include <immintrin.h>
#include <stddef.h>

#include "../kernels.h"
#include "expm1-fast-avx512.h"

/* y[i] = expm1 (x[i]) for i < n, as described at the top.  */
void
nf_expm1_fast_f32_avx512 (float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps (y + i, nf_vexpm1f_fast_avx512 (_mm512_loadu_ps (x + i)));
  if (i < n)
    {
      __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
      __m512 v = _mm512_maskz_loadu_ps (m, x + i);
      _mm512_mask_storeu_ps (y + i, m, nf_vexpm1f_fast_avx512 (v));
    }
}
