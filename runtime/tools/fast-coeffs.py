#!/usr/bin/env python3
# fast-coeffs.py: tables and polynomial coefficients of the fast-math f32
# kernels, runtime/x86/expm1-fast-consts.h and log1p-fast-consts.h (both
# ISAs share them; the algorithms and error analyses are in
# runtime/x86/expm1-fast-avx512.c and log1p-fast-avx512.c).
#
# expm1: x = (32 k + j) ln2/32 + log (T_j / 2^(j/32)) + r.  T_j is
# 2^(j/32) rounded to 8 significant bits (so that 2^k T_j - 1 is exact
# for k in [-17, 23]), except T_1 = 1 and T_31 = 2: the cells next to
# each multiple of ln2 use 2^k itself, so that r = x there.  D_j = log
# (T_j) - j (L1 + L2), rounded to float, with L1 + L2 the two-float ln2/32
# the kernels subtract (L1 has 11 bits, so m L1 is exact for |m| < 2^13).
# q (r) = (expm1 (r) - r) / r^2 on [-0.0326, 0.0326] (|r| <= 1.5 ln2/32 =
# 0.03249), degree 2.
#
# log1p: u = 1 + x rounded, u = 2^k v with the bits of v in [OFF, OFF +
# 2^23), v in [0.7578125, 1.515625); bucket j = bits 18..22 of bits (v) -
# OFF, 32 buckets (width 1/64 below 1, 1/32 above; 1 is in the middle of
# bucket 15).  R_j = 1 / bucket centre rounded to 12 bits, except R = 1 in
# the buckets 13..16, v in [0.9609375, 1.046875): there r = x exactly for
# k = 0, and the buckets around them have |r| < |log v| / 4.  T_j = -log
# (R_j) = T_hi + T_lo, T_hi a multiple of 2^-16 (so that k LN2_HI + T_hi
# is exact, LN2_HI = ln2 truncated to 16 bits).  The kernels index the
# tables by 31 - j (they shift C - bits (u), see the kernel), so they are
# printed in that order.  P (r) = (log1p (r) - r) / r^2 on [-0.0391,
# 0.0469], degree 3, printed negated (-P), as the kernels use it.
#
# Fits: mpmath.chebyfit (near-minimax), coefficients rounded to float,
# then the relative error of the rounded polynomial measured on a grid
# of 4001 points: that measured error is what the error analyses use.
#
# Run: python3 runtime/tools/fast-coeffs.py   (needs python3-mpmath)
#
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The neuronfuse developers.

import struct
from mpmath import mp, mpf, log, log1p, expm1, chebyfit, linspace, ldexp
from mpmath import floor, nint

mp.dps = 50


def f2b(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def b2f(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def rf(x):
    """X rounded to the nearest float (through double: no double rounding
    matters for the values here, which are checked below)."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def hexf(x):
    """X as a C float literal, hexadecimal, without trailing zeros."""
    m, e = float.hex(float(x)).split("p")
    if "." in m:
        m = m.rstrip("0").rstrip(".")
    return m + "p" + e + "f"


def round_bits(x, b):
    e = int(floor(mp.log(abs(x), 2)))
    q = mpf(2) ** (e - b + 1)
    return float(nint(x / q) * q)


def fit(f, a, b, deg, ref):
    c = chebyfit(f, [a, b], deg + 1)
    c = [rf(x) for x in c][::-1]  # lowest degree first, floats
    worst = mpf(0)
    for r in linspace(a, b, 4001):
        if r == 0:
            continue
        p = mpf(0)
        for x in reversed(c):
            p = p * r + mpf(x)
        worst = max(worst, abs((r + r * r * p - ref(r)) / ref(r)))
    return c, worst


def table(name, ty, vals):
    print("static const %s %s[32] __attribute__ ((aligned (64))) = {"
          % (ty, name))
    for i in range(0, 32, 4):
        print("  " + ", ".join(vals[i:i + 4]) + ",")
    print("};")


def expm1_tables():
    N = 32
    L = log(2) / N
    inv = rf(N / log(2))
    l1 = round_bits(L, 11)
    l2 = rf(L - mpf(l1))
    print("/* expm1 */")
    print("#define NF_E1F_INV %s" % hexf(inv))
    print("#define NF_E1F_L1 %s" % hexf(l1))
    print("#define NF_E1F_L2 %s" % hexf(l2))
    T = []
    for j in range(N):
        T.append(1.0 if j == 1 else 2.0 if j == N - 1
                 else round_bits(mpf(2) ** (mpf(j) / N), 8))
    D = [rf(log(mpf(T[j])) - j * (mpf(l1) + mpf(l2))) for j in range(N)]
    table("nf_e1f_tb", "uint32_t",
          ["0x%08xu" % ((f2b(T[j]) - (j << 18)) & 0xFFFFFFFF)
           for j in range(N)])
    table("nf_e1f_d", "float", [hexf(d) for d in D])
    R = mpf("0.0326")
    q = lambda r: (expm1(r) - r) / (r * r) if r != 0 else mpf(0.5)
    c, err = fit(q, -R, R, 2, expm1)
    for i, a in enumerate(c):
        print("#define NF_E1F_Q%d %s" % (i, hexf(a)))
    print("/* relative error of r + r^2 q (r): 2^%.1f */"
          % float(mp.log(err, 2)))


def log1p_tables():
    OFF = 0x3F400000 + (1 << 17)
    rows = []
    rmin = rmax = mpf(0)
    for j in range(32):
        lo = mpf(b2f(OFF + (j << 18)))
        hi = mpf(b2f(OFF + ((j + 1) << 18)))
        one = 13 <= j <= 16
        R = 1.0 if one else round_bits(2 / (lo + hi), 12)
        T = -log(mpf(R))
        th = float(ldexp(nint(ldexp(T, 16)), -16))
        tl = rf(T - mpf(th))
        rmin = min(rmin, lo * R - 1)
        rmax = max(rmax, hi * R - 1)
        rows.append((R, th, tl, one))
    print("/* log1p: r in [%s, %s] */" % (mp.nstr(rmin, 6), mp.nstr(rmax, 6)))
    ln2h = float(ldexp(floor(ldexp(log(2), 16)), -16))
    print("#define NF_L1F_LN2_HI %s" % hexf(ln2h))
    print("#define NF_L1F_LN2_LO %s" % hexf(rf(log(2) - mpf(ln2h))))
    rev = rows[::-1]
    table("nf_l1f_r", "float", [hexf(r[0]) for r in rev])
    table("nf_l1f_thi", "float",
          ["-0x0p+0f" if r[3] else hexf(r[1]) for r in rev])
    table("nf_l1f_tlo", "float",
          ["-0x0p+0f" if r[3] else hexf(r[2]) for r in rev])
    P = lambda r: (log1p(r) - r) / (r * r) if r != 0 else mpf(-0.5)
    c, err = fit(P, rmin, rmax, 3, log1p)
    for i, a in enumerate(c):
        print("#define NF_L1F_PN%d %s" % (i, hexf(-a)))
    print("/* relative error of r + r^2 P (r): 2^%.1f */"
          % float(mp.log(err, 2)))


if __name__ == "__main__":
    expm1_tables()
    log1p_tables()
