/* rmsnorm-tmpl.h: RMSNorm rows of one instruction set, included by
   rmsnorm-<isa>.c after vec-<isa>.h.

   y[i] = x[i] * r * w[i], r = 1 / sqrt (sum (x[j]^2) / n + eps), in two
   passes over the row: the sum (sumsq-tmpl.h), then the scaling, which
   reads the row again from L1 or L2 (a row of 4096 floats is 16 KiB).
   The whole sum is taken before the first store, so y == x works.  The
   arithmetic is the generic kernels' (generic/rmsnorm.c), so the results
   and their bounds are theirs:
     f16: r and (x[i] * r) * w[i] in double, rounded once (through
       round-to-odd, vec-<isa>.h), bit for bit what the generic kernel
       gives for the same sum;
     f32: r in double, split into floats rh + rl, x[i] r exact to about
       2^-48 as a float pair, times w[i], rounded once: 0.5 ulp + 2^-21
       ulp for a given r (the double path of f16 where r or eps are out
       of the range that pair needs);
     f64: r in long double, split into r_hi + r_lo; x[i] * w[i] exact as
       a double-double (an fma), times r_hi + r_lo to within about 2^-104,
       rounded once: 0.5 ulp + 2^-50 ulp for a given r.
   STREAM (set by nf_rmsnorm_rows_* for outputs that cannot stay cached)
   writes aligned vectors with non-temporal stores: a cache line that is
   only written is then not read first (the read-for-ownership costs a
   third of a row pass from memory).  The few elements before the first
   aligned vector and after the last go through a small buffer, as do
   tails (any n, any alignment of the pointers).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#include <math.h>
#include <string.h>

/* The scaling pass: Y[i] = SCALE (X[i], W[i]) for I in [0, N) in
   vectors of NV elements of type T, W NULL meaning ONE for W[i]; LOAD,
   STORE and STREAM_STORE move vectors.  The head (up to the first
   aligned Y when streaming, else to the first cache-line-aligned X: the
   pass reads twice as much as it writes) and the tail go through
   buffers.  */
#define NF_SCALE(T, NV, load, store, stream_store, scale)                      \
  do                                                                           \
    {                                                                          \
      size_t i = 0, head;                                                      \
      if (stream && (uintptr_t) y % sizeof (T) != 0)                           \
	stream = 0;                                                            \
      if (stream)                                                              \
	head = nf_align_head (y, (NV) * sizeof (T), sizeof (T), n);            \
      else                                                                     \
	head = nf_align_head (x, 64, sizeof (T), n);                           \
      if (head)                                                                \
	NF_SCALE_PART (T, NV, load, store, scale, 0, head);                    \
      i = head;                                                                \
      if (stream)                                                              \
	for (; i + (NV) <= n; i += (NV))                                       \
	  stream_store (y + i, scale (load (x + i), w ? load (w + i) : one));  \
      else                                                                     \
	for (; i + 2 * (NV) <= n; i += 2 * (NV))                               \
	  {                                                                    \
	    __typeof__ (one) a_                                                \
	      = scale (load (x + i), w ? load (w + i) : one);                  \
	    __typeof__ (one) b_                                                \
	      = scale (load (x + i + (NV)), w ? load (w + i + (NV)) : one);    \
	    store (y + i, a_);                                                 \
	    store (y + i + (NV), b_);                                          \
	  }                                                                    \
      for (; i + (NV) <= n; i += (NV))                                         \
	store (y + i, scale (load (x + i), w ? load (w + i) : one));           \
      if (i < n)                                                               \
	NF_SCALE_PART (T, NV, load, store, scale, i, n - i);                   \
      if (stream)                                                              \
	_mm_sfence ();                                                         \
    }                                                                          \
  while (0)

/* Elements [AT, AT + K) of the scaling through buffers, NV at a time.  */
#define NF_SCALE_PART(T, NV, load, store, scale, at, k)                       \
  for (size_t o_ = 0; o_ < (k); o_ += (NV))                                   \
    {                                                                         \
      T bx[NV] = { 0 }, bw[NV] = { 0 }, by[NV];                               \
      size_t m_ = (k) - o_ < (NV) ? (k) - o_ : (NV);                          \
      memcpy (bx, x + (at) + o_, m_ * sizeof (T));                            \
      if (w)                                                                  \
	memcpy (bw, w + (at) + o_, m_ * sizeof (T));                          \
      store (by, scale (load (bx), w ? load (bw) : one));                     \
      memcpy (y + (at) + o_, by, m_ * sizeof (T));                            \
    }

/* (x * r) * w in double, as the generic kernels multiply.  */
#define NF_SCALE_D(vx, vw) vd_mul (vd_mul ((vx), vr), (vw))

