/* expm1-fast-consts.h: the tables and coefficients the fast-math f32
   expm1 kernels share (expm1-fast-avx512.h and expm1-fast-avx2.h, so the
   two give the same results bit for bit).  The algorithm and the error
   analysis that use them are in expm1-fast-avx512.c's design comment;
   runtime/tools/fast-coeffs.py printed everything between the rounding
   constant and the range bounds.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EXPM1_FAST_CONSTS_H
#define NF_EXPM1_FAST_CONSTS_H

#include <stdint.h>

/* x * 32/ln2 + 0x1.8p23 rounds to an integer m held in the low mantissa
   bits (also for negative m).  */
#define NF_E1F_SHIFT 0x1.8p23f

/* 32/ln2 rounded to float; ln2/32 = L1 + L2 + O(2^-41), L1 with 11
   significant bits (m L1 is exact for |m| < 2^13, x - m L1 exact by
   Sterbenz's lemma).  nf_e1f_tb[j]: the bits of T_j (2^(j/32) rounded to
   8 bits; T_1 = 1, T_31 = 2) minus j << 18, so that adding m << 18 gives
   the bits of S = 2^k T_j.  nf_e1f_d[j] = log (T_j) - j (L1 + L2)
   rounded.  Q: q (r) ~ (expm1 (r) - r) / r^2 on [-0.0326, 0.0326].  */
#define NF_E1F_INV 0x1.715476p+5f
#define NF_E1F_L1 0x1.63p-6f
#define NF_E1F_L2 -0x1.bd0106p-18f
static const uint32_t nf_e1f_tb[32] __attribute__ ((aligned (64))) = {
  0x3f800000u, 0x3f7c0000u, 0x3f7e0000u, 0x3f7d0000u, 0x3f7c0000u, 0x3f7b0000u,
  0x3f7a0000u, 0x3f790000u, 0x3f780000u, 0x3f780000u, 0x3f770000u, 0x3f760000u,
  0x3f760000u, 0x3f760000u, 0x3f750000u, 0x3f750000u, 0x3f750000u, 0x3f750000u,
  0x3f750000u, 0x3f750000u, 0x3f750000u, 0x3f760000u, 0x3f760000u, 0x3f770000u,
  0x3f770000u, 0x3f780000u, 0x3f790000u, 0x3f7a0000u, 0x3f7b0000u, 0x3f7c0000u,
  0x3f7d0000u, 0x3f840000u,
};
static const float nf_e1f_d[32] __attribute__ ((aligned (64))) = {
  0x0p+0f,	    -0x1.62e43p-6f,  0x1.4615f8p-9f,   0x1.85095ep-9f,
  0x1.851f18p-9f,   0x1.4901a2p-9f,  0x1.a661ecp-10f,  0x1.30302p-12f,
  -0x1.789472p-10f, 0x1.793cf8p-9f,  0x1.1656aep-12f,  -0x1.6252c2p-9f,
  0x1.ca8cep-16f,   0x1.1d5c66p-9f,  -0x1.04e824p-9f,  -0x1.9fe732p-11f,
  -0x1.c00c4p-14f,  0x1.7e30f4p-14f, -0x1.766bd2p-13f, -0x1.d5dfbcp-11f,
  -0x1.0bd942p-9f,  0x1.6468f6p-10f, -0x1.6b3798p-11f, 0x1.aadb9ep-10f,
  -0x1.485dfcp-10f, 0x1.3ef784p-14f, 0x1.d1989ap-11f,  0x1.3c2cc4p-10f,
  0x1.13a2c6p-10f,  0x1.d1989ap-12f, -0x1.3947dp-11f,  0x1.62e43p-6f,
};
#define NF_E1F_Q0 0x1p-1f
#define NF_E1F_Q1 0x1.5558dp-3f
#define NF_E1F_Q2 0x1.5557a8p-5f
/* relative error of r + r^2 q (r): 2^-28.6 */

/* The main path's range: S - 1 is exact for k in [-17, 23], i.e. m in
   [-544, 767], x in about [-11.80, 16.62].  */
#define NF_E1F_LO -11.7f
#define NF_E1F_HI 16.5f
/* The slow path clamps |x| to this: above the overflow threshold
   (88.7228...), below m = 4101 (k = 128: S / 2 stays finite).  */
#define NF_E1F_CLAMP 88.8f

#endif /* NF_EXPM1_FAST_CONSTS_H */
