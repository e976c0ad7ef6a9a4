"""fuzz_check.py: how nf-fuzz judges a build: the exact values of the
printed results, their errors in ulps against the long double reference,
the regions of a report, and the comparison of a tool's results with the
plain build's.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import json
import re
from fractions import Fraction

from fuzz_common import TYPES


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
