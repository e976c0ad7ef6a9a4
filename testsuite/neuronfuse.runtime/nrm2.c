/* Area: runtime, nf_nrm2_f32/f64, nf_nrm2d_f32 and nf_sumsq_f32/f64.
   Purpose: against MPFR (512 bits, rounded once to long double) on
   random vectors, f64 within 2 ulp and f32 within 0.5 ulp + 2^-16
   (the header's bounds for n <= 4096), and neither worse than the plain
   loop in its type (largest error over all vectors); nf_nrm2d_f32 (a
   float vector's norm in double) within 0.5 ulp + 2^-11 and never worse
   than the plain double loop, vector by vector; nf_sumsq_f64 within
   2^-60 relative (long double, error-free double-double sums); n = 0
   gives 0 and reads
   nothing; near the limits of the type, where the plain loop overflows
   (f64 1e200, f32 1e30) or underflows (1e-200, 1e-30), the result is
   still right; NaN and Inf as the plain loop gives them.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 4096

static uint64_t seed = 0x2545f4914f6cdd1du;

/* A random double with a random sign and exponent in [-20, 20].  */
static double
rnd (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  double m = (double) (seed >> 11) * 0x1p-53;
  return ldexp ((0.5 + m / 2) * ((seed >> 3) & 1 ? -1 : 1),
		(int) (seed % 41) - 20);
}

static long double xl[MAXN];

static long double reference_sum (size_t n, int root);
#define reference(n) reference_sum ((n), 1)

/* sum (XL[i]^2) for i < N, its square root if ROOT, in 512-bit MPFR
   rounded once.  */
static long double
reference_sum (size_t n, int root)
{
  mpfr_t s, t;
  mpfr_inits2 (512, s, t, (mpfr_ptr) 0);
  mpfr_set_zero (s, 1);
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_ld (t, xl[i], MPFR_RNDN);
      mpfr_sqr (t, t, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
    }
  if (root)
    mpfr_sqrt (s, s, MPFR_RNDN);
  long double r = mpfr_get_ld (s, MPFR_RNDN);
  mpfr_clears (s, t, (mpfr_ptr) 0);
  return r;
}

/* The plain loops the kernels replace.  */
static double
plain_f64 (const double *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt (s);
}

