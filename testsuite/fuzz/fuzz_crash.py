"""fuzz_crash.py: nf-fuzz's compile-only crash mode (issue 15).

Many programs of every generator, compiled and never run: each batch at
a random flag set (-O1, -O2, -O3, -Os or -Ofast; sometimes -march=native,
-ffast-math, -fno-math-errno, -g, -fchecking, -fno-strict-aliasing),
as C or as C++ (g++ -x c++: the plugin loads in cc1plus too), with the
plugin and sometimes its other arguments (mode=report, kinds=, dump,
dump-hlo=, verbose), and for C through neuronfuse-clang (then its output
built plainly).  It checks only that nothing crashes: every compilation
that succeeds plainly must succeed with the plugin, without an internal
compiler error, and write a report that parses; neuronfuse-clang must
exit 0 with a report that parses and an output that compiles.  The
plain compilation runs only when one of these fails: if it fails too,
the generator is at fault (reported as well).

Program cI of seed S is its own random stream ('crash-S-I'), so that
FUZZ_SEED=S FUZZ_ONLY=cI make check-fuzz rebuilds it alone (in
fuzz-work/cI, with cmd.sh, the command that failed).

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import json
import os
import random
import shlex
import shutil

from fuzz_check import failure_summary
from fuzz_common import fast_math
from fuzz_run import sh
from programs import make_prog, write_batch

KINDS = ['RMSNorm', 'MulRedSqrt', 'Expm1', 'Log1p']


def crash_flags(seed, b):
    """Batch B's language, compiler flags, plugin arguments and
    neuronfuse-clang arguments."""
    r = random.Random(f'crash-flags-{seed}-{b}')
    lang = 'c++' if r.random() < 0.35 else 'c'
    flags = [r.choice(['-O1', '-O2', '-O2', '-O3', '-O3', '-Os', '-Ofast'])]
    for p, f in ((0.3, '-march=native'), (0.2, '-g'), (0.4, '-fchecking'),
                 (0.15, '-fno-strict-aliasing')):
        if r.random() < p:
            flags.append(f)
    if not fast_math(flags):
        flags += r.choice([[], [], [], ['-ffast-math'], ['-fno-math-errno']])
    plug, tool = [], []
    if r.random() < 0.25:
        plug.append('mode=report')
    if r.random() < 0.1:
        ks = ','.join(r.sample(KINDS, r.randint(1, 3)))
        plug.append(f'kinds={ks}')
        tool.append(f'--kinds={ks}')
    for p, a in ((0.1, 'dump'), (0.1, 'dump-hlo=hlo'), (0.1, 'verbose')):
        if r.random() < p:
            plug.append(a)
    if r.random() < 0.1:
        tool.append('--dump-hlo=hlo-c')
    return lang, flags, plug, tool


def crash_steps(env, b):
    """Batch B's language, flags as shown, compilations in order (name,
    command) and the plain compilation, which runs only when another
    fails (then it decides whether the tool is to blame)."""
    lang, flags, plug, tool = crash_flags(env.seed, b)
    if lang == 'c++':
        cc = [env.cxx, '-x', 'c++']
    else:
        cc = [env.cc]
    base = cc + flags + ['-w', '-c', 'kern.c']
    steps = [('plugin', base + [f'-fplugin={env.plugin}',
                                '-fplugin-arg-neuronfuse-report=rp.json']
              + [f'-fplugin-arg-neuronfuse-{a}' for a in plug]
              + ['-o', 'kf.o'])]
    if lang == 'c' and env.clang:
        # (clang takes GCC's options but -fchecking)
        steps.append(('clang-tool', [env.clang, '--report=rc.json'] + tool
                      + ['-o', 'kc.c', 'kern.c', '--', '-w']
                      + [f for f in flags if f != '-fchecking']))
        steps.append(('clang-build', [env.cc] + flags
                      + ['-w', f'-I{env.rtinc}', '-c', 'kc.c', '-o', 'kc.o']))
    shown = flags + [f'-fplugin-arg-neuronfuse-{a}' for a in plug]
    return lang, shown, steps, ('plain', base + ['-o', 'kp.o'])


def run_step(name, cmd, d, plain):
    """Run step NAME (CMD) in D: None if it passed, else what failed;
    when it fails, the PLAIN compilation says whether the program
    compiles at all (if not, the generator is at fault)."""
    why = run_one(name, cmd, d)
    if why is None:
        return None
    if run_one(*plain, d) is not None:
        return f'{why} (the plain compilation fails too: the generator\'s ' \
               'fault)'
    return why


def run_one(name, cmd, d):
    """Run compilation NAME (CMD) in D: None or what failed."""
    for sub in ('hlo', 'hlo-c'):
        if any(c.endswith('=' + sub) for c in cmd):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
    rc, out = sh(cmd, d, timeout=300)
    if rc != 0:
        return failure_summary(out) if rc != 124 else 'timeout (300 s)'
    if 'internal compiler error' in out:
        return failure_summary(out)
    rep = {'plugin': 'rp.json', 'clang-tool': 'rc.json'}.get(name)
    if rep:
        try:
            with open(os.path.join(d, rep)) as f:
                json.load(f)
        except (OSError, ValueError) as e:
            return f'its report does not parse: {e}'
    return None


def write_cmd(d, what, run):
    """D/cmd.sh: the commands RUN (in D) and, as a comment, WHAT."""
    with open(os.path.join(d, 'cmd.sh'), 'w') as f:
        f.write(f'#!/bin/sh\n# {what}\ncd "$(dirname "$0")"\n')
        for _, cmd in run:
            f.write(' '.join(shlex.quote(c) for c in cmd) + '\n')
    os.chmod(os.path.join(d, 'cmd.sh'), 0o755)


def alone(env, i, flags, steps, plain, failed, label):
    """Program I alone, in c<I> (kept when it fails): step FAILED, and
    the tool's run the build of its output needs.  Returns (message or
    None, number of compilations)."""
    d = os.path.join(env.workdir, f'c{i}')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_batch([make_prog(i, env.seed, flags, 'crash')], d)
    run = [(n, c) for n, c in steps if n == failed
           or (n == 'clang-tool' and failed == 'clang-build')]
    for k, (name, cmd) in enumerate(run):
        why = run_step(name, cmd, d, plain)
        if why:
            what = f'{name} failed ({label}): {why}'
            write_cmd(d, what, run[:k + 1])
            return what, k + 1
    shutil.rmtree(d, ignore_errors=True)
    return None, len(run)


def crash_batch(env, b, idxs):
    """Compile the crash-mode programs IDXS of batch B; returns (number
    of programs, number of compilations, [(index or None, message)]).  A
    failing compilation of several programs is blamed on those that
    fail alone, and the others are compiled again."""
    lang, shown, steps, plain = crash_steps(env, b)
    flags = crash_flags(env.seed, b)[1]
    label = f'{lang}, {" ".join(shown)}'
    d = os.path.join(env.workdir, f'cb{b}')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_batch([make_prog(i, env.seed, flags, 'crash') for i in idxs], d)
    ncomp = 0
    for name, cmd in steps:
        ncomp += 1
        why = run_step(name, cmd, d, plain)
        if why is None:
            continue
        what = f'{name} failed ({label}): {why}'
        bad = []
        for i in idxs:
            msg, n = alone(env, i, flags, steps, plain, name, label)
            ncomp += n
            if msg:
                bad.append((i, msg))
        if not bad:
            write_cmd(d, what, steps)
            return len(idxs), ncomp, [(None, what)]
        shutil.rmtree(d, ignore_errors=True)
        blamed = {i for i, _ in bad}
        rest = [i for i in idxs if i not in blamed]
        _, n, more = crash_batch(env, b, rest) if rest else (0, 0, [])
        return len(idxs), ncomp + n, bad + more
    shutil.rmtree(d, ignore_errors=True)
    return len(idxs), ncomp, []
