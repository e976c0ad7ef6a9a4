/* Area: runtime, nf_softmax_f32/f64.
   Purpose: against a long double reference of the exact softmax of the
   inputs, on random rows at every n from 0 to 67 and at 100, 255, 256,
   1000, 1024, 2047 to 2049 (the AVX-512 and AVX2 kernels' buffer
   limit), 4096 and 32000, with spreads from 1 to 400 (exps that
   underflow past -104, subnormal results): f32 within 1 ulp (the
   header's 0.5 + 2^-20 + n 2^-29), f64 within 0.5625 ulp (0.5 +
   2^-4); in place (y == x) the same bits as out of place; all-equal
   rows give 1/n; extreme magnitudes (FLT_MAX, -FLT_MAX, 1e30); n = 0
   reads and writes nothing; errno stays 0.  NaN and infinities as the
   loop gives them: the loop itself (llama2.c's, x[0]-seeded, and the
   -INFINITY, -FLT_MAX and fmaxf forms), computed here without
   fast-math, on rows with NaN, +Inf, -Inf among finite values and all
   -Inf: where the loop gives NaN the kernel gives NaN, where it gives 0
   the kernel gives +0 bit for bit (and the seeds all agree), elsewhere
   the 1-ulp bound; and the kernel raises none of INVALID, DIVBYZERO
   and OVERFLOW that the loop does not (on random rows: none of them).  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include <errno.h>
#include <fenv.h>
#include <neuronfuse.h>
#include <stdint.h>

#define MAXN 32000

static uint64_t seed = 0x2545f4914f6cdd1du;

static double
unif (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double) (seed >> 11) * 0x1p-53;
}

/* The loops the kernels replace, in their four seedings: 0 x[0], 1
   -INFINITY, 2 -FLT_MAX, 3 fmaxf from -INFINITY.  Y out of place.  */
static void
loop_f32 (float *y, const float *x, size_t n, int seeding)
{
  float m = seeding == 0 ? x[0] : seeding == 2 ? -FLT_MAX : -INFINITY;
  for (size_t i = 0; i < n; i++)
    m = seeding == 3 ? fmaxf (m, x[i]) : x[i] > m ? x[i] : m;
  float s = 0.0f;
  for (size_t i = 0; i < n; i++)
    {
      y[i] = expf (x[i] - m);
      s += y[i];
    }
  for (size_t i = 0; i < n; i++)
    y[i] /= s;
}

static void
loop_f64 (double *y, const double *x, size_t n)
{
  double m = x[0];
  for (size_t i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  double s = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      y[i] = exp (x[i] - m);
      s += y[i];
    }
  for (size_t i = 0; i < n; i++)
    y[i] /= s;
}

/* The exact softmax of X (N long doubles, finite) into R, in long
   double: x - m as a double-double (exact for doubles), the sum with
   Kahan's compensation.  */
static long double xl[MAXN], rl[MAXN];

static void
reference (size_t n)
{
  long double m = xl[0], s = 0, c = 0;
  for (size_t i = 1; i < n; i++)
    m = xl[i] > m ? xl[i] : m;
  for (size_t i = 0; i < n; i++)
    {
      double xh = (double) xl[i], mh = (double) m;
      double dh = xh - mh, bv = dh - xh;
      double dl = (xh - (dh - bv)) + (-mh - bv);
      rl[i] = dh < -1e4 ? 0 : expl (dh) * (1 + (long double) dl);
      long double yv = rl[i] - c, t = s + yv;
      c = (t - s) - yv;
      s = t;
    }
  for (size_t i = 0; i < n; i++)
    rl[i] /= s;
}

static float xf[MAXN], yf[MAXN], zf[MAXN];
static double xd[MAXN], yd[MAXN], zd[MAXN];

#define F32_BOUND 1.0L
#define F64_BOUND (0.5L + 0x1p-4L)

static long double worst32, worst64;

/* The exceptions that would trap if enabled and must not be new.  */
#define TRAPS (FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW)

/* Check nf_softmax_f32 on XF[0..N-1], out of place and in place.  */
static void
check_f32 (size_t n, const char *what)
{
  for (size_t i = 0; i < n; i++)
    xl[i] = xf[i];
  reference (n);
  feclearexcept (FE_ALL_EXCEPT);
  nf_softmax_f32 (yf, xf, n);
  CHECK (!fetestexcept (TRAPS));
  memcpy (zf, xf, n * sizeof *zf);
  nf_softmax_f32 (zf, zf, n);
  CHECK (memcmp (yf, zf, n * sizeof *zf) == 0);
  for (size_t i = 0; i < n; i++)
    {
      long double e = NF_ULPS_F (yf[i], rl[i]);
      if (e > worst32)
	worst32 = e;
      if (!(e <= F32_BOUND))
	fprintf (stderr, "f32 %s n=%zu i=%zu x=%a: %a want %La, %Lg ulp\n",
		 what, n, i, xf[i], yf[i], rl[i], e);
      CHECK (e <= F32_BOUND);
    }
}

