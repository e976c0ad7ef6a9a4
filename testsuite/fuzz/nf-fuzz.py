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
       nf-fuzz.py --limitations ... (fuzz_common.py's table, and exit)
Environment of make check-fuzz: FUZZ_COUNT, FUZZ_SEED, FUZZ_ONLY.

Modules (beside this script): fuzz_common.py (flags, types, the table of
known limitations, the programs' common helpers), gen_idioms.py (the
generator), programs.py (which generator makes program I; a batch's
sources), fuzz_check.py (results and reports judged), fuzz_run.py (a
batch built, run and judged).
"""

import argparse
import concurrent.futures
import os
import shutil
import sys
import time

# The modules beside this script: no bytecode cache in the source tree
# (a distcheck's is read-only, a checkout's would show as untracked).
sys.dont_write_bytecode = True

from fuzz_common import BATCH, KNOWN_LIMITATIONS
from fuzz_run import Env, run_batch


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

