/* softmax-consts.h: the constants of the softmax kernels of every
   instruction set (generic/softmax.c, x86/softmax-avx2.c,
   x86/softmax-avx512.c), computed by runtime/tools/softmax-coeffs.py.
   The kernels' algorithm and error analysis are in generic/softmax.c's
   design comment.

   exp (d) = 2^k T_j (1 + p), d = m ln2/16 + r, m = 16 k + j, |r| <=
   ln2/32 (+ rounding), p = r + r^2 q(r), T_j = 2^(j/16):
     Q16_*  q of degree 4 (f32): minimax on [-0.0217, 0.0217], max
	    |error| 2^-43.9, times r^2 2^-55.0 (the q16 of
	    expm1-avx512.c, from the same script's Remez exchange);
     Q16D_* q of degree 6 (f64): max |error| 2^-61.2, times r^2 2^-72.2;
     nf_sm_tab: the bits of T_j rounded to nearest double minus j << 48
	    (adding m << 48 gives the bits of 2^k T_j in one integer
	    addition), then (2^(j/16) - T_j) / T_j rounded to double, the
	    rest of T_j that the f64 kernels add;
     LN2_16_HI + LN2_16_LO = ln2/16 to 2^-92, HI of 29 bits, so that
	    m * LN2_16_HI is exact for |m| < 2^24; LN2_16 = ln2/16 rounded
	    to double (the f32 vector kernels' one FMA).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_SOFTMAX_CONSTS_H
#define NF_SOFTMAX_CONSTS_H

#include <stdint.h>

/* x + 0x1.8p52 rounds x to an integer held in the low mantissa bits.  */
#define NF_SM_SHIFT 0x1.8p52

#define Q16_C0 0x1.0000000000001p-1
#define Q16_C1 0x1.55555554dc65fp-3
#define Q16_C2 0x1.55555554b81d2p-5
#define Q16_C3 0x1.11120bde7e730p-7
#define Q16_C4 0x1.6c18208cb2bbbp-10
#define Q16D_C0 0x1.0000000000000p-1
#define Q16D_C1 0x1.5555555555556p-3
#define Q16D_C2 0x1.5555555555557p-5
#define Q16D_C3 0x1.11111110c5d18p-7
#define Q16D_C4 0x1.6c16c16ba6f3fp-10
#define Q16D_C5 0x1.a01b39bc15063p-13
#define Q16D_C6 0x1.a01b42a8e5ce2p-16
#define LN2_16_HI 0x1.62e42ff000000p-5
#define LN2_16_LO -0x1.718432a1b0e26p-39
#define LN2_16 0x1.62e42fefa39efp-5
#define INV_LN2_16 0x1.71547652b82fep+4

/* The table: the bits of T_j (minus j << 48), 16
   entries, then the relative rests of T_j, 16 doubles.  Aligned for the
   AVX-512 vpermt2pd that looks up 16 entries in two zmm.  */
static const uint64_t nf_sm_tab[16] __attribute__ ((aligned (64)))
= { 0x3ff0000000000000u, 0x3fefb5586cf9890fu, 0x3fef72b83c7d517bu,
    0x3fef387a6e756238u, 0x3fef06fe0a31b715u, 0x3feedea64c123422u,
    0x3feebfdad5362a27u, 0x3feeab07dd485429u, 0x3feea09e667f3bcdu,
    0x3feea11473eb0187u, 0x3feeace5422aa0dbu, 0x3feec49182a3f090u,
    0x3feee89f995ad3adu, 0x3fef199bdd85529cu, 0x3fef5818dcfba487u,
    0x3fefa4afa2a490dau };

static const double nf_sm_tab_lo[16] __attribute__ ((aligned (64)))
= { 0x0.0p+0,
    0x1.79aa65d837b6dp-54,
    -0x1.01b15eaa59348p-55,
    0x1.68efde3a8a894p-54,
    0x1.34d754db0abb6p-55,
    0x1.59f48a72a4c6dp-55,
    0x1.690cebb7aafb0p-56,
    0x1.063e1e21c5409p-54,
    -0x1.3b3efbf5e2228p-54,
    -0x1.b32dcb94da51dp-56,
    0x1.db72fc1f0eab4p-55,
    0x1.1affc2b91ce27p-56,
    0x1.c1a7792cb3387p-55,
    0x1.36eae30af0cb3p-56,
    0x1.4a385a63d07a7p-56,
    -0x1.ff7128fd391f0p-55 };

#endif /* NF_SOFTMAX_CONSTS_H */
