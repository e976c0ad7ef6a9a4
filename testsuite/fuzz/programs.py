"""programs.py: nf-fuzz's programs: which generator makes program I of a
seed, and the two source files of a batch (the kernels, built by each
tool; the drivers and references, built plainly).

Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.
"""

import os
import random

import gen_idioms
import gen_inline
import gen_reduce

# The generators and their weights (gen_idioms' own kinds: one each).
# (an inlining program costs ten of the others to compile)
KINDS = gen_idioms.KINDS + ['reduce'] * 4 + ['multisum'] * 3 + ['inline'] * 3


def make_prog(idx, seed, flags, mode='prog'):
    """Program IDX of SEED, for a batch built with FLAGS; MODE 'crash'
    for the crash mode's programs (another random stream)."""
    r = random.Random(f'{mode}-{seed}-{idx}')
    kind = r.choice(KINDS)
    if kind == 'reduce':
        return gen_reduce.ReduceProg(idx, flags, r)
    if kind == 'multisum':
        return gen_reduce.MultiSumProg(idx, flags, r)
    if kind == 'inline':
        return gen_inline.InlineProg(idx, flags, r, mode != 'crash')
    return gen_idioms.IdiomProg(idx, flags, r, kind)


MAIN_HEAD = r'''/* nf-fuzz drivers and long double references (built without the tools) */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#define NB 160
volatile unsigned long nf_fz_count;
static unsigned long long nf_fz_h (unsigned s, int q)
{
  unsigned long long v = (q + 1) * 6364136223846793005ULL
			 + (s + 1ULL) * 1442695040888963407ULL;
  v ^= v >> 29; v *= 0xbf58476d1ce4e5b9ULL; v ^= v >> 32;
  return v;
}
/* An integer in [LO, HI].  */
static long nf_fz_ival (unsigned s, int q, long lo, long hi)
{
  return lo + (long) (nf_fz_h (s, q) % (unsigned long long) (hi - lo + 1));
}
/* In [-4, 4) times 2^E, every tenth value scaled by 2^-6.  */
static double nf_fz_val (unsigned s, int q, int e)
{
  double v = (double) (nf_fz_h (s, q) >> 11) * 0x1p-53 * 8 - 4;
  if (q % 10 == 3) v *= 0x1p-6;
  return ldexp (v, e);
}
static double nf_fz_wval (unsigned s, int q)
{
  return 0.5 + fabs (nf_fz_val (s + 3, q, 0)) / 4;
}
/* Inputs of exp (x) - 1: tiny, moderate, large, near overflow, and
   (SPECIAL) zeros of both signs, NaN and Inf.  */
static double nf_fz_exp_val (unsigned s, int q, int special, int fl)
{
  unsigned long long h = nf_fz_h (s, q);
  double u = (double) (h >> 11) * 0x1p-53;
  double sg = (h & 1) ? -1 : 1;
  switch (q % 8)
    {
    case 0: return sg * ldexp (1 + u, -(int) (h % 60) - 1);
    case 1: return sg * u * 4;
    case 2: return sg * u * 40;
    case 3: return (fl ? 88.0 : 709.0) + u * 2 - 1;
    case 4: if (special) return (h & 2) ? -0.0 : 0.0; return u;
    case 5: if (special) return (h & 2) ? NAN : sg * INFINITY; return -u;
    case 6: return -(fl ? 100.0 : 800.0) * u;
    default: return sg * ldexp (1 + u, -(int) (h % 20) - 20);
    }
}
/* Inputs of log (1 + x): tiny, near -1, large, and specials.  */
static double nf_fz_log_val (unsigned s, int q, int special, int fl)
{
  unsigned long long h = nf_fz_h (s, q);
  double u = (double) (h >> 11) * 0x1p-53;
  double sg = (h & 1) ? -1 : 1;
  switch (q % 8)
    {
    case 0: return sg * ldexp (1 + u, -(int) (h % 60) - 1);
    case 1: return -1 + ldexp (1 + u, -(int) (h % (fl ? 20 : 50)) - 2);
    case 2: return u * 1e30;
    case 3: return sg * u;
    case 4: if (special) return (h & 2) ? -0.0 : 0.0; return u * 10;
    case 5: if (special) return (h & 2) ? NAN : ((h & 4) ? INFINITY : -1.0);
            return u * 100;
    case 6: if (special) return -2 - u; return u;
    default: return sg * ldexp (1 + u, -(int) (h % 20) - 20);
    }
}
static long nf_fz_seq;
#define P(i, v) printf ("P %d %ld %a\n", (i), nf_fz_seq, (double) (v))
#define R(i, v) printf ("R %d %ld %La\n", (i), nf_fz_seq++, (long double) (v))
'''


# The kernels' unit: the runtime's entry points the models call (as
# neuronfuse.h declares them).
KERN_HEAD = r'''/* nf-fuzz kernels */
#include <math.h>
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void nf_expm1_f32 (float *y, const float *x, size_t n);
void nf_expm1_f64 (double *y, const double *x, size_t n);
void nf_log1p_f32 (float *y, const float *x, size_t n);
void nf_log1p_f64 (double *y, const double *x, size_t n);
void nf_expm1_pz_f32 (float *y, const float *x, size_t n);
void nf_expm1_pz_f64 (double *y, const double *x, size_t n);
void nf_log1p_pz_f32 (float *y, const float *x, size_t n);
void nf_log1p_pz_f64 (double *y, const double *x, size_t n);
void nf_expm1_fast_f32 (float *y, const float *x, size_t n);
void nf_log1p_fast_f32 (float *y, const float *x, size_t n);
void nf_rmsnorm_f32 (float *y, const float *x, const float *w, size_t n,
		     float eps);
void nf_rmsnorm_f64 (double *y, const double *x, const double *w, size_t n,
		     double eps);
float nf_nrm2_f32 (const float *x, size_t n);
double nf_nrm2_f64 (const double *x, size_t n);
void nf_matvec_f32 (float *y, const float *w, const float *x, size_t d,
		    size_t n);
void nf_matvec_f64 (double *y, const double *w, const double *x, size_t d,
		    size_t n);
extern volatile unsigned long nf_fz_count;
#ifdef __cplusplus
}
#endif
'''


def write_batch(progs, d):
    """Write the batch PROGS into directory D: kern.c, model.c (built
    plainly) and main.c."""
    kern = [KERN_HEAD]
    model = [KERN_HEAD.replace('kernels', 'models')]
    main = [MAIN_HEAD]
    line = KERN_HEAD.count('\n') + 1
    for p in progs:
        kern.append(f'/* program {p.idx}: {p.describe()} */\n')
        p.line0 = line + 1          # kern.c's line of p.kern's first
        kern.append(p.kern)
        line += 1 + p.kern.count('\n')
        model.append(p.model_src)
        main.append(p.declarations())
        if p.ref:
            main.append('__attribute__ ((noipa, optimize ("O0"))) static '
                        + p.ref)
        main.append(p.driver)
    main.append('int main (void)\n{\n')
    for p in progs:
        main.append(f'  run{p.idx} ();\n')
    main.append('  return 0;\n}\n')
    with open(os.path.join(d, 'kern.c'), 'w') as f:
        f.write(''.join(kern))
    with open(os.path.join(d, 'main.c'), 'w') as f:
        f.write(''.join(main))
    with open(os.path.join(d, 'model.c'), 'w') as f:
        f.write(''.join(model))
