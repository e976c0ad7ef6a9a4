#!/usr/bin/env python3
"""nf-fuzz.py: neuronfuse's idiom fuzzer (make check-fuzz).

Generates random small C programs around the four idioms the tools
recognise -- RMSNorm, the L2 norm (MulRedSqrt), exp(x) - 1 (Expm1) and
log(1 + x) (Log1p) -- each with random perturbations, some of which keep
the idiom (operand order, association, casts, eps forms, offsets, the
element type, overlapping calls) and some of which do not (a square of two
arrays, a weight indexed differently, a divisor other than the trip count,
eps outside the root, a bias, a side effect, a stride, ...).  Every program
carries its *expected verdict*: the kind the tools must fuse it into, or
none.

Programs are built in batches (one translation unit of kernels, k<I>, and
one of drivers and long double references, compiled plainly), three ways:
plain gcc, gcc with the plugin (and its report), and neuronfuse-clang's
rewritten source built with plain gcc and linked with libneuronfuse.  All
must compile and run; for every program

  * the report's regions of k<I> must be exactly the expected kind (or
    nothing), for the plugin and for neuronfuse-clang;
  * a program not fused must give the plain build's results bit for bit;
  * a fused program must be at least as accurate as the plain build,
    element by element, against the long double reference (the same
    program evaluated in long double on a copy of the same memory layout,
    with expm1l/log1pl where the program computes exp(x)-1/log(1+x)):
    err(fused) <= err(plain), or err(fused) <= SLACK ulps, where SLACK is
    the kernel's documented bound: 0.55 ulp for RMSNorm and the norm
    (their kernels round once from a wider sum: 0.5 ulp + < 2^-12 ulp for
    the n <= 64 used here; nf-loop.h's NF_LOOP_CR), 1 ulp for expm1/log1p
    (glibc's expm1f/log1pf, 0.81 ulp at worst, and nf_expm1_*: the bound
    of the neuronfuse.dg tests).  NaN must stay NaN; for the scalar
    idioms an Inf and the sign of a zero must stay (not under
    -ffast-math).  Loops fused may fix an overflow of the plain loop's
    narrow sum (DESIGN.md 4, runtime/neuronfuse.h): the rule above allows
    that (the plain error is then infinite).

Usage: nf-fuzz.py --plugin SO --runtime-inc DIR --runtime-lib DIR
                  [--clang EXE] [--count N] [--seed S] [--only I]
                  [--jobs J] [--workdir DIR] [--cc CC] [--keep]
       nf-fuzz.py --limitations ... (the table below, and exit)
Environment of make check-fuzz: FUZZ_COUNT, FUZZ_SEED, FUZZ_ONLY.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from fractions import Fraction

BATCH = 20

# Known limitations: perturbations that keep the idiom mathematically but
# that a tool does not fuse, and why.  Each entry: (tool, tag, flags
# predicate, reason).  A program carrying TAG built with flags matching
# the predicate is expected *not* fused by TOOL; if the tool fuses it after
# all, that is reported (the table is stale), like any other difference.
def _errno(flags):
    return '-ffast-math' not in flags and '-fno-math-errno' not in flags


def _cdce(flags):
    # GCC's cdce (the errno diamond around sqrt) runs from -O2 on.
    return _errno(flags) and '-O1' not in flags


KNOWN_LIMITATIONS = [
    ('plugin', 'eps-double', lambda f: True,
     "float data, double sum and a double eps parameter: nf_rmsnorm_f32 "
     "takes a float eps, which cannot hold 1e-5 (a bug the fuzzer found: "
     "both tools used to narrow it; neuronfuse.loop/miss-eps-double.c)"),
    ('clang', 'eps-double', lambda f: True, "as for the plugin"),
    ('plugin', 'nrm2-sqrt-not-returned', _cdce,
     "with errno, cdce's diamond around sqrt (s) gives the region a second "
     "exit unless the root is returned or stored at once: 'the region has "
     "a second exit'"),
    ('plugin', 'nrm2-double-acc', _cdce,
     "float data summed in a double, sqrt (s) of the double: as above"),
    ('plugin', 'rms-div-sqrt-loop', lambda f: '-O3' in f and _errno(f),
     "x / sqrtf (s) inside the scaling loop: at -O3 loop unswitching on "
     "cdce's errno test makes two copies of the loop ('more than two "
     "loops'; neuronfuse.loop/rmsnorm-div-sqrt.c)"),
    ('plugin', 'elementwise-loop', _errno,
     "y[i] = exp (x[i]) - 1 / log (1 + x[i]) loops: without "
     "-fno-signed-zeros only the scalar rewrite happens (a region of the "
     "same kind, 'rewritten'), not the array kernel; the verdict compares "
     "kinds, so this entry only documents it (no effect on the verdict)"),
    ('plugin', 'unsigned-offset', lambda f: True,
     "x[j + 2] with an unsigned j: j + 2 wraps modulo 2^32 when n is near "
     "UINT_MAX, so the access is not affine ('an array access is not "
     "affine in the loop'): right to refuse (j + 1, which cannot wrap as "
     "j < n, is fused)"),
    ('clang', 'offset-index', lambda f: True,
     "x[j + c]: the frontend's matchers want the loop index itself as "
     "the subscript ('the region computes something the matchers do not "
     "know'); the plugin sees the base pointer x + c and fuses"),
    ('plugin', 'narrowed-temp', lambda f: '-ffast-math' not in f,
     "'float e = exp (x); return e - 1;' with x a float: (float) exp "
     "((double) ...) - 1.0f is not expf (..) - 1 unless -ffast-math lets "
     "GCC narrow the exp; the plugin does not rewrite it to (float) "
     "expm1 (..), which would be exact to do (no missed entry either)"),
    ('plugin', 'narrowed-temp-expr', lambda f: True,
     "as narrowed-temp, with an argument expression ('float e = exp (2.0 "
     "* x)'): even -ffast-math narrows exp only of a widened float, not "
     "of 2.0 * (double) x, so the plugin never sees expf (found by the "
     "20,000-program run, seed 3 program 8048: the entry above had "
     "assumed -ffast-math always narrows)"),
    ('clang', 'narrowed-temp', lambda f: True,
     "'float e = exp (x); return e - 1;' (a double exp narrowed into a "
     "float temporary): the plugin sees expf-like GIMPLE and rewrites, the "
     "frontend wants the temporary of the call's own type"),
    ('clang', 'nrm2-store', lambda f: True,
     "'*out = sqrtf (s)' (the norm stored, not returned): the frontend "
     "takes the region for an RMSNorm and misses it with 'the sum of "
     "squares is also used elsewhere' (a misleading reason)"),
]

# Limitations with no effect on the verdict (kind-only comparisons).
NO_VERDICT_EFFECT = {'elementwise-loop'}


def limited(tool, tags, flags):
    for t, tag, pred, _ in KNOWN_LIMITATIONS:
        if t == tool and tag in tags and tag not in NO_VERDICT_EFFECT \
           and pred(flags):
            return tag
    return None


# Types: the C type, its accumulator, literal suffix, math suffix, the
# precision (significand bits, minimum normal exponent in frexp's sense)
# and the print cast.
TYPES = {
    'float': dict(T='float', A='float', L='f', M='f', mant=24, emin=-125),
    'double': dict(T='double', A='double', L='', M='', mant=53, emin=-1021),
    '_Float16': dict(T='_Float16', A='float', L='f', M='f', mant=11,
                     emin=-13),
}
FLAG_EXTRAS = [[], [], ['-O1'], ['-O3'], ['-ffast-math'],
               ['-march=native'], ['-O3', '-ffast-math'],
               ['-fno-math-errno'], ['-O3', '-march=native']]


def batch_flags(seed, b):
    r = random.Random(f'flags-{seed}-{b}')
    extra = r.choice(FLAG_EXTRAS)
    opt = [e for e in extra if e.startswith('-O')] or ['-O2']
    return opt + [e for e in extra if not e.startswith('-O')]


class Prog:
    """One generated program: the kernel k<I>, its long double reference
    r<I> and a driver run<I> printing both."""

    def __init__(self, idx, seed, flags):
        self.idx = idx
        self.flags = flags
        self.r = random.Random(f'prog-{seed}-{idx}')
        self.tags = []       # perturbations, for the limitation table
        self.keeps = True    # whether the perturbations keep the idiom
        self.fastmath = '-ffast-math' in flags
        kind = self.r.choice(['rmsnorm'] * 4 + ['nrm2'] * 2 + ['expm1'] * 2
                             + ['log1p'] * 2 + ['expm1loop', 'log1ploop'])
        getattr(self, 'gen_' + kind)()

    # -- helpers --------------------------------------------------------
    def pick(self, options):
        """OPTIONS: list of (weight, value, keeps, tag)."""
        tot = sum(o[0] for o in options)
        x = self.r.uniform(0, tot)
        for w, val, keeps, tag in options:
            x -= w
            if x <= 0:
                break
        if not keeps:
            self.keeps = False
        if tag:
            self.tags.append(tag)
        return val

    def ns(self):
        base = [0, 1, 2, 3, 5, 8, 13, 17, 33, 64]
        k = self.r.sample(base, 3)
        if self.r.random() < 0.5 and 0 not in k and 1 not in k:
            k[0] = self.r.choice([0, 1])
        return k

    def scale_exp(self):
        ty = self.ty
        big = {'float': 60, 'double': 508, '_Float16': 6}[ty]
        tiny = {'float': -70, 'double': -540, '_Float16': -4}[ty]
        # Near overflow and underflow only where the program is defined:
        # under -ffast-math an overflowed sum is an Inf the compiler may
        # assume away (its 1 / sqrtf becomes rsqrt and a Newton step,
        # which turns Inf into NaN), and subnormals are flushed.
        opts = [(6, 0), (1, -big // 2)]
        if not self.fastmath:
            opts += [(1, big), (1, tiny)]
        tot = sum(o[0] for o in opts)
        x = self.r.uniform(0, tot)
        for w, v in opts:
            x -= w
            if x <= 0:
                return v
        return 0

    # -- RMSNorm ----------------------------------------------------------
    def gen_rmsnorm(self):
        r = self.r
        self.kind = 'RMSNorm'
        self.ty = r.choice(['float', 'float', 'double', '_Float16'])
        t = TYPES[self.ty]
        L = t['L']
        acc = t['A']
        if self.ty == 'float' and r.random() < 0.15:
            acc = 'double'
            self.tags.append('double-acc')
        elif self.ty == '_Float16' and r.random() < 0.25:
            acc = '_Float16'
            self.tags.append('f16-acc')
        self.acc = acc
        xi = 'x[j]'
        off = self.pick([(8, 0, True, None), (1, 1, True, 'offset-index'),
                         (1, 2, True, 'offset-index')])
        stride = self.pick([(12, 1, True, None), (1, 2, False, 'stride')])
        idx = 'j' if stride == 1 else '2 * j'
        if off:
            idx += f' + {off}'
        xi = f'x[{idx}]'
        c = '(%s) ' % acc if (acc != t['T'] and self.ty != '_Float16') or \
            (self.ty == '_Float16' and acc != '_Float16') else ''
        if c and r.random() < 0.3:
            c = ''  # the usual conversions still widen one factor
            if self.ty != '_Float16':
                self.tags.append('implicit-widen')
        sq = self.pick([
            (10, f'{c}{xi} * {xi}', True, None),
            (2, f'{xi} * {c}{xi}', True, 'cast-second'),
            (1, f'{c}{xi} * x2[{idx}]', False, 'two-arrays'),
            (1, f'{c}{xi} * w[{idx}]', False, 'square-x-w'),
        ])
        red = self.pick([
            (6, f'ss += {sq};', True, None),
            (2, f'ss = ss + {sq};', True, 'sum-order'),
            (2, f'ss = {sq} + ss;', True, 'sum-order'),
            (1, f'ss -= {sq};', False, 'sub-reduction'),
            (1, f'ss = fmax{t["M"] if acc != "double" else ""} (ss, {sq});',
             False, 'max-reduction'),
        ])
        init = self.pick([(12, f'0', True, None), (1, '1', False, 'init-1')])
        eps_param = r.random() < 0.25
        eps = 'eps' if eps_param else r.choice(['1e-5' + L, '1e-6' + L,
                                                '0x1p-20' + L])
        if eps_param:
            self.tags.append('eps-param')
            if acc == 'double' and self.ty == 'float':
                self.tags.append('eps-double')
        mean = self.pick([
            (6, 'ss / n', True, None),
            (2, f'ss * (1.0{L} / n)', True, 'mul-recip-n'),
            (1, 'ss / (n + 1)', False, 'divisor-n+1'),
            (1, 'ss', False, 'no-mean'),
        ])
        sq_ = f'sqrt{t["M"] if acc != "double" else ""}'
        pw = f'pow{t["M"] if acc != "double" else ""}'
        root = self.pick([
            (5, 'recip', True, None),
            (2, 'recip-eps-first', True, 'eps-first'),
            (2, 'pow', True, 'pow-half'),
            (2, 'div-loop', True, 'rms-div-sqrt-loop'),
            (2, 'div-root', True, 'div-root'),
            (1, 'eps-outside', False, 'eps-outside'),
            (1, 'extra-op', False, 'extra-op-between'),
        ])
        if root == 'eps-outside' and mean == 'ss':
            # 1 / (sqrtf (ss) + eps) holds a plain L2 norm, which is fused
            # as one (a MulRedSqrt inside other arithmetic, whose results
            # no element-wise rule can judge): keep the mean here.
            mean = 'ss / n'
            self.tags.remove('no-mean')
        sdecl = acc if acc != '_Float16' else '_Float16'
        pre = ''
        s = 's'
        if root == 'recip':
            if mean == 'ss / n' and r.random() < 0.5:
                pre = f'  ss /= n;\n  ss += {eps};\n  ss = 1.0{L} / {sq_} (ss);\n'
                s = 'ss'
                self.tags.append('stmt-chain')
            else:
                pre = f'  {sdecl} s = 1.0{L} / {sq_} ({mean} + {eps});\n'
        elif root == 'recip-eps-first':
            pre = f'  {sdecl} s = 1.0{L} / {sq_} ({eps} + {mean});\n'
        elif root == 'pow':
            pre = f'  {sdecl} s = {pw} ({mean} + {eps}, -0.5{L});\n'
        elif root == 'div-loop':
            pre = f'  {sdecl} s = {mean} + {eps};\n'
        elif root == 'div-root':
            pre = f'  {sdecl} s = {sq_} ({mean} + {eps});\n'
        elif root == 'eps-outside':
            pre = f'  {sdecl} s = 1.0{L} / ({sq_} ({mean}) + {eps});\n'
        else:
            op = r.choice([f'2.0{L} * ', f'0.5{L} + '])
            pre = f'  {sdecl} s = 1.0{L} / {sq_} ({mean} + {eps});\n' \
                  f'  s = {op}s;\n'
        if root == 'div-loop':
            sx = f'{xi} / {sq_} ({s})'
        elif root == 'div-root':
            sx = f'{xi} / {s}'
        else:
            sx = r.choice([f'({s} * {xi})', f'({xi} * {s})'])
        # (the weight stays w[j] when x is offset or strided: one
        # perturbation of the indexing at a time)
        wi = self.pick([
            (10, 'w[j]', True, None),
            (2, None, True, 'no-weight'),
        ] + ([] if off or stride != 1 else [
            (1, 'w[n - 1 - j]', False, 'weight-reversed'),
            (1, 'w[0]', False, 'weight-broadcast'),
        ]))
        if wi is None:
            body = sx
        else:
            body = self.pick([
                (3, f'{wi} * {sx}', True, None),
                (2, f'{sx} * {wi}', True, 'weight-last'),
            ])
        body = self.pick([
            (12, body, True, None),
            (1, f'{body} + 0.5{L}', False, 'bias'),
            (1, f'fmax{t["M"]} ({body}, 0.0{L})', False, 'relu'),
            (1, body.replace(xi, f'x2[{idx}]', 1) if xi in body else body,
             False, 'scale-other-array'),
        ])
        bound2 = self.pick([(12, 'n', True, None),
                            (1, 'n - 1', False, 'trip-count-short')])
        # The counter's type (not with n - 1, which wraps when unsigned).
        itype = 'int' if bound2 != 'n' else \
            r.choice(['int'] * 5 + ['long', 'unsigned', 'size_t'])
        if itype != 'int':
            self.tags.append('counter-' + itype.replace(' ', '-'))
        if itype == 'unsigned' and off >= 2:
            # (j + 1 cannot wrap, as j < n; j + 2 can)
            self.tags.append('unsigned-offset')
        side = self.pick([(14, '', True, None),
                          (1, ' nf_fz_count++;', False, 'side-effect')])
        self.out_layout = r.choice(['sep'] * 4 + ['inplace', 'after',
                                                  'before'])
        if self.out_layout == 'inplace' and (off or stride != 1):
            self.out_layout = 'sep'
        self.tags.append('layout-' + self.out_layout)
        self.eps_param = eps_param
        self.stride = stride
        self.off = off

        def body_src(name, T, A, sqrtn, pown, fmaxn, epsT):
            sub = lambda s_: (s_.replace(sq_ + ' ', sqrtn + ' ')
                              .replace(pw + ' ', pown + ' ')
                              .replace('fmax' + t['M'] + ' ', fmaxn + ' ')
                              .replace('fmax ', fmaxn + ' ')
                              .replace('(' + acc + ')', '(' + A + ')')
                              .replace(sdecl + ' s =', A + ' s ='))
            params = (f'{T} *o, const {T} *x, const {T} *w, const {T} *x2,'
                      f' {itype} n')
            if eps_param:
                params += f', {epsT} eps'
            return (f'void {name} ({params})\n{{\n'
                    f'  {A} ss = {init};\n'
                    f'  for ({itype} j = 0; j < n; j++) {sub(red)}\n'
                    f'{sub(pre)}'
                    f'  for ({itype} j = 0; j < {bound2}; j++) '
                    f'{{ o[j] = {sub(body)};{side} }}\n}}\n')
        epsT = acc if acc != '_Float16' else 'float'
        self.epsT = epsT
        self.kern = '__attribute__ ((noipa)) ' + body_src(
            f'k{self.idx}', t['T'], acc, sq_, pw, 'fmax' + t['M'], epsT)
        # The reference is the idiom's exact value: 1.0f / n, a float
        # division in the program, is taken in long double there too.
        self.ref = body_src(f'r{self.idx}', 'long double', 'long double',
                            'sqrtl', 'powl', 'fmaxl', 'long double') \
            .replace(f'(1.0{L} / n)', '(1.0L / n)')
        self.kernel_fn = 'nf_rmsnorm_' + {'float': 'f32', 'double': 'f64',
                                          '_Float16': 'f16'}[self.ty]
        self.slack = 0.55
        self.driver = self.array_driver(rms=True)

    # -- L2 norm --------------------------------------------------------
    def gen_nrm2(self):
        r = self.r
        self.kind = 'MulRedSqrt'
        self.ty = r.choice(['float', 'double'])
        t = TYPES[self.ty]
        L, M = t['L'], t['M']
        acc = t['T']
        c = ''
        if self.ty == 'float' and r.random() < 0.15:
            acc = 'double'
            c = '(double) '
            self.tags.append('nrm2-double-acc')
        stride = self.pick([(12, 1, True, None), (1, 2, False, 'stride')])
        idx = 'i' if stride == 1 else '2 * i'
        xi = f'x[{idx}]'
        sq = self.pick([(10, f'{c}{xi} * {xi}', True, None),
                        (1, f'{c}{xi} * y[{idx}]', False, 'two-arrays')])
        red = self.pick([
            (6, f's += {sq};', True, None),
            (2, f's = s + {sq};', True, 'nrm2-stmt-form'),
            (2, f's = {sq} + s;', True, 'nrm2-stmt-form'),
            (1, f's -= {sq};', False, 'sub-reduction'),
        ])
        init = self.pick([(12, '0', True, None), (1, '1', False, 'init-1')])
        sqn = 'sqrt' if acc == 'double' else 'sqrt' + M
        root = self.pick([
            (6, f'{sqn} (s)', True, None),
            (1, f'{sqn} (s + 1.0{L})', False, 'sqrt-plus-1'),
            (1, f'{sqn} (s / n)', False, 'rms-no-eps'),
            (2, f'2.0{L} * {sqn} (s)', True, 'nrm2-sqrt-not-returned'),
        ])
        ret = r.choice(['return', 'store'])
        self.tags.append('nrm2-' + ret)

        def src(name, T, A, sqrtn):
            body = root.replace(sqn + ' ', sqrtn + ' ')
            rr = red.replace('(double)', f'({A})')
            head = (f'{T} {name} (const {T} *x, const {T} *y, int n)'
                    if ret == 'return' else
                    f'void {name} ({T} *out, const {T} *x, const {T} *y, int n)')
            tail = (f'  return {body};\n' if ret == 'return'
                    else f'  *out = {body};\n')
            return (f'{head}\n{{\n  {A} s = {init};\n'
                    f'  for (int i = 0; i < n; i++) {rr}\n{tail}}}\n')
        self.ret = ret
        self.stride = stride
        self.kern = '__attribute__ ((noipa)) ' + src(f'k{self.idx}', t['T'],
                                                     acc, sqn)
        self.ref = src(f'r{self.idx}', 'long double', 'long double', 'sqrtl')
        self.slack = 0.55
        self.driver = self.nrm2_driver()

    # -- Expm1 / Log1p, scalar -------------------------------------------
    def scalar_expr(self, log):
        """The expression of x (kernel and reference forms)."""
        r = self.r
        t = TYPES[self.ty]
        L, M = t['L'], t['M']
        if self.ty == 'float' and r.random() < 0.1:
            L, M = '', ''  # double math on a float: widened, still exact
            self.tags.append('double-math')
        fn = ('log' if log else 'exp') + M
        one = r.choice(['1.0' + L, '1'])
        arg = self.pick([(6, 'x', True, None),
                         (1, f'2.0{L} * x', True, 'arg-expr'),
                         (1, f'x * 0.25{L}', True, 'arg-expr')])
        if log:
            e = self.pick([
                (4, f'{fn} ({one} + {arg})', True, None),
                (3, f'{fn} ({arg} + {one})', True, 'operand-order'),
                (1, f'{fn} (2.0{L} + {arg})', False, 'log-2-plus'),
                (1, f'{fn} ({one} - {arg})', False, 'log-1-minus'),
                (1, f'{fn} ({arg} + 1.5{L})', False, 'log-1.5-plus'),
            ])
            exact = f'log1pl ((__typeof__ ({arg})) ({arg}))'
        else:
            e = self.pick([
                (4, f'{fn} ({arg}) - {one}', True, None),
                (2, f'-{one} + {fn} ({arg})', True, 'operand-order'),
                (1, f'{fn} ({arg}) + (-1.0{L})', True, 'plus-minus-one'),
                (1, f'{one} - {fn} ({arg})', True, 'one-minus'),
                (1, f'{fn} ({arg}) - 2.0{L}', False, 'minus-2'),
                (1, f'{fn} ({arg}) + 0.5{L}', False, 'plus-half'),
            ])
            exact = f'expm1l ((__typeof__ ({arg})) ({arg}))'
            if 'one-minus' in self.tags:
                exact = '-' + exact
        ref = exact if self.keeps else e.replace(fn + ' ', fn.rstrip('f') + 'l ')
        return e, ref, fn

    def gen_scalar(self, log):
        r = self.r
        self.kind = 'Log1p' if log else 'Expm1'
        self.ty = r.choice(['float', 'double'])
        t = TYPES[self.ty]
        e, ref, fn = self.scalar_expr(log)
        form = r.choice(['direct', 'direct', 'temp'])
        if form == 'temp' and not log and e.startswith(fn + ' (') and \
           e.count(fn) == 1:
            # exp in a named temporary (expm1-named-temp.c), maybe used twice
            m = re.match(re.escape(fn) + r' \((.*?)\)', e)
            call = m.group(0)
            use2 = self.pick([(5, False, True, 'named-temp'),
                              (1, True, False, 'multi-use')])
            if 'double-math' in self.tags:
                self.tags.append('narrowed-temp')
                if 'arg-expr' in self.tags:
                    self.tags.append('narrowed-temp-expr')
            # (multi-use: the value is the same, the verdict is not)
            body = f'  {t["T"]} e = {call};\n' + \
                   (f'  g{self.idx} = e;\n' if use2 else '') + \
                   f'  return {e.replace(call, "e")};\n'
        else:
            body = f'  return {e};\n'
        self.multi_use = 'multi-use' in self.tags
        glob = f'{t["T"]} g{self.idx};\n' if self.multi_use else ''
        self.kern = (f'{glob}__attribute__ ((noipa)) {t["T"]} k{self.idx} '
                     f'({t["T"]} x)\n{{\n{body}}}\n')
        self.ref = (f'long double r{self.idx} ({t["T"]} x)\n'
                    f'{{\n  return {ref};\n}}\n')
        self.slack = 1.0
        self.driver = self.scalar_driver(log)

    def gen_expm1(self):
        self.gen_scalar(False)

    def gen_log1p(self):
        self.gen_scalar(True)

    # -- Expm1 / Log1p, elementwise loops ------------------------------
    def gen_loop(self, log):
        r = self.r
        self.kind = 'Log1p' if log else 'Expm1'
        self.ty = r.choice(['float', 'double'])
        t = TYPES[self.ty]
        L, M = t['L'], t['M']
        self.tags.append('elementwise-loop')
        fn = ('log' if log else 'exp') + M
        one = '1.0' + L
        if log:
            e = self.pick([(4, f'{fn} ({one} + x[i])', True, None),
                           (2, f'{fn} (x[i] + {one})', True, 'operand-order'),
                           (1, f'{fn} (2.0{L} + x[i])', False, 'log-2-plus')])
            ex = 'log1pl (x[i])' if self.keeps else \
                e.replace(fn + ' ', 'logl ')
        else:
            e = self.pick([(4, f'{fn} (x[i]) - {one}', True, None),
                           (2, f'-{one} + {fn} (x[i])', True, 'operand-order'),
                           (1, f'{fn} (x[i]) - 2.0{L}', False, 'minus-2')])
            ex = 'expm1l (x[i])' if self.keeps else \
                e.replace(fn + ' ', 'expl ')
        self.out_layout = r.choice(['sep', 'sep', 'inplace'])
        self.tags.append('layout-' + self.out_layout)
        T = t['T']
        self.kern = (f'__attribute__ ((noipa)) void k{self.idx} ({T} *y, '
                     f'const {T} *x, int n)\n{{\n  for (int i = 0; i < n; '
                     f'i++) y[i] = {e};\n}}\n')
        self.ref = (f'void r{self.idx} (long double *y, const long double *x,'
                    f' int n)\n{{\n  for (int i = 0; i < n; i++) '
                    f'y[i] = {ex};\n}}\n')
        self.slack = 1.0
        self.stride, self.off, self.eps_param = 1, 0, False
        self.log = log
        self.driver = self.array_driver(rms=False)

    def gen_expm1loop(self):
        self.gen_loop(False)

    def gen_log1ploop(self):
        self.gen_loop(True)

    # -- drivers ----------------------------------------------------------
    def special_inject(self):
        """Statements putting an Inf or a NaN into x (not -ffast-math)."""
        if self.fastmath or self.r.random() > 0.12:
            return ''
        v = self.r.choice(['INFINITY', '-INFINITY', 'NAN'])
        q = self.r.randrange(0, 6)
        return f'    if (n > {q}) {{ x[{q}] = {v}; lx[{q}] = x[{q}]; }}\n'

    def array_driver(self, rms):
        i = self.idx
        T = TYPES[self.ty]['T']
        ns = self.ns()
        se = self.scale_exp()
        seed = self.r.randrange(1 << 30)
        d = self.r.choice([1, 2, 3])
        lay = self.out_layout
        xo = 8
        oexpr = {'sep': 'ob + 8', 'inplace': 'x', 'after': f'x + {d}',
                 'before': f'x - {d}'}[lay]
        loexpr = oexpr.replace('ob', 'lob').replace('x', 'lx')
        if rms:
            vals = f'nf_fz_val ({seed}u, q, {se})'
        else:
            vals = (f'nf_fz_{"log" if self.log else "exp"}_val ({seed}u, q, '
                    f'{0 if self.fastmath else 1}, {int(self.ty == "float")})')
        call_args = '(o, x, w, x2, n' + (f', ({self.epsT}) 1e-5' if
                                         getattr(self, 'eps_param', False)
                                         else '') + ')' if rms else '(o, x, n)'
        lcall = call_args.replace('(o, x, w, x2', '(lo, lx, lw, lx2') \
            .replace('(o, x, n)', '(lo, lx, n)')
        return (
            f'static void run{i} (void)\n{{\n'
            f'  static const int ns[] = {{ {", ".join(map(str, ns))} }};\n'
            f'  for (int t = 0; t < 3; t++)\n  {{\n'
            f'    int n = ns[t];\n'
            f'    static {T} b[NB], ob[NB], w[NB], x2[NB];\n'
            f'    static long double lb[NB], lob[NB], lw[NB], lx2[NB];\n'
            f'    for (int q = 0; q < NB; q++)\n    {{\n'
            f'      b[q] = ({T}) {vals};\n'
            f'      x2[q] = ({T}) nf_fz_val ({seed}u + 7, q, 0);\n'
            f'      w[q] = ({T}) nf_fz_wval ({seed}u, q);\n'
            f'      ob[q] = ({T}) -1234.5;\n'
            f'      lb[q] = b[q]; lob[q] = ob[q]; lw[q] = w[q]; lx2[q] = x2[q];\n'
            f'    }}\n'
            f'    {T} *x = b + {xo}, *o = {oexpr};\n'
            f'    long double *lx = lb + {xo}, *lo = {loexpr};\n'
            f'{self.special_inject()}'
            f'    k{i} {call_args};\n'
            f'    r{i} {lcall};\n'
            f'    for (int q = 0; q < n + 24 && q < NB; q++)\n'
            f'      {{ P ({i}, b[q]); R ({i}, lb[q]); }}\n'
            + ('' if lay != 'sep' else
               f'    for (int q = 0; q < n + 24 && q < NB; q++)\n'
               f'      {{ P ({i}, ob[q]); R ({i}, lob[q]); }}\n')
            + f'  }}\n}}\n')

    def nrm2_driver(self):
        i = self.idx
        T = TYPES[self.ty]['T']
        ns = self.ns()
        self.nrm2_ns = ns
        se = self.scale_exp()
        seed = self.r.randrange(1 << 30)
        if self.ret == 'return':
            call = f'{T} got = k{i} (x, y, n);\n' \
                   f'    long double ref = r{i} (lx, ly, n);\n'
        else:
            call = f'{T} got; k{i} (&got, x, y, n);\n' \
                   f'    long double ref; r{i} (&ref, lx, ly, n);\n'
        return (
            f'static void run{i} (void)\n{{\n'
            f'  static const int ns[] = {{ {", ".join(map(str, ns))} }};\n'
            f'  for (int t = 0; t < 3; t++)\n  {{\n'
            f'    int n = ns[t];\n'
            f'    static {T} x[NB], y[NB];\n'
            f'    static long double lx[NB], ly[NB];\n'
            f'    for (int q = 0; q < NB; q++)\n    {{\n'
            f'      x[q] = ({T}) nf_fz_val ({seed}u, q, {se});\n'
            f'      y[q] = ({T}) nf_fz_wval ({seed}u, q);\n'
            f'      lx[q] = x[q]; ly[q] = y[q];\n    }}\n'
            f'{self.special_inject()}'
            f'    {call}'
            f'    P ({i}, got); R ({i}, ref);\n'
            f'  }}\n}}\n')

    def scalar_driver(self, log):
        i = self.idx
        T = TYPES[self.ty]['T']
        seed = self.r.randrange(1 << 30)
        fl = 1 if self.ty == 'float' else 0
        return (
            f'static void run{i} (void)\n{{\n'
            f'  for (int q = 0; q < 24; q++)\n  {{\n'
            f'    {T} x = ({T}) nf_fz_{"log" if log else "exp"}_val '
            f'({seed}u, q, {0 if self.fastmath else 1}, {fl});\n'
            f'    {T} got = k{i} (x);\n'
            f'    P ({i}, got); R ({i}, r{i} (x));\n'
            + (f'    P ({i}, g{i}); R ({i}, g{i});\n' if self.multi_use
               else '') +
            f'  }}\n}}\n')

    def expected(self, tool):
        """The kind TOOL must fuse this program into, or None, and the
        limitation that made it None, if any."""
        if not self.keeps:
            return None, None
        lim = limited(tool, self.tags, self.flags)
        if lim:
            return None, lim
        return self.kind, None


MAIN_HEAD = r'''/* nf-fuzz drivers and long double references (built without the tools) */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#define NB 160
volatile unsigned long nf_fz_count;
static unsigned long long nf_fz_h (unsigned s, int q)
{
  unsigned long long v = (q + 1) * 6364136223846793005ULL
			 + (s + 1ULL) * 1442695040888963407ULL;
  v ^= v >> 29; v *= 0xbf58476d1ce4e5b9ULL; v ^= v >> 32;
  return v;
}
/* In [-4, 4) times 2^E, every tenth value scaled by 2^-6.  */
static double nf_fz_val (unsigned s, int q, int e)
{
  double v = (double) (nf_fz_h (s, q) >> 11) * 0x1p-53 * 8 - 4;
  if (q % 10 == 3) v *= 0x1p-6;
  return ldexp (v, e);
}
static double nf_fz_wval (unsigned s, int q)
{
  return 0.5 + fabs (nf_fz_val (s + 3, q, 0)) / 4;
}
/* Inputs of exp (x) - 1: tiny, moderate, large, near overflow, and
   (SPECIAL) zeros of both signs, NaN and Inf.  */
static double nf_fz_exp_val (unsigned s, int q, int special, int fl)
{
  unsigned long long h = nf_fz_h (s, q);
  double u = (double) (h >> 11) * 0x1p-53;
  double sg = (h & 1) ? -1 : 1;
  switch (q % 8)
    {
    case 0: return sg * ldexp (1 + u, -(int) (h % 60) - 1);
    case 1: return sg * u * 4;
    case 2: return sg * u * 40;
    case 3: return (fl ? 88.0 : 709.0) + u * 2 - 1;
    case 4: if (special) return (h & 2) ? -0.0 : 0.0; return u;
    case 5: if (special) return (h & 2) ? NAN : sg * INFINITY; return -u;
    case 6: return -(fl ? 100.0 : 800.0) * u;
    default: return sg * ldexp (1 + u, -(int) (h % 20) - 20);
    }
}
/* Inputs of log (1 + x): tiny, near -1, large, and specials.  */
static double nf_fz_log_val (unsigned s, int q, int special, int fl)
{
  unsigned long long h = nf_fz_h (s, q);
  double u = (double) (h >> 11) * 0x1p-53;
  double sg = (h & 1) ? -1 : 1;
  switch (q % 8)
    {
    case 0: return sg * ldexp (1 + u, -(int) (h % 60) - 1);
    case 1: return -1 + ldexp (1 + u, -(int) (h % (fl ? 20 : 50)) - 2);
    case 2: return u * 1e30;
    case 3: return sg * u;
    case 4: if (special) return (h & 2) ? -0.0 : 0.0; return u * 10;
    case 5: if (special) return (h & 2) ? NAN : ((h & 4) ? INFINITY : -1.0);
            return u * 100;
    case 6: if (special) return -2 - u; return u;
    default: return sg * ldexp (1 + u, -(int) (h % 20) - 20);
    }
}
static long nf_fz_seq;
#define P(i, v) printf ("P %d %ld %a\n", (i), nf_fz_seq, (double) (v))
#define R(i, v) printf ("R %d %ld %La\n", (i), nf_fz_seq++, (long double) (v))
'''


def write_batch(progs, d):
    kern = ['/* nf-fuzz kernels */\n#include <math.h>\n#include <stddef.h>\n'
            'extern volatile unsigned long nf_fz_count;\n']
    main = [MAIN_HEAD]
    for p in progs:
        kern.append(f'/* program {p.idx}: {p.kind}, {p.ty}, keeps={p.keeps},'
                    f' tags={",".join(p.tags) or "-"} */\n')
        kern.append(p.kern)
        decl = p.kern.split('\n{')[0]
        decl = re.sub(r'^.*?__attribute__ \(\(noipa\)\) ', '', decl,
                      flags=re.S)
        main.append(f'{decl};\n')
        if getattr(p, 'multi_use', False):
            main.append(f'extern {TYPES[p.ty]["T"]} g{p.idx};\n')
        main.append('__attribute__ ((noipa, optimize ("O0"))) static '
                    + p.ref)
        main.append(p.driver)
    main.append('int main (void)\n{\n')
    for p in progs:
        main.append(f'  run{p.idx} ();\n')
    main.append('  return 0;\n}\n')
    with open(os.path.join(d, 'kern.c'), 'w') as f:
        f.write(''.join(kern))
    with open(os.path.join(d, 'main.c'), 'w') as f:
        f.write(''.join(main))


# -- comparisons ------------------------------------------------------------
def hex_fraction(s):
    """The exact value of a C %a / %La string, or a float for inf/nan."""
    s = s.strip()
    if 'inf' in s or 'nan' in s:
        return float(s)
    m = re.match(r'([-+]?)0x([0-9a-f]+)(?:\.([0-9a-f]*))?p([-+]?\d+)$', s)
    if not m:
        raise ValueError(s)
    sign, ip, fp, e = m.groups()
    fp = fp or ''
    mant = int(ip + fp, 16)
    e = int(e) - 4 * len(fp)
    v = Fraction(mant) * (Fraction(2) ** e)
    return -v if sign == '-' else v


def ulps(got, ref, mant, emin):
    """nf_ulps of nf-ulps.h, exactly."""
    gn = isinstance(got, float) and got != got
    rn = isinstance(ref, float) and ref != ref
    if gn or rn:
        return 0 if gn and rn else float('inf')
    if got == ref:
        return 0
    if isinstance(got, float) or isinstance(ref, float):
        return float('inf')
    a = abs(ref)
    if a == 0:
        e = emin
    else:
        # frexp exponent: a in [2^(e-1), 2^e)
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e <= a:
            e += 1
        elif Fraction(2) ** (e - 1) > a:
            e -= 1
        e = max(e, emin)
    return float(abs(got - ref) / (Fraction(2) ** (e - mant)))


def parse_run(out):
    vals = {}
    refs = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        i, k = int(parts[1]), int(parts[2])
        if parts[0] == 'P':
            vals.setdefault(i, []).append((k, parts[3]))
        else:
            refs.setdefault(i, {})[k] = parts[3]
    return vals, refs


def report_kinds(path):
    with open(path) as f:
        rep = json.load(f)
    kinds = {}
    for g in rep.get('regions', []):
        kinds.setdefault(g.get('function'), set()).add(g.get('kind'))
    return kinds


def compare(p, tool, got, plain, refs, fused):
    """Differences (strings) between TOOL's results GOT and the plain
    build's PLAIN for program P."""
    t = TYPES[p.ty]
    if len(got) != len(plain):
        return [f'{tool}: {len(got)} results, plain build {len(plain)}']
    scalar = p.kind in ('Expm1', 'Log1p')
    for pos, ((k, g), (_, o)) in enumerate(zip(got, plain)):
        if g == o:
            continue
        if not fused:
            return [f'{tool}: not fused but result #{k} differs from the '
                    f'plain build: {g} vs {o}']
        gv, ov = hex_fraction(g), hex_fraction(o)
        rv = hex_fraction(refs[k])
        gz = not isinstance(gv, float) and gv == 0
        oz = not isinstance(ov, float) and ov == 0
        if gv == ov and not (gz and oz):
            continue
        if gz and oz:
            # the two differ in the sign of a zero only
            if scalar and not p.fastmath:
                return [f'{tool}: result #{k} {g}, plain {o}: sign of zero']
            continue
        if scalar and not p.fastmath:
            if isinstance(ov, float) and ov == ov and gv != ov:
                return [f'{tool}: result #{k} {g}, plain {o}: the Inf '
                        f'is lost']
        onan = isinstance(ov, float) and ov != ov
        gnan = isinstance(gv, float) and gv != gv
        if onan != gnan:
            return [f'{tool}: result #{k} {g}, plain {o}: NaN differs']
        eg = ulps(gv, rv, t['mant'], t['emin'])
        eo = ulps(ov, rv, t['mant'], t['emin'])
        slack = p.slack
        if p.kind == 'MulRedSqrt' and p.ty == 'double' and \
           p.nrm2_ns[pos] >= 16:
            # nf_nrm2_f64's fast sum (runtime/neuronfuse.h): within 2 ulp,
            # a bound below the plain loop's ((n - 1) / 2 + 0.5 ulp) from
            # n = 16 on, but not correctly rounded: an instance may lose to
            # a plain loop that happened to round well.
            slack = 2.0
        if not (eg <= eo or eg <= slack):
            return [f'{tool}: result #{k} {g} ({eg:.3g} ulp), plain {o} '
                    f'({eo:.3g} ulp), reference {refs[k]}']
    return []