static void
check_f64 (size_t n, const char *what)
{
  for (size_t i = 0; i < n; i++)
    xl[i] = xd[i];
  reference (n);
  feclearexcept (FE_ALL_EXCEPT);
  nf_softmax_f64 (yd, xd, n);
  CHECK (!fetestexcept (TRAPS));
  memcpy (zd, xd, n * sizeof *zd);
  nf_softmax_f64 (zd, zd, n);
  CHECK (memcmp (yd, zd, n * sizeof *zd) == 0);
  for (size_t i = 0; i < n; i++)
    {
      long double e = NF_ULPS_D (yd[i], rl[i]);
      if (e > worst64)
	worst64 = e;
      if (!(e <= F64_BOUND))
	fprintf (stderr, "f64 %s n=%zu i=%zu x=%a: %a want %La, %Lg ulp\n",
		 what, n, i, xd[i], yd[i], rl[i], e);
      CHECK (e <= F64_BOUND);
    }
}

/* Random rows of N elements spread over SPREAD around an offset.  */
static void
random_rows (size_t n, double spread)
{
  double off = (unif () - 0.5) * 100;
  for (size_t i = 0; i < n; i++)
    {
      double v = off + (unif () - 0.5) * spread;
      xf[i] = (float) v;
      xd[i] = v + unif () * 0x1p-30;
    }
  check_f32 (n, "random");
  check_f64 (n, "random");
}

static const size_t sizes[]
  = { 100, 255, 256, 1000, 1024, 2047, 2048, 2049, 4096, 32000 };
static const double spreads[] = { 1, 10, 60, 210, 400 };

/* A special row: the kernel against the loop in every seeding.  The
   seedings agree with each other (NaN as NaN, zeros bit for bit, the
   rest within 4 ulp: the loop's own errors); where the loop gives NaN
   so does the kernel, where it gives 0 the kernel gives +0, and where
   it gives a finite nonzero value the kernel is within the bound of
   the exact softmax (of the finite elements: -Inf ones contribute 0).  */
static void
check_special_f32 (const float *x, size_t n, const char *what)
{
  static float yl[4][64];
  for (int s = 0; s < 4; s++)
    loop_f32 (yl[s], x, n, s);
  memcpy (xf, x, n * sizeof *xf);
  feclearexcept (FE_ALL_EXCEPT);
  loop_f32 (yl[0], x, n, 0);
  int loop_flags = fetestexcept (TRAPS);
  feclearexcept (FE_ALL_EXCEPT);
  errno = 0;
  nf_softmax_f32 (yf, xf, n);
  CHECK (errno == 0);
  if (fetestexcept (TRAPS) & ~loop_flags)
    fprintf (stderr, "special f32 %s: flags %#x, the loop's %#x\n", what,
	     fetestexcept (TRAPS), loop_flags);
  CHECK (!(fetestexcept (TRAPS) & ~loop_flags));
  int finite = 1;
  for (size_t i = 0; i < n; i++)
    finite &= !isnan (x[i]) && x[i] != INFINITY;
  for (size_t i = 0; i < n; i++)
    xl[i] = x[i];
  for (size_t i = 0; finite && i < n; i++)
    if (x[i] != -INFINITY)
      {
	/* The reference takes its max from xl[0]: put a finite one
	   first.  */
	xl[0] = x[i], xl[i] = x[0];
	reference (n);
	long double t = rl[0];
	rl[0] = rl[i], rl[i] = t;
	break;
      }
  for (size_t i = 0; i < n; i++)
    {
      float l = yl[0][i], k = yf[i];
      for (int s = 1; s < 4; s++)
	CHECK (isnan (yl[s][i]) ? isnan (l)
	       : l == 0		? memcmp (&yl[s][i], &l, sizeof l) == 0
				: NF_ULPS_F (yl[s][i], l) <= 4);
      int ok;
      if (isnan (l))
	ok = isnan (k);
      else if (l == 0)
	ok = memcmp (&k, &(float){ 0.0f }, sizeof k) == 0;
      else
	ok = finite && NF_ULPS_F (k, rl[i]) <= F32_BOUND;
      if (!ok)
	fprintf (stderr, "special f32 %s i=%zu x=%a: kernel %a, loop %a\n",
		 what, i, x[i], k, l);
      CHECK (ok);
    }
}

static void
check_special_f64 (const double *x, size_t n, const char *what)
{
  static double yl[64];
  memcpy (xd, x, n * sizeof *xd);
  feclearexcept (FE_ALL_EXCEPT);
  loop_f64 (yl, x, n);
  int loop_flags = fetestexcept (TRAPS);
  feclearexcept (FE_ALL_EXCEPT);
  errno = 0;
  nf_softmax_f64 (yd, xd, n);
  CHECK (errno == 0);
  if (fetestexcept (TRAPS) & ~loop_flags)
    fprintf (stderr, "special f64 %s: flags %#x, the loop's %#x\n", what,
	     fetestexcept (TRAPS), loop_flags);
  CHECK (!(fetestexcept (TRAPS) & ~loop_flags));
  for (size_t i = 0; i < n; i++)
    {
      int ok = isnan (yl[i]) ? isnan (yd[i])
	       : yl[i] == 0
		 ? memcmp (&yd[i], &(double){ 0.0 }, sizeof (double)) == 0
		 : yd[i] > 0 && yd[i] <= 1;
      if (!ok)
	fprintf (stderr, "special f64 %s i=%zu x=%a: kernel %a, loop %a\n",
		 what, i, x[i], yd[i], yl[i]);
      CHECK (ok);
    }
}

