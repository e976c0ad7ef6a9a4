#!/usr/bin/env python3
# log1p-coeffs.py: tables and polynomial coefficients of the vector log1p
# kernels (runtime/x86/log1p-avx512.c, log1p-avx2.c).
#
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The neuronfuse developers.
#
# Usage: python3 runtime/tools/log1p-coeffs.py   (needs python3-mpmath)
# Prints C initialisers; runtime/x86/log1p-consts.h, which both kernels
# include, holds a copy of the output.
#
# Reduction (see the kernels' design comment): u = 2^k z with the bit
# pattern of z in [OFF, OFF + 2^52), i.e. z in [0.6953125, 1.390625);
# bucket j = bits 48..51 of (bits (z) - OFF), 16 buckets.  For bucket j,
# R_j ~ 1 / (bucket centre) and r = z R_j - 1; the bucket holding 1 gets
# R = 1 exactly so that r = z - 1 is exact there.  T_j = -log (R_j) split
# as T_hi (a multiple of 2^-42, so k ln2_hi + T_hi is exact in double for
# |k| <= 1024) plus T_lo.
#
# Polynomials: P (r) ~ (log1p (r) - r) / r^2 on [-RMAX, RMAX] by a
# Chebyshev fit (mpmath.chebyfit, near-minimax), coefficients rounded to
# double, and the error of r + r^2 P (r) relative to log1p (r) measured
# on a dense grid after rounding.  f64: degree 8 (2^-62 relative);
# f32 (which only needs 2^-45): degree 6 (2^-49.7).  Degrees 7 and 5
# give only 2^-55.9 and 2^-43.4.

import struct
from mpmath import mp, mpf, log, log1p, chebyfit, ldexp, nint, linspace

mp.dps = 60
OFF = 0x3FE6400000000000


def d2b (d):
    return struct.unpack ('<Q', struct.pack ('<d', d))[0]


def b2d (b):
    return struct.unpack ('<d', struct.pack ('<Q', b))[0]


def hexd (d):
    return float.hex (float (d))


def tables ():
    rows = []
    rmin, rmax = mpf (0), mpf (0)
    for j in range (16):
        lo = mpf (b2d (OFF + (j << 48)))
        hi = mpf (b2d (OFF + ((j + 1) << 48)))
        if lo <= 1 < hi:
            R = 1.0
        else:
            R = float (2 / (lo + hi))
        T = -log (mpf (R))
        Thi = float (ldexp (nint (ldexp (T, 42)), -42))
        Tlo = float (T - mpf (Thi))
        rmin = min (rmin, lo * R - 1)
        rmax = max (rmax, hi * R - 1)
        rows.append ((j, float (lo), float (hi), R, Thi, Tlo, float (T)))
    return rows, rmin, rmax


def fit (deg, a, b):
    f = lambda r: (log1p (r) - r) / (r * r) if r != 0 else mpf (-0.5)
    c, _ = chebyfit (f, [a, b], deg + 1, error=True)
    c = [float (x) for x in c][::-1]  # lowest degree first, doubles
    worst = mpf (0)
    for r in linspace (a, b, 4001):
        if r == 0:
            continue
        p = mpf (0)
        for x in reversed (c):
            p = p * r + mpf (x)
        e = abs ((r + r * r * p - log1p (r)) / log1p (r))
        worst = max (worst, e)
    return c, worst


def main ():
    rows, rmin, rmax = tables ()
    print ('/* OFF = %#x; r in [%s, %s].  */' % (OFF, hexd (rmin), hexd (rmax)))
    print ('/* j, bucket [lo, hi), R, T_hi, T_lo, T rounded (f32) */')
    for j, lo, hi, R, Thi, Tlo, T in rows:
        print ('  /* %2d [%.7f, %.7f) */ %s, %s, %s, %s,'
               % (j, lo, hi, hexd (R), hexd (Thi), hexd (Tlo), hexd (T)))
    ln2 = log (2)
    l2hi = float (ldexp (nint (ldexp (ln2, 42)), -42))
    print ('/* ln2_hi = %s, ln2_lo = %s */' % (hexd (l2hi),
                                                hexd (ln2 - mpf (l2hi))))
    print ('/* ln2 = %s */' % hexd (ln2))
    a = min (rmin, -rmax)
    b = -a
    for name, deg in (('f64', 8), ('f32', 6)):
        c, err = fit (deg, a, b)
        print ('/* %s: P degree %d on [%s, %s], max rel err of r + r^2 P: '
               '2^%.1f */' % (name, deg, hexd (a), hexd (b),
                              float (log (err, 2))))
        for i, x in enumerate (c):
            print ('  %s, /* r^%d */' % (hexd (x), i + 2))


main ()
