/* Area: runtime, nf_dist_f32/f64/d_f32 and nf_rms_f32/f64/d_f32.
   Purpose: against MPFR (512 bits, rounded once to long double) for n in
   {0, 1, 2, 3, 7, 15, 16, 17, 31, 100, 1000, 4099}, A and B at
   different misalignments, B NULL and not: f32 within 0.5 ulp + 2^-16,
   f64 and _d_f32 within 0.5 ulp + 2^-9, and each result no worse than
   the plain loop's in the result's type (beyond 2^-16 resp. 2^-9 ulp,
   the room for the rare result near a midpoint); against the generic
   kernel's arithmetic (a model here): its bits on the generic tier,
   within 1 ulp on the vector ones.  n = 0 gives a distance of 0 and an
   RMS NaN.  Where the plain loop overflows or underflows (f32 1e30 and
   1e-30, f64 1e200, 1e-200 and a difference past DBL_MAX) the results
   are right; exponents far apart; NaN and Inf as the plain loop gives
   them.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 4099

static uint64_t seed = 0x6a09e667f3bcc909u;

/* A random double in +-[0.5, 1) 2^[-6, 6].  */
static double
rnd (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  double m = (double) (seed >> 11) * 0x1p-53;
  return ldexp ((0.5 + m / 2) * ((seed >> 3) & 1 ? -1 : 1),
		(int) (seed % 13) - 6);
}

/* sqrt (sum ((A[i] - B[i])^2) / (RMS ? N : 1)), B NULL for zeros, in
   512-bit MPFR rounded once to long double.  */
static long double
reference (const long double *a, const long double *b, size_t n, int rms)
{
  mpfr_t s, t, u;
  mpfr_inits2 (512, s, t, u, (mpfr_ptr) 0);
  mpfr_set_zero (s, 1);
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_ld (t, a[i], MPFR_RNDN);
      mpfr_set_ld (u, b ? b[i] : 0.0L, MPFR_RNDN);
      mpfr_sub (t, t, u, MPFR_RNDN);
      mpfr_sqr (t, t, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
    }
  if (rms)
    mpfr_div_ui (s, s, n, MPFR_RNDN);
  mpfr_sqrt (s, s, MPFR_RNDN);
  long double r = mpfr_get_ld (s, MPFR_RNDN);
  mpfr_clears (s, t, u, (mpfr_ptr) 0);
  return n == 0 && rms ? NAN : r;
}

/* The plain loops the kernels replace, in the result's type; B NULL
   for zeros.  PLAIN_D: float data summed in double.  */
static float
plain_f32 (const float *a, const float *b, size_t n, int rms)
{
  float s = 0;
  for (size_t i = 0; i < n; i++)
    s += (a[i] - (b ? b[i] : 0)) * (a[i] - (b ? b[i] : 0));
  return sqrtf (rms ? s / n : s);
}

static double
plain_d (const float *a, const float *b, size_t n, int rms)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    {
      double d = (double) a[i] - (b ? b[i] : 0);
      s += d * d;
    }
  return sqrt (rms ? s / n : s);
}

static double
plain_f64 (const double *a, const double *b, size_t n, int rms)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (a[i] - (b ? b[i] : 0)) * (a[i] - (b ? b[i] : 0));
  return sqrt (rms ? s / n : s);
}

/* The generic kernels' arithmetic: f32 a double sum in order, _d_f32
   and f64 long double differences and squares with Neumaier's sum.  */
static float
model_f32 (const float *a, const float *b, size_t n, int rms)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    {
      double d = b ? (double) a[i] - b[i] : a[i];
      s += d * d;
    }
  return (float) sqrt (rms ? s / (double) n : s);
}

#define MODEL_LD(T)                                                            \
  static double model_ld_##T (const T *a, const T *b, size_t n, int rms)      \
  {                                                                            \
    long double s = 0, c = 0;                                                  \
    for (size_t i = 0; i < n; i++)                                             \
      {                                                                        \
	long double d = (long double) a[i] - (b ? b[i] : 0), v = d * d;        \
	long double t = s + v;                                                 \
	c += s >= v ? (s - t) + v : (v - t) + s;                               \
	s = t;                                                                 \
      }                                                                        \
    if (isfinite (s))                                                          \
      s += c;                                                                  \
    return (double) sqrtl (rms ? s / (long double) n : s);                     \
  }
MODEL_LD (float)
MODEL_LD (double)

static float af[MAXN + 4], bf[MAXN + 4];
static double ad[MAXN + 4], bd[MAXN + 4];
static long double al[MAXN], bl[MAXN];
static long double worst[6], worst_plain[6];

#define F32_BOUND (0.5L + 0x1p-16L)
#define F64_BOUND (0.5L + 0x1p-9L)

/* Check GOT (of function K: 0..5) against REF, the plain loop's PLAIN
   and the model's MODEL, in ULPS of its type; BOUND its bound.  */
