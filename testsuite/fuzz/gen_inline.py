"""gen_inline.py: nf-fuzz's idioms inlined into a caller between other
loops, as llama2.c's forward has them (issue 15).

  static void rms7 (float *o, float *x, float *weight, int size) {...}
  static float nrm7 (const float *x, int n) {...}        -- the L2 norm
  static void act7 (float *y, const float *x, int n)     -- expm1 loop
  static void lg7 (float *y, const float *x, int n)      -- log1p loop
  static void mm7 (float *xout, const float *x, const float *w, int n,
                   int d)                                -- matmul
  __attribute__ ((noipa)) void k7 (float *out, float *x, float *xb,
                                   float *h, float *r, float *w,
                                   float *W, int n, int layers)
  {
    for (int i = 0; i < n; i++) x[i] += r[i];            -- residual
    for (int l = 0; l < layers; l++)                     -- (sometimes)
      {
        rms7 (xb, x, w + l * n, n);
        mm7 (h, xb, W + l * n, n, n);
        act7 (h, h, n);
        for (int i = 0; i < n; i++) x[i] += h[i];
      }
    out[0] = nrm7 (x, n);
    rms7 (x, x, w + 9 * n, n);                           -- in place
  }

with random stages, helpers static (most), static inline or extern (as
llama2.c's rmsnorm), pointer arguments or a struct's fields (s->xb).

Expected verdict: every copy of an idiom is fused, the inlined ones and
the out-of-line body where GCC keeps one.  Which calls GCC inlined and
which bodies it emitted is read from the plugin build's call graph as
compiled (-fcallgraph-info: the call sites left, the functions defined;
-fopt-info-inline misses the -O1 inlining into all callers).  Per copy: one
RMSNorm or MulRedSqrt region; for an expm1/log1p helper, the scalar
rewrite (one region in the helper: nf-scalar-early runs before inlining)
and one outlined loop per copy (the table's 'elementwise-loop' entry;
where signed zeros matter into the _pz kernel, under -ffast-math the
fast f32 one).
In k<I>, a residual add right before an rms call may be one more
RMSNorm region (the plugin's nf_add_rmsnorm, where it sees the two
together): k may have up to one per such pair, and its results are
still the model's bit for bit.
neuronfuse-clang rewrites each helper once, in the source.

Results: the fused program must give, bit for bit, the results of the
model m<I>: the same source with each helper's body replaced by the call
the tools make (nf_rmsnorm_f32 (o, x, w, n > 0 ? n : 0, eps),
nf_nrm2_f32, nf_expm1_f32, nf_expm1_pz_f32 or nf_expm1_fast_f32), in
a unit of its own (model.c) built plainly with the same flags, so that
neither tool sees it; the model prints as the reference.  When
the verdict is wrong (a copy missed), the results are not judged: the
verdict's difference says it.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import re
from collections import Counter

from fuzz_check import hex_fraction
from fuzz_common import ProgBase, TYPES, fast_math, no_signed_zeros

NI = 33     # the longest row: buffers are sized for it

# The tools that fuse the matmul (a Dot region): their builds link the
# model built with -DNF_FZ_DOT (fuzz_run.py).
DOT_TOOLS = ('plugin', 'clang')


class InlineProg(ProgBase):

    def __init__(self, idx, flags, r, model=True):
        """MODEL: whether to write the model m<I> (its own unit, built
        plainly; not for the crash mode, which runs nothing)."""
        super().__init__(idx, flags, r)
        self.kind = 'RMSNorm'
        self.ty = r.choice(['float'] * 4 + ['double'])
        t = TYPES[self.ty]
        self.L, self.M = t['L'], t['M']
        self.T = t['T']
        self.struct = r.random() < 0.3
        if self.struct:
            self.tags.append('struct-fields')
        self.linkage = {}
        self.calls = Counter()
        self.stages = self.gen_stages()
        self.helpers = tuple(f'{h}{idx}' for h in sorted(self.calls)) + \
            (f'mm{idx}',)
        self.gen_variants()
        self.kern = self.gen_kern()
        self.model_src = self.gen_kern(True) if model else ''
        self.ref = ''
        self.slack = 0
        self.driver = self.gen_driver()

    # -- the forward function -------------------------------------------
    def link(self, h):
        """H's linkage, chosen at its first call."""
        if h not in self.linkage:
            self.linkage[h] = self.pick([(6, 'static', True, None),
                                         (2, 'static inline', True,
                                          f'{h}-static-inline'),
                                         (1, 'extern', True, f'{h}-extern')])
        return self.linkage[h]

    def call(self, h, text):
        self.link(h)
        self.calls[h] += 1
        return text

    def buf(self, b):
        return f's->{b}' if self.struct and b != 'x' else b

    def gen_stages(self):
        """The statements of k<I>, with @H@ for helper H's name."""
        r = self.r
        uses = {'nrm': r.random() < 0.4, 'act': r.random() < 0.3,
                'lg': r.random() < 0.2}
        xb, h = self.buf('xb'), self.buf('h')
        out = []

        def res(src):
            return (f'for (int i = 0; i < n; i++) x[i] += {src}[i];'
                    if r.random() < 0.7 else
                    f'for (int i = 0; i < n; i++) x[i] = x[i] + {src}[i];')

        def block(k):
            """One layer: norm, matmul, activation, residual, norm."""
            st = []
            if r.random() < 0.8:
                st.append(self.call('rms',
                                    f'@rms@ ({xb}, x, w + {k} * n, n);'))
            st.append(f'@mm@ ({h}, {xb}, W + {k} * n, n, n);')
            if uses['act'] and r.random() < 0.7:
                st.append(self.call('act', r.choice(
                    [f'@act@ ({h}, {h}, n);', f'@act@ ({xb}, {h}, n);'])))
            if uses['lg'] and r.random() < 0.7:
                st.append(self.call('lg', f'@lg@ ({h}, {xb}, n);'))
            st.append(res(h))
            if uses['nrm'] and r.random() < 0.5:
                st.append(self.nrm_use(k))
            return st

        if r.random() < 0.6:
            out.append(res('r'))
        nblocks = r.randint(1, 3)
        layered = r.random() < 0.35
        before = list(out)  # the statements before the layer loop
        body = []
        if layered:
            self.tags.append('layer-loop')
            body = block('l')
            out.append('for (int l = 0; l < layers; l++)\n    {\n      '
                       + '\n      '.join(body) + '\n    }')
            nblocks -= 1
        n_out = len(out)
        for b in range(nblocks):
            out += block(str(b + 1))
        # The final norm, in place as llama2.c's (or into xb).
        out.append(self.call('rms', r.choice(
            ['@rms@ (x, x, w + 9 * n, n);',
             f'@rms@ ({xb}, x, w + 9 * n, n);'])))
        if uses['nrm']:
            out.append(self.nrm_use(7))
        # In order, the layer loop's body inlined.
        seq = before + body + out[n_out:]
        if self.calls['rms'] < 2 and not any(
                c >= 2 for c in self.calls.values()):
            out.insert(0, self.call('rms', f'@rms@ ({xb}, x, w + 8 * n, n);'))
        # The residual adds right before an rms call (of x): the plugin may
        # make each pair one nf_add_rmsnorm call in k (README, issue 19),
        # where it sees the add and the call together (the call inlined,
        # or rms's body one kernel call; not where s->h is reloaded in
        # the loop before GCC's invariant motion): at most one RMSNorm
        # region in k per pair, the results the model's bit for bit
        # either way (the kernel gives nf_rmsnorm's bits for the new x).
        pairs = sum(1 for a, b in zip(seq, seq[1:])
                    if a.startswith('for (int i = 0; i < n; i++) x[i]')
                    and b.startswith('@rms@ ('))
        if body and body[-1].startswith('for (int i = 0; i < n; i++) x[i]') \
                and body[0].startswith('@rms@ ('):
            pairs += 1
        self.res_pairs = pairs
        return out

    def nrm_use(self, k):
        h = self.buf('h')
        return self.call('nrm', self.r.choice([
            f'out[{k if k != "l" else 6}] = @nrm@ (x, n);',
            f'{{ {self.T} q = @nrm@ ({h}, n);\n'
            f'      for (int i = 0; i < n; i++) {h}[i] = {h}[i] / q; }}',
            f'out[5] += @nrm@ ({self.buf("xb")}, n);']))

    # -- the helpers and the model ------------------------------------------
    def helper(self, h, model):
        """The source of helper H (its model with MODEL)."""
        T, L, M, i = self.T, self.L, self.M, self.idx
        sfx = 'f32' if T == 'float' else 'f64'
        cnt = '{n} > 0 ? (size_t) {n} : 0'
        lk = self.linkage.get(h, 'static')
        lk = '' if lk == 'extern' else lk + ' '
        name = ('m' if model else '') + f'{h}{i}'
        if h == 'rms':
            v = self.rms_variant
            head = f'{lk}void {name} ({T} *o, {T} *x, {T} *weight, int size)'
            if model:
                return (f'{head}\n{{\n  nf_rmsnorm_{sfx} (o, x, weight, '
                        f'{cnt.format(n="size")}, {v["eps"]});\n}}\n')
            return f'{head}\n{{\n{v["body"]}}}\n'
        if h == 'nrm':
            head = f'{lk}{T} {name} (const {T} *x, int n)'
            if model:
                return (f'{head}\n{{\n  return nf_nrm2_{sfx} '
                        f'(x, {cnt.format(n="n")});\n}}\n')
            return (f'{head}\n{{\n  {T} s = 0.0{L};\n'
                    f'  for (int i = 0; i < n; i++) s += x[i] * x[i];\n'
                    f'  return sqrt{M} (s);\n}}\n')
        head = f'{lk}void {name} ({T} *y, const {T} *x, int n)'
        fn = 'expm1' if h == 'act' else 'log1p'
        if model:
            # The tools' callee (plugin/loop.cc): the _pz kernel where the
            # + 0.0 stays, the fast f32 one under -ffast-math.
            v = ('_pz' if not no_signed_zeros(self.flags)
                 else '_fast' if fast_math(self.flags) and sfx == 'f32'
                 else '')
            return (f'{head}\n{{\n  nf_{fn}{v}_{sfx} (y, x, '
                    f'{cnt.format(n="n")});\n}}\n')
        if h == 'act':
            e = self.act_form
        else:
            e = self.lg_form
        return (f'{head}\n{{\n  for (int i = 0; i < n; i++) y[i] = {e};\n'
                f'}}\n')

    def gen_variants(self):
        """The helpers' forms: RMSNorm's statements and eps, expm1's and
        log1p's expressions."""
        r, T, L, M = self.r, self.T, self.L, self.M
        eps = r.choice(['1e-5', '1e-6'])
        form = r.choice(['llama2', 'llama2', 'one-stmt', 'pow', 'w-last'])
        self.tags.append('rms-' + form)
        sq = f'  {T} ss = 0.0{L};\n' \
             f'  for (int j = 0; j < size; j++) ss += x[j] * x[j];\n'
        if form == 'llama2':
            body = (sq + f'  ss /= size;\n  ss += {eps}{L};\n'
                    f'  ss = 1.0{L} / sqrt{M} (ss);\n'
                    f'  for (int j = 0; j < size; j++) '
                    f'o[j] = weight[j] * (ss * x[j]);\n')
        elif form == 'one-stmt':
            body = (sq + f'  {T} s = 1.0{L} / sqrt{M} '
                    f'(ss / size + {eps}{L});\n'
                    f'  for (int j = 0; j < size; j++) '
                    f'o[j] = x[j] * s * weight[j];\n')
        elif form == 'pow':
            body = (sq + f'  {T} s = pow{M} (ss / size + {eps}{L}, '
                    f'-0.5{L});\n'
                    f'  for (int j = 0; j < size; j++) '
                    f'o[j] = weight[j] * (s * x[j]);\n')
        else:
            body = (sq + f'  ss = 1.0{L} / sqrt{M} '
                    f'(ss / size + {eps}{L});\n'
                    f'  for (int j = 0; j < size; j++) '
                    f'o[j] = (x[j] * ss) * weight[j];\n')
        self.rms_variant = {'body': body, 'eps': f'{eps}{L}'}
        self.act_form = r.choice([f'exp{M} (x[i]) - 1.0{L}',
                                  f'-1.0{L} + exp{M} (x[i])'])
        self.lg_form = r.choice([f'log{M} (1.0{L} + x[i])',
                                 f'log{M} (x[i] + 1.0{L})'])

    def gen_kern(self, model=False):
        """The text of k<I> with its helpers (for the kernel unit) or,
        with MODEL, of m<I> with the model's (for the model unit), from
        the stages and variants chosen."""
        T, L, i = self.T, self.L, self.idx
        out = []
        if self.struct:
            out.append(f'struct st{i} {{ {T} *x, *xb, *h; }};\n')
        for h in sorted(self.calls):
            out.append(self.helper(h, model))
        out.append(f'static void mm{i} ({T} *xout, const {T} *x, const {T} *w,'
                   f' int n, int d)\n{{\n')
        if model:
            out.append(self.mm_model())
        out.append(f'  for (int i = 0; i < d; i++)\n'
                   f'    {{\n      {T} val = 0.0{L};\n'
                   f'      for (int j = 0; j < n; j++) val += w[i * n + j] * '
                   f'x[j];\n      xout[i] = val;\n    }}\n}}\n')
        name = ('m' if model else 'k') + str(i)
        out.append(f'__attribute__ ((noipa)) void {name} '
                   f'({self.params()})\n{{\n')
        if self.struct:
            out.append(f'  {T} *x = s->x;\n')
        body = '\n  '.join(self.stages)
        for h in ('rms', 'nrm', 'act', 'lg'):
            body = body.replace(f'@{h}@',
                                ('m' if model else '') + f'{h}{i}')
        body = body.replace('@mm@', f'mm{i}')
        out.append(f'  {body}\n}}\n')
        return ''.join(out)

    def mm_model(self):
        """The model of the matmul where the tool fuses it (model.c built
        with -DNF_FZ_DOT): the call of nf_matvec_<T> under the guard the
        call plan sets (lower/match.h: rows of 16 elements or more, and
        under -ffast-math 2^16 elements in all), the loop otherwise."""
        sfx = 'f32' if self.T == 'float' else 'f64'
        big = (' && (size_t) d * (size_t) n >= ((size_t) 1 << 16)'
               if fast_math(self.flags) else '')
        return (f'#ifdef NF_FZ_DOT\n  if (n >= 16{big})\n'
                f'    {{\n      nf_matvec_{sfx} (xout, w, x, d, n);\n'
                f'      return;\n    }}\n#endif\n')

    def params(self):
        T = self.T
        bufs = f'struct st{self.idx} *s' if self.struct else \
            f'{T} *x, {T} *xb, {T} *h'
        return (f'{T} *out, {bufs}, {T} *r, {T} *w, {T} *W, int n, '
                f'int layers')

    # -- the driver -------------------------------------------------------
    def gen_driver(self):
        i, T = self.idx, self.T
        r = self.r
        ns = r.sample([0, 1, 2, 3, 5, 8, 13, 17, 33], 3)
        seed = r.randrange(1 << 30)
        layers = r.choice([1, 2, 3])
        lines = [f'static void run{i} (void)\n{{\n'
                 f'  static const int ns[] = '
                 f'{{ {", ".join(map(str, ns))} }};\n'
                 f'  for (int t = 0; t < 3; t++)\n  {{\n'
                 f'    int n = ns[t];\n']
        for p in ('', 'm'):
            lines.append(f'    static {T} {p}x[{NI}], {p}xb[{NI}], '
                         f'{p}h[{NI}], {p}out[8];\n')
        lines.append(f'    static {T} r[{NI}], w[16 * {NI}], '
                     f'W[{NI} * {NI} + 16 * {NI}];\n'
                     f'    for (int q = 0; q < {NI}; q++)\n'
                     f'      {{ x[q] = mx[q] = ({T}) nf_fz_val ({seed}u, q, '
                     f'0);\n'
                     f'        r[q] = ({T}) nf_fz_val ({seed}u + 1, q, -2);\n'
                     f'        xb[q] = mxb[q] = h[q] = mh[q] = ({T}) -1234.5;'
                     f' }}\n'
                     f'    for (int q = 0; q < 8; q++) out[q] = mout[q] = 0;\n'
                     f'    for (int q = 0; q < 16 * {NI}; q++)\n'
                     f'      w[q] = ({T}) nf_fz_wval ({seed}u, q);\n'
                     f'    for (int q = 0; q < {NI} * {NI} + 16 * {NI}; q++)\n'
                     f'      W[q] = ({T}) nf_fz_val ({seed}u + 2, q, -3);\n')
        if self.struct:
            lines.append(f'    struct st{i} s = {{ x, xb, h }}, '
                         f'ms = {{ mx, mxb, mh }};\n'
                         f'    k{i} (out, &s, r, w, W, n, {layers});\n'
                         f'    m{i} (mout, &ms, r, w, W, n, {layers});\n')
        else:
            lines.append(f'    k{i} (out, x, xb, h, r, w, W, n, {layers});\n'
                         f'    m{i} (mout, mx, mxb, mh, r, w, W, n, '
                         f'{layers});\n')
        lines.append(f'    for (int q = 0; q < {NI}; q++)\n'
                     f'      {{ P ({i}, x[q]); R ({i}, mx[q]); '
                     f'P ({i}, xb[q]); R ({i}, mxb[q]);\n'
                     f'        P ({i}, h[q]); R ({i}, mh[q]); }}\n'
                     f'    for (int q = 0; q < 8; q++) '
                     f'{{ P ({i}, out[q]); R ({i}, mout[q]); }}\n'
                     f'  }}\n}}\n')
        return ''.join(lines)

    def declarations(self):
        d = f'struct st{self.idx} {{ {self.T} *x, *xb, *h; }};\n' \
            if self.struct else ''
        return (d + f'void k{self.idx} ({self.params()});\n'
                f'void m{self.idx} ({self.params()});\n')

    def describe(self):
        calls = ', '.join(f'{h} x{c}' for h, c in sorted(self.calls.items()))
        return (f'inlined {"/".join(sorted(self.calls))} ({calls}), '
                f'{self.ty}, tags={",".join(self.tags) or "-"}')

    # -- the verdict ------------------------------------------------------
    KIND = {'rms': 'RMSNorm', 'nrm': 'MulRedSqrt', 'act': 'Expm1',
            'lg': 'Log1p'}

    def expect(self, tool, ctx):
        """The regions TOOL must report: a Counter of (function, kind),
        and a description of the copies."""
        i = self.idx
        k = f'k{i}'
        exp = Counter()
        desc = []
        loops = True    # elementwise loops are outlined at every flag set
        for h, calls in sorted(self.calls.items()):
            name, kind = f'{h}{i}', self.KIND[h]
            elementwise = h in ('act', 'lg')
            if tool == 'clang':
                exp[(name, kind)] += 1 + (elementwise and loops)
                continue
            cg = ctx['callgraph']
            inl = max(0, calls - cg.sites[(k, name)])
            body = name in cg.defined
            desc.append(f'{h}: {calls} calls, {inl} inlined'
                        + (', body kept' if body else ''))
            # nf-early-loop (and nf-scalar-early) fuse the helper in its
            # own body, before GCC inlines it: one region, in the helper,
            # however many copies run it (the model checks each did).
            if elementwise:
                exp[(name, kind)] += 1          # the scalar rewrite
                if not loops:
                    continue
            exp[(name, kind)] += 1
        # The matmul: one Dot region in its own body (the plugin's
        # nf-early-loop, neuronfuse-clang's source rewrite).
        if tool in DOT_TOOLS:
            exp[(f'mm{i}', 'Dot')] += 1
        return +exp, '; '.join(desc)

    def check_verdict(self, tool, rep, ctx):
        fns = (f'k{self.idx}', f'm{self.idx}') + self.helpers + tuple(
            'm' + h for h in self.helpers)
        got = Counter({fk: c for fk, c in rep.regions.items()
                       if fk[0] in fns})
        exp, desc = self.expect(tool, ctx)
        # The residual adds fused with the rms call after them (the
        # plugin's, at most one region per pair: gen_stages).
        kr = (f'k{self.idx}', 'RMSNorm')
        if tool != 'clang' and 0 < got[kr] <= getattr(self, 'res_pairs', 0):
            exp[kr] = got[kr]
        self.verdict_ok = got == exp
        if self.verdict_ok:
            return bool(got), None

        def show(c):
            return ', '.join(f'{f}: {k} x{n}' for (f, k), n in
                             sorted(c.items())) or 'nothing'
        return bool(got), (f'{tool}: fused {show(got)}, expected {show(exp)}'
                           + (f' [{desc}]' if desc else '')
                           + rep.missed_text(fns, self.noise_lines()))

    def noise_lines(self):
        """kern.c's lines of the matmul: its missed remarks (a dot
        product) say nothing of the copies."""
        skip, on = set(), False
        for n, text in enumerate(self.kern.split('\n')):
            if text and not text[0].isspace() and text[0] != '{':
                on = bool(re.match(r'(static |extern )?.*\bm\w*\d+ \(', text))
            if on:
                skip.add(self.line0 + n)
        return skip

    def compare(self, tool, got, plain, refs, fused):
        """The results of a correct verdict: the model's, bit for bit."""
        if not getattr(self, 'verdict_ok', False):
            return []
        if len(got) != len(plain):
            return [f'{tool}: {len(got)} results, plain build {len(plain)}']
        for k, g in got:
            m = refs.get(k)
            if m is None or hex_value(g) != hex_value(m):
                return [f'{tool}: result #{k} {show_hex(g)}, the model '
                        f'm{self.idx} gives {show_hex(m)}']
        return []


def show_hex(s):
    """S (%a or %La) as Python writes a double, or S if it is none."""
    try:
        return float(hex_fraction(s)).hex()
    except (TypeError, ValueError, OverflowError):
        return s


def hex_value(s):
    """A printed %a or %La value, comparable across the two formats."""
    v = hex_fraction(s)
    return 'nan' if v != v else v
