"""fuzz_common.py: what nf-fuzz's generators and runners share: the flag
sets and their predicates, the element types, the table of known
limitations, and ProgBase, the generated program's common helpers.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import random
import re

BATCH = 20

# -- flags ------------------------------------------------------------------
# The run mode's flag sets, one per batch (-O2 unless an -O is given).
FLAG_EXTRAS = [[], [], ['-O1'], ['-O3'], ['-ffast-math'],
               ['-march=native'], ['-O3', '-ffast-math'],
               ['-fno-math-errno'], ['-O3', '-march=native'], ['-Ofast']]


def batch_flags(seed, b):
    r = random.Random(f'flags-{seed}-{b}')
    extra = r.choice(FLAG_EXTRAS)
    opt = [e for e in extra if e.startswith('-O')] or ['-O2']
    return opt + [e for e in extra if not e.startswith('-O')]


# Floats summed in double, the root in double, under -ffast-math: the
# tools call nf_sumsq_f32 (its double sum, in 8 VD_N partial sums, has a
# bound 8 VD_N times below the loop's, which -ffast-math reorders too),
# not the error-free nf_nrm2d_f32, four times slower than the vectorised
# loop there.  DESIGN section 4: under -ffast-math a kernel may trade its
# 0.5 ulp for 1 ulp; an instance may lose to a loop that rounded well.
FAST_F32_IN_F64 = 1.0


def fast_math(flags):
    """Whether FLAGS imply -ffast-math (-Ofast does)."""
    return '-ffast-math' in flags or '-Ofast' in flags


def opt3(flags):
    """Whether FLAGS optimise at -O3 (-Ofast does)."""
    return '-O3' in flags or '-Ofast' in flags


def no_signed_zeros(flags):
    return fast_math(flags) or '-fno-signed-zeros' in flags


def _errno(flags):
    return not fast_math(flags) and '-fno-math-errno' not in flags


# -- known limitations --------------------------------------------------------
# Perturbations that keep the idiom mathematically but that a tool does not
# fuse, and why.  Each entry: (tool, tag, flags predicate, reason).  A
# program carrying TAG built with flags matching the predicate is expected
# *not* fused by TOOL; if the tool fuses it after all, that is reported
# (the table is stale), like any other difference.
KNOWN_LIMITATIONS = [
    ('plugin', 'eps-double', lambda f: True,
     "float data, double sum and a double eps parameter: nf_rmsnorm_f32 "
     "takes a float eps, which cannot hold 1e-5 (a bug the fuzzer found: "
     "both tools used to narrow it; neuronfuse.loop/miss-eps-double.c)"),
    ('clang', 'eps-double', lambda f: True, "as for the plugin"),
    ('plugin', 'unsigned-offset', lambda f: True,
     "x[j + 2] with an unsigned j: j + 2 wraps modulo 2^32 when n is near "
     "UINT_MAX, so the access is not affine ('an array access is not "
     "affine in the loop'): right to refuse (j + 1, which cannot wrap as "
     "j < n, is fused)"),
    ('clang', 'unsigned-offset', lambda f: True,
     "as for the plugin: neuronfuse-clang refuses the index j + c in a "
     "32-bit unsigned type where GCC finds it may wrap "
     "(frontend/loop-access.c, neuronfuse.loop/offset-index.c)"),
    ('plugin', 'narrowed-temp', lambda f: not fast_math(f),
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
    ('clang', 'narrowed-temp', lambda f: not fast_math(f),
     "as for the plugin: under -ffast-math the frontend makes GCC's fold of "
     "(float) exp ((double) x) into expf (x) itself and rewrites, as the "
     "plugin does (neuronfuse.dg/expm1-narrowed-temp.c)"),
    ('clang', 'narrowed-temp-expr', lambda f: True, "as for the plugin"),
]

# Limitations with no effect on the verdict (kind-only comparisons); the
# elementwise loops' entry went when they became outlined at every flag
# set (issue 16).
NO_VERDICT_EFFECT = set()


def limited(tool, tags, flags):
    for t, tag, pred, _ in KNOWN_LIMITATIONS:
        if t == tool and tag in tags and tag not in NO_VERDICT_EFFECT \
           and pred(flags):
            return tag
    return None


# -- element types ----------------------------------------------------------
# The C type, its accumulator, literal suffix, math suffix, the precision
# (significand bits, minimum normal exponent in frexp's sense).
TYPES = {
    'float': dict(T='float', A='float', L='f', M='f', mant=24, emin=-125),
    'double': dict(T='double', A='double', L='', M='', mant=53, emin=-1021),
    '_Float16': dict(T='_Float16', A='float', L='f', M='f', mant=11,
                     emin=-13),
}


class ProgBase:
    """What every generated program has: its index, flags, random stream R,
    tags (perturbations, for the limitation table), whether they keep the
    idiom, and the helpers of the generators.  A subclass sets kind, ty,
    kern (the kernel source, function k<I> and any helpers), ref (the long
    double reference r<I>, built plainly at -O0), driver (run<I>, which
    prints results with P and references with R), slack and what its
    compare needs."""

    # Functions of the program (besides k<I>) the report may name.
    helpers = ()
    # The source the program puts into the model unit, built plainly.
    model_src = ''

    def __init__(self, idx, flags, r):
        self.idx = idx
        self.flags = flags
        self.r = r
        self.tags = []
        self.keeps = True
        self.fastmath = fast_math(flags)
        self.multi_use = False

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

    def special_inject(self, x='x', lx='lx'):
        """Statements putting an Inf or a NaN into X (not -ffast-math)."""
        if self.fastmath or self.r.random() > 0.12:
            return ''
        v = self.r.choice(['INFINITY', '-INFINITY', 'NAN'])
        q = self.r.randrange(0, 6)
        return (f'    if (n > {q}) {{ {x}[{q}] = {v}; '
                f'{lx}[{q}] = {x}[{q}]; }}\n')

    def value_type(self, pos):
        """The type of the POSth result printed (TYPES' key)."""
        return self.ty

    def slack_at(self, pos):
        """The fused kernel's bound for the POSth result, in ulps."""
        if self.kind == 'MulRedSqrt' and self.ty == 'double' and \
           self.nrm2_ns[pos] >= 16:
            # nf_nrm2_f64's fast sum (runtime/neuronfuse.h): within 2 ulp,
            # a bound below the plain loop's ((n - 1) / 2 + 0.5 ulp) from
            # n = 16 on, but not correctly rounded: an instance may lose to
            # a plain loop that happened to round well.
            return 2.0
        if self.kind == 'MulRedSqrt' and self.ty == 'float' and \
           getattr(self, 'acc', 'float') == 'double' and self.fastmath:
            return FAST_F32_IN_F64
        return self.slack

    def expected(self, tool):
        """The kind TOOL must fuse this program into, or None, and the
        limitation that made it None, if any."""
        if not self.keeps:
            return None, None
        lim = limited(tool, self.tags, self.flags)
        if lim:
            return None, lim
        return self.kind, None

    def check_verdict(self, tool, rep, ctx):
        """Whether TOOL's report REP (fuzz_check.Report) fused what this
        program expects: returns (fused, message or None).  CTX: what the
        runner knows of the build (the plugin's inlining)."""
        fn = f'k{self.idx}'
        got = rep.kinds(fn)
        exp, lim = self.expected(tool)
        if got == ({exp} if exp else set()):
            return bool(got), None
        why = f' (known limitation {lim})' if lim else ''
        return bool(got), (f'{tool}: fused {sorted(got) or "nothing"}, '
                           f'expected {exp or "nothing"}{why}'
                           + rep.missed_text([fn]))

    def compare(self, tool, got, plain, refs, fused):
        """Differences between TOOL's results GOT and the plain build's
        PLAIN (see fuzz_check.compare)."""
        from fuzz_check import compare
        return compare(self, tool, got, plain, refs, fused)

    def declarations(self):
        """What main.c declares of the kernel unit."""
        decl = self.kern.split('\n{')[0]
        decl = re.sub(r'^.*?__attribute__ \(\(noipa\)\) ', '', decl,
                      flags=re.S)
        out = f'{decl};\n'
        if self.multi_use:
            out += f'extern {TYPES[self.ty]["T"]} g{self.idx};\n'
        return out

    def describe(self):
        return (f'{self.kind}, {self.ty}, keeps={self.keeps}, '
                f'tags={",".join(self.tags) or "-"}')
