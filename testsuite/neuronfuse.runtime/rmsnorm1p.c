/* Area: runtime, nf_rmsnorm1p_f32/f64 (Gemma's gain x r (1 + w)) and
   nf_l2normalize_f32/f64 (x / fmax (||x||, eps)).
   Purpose: each output against MPFR (512 bits, rounded once to long
   double) for n in {1, 2, 3, 7, 15, 16, 17, 31, 100, 1000, 4099}, x and
   w at different misalignments, in place (y == x) and not: f32 within
   0.5 ulp + 2^-10, f64 within 0.5 ulp + 2^-8, the largest error of a
   row no worse than the plain loop's in the data type; against the
   generic kernels' arithmetic (a model here): its bits on the generic
   tier, within 1 ulp on the vector ones; the element after the row is
   untouched.  n = 0 writes nothing.  Rows where the plain float or
   double loop overflows (1e30, 1e200) or underflows (1e-30, 1e-200) come
   out right.  Special values as the plain loop gives them: a NaN makes
   the row NaN (rmsnorm1p) or takes the floor (l2normalize: x / eps, NaN
   stays NaN), an Inf element makes r = 0 (NaN for it, zeros else) or the
   norm Inf (x / Inf: signed zeros, NaN for it), an Inf gain gives Inf,
   a gain of -1 zero, all zeros with eps = 0 NaN.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 4099

static uint64_t seed = 0xbb67ae8584caa73bu;

/* A random double in +-[0.5, 1) 2^[-4, 4]; W: in (-1, 1).  */
static double
rnd (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  double m = (double) (seed >> 11) * 0x1p-53;
  return ldexp ((0.5 + m / 2) * ((seed >> 3) & 1 ? -1 : 1),
		(int) (seed % 9) - 4);
}

static double
rndw (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double) (seed >> 11) * 0x1p-52 - 1;
}

static long double xl[MAXN], wl[MAXN], ref[MAXN];

/* REF[i] for XL, WL: KIND 0 XL[i] / sqrt (sum (XL^2) / N + EPS) * (1 +
   WL[i]), KIND 1 XL[i] / max (sqrt (sum (XL^2)), EPS); in 512-bit MPFR
   rounded once to long double.  */
static void
reference (size_t n, int kind, long double eps)
{
  mpfr_t s, t, r;
  mpfr_inits2 (512, s, t, r, (mpfr_ptr) 0);
  mpfr_set_zero (s, 1);
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_ld (t, xl[i], MPFR_RNDN);
      mpfr_sqr (t, t, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
    }
  mpfr_set_ld (t, eps, MPFR_RNDN);
  if (kind == 0)
    {
      mpfr_div_ui (s, s, n, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
      mpfr_rec_sqrt (r, s, MPFR_RNDN);
    }
  else
    {
      mpfr_sqrt (s, s, MPFR_RNDN);
      mpfr_max (s, s, t, MPFR_RNDN);
      mpfr_ui_div (r, 1, s, MPFR_RNDN);
    }
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_ld (t, xl[i], MPFR_RNDN);
      mpfr_mul (t, t, r, MPFR_RNDN);
      if (kind == 0)
	{
	  mpfr_set_ld (s, wl[i], MPFR_RNDN);
	  mpfr_add_ui (s, s, 1, MPFR_RNDN);
	  mpfr_mul (t, t, s, MPFR_RNDN);
	}
      ref[i] = mpfr_get_ld (t, MPFR_RNDN);
    }
  mpfr_clears (s, t, r, (mpfr_ptr) 0);
}

#ifdef NF_ISA_generic
#define NF_ISA_GENERIC 1
#else
#define NF_ISA_GENERIC 0
#endif

static long double worst[4], worst_plain[4];

/* RUN_T (KIND, N, OX, OW, INPLACE, EPS): the row already in X_T + OX
   and W_T + OW; run the kernel (KIND 0 rmsnorm1p, 1 l2normalize), the
   plain loop and the model, check them against the reference.  WT
   (wider type) and SQ (sqrt in it) are the model's arithmetic, the
   generic kernel's.  */
