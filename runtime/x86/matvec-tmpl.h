/* matvec-tmpl.h: y[i] = sum_j w[i * n + j] * x[j] for rows R0 to R1 - 1,
   one instruction set (nf_matvec_{f32,f16,f64}_<isa>), included by
   matvec-<isa>.c after vec-<isa>.h; matvec.c has the design,
   generic/matvec.c the reference.

   f32 and f16 weights (x float): each element converted to double
   (exact) and its product summed by FMA into two vectors of VD_N doubles
   per row: the products are exact in double, so the only errors are the
   double sums and the one rounding to float.  Four rows at a time, so
   that each 2 VD_N elements of x are converted once for four rows and
   eight independent FMA chains hide the FMA latency.  A row is summed the
   same way whether it is one of four or alone (the rows left over, a
   thread's chunk starting anywhere): a row's result does not depend on
   how the rows were split over threads.  The tail (n mod 2 VD_N) is
   summed in scalar double after the vectors, then the lanes are added
   in a fixed order.

   f64: Ogita, Rump and Oishi's Dot2 per lane (TwoProduct by FMA,
   TwoSum), the lanes and their errors combined in scalar Dot2 at the
   end: as accurate as summing in twice double's precision, rounded once.

   Built with -ffp-contract=off: the error-free transformations need every
   product and sum rounded where it is written.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

#include <math.h>

/* The sum of the lanes of A + B, plus T: pairwise, so that the four rows
   of a block finish in a few add latencies rather than VD_N in turn.  */
static inline double
mv_finish (vd a, vd b, double t)
{
  double l[VD_N];
  vd_lanes (l, vd_add (a, b));
  for (int w = VD_N / 2; w > 0; w /= 2)
    for (int k = 0; k < w; k++)
      l[k] += l[k + w];
  return l[0] + t;
}

/* Rows of weights of type WT (loader vd_load_<sfx>) against float X.  */
#define NF_MV_TMPL(sfx, WT)                                                    \
  static inline double mv_tail_##sfx (const WT *w, const float *x, size_t j,   \
				      size_t n)                                \
  {                                                                            \
    double t = 0;                                                              \
    for (; j < n; j++)                                                         \
      t += (double) w[j] * x[j];                                               \
    return t;                                                                  \
  }                                                                            \
  static void mv_rows4_##sfx (float *y, const WT *w, const float *x, size_t n) \
  {                                                                            \
    const WT *w1 = w + n, *w2 = w1 + n, *w3 = w2 + n;                          \
    vd a0 = vd_zero (), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0;           \
    vd a3 = a0, b3 = a0;                                                       \
    size_t j = 0;                                                              \
    for (; j + 2 * VD_N <= n; j += 2 * VD_N)                                   \
      {                                                                        \
	vd xl = vd_load_f32 (x + j), xh = vd_load_f32 (x + j + VD_N);          \
	a0 = vd_fma (vd_load_##sfx (w + j), xl, a0);                           \
	b0 = vd_fma (vd_load_##sfx (w + j + VD_N), xh, b0);                    \
	a1 = vd_fma (vd_load_##sfx (w1 + j), xl, a1);                          \
	b1 = vd_fma (vd_load_##sfx (w1 + j + VD_N), xh, b1);                   \
	a2 = vd_fma (vd_load_##sfx (w2 + j), xl, a2);                          \
	b2 = vd_fma (vd_load_##sfx (w2 + j + VD_N), xh, b2);                   \
	a3 = vd_fma (vd_load_##sfx (w3 + j), xl, a3);                          \
	b3 = vd_fma (vd_load_##sfx (w3 + j + VD_N), xh, b3);                   \
      }                                                                        \
    y[0] = (float) mv_finish (a0, b0, mv_tail_##sfx (w, x, j, n));             \
    y[1] = (float) mv_finish (a1, b1, mv_tail_##sfx (w1, x, j, n));            \
    y[2] = (float) mv_finish (a2, b2, mv_tail_##sfx (w2, x, j, n));            \
    y[3] = (float) mv_finish (a3, b3, mv_tail_##sfx (w3, x, j, n));            \
  }                                                                            \
  static float mv_row_##sfx (const WT *w, const float *x, size_t n)            \
  {                                                                            \
    vd a = vd_zero (), b = a;                                                  \
    size_t j = 0;                                                              \
    for (; j + 2 * VD_N <= n; j += 2 * VD_N)                                   \
      {                                                                        \
	a = vd_fma (vd_load_##sfx (w + j), vd_load_f32 (x + j), a);            \
	b = vd_fma (vd_load_##sfx (w + j + VD_N), vd_load_f32 (x + j + VD_N),  \
		    b);                                                        \
      }                                                                        \
    return (float) mv_finish (a, b, mv_tail_##sfx (w, x, j, n));               \
  }                                                                            \
  void NF_SFX (nf_matvec_##sfx) (float *y, const WT *w, const float *x,        \
				 size_t r0, size_t r1, size_t n)               \
  {                                                                            \
    size_t i = r0;                                                             \
    for (; i + 4 <= r1; i += 4)                                                \
      mv_rows4_##sfx (y + i, w + i * n, x, n);                                 \
    for (; i < r1; i++)                                                        \
      y[i] = mv_row_##sfx (w + i * n, x, n);                                   \
  }

NF_MV_TMPL (f32, float)
#ifdef __FLT16_MAX__
NF_MV_TMPL (f16, _Float16)
#endif

/* Add P (with error PE) into the scalar Dot2 pair *S, *C.  */
static inline void
mv_dot2_add (double *s, double *c, double p, double pe)
{
  double t = *s + p, z = t - *s;
  *c += ((*s - (t - z)) + (p - z)) + pe;
  *s = t;
}

/* One row of doubles in Dot2, VD_N lanes: S the sums, C their errors.  */
static double
mv_row_f64 (const double *w, const double *x, size_t n)
{
  vd s = vd_zero (), c = s;
  size_t j = 0;
  for (; j + VD_N <= n; j += VD_N)
    {
      vd a = vd_load_f64 (w + j), b = vd_load_f64 (x + j);
      vd p = vd_mul (a, b);
      vd pe = vd_fms (a, b, p);
      vd t = vd_add (s, p);
      vd z = vd_sub (t, s);
      vd se = vd_add (vd_sub (s, vd_sub (t, z)), vd_sub (p, z));
      c = vd_add (c, vd_add (se, pe));
      s = t;
    }
  double sl[VD_N], cl[VD_N], S = 0, C = 0;
  vd_lanes (sl, s);
  vd_lanes (cl, c);
  for (int k = 0; k < VD_N; k++)
    mv_dot2_add (&S, &C, sl[k], cl[k]);
  for (; j < n; j++)
    {
      double p = w[j] * x[j];
      mv_dot2_add (&S, &C, p, fma (w[j], x[j], -p));
    }
  /* An infinite or NaN sum is the loop's (Inf - Inf in the error terms
     would turn an overflow into NaN).  */
  return isfinite (S) ? S + C : S;
}

void
NF_SFX (nf_matvec_f64) (double *y, const double *w, const double *x, size_t r0,
			size_t r1, size_t n)
{
  for (size_t i = r0; i < r1; i++)
    y[i] = mv_row_f64 (w + i * n, x, n);
}
