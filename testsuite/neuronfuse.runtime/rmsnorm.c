/* Area: runtime, nf_rmsnorm_f32/f64/f16 and nf_rmsnorm_rows_*.
   Purpose: each output against an MPFR reference of its row (512 bits,
   rounded once to long double) for random rows of n in {1, 2, 7, 64,
   4096}, with and without weight, in place and not: within the header's
   bounds (f32 and f16 0.5 ulp + 2^-10, f64 0.5 ulp + 2^-8), and never
   worse than the plain loop in the data type; n = 0 touches nothing; an
   f16 row of RMS 8 at n = 4096, where the plain _Float16 sum overflows,
   comes out right; rows of 3 x 5 as three single rows; NaN and Inf as the
   plain loop gives them, signed zeros and Inf gains too.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 4096

static uint64_t seed = 0x9e3779b97f4a7c15u;

/* A random double in [-8, 8) with a random exponent, and one in
   [0.5, 1.5) with a random sign (weights).  */
static double
rnd (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  double m = (double) (seed >> 11) * 0x1p-53;
  return ldexp (2 * m - 1, (int) (seed % 7) - 3);
}

static double
rndw (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  double m = (double) (seed >> 11) * 0x1p-53;
  return (0.5 + m) * ((seed >> 3) & 1 ? -1 : 1);
}

static long double xl[MAXN], wl[MAXN], ref[MAXN];

/* REF[i] = XL[i] / sqrt (sum (XL^2) / N + EPS) * WL[i] (no weight unless
   W), in 512-bit MPFR rounded once to long double.  */
static void
reference (size_t n, int w, long double eps)
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
  mpfr_div_ui (s, s, n, MPFR_RNDN);
  mpfr_set_ld (t, eps, MPFR_RNDN);
  mpfr_add (s, s, t, MPFR_RNDN);
  mpfr_rec_sqrt (r, s, MPFR_RNDN);
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_ld (t, xl[i], MPFR_RNDN);
      mpfr_mul (t, t, r, MPFR_RNDN);
      if (w)
	{
	  mpfr_set_ld (s, wl[i], MPFR_RNDN);
	  mpfr_mul (t, t, s, MPFR_RNDN);
	}
      ref[i] = mpfr_get_ld (t, MPFR_RNDN);
    }
  mpfr_clears (s, t, r, (mpfr_ptr) 0);
}

/* RUN_T (N, W, INPLACE, EPS): fill a row (ROWX if not null: already
   filled), run the kernel and the plain loop, check both against the
   reference; returns the kernel's max error in ulps.  */