static float
plain_f32 (const float *x, size_t n)
{
  float s = 0;
  for (size_t i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}

/* The plain loop nf_nrm2d_f32 replaces: floats squared in double.  */
static double
plain_f32_in_f64 (const float *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return sqrt (s);
}

static double xd[MAXN];
static float xf[MAXN];

#define F64_BOUND 2.0L
#define F32_BOUND (0.5L + 0x1p-16L)

/* Check nf_nrm2_f64 on XD[0..N-1]; returns its error in ulps.  */
static long double
check_f64 (size_t n)
{
  for (size_t i = 0; i < n; i++)
    xl[i] = xd[i];
  long double want = reference (n);
  double got = nf_nrm2_f64 (xd, n);
  long double e = NF_ULPS_D (got, want);
  if (!(e <= F64_BOUND))
    fprintf (stderr, "f64 n=%zu: %a want %La, %Lg ulp\n", n, got, want, e);
  CHECK (e <= F64_BOUND);
  long double sum = reference_sum (n, 0), got_sum = nf_sumsq_f64 (xd, n);
  CHECK (fabsl (got_sum - sum) <= 0x1p-60L * sum);
  return e;
}

static long double
check_f32 (size_t n)
{
  for (size_t i = 0; i < n; i++)
    xl[i] = xf[i];
  long double want = reference (n);
  float got = nf_nrm2_f32 (xf, n);
  long double e = NF_ULPS_F (got, want);
  if (!(e <= F32_BOUND))
    fprintf (stderr, "f32 n=%zu: %a want %La, %Lg ulp\n", n, got, want, e);
  CHECK (e <= F32_BOUND);
  /* The norm in double: correctly rounded but for 2^-11 ulp, and so
     never worse than the plain loop (beyond that 2^-11).  */
  double gd = nf_nrm2d_f32 (xf, n);
  long double ed = NF_ULPS_D (gd, want);
  long double ep = NF_ULPS_D (plain_f32_in_f64 (xf, n), want);
  if (!(ed <= 0.5L + 0x1p-11L && ed <= ep + 0x1p-11L))
    fprintf (stderr, "f32 in f64 n=%zu: %a want %La, %Lg ulp (plain %Lg)\n",
	     n, gd, want, ed, ep);
  CHECK (ed <= 0.5L + 0x1p-11L && ed <= ep + 0x1p-11L);
  return e;
}

int
main (void)
{
  nf_check_isa ();
  /* Random vectors; the f64 error against the plain loop's.  */
  static const size_t ns[] = { 1, 2, 3, 5, 7, 13, 33, 64, 1000, MAXN };
  long double w64 = 0, w32 = 0, p64 = 0, p32 = 0;
  for (int rep = 0; rep < 20; rep++)
    for (size_t k = 0; k < NF_N (ns); k++)
      {
	size_t n = ns[k];
	for (size_t i = 0; i < n; i++)
	  xd[i] = rnd (), xf[i] = (float) rnd ();
	w64 = fmaxl (w64, check_f64 (n));
	p64 = fmaxl (p64, NF_ULPS_D (plain_f64 (xd, n), reference (n)));
	w32 = fmaxl (w32, check_f32 (n));
	p32 = fmaxl (p32, NF_ULPS_F (plain_f32 (xf, n), reference (n)));
      }
  printf ("nf_nrm2 random: f64 max %.6Lf ulp (plain loop %.4Lf), "
	  "f32 max %.6Lf ulp (plain loop %.4Lf)\n", w64, p64, w32, p32);
  CHECK (w64 <= p64 && w32 <= p32);

  /* n = 0: 0, nothing read.  */
  CHECK (nf_nrm2_f64 (NULL, 0) == 0 && !signbit (nf_nrm2_f64 (NULL, 0)));
  CHECK (nf_nrm2_f32 (NULL, 0) == 0 && nf_sumsq_f32 (NULL, 0) == 0);
  CHECK (nf_nrm2d_f32 (NULL, 0) == 0 && !signbit (nf_nrm2d_f32 (NULL, 0)));
  CHECK (nf_sumsq_f64 (NULL, 0) == 0);

  /* Near the limits, where the plain loop overflows or underflows.  */
  for (size_t i = 0; i < 1000; i++)
    xd[i] = i & 1 ? -1e200 : 1e200;
  CHECK (isinf (plain_f64 (xd, 1000)));
  check_f64 (1000);
  for (size_t i = 0; i < 1000; i++)
    xd[i] = i & 1 ? -1e-200 : 1e-200;
  CHECK (plain_f64 (xd, 1000) == 0);
  check_f64 (1000);
  /* Mixed: huge, tiny, subnormal and ordinary values.  */
  static const double mix[] = { 1e200, 3.0, 1e-200, 0x1p-1074, -1e154,
				DBL_MAX / 4, 1e-310, 0.0, -2.5 };
  memcpy (xd, mix, sizeof mix);
  check_f64 (NF_N (mix));
  xd[0] = DBL_MAX;
  CHECK (nf_nrm2_f64 (xd, 1) == DBL_MAX);
  xd[0] = 0x1p-1074, xd[1] = -0x1p-1074;
  check_f64 (1);
  check_f64 (2);
  xd[0] = DBL_MAX, xd[1] = DBL_MAX; /* The norm itself overflows.  */
  CHECK (isinf (nf_nrm2_f64 (xd, 2)));

  for (size_t i = 0; i < 1000; i++)
    xf[i] = i & 1 ? -1e30f : 1e30f;
  CHECK (isinf (plain_f32 (xf, 1000)));
  check_f32 (1000);
  for (size_t i = 0; i < 1000; i++)
    xf[i] = i & 1 ? -1e-30f : 1e-30f;
  CHECK (plain_f32 (xf, 1000) == 0);
  check_f32 (1000);
  static const float mixf[] = { 1e30f, 3.0f, 1e-30f, 0x1p-149f, FLT_MAX / 4,
				-1e-40f, 0.0f };
  memcpy (xf, mixf, sizeof mixf);
  check_f32 (NF_N (mixf));
  xf[0] = FLT_MAX;
  CHECK (nf_nrm2_f32 (xf, 1) == FLT_MAX);

  /* NaN anywhere gives NaN; else an Inf gives +Inf.  */
  if (NF_SPECIALS)
    {
      static const double a[] = { 1, NAN, INFINITY }, b[] = { 1, INFINITY,
							      -INFINITY };
      static const double c[] = { -INFINITY, 2 }, d[] = { INFINITY, NAN };
      CHECK (isnan (nf_nrm2_f64 (a, 3)) && isnan (nf_nrm2_f64 (d, 2)));
      CHECK (nf_nrm2_f64 (b, 3) == INFINITY && nf_nrm2_f64 (c, 2) == INFINITY);
      CHECK (isnan (nf_sumsq_f64 (a, 3)) && isinf (nf_sumsq_f64 (b, 3)));
      static const float af[] = { 1, NAN, INFINITY }, bf[] = { -INFINITY, 1 };
      CHECK (isnan (nf_nrm2_f32 (af, 3)) && nf_nrm2_f32 (bf, 2) == INFINITY);
      CHECK (isnan (nf_nrm2d_f32 (af, 3)) && nf_nrm2d_f32 (bf, 2) == INFINITY);
    }
  NF_DONE ();
}