#define CHECK_ONE(k, ULPS, got, ref, plain, model, bound, n, hasb)             \
  do                                                                           \
    {                                                                          \
      /* An exact result past the type's range must give Inf.  */             \
      long double r_ = isinf ((__typeof__ (got)) (ref))                        \
			 ? (long double) (__typeof__ (got)) (ref) : (ref);     \
      long double e_ = ULPS (got, r_), ep_ = ULPS (plain, r_);                 \
      long double em_ = ULPS (got, model);                                     \
      int same_ = memcmp (&(__typeof__ (got)){ got },                          \
			  &(__typeof__ (got)){ model }, sizeof (got)) == 0     \
		  || (isnan (got) && isnan (model));                           \
      if (!(e_ <= (bound) && e_ <= ep_ + ((bound) - 0.5L)))                   \
	fprintf (stderr, "%d n=%zu b=%d: %La want %La: %Lg ulp, plain %Lg\n", \
		 k, (size_t) (n), hasb, (long double) (got), ref, e_, ep_);    \
      CHECK (e_ <= (bound) && e_ <= ep_ + ((bound) - 0.5L));                  \
      if (NF_ISA_GENERIC)                                                      \
	CHECK (same_);                                                         \
      else                                                                     \
	CHECK (em_ <= 1);                                                      \
      if (!isinf (e_))                                                         \
	worst[k] = fmaxl (worst[k], e_);                                       \
      if (!isinf (ep_))                                                        \
	worst_plain[k] = fmaxl (worst_plain[k], ep_);                          \
    }                                                                          \
  while (0)

#ifdef NF_ISA_generic
#define NF_ISA_GENERIC 1
#else
#define NF_ISA_GENERIC 0
#endif

/* All six functions on A + OA and B + OB (B too unless !HASB), N
   elements already in AF/BF and AD/BD at those offsets.  */
static void
check_all (size_t n, size_t oa, size_t ob, int hasb)
{
  const float *pa = af + oa, *pb = hasb ? bf + ob : NULL;
  const double *qa = ad + oa, *qb = hasb ? bd + ob : NULL;
  for (int rms = 0; rms < 2; rms++)
    {
      for (size_t i = 0; i < n; i++)
	al[i] = pa[i], bl[i] = hasb ? pb[i] : 0;
      long double ref = reference (al, bl, n, rms);
      float g = rms ? nf_rms_f32 (pa, pb, n) : nf_dist_f32 (pa, pb, n);
      CHECK_ONE (rms, NF_ULPS_F, g, ref, plain_f32 (pa, pb, n, rms),
		 model_f32 (pa, pb, n, rms), F32_BOUND, n, hasb);
      double gd = rms ? nf_rms_d_f32 (pa, pb, n) : nf_dist_d_f32 (pa, pb, n);
      CHECK_ONE (2 + rms, NF_ULPS_D, gd, ref, plain_d (pa, pb, n, rms),
		 model_ld_float (pa, pb, n, rms), F64_BOUND, n, hasb);
      for (size_t i = 0; i < n; i++)
	al[i] = qa[i], bl[i] = hasb ? qb[i] : 0;
      ref = reference (al, bl, n, rms);
      double g6 = rms ? nf_rms_f64 (qa, qb, n) : nf_dist_f64 (qa, qb, n);
      CHECK_ONE (4 + rms, NF_ULPS_D, g6, ref, plain_f64 (qa, qb, n, rms),
		 model_ld_double (qa, qb, n, rms), F64_BOUND, n, hasb);
    }
}

