/* Area: runtime, nf_add_rmsnorm_f32/f64 (the residual add x += r, then
   RMSNorm of the new x).
   Purpose: for every n from 0 to 300 and n in {511, 1000, 4099}, with
   and without weight, in place (y == x) and not, at several
   misalignments of x, r, w: x written back bit for bit as the loop
   `x[i] = x[i] + r[i]` stores it; y bit for bit what nf_rmsnorm_* gives
   for the new x on the same tier (the fused pass takes the same sum);
   each y[i] against MPFR (512 bits, rounded once to long double) within
   nf_rmsnorm_*'s bounds (f32 0.5 ulp + 2^-10, f64 0.5 ulp + 2^-8) and a
   row's worst no worse than the plain two loops' in the data type; the
   element after each row untouched, r unchanged.  Special values and
   signed zeros as the loops give them: NaN in x or r (or Inf - Inf) makes
   the row NaN, an Inf sum makes r = 0 (NaN for it, signed zeros else),
   -0 + -0 is -0 in x and in y, -0 + +0 and 1 + -1 are +0.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 4099
#define PAD 8

static uint64_t seed = 0x3c6ef372fe94f82bu;

/* A random double in +-[0.5, 1) 2^[-4, 4]; weights in [0.5, 1.5) with
   a random sign.  */
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
  double m = (double) (seed >> 11) * 0x1p-53;
  return (0.5 + m) * ((seed >> 5) & 1 ? -1 : 1);
}

static long double xl[MAXN], wl[MAXN], ref[MAXN];

/* REF[i] = XL[i] / sqrt (sum (XL^2) / N + EPS) * WL[i] (HAVE_W, else
   1), in 512-bit MPFR rounded once to long double.  */
static void
reference (size_t n, int have_w, long double eps)
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
      if (have_w)
	{
	  mpfr_set_ld (s, wl[i], MPFR_RNDN);
	  mpfr_mul (t, t, s, MPFR_RNDN);
	}
      ref[i] = mpfr_get_ld (t, MPFR_RNDN);
    }
  mpfr_clears (s, t, r, (mpfr_ptr) 0);
}

/* Whether A and B have the same bits, or are both NaN.  */
#define SAME(a, b)                                                             \
  (memcmp (&(a), &(b), sizeof (a)) == 0 || (isnan (a) && isnan (b)))

static long double worst[2], worst_plain[2];

/* RUN_T (N, OX, OR, OW, HAVE_W, INPLACE, EPS, CHECK_REF): the row in
   X_T + OX, R_T + OR, W_T + OW already filled; run the kernel and check
   x, y against the loop, nf_rmsnorm_T and (CHECK_REF) MPFR.  */
