#!/usr/bin/env python3
# expm1-coeffs.py: the polynomial coefficients and tables of
# runtime/x86/expm1-*.c (w64, which both ISAs share, is in
# runtime/x86/expm1-consts.h; q16 and the table of 16 in expm1-avx512.c,
# q8 and the table of 8 in expm1-avx2.c).
#
# The f64 kernels reduce x = k ln2 + r with |r| <= ln2/2 and need
# expm1 (r) there; the f32 kernels reduce x = (16 k + j) ln2/16 + r with
# |r| <= ln2/32 and a table of 2^(j/16) (AVX2: (8 k + j) ln2/8, |r| <=
# ln2/16, 2^(j/8)).  They approximate, on [-R, R] with R = 0.3466 (ln2/2 =
# 0.34657... plus a margin for the rounding of k and of r), resp. R16 =
# 0.0217 (ln2/32 = 0.021661...) and R8 = 0.0434 (ln2/16 = 0.043322...):
#   f64:  w(r) = (expm1 (r) - r - r^2/2) / r^3 = sum_n r^n / (n+3)!
#   f32:  q(r) = (expm1 (r) - r) / r^2         = sum_n r^n / (n+2)!
# (q32 on [-R, R] is the variant without a table, kept for comparison.)
# by a polynomial of degree D that minimises the maximum absolute error
# (Remez exchange, computed here with mpmath at 60 digits from the Taylor
# series, which converges fast on this interval).  The coefficients are
# then rounded to double and the error of the rounded polynomial is
# measured again on a dense grid; that measured error is what the
# kernels' error analysis uses.
#
# Run: python3 runtime/tools/expm1-coeffs.py   (mpmath 1.x, about a minute)
#
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The neuronfuse developers.

import mpmath as mp

mp.mp.dps = 60
R = mp.mpf("0.3466")
R16 = mp.mpf("0.0217")
R8 = mp.mpf("0.0434")


def series(shift):
    """The function sum_n r^n / (n + shift)!, exact to 60 digits."""

    def f(r):
        s, t, n = mp.mpf(0), mp.mpf(1) / mp.factorial(shift), 0
        while True:
            s += t
            n += 1
            t = t * r / (n + shift)
            if abs(t) < mp.mpf(10) ** -70:
                return s

    return f


def peval(c, r):
    s = mp.mpf(0)
    for a in reversed(c):
        s = s * r + a
    return s


def remez(f, deg, R, iters=30, grid=6000):
    """Minimax polynomial (absolute error) of degree DEG for F on [-R, R]."""
    m = deg + 2
    nodes = [R * mp.cos(mp.pi * (m - 1 - i) / (m - 1)) for i in range(m)]
    xs = [-R + 2 * R * i / grid for i in range(grid + 1)]
    fx = [f(x) for x in xs]
    for _ in range(iters):
        A = mp.matrix(m, m)
        b = mp.matrix(m, 1)
        for i, x in enumerate(nodes):
            for j in range(deg + 1):
                A[i, j] = x**j
            A[i, deg + 1] = (-1) ** i
            b[i] = f(x)
        sol = mp.lu_solve(A, b)
        c = [sol[j] for j in range(deg + 1)]
        err = [fx[i] - peval(c, xs[i]) for i in range(len(xs))]
        # Extrema: the endpoints and the interior local maxima of |err|,
        # then keep one per run of equal sign (the largest).
        ext = [0]
        for i in range(1, len(xs) - 1):
            if abs(err[i]) >= abs(err[i - 1]) and abs(err[i]) >= abs(err[i + 1]):
                ext.append(i)
        ext.append(len(xs) - 1)
        alt = []
        for i in ext:
            if alt and mp.sign(err[i]) == mp.sign(err[alt[-1]]):
                if abs(err[i]) > abs(err[alt[-1]]):
                    alt[-1] = i
            else:
                alt.append(i)
        while len(alt) > m:  # drop the smaller end
            if abs(err[alt[0]]) < abs(err[alt[-1]]):
                alt.pop(0)
            else:
                alt.pop()
        if len(alt) < m:
            break
        nodes = [xs[i] for i in alt]
    return c


def report(name, f, deg, weight_pow, R):
    c = remez(f, deg, R)
    cd = [float(a) for a in c]  # rounded to nearest double
    worst = mp.mpf(0)
    worstw = mp.mpf(0)
    for i in range(20001):
        r = -R + 2 * R * i / 20000
        e = abs(f(r) - peval([mp.mpf(a) for a in cd], r))
        worst = max(worst, e)
        worstw = max(worstw, e * abs(r) ** weight_pow)
    print("/* %s, degree %d on [-%s, %s]: max |error| of the rounded"
          % (name, deg, mp.nstr(R, 5), mp.nstr(R, 5)))
    print("   coefficients %s = 2^%.1f; times |r|^%d: 2^%.1f.  */"
          % (mp.nstr(worst, 3), float(mp.log(worst, 2)), weight_pow,
             float(mp.log(worstw, 2))))
    for j, a in enumerate(cd):
        print("#define %s_C%d %s" % (name.upper(), j, a.hex()))
    print()


def table(N, shift):
    """The bits of T_j = 2^(j/N) rounded to double, minus j << SHIFT, for
    j = 0..N-1: adding (N k + j) << SHIFT to them gives the bits of
    2^k T_j (SHIFT = 52 - log2 N)."""
    import struct

    print("/* Bits of 2^(j/%d) rounded to nearest double, minus j << %d.  */"
          % (N, shift))
    for j in range(N):
        t = float(mp.power(2, mp.mpf(j) / N))
        b = struct.unpack("<Q", struct.pack("<d", t))[0] - (j << shift)
        print("  0x%016xu, /* 2^(%d/%d) = %s; low, high 32 bits 0x%08xu, "
              "0x%08xu */" % (b, j, N, t.hex(), b & 0xFFFFFFFF, b >> 32))


if __name__ == "__main__":
    import sys

    report("w64", series(3), 9, 3, R)
    report("q32", series(2), 8, 2, R)
    report("q16", series(2), 4, 2, R16)
    report("q8", series(2), 5, 2, R8)
    table(16, 48)
    table(8, 49)