#define DEFINE_RUN(T, SFX, ULPS, BOUND, WT, SQ, FMAX, SQT, FMAXW, SUMW)       \
  static T x_##SFX[MAXN + 8], w_##SFX[MAXN + 8], y_##SFX[MAXN + 8],           \
    yp_##SFX[MAXN], ym_##SFX[MAXN];                                           \
  static void run_##SFX (int kind, size_t n, size_t ox, size_t ow,            \
			 int inplace, T eps)                                  \
  {                                                                           \
    const T *x = x_##SFX + ox, *w = w_##SFX + ow;                             \
    for (size_t i = 0; i < n; i++)                                            \
      xl[i] = x[i], wl[i] = w[i];                                             \
    reference (n, kind, eps);                                                 \
    /* The plain loop in T and the model in WT.  */                           \
    T ss = 0;                                                                 \
    WT sm = SUMW (x, n);                                                      \
    for (size_t i = 0; i < n; i++)                                            \
      ss += x[i] * x[i];                                                      \
    T r = kind ? FMAX (SQT (ss), eps) : (T) 1 / SQT (ss / (T) n + eps);       \
    WT rm = kind ? FMAXW (SQ (sm), (WT) eps)                                  \
		 : 1 / SQ (sm / (WT) n + eps);                                \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	yp_##SFX[i] = kind ? x[i] / r : x[i] * r * (1 + w[i]);                \
	ym_##SFX[i] = (T) (kind ? x[i] / rm : x[i] * rm * (1 + (WT) w[i]));   \
      }                                                                       \
    T *y = y_##SFX + ox;                                                      \
    if (inplace)                                                              \
      y = x_##SFX + ox;                                                       \
    else                                                                      \
      y[n] = (T) 42;                                                          \
    if (kind)                                                                 \
      nf_l2normalize_##SFX (y, x, n, eps);                                    \
    else                                                                      \
      nf_rmsnorm1p_##SFX (y, x, w, n, eps);                                   \
    if (!inplace)                                                             \
      CHECK (y[n] == (T) 42);                                                 \
    long double ek = 0, ep = 0;                                               \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	long double rf = isinf ((T) ref[i]) ? (long double) (T) ref[i]        \
					    : ref[i];                         \
	long double e = ULPS (y[i], rf);                                      \
	if (!(e <= (BOUND)))                                                  \
	  fprintf (stderr, #SFX " %d n=%zu i=%zu x=%La: %La want %La, %Lg "   \
		   "ulp\n", kind, n, i, xl[i], (long double) y[i], rf, e);    \
	CHECK (e <= (BOUND));                                                 \
	if (NF_ISA_GENERIC)                                                   \
	  CHECK (memcmp (&y[i], &ym_##SFX[i], sizeof (T)) == 0                \
		 || (isnan (y[i]) && isnan (ym_##SFX[i])));                   \
	else                                                                  \
	  CHECK (ULPS (y[i], ym_##SFX[i]) <= 1);                              \
	ek = fmaxl (ek, e);                                                   \
	ep = fmaxl (ep, ULPS (yp_##SFX[i], rf));                              \
      }                                                                       \
    if (!(ek <= ep + 0x1p-8L))                                                \
      fprintf (stderr, #SFX " %d n=%zu: kernel %Lg ulp, plain loop %Lg\n",    \
	       kind, n, ek, ep);                                              \
    CHECK (ek <= ep + 0x1p-8L);                                               \
    int k_ = kind + 2 * (sizeof (T) == 8);                                    \
    worst[k_] = fmaxl (worst[k_], ek);                                        \
    if (!isinf (ep))                                                          \
      worst_plain[k_] = fmaxl (worst_plain[k_], ep);                          \
  }

/* The generic kernels' sums: floats' squares in double, in order;
   doubles' in long double with Neumaier's compensation.  */
static double
sum_f32 (const float *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return s;
}

static long double
sum_f64 (const double *x, size_t n)
{
  long double s = 0, c = 0;
  for (size_t i = 0; i < n; i++)
    {
      long double v = (long double) x[i] * x[i], t = s + v;
      c += s >= v ? (s - t) + v : (v - t) + s;
      s = t;
    }
  return isfinite (s) ? s + c : s;
}

#define F32_BOUND (0.5L + 0x1p-10L)
#define F64_BOUND (0.5L + 0x1p-8L)
DEFINE_RUN (float, f32, NF_ULPS_F, F32_BOUND, double, sqrt, fmaxf, sqrtf, fmax,
	    sum_f32)
DEFINE_RUN (double, f64, NF_ULPS_D, F64_BOUND, long double, sqrtl, fmax, sqrt,
	    fmaxl, sum_f64)

/* Fill rows of N at X + OX, W + OW from rnd () times SCALE.  */
static void
fill (size_t n, size_t ox, size_t ow, double scale)
{
  for (size_t i = 0; i < n; i++)
    {
      double v = rnd () * scale, w = rndw ();
      x_f32[ox + i] = (float) v, x_f64[ox + i] = v;
      w_f32[ow + i] = (float) w, w_f64[ow + i] = w;
    }
}

/* Both kinds, both types, in place and not, on rows filled by FILL.  */
static void
run_all (size_t n, size_t ox, size_t ow, double scale, double eps)
{
  for (int kind = 0; kind < 2; kind++)
    for (int inplace = 0; inplace < 2; inplace++)
      {
	fill (n, ox, ow, scale);
	run_f32 (kind, n, ox, ow, inplace, (float) eps);
	fill (n, ox, ow, scale);
	run_f64 (kind, n, ox, ow, inplace, eps);
      }
}

int
main (void)
{
  nf_check_isa ();
  static const size_t ns[] = { 1, 2, 3, 7, 15, 16, 17, 31, 100, 1000, MAXN };
  for (int rep = 0; rep < 4; rep++)
    for (size_t k = 0; k < NF_N (ns); k++)
      {
	run_all (ns[k], rep, (rep * 3 + 1) % 4, 1, 1e-6);
	/* A floor above the norm (l2normalize: x / eps).  */
	run_all (ns[k], rep, rep, 1e-3, 1e3);
      }
  static const char *const names[] = { "rmsnorm1p_f32", "l2normalize_f32",
				       "rmsnorm1p_f64", "l2normalize_f64" };
  for (int k = 0; k < 4; k++)
    printf ("nf_%s: max %.7Lf ulp (plain loop %.4Lf)\n", names[k], worst[k],
	    worst_plain[k]);

  /* n = 0 writes nothing.  */
  y_f32[0] = 42, y_f64[0] = 42;
  nf_rmsnorm1p_f32 (y_f32, x_f32, w_f32, 0, 1e-6f);
  nf_l2normalize_f32 (y_f32, x_f32, 0, 1e-6f);
  nf_rmsnorm1p_f64 (y_f64, x_f64, w_f64, 0, 1e-6);
  nf_l2normalize_f64 (y_f64, x_f64, 0, 1e-6);
  CHECK (y_f32[0] == 42 && y_f64[0] == 42);

  /* Where the plain loops overflow or underflow; eps 0 for the tiny
     rows, so that the floor does not hide the norm.  */
  run_all (1000, 1, 2, 1e30, 0);
  run_all (1000, 1, 2, 1e-30, 0);
  for (int inplace = 0; inplace < 2; inplace++)
    for (int kind = 0; kind < 2; kind++)
      {
	for (size_t i = 0; i < 1000; i++)
	  x_f64[i] = rnd () * 1e200, w_f64[i] = rndw ();
	run_f64 (kind, 1000, 0, 0, inplace, 0);
	for (size_t i = 0; i < 1000; i++)
	  x_f64[i] = rnd () * 1e-200;
	run_f64 (kind, 1000, 0, 0, inplace, 0);
      }

  if (!NF_SPECIALS)
    NF_DONE ();
  /* Special values, as the plain loop (here, exact cases) gives them.  */
  float xf[5] = { 1, -2, NAN, 4, -0.0f }, wf[5] = { 0, 0, 0, 0, 0 }, yf[5];
  nf_rmsnorm1p_f32 (yf, xf, wf, 5, 1e-6f);
  for (int i = 0; i < 5; i++)
    CHECK (isnan (yf[i]));
  nf_l2normalize_f32 (yf, xf, 5, 0x1p-20f); /* NaN norm: x / eps */
  CHECK (yf[0] == 0x1p20f && yf[1] == -0x1p21f && isnan (yf[2]));
  CHECK (yf[3] == 0x1p22f && yf[4] == 0 && signbit (yf[4]));
  double xd[5] = { 1, -2, NAN, 4, -0.0 }, wd[5] = { 0 }, yd[5];
  nf_l2normalize_f64 (yd, xd, 5, 0x1p-20);
  CHECK (yd[0] == 0x1p20 && yd[1] == -0x1p21 && isnan (yd[2]));
  CHECK (yd[3] == 0x1p22 && yd[4] == 0 && signbit (yd[4]));
  nf_rmsnorm1p_f64 (yd, xd, wd, 5, 1e-6);
  for (int i = 0; i < 5; i++)
    CHECK (isnan (yd[i]));
  /* An Inf element: r = 0 (NaN for it, signed zeros else); the norm
     Inf: x / Inf.  */
  xf[2] = -INFINITY, xd[2] = -INFINITY;
  nf_rmsnorm1p_f32 (yf, xf, wf, 5, 1e-6f);
  CHECK (yf[0] == 0 && !signbit (yf[0]) && yf[1] == 0 && signbit (yf[1]));
  CHECK (isnan (yf[2]) && yf[3] == 0 && yf[4] == 0 && signbit (yf[4]));
  nf_l2normalize_f32 (yf, xf, 5, 1e-6f);
  CHECK (yf[0] == 0 && !signbit (yf[0]) && yf[1] == 0 && signbit (yf[1]));
  CHECK (isnan (yf[2]) && yf[3] == 0);
  nf_rmsnorm1p_f64 (yd, xd, wd, 5, 1e-6);
  CHECK (yd[0] == 0 && yd[1] == 0 && signbit (yd[1]) && isnan (yd[2]));
  nf_l2normalize_f64 (yd, xd, 5, 1e-6);
  CHECK (yd[0] == 0 && yd[1] == 0 && signbit (yd[1]) && isnan (yd[2]));
  /* Gains: Inf gives Inf (sign of x), -1 gives zero.  Rows of 40, so
     that the vector paths see them.  */
  static float gx[40], gw[40], gy[40];
  static double hx[40], hw[40], hy[40];
  for (int i = 0; i < 40; i++)
    {
      gx[i] = (float) (hx[i] = rnd ());
      gw[i] = (float) (hw[i] = i % 3 == 0 ? INFINITY : i % 3 == 1 ? -1 : 0.5);
    }
  nf_rmsnorm1p_f32 (gy, gx, gw, 40, 1e-6f);
  nf_rmsnorm1p_f64 (hy, hx, hw, 40, 1e-6);
  for (int i = 0; i < 40; i++)
    if (i % 3 == 0)
      CHECK (isinf (gy[i]) && !!signbit (gy[i]) == !!signbit (gx[i])
	     && isinf (hy[i]) && !!signbit (hy[i]) == !!signbit (hx[i]));
    else if (i % 3 == 1)
      CHECK (gy[i] == 0 && hy[i] == 0);
  /* Signed zeros in rows of 40 (the vector paths): -0 gives -0, +0
     +0, as in the loop.  */
  for (int i = 0; i < 40; i++)
    {
      gx[i] = (float) (hx[i] = i % 4 == 0 ? -0.0 : i % 4 == 1 ? 0.0 : rnd ());
      gw[i] = (float) (hw[i] = 0.25);
    }
  for (int kind = 0; kind < 2; kind++)
    {
      if (kind)
	{
	  nf_l2normalize_f32 (gy, gx, 40, 1e-6f);
	  nf_l2normalize_f64 (hy, hx, 40, 1e-6);
	}
      else
	{
	  nf_rmsnorm1p_f32 (gy, gx, gw, 40, 1e-6f);
	  nf_rmsnorm1p_f64 (hy, hx, hw, 40, 1e-6);
	}
      for (int i = 0; i < 40; i += 4)
	CHECK (gy[i] == 0 && signbit (gy[i]) && gy[i + 1] == 0
	       && !signbit (gy[i + 1]) && hy[i] == 0 && signbit (hy[i])
	       && hy[i + 1] == 0 && !signbit (hy[i + 1]));
    }
  /* All zeros, eps = 0: 0 / 0, NaN; eps > 0: zeros.  */
  static float zf[40];
  static double zd[40];
  nf_l2normalize_f32 (gy, zf, 40, 0);
  nf_l2normalize_f64 (hy, zd, 40, 0);
  nf_rmsnorm1p_f32 (gx, zf, gw, 40, 0);
  for (int i = 0; i < 40; i++)
    CHECK (isnan (gy[i]) && isnan (hy[i]) && isnan (gx[i]));
  nf_l2normalize_f32 (gy, zf, 40, 1e-6f);
  nf_l2normalize_f64 (hy, zd, 40, 1e-6);
  for (int i = 0; i < 40; i++)
    CHECK (gy[i] == 0 && hy[i] == 0);
  NF_DONE ();
}