int
main (void)
{
  nf_check_isa ();
  static const size_t ns[] = { 0, 1, 2, 3, 7, 15, 16, 17, 31, 100, 1000,
			       MAXN };
  for (int rep = 0; rep < 4; rep++)
    for (size_t k = 0; k < NF_N (ns); k++)
      {
	size_t n = ns[k], oa = rep, ob = (rep * 3 + 1) % 4;
	for (size_t i = 0; i < n; i++)
	  {
	    af[oa + i] = (float) rnd (), bf[ob + i] = (float) rnd ();
	    ad[oa + i] = rnd (), bd[ob + i] = rnd ();
	  }
	check_all (n, oa, ob, 1);
	check_all (n, oa, ob, 0);
      }
  static const char *const names[] = { "dist_f32", "rms_f32", "dist_d_f32",
				       "rms_d_f32", "dist_f64", "rms_f64" };
  for (int k = 0; k < 6; k++)
    printf ("nf_%s: max %.7Lf ulp (plain loop %.4Lf)\n", names[k], worst[k],
	    worst_plain[k]);

  /* n = 0: distance 0, RMS NaN; nothing read.  */
  CHECK (nf_dist_f32 (NULL, NULL, 0) == 0 && nf_dist_f64 (NULL, NULL, 0) == 0);
  CHECK (nf_dist_d_f32 (NULL, NULL, 0) == 0);
  CHECK (isnan (nf_rms_f32 (NULL, NULL, 0)) && isnan (nf_rms_f64 (NULL, NULL, 0)));
  CHECK (isnan (nf_rms_d_f32 (NULL, NULL, 0)));

  /* Near the limits, where the plain loops overflow or underflow; the
     differences of values far apart in exponent.  */
  for (size_t i = 0; i < 1000; i++)
    {
      af[i] = i & 1 ? -1e30f : 2e30f, bf[i] = i & 2 ? 1e30f : -3e29f;
      ad[i] = i & 1 ? -1e200 : 2e200, bd[i] = i & 2 ? 1e200 : -3e199;
    }
  CHECK (isinf (plain_f32 (af, bf, 1000, 0)) && isinf (plain_f64 (ad, bd, 1000, 0)));
  check_all (1000, 0, 0, 1);
  for (size_t i = 0; i < 1000; i++)
    {
      af[i] = ldexpf (af[i], -199), bf[i] = ldexpf (bf[i], -199); /* 1e-30 */
      ad[i] = ldexp (ad[i], -1329), bd[i] = ldexp (bd[i], -1329); /* 1e-200 */
    }
  CHECK (plain_f32 (af, bf, 1000, 0) == 0 && plain_f64 (ad, bd, 1000, 0) == 0);
  check_all (1000, 0, 0, 1);
  static const double mixd[][2] = { { DBL_MAX * 0.75, -DBL_MAX * 0.75 },
				    { 1.0, 0x1p-1074 },
				    { 0x1p-1022, -0x1p-1074 },
				    { 1e300, 1e-300 },
				    { 0.0, 0.0 },
				    { 3.0, 3.0 + 0x1p-51 } };
  static const float mixf[][2] = { { FLT_MAX, -FLT_MAX },
				   { 1.0f, 1e-20f },
				   { 0x1p-149f, -0x1p-126f },
				   { 1e30f, 1e-30f },
				   { 0.0f, -0.0f },
				   { 3.0f, 3.0f + 0x1p-22f } };
  for (size_t i = 0; i < NF_N (mixd); i++)
    {
      ad[i] = mixd[i][0], bd[i] = mixd[i][1];
      af[i] = mixf[i][0], bf[i] = mixf[i][1];
    }
  check_all (NF_N (mixd), 0, 0, 1);
  check_all (NF_N (mixd), 0, 0, 0);
  /* One difference past DBL_MAX among zeros: the RMS of 4 is 0.75
     DBL_MAX, which the plain loop overflows.  */
  ad[1] = ad[2] = ad[3] = bd[1] = bd[2] = bd[3] = 0;
  CHECK (isinf (plain_f64 (ad, bd, 4, 1)));
  CHECK (nf_rms_f64 (ad, bd, 4) == DBL_MAX * 0.75);
  CHECK (isinf (nf_dist_f64 (ad, bd, 1)) && isinf (nf_rms_f64 (ad, bd, 1)));

  /* NaN anywhere gives NaN (Inf - Inf too); else an Inf gives Inf.  */
  if (NF_SPECIALS)
    for (size_t n = 1; n <= 40; n += 13)
      for (int kind = 0; kind < 4; kind++)
	{
	  for (size_t i = 0; i < n; i++)
	    af[i] = bf[i] = (float) (ad[i] = bd[i] = rnd ());
	  size_t at = n / 2;
	  double va = kind == 0 ? NAN : INFINITY;
	  double vb = kind == 1 ? NAN : kind == 2 ? INFINITY : -INFINITY;
	  ad[at] = va, af[at] = (float) va;
	  if (kind)
	    bd[at] = vb, bf[at] = (float) vb;
	  int want_nan = kind < 3; /* NaN; NaN; Inf - Inf; Inf - -Inf.  */
	  float f[] = { nf_dist_f32 (af, bf, n), nf_rms_f32 (af, bf, n) };
	  double d[] = { nf_dist_d_f32 (af, bf, n), nf_rms_d_f32 (af, bf, n),
			 nf_dist_f64 (ad, bd, n), nf_rms_f64 (ad, bd, n) };
	  for (int j = 0; j < 2; j++)
	    CHECK (want_nan ? isnan (f[j]) : f[j] == INFINITY);
	  for (int j = 0; j < 4; j++)
	    CHECK (want_nan ? isnan (d[j]) : d[j] == INFINITY);
	  CHECK (!!isnan (plain_f32 (af, bf, n, 0)) == want_nan);
	  CHECK (!!isnan (plain_f64 (ad, bd, n, 1)) == want_nan);
	  /* B NULL: A's NaN is NaN, its Inf Inf.  */
	  CHECK (kind == 0 ? isnan (nf_dist_f32 (af, NULL, n))
			   : nf_dist_f32 (af, NULL, n) == INFINITY);
	  CHECK (kind == 0 ? isnan (nf_rms_f64 (ad, NULL, n))
			   : nf_rms_f64 (ad, NULL, n) == INFINITY);
	}
  NF_DONE ();
}