/* The f32 scaling with r = RH + RL (floats): x rh exact as qh + its
   error (an fma), plus x rl, times w, rounded once by the last fma.
   Relative error before that rounding at most about 3 2^-48.  */
#define NF_SCALE_FF(vx, vw)                                                    \
  ({                                                                           \
    vf x_ = (vx), qh_ = vf_mul (x_, vrh);                                      \
    vf ql_ = vf_fma (x_, vrl, vf_fms (x_, vrh, qh_));                          \
    vf_fma (qh_, (vw), vf_mul (ql_, (vw)));                                    \
  })

/* NF_SCALE_FF for RMSNorm's gains: its error terms are +0 for x = -0 or
   w = +-0, and Inf - Inf = NaN for an Inf gain, where the loop's (x r) w
   is a zero of x w's sign or an Inf: zero and NaN lanes take the plainly
   rounded qh w instead (NaN exactly where the loop's is).  */
#define NF_SCALE_FFW(vx, vw)                                                   \
  ({                                                                           \
    vf xw_ = (vx), ww_ = (vw);                                                 \
    vf_fix_to (NF_SCALE_FF (xw_, ww_), vf_mul (vf_mul (xw_, vrh), ww_));       \
  })

/* The scaling of an f32 RMSNorm row whose sum of squares is S:
   Y = X * r * W, r = 1 / sqrt (S / N + EPS), N > 0 (nf_rmsnorm_f32,
   nf_add_rmsnorm_f32).  */
static void
scale_f32 (float *y, const float *x, const float *w, size_t n, double s,
	   float eps, int stream)
{
  double r = 1 / sqrt (s / (double) n + eps);
  /* Where r splits into a float pair of normal floats and |x r| <= sqrt
     (n) (eps >= 0), scale in float: a third of the conversions of the
     double path, which limited the pass.  Else (eps < 0, a tiny or zero
     sum, NaN) the generic kernel's double arithmetic.  */
  if (eps >= 0 && r >= 0x1p-100 && r <= 0x1p100)
    {
      float rh = (float) r, rl = (float) (r - rh);
      vf vrh = vf_set1 (rh), vrl = vf_set1 (rl), one = vf_set1 (1);
      NF_SCALE (float, VF_N, vf_load_f32, vf_store_f32, vf_stream_f32,
		NF_SCALE_FFW);
    }
  else
    {
      vd vr = vd_set1 (r), one = vd_set1 (1);
      NF_SCALE (float, VD_N, vd_load_f32, vd_store_f32, vd_stream_f32,
		NF_SCALE_D);
    }
}

void
NF_SFX (nf_rmsnorm_f32) (float *y, const float *x, const float *w, size_t n,
			 float eps, int stream)
{
  if (n == 0)
    return;
  scale_f32 (y, x, w, n, NF_SFX (nf_sumsq_f32) (x, n), eps, stream);
}

#ifdef __FLT16_MAX__
void
NF_SFX (nf_rmsnorm_f16) (_Float16 *y, const _Float16 *x, const _Float16 *w,
			 size_t n, float eps, int stream)
{
  if (n == 0)
    return;
  double r = 1 / sqrt (NF_SFX (nf_sumsq_f16) (x, n) / (double) n + eps);
  vd vr = vd_set1 (r), one = vd_set1 (1);
  NF_SCALE (_Float16, VD_N, vd_load_f16, vd_store_f16, vd_stream_f16,
	    NF_SCALE_D);
}
#endif

/* The scaling of an f64 RMSNorm row whose sum of squares is S (long
   double): Y = X * r * W, r = 1 / sqrt (S / N + EPS), N > 0
   (nf_rmsnorm_f64, nf_add_rmsnorm_f64).  */
static void
scale_f64 (double *y, const double *x, const double *w, size_t n,
	   long double s, double eps, int stream)
{
  long double r = 1 / sqrtl (s / (long double) n + eps);
  double rh = (double) r, rl = (double) (r - rh);
  vd vrh = vd_set1 (rh), vrl = vd_set1 (rl), one = vd_set1 (1);
  /* x * w = ph + pl exactly; then (ph + pl) (rh + rl) to about 2^-104,
     rounded once.  W is 1 without a weight: ph = x, pl = 0.  The error
     terms are +0 for x = -0 or w = +-0 and NaN for an Inf gain (x Inf -
     Inf): zero and NaN lanes take the plainly rounded ph rh, a zero of
     the loop's sign, NaN exactly where the loop's is.  */
#define NF_SCALE_DD(vx, vw)                                                    \
  ({                                                                           \
    vd ph_ = vd_mul ((vx), (vw)), pl_ = vd_fms ((vx), (vw), ph_);              \
    vd_fix_to (vd_fma (ph_, vrh, vd_fma (ph_, vrl, vd_mul (pl_, vrh))),        \
	       vd_mul (ph_, vrh));                                             \
  })
  NF_SCALE (double, VD_N, vd_load_f64, vd_store_f64, vd_stream_f64,
	    NF_SCALE_DD);
#undef NF_SCALE_DD
}

