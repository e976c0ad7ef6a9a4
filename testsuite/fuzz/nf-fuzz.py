#!/usr/bin/env python3
"""nf-fuzz.py: neuronfuse's idiom fuzzer (make check-fuzz).

Generates random small C programs around the four idioms the tools
recognise -- RMSNorm, the L2 norm (MulRedSqrt), exp(x) - 1 (Expm1) and
log(1 + x) (Log1p) -- each with random perturbations, some of which keep
the idiom (operand order, association, casts, eps forms, offsets, the
element type, overlapping calls) and some of which do not (a square of two
arrays, a weight indexed differently, a divisor other than the trip count,
eps outside the root, a bias, a side effect, a stride, ...); and programs
of the shapes real code gives them (issue 15): sums of squares of
computed values, several sums in one loop, helpers inlined into a
llama2.c-like forward.  Every program carries its *expected verdict*:
what the tools must fuse it into, or nothing.

The run mode builds programs in batches (one translation unit of
kernels, k<I> and their helpers, and one of drivers and long double
references, compiled plainly), three ways: plain gcc, gcc with the plugin
(and its report), and neuronfuse-clang's rewritten source built with
plain gcc and linked with libneuronfuse.  All must compile and run; for
every program

  * the report's regions of its functions must be exactly the expected
    ones (or nothing), for the plugin and for neuronfuse-clang;
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
    that (the plain error is then infinite);
  * a program of inlined helpers must give its model's results bit for
    bit (gen_inline.py).

The crash mode (fuzz_crash.py) only compiles, at random flags, as C and
C++: nothing may crash.

Usage: nf-fuzz.py --plugin SO --runtime-inc DIR --runtime-lib DIR
                  [--clang EXE] [--count N] [--crash-count N] [--seed S]
                  [--only I|cI] [--jobs J] [--workdir DIR] [--cc CC]
                  [--cxx CXX] [--keep]
       nf-fuzz.py --limitations ... (fuzz_common.py's table, and exit)
Environment of make check-fuzz: FUZZ_COUNT, FUZZ_CRASH_COUNT, FUZZ_SEED,
FUZZ_ONLY, FUZZ_JOBS.

Modules (beside this script): fuzz_common.py (flags, types, the table of
known limitations, the programs' common helpers), gen_idioms.py (the
four idioms), gen_reduce.py (sums of computed values, several sums),
gen_inline.py (helpers inlined into a forward), programs.py (which
generator makes program I; a batch's sources), fuzz_check.py (results,
reports and call graphs read and judged), fuzz_run.py (the run mode: a
batch built, run and judged), fuzz_crash.py (the crash mode).
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import sys
import time

# The modules beside this script: no bytecode cache in the source tree
# (a distcheck's is read-only, a checkout's would show as untracked).
sys.dont_write_bytecode = True

from fuzz_common import BATCH, KNOWN_LIMITATIONS  # noqa: E402
from fuzz_crash import crash_batch  # noqa: E402
from fuzz_run import Env, run_batch  # noqa: E402


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--runtime-inc', required=True)
    ap.add_argument('--runtime-lib', required=True)
    ap.add_argument('--clang', default='')
    ap.add_argument('--cc', default=os.environ.get('CC', 'gcc'))
    ap.add_argument('--cxx', default=os.environ.get('CXX', 'g++'))
    ap.add_argument('--count', type=int, default=2000,
                    help='programs built and run')
    ap.add_argument('--crash-count', type=int, default=0,
                    help='programs only compiled (the crash mode)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--only', default=None,
                    help='program I (run mode) or cI (crash mode) alone')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--workdir', default='fuzz-work')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--limitations', action='store_true',
                    help='print the table of known limitations and exit')
    return ap.parse_args()


def batches(count):
    return [(b, list(range(b * BATCH, min(count, (b + 1) * BATCH))))
            for b in range((count + BATCH - 1) // BATCH)]


def run_job(env, b, idxs):
    """Run-mode batch B: (programs, [(index, message)]), each program
    alone when the batch as a whole did not build or run."""
    progs, fails = run_batch(env, b, idxs)
    if any(i is None for i, _ in fails) and len(idxs) > 1:
        progs, fails = [], []
        for i in idxs:
            pp, ff = run_batch(env, b, [i])
            progs += pp
            fails += [(i if j is None else j, m) for j, m in ff]
    elif len(idxs) == 1:
        fails = [(idxs[0] if j is None else j, m) for j, m in fails]
    return progs, fails


def keep(env, seed, src, name):
    """Copy the directory SRC of a failure into failures/NAME."""
    if os.path.isdir(src):
        dst = os.path.join(env.workdir, 'failures', f'seed{seed}-{name}')
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)


def main():
    a = parse_args()
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
    env.cxx = a.cxx
    env.seed = a.seed
    env.workdir = os.path.abspath(a.workdir)
    os.makedirs(env.workdir, exist_ok=True)
    if not env.clang:
        print('check-fuzz: neuronfuse-clang not built: plugin only')
    start = time.time()
    if a.only is None:
        run_jobs, crash_jobs = batches(a.count), batches(a.crash_count)
    elif a.only.startswith('c'):
        i = int(a.only[1:])
        run_jobs, crash_jobs = [], [(i // BATCH, [i])]
    else:
        i = int(a.only)
        run_jobs, crash_jobs = [(i // BATCH, [i])], []

    def timed(fn, *args):
        t = time.time()
        return fn(*args), time.time() - t
    results, crashes = [], []
    spent = {'run': 0.0, 'crash': 0.0}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(timed, run_job, env, b, idxs): ('run', b)
                for b, idxs in run_jobs}
        futs.update({ex.submit(timed, crash_batch, env, b, idxs):
                     ('crash', b) for b, idxs in crash_jobs})
        for fu in concurrent.futures.as_completed(futs):
            mode, b = futs[fu]
            res, t = fu.result()
            spent[mode] += t
            (results if mode == 'run' else crashes).append((b, res))

    # The run mode.
    n = fused = diffs = 0
    bad = set()
    for b, (progs, fails) in sorted(results, key=lambda r: r[0]):
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
        # the failing program: its own directory, else its batch's
        src = os.path.join(env.workdir, f'p{i}')
        if not os.path.isdir(src):
            src = os.path.join(env.workdir, f'b{i // BATCH}')
        keep(env, a.seed, src, f'prog{i}')

    # The crash mode.
    cn = ccomp = cfail = 0
    kinds = {}
    for b, (np, nc, fails) in sorted(crashes, key=lambda r: r[0]):
        cn += np
        ccomp += nc
        for i, m in fails:
            cfail += 1
            where = f'program c{i}' if i is not None else f'batch cb{b}'
            print(f'CRASH {where}: {m}; reproduce: FUZZ_SEED={a.seed} '
                  f'FUZZ_ONLY=c{i if i is not None else b * BATCH} '
                  f'make check-fuzz')
            keep(env, a.seed, os.path.join(
                env.workdir, f'c{i}' if i is not None else f'cb{b}'),
                f'c{i}' if i is not None else f'cb{b}')
            sig = re.sub(r' \((c|c\+\+), [^)]*\)', '', m, count=1)
            kinds.setdefault(sig, []).append(f'c{i}' if i is not None
                                             else f'cb{b}')

    if not a.keep and a.only is None:
        for b, _ in run_jobs:
            shutil.rmtree(os.path.join(env.workdir, f'b{b}'),
                          ignore_errors=True)
    el = time.time() - start
    print(f'check-fuzz: seed {a.seed}, {el:.0f} s, {a.jobs} jobs (run mode '
          f'{spent["run"]:.0f} s, crash mode {spent["crash"]:.0f} s of '
          f'the jobs\' time)')
    if crash_jobs:
        for sig, who in sorted(kinds.items(), key=lambda k: -len(k[1])):
            print(f'check-fuzz-crash: {len(who)} x {sig} (first {who[0]})')
        print(f'check-fuzz-crash: {cn} programs, {ccomp} compilations, '
              f'{cfail} failures')
    if run_jobs:
        print(f'check-fuzz: {n} programs, {fused} fused, {n - fused} not '
              f'fused, {diffs} differences')
    return 1 if diffs or cfail else 0


if __name__ == '__main__':
    sys.exit(main())
