"""gen_idioms.py: nf-fuzz's generator of the four idioms as the tools'
own tests write them -- RMSNorm, the L2 norm (MulRedSqrt), exp(x) - 1
(Expm1) and log(1 + x) (Log1p), scalar and as elementwise loops -- each
with random perturbations, some of which keep the idiom (operand order,
association, casts, eps forms, offsets, the element type, overlapping
calls) and some of which do not (a square of two arrays, a weight indexed
differently, a divisor other than the trip count, eps outside the root, a
bias, a side effect, a stride, ...).

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import re

from fuzz_common import ProgBase, TYPES

KINDS = (['rmsnorm'] * 4 + ['nrm2'] * 2 + ['expm1'] * 2 + ['log1p'] * 2
         + ['expm1loop', 'log1ploop'])


class IdiomProg(ProgBase):
    """One program of an idiom: the kernel k<I>, its long double reference
    r<I> and a driver run<I> printing both."""

    def __init__(self, idx, flags, r, kind):
        super().__init__(idx, flags, r)
        getattr(self, 'gen_' + kind)()

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
            (1, f'{sqn} (s / n)', True, 'rms-no-eps'),  # nf_rms_*
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

