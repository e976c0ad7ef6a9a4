"""fuzz_run.py: nf-fuzz's run mode: a batch of programs built plainly,
with the plugin and through neuronfuse-clang, run, and judged.

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import os
import shutil
import subprocess

from fuzz_check import CallGraph, Report, failure_summary, parse_run
from fuzz_common import batch_flags
from gen_inline import DOT_TOOLS
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


def build_steps(env, flags):
    """The compilations of a batch, in order: (name, command).  Those
    with the tools come first: when one fails, its programs are found
    and dropped before anything else is built."""
    # (-fno-ipa-icf: the programs of a batch share a unit only to save
    # compilations; GCC must not merge two identical helpers of two.
    # -ffp-contract=off: the model compares the loops neither tool fuses
    # bit for bit, and GCC's vectorizer picks their vector size by the
    # code around them; an in-order sum vectorized at one width and not
    # at another is contracted into FMAs in one build only.  Measured on
    # a Zen 5 guest at -O3 -march=native: mm's row loop, 5 elements, in
    # 64-byte vectors (its scalar tail contracted) in the tools' build,
    # in 16-byte ones (products rounded apart) in the model's; the same
    # with the plugin of the last landing.  Without contraction both
    # round the same products in the same order.  The fused regions are
    # the library's, which the flag does not touch.)
    base = [env.cc] + flags + ['-w', '-fno-strict-aliasing', '-fno-ipa-icf',
                               '-ffp-contract=off']
    steps = [('plugin', base + [f'-fplugin={env.plugin}',
                                '-fplugin-arg-neuronfuse-report=rp.json',
                                '-fcallgraph-info',
                                '-c', 'kern.c', '-o', 'kf.o'])]
    if env.clang:
        steps.append(('clang-tool', [env.clang, '--report=rc.json', '-o',
                                     'kc.c', 'kern.c', '--', '-w'] + flags))
        steps.append(('clang-build', base + [f'-I{env.rtinc}', '-c', 'kc.c',
                                             '-o', 'kc.o']))
    steps += [
        ('plain', base + ['-c', 'kern.c', '-o', 'kp.o']),
        ('model', base + ['-c', 'model.c', '-o', 'km.o']),
        # (the model of the builds whose tool fuses the matmul)
        ('model-dot', base + ['-DNF_FZ_DOT', '-c', 'model.c', '-o',
                              'kmd.o']),
        ('main', base[:1] + ['-O1', '-w', '-c', 'main.c', '-o', 'main.o']),
    ]
    return steps


def culprits(env, flags, idxs, failed):
    """The programs of IDXS whose own compilation fails at step FAILED:
    each is written alone into p<I> (kept there when it fails) and that
    step run (and, when it fails, the plain compilation: if that fails
    too, the generator is at fault).  Returns [(index, message)]."""
    bad = []
    steps = dict(build_steps(env, flags))
    for i in idxs:
        d = os.path.join(env.workdir, f'p{i}')
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        write_batch([make_prog(i, env.seed, flags)], d)
        msg = None
        # (the failed step, after the tool's run the build of its
        # output needs)
        for name in (['clang-tool'] if failed == 'clang-build' else []) \
                + [failed]:
            rc, out = sh(steps[name], d)
            if rc != 0:
                msg = (f'{name} failed ({" ".join(flags)}): '
                       + failure_summary(out))
                if name != 'plain' and sh(steps['plain'], d)[0] != 0:
                    msg += " (the plain compilation fails too: the " \
                           "generator's fault)"
                break
        if msg:
            bad.append((i, msg))
        else:
            shutil.rmtree(d, ignore_errors=True)
    return bad


def run_batch(env, b, idxs):
    """Build and run the programs IDXS (one batch) in their own directory;
    returns (programs, list of (index or None, message)).  A compilation
    of the batch that fails is blamed on the programs that fail alone,
    and the others are built again without them."""
    flags = batch_flags(env.seed, b)
    progs = [make_prog(i, env.seed, flags) for i in idxs]
    d = os.path.join(env.workdir, f'b{b}' if len(idxs) > 1 else f'p{idxs[0]}')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_batch(progs, d)
    cc = env.cc
    fails = []
    link = [f'-L{env.rtlib}', f'-Wl,-rpath,{env.rtlib}', '-lneuronfuse',
            '-lm']
    for name, cmd in build_steps(env, flags):
        rc, out = sh(cmd, d)
        if rc == 0:
            continue
        bad = culprits(env, flags, idxs, name) \
            if len(idxs) > 1 and name != 'main' else []
        if not bad:
            return progs, [(None, f'{name} failed ({" ".join(flags)}): '
                            + failure_summary(out))]
        blamed = {i for i, _ in bad}
        rest = [i for i in idxs if i not in blamed]
        done, more = run_batch(env, b, rest) if rest else ([], [])
        return ([p for p in progs if p.idx in blamed] + done,
                bad + more)
    builds = [('plain', 'kp.o'), ('plugin', 'kf.o')]
    if env.clang:
        builds.append(('clang', 'kc.o'))
    outs = {}
    for name, obj in builds:
        model = 'kmd.o' if name in DOT_TOOLS else 'km.o'
        rc, out = sh([cc] + flags + ['main.o', obj, model, '-o', name]
                     + link, d)
        if rc != 0:
            return progs, [(None, f'link of {name} failed: '
                            + ' '.join(out.splitlines()[:3]))]
        rc, out = sh([f'./{name}'], d, timeout=20)
        if rc != 0:
            return progs, [(None, f'{name} build exits {rc}')]
        outs[name] = parse_run(out)
    reps = {'plugin': Report(os.path.join(d, 'rp.json'))}
    if env.clang:
        reps['clang'] = Report(os.path.join(d, 'rc.json'))
    # (which calls GCC inlined: the plugin's copies of a helper)
    ctx = {'plugin': {'callgraph': CallGraph(os.path.join(d, 'kf.ci'))},
           'clang': {}}
    pv = outs['plain'][0]
    for p in progs:
        p.verdicts = {}
        for tool in reps:
            fused, msg = p.check_verdict(tool, reps[tool], ctx[tool])
            p.verdicts[tool] = fused
            if msg:
                fails.append((p.idx, msg))
            # (the model's results as the tool's own build ran them: it
            # links the model of what the tool fuses)
            tv, trefs = outs[tool]
            for m in p.compare(tool, tv.get(p.idx, []), pv.get(p.idx, []),
                               trefs.get(p.idx, {}), fused):
                fails.append((p.idx, m))
    return progs, fails