#define DEFINE_RUN(T, SFX, ULPS, BOUND, EPS_T)                                \
  static T x_##SFX[MAXN + 1], w_##SFX[MAXN], y_##SFX[MAXN + 1],               \
    yn_##SFX[MAXN];                                                           \
  static long double                                                          \
  run_##SFX (size_t n, int w, int inplace, EPS_T eps, int filled)             \
  {                                                                           \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	if (!filled)                                                          \
	  x_##SFX[i] = (T) rnd ();                                            \
	w_##SFX[i] = (T) rndw ();                                             \
	xl[i] = x_##SFX[i], wl[i] = w_##SFX[i];                               \
      }                                                                       \
    reference (n, w, eps);                                                    \
    /* The plain loop in T, as a user writes it.  */                          \
    T ss = 0;                                                                 \
    for (size_t i = 0; i < n; i++)                                            \
      ss += x_##SFX[i] * x_##SFX[i];                                          \
    T r = (T) 1 / (T) sqrt ((double) (ss / (T) n + (T) eps));                 \
    for (size_t i = 0; i < n; i++)                                            \
      yn_##SFX[i] = w ? x_##SFX[i] * r * w_##SFX[i] : x_##SFX[i] * r;         \
    T *y = y_##SFX;                                                           \
    if (inplace)                                                              \
      {                                                                       \
	memcpy (y, x_##SFX, n * sizeof (T));                                  \
	nf_rmsnorm_##SFX (y, y, w ? w_##SFX : NULL, n, eps);                  \
      }                                                                       \
    else                                                                      \
      {                                                                       \
	y[n] = (T) 42;                                                        \
	nf_rmsnorm_##SFX (y, x_##SFX, w ? w_##SFX : NULL, n, eps);            \
	CHECK (y[n] == (T) 42);                                               \
      }                                                                       \
    long double ek = 0, en = 0;                                               \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	long double e = ULPS (y[i], ref[i]);                                  \
	if (!(e <= (BOUND)))                                                  \
	  fprintf (stderr, #SFX " n=%zu i=%zu x=%La: %La want %La, %Lg ulp\n",\
		   n, i, (long double) x_##SFX[i], (long double) y[i],        \
		   ref[i], e);                                                \
	CHECK (e <= (BOUND));                                                 \
	ek = fmaxl (ek, e);                                                   \
	en = fmaxl (en, ULPS (yn_##SFX[i], ref[i]));                          \
      }                                                                       \
    if (!(ek <= en + 0x1p-8L))                                                \
      fprintf (stderr, #SFX " n=%zu w=%d: kernel %Lg ulp, plain loop %Lg\n",  \
	       n, w, ek, en);                                                 \
    CHECK (ek <= en + 0x1p-8L);                                               \
    if (n == MAXN && w && !inplace)                                           \
      printf (#SFX " n=%zu: kernel max %.6Lf ulp, plain loop %.6Lf ulp\n",    \
	      n, ek, en);                                                     \
    return ek;                                                                \
  }

#define F32_BOUND (0.5L + 0x1p-10L)
#define F64_BOUND (0.5L + 0x1p-8L)
#define F16_BOUND (0.5L + 0x1p-10L)
DEFINE_RUN (float, f32, NF_ULPS_F, F32_BOUND, float)
DEFINE_RUN (double, f64, NF_ULPS_D, F64_BOUND, double)
#ifdef __FLT16_MAX__ /* the f16 kernels: only where GCC has _Float16 */
DEFINE_RUN (_Float16, f16, NF_ULPS_H, F16_BOUND, float)
#endif

/* The rows kernel on 3 x 5 against three single-row references.  */
#define CHECK_ROWS(T, SFX, ULPS, BOUND, EPS)                                  \
  do                                                                          \
    {                                                                         \
      enum { R = 3, N = 5 };                                                  \
      T x[R * N], w[N], y[R * N + 1];                                         \
      for (int w_ = 0; w_ < 2; w_++)                                          \
	for (int inplace = 0; inplace < 2; inplace++)                         \
	  {                                                                   \
	    for (int i = 0; i < R * N; i++)                                   \
	      x[i] = (T) rnd ();                                              \
	    for (int i = 0; i < N; i++)                                       \
	      w[i] = (T) rndw (), wl[i] = w[i];                               \
	    y[R * N] = (T) 42;                                                \
	    if (inplace)                                                      \
	      memcpy (y, x, sizeof x);                                        \
	    nf_rmsnorm_rows_##SFX (y, inplace ? y : x, w_ ? w : NULL, R, N,   \
				   EPS);                                      \
	    CHECK (y[R * N] == (T) 42);                                       \
	    for (int r = 0; r < R; r++)                                       \
	      {                                                               \
		for (int i = 0; i < N; i++)                                   \
		  xl[i] = x[r * N + i];                                       \
		reference (N, w_, EPS);                                       \
		for (int i = 0; i < N; i++)                                   \
		  CHECK (ULPS (y[r * N + i], ref[i]) <= (BOUND));             \
	      }                                                               \
	  }                                                                   \
      /* rows == 0 and n == 0 touch nothing.  */                              \
      y[0] = (T) 42;                                                          \
      nf_rmsnorm_rows_##SFX (y, NULL, NULL, 0, N, EPS);                       \
      nf_rmsnorm_rows_##SFX (y, NULL, NULL, R, 0, EPS);                       \
      CHECK (y[0] == (T) 42);                                                 \
    }                                                                         \
  while (0)

