/* log1p-fast-consts.h: the tables and coefficients the fast-math f32
   log1p kernels share (log1p-fast-avx512.h and log1p-fast-avx2.h, so the
   two give the same results bit for bit).  The algorithm and the error
   analysis that use them are in log1p-fast-avx512.c's design comment;
   runtime/tools/fast-coeffs.py printed the tables and coefficients.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LOG1P_FAST_CONSTS_H
#define NF_LOG1P_FAST_CONSTS_H

/* C - bits (u) = -k 2^23 + (2^23 - 1 - (bits (v) - OFF)) for u = 2^k v,
   OFF = the bits of 0.7578125: an arithmetic shift by 23 gives -k, bits
   18..22 give 31 - j for bucket j.  */
#define NF_L1F_C (0x3f420000 + (1 << 23) - 1)

/* ln2 = LN2_HI + LN2_LO, LN2_HI a multiple of 2^-16 (ln2 rounded down,
   so LN2_LO > 0, which keeps -0 through the sums).  The tables hold, for
   bucket j at index 31 - j, R_j (12 bits; 1 in buckets 13..16) and
   -log (R_j) = THI + TLO, THI a multiple of 2^-16 (-0 where R = 1).
   PN: -P, with P (r) ~ (log1p (r) - r) / r^2 on the r range.  */
#define NF_L1F_LN2_HI 0x1.62e4p-1f
#define NF_L1F_LN2_LO 0x1.7f7d1cp-20f
static const float nf_l1f_r[32] __attribute__ ((aligned (64))) = {
  0x1.556p-1f, 0x1.5cap-1f, 0x1.642p-1f, 0x1.6c2p-1f, 0x1.746p-1f, 0x1.7dp-1f,
  0x1.862p-1f, 0x1.8fap-1f, 0x1.99ap-1f, 0x1.a42p-1f, 0x1.af2p-1f, 0x1.bacp-1f,
  0x1.c72p-1f, 0x1.d42p-1f, 0x1.e1ep-1f, 0x1p+0f,     0x1p+0f,	   0x1p+0f,
  0x1p+0f,     0x1.0cap+0f, 0x1.112p+0f, 0x1.15cp+0f, 0x1.1a8p+0f, 0x1.1f8p+0f,
  0x1.24ap+0f, 0x1.29ep+0f, 0x1.2f6p+0f, 0x1.352p+0f, 0x1.3b2p+0f, 0x1.414p+0f,
  0x1.47ap+0f, 0x1.4e6p+0f,
};
static const float nf_l1f_thi[32] __attribute__ ((aligned (64))) = {
  0x1.9f14p-2f,	 0x1.898cp-2f, 0x1.73cp-2f,  0x1.5dp-2f,   0x1.461p-2f,
  0x1.2eap-2f,	 0x1.166p-2f,  0x1.fb8p-3f,  0x1.c8ep-3f,  0x1.9508p-3f,
  0x1.6018p-3f,	 0x1.29ap-3f,  0x1.e25p-4f,  0x1.6efp-4f,  0x1.f0cp-5f,
  -0x0p+0f,	 -0x0p+0f,     -0x0p+0f,     -0x0p+0f,	   -0x1.8a6p-5f,
  -0x1.094p-4f,	 -0x1.4ep-4f,  -0x1.937p-4f, -0x1.db5p-4f, -0x1.11d8p-3f,
  -0x1.364p-3f,	 -0x1.5bcp-3f, -0x1.823p-3f, -0x1.a99p-3f, -0x1.d0f8p-3f,
  -0x1.f938p-3f, -0x1.118p-2f,
};
static const float nf_l1f_tlo[32] __attribute__ ((aligned (64))) = {
  -0x1.c0b40ap-18f, 0x1.38a894p-18f,  0x1.800dcp-18f,	0x1.dc4ap-18f,
  0x1.78538cp-19f,  -0x1.d431eep-18f, 0x1.caecbap-18f,	-0x1.3c888ep-18f,
  -0x1.068caep-20f, 0x1.aa0044p-19f,  0x1.83b73ep-18f,	-0x1.679cfcp-18f,
  0x1.dc0abcp-22f,  0x1.4a3016p-18f,  0x1.86088cp-20f,	-0x0p+0f,
  -0x0p+0f,	    -0x0p+0f,	      -0x0p+0f,		0x1.58ce7ap-19f,
  0x1.9eb178p-18f,  -0x1.108a36p-20f, -0x1.795566p-18f, -0x1.380c3ep-19f,
  -0x1.cbc52p-20f,  -0x1.e5682cp-18f, 0x1.fd076p-18f,	-0x1.64c1a4p-23f,
  0x1.2dc748p-19f,  -0x1.bf912ap-18f, -0x1.c4e72ep-19f, 0x1.17e202p-18f,
};
#define NF_L1F_PN0 0x1.fffffcp-2f
#define NF_L1F_PN1 -0x1.5555eep-2f
#define NF_L1F_PN2 0x1.004c44p-2f
#define NF_L1F_PN3 -0x1.94d746p-3f
/* relative error of r + r^2 P (r): 2^-28.3 */

#endif /* NF_LOG1P_FAST_CONSTS_H */
