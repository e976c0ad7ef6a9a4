/* Area: runtime, nf_matvec_f32/f64/f16 and nf_dot_f32/f64 (kind Dot).
   Purpose: against an MPFR reference of the exact sum of products, on
   random matrices of 1 to 9 and 67 rows (the four-row blocks and the
   rows left over) by every n from 0 to 40 and 63 to 65, 100, 255, 256,
   1000 and 4099: f32 and f16 weights within the header's 0.5 ulp +
   (n / 8 + 8) 2^-53 sum |w x|, f64 within 0.5 ulp + n^2 2^-104 sum |w x|
   (Dot2); the worst error in ulps is printed.  n = 0 gives zeros, d = 0
   writes nothing.  A product split over 1, 2, 3 and 7 threads (above the
   2^18-element split threshold) gives the same bits.  NaN and infinities
   as the loop's sum: a NaN, an Inf times 0 or Inf - Inf in a row give
   NaN, a lone Inf gives Inf of its sign.  A float loop whose partial sum
   overflows (FLT_MAX * 2 - FLT_MAX * 2) gives Inf or NaN; the kernel,
   summing in double, gives the exact 0: documented, more accurate.  */
/* { dg-do run } */

#include "nf-test.h"
#include "nf-mpfr.h"
#include "isa.h"
#include <float.h>
#include <math.h>
#include <neuronfuse.h>
#include <stdint.h>
#include <string.h>

#define MAXD 67
#define MAXN 4099

static uint64_t seed = 0x9e3779b97f4a7c15u;

static double
unif (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double) (seed >> 11) * 0x1p-53 * 2 - 1;
}

static float wf[MAXD * MAXN], xf[MAXN], yf[MAXD], zf[MAXD];
static double wd[MAXD * MAXN], xd[MAXN], yd[MAXD], zd[MAXD];
#ifdef __FLT16_MAX__
static _Float16 wh[MAXD * MAXN];
#endif

static long double worst32, worst16, worst64;

/* The exact sum of W[i] * X[i] (as long doubles, exact for the types
   tested) rounded to long double, and sum |w x| into *ABS.  */
