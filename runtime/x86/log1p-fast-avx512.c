/* log1p-fast-avx512.c: nf_log1p_fast_f32_avx512, y[i] = log1p (x[i])
   within 1 ulp, evaluated in float: the fast-math variant of
   nf_log1p_f32 (which evaluates in double, 0.5 ulp), for code built with
   -funsafe-math-optimizations.  The vector core, nf_vlog1pf_fast_avx512,
   is in log1p-fast-avx512.h; the tables in log1p-fast-consts.h, by
   runtime/tools/fast-coeffs.py.

   Built with -mavx512f -mavx512dq -mavx512vl -mavx512bw -mavx2 -mfma.
   FP contraction: off (the Makefile's -ffp-contract=off); every fused
   multiply-add is an explicit intrinsic.  Round-to-nearest assumed.

   Algorithm (a table-driven logarithm after Tang, ACM TOMS 16, 1990,
   with 1 + x never rounded where it matters):
   1. u = 1 + x rounded, u = 2^k v with the bits of v in [OFF, OFF +
      2^23), v in [0.7578125, 1.515625), and bucket j (bits 18..22 of
      bits (v) - OFF; width 1/64 below 1, 1/32 above, 1 in the middle of
      bucket 15), all from C - bits (u) by one shift each.  u only picks
      k and j: near a bucket edge its rounding moves r by 2^-23 at most.
   2. R_j ~ 1 / (centre of bucket j), 12 bits; R = 1 in buckets 13..16
      (v in [0.9609, 1.0469)).  RS = R_j 2^-k by vscalefps, exact, and
      r = RS x - (1 - RS) = R_j 2^-k (1 + x) - 1 in one FMA: 1 - RS is
      exact for k <= 12 (R_j has 12 bits) and for every k < 0, so the one
      rounding is r's own, of the exact 1 + x; for k = 0 and R = 1 (|x| <
      0.047) r = x exactly.  r is in [-0.0391, 0.0469].
   3. log1p (x) = k ln2 + T_j + log1p (r), T_j = -log (R_j) = T_hi + T_lo
      and ln2 = LN2_HI + LN2_LO, T_hi and LN2_HI multiples of 2^-16: hi =
      k LN2_HI + T_hi is exact (|k| <= 128), lo = k LN2_LO + T_lo.
   4. log1p (r) = r + r^2 P (r), P of degree 3 (relative error 2^-28.3 on
      the r range); y = hi + (r + (r^2 P (r) + lo)).
   5. Special inputs by vfixupimmps on the class of u (no branch): NaN ->
      NaN, u = 0 (x = -1) -> -Inf, u < 0 (x < -1, -Inf) -> NaN, +Inf ->
      +Inf.  x up to FLT_MAX takes the main path (k = 128: RS is then
      subnormal, still exact, and 1 - RS rounds to 1, an error of 2^-128).

   Error analysis: three roundings reach y at the ulp level, r's (0.5
   ulp of r), that of r + (r^2 P + lo) (0.5 ulp of r at most) and the
   final one (0.5 ulp of y); the tail terms (r^2 P's roundings, P's error
   2^-28.3 relative to log1p (r), T_lo's and LN2_LO's 2^-41 and 2^-44, k
   times that, 1 - RS for k > 12, below 2^-25 against y > 8) add a few
   hundredths.  Where R = 1 and k = 0, r = x is exact and y = RN (r + t),
   t = r^2 P: within 0.5 ulp plus P's error.  Elsewhere the buckets are
   chosen so that |r| < |y| / 4 with ulp (r) <= ulp (y) / 4 (that is why
   R = 1 covers four buckets: the next ones out have |y| >= 0.0399 and
   0.0458, ulp 2^-28, against |r| <= 0.0081 and 0.0147, ulp 2^-30), so
   the two roundings of size r cost at most 0.25 ulp: y is within 0.75
   ulp plus the tail terms.  Exhaustive sweep over all 2^32 floats
   (against glibc's double log1p, testsuite/exhaustive/sweep.c against
   MPFR): max 0.7528 ulp at x = 0x1.83ecccp-5 (0.04735: the first bucket
   past the R = 1 ones, y and r in the binades just said).

   Signed zeros: x = -0 gives -0 (r = RS x - (1 - RS) = -0 - +0; -r^2 - 0
   = -0; T_hi = T_lo = -0 where R = 1, LN2_HI and LN2_LO > 0, so every
   sum stays -0).  errno is never set.  Tails use masked loads and
   stores; the kernel reads and writes only x[0..n-1] and y[0..n-1].

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include <immintrin.h>
#include <stddef.h>

#include "../kernels.h"
#include "log1p-fast-avx512.h"

/* y[i] = log1p (x[i]) for i < n, as described at the top.  */
void
nf_log1p_fast_f32_avx512 (float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps (y + i, nf_vlog1pf_fast_avx512 (_mm512_loadu_ps (x + i)));
  if (i < n)
    {
      __mmask16 m = (__mmask16) ((1u << (n - i)) - 1);
      __m512 v = _mm512_maskz_loadu_ps (m, x + i);
      _mm512_mask_storeu_ps (y + i, m, nf_vlog1pf_fast_avx512 (v));
    }
}