int
main (void)
{
  nf_check_isa ();
  static const size_t ns[] = { 1, 2, 7, 64, MAXN };
  long double w32 = 0, w64 = 0, w16 = 0;
  for (size_t k = 0; k < NF_N (ns); k++)
    for (int w = 0; w < 2; w++)
      for (int inplace = 0; inplace < 2; inplace++)
	{
	  w32 = fmaxl (w32, run_f32 (ns[k], w, inplace, 1e-5f, 0));
	  w64 = fmaxl (w64, run_f64 (ns[k], w, inplace, 1e-6, 0));
#ifdef __FLT16_MAX__
	  w16 = fmaxl (w16, run_f16 (ns[k], w, inplace, 1e-5f, 0));
#endif
	}
  printf ("nf_rmsnorm max error: f32 %.6Lf, f64 %.6Lf, f16 %.6Lf ulp\n",
	  w32, w64, w16);

  /* n = 0 reads and writes nothing (null X and W would fault).  */
  y_f32[0] = 42, y_f64[0] = 42;
  nf_rmsnorm_f32 (y_f32, NULL, NULL, 0, 1e-5f);
  nf_rmsnorm_f64 (y_f64, NULL, NULL, 0, 1e-6);
  CHECK (y_f32[0] == 42 && y_f64[0] == 42);
#ifdef __FLT16_MAX__
  y_f16[0] = 42;
  nf_rmsnorm_f16 (y_f16, NULL, NULL, 0, 1e-5f);
  CHECK (y_f16[0] == 42);

  /* f16 with RMS about 8 at n = 4096: sum (x^2) is about 2.6e5, past
     _Float16's 65504, so the plain loop's sum is Inf and its row 0.  */
  for (size_t i = 0; i < MAXN; i++)
    x_f16[i] = (_Float16) ((7 + 2 * fabs (rnd () / 8)) * (i & 1 ? -1 : 1));
  long double e16 = run_f16 (MAXN, 1, 0, 1e-5f, 1);
  CHECK (e16 <= F16_BOUND);
  int finite = 1;
  for (size_t i = 0; i < MAXN; i++)
    finite &= isfinite (y_f16[i]) && y_f16[i] != 0;
  CHECK (finite);
  printf ("f16 RMS 8: kernel %.6Lf ulp, plain loop gives %g\n", e16,
	  (double) yn_f16[0]);
#endif

  CHECK_ROWS (float, f32, NF_ULPS_F, F32_BOUND, 1e-5f);
  CHECK_ROWS (double, f64, NF_ULPS_D, F64_BOUND, 1e-6);
#ifdef __FLT16_MAX__ /* the f16 kernels: only where GCC has _Float16 */
  CHECK_ROWS (_Float16, f16, NF_ULPS_H, F16_BOUND, 1e-5f);
#endif

  /* NaN anywhere: the row is NaN; an Inf: r = 0, so finite x give 0 and
     the Inf gives NaN, as in the plain loop.  */
  if (NF_SPECIALS)
    {
      float a[3] = { 1, NAN, 2 }, b[3] = { 1, INFINITY, -2 };
      nf_rmsnorm_f32 (a, a, NULL, 3, 1e-5f);
      CHECK (isnan (a[0]) && isnan (a[1]) && isnan (a[2]));
      nf_rmsnorm_f32 (b, b, NULL, 3, 1e-5f);
      CHECK (b[0] == 0 && isnan (b[1]) && b[2] == 0 && signbit (b[2]));
      double c[2] = { INFINITY, 3 };
      nf_rmsnorm_f64 (c, c, NULL, 2, 1e-6);
      CHECK (isnan (c[0]) && c[1] == 0);
      /* Signed zeros in rows of 40 (the vector paths), as the loop's
	 x r w: -0 gives -0, and a gain of -0 flips the sign; an Inf
	 gain gives Inf.  */
      static float zx[40], zw[40], zy[40];
      static double dx[40], dw[40], dy[40];
      for (int i = 0; i < 40; i++)
	{
	  zx[i] = (float) (dx[i] = i % 4 == 0 ? -0.0 : 1 + i);
	  zw[i] = (float) (dw[i] = i % 4 == 1 ? -0.0
				   : i % 4 == 2 ? INFINITY
						: 0.5);
	}
      for (int k = 0; k < 2; k++)
	{
	  nf_rmsnorm_f32 (zy, zx, k ? zw : NULL, 40, 1e-5f);
	  nf_rmsnorm_f64 (dy, dx, k ? dw : NULL, 40, 1e-6);
	  for (int i = 0; i < 40; i++)
	    {
	      float wf = k ? zw[i] : 1;
	      double want = (double) zx[i] * wf;
	      CHECK (!!isinf (zy[i]) == !!isinf (want)
		     && !!isinf (dy[i]) == !!isinf (want));
	      if (want == 0)
		CHECK (zy[i] == 0 && !!signbit (zy[i]) == !!signbit (want)
		       && dy[i] == 0 && !!signbit (dy[i]) == !!signbit (want));
	    }
	}
    }
  NF_DONE ();
}
