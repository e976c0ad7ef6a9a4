/* calls.c: per-element calls of scalar functions, for bench/kernels.c's
   rows of nf_expf, nf_expm1f and nf_log1pf.  Built three times with fixed flags
   (Makefile.am, calls.h): at -O2 -fno-tree-vectorize each loop calls
   its function once per element, nf_expm1f against the `expf (x) - 1`
   it replaces (and glibc's expm1f, the call the plugin made before);
   at -O3 and -O3 -march=native GCC vectorizes the nf_expm1f and
   nf_log1pf loops through the library's clones (neuronfuse.h declares
   them __simd__), whose time is set against the array kernels'.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "calls.h"
#include "neuronfuse.h"

#include <math.h>

#define CAT3(a, b, c) a##b##c
#define NAME(sfx, f) CAT3 (calls_, sfx, f)
#define CALLS(name, expr)                                                      \
  void NAME (CALLS_SUFFIX, _##name) (float *y, const float *x, int n)          \
  {                                                                            \
    for (int i = 0; i < n; i++)                                                \
      y[i] = (expr);                                                           \
  }

CALLS (nf_expf, nf_expf (x[i]))
CALLS (expf, expf (x[i]))
CALLS (nf_expm1f, nf_expm1f (x[i]))
CALLS (nf_log1pf, nf_log1pf (x[i]))
CALLS (expf_m1, expf (x[i]) - 1.0f)
CALLS (logf_1p, logf (1.0f + x[i]))
CALLS (expm1f, expm1f (x[i]))
CALLS (log1pf, log1pf (x[i]))

/* Issue 19's plain loops (loops19.h), not calls: here for this file's
   -O3 -march=native build, the flag set naive.c is not built with.  */
#define L19(name) NAME (CALLS_SUFFIX, _##name)
#include "loops19.h"
