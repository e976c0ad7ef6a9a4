/* matvec-tmpl.h: y[i] = sum_j w[i * n + j] * x[j] for rows R0 to R1 - 1,
   one instruction set (nf_matvec_{f32,f16,f64}_<isa>), included by
   matvec-<isa>.c after vec-<isa>.h; matvec.c has the design,
   generic/matvec.c the reference.

   f32 and f16 weights (x float): each element converted to double
   (exact) and its product summed by FMA into two vectors of VD_N doubles
   per row: the products are exact in double, so the only errors are the
   double sums and the one rounding to float.  A chunk of rows converts x
   to double once, into a buffer on its stack (MV_XBUF), so that an
   element of W costs one conversion and one FMA: on the Zen 5 of
   bench/RESULTS.md the conversion (vcvtps2pd, one an instruction per
   0.19 ns whatever its width) is the bound, 0.025 ns an element alone
   and 0.028 with its FMA, streaming from L1.  Four rows at a time, so
   that eight independent FMA chains hide the FMA latency (eight rows,
   or the loop unrolled twice, measured no faster), and the four rows'
   lanes are added together in vectors (vd_hsum4_f32): for rows of 288
   the scalar lane sums cost a quarter of the time.  A row is summed the
   same way whether it is one of four or alone, with x from the buffer
   or converted as it goes (the rows left over, a thread's chunk
   starting anywhere): a row's result does not depend on how the rows
   were split over threads.  The tail (n mod 2 VD_N) is summed in scalar
   double after the vectors, then the lanes are added in a fixed
   order.

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

/* A chunk converts x to double once, into a buffer of this many
   doubles on its stack (16 KiB, in L1 beside the rows it streams), when
   it has at least MV_XBUF_ROWS rows and x's vector part fits: then each
   2 VD_N elements of a row cost two conversions and two FMAs, not three
   conversions (x's shared by four rows: 1/4 more).  Longer rows convert
   x as they go: they are read from memory, where it does not matter.  */
#define MV_XBUF 2048
#define MV_XBUF_ROWS 8

/* Elements J to J + VD_N - 1 of x in double: from XD if it holds x,
   else converted from X.  */
#define MV_X(xd, x, j) ((xd) ? vd_load_f64 ((xd) + (j)) : vd_load_f32 ((x) + (j)))

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
  static inline __attribute__ ((always_inline)) void mv_rows4_##sfx (          \
    float *y, const WT *w, const double *xd, const float *x, size_t n)         \
  {                                                                            \
    const WT *w1 = w + n, *w2 = w1 + n, *w3 = w2 + n;                          \
    vd a0 = vd_zero (), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0;           \
    vd a3 = a0, b3 = a0;                                                       \
    size_t j = 0;                                                              \
    for (; j + 2 * VD_N <= n; j += 2 * VD_N)                                   \
      {                                                                        \
	vd xl = MV_X (xd, x, j), xh = MV_X (xd, x, j + VD_N);                  \
	a0 = vd_fma (vd_load_##sfx (w + j), xl, a0);                           \
	b0 = vd_fma (vd_load_##sfx (w + j + VD_N), xh, b0);                    \
	a1 = vd_fma (vd_load_##sfx (w1 + j), xl, a1);                          \
	b1 = vd_fma (vd_load_##sfx (w1 + j + VD_N), xh, b1);                   \
	a2 = vd_fma (vd_load_##sfx (w2 + j), xl, a2);                          \
	b2 = vd_fma (vd_load_##sfx (w2 + j + VD_N), xh, b2);                   \
	a3 = vd_fma (vd_load_##sfx (w3 + j), xl, a3);                          \
	b3 = vd_fma (vd_load_##sfx (w3 + j + VD_N), xh, b3);                   \
      }                                                                        \
    double t0 = 0, t1 = 0, t2 = 0, t3 = 0;                                     \
    if (j < n)                                                                 \
      {                                                                        \
	t0 = mv_tail_##sfx (w, x, j, n);                                       \
	t1 = mv_tail_##sfx (w1, x, j, n);                                      \
	t2 = mv_tail_##sfx (w2, x, j, n);                                      \
	t3 = mv_tail_##sfx (w3, x, j, n);                                      \
      }                                                                        \
    vd_hsum4_f32 (y, vd_add (a0, b0), vd_add (a1, b1), vd_add (a2, b2),       \
		  vd_add (a3, b3), t0, t1, t2, t3);                            \
  }                                                                            \
  static inline __attribute__ ((always_inline)) float mv_row_##sfx (           \
    const WT *w, const double *xd, const float *x, size_t n)                   \
  {                                                                            \
    vd a = vd_zero (), b = a;                                                  \
    size_t j = 0;                                                              \
    for (; j + 2 * VD_N <= n; j += 2 * VD_N)                                   \
      {                                                                        \
	a = vd_fma (vd_load_##sfx (w + j), MV_X (xd, x, j), a);                \
	b = vd_fma (vd_load_##sfx (w + j + VD_N), MV_X (xd, x, j + VD_N), b);  \
      }                                                                        \
    return (float) mv_finish (a, b, mv_tail_##sfx (w, x, j, n));               \
  }                                                                            \
  static inline __attribute__ ((always_inline)) void mv_chunk_##sfx (          \
    float *y, const WT *w, const double *xd, const float *x, size_t r0,        \
    size_t r1, size_t n)                                                       \
  {                                                                            \
    size_t i = r0;                                                             \
    for (; i + 4 <= r1; i += 4)                                                \
      mv_rows4_##sfx (y + i, w + i * n, xd, x, n);                             \
    for (; i < r1; i++)                                                        \
      y[i] = mv_row_##sfx (w + i * n, xd, x, n);                               \
  }                                                                            \
  void NF_SFX (nf_matvec_##sfx) (float *y, const WT *w, const float *x,        \
				 size_t r0, size_t r1, size_t n)               \
  {                                                                            \
    size_t m = n - n % (2 * VD_N);                                             \
    if (r1 - r0 >= MV_XBUF_ROWS && m <= MV_XBUF)                               \
      {                                                                        \
	double xd[MV_XBUF] __attribute__ ((aligned (64)));                     \
	for (size_t j = 0; j < m; j += VD_N)                                   \
	  vd_store_f64 (xd + j, vd_load_f32 (x + j));                          \
	mv_chunk_##sfx (y, w, xd, x, r0, r1, n);                               \
      }                                                                        \
    else                                                                       \
      mv_chunk_##sfx (y, w, NULL, x, r0, r1, n);                               \
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
