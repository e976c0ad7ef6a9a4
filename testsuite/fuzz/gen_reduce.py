"""gen_reduce.py: nf-fuzz's reductions as real code writes them (issue 15).

ReduceProg: a sum of squares of any elementwise expression of one or two
arrays, not only x[i] * x[i]: a difference (a[i] - b[i]) * (a[i] - b[i]),
a temporary (float d = a[i] - b[i]; s += d * d;), a scale (float v = 2 *
a[i]; s += v * v;), an offset ((a[i] + 1)^2), fabs, casts ((double) (x[i]
* x[i]) summed in double), signed char / short / int data converted and
scaled (float v = q[i] * scale; s += v * v;), in float or double sums,
then sqrt (s), sqrt (s) / n, sqrt (s / n) or an RMSNorm-like tail.

MultiSumProg: several sums in one loop (cosine similarity: dot += a[i] *
b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; then dot / (sqrtf (na) *
sqrtf (nb))), the norms used in different ways (a product or a quotient
of roots, a guard, stored, a normalising loop, a mean and deviation, a
LayerNorm).

Expected verdicts.  The plugin has no kernel for the norm of a computed
value other than a distance, so those are not fused and must give the
plain build's results bit for bit.  A distance sqrt (sum (a[i] - b[i])^2)
(also of |a[i] - b[i]|, and sqrt (s) / n, sqrt (s / n)) is nf_dist_*'s
(issue 19), but no RMSNorm kernel scales a difference.  sqrt (s / n) of
the idiom is nf_rms_*'s.  A square GCC folds back into x[i] * x[i] is
the idiom and is fused: fabs (x) * fabs (x), (-x) * (-x), a temporary
copy of x[i], and x[i] * x[i] rounded in float and summed in double (the
matchers take casts between float types anywhere: the kernel's sum is the
more accurate one); GCC does not fold (double) fabsf (x) * (double)
fabsf (x) nor the negation's, which stay the norm of a computed value.
Among several sums, the region's fused call can give
only the idiom's result: a plain sum of squares whose root is the only
value used after the loop is fused when the other sums are dead (GCC
deletes them; the 'dead' variant), and not when any other sum is used
('a value computed in the region is used after it', or the first sum of
the loop is not a square: 'the two factors of the square differ').

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

from fuzz_common import FAST_F32_IN_F64, ProgBase, TYPES

# Integer data: the type and the range of its values.
INT_DATA = {'signed char': (-127, 127), 'unsigned char': (0, 255),
            'short': (-3000, 3000), 'int': (-100000, 100000)}
NB = 160    # main.c's array length


class ReduceBase(ProgBase):
    """The signature, reference and driver both generators share:

       R k<I> (R *out, T *o, const D *x, const D *y, const T *w, T scale,
               int n)

    R the accumulator's type, T the floating data's, D the data's (T or
    an integer type); the reference r<I> is the same source in long
    double (D stays an integer type)."""

    def setup(self, ty, acc, data):
        self.ty, self.acc, self.data = ty, acc, data
        t = TYPES[ty]
        self.L, self.M = t['L'], t['M']
        self.MA = '' if acc == 'double' else t['M']

    def src(self, name, body, ref):
        """The function NAME around BODY, a template over @T@ @A@ @D@
        @sqrt@ @fabs@ and @cA@ (a cast to the accumulator, or nothing)."""
        T, A = ('long double',) * 2 if ref else (self.ty, self.acc)
        D = self.data if self.data in INT_DATA else T
        sub = {'@T@': T, '@A@': A, '@D@': D,
               '@sqrt@': 'sqrtl' if ref else 'sqrt' + self.MA,
               '@fabs@': 'fabsl' if ref else 'fabs' + self.M,
               '@cA@': f'({A}) ' if self.acc != self.ty else ''}
        for k, w in sub.items():
            body = body.replace(k, w)
        return (f'{A} {name} ({A} *out, {T} *o, const {D} *x, const {D} *y,'
                f' const {T} *w, {T} scale, int n)\n{{\n{body}}}\n')

    def finish(self, body):
        self.kern = '__attribute__ ((noipa)) ' + self.src(f'k{self.idx}',
                                                          body, False)
        self.ref = self.src(f'r{self.idx}', body, True)
        self.slack = 0.55
        self.driver = self.reduce_driver()

    def value_type(self, pos):
        return self.vtypes[pos]

    def slack_at(self, pos):
        if self.kind == 'MulRedSqrt' and self.ty == 'double' and \
           self.acc == 'double' and self.pos_n[pos] >= 16:
            return 2.0    # nf_nrm2_f64 (see fuzz_check.compare)
        if self.kind == 'MulRedSqrt' and self.ty == 'float' and \
           self.acc == 'double' and self.fastmath:
            return FAST_F32_IN_F64    # nf_sumsq_f32 (fuzz_common)
        return self.slack

    def reduce_driver(self):
        i = self.idx
        T, A = self.ty, self.acc
        intd = self.data in INT_DATA
        D = self.data if intd else T
        DL = D if intd else 'long double'
        ns = self.ns()
        se = self.scale_exp() if not intd else 0
        seed = self.r.randrange(1 << 30)
        scale = self.r.choice(['0x1p-6', '0.0123', '3.0'])
        if intd:
            lo, hi = INT_DATA[D]
            xv = f'({D}) nf_fz_ival ({seed}u, q, {lo}, {hi})'
            yv = f'({D}) nf_fz_ival ({seed}u + 5, q, {lo}, {hi})'
        else:
            xv = f'({T}) nf_fz_val ({seed}u, q, {se})'
            yv = f'({T}) nf_fz_val ({seed}u + 7, q, {se})'
        self.vtypes, self.pos_n = [], []
        for n in ns:
            m = 5 + min(n + 24, NB - 8)
            self.vtypes += [A] * 5 + [T] * (m - 5)
            self.pos_n += [n] * m
        inject = '' if intd else self.special_inject()
        return (
            f'static void run{i} (void)\n{{\n'
            f'  static const int ns[] = {{ {", ".join(map(str, ns))} }};\n'
            f'  for (int t = 0; t < 3; t++)\n  {{\n'
            f'    int n = ns[t];\n'
            f'    static {D} x[NB], y[NB];\n'
            f'    static {T} w[NB], ob[NB];\n'
            f'    static {A} out[4];\n'
            f'    static {DL} lx[NB], ly[NB];\n'
            f'    static long double lw[NB], lob[NB], lout[4];\n'
            f'    for (int q = 0; q < NB; q++)\n    {{\n'
            f'      x[q] = {xv};\n'
            f'      y[q] = {yv};\n'
            f'      w[q] = ({T}) nf_fz_wval ({seed}u, q);\n'
            f'      ob[q] = ({T}) -1234.5;\n'
            f'      lx[q] = x[q]; ly[q] = y[q];\n'
            f'      lw[q] = w[q]; lob[q] = ob[q];\n'
            f'    }}\n'
            f'    for (int q = 0; q < 4; q++) out[q] = lout[q] = -1234.5;\n'
            f'    {T} *o = ob + 8, sc = ({T}) {scale};\n'
            f'    long double *lo = lob + 8;\n'
            f'{inject}'
            f'    {A} got = k{i} (out, o, x, y, w, sc, n);\n'
            f'    long double ref = r{i} (lout, lo, lx, ly, lw, sc, n);\n'
            f'    P ({i}, got); R ({i}, ref);\n'
            f'    for (int q = 0; q < 4; q++) {{ P ({i}, out[q]); '
            f'R ({i}, lout[q]); }}\n'
            f'    for (int q = 0; q < n + 24 && q < NB - 8; q++)\n'
            f'      {{ P ({i}, o[q]); R ({i}, lo[q]); }}\n'
            f'  }}\n}}\n')


class ReduceProg(ReduceBase):
    """A sum of squares of an elementwise expression, and its tail."""

    def __init__(self, idx, flags, r):
        super().__init__(idx, flags, r)
        ty = r.choice(['float'] * 3 + ['double'] * 2)
        acc = 'double' if ty == 'float' and r.random() < 0.3 else ty
        value = self.pick([
            (3, 'diff', True, 'computed-diff'),
            (2, 'scale', False, 'computed-scale'),
            (1, 'offset', False, 'computed-offset'),
            (1, 'fabs-diff', True, 'computed-fabs-diff'),
            (1, 'weighted', False, 'computed-weighted'),
            (3, 'quant', False, 'computed-quant'),
            (1, 'int-conv', False, 'computed-int'),
            (2, 'fabs', True, 'fabs-square'),
            (1, 'neg', True, 'neg-square'),
            (1, 'plain', True, None),
        ])
        data = r.choice(sorted(INT_DATA)) if value in ('quant', 'int-conv') \
            else ty
        self.setup(ty, acc, data)
        L = self.L
        v = {
            'diff': 'x[@j@] - y[@j@]',
            'scale': r.choice([f'2.0{L} * x[@j@]', 'x[@j@] * scale',
                               f'0.5{L} * x[@j@]']),
            'offset': r.choice([f'x[@j@] + 1.0{L}', f'x[@j@] - 0.5{L}']),
            'fabs-diff': '@fabs@ (x[@j@] - y[@j@])',
            'weighted': 'x[@j@] * w[@j@]',
            'quant': r.choice(['x[@j@] * scale', 'scale * x[@j@]']),
            'int-conv': '(@T@) x[@j@]',
            'fabs': '@fabs@ (x[@j@])',
            'neg': '-x[@j@]',
            'plain': 'x[@j@]',
        }[value]
        disguise = value in ('fabs', 'neg', 'plain')
        # A distance (a[i] - b[i])^2, |a[i] - b[i]|^2 alike: nf_dist_*
        # (issue 19), but only as a norm: no RMSNorm kernel takes a
        # difference.
        distance = value in ('diff', 'fabs-diff')

        def val(j):
            return v.replace('@j@', j)
        # The square: inline or through a temporary, and where a wider
        # accumulator's cast goes.
        form = r.choice(['inline', 'inline', 'temp', 'temp-acc'])
        if value == 'plain' and form == 'inline' and acc == ty:
            form = 'temp'    # (the bare idiom is gen_idioms' business)
        if form != 'inline':
            self.tags.append('loop-body-stmts')
        widen = r.choice(['first', 'product', 'implicit']) \
            if acc != ty and form != 'temp-acc' else 'none'
        if widen != 'none':
            self.tags.append('widen-' + widen)
        if form == 'inline':
            a, decl = f'({val("i")})', ''
        else:
            a = 'd'
            decl = ('@T@' if form == 'temp' else '@A@') + f' d = {val("i")}; '
        if value in ('fabs', 'neg', 'fabs-diff') and acc != ty and (
                form == 'temp-acc' or widen == 'first'):
            # GCC folds |x| * |x| and (-x) * (-x) only in x's type: a
            # widening between the fabs or the negation and the product
            # leaves the square of a computed value.
            disguise = distance = False
            self.tags.append('computed-widened-' + value)
        sq = {'first': f'@cA@{a} * {a}', 'product': f'@cA@({a} * {a})'} \
            .get(widen, f'{a} * {a}')
        stmt = r.choice([f's += {sq};', f's = s + {sq};'])
        loop = ('  @A@ s = 0;\n  for (int i = 0; i < n; i++) '
                + (f'{{ {decl}{stmt} }}' if decl else stmt) + '\n')
        tail = self.pick([
            (3, 'sqrt', True, 'tail-sqrt'),
            (2, 'sqrt-div-n', True, 'tail-sqrt-div-n'),
            (2, 'sqrt-mean', True, 'tail-sqrt-mean'),
            (3, 'rms', True, 'tail-rms'),
        ])
        self.kind = 'RMSNorm' if tail == 'rms' else 'MulRedSqrt'
        if tail == 'sqrt':
            body = '  return @sqrt@ (s);\n'
        elif tail == 'sqrt-div-n':
            body = '  return @sqrt@ (s) / n;\n'
        elif tail == 'sqrt-mean':
            body = '  return @sqrt@ (s / n);\n'
        else:
            # The scaled value: the squared one, or x itself: the idiom
            # only when x is what was squared and what is scaled.
            sv = self.pick([(2, val('j'), val('j') == 'x[j]',
                             'rms-scales-value'),
                            (1, 'x[j]', True, 'rms-scales-x')])
            eps = r.choice(['1e-5' + L, '0x1p-20' + L])
            body = (f'  @A@ rs = 1.0{L} / @sqrt@ (s / n + {eps});\n'
                    f'  for (int j = 0; j < n; j++) o[j] = w[j] * (rs * '
                    f'{sv});\n  return 0;\n')
        if not disguise and not (distance and tail != 'rms'):
            self.keeps = False    # the norm of a computed value: no kernel
        self.finish(loop + body)
        if tail == 'sqrt-div-n':
            # The division rounds the fused norm once more (twice under
            # -ffast-math, as a multiplication by 1 / n).
            self.slack = 1.6 if self.fastmath else 1.05


class MultiSumProg(ReduceBase):
    """Several sums in one loop and the norms used in different ways."""

    # Each sum's statement (the product widened to the accumulator).
    SUMS = {'dot': 'dot += @cA@x[i] * y[i];',
            'na': 'na += @cA@x[i] * x[i];',
            'nb': 'nb += @cA@y[i] * y[i];',
            'sx': 'sx += x[i];'}
    # For each set of sums, its tails.  'dead': only the root of na is
    # used, the other sum is dead code.
    TAILS = {
        ('dot', 'na', 'nb'): {
            'cos': 'return dot / (@sqrt@ (na) * @sqrt@ (nb));',
            'cos-joint': 'return dot / @sqrt@ (na * nb);',
            'cos-guard': '@A@ d = @sqrt@ (na) * @sqrt@ (nb);\n'
                         '  return d > 0 ? dot / d : 0;',
            'cos-eps': 'return dot / (@sqrt@ (na) * @sqrt@ (nb) + 1e-8@L@);',
            'stored': 'out[0] = @sqrt@ (na); out[1] = @sqrt@ (nb);\n'
                      '  return dot;',
            'normalise': '@A@ ra = 1 / @sqrt@ (na);\n'
                         '  for (int j = 0; j < n; j++) o[j] = x[j] * ra;\n'
                         '  return dot * ra / @sqrt@ (nb);',
        },
        ('dot', 'na'): {
            'proj': 'return dot / @sqrt@ (na);',
            'proj-sq': 'return dot / na;',
            'stored': 'out[0] = @sqrt@ (na);\n  return dot;',
            'rms-and-dot': '@A@ rs = 1.0@L@ / @sqrt@ (na / n + 1e-5@L@);\n'
                           '  for (int j = 0; j < n; j++) o[j] = w[j] * '
                           '(rs * x[j]);\n  return dot;',
            'dead': 'return @sqrt@ (na);',
        },
        ('na', 'nb'): {
            'stored': 'out[0] = @sqrt@ (na); out[1] = @sqrt@ (nb);\n'
                      '  return 0;',
            'diff': 'return @sqrt@ (na) - @sqrt@ (nb);',
            'joint': 'return @sqrt@ (na + nb);',
            'dead': 'return @sqrt@ (na);',
        },
        ('na', 'sx'): {
            'std': '@A@ m = sx / n;\n  return @sqrt@ (na / n - m * m);',
            'sum': 'return @sqrt@ (na) + sx;',
            'mean-stored': 'out[0] = sx / n;\n  return @sqrt@ (na);',
            'layernorm': '@A@ m = sx / n;\n'
                         '  @A@ rs = 1.0@L@ / @sqrt@ (na / n - m * m + '
                         '1e-5@L@);\n'
                         '  for (int j = 0; j < n; j++) o[j] = w[j] * '
                         '((x[j] - m) * rs);\n  return 0;',
            'dead': 'return @sqrt@ (na);',
        },
    }

    def __init__(self, idx, flags, r):
        super().__init__(idx, flags, r)
        ty = r.choice(['float'] * 3 + ['double'] * 2)
        acc = 'double' if ty == 'float' and r.random() < 0.25 else ty
        self.setup(ty, acc, ty)
        sums = r.choice(sorted(self.TAILS))
        tail = r.choice(sorted(self.TAILS[sums]))
        self.tags += ['sums-' + '-'.join(sums), 'tail-' + tail]
        stmts = [self.SUMS[s] for s in sums]
        r.shuffle(stmts)
        self.kind = 'MulRedSqrt'
        if tail == 'dead':
            # GCC deletes the dead sum: the loop is the idiom's alone.
            self.tags.append('loop-body-stmts')
        else:
            self.keeps = False
        body = ('  @A@ ' + ', '.join(f'{s} = 0' for s in sums) + ';\n'
                '  for (int i = 0; i < n; i++)\n    { '
                + ' '.join(stmts) + ' }\n  '
                + self.TAILS[sums][tail] + '\n')
        self.finish(body.replace('@L@', self.L))