void
NF_SFX (nf_rmsnorm_f64) (double *y, const double *x, const double *w, size_t n,
			 double eps, int stream)
{
  if (n == 0)
    return;
  scale_f64 (y, x, w, n, NF_SFX (nf_sumsq_f64) (x, n), eps, stream);
}

/* Gemma's RMSNorm (issue 19): y[i] = x[i] * r * (1 + w[i]), the scaling
   with the gain offset by one.  f32: in double, as the generic kernel
   ((x r) (1 + w), 1 + w exact there unless |w| < 2^-29), rounded once:
   bit for bit the generic kernel's for the same sum, within 0.5 ulp +
   2^-28 ulp for a given r.  The float pair of nf_rmsnorm_f32 would need
   1 + w as a float pair too (TwoSum: six more operations a vector, and
   an Inf gain turned into NaN), which costs what the conversions of the
   double path save.  */
#define NF_SCALE_D1P(vx, vw) vd_mul (vd_mul ((vx), vr), vd_add (one, (vw)))

void
NF_SFX (nf_rmsnorm1p_f32) (float *y, const float *x, const float *w,
			   size_t n, float eps)
{
  int stream = 0;
  if (n == 0)
    return;
  double r = 1 / sqrt (NF_SFX (nf_sumsq_f32) (x, n) / (double) n + eps);
  vd vr = vd_set1 (r), one = vd_set1 (1);
  NF_SCALE (float, VD_N, vd_load_f32, vd_store_f32, vd_stream_f32,
	    NF_SCALE_D1P);
}

/* f64: r in long double split into rh + rl; 1 + w exact as gh + gl
   (TwoSum); x r as qh + ql (an fma for x rh's error, plus x rl), then
   (qh + ql) (gh + gl) to about 2^-104 and rounded once by the last fma:
   0.5 ulp + 2^-50 ulp for a given r.  x r comes first, as in the loop,
   so that nothing overflows unless the result does.  An Inf gain (gh
   Inf, gl Inf - Inf = NaN), or an x r or a result that overflows, turns
   the error terms into NaN where the loop gives an Inf, and a zero
   result comes out +0 where the loop's is -0 (x = -0, or r = 0 for an
   Inf in the row): a NaN or zero lane takes the rounded (x rh) gh
   instead, which is NaN exactly where the loop's result is (a NaN
   operand, 0 Inf, Inf - Inf) and a zero of the loop's sign where it is
   zero.  */
void
NF_SFX (nf_rmsnorm1p_f64) (double *y, const double *x, const double *w,
			   size_t n, double eps)
{
  int stream = 0;
  if (n == 0)
    return;
  long double r
    = 1 / sqrtl (NF_SFX (nf_sumsq_f64) (x, n) / (long double) n + eps);
  double rh = (double) r, rl = (double) (r - rh);
  vd vrh = vd_set1 (rh), vrl = vd_set1 (rl), one = vd_set1 (1);
#define NF_SCALE_DD1P(vx, vw)                                                  \
  ({                                                                           \
    vd x_ = (vx), w_ = (vw), gh_ = vd_add (one, w_), z_ = vd_sub (gh_, one);   \
    vd gl_ = vd_add (vd_sub (one, vd_sub (gh_, z_)), vd_sub (w_, z_));         \
    vd qh_ = vd_mul (x_, vrh), ql_ = vd_fma (x_, vrl, vd_fms (x_, vrh, qh_));  \
    vd y_ = vd_fma (qh_, gh_, vd_fma (qh_, gl_, vd_mul (ql_, gh_)));           \
    vd_fix_to (y_, vd_mul (qh_, gh_));                                         \
  })
  NF_SCALE (double, VD_N, vd_load_f64, vd_store_f64, vd_stream_f64,
	    NF_SCALE_DD1P);
#undef NF_SCALE_DD1P
}