static long double
exact_dot (const long double *w, const long double *x, size_t n,
	   long double *abs)
{
  mpfr_t s, t, u;
  mpfr_inits2 (2400, s, t, u, (mpfr_ptr) 0);
  mpfr_set_zero (s, 1);
  long double a = 0;
  for (size_t j = 0; j < n; j++)
    {
      mpfr_set_ld (t, w[j], MPFR_RNDN);
      mpfr_set_ld (u, x[j], MPFR_RNDN);
      mpfr_mul (t, t, u, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
      a += fabsl (w[j] * x[j]);
    }
  long double r = mpfr_get_ld (s, MPFR_RNDN);
  mpfr_clears (s, t, u, (mpfr_ptr) 0);
  *abs = a;
  return r;
}

static long double wl[MAXN], xl[MAXN];

/* Check Y against the exact row product: the error beyond half an ulp
   of Y (ULP) must be at most SLACK * sum |w x|.  Return the error in
   ulps.  */
static long double
check_row (long double y, long double ulp, size_t n, long double slack,
	   const char *what, size_t i)
{
  long double abs, ref = exact_dot (wl, xl, n, &abs);
  long double err = fabsl (y - ref);
  int ok = err <= 0.5L * ulp + slack * abs;
  if (!ok)
    fprintf (stderr, "%s n=%zu row %zu: %La want %La (sum |wx| %Lg)\n", what,
	     n, i, y, ref, abs);
  CHECK (ok);
  return ulp > 0 ? err / ulp : 0;
}

static long double
ulp_f (float y)
{
  return y == 0 ? 0x1p-149L : nextafterf (fabsf (y), INFINITY) - fabsf (y);
}

static long double
ulp_d (double y)
{
  return y == 0 ? 0x1p-1074L : nextafter (fabs (y), INFINITY) - fabs (y);
}

static void
random_case (size_t d, size_t n)
{
  for (size_t k = 0; k < d * n; k++)
    {
      wd[k] = unif ();
      wf[k] = (float) wd[k];
#ifdef __FLT16_MAX__
      wh[k] = (_Float16) wd[k];
#endif
    }
  for (size_t j = 0; j < n; j++)
    xd[j] = unif () * 4, xf[j] = (float) xd[j];
  long double s32 = (n / 8.0L + 8) * 0x1p-53L, s64 = n * n * 0x1p-104L;

  nf_matvec_f32 (yf, wf, xf, d, n);
  for (size_t j = 0; j < n; j++)
    xl[j] = xf[j];
  for (size_t i = 0; i < d; i++)
    {
      for (size_t j = 0; j < n; j++)
	wl[j] = wf[i * n + j];
      long double e = check_row (yf[i], ulp_f (yf[i]), n, s32, "f32", i);
      worst32 = e > worst32 ? e : worst32;
    }
  /* The one-row form is the same kernel: the same bits.  */
  CHECK (memcmp (&(float){ nf_dot_f32 (wf, xf, n) }, yf, sizeof (float)) == 0);

#ifdef __FLT16_MAX__
  nf_matvec_f16 (zf, wh, xf, d, n);
  for (size_t i = 0; i < d; i++)
    {
      for (size_t j = 0; j < n; j++)
	wl[j] = wh[i * n + j];
      long double e = check_row (zf[i], ulp_f (zf[i]), n, s32, "f16", i);
      worst16 = e > worst16 ? e : worst16;
    }
#endif

  nf_matvec_f64 (yd, wd, xd, d, n);
  for (size_t j = 0; j < n; j++)
    xl[j] = xd[j];
  for (size_t i = 0; i < d; i++)
    {
      for (size_t j = 0; j < n; j++)
	wl[j] = wd[i * n + j];
      long double e = check_row (yd[i], ulp_d (yd[i]), n, s64, "f64", i);
      worst64 = e > worst64 ? e : worst64;
    }
  CHECK (nf_dot_f64 (wd, xd, n) == yd[0]);
}

/* The same bits whatever the number of threads.  */
static void
threads (void)
{
  size_t d = MAXD, n = MAXN;
  random_case (d, n);
  memcpy (zf, yf, sizeof zf);
  memcpy (zd, yd, sizeof zd);
  static const int counts[] = { 1, 2, 3, 7 };
  for (size_t k = 0; k < NF_N (counts); k++)
    {
      nf_set_num_threads (counts[k]);
      nf_matvec_f32 (yf, wf, xf, d, n);
      nf_matvec_f64 (yd, wd, xd, d, n);
      CHECK (memcmp (yf, zf, sizeof zf) == 0);
      CHECK (memcmp (yd, zd, sizeof zd) == 0);
    }
  nf_set_num_threads (0);
}

/* The f32 kernel's result on one row of 20 elements, w and x 1 but for
   w[3] = A, w[17] = B and x[3] = XV.  */
static float
special_f32 (float a, float b, float xv)
{
  float w[20], x[20], y;
  for (int j = 0; j < 20; j++)
    w[j] = 1, x[j] = 1;
  w[3] = a, w[17] = b, x[3] = xv;
  nf_matvec_f32 (&y, w, x, 1, 20);
  return y;
}

static double
special_f64 (double a, double b, double xv)
{
  double w[20], x[20], y;
  for (int j = 0; j < 20; j++)
    w[j] = 1, x[j] = 1;
  w[3] = a, w[17] = b, x[3] = xv;
  nf_matvec_f64 (&y, w, x, 1, 20);
  return y;
}

static void
specials (void)
{
  CHECK (isnan (special_f32 (NAN, 1, 1)) && isnan (special_f64 (NAN, 1, 1)));
  CHECK (isnan (special_f32 (INFINITY, 1, 0))
	 && isnan (special_f64 (INFINITY, 1, 0)));
  CHECK (isnan (special_f32 (INFINITY, -INFINITY, 1))
	 && isnan (special_f64 (INFINITY, -INFINITY, 1)));
  CHECK (special_f32 (INFINITY, 1, 1) == INFINITY
	 && special_f64 (INFINITY, 1, 1) == INFINITY);
  CHECK (special_f32 (-INFINITY, 1, 1) == -INFINITY
	 && special_f64 (-INFINITY, 1, 1) == -INFINITY);
  /* The double sum of floats cannot overflow: FLT_MAX * 2 ten times
     minus as many is 0, where the float loop gives NaN.  */
  float w[20], x[20];
  for (int j = 0; j < 20; j++)
    w[j] = j < 10 ? FLT_MAX : -FLT_MAX, x[j] = 2;
  CHECK (nf_dot_f32 (w, x, 20) == 0);
  /* f64 products that overflow: Inf, not the NaN of Inf - Inf in the
     error terms.  */
  CHECK (special_f64 (DBL_MAX, 1, 1) == DBL_MAX
	 || special_f64 (DBL_MAX, 1, 1) == INFINITY);
  CHECK (special_f64 (DBL_MAX, DBL_MAX, 2) == INFINITY);
}

int
main (void)
{
  nf_check_isa ();

  /* d = 0 writes nothing; n = 0 gives zeros.  */
  nf_matvec_f32 (NULL, NULL, NULL, 0, 5);
  yf[0] = yf[1] = 7, yd[0] = 7;
  nf_matvec_f32 (yf, wf, xf, 2, 0);
  nf_matvec_f64 (yd, wd, xd, 1, 0);
  CHECK (yf[0] == 0 && yf[1] == 0 && yd[0] == 0);
  CHECK (nf_dot_f32 (NULL, NULL, 0) == 0 && nf_dot_f64 (NULL, NULL, 0) == 0);

  static const size_t ds[] = { 1, 2, 3, 4, 5, 7, 8, 9, 67 };
  static const size_t ns[] = { 63, 64, 65, 100, 255, 256, 1000, 4099 };
  for (size_t a = 0; a < NF_N (ds); a++)
    {
      for (size_t n = 0; n <= 40; n++)
	random_case (ds[a], n);
      for (size_t b = 0; b < NF_N (ns); b++)
	random_case (ds[a], ns[b]);
    }
  threads ();
  specials ();
  printf ("nf_matvec: max f32 %.6Lf, f16 %.6Lf, f64 %.6Lf ulp (%s)\n",
	  worst32, worst16, worst64, nf_runtime_isa ());
  NF_DONE ();
}