#define DEFINE_RUN(T, SFX, ULPS, BOUND)                                        \
  static T x_##SFX[MAXN + PAD], r_##SFX[MAXN + PAD], w_##SFX[MAXN + PAD],      \
    y_##SFX[MAXN + PAD], xs_##SFX[MAXN], rc_##SFX[MAXN], yr_##SFX[MAXN],       \
    yp_##SFX[MAXN];                                                            \
  static void run_##SFX (size_t n, size_t ox, size_t or_, size_t ow,           \
			 int have_w, int inplace, T eps, int check_ref)        \
  {                                                                            \
    T *x = x_##SFX + ox, *r = r_##SFX + or_;                                   \
    const T *w = have_w ? w_##SFX + ow : NULL;                                 \
    /* The loops: the add in T, the new x's RMSNorm by the library.  */        \
    for (size_t i = 0; i < n; i++)                                             \
      xs_##SFX[i] = x[i] + r[i], rc_##SFX[i] = r[i];                           \
    nf_rmsnorm_##SFX (yr_##SFX, xs_##SFX, w, n, eps);                          \
    T *y = inplace ? x : y_##SFX + ox;                                         \
    T after = (T) 42;                                                          \
    x[n] = after;                                                              \
    if (!inplace)                                                              \
      y[n] = after;                                                            \
    nf_add_rmsnorm_##SFX (y, x, r, w, n, eps);                                 \
    CHECK (SAME (x[n], after));                                                \
    if (!inplace)                                                              \
      CHECK (SAME (y[n], after));                                              \
    for (size_t i = 0; i < n; i++)                                             \
      {                                                                        \
	CHECK (SAME (r[i], rc_##SFX[i]));                                      \
	if (!inplace && !SAME (x[i], xs_##SFX[i]))                             \
	  fprintf (stderr, #SFX " n=%zu i=%zu: x %La, the loop's %La\n", n, i, \
		   (long double) x[i], (long double) xs_##SFX[i]);             \
	if (!inplace)                                                          \
	  CHECK (SAME (x[i], xs_##SFX[i]));                                    \
	if (!SAME (y[i], yr_##SFX[i]))                                         \
	  fprintf (stderr, #SFX " n=%zu i=%zu: y %La, nf_rmsnorm's %La\n", n,  \
		   i, (long double) y[i], (long double) yr_##SFX[i]);          \
	CHECK (SAME (y[i], yr_##SFX[i]));                                      \
      }                                                                        \
    if (!check_ref || n == 0)                                                  \
      return;                                                                  \
    /* The plain loops in T: the bar the kernel must clear.  */                \
    T ss = 0;                                                                  \
    for (size_t i = 0; i < n; i++)                                             \
      ss += xs_##SFX[i] * xs_##SFX[i];                                         \
    ss = (T) 1 / (T) sqrt (ss / (T) n + eps);                                  \
    for (size_t i = 0; i < n; i++)                                             \
      yp_##SFX[i] = xs_##SFX[i] * ss * (w ? w[i] : (T) 1);                     \
    for (size_t i = 0; i < n; i++)                                             \
      xl[i] = xs_##SFX[i], wl[i] = w ? w[i] : 1;                               \
    reference (n, have_w, eps);                                                \
    long double ek = 0, ep = 0;                                                \
    for (size_t i = 0; i < n; i++)                                             \
      {                                                                        \
	long double e = ULPS (y[i], ref[i]);                                   \
	if (!(e <= (BOUND)))                                                   \
	  fprintf (stderr, #SFX " n=%zu i=%zu: %La want %La, %Lg ulp\n", n, i, \
		   (long double) y[i], ref[i], e);                             \
	CHECK (e <= (BOUND));                                                  \
	ek = fmaxl (ek, e);                                                    \
	ep = fmaxl (ep, ULPS (yp_##SFX[i], ref[i]));                           \
      }                                                                        \
    CHECK (ek <= ep + 0x1p-8L);                                                \
    int k_ = sizeof (T) == 8;                                                  \
    worst[k_] = fmaxl (worst[k_], ek);                                         \
    worst_plain[k_] = fmaxl (worst_plain[k_], ep);                             \
  }

#define F32_BOUND (0.5L + 0x1p-10L)
#define F64_BOUND (0.5L + 0x1p-8L)
DEFINE_RUN (float, f32, NF_ULPS_F, F32_BOUND)
DEFINE_RUN (double, f64, NF_ULPS_D, F64_BOUND)

/* Fill rows of N at OX, OR, OW of both types; r of x's size, a quarter
   of its elements x's negation plus a little (cancellation).  */
static void
fill (size_t n, size_t ox, size_t or_, size_t ow)
{
  for (size_t i = 0; i < n; i++)
    {
      double v = rnd (), d = rnd (), w = rndw ();
      float vf = (float) v, df = (float) d;
      if (i % 4 == 3)
	d = -v + d * 0x1p-20, df = -vf + df * 0x1p-20f;
      x_f32[ox + i] = vf, r_f32[or_ + i] = df, w_f32[ow + i] = (float) w;
      x_f64[ox + i] = v, r_f64[or_ + i] = d, w_f64[ow + i] = w;
    }
}

static void
run_all (size_t n, size_t ox, size_t or_, size_t ow, int check_ref)
{
  for (int have_w = 0; have_w < 2; have_w++)
    for (int inplace = 0; inplace < 2; inplace++)
      {
	fill (n, ox, or_, ow);
	run_f32 (n, ox, or_, ow, have_w, inplace, 1e-6f, check_ref);
	run_f64 (n, ox, or_, ow, have_w, inplace, 1e-6, check_ref);
      }
}

/* The specials of a row of N (long enough for the vector loops):
   element K of x and r set to XK and RK, the others random; the kernel
   against the loops in the generic kernel's arithmetic (nf_rmsnorm_*
   gives the same on every tier), NaN for NaN, zeros with their sign.  */
#define DEFINE_SPECIAL(T, SFX, WT, SQ)                                         \
  static void special_##SFX (size_t n, size_t k, T xk, T rk, int have_w)       \
  {                                                                            \
    T *x = x_##SFX, *r = r_##SFX, *w = have_w ? w_##SFX : NULL;                \
    for (size_t i = 0; i < n; i++)                                             \
      x[i] = (T) rnd (), r[i] = (T) rnd (), w_##SFX[i] = (T) rndw ();          \
    x[k] = xk, r[k] = rk;                                                      \
    for (size_t i = 0; i < n; i++)                                             \
      xs_##SFX[i] = x[i] + r[i];                                               \
    WT s = 0;                                                                  \
    for (size_t i = 0; i < n; i++)                                             \
      s += (WT) xs_##SFX[i] * xs_##SFX[i];                                     \
    WT rr = 1 / SQ (s / (WT) n + (WT) 1e-6);                                   \
    nf_add_rmsnorm_##SFX (y_##SFX, x, r, w, n, (T) 1e-6);                      \
    for (size_t i = 0; i < n; i++)                                             \
      {                                                                        \
	T want = (T) (xs_##SFX[i] * rr * (w ? w[i] : 1));                      \
	CHECK (SAME (x[i], xs_##SFX[i]));                                      \
	CHECK (!!isnan (y_##SFX[i]) == !!isnan (want));                        \
	if (want == 0)                                                         \
	  {                                                                    \
	    if (!(y_##SFX[i] == 0                                              \
		  && !!signbit (y_##SFX[i]) == !!signbit (want)))              \
	      fprintf (stderr,                                                 \
		       #SFX " special n=%zu k=%zu i=%zu: %a, want %a\n", n, k, \
		       i, (double) y_##SFX[i], (double) want);                 \
	    CHECK (y_##SFX[i] == 0                                             \
		   && !!signbit (y_##SFX[i]) == !!signbit (want));             \
	  }                                                                    \
      }                                                                        \
  }

DEFINE_SPECIAL (float, f32, double, sqrt)
DEFINE_SPECIAL (double, f64, long double, sqrtl)

int
main (void)
{
  nf_check_isa ();
  for (size_t n = 0; n <= 300; n++)
    run_all (n, n % 4, (n / 4) % 3, (n / 12) % 5, 1);
  static const size_t ns[] = { 511, 1000, MAXN };
  for (size_t k = 0; k < NF_N (ns); k++)
    for (size_t o = 0; o < 3; o++)
      run_all (ns[k], o, 2 - o, (o * 3) % 4, o == 0);
  printf ("nf_add_rmsnorm: max f32 %.7Lf ulp (plain loops %.4Lf), f64 "
	  "%.7Lf ulp (plain loops %.4Lf)\n",
	  worst[0], worst_plain[0], worst[1], worst_plain[1]);

  /* n = 0 reads and writes nothing (null pointers would fault).  */
  nf_add_rmsnorm_f32 (NULL, NULL, NULL, NULL, 0, 1e-6f);
  nf_add_rmsnorm_f64 (NULL, NULL, NULL, NULL, 0, 1e-6);

  if (!NF_SPECIALS)
    NF_DONE ();
  static const size_t sn[] = { 5, 40, 100, 300 };
  for (size_t j = 0; j < NF_N (sn); j++)
    for (int have_w = 0; have_w < 2; have_w++)
      {
	size_t n = sn[j], k = n / 2 + 1;
	special_f32 (n, k, NAN, 1, have_w);
	special_f32 (n, k, 1, NAN, have_w);
	special_f32 (n, k, INFINITY, -INFINITY, have_w);
	special_f32 (n, k, -INFINITY, 1, have_w);
	special_f32 (n, k, 1, INFINITY, have_w);
	special_f32 (n, k, -0.0f, -0.0f, have_w);
	special_f32 (n, k, -0.0f, 0.0f, have_w);
	special_f32 (n, k, 1, -1, have_w);
	special_f32 (n, 0, -0.0f, -0.0f, have_w);
	special_f64 (n, k, NAN, 1, have_w);
	special_f64 (n, k, 1, NAN, have_w);
	special_f64 (n, k, INFINITY, -INFINITY, have_w);
	special_f64 (n, k, -INFINITY, 1, have_w);
	special_f64 (n, k, 1, INFINITY, have_w);
	special_f64 (n, k, -0.0, -0.0, have_w);
	special_f64 (n, k, -0.0, 0.0, have_w);
	special_f64 (n, k, 1, -1, have_w);
	special_f64 (n, 0, -0.0, -0.0, have_w);
      }
  /* The plain loops' sum overflows float (1e30) and underflows (1e-30):
     the kernel's is double, as nf_rmsnorm_f32's.  */
  for (size_t i = 0; i < 1000; i++)
    x_f32[i] = (float) (rnd () * 1e30), r_f32[i] = (float) (rnd () * 1e30);
  run_f32 (1000, 0, 0, 0, 1, 0, 0, 0);
  for (size_t i = 0; i < 1000; i++)
    x_f32[i] = (float) (rnd () * 1e-30), r_f32[i] = (float) (rnd () * 1e-30);
  run_f32 (1000, 0, 0, 0, 1, 1, 0, 0);
  NF_DONE ();
}
