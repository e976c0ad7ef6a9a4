#!/usr/bin/env python3
# softmax-coeffs.py: the constants of runtime/softmax-consts.h, shared by
# the softmax kernels of every instruction set (generic/softmax.c,
# x86/softmax-avx2.c, x86/softmax-avx512.c).
#
# The kernels compute exp (d) for d = x[i] - max <= 0 as 2^k T_j exp (r),
# d = (16 k + j) ln2/16 + r, |r| <= ln2/32 (plus rounding), T_j = 2^(j/16):
#   f32:  exp (r) = 1 + p, p = r + r^2 q(r), q of degree 4: the q16 of
#         expm1-coeffs.py (the same interval and function; repeated here
#         so that this script checks everything softmax-consts.h holds);
#   f64:  the same form with q of degree 6, whose error times r^2 must
#         stay below 2^-64 (the result is kept as a double-double).
# q(r) = (expm1 (r) - r) / r^2 = sum_n r^n / (n+2)!, minimax (absolute
# error) by Remez exchange at 60 digits; the coefficients are rounded to
# double and their error measured again on a dense grid.
# The table: the bits of T_j rounded to double minus j << 48 (adding
# (16 k + j) << 48 gives the bits of 2^k T_j), and for f64 the rest of
# each T_j relative to it, (2^(j/16) - T_j) / T_j rounded to double.
# ln2/16 = LN2_16_HI + LN2_16_LO with LN2_16_HI of 32 significant bits,
# so that m * LN2_16_HI is exact for |m| < 2^21 (the generic kernels,
# which have no FMA, and the f64 kernels).
#
# Run: python3 runtime/tools/softmax-coeffs.py   (mpmath 1.x, about a minute)
#
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The neuronfuse developers.

import importlib.util
import os
import struct

import mpmath as mp

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "expm1_coeffs", os.path.join(here, "expm1-coeffs.py"))
ec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ec)

mp.mp.dps = 60
R16 = mp.mpf("0.0217")

ec.report("q16", ec.series(2), 4, 2, R16)
ec.report("q16d", ec.series(2), 6, 2, R16)

print("/* T_j bits minus j << 48, and (2^(j/16) - T_j) / T_j.  */")
for j in range(16):
    exact = mp.power(2, mp.mpf(j) / 16)
    t = float(exact)
    b = struct.unpack("<Q", struct.pack("<d", t))[0] - (j << 48)
    lo = float((exact - mp.mpf(t)) / mp.mpf(t))
    print("  0x%016xu, %s," % (b, lo.hex()))

ln2_16 = mp.log(2) / 16
m, e = mp.frexp(ln2_16)
hi = mp.ldexp(mp.floor(mp.ldexp(m, 32) + mp.mpf("0.5")), e - 32)
lo = float(ln2_16 - hi)
print("#define LN2_16_HI %s" % float(hi).hex())
print("#define LN2_16_LO %s" % lo.hex())
print("#define LN2_16 %s" % float(ln2_16).hex())
print("#define INV_LN2_16 %s" % float(1 / ln2_16).hex())
