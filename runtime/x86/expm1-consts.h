/* expm1-consts.h: the constants expm1-avx2.c and expm1-avx512.c share,
   those of the f64 kernel (the same in both, so the two give the same
   results bit for bit) and the rounding constant of the f32 kernels.
   The f32 kernels' own tables and polynomials differ by ISA and stay in
   their files.  The algorithm and the error analysis that use these are
   in expm1-avx512.c's design comment.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EXPM1_CONSTS_H
#define NF_EXPM1_CONSTS_H

/* Rounding constant: x + 0x1.8p52 rounds x to an integer held in the
   low mantissa bits, also for negative x.  */
#define SHIFT 0x1.8p52
#define INV_LN2 0x1.71547652b82fep+0
/* ln2 = LN2_HI + LN2_LO + O(2^-110): the double nearest ln2 and the
   double nearest the rest.  */
#define LN2_HI 0x1.62e42fefa39efp-1
#define LN2_LO 0x1.abc9e3b39803fp-56

/* w(r) = (expm1(r) - r - r^2/2) / r^3, degree 9 minimax on [-0.3466,
   0.3466]; max |error| of these rounded coefficients 2^-55.6, times
   |r|^3: 2^-60.4 (runtime/tools/expm1-coeffs.py).  */
#define W64_C0 0x1.5555555555556p-3
#define W64_C1 0x1.5555555555556p-5
#define W64_C2 0x1.11111111109b3p-7
#define W64_C3 0x1.6c16c16c15dc7p-10
#define W64_C4 0x1.a01a01a7c3efdp-13
#define W64_C5 0x1.a01a01a936183p-16
#define W64_C6 0x1.71de0daf22f61p-19
#define W64_C7 0x1.27e4d4d43d2ffp-22
#define W64_C8 0x1.af38a7d02b3b2p-26
#define W64_C9 0x1.1f7f272a4c1d8p-29

#endif /* NF_EXPM1_CONSTS_H */
