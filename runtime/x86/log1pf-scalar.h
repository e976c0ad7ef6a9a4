/* log1pf-scalar.h: nf_log1pf for one float, the f32 core of
   log1p-avx512.c and log1p-avx2.c (the same operations, so the same
   bits) written for one double, with the special inputs and errno of
   glibc's log1pf.  Included by both files, each built with -mfma: the
   fused multiply-adds are __builtin_fma, one vfmadd each.  The
   algorithm and its error bound (0.5 ulp + 2^-20 ulp after the one
   rounding to float) are in log1p-avx512.c's design comment.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_LOG1PF_SCALAR_H
#define NF_LOG1PF_SCALAR_H

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "log1p-consts.h"

/* log1p (X) in double, X a float in (-1, +Inf) other than -0: steps 1-5
   of log1p-avx512.c as its core_f32 does them on each lane.  */
static inline __attribute__ ((always_inline)) double
log1pf_core1 (double x)
{
  double u = x + 1.0;
  int64_t ix;
  memcpy (&ix, &u, sizeof ix);
  int64_t tmp = ix - OFF;
  int64_t k = tmp >> 52; /* Arithmetic, as VPSRAQ.  */
  uint64_t zb = (uint64_t) ix - ((uint64_t) k << 52);
  double z;
  memcpy (&z, &zb, sizeof z);
  unsigned j = (unsigned) ((uint64_t) tmp >> 48) & 15;
  double r = __builtin_fma (z, tab_r[j], -1.0);
  if (__builtin_fabs (x) < 0x1p-7)
    r = x;
  double w = __builtin_fma ((double) k, LN2, tab_t32[j]);
  double r2 = r * r;
  double q = __builtin_fma (F6, r, F5);
  q = __builtin_fma (q, r, F4);
  q = __builtin_fma (q, r, F3);
  q = __builtin_fma (q, r, F2);
  q = __builtin_fma (q, r, F1);
  q = __builtin_fma (q, r, F0);
  return w + __builtin_fma (r2, q, r);
}

/* log1pf of the inputs the core can't do (NaN, x <= -1, +Inf), as the
   vector kernels' fixup gives them (in double, then rounded), setting
   errno as glibc's log1pf: EDOM for x < -1, ERANGE for x = -1.  */
static __attribute__ ((noinline, cold)) float
log1pf_special (float xf)
{
  double x = xf, d = x - x; /* 0, or NaN for NaN and Inf.  */
  double y = x;		    /* +Inf.  */
  if (!(x >= -1.0))
    y = d / d;
  else if (x == -1.0)
    y = -__builtin_inf ();
  if (x < -1.0)
    errno = EDOM;
  else if (x == -1.0)
    errno = ERANGE;
  return (float) y;
}

/* log1pf (X), the body of nf_log1pf_avx2 and nf_log1pf_avx512.  */
static inline __attribute__ ((always_inline)) float
log1pf_scalar (float x)
{
  if (__builtin_expect (!(x > -1.0f && x < __builtin_inff ()), 0))
    return log1pf_special (x);
  float y = (float) log1pf_core1 (x);
  return x == 0 ? x : y; /* -0 stays -0 (the core gives +0).  */
}

#endif /* NF_LOG1PF_SCALAR_H */
