"""fuzz_check.py: how nf-fuzz judges a build: the exact values of the
printed results, their errors in ulps against the long double reference,
the regions of a report, and the comparison of a tool's results with the
plain build's.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import json
import os
import re
from collections import Counter
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


class Report:
    """A JSON report: REGIONS, a Counter of (function, kind), and MISSED,
    for each function the list of (kind, line, reason).  GCC's clones
    (f.part.0, f.constprop.1, f.isra.0) count as F."""

    def __init__(self, path):
        with open(path) as f:
            rep = json.load(f)
        self.regions = Counter()
        self.missed = {}
        for g in rep.get('regions', []):
            self.regions[(base_name(g.get('function')), g.get('kind'))] += 1
        for g in rep.get('missed', []):
            self.missed.setdefault(base_name(g.get('function')), []).append(
                (g.get('kind'), (g.get('location') or {}).get('line'),
                 g.get('reason')))

    def kinds(self, fn):
        """The set of kinds of FN's regions."""
        return {k for (f, k) in self.regions if f == fn}

    def missed_text(self, fns, skip=()):
        """The missed candidates of the functions FNS, as text, but for
        those at the lines SKIP."""
        ms = Counter(f'{k} line {ln}: {why}' for fn in fns
                     for k, ln, why in self.missed.get(fn, [])
                     if ln not in skip)
        text = '; '.join(m + (f' (x{c})' if c > 1 else '')
                         for m, c in sorted(ms.items()))
        return f' (missed: {text})' if ms else ''


def base_name(fn):
    return re.sub(r'(\.(part|constprop|isra|cold)\.\d+)+$', '', fn or '')


class CallGraph:
    """GCC's -fcallgraph-info file (VCG) of a unit as compiled: DEFINED,
    the functions whose bodies were emitted, and SITES, a Counter of
    (caller, callee) of the distinct call sites left (those not
    inlined).  Clones count as their function."""

    def __init__(self, path):
        self.defined = set()
        self.sites = Counter()
        if not os.path.exists(path):
            return
        seen = set()
        with open(path) as f:
            for line in f:
                m = re.match(r'node: \{ title: "([^"]*)" label: "([^\\"]*)',
                             line)
                if m and 'shape : ellipse' not in line:
                    self.defined.add(base_name(m.group(2)))
                m = re.match(r'edge: \{ sourcename: "([^"]*)" targetname: '
                             r'"([^"]*)" label: "([^"]*)"', line)
                if m and m.groups() not in seen:
                    seen.add(m.groups())
                    self.sites[(base_name(m.group(1).split(':')[-1]),
                                base_name(m.group(2).split(':')[-1]))] += 1


def failure_summary(out):
    """What a failed compilation's output OUT says, in one line: an
    internal compiler error with its pass and the first frame of the
    plugin's backtrace, or its first error lines."""
    ice = re.search(r'internal compiler error: ([^\n]*)', out)
    if not ice:
        lines = [ln for ln in out.splitlines()
                 if 'error' in ln or 'fatal' in ln] or out.splitlines()
        return ' '.join(lines[:3])[:300]
    pas = re.search(r'during ([A-Z]+ pass: [\w-]+)', out)
    frame = re.search(r'0x[0-9a-f]+ (\w+)\n\s+(\S*/(?:plugin|lower)/'
                      r'[\w.-]+:\d+)', out)
    where = ''
    if frame:
        src = '/'.join(frame.group(2).split('/')[-2:])
        where = f' at {frame.group(1)} ({src})'
    return (f'internal compiler error: {ice.group(1).strip()}'
            f'{" during " + pas.group(1) if pas else ""}{where}')


def compare(p, tool, got, plain, refs, fused):
    """Differences (strings) between TOOL's results GOT and the plain
    build's PLAIN for program P."""
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
        t = TYPES[p.value_type(pos)]
        eg = ulps(gv, rv, t['mant'], t['emin'])
        eo = ulps(ov, rv, t['mant'], t['emin'])
        slack = p.slack_at(pos)
        if not (eg <= eo or eg <= slack):
            return [f'{tool}: result #{k} {g} ({eg:.3g} ulp), plain {o} '
                    f'({eo:.3g} ulp), reference {refs[k]}']
    return []
