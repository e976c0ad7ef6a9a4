"""fuzz_run.py: nf-fuzz's run mode: a batch of programs built plainly,
with the plugin and through neuronfuse-clang, run, and judged.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import os
import shutil
import subprocess

from fuzz_check import compare, parse_run, report_kinds
from fuzz_common import batch_flags
from programs import make_prog, write_batch


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
    progs = [make_prog(i, env.seed, flags) for i in idxs]
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