/* L2 normalisation with a floor (issue 19): y[i] = x[i] / d, d = fmax
   (||x||, eps) (eps for a NaN norm).  The norm and d in the wider type
   as the generic kernels take them; then, as nf_rmsnorm_*'s scaling
   with no weight, y[i] = x[i] r with r = 1 / d (no division per
   element): f32 x (rh + rl) as a float pair rounded once, within 0.5 ulp
   + 2^-21 ulp of x / d; f64 x (rh + rl) rounded once by an fma, within
   0.5 ulp + 2^-50 ulp for a given r (r itself, in long double, within
   2^-64: 0.5 ulp + 2^-10 ulp of x / d in all).  Where that pair would not hold, the quotient of
   the generic kernel's arithmetic: f32 in double, r out of [2^-100,
   2^100] (d = 0: r = Inf, x r = x / 0; an Inf norm: r = 0) or a NaN norm
   (d = eps < ||x||: x r may overflow float, the pair's error term would
   be NaN); f64 r out of [2^-960, 2^960] or a NaN norm: x[i] / d in long
   double, element by element (rare rows: zeros, Inf, NaN, a tiny or huge
   eps).  */
void
NF_SFX (nf_l2normalize_f32) (float *y, const float *x, size_t n, float eps)
{
  int stream = 0;
  const float *w = NULL;
  if (n == 0)
    return;
  double norm = sqrt (NF_SFX (nf_sumsq_f32) (x, n));
  double r = 1 / fmax (norm, eps);
  if (!isnan (norm) && r >= 0x1p-100 && r <= 0x1p100)
    {
      float rh = (float) r, rl = (float) (r - rh);
      vf vrh = vf_set1 (rh), vrl = vf_set1 (rl), one = vf_set1 (1);
      /* NF_SCALE_FF's error term is +0 for x = +-0: such lanes take x
	 rh, the loop's signed zero.  */
#define NF_SCALE_FF0(vx, vw)                                                   \
  ({                                                                           \
    vf x0_ = (vx);                                                             \
    vf_fix_to (NF_SCALE_FF (x0_, vw), vf_mul (x0_, vrh));                      \
  })
      NF_SCALE (float, VF_N, vf_load_f32, vf_store_f32, vf_stream_f32,
		NF_SCALE_FF0);
#undef NF_SCALE_FF0
    }
  else
    {
      vd vr = vd_set1 (r), one = vd_set1 (1);
      NF_SCALE (float, VD_N, vd_load_f32, vd_store_f32, vd_stream_f32,
		NF_SCALE_D);
    }
}

void
NF_SFX (nf_l2normalize_f64) (double *y, const double *x, size_t n,
			     double eps)
{
  int stream = 0;
  const double *w = NULL;
  if (n == 0)
    return;
  long double norm = sqrtl (NF_SFX (nf_sumsq_f64) (x, n));
  long double d = fmaxl (norm, eps), r = 1 / d;
  if (isnan (norm) || !(r >= 0x1p-960L && r <= 0x1p960L))
    {
      for (size_t i = 0; i < n; i++)
	y[i] = (double) (x[i] / d);
      return;
    }
  double rh = (double) r, rl = (double) (r - rh);
  vd vrh = vd_set1 (rh), vrl = vd_set1 (rl), one = vd_set1 (1);
  /* W is NULL: x (rh + rl), the pair's product rounded once; x = -0
     gives x rh = -0 (the fma's -0 + +0 would be +0).  */
#define NF_SCALE_L2(vx, vw)                                                    \
  ({                                                                           \
    (void) (vw);                                                               \
    vd x_ = (vx);                                                              \
    vd_fix_to (vd_fma (x_, vrh, vd_mul (x_, vrl)), vd_mul (x_, vrh));          \
  })
  NF_SCALE (double, VD_N, vd_load_f64, vd_store_f64, vd_stream_f64,
	    NF_SCALE_L2);
#undef NF_SCALE_L2
}

/* The residual add, then RMSNorm (vLLM's fused_add_rms_norm): X += R,
   each sum rounded once to the data's type and stored, then Y = the
   RMSNorm of the new X.  Two passes over the row: the first adds,
   stores X and sums the squares from the registers (nf_add_sumsq_*,
   sumsq-tmpl.h); the second, the scaling of nf_rmsnorm_*, reads the new
   X again (from L1 or L2 for rows of a few thousand) with W.  The sum is
   the one nf_sumsq_* takes of the new X, so Y is bit for bit what
   nf_rmsnorm_* gives for it, with its bounds and its special values.
   Y == X works (the sum is complete before Y is written).  */
void
NF_SFX (nf_add_rmsnorm_f32) (float *y, float *x, const float *r,
			     const float *w, size_t n, float eps)
{
  if (n == 0)
    return;
  scale_f32 (y, x, w, n, NF_SFX (nf_add_sumsq_f32) (x, r, n), eps, 0);
}

void
NF_SFX (nf_add_rmsnorm_f64) (double *y, double *x, const double *r,
			     const double *w, size_t n, double eps)
{
  if (n == 0)
    return;
  scale_f64 (y, x, w, n, NF_SFX (nf_add_sumsq_f64) (x, r, n), eps, 0);
}
