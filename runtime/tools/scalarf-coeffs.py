#!/usr/bin/env python3
# scalarf-coeffs.py: the tables and polynomial coefficients of the
# scalar functions nf_expf, nf_expm1f and nf_log1pf (runtime/scalarf.c),
# which follow glibc's expf and logf with a table of 64 and longer
# polynomials (0.5 ulp + tiny instead of glibc's 0.502 and 0.82 ulp).
#
# exp/expm1: x / (ln2/64) = m + t, m = 64 k + j nearest, |t| <= 1/2;
# 2^(t/64) - 1 = t G(t) with G of degree 4 (expm1, relative error of
# t G) or degree 3 (exp, absolute error of 1 + t G), fitted by Remez
# (absolute error of G) on [-1/2, 1/2].
# log1p: 1 + x = 2^k z, z in bucket i of 64 (by the bits of z - OFF);
# r = z R_i - 1, |r| <= 2^-7; log1p (r) = r + r^2 g(r), g of degree 4
# by Remez on [-0.00782, 0.00782].
# The coefficients are rounded to double and the error of the rounded
# polynomial measured again on a dense grid: those measured errors are
# what scalarf.c's error analysis uses.
#
# Run: python3 runtime/tools/scalarf-coeffs.py   (mpmath 1.x, a minute)
#
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The neuronfuse developers.

import importlib.util
import os
import struct

import mpmath as mp

spec = importlib.util.spec_from_file_location(
    "expm1_coeffs", os.path.join(os.path.dirname(__file__), "expm1-coeffs.py"))
em = importlib.util.module_from_spec(spec)
spec.loader.exec_module(em)
remez, peval = em.remez, em.peval

mp.mp.dps = 60
L = mp.log(2) / 64


def bits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def dbl(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def g_exp(t):
    return mp.expm1(t * L) / t if t != 0 else L


def g_log(r):
    return (mp.log1p(r) - r) / r**2 if r != 0 else mp.mpf(-0.5)


def fit(name, f, deg, R, measure):
    c = [float(a) for a in remez(f, deg, R, grid=3000)]
    worst = mp.mpf(0)
    for i in range(1, 8001):
        r = -R + 2 * R * mp.mpf(i) / 8001
        worst = max(worst, measure(r, peval([mp.mpf(a) for a in c], r)))
    print("/* %s: degree %d on [-%s, %s], measured error 2^%.1f.  */"
          % (name, deg, mp.nstr(R, 4), mp.nstr(R, 4), float(mp.log(worst, 2))))
    for j, a in enumerate(c):
        print("#define %s%d %s" % (name, j, a.hex()))
    print()


if __name__ == "__main__":
    half = mp.mpf(1) / 2
    # expm1: relative error of t G (t) against expm1 (t L).
    fit("EXPM1F_G", g_exp, 4, half,
        lambda t, v: abs(t * v / mp.expm1(t * L) - 1))
    # exp: error of 1 + t G (t) relative to 2^(t/64).
    fit("EXPF_G", g_exp, 3, half,
        lambda t, v: abs((1 + t * v) / mp.exp(t * L) - 1))
    R = mp.mpf("0.00782")
    # log1p: relative error of r + r^2 g (r) against log1p (r).
    fit("LOG1PF_G", g_log, 4, R,
        lambda r, v: abs((r + r * r * v) / mp.log1p(r) - 1))

    print("/* 2^(j/64) rounded to double, bits minus j << 46.  */")
    for j in range(64):
        t = float(mp.power(2, mp.mpf(j) / 64))
        print("  0x%016xu," % (bits(t) - (j << 46)))
    OFF = bits(1.0) - (79 << 45)
    print("\n#define LOG1PF_OFF 0x%016xu /* %s */" % (OFF, dbl(OFF).hex()))
    print("/* {R_i, -log (R_i)}: R_i = 1 / centre of bucket i, rounded.  */")
    for i in range(64):
        c = dbl(OFF + (2 * i + 1) * (1 << 45))
        rr = float(1 / mp.mpf(c)) if i != 39 else 1.0
        tt = float(-mp.log(mp.mpf(rr)))
        print("  { %s, %s }," % (rr.hex(), tt.hex()))