#define SPECIAL(...)                                                           \
  do                                                                           \
    {                                                                          \
      static const float xs_[] = { __VA_ARGS__ };                              \
      static const double xds_[] = { __VA_ARGS__ };                            \
      check_special_f32 (xs_, NF_N (xs_), #__VA_ARGS__);                       \
      check_special_f64 (xds_, NF_N (xds_), #__VA_ARGS__);                     \
    }                                                                          \
  while (0)

static void
specials (void)
{
  const float inf = INFINITY, nan = NAN;
  (void) inf, (void) nan;
  SPECIAL (1, 2, NAN, 3);
  SPECIAL (NAN, 1, 2, 3);
  SPECIAL (1, 2, 3, NAN);
  SPECIAL (NAN);
  SPECIAL (1, INFINITY, 2);
  SPECIAL (INFINITY, INFINITY);
  SPECIAL (-INFINITY, 1, INFINITY);
  SPECIAL (-INFINITY, 1, -INFINITY, 2, -INFINITY);
  SPECIAL (1, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
	   -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
	   -INFINITY, -INFINITY, -INFINITY, -INFINITY, 0.5);
  SPECIAL (-INFINITY);
  SPECIAL (-INFINITY, -INFINITY, -INFINITY);
  SPECIAL (-INFINITY, -FLT_MAX, -INFINITY);
  SPECIAL (NAN, INFINITY, -INFINITY);
  SPECIAL (FLT_MAX, -FLT_MAX, 0, 1);
  SPECIAL (FLT_MAX, FLT_MAX, 1e30, -1e30);
  SPECIAL (-FLT_MAX, -FLT_MAX);
  {
    static const double big[] = { DBL_MAX, -DBL_MAX, 0, -INFINITY, 1 };
    check_special_f64 (big, NF_N (big), "DBL_MAX, -DBL_MAX, 0, -Inf, 1");
  }
  SPECIAL (0, -90, -100, -103, -103.9, -104, -110, -150, -1e10);
  SPECIAL (-0.0, 0.0, -0.0);
  SPECIAL (0x1p-149, -0x1p-149, 0);
  /* A row longer than a vector with a NaN and a -Inf in the tail.  */
  SPECIAL (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	   20, 21, 22, 23, -INFINITY, NAN);
}

int
main (void)
{
  nf_check_isa ();
  errno = 0;

  /* n = 0: nothing read or written.  */
  nf_softmax_f32 (NULL, NULL, 0);
  nf_softmax_f64 (NULL, NULL, 0);

  for (size_t n = 1; n <= 67; n++)
    for (size_t s = 0; s < NF_N (spreads); s++)
      random_rows (n, spreads[s]);
  for (size_t k = 0; k < NF_N (sizes); k++)
    for (size_t s = 0; s < NF_N (spreads); s++)
      random_rows (sizes[k], spreads[s]);

  /* All equal: 1/n, however large the value.  */
  static const float eq[] = { 0, 1, -3.5f, 1e30f, -1e30f, FLT_MAX, 0x1p-149f };
  for (size_t k = 0; k < NF_N (eq); k++)
    for (size_t n = 1; n <= 1024; n = n * 3 + 1)
      {
	for (size_t i = 0; i < n; i++)
	  xf[i] = eq[k], xd[i] = eq[k];
	check_f32 (n, "equal");
	check_f64 (n, "equal");
	CHECK (yf[0] == (float) (1.0L / n) && yd[n - 1] == (double) (1.0L / n));
      }

  /* Subnormal and underflowing results: one 0 and the rest from -80 to
     -110 in small steps (f32), -700 to -760 (f64).  */
  for (size_t i = 0; i < 4000; i++)
    {
      xf[i] = i == 0 ? 0 : -80.0f - 30.0f * i / 4000;
      xd[i] = i == 0 ? 0 : -700.0 - 60.0 * i / 4000;
    }
  check_f32 (4000, "subnormal");
  check_f64 (4000, "subnormal");
  /* Large magnitudes with small differences: x - m exact.  */
  for (size_t i = 0; i < 300; i++)
    {
      xf[i] = 1e7f + (float) i;
      xd[i] = 1e15 + (double) i / 16;
    }
  check_f32 (300, "large");
  check_f64 (300, "large");

  CHECK (errno == 0);
  specials ();
  printf ("nf_softmax_f32: max %.6Lf ulp; nf_softmax_f64: max %.6Lf ulp (%s)\n",
	  worst32, worst64, nf_runtime_isa ());
  NF_DONE ();
}