# -- building and running ----------------------------------------------------
class Env:
    pass


def sh(cmd, cwd, timeout=120):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors='replace')
    except subprocess.TimeoutExpired:
        return 124, 'timeout'


def run_batch(env, b, idxs):
    """Build and run the programs IDXS (one batch) in their own directory;
    returns (programs, list of (index or None, message))."""
    flags = batch_flags(env.seed, b)
    progs = [Prog(i, env.seed, flags) for i in idxs]
    d = os.path.join(env.workdir, f'b{b}' if len(idxs) > 1 else f'p{idxs[0]}')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_batch(progs, d)
    cc = env.cc
    fails = []
    base = [cc] + flags + ['-w', '-fno-strict-aliasing']
    link = [f'-L{env.rtlib}', f'-Wl,-rpath,{env.rtlib}', '-lneuronfuse',
            '-lm']
    steps = [
        ('main', base[:1] + ['-O1', '-w', '-c', 'main.c', '-o', 'main.o']),
        ('plain', base + ['-c', 'kern.c', '-o', 'kp.o']),
        ('plugin', base + [f'-fplugin={env.plugin}',
                           '-fplugin-arg-neuronfuse-report=rp.json',
                           '-c', 'kern.c', '-o', 'kf.o']),
    ]
    if env.clang:
        steps.append(('clang-tool', [env.clang, '--report=rc.json', '-o',
                                     'kc.c', 'kern.c', '--', '-w'] +
                      [f for f in flags]))
        steps.append(('clang-build', base + [f'-I{env.rtinc}', '-c', 'kc.c',
                                             '-o', 'kc.o']))
    for name, cmd in steps:
        rc, out = sh(cmd, d)
        if rc != 0:
            return progs, [(None, f'{name} failed ({flags}): '
                            + ' '.join(out.splitlines()[:3]))]
    builds = [('plain', 'kp.o'), ('plugin', 'kf.o')]
    if env.clang:
        builds.append(('clang', 'kc.o'))
    outs = {}
    for name, obj in builds:
        rc, out = sh([cc] + flags + ['main.o', obj, '-o', name] + link, d)
        if rc != 0:
            return progs, [(None, f'link of {name} failed: '
                            + ' '.join(out.splitlines()[:3]))]
        rc, out = sh([f'./{name}'], d, timeout=20)
        if rc != 0:
            return progs, [(None, f'{name} build exits {rc}')]
        outs[name] = parse_run(out)
    kinds = {'plugin': report_kinds(os.path.join(d, 'rp.json'))}
    if env.clang:
        kinds['clang'] = report_kinds(os.path.join(d, 'rc.json'))
    pv, refs = outs['plain']
    for p in progs:
        p.verdicts = {}
        for tool in kinds:
            got = kinds[tool].get(f'k{p.idx}', set())
            exp, lim = p.expected(tool)
            p.verdicts[tool] = got
            if got != ({exp} if exp else set()):
                why = f' (known limitation {lim})' if lim else ''
                fails.append((p.idx, f'{tool}: fused {sorted(got) or "nothing"}'
                              f', expected {exp or "nothing"}{why}'))
            tv = outs[tool][0].get(p.idx, [])
            for m in compare(p, tool, tv, pv.get(p.idx, []),
                             refs.get(p.idx, {}), bool(got)):
                fails.append((p.idx, m))
    return progs, fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--runtime-inc', required=True)
    ap.add_argument('--runtime-lib', required=True)
    ap.add_argument('--clang', default='')
    ap.add_argument('--cc', default=os.environ.get('CC', 'gcc'))
    ap.add_argument('--count', type=int, default=2000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--only', type=int, default=None)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--workdir', default='fuzz-work')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--limitations', action='store_true',
                    help='print the table of known limitations and exit')
    a = ap.parse_args()
    if a.limitations:
        for tool, tag, _, why in KNOWN_LIMITATIONS:
            print(f'{tool:7} {tag:24} {why}')
        return 0
    env = Env()
    env.plugin = os.path.abspath(a.plugin)
    env.rtinc = os.path.abspath(a.runtime_inc)
    env.rtlib = os.path.abspath(a.runtime_lib)
    env.clang = os.path.abspath(a.clang) if a.clang and \
        os.access(a.clang, os.X_OK) else ''
    env.cc = a.cc
    env.seed = a.seed
    env.workdir = os.path.abspath(a.workdir)
    os.makedirs(env.workdir, exist_ok=True)
    faildir = os.path.join(env.workdir, 'failures')
    if not env.clang:
        print('check-fuzz: neuronfuse-clang not built: plugin only')
    start = time.time()
    if a.only is not None:
        jobs = [(a.only // BATCH, [a.only])]
    else:
        jobs = [(b, list(range(b * BATCH, min(a.count, (b + 1) * BATCH))))
                for b in range((a.count + BATCH - 1) // BATCH)]
    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(run_batch, env, b, idxs): (b, idxs)
                for b, idxs in jobs}
        for fu in concurrent.futures.as_completed(futs):
            b, idxs = futs[fu]
            progs, fails = fu.result()
            if any(i is None for i, _ in fails) and len(idxs) > 1:
                # A batch that did not build or run: each program alone.
                progs, fails = [], []
                for i in idxs:
                    pp, ff = run_batch(env, b, [i])
                    progs += pp
                    fails += [(i if j is None else j, m) for j, m in ff]
            elif len(idxs) == 1:
                fails = [(idxs[0] if j is None else j, m) for j, m in fails]
            results.append((b, progs, fails))
    n = fused = diffs = 0
    bad = set()
    for b, progs, fails in sorted(results, key=lambda r: r[0]):
        for p in progs:
            n += 1
            if getattr(p, 'verdicts', {}).get('plugin'):
                fused += 1
        for i, m in fails:
            diffs += 1
            bad.add(i)
            print(f'DIFFERENCE program {i}: {m}; reproduce: '
                  f'FUZZ_SEED={a.seed} FUZZ_ONLY={i} make check-fuzz')
    for i in sorted(bad):
        # keep the failing program: its own directory, rebuilt alone
        src = os.path.join(env.workdir, f'p{i}')
        if not os.path.isdir(src):
            src = os.path.join(env.workdir, f'b{i // BATCH}')
        if os.path.isdir(src):
            os.makedirs(faildir, exist_ok=True)
            dst = os.path.join(faildir, f'seed{a.seed}-prog{i}')
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
    if not a.keep and a.only is None:
        for b, _ in jobs:
            for nm in (f'b{b}',):
                shutil.rmtree(os.path.join(env.workdir, nm),
                              ignore_errors=True)
    el = time.time() - start
    print(f'check-fuzz: seed {a.seed}, {el:.0f} s, {a.jobs} jobs')
    print(f'check-fuzz: {n} programs, {fused} fused, {n - fused} not fused, '
          f'{diffs} differences')
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
