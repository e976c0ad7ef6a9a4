/* matvec.c: nf_matvec_*, the matrix-vector product y = W x of a row-major
   d x n matrix, and nf_dot_*, the dot product (kind Dot, issue 18).

   What they replace, llama2.c's matmul:

     for (i = 0; i < d; i++)            nf_matvec_f32 (xout, w, x, d, n);
       {
	 float val = 0.0f;
	 for (j = 0; j < n; j++)
	   val += w[i * n + j] * x[j];
	 xout[i] = val;
       }

   Accuracy: the float kernels sum the products in double, where each
   product of two floats (or of a _Float16 and a float) is exact, and
   round once to float: |y[i] - exact| <= 0.5 ulp + about (n / 8 + 8)
   2^-53 sum_j |w x|, where the float loop errs by up to (n - 1) 2^-24
   sum_j |w x|: never less accurate than the loop, whatever the order
   it summed in (-Ofast reassociates it).  The float sum of the loop can
   overflow where the exact one does not; the kernel's cannot.  The f64
   kernel sums by Dot2 (Ogita, Rump and Oishi 2005), as if in twice
   double's precision and rounded once: within 0.5 ulp + 2^-100 or so of
   the exact sum relative to sum_j |w x| (n < 2^40).  NaN anywhere gives
   NaN, Inf as the loop's sum does (Inf - Inf is NaN).

   Speed: the kernel of each instruction set (x86/matvec-tmpl.h)
   converts x to double once per chunk of rows and takes four rows at a
   time; a matrix larger than the caches is read once, at the memory's
   speed.  Rows are split in chunks over the thread pool of rows.c above
   NF_MATVEC_PAR_MIN elements; a row is computed the same way in any
   chunk, so the result does not depend on the number of threads.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

/* From this many elements of W up, the rows are split over threads.  A
   matrix-vector product in cache is about 0.03 ns an element on one
   core (the Zen 5 guest of bench/RESULTS.md), so 2^15 elements
   (stories15M's 288 x 288 is 2.5 times that) are 1 us of work, against
   0.2 to 0.3 us of handoff to a worker still polling from the previous
   call (rows.c's NF_POOL_SPIN_NS): 288 x 288 takes 2.5 us on one thread
   and 1.5 on two, back to back as a forward pass calls it.  A worker
   that slept is not waited for below 2^18 elements (rows.c's
   NF_POOL_WAKE_MIN).  */
#ifndef NF_MATVEC_PAR_MIN
#define NF_MATVEC_PAR_MIN ((size_t) 1 << 15)
#endif

/* One call's arguments and the dispatched kernel, for a chunk of rows.  */
#define NF_MATVEC(sfx, T, WT)                                                  \
  struct matvec_##sfx                                                          \
  {                                                                            \
    T *y;                                                                      \
    const WT *w;                                                               \
    const T *x;                                                                \
    size_t n;                                                                  \
    __typeof__ (NF_KERNEL (matvec_##sfx)) k;                                   \
  };                                                                           \
  static void mv_run_##sfx (const void *ctx, size_t r0, size_t r1)             \
  {                                                                            \
    const struct matvec_##sfx *c = ctx;                                        \
    c->k (c->y, c->w, c->x, r0, r1, c->n);                                     \
  }                                                                            \
  void nf_matvec_##sfx (T *y, const WT *w, const T *x, size_t d, size_t n)     \
  {                                                                            \
    if (d == 0)                                                                \
      return;                                                                  \
    struct matvec_##sfx c = { y, w, x, n, NF_KERNEL (matvec_##sfx) };          \
    nf_rows_split (mv_run_##sfx, &c, d, d *n, NF_MATVEC_PAR_MIN);              \
  }

NF_MATVEC (f32, float, float)
NF_MATVEC (f64, double, double)
#ifdef __FLT16_MAX__
NF_MATVEC (f16, float, _Float16)
#endif

float
nf_dot_f32 (const float *a, const float *b, size_t n)
{
  float y;
  NF_KERNEL (matvec_f32) (&y, a, b, 0, 1, n);
  return y;
}

double
nf_dot_f64 (const double *a, const double *b, size_t n)
{
  double y;
  NF_KERNEL (matvec_f64) (&y, a, b, 0, 1, n);
  return y;
}
