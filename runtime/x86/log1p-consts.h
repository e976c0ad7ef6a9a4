/* log1p-consts.h: the tables and polynomial coefficients log1p-avx2.c
   and log1p-avx512.c share (the same in both, so the two give the same
   results bit for bit).  The algorithm and the error analysis that use
   them are in log1p-avx512.c's design comment.  The tables are aligned
   to 64 bytes: the AVX-512 kernels load each as two zmm.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LOG1P_CONSTS_H
#define NF_LOG1P_CONSTS_H

/* Start of the reduced range: the bit pattern of 0.6953125.  */
#define OFF 0x3fe6400000000000LL

/* Tables by runtime/tools/log1p-coeffs.py.  Bucket j holds z with
   bits (z) - OFF in [j 2^48, (j + 1) 2^48); R = 1 / its centre rounded
   to double (1 for bucket 9, which holds 1), T = -log (R): T_hi is T
   rounded to a multiple of 2^-42, T_lo = T - T_hi rounded, T_f32 = T
   rounded.  */
static const double tab_r[16] __attribute__ ((aligned (64))) = {
  0x1.6816816816817p+0, 0x1.58ed2308158edp+0, 0x1.4afd6a052bf5bp+0,
  0x1.3e22cbce4a902p+0, 0x1.323e34a2b10bfp+0, 0x1.27350b8812735p+0,
  0x1.1cf06ada2811dp+0, 0x1.135c81135c811p+0, 0x1.0a6810a6810a7p+0,
  0x1.0000000000000p+0, 0x1.e9131abf0b767p-1, 0x1.cd85689039b0bp-1,
  0x1.b4e81b4e81b4fp-1, 0x1.9ec8e951033d9p-1, 0x1.8acb90f6bf3aap-1,
  0x1.78a4c8178a4c8p-1,
};
static const double tab_thi[16] __attribute__ ((aligned (64))) = {
  -0x1.5d5bddf596000p-2, -0x1.314f1e1d36000p-2,
  -0x1.07138604d6000p-2, -0x1.bd087383be000p-3,
  -0x1.6f0128b756000p-3, -0x1.23d712a49c000p-3,
  -0x1.b6ac88dad4000p-4, -0x1.2aa04a4470000p-4,
  -0x1.466aed42e0000p-5, 0x0.0p+0,
  0x1.77458f6330000p-5,	 0x1.a926d3a4ac000p-4,
  0x1.44d2b6ccb8000p-3,	 0x1.af3c94e80c000p-3,
  0x1.0a324e2739000p-2,	 0x1.3a64c55694000p-2,
};
static const double tab_tlo[16] __attribute__ ((aligned (64))) = {
  0x1.9de2a08a465dcp-47,  0x1.8e5bad3213cb8p-45,
  0x1.e70124e912b17p-44,  0x1.d5844595412b6p-45,
  -0x1.571d90d31ef0fp-44, -0x1.00aa38fd3df5cp-46,
  -0x1.b1cbff50225c7p-44, -0x1.7a16ba8b1cb41p-44,
  0x1.c073375bdfd28p-45,  0x0.0p+0,
  -0x1.1807ce586af09p-44, 0x1.561c50bd22a9cp-44,
  -0x1.71f416135783cp-46, -0x1.92e633fcd9066p-52,
  0x1.c4dee7ef4030ep-47,  0x1.7a81cbcd735d0p-44,
};
static const double tab_t32[16] __attribute__ ((aligned (64))) = {
  -0x1.5d5bddf595f31p-2, -0x1.314f1e1d35ce3p-2,
  -0x1.07138604d5864p-2, -0x1.bd087383bd8aap-3,
  -0x1.6f0128b756ab9p-3, -0x1.23d712a49c201p-3,
  -0x1.b6ac88dad5b1dp-4, -0x1.2aa04a44717a1p-4,
  -0x1.466aed42de3f9p-5, 0x0.0p+0,
  0x1.77458f632dcffp-5,	 0x1.a926d3a4ad562p-4,
  0x1.44d2b6ccb7d1cp-3,	 0x1.af3c94e80bff3p-3,
  0x1.0a324e27390e2p-2,	 0x1.3a64c556945eap-2,
};

/* ln2 = LN2_HI + LN2_LO; LN2_HI is a multiple of 2^-42.  */
#define LN2_HI 0x1.62e42fefa3800p-1
#define LN2_LO 0x1.ef35793c76730p-45
#define LN2 0x1.62e42fefa39efp-1

/* P (r) ~ (log1p (r) - r) / r^2 on [-0.0299, 0.0299]: Chebyshev fit of
   degree 8 by runtime/tools/log1p-coeffs.py, relative error of
   r + r^2 P (r) below 2^-62.1 after rounding the coefficients.  */
#define D0 -0x1.0000000000000p-1
#define D1 0x1.5555555555531p-2
#define D2 -0x1.fffffffffffbdp-3
#define D3 0x1.9999999aa33bap-3
#define D4 -0x1.5555555648d5ep-3
#define D5 0x1.249238c5168fdp-3
#define D6 -0x1.ffffe1fb772abp-4
#define D7 0x1.c7dbc73591677p-4
#define D8 -0x1.9a48fde7c6efdp-4

/* The same fit of degree 6 for the float kernel: 2^-49.7 relative.  */
#define F0 -0x1.0000000000000p-1
#define F1 0x1.555555557b326p-2
#define F2 -0x1.000000002213fp-2
#define F3 0x1.99998f3a127f2p-3
#define F4 -0x1.55554bff4e4fep-3
#define F5 0x1.24ed35530f044p-3
#define F6 -0x1.0051d4eaca11fp-3

#endif /* NF_LOG1P_CONSTS_H */
