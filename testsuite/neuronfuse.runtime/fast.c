/* Area: runtime, nf_expm1_fast_f32 / nf_log1p_fast_f32 and the scalar
   nf_expm1f_fast / nf_log1pf_fast (the -funsafe-math-optimizations
   variants, neuronfuse.h).
   Purpose: within 1 ulp of MPFR over 2^16 bit patterns spread over all
   floats and 2^17 random inputs where the algorithms switch (cells,
   buckets, the slow path's range); special values, signed zeros and
   overflow as libm's expm1f / log1pf give them; a lane's result does not
   depend on the vector it shares (the slow path gives the fast path's
   bits); n = 0 writes nothing; in place works.  Tails and alignment are
   in tails.c.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <float.h>
#include <neuronfuse.h>
#include <stdint.h>

#define N 65536
#define NR 131072

typedef void kern (float *, const float *, size_t);
typedef float scal (float);
typedef int mpfr_fn (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

static float x[NR], y[NR], ya[NR];

static uint64_t seed = 0x2545f4914f6cdd1du;

/* A random float in [LO, HI).  */
static float
rnd (float lo, float hi)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return lo + (hi - lo) * (float) ((double) (seed >> 40) * 0x1p-24);
}

/* Check Y[i] = F (X[i]) for i < N within 1 ulp, specials exactly (libm's
   LIBMF decides NaN, infinities and zeros, their signs included).
   Returns the largest error.  */
static long double
check (const char *name, const float *xs, const float *ys, size_t n, mpfr_fn *f,
       float (*libmf) (float))
{
  long double worst = 0;
  for (size_t i = 0; i < n; i++)
    {
      float want = libmf (xs[i]);
      long double cr = nf_mpfr_ref (f, xs[i], 24);
      if (isnan (want) || isinf ((float) cr) || cr == 0)
	{
	  if (!((isnan (want) && isnan (ys[i]))
		|| (ys[i] == (float) cr
		    && !!signbit (ys[i]) == !!signbit (want))))
	    fprintf (stderr, "%s x=%a: %a, want %a\n", name, xs[i], ys[i],
		     (double) want);
	  CHECK (
	    (isnan (want) && isnan (ys[i]))
	    || (ys[i] == (float) cr && !!signbit (ys[i]) == !!signbit (want)));
	  continue;
	}
      long double e = NF_ULPS_F (ys[i], nf_mpfr_ref (f, xs[i], 64));
      if (e > worst)
	worst = e;
      if (!(e <= 1.0L))
	fprintf (stderr, "%s x=%a: %a, %Lg ulp\n", name, xs[i], ys[i], e);
      CHECK (e <= 1.0L);
    }
  return worst;
}

static void
test (const char *name, kern *k, scal *sc, mpfr_fn *f, float (*libmf) (float),
      float lo, float hi)
{
  /* Bit patterns i * 65537: every exponent and sign, NaNs included.  */
  for (uint32_t i = 0; i < N; i++)
    {
      uint32_t bits = i * 65537u;
      memcpy (&x[i], &bits, sizeof x[i]);
    }
  k (y, x, N);
  long double w1 = check (name, x, y, N, f, libmf);

  /* Random inputs over [LO, HI), where the table cells and the slow
     path's bounds are; a lane's bits must not depend on its neighbours
     (each one again alone).  */
  for (size_t i = 0; i < NR; i++)
    x[i] = rnd (lo, hi);
  k (y, x, NR);
  long double w2 = check (name, x, y, NR, f, libmf);
  for (size_t i = 0; i < NR; i += 7)
    {
      k (ya + i, x + i, 1);
      CHECK (memcmp (&ya[i], &y[i], sizeof y[i]) == 0);
    }
  printf ("%s: max %.4Lf ulp over %d bit patterns, %.4Lf over %d in [%g, "
	  "%g)\n",
	  name, w1, N, w2, NR, lo, hi);

  /* Special values, one vector each way: specials among ordinary
     numbers and alone.  */
  static const float sp[]
    = { 0.0f,	    -0.0f,    INFINITY,	   -INFINITY, NAN,	-NAN,
	-1.0f,	    -2.0f,    88.72f,	   88.73f,    89.0f,	-17.0f,
	-103.0f,    FLT_MAX,  -FLT_MAX,	   FLT_MIN,   -FLT_MIN, 0x1p-149f,
	-0x1p-149f, 1e-30f,   16.5f,	   16.51f,    -11.7f,	-11.71f,
	0x1p125f,   0x1p127f, -0.9999999f, 0.5f };
  float ys[NF_N (sp)];
  k (ys, sp, NF_N (sp));
  check (name, sp, ys, NF_N (sp), f, libmf);
  for (size_t i = 0; i < NF_N (sp); i++)
    k (ys + i, sp + i, 1); /* Alone in its vector.  */
  check (name, sp, ys, NF_N (sp), f, libmf);

  /* The scalar entry point: the same bounds.  */
  for (size_t i = 0; i < NF_N (sp); i++)
    ys[i] = sc (sp[i]);
  check (name, sp, ys, NF_N (sp), f, libmf);
  for (size_t i = 0; i < 4096; i++)
    y[i] = sc (x[i]);
  check (name, x, y, 4096, f, libmf);

  /* n = 0 writes nothing; in place (y == x) is allowed.  */
  y[0] = 42.0f;
  k (y, x, 0);
  CHECK (y[0] == 42.0f);
  memcpy (ya, x, 100 * sizeof *x);
  k (ya, ya, 100);
  k (y, x, 100);
  CHECK (memcmp (y, ya, 100 * sizeof *y) == 0);
}

int
main (void)
{
  nf_check_isa ();
  test ("nf_expm1_fast_f32", nf_expm1_fast_f32, nf_expm1f_fast, mpfr_expm1,
	expm1f, -30.0f, 100.0f);
  test ("nf_log1p_fast_f32", nf_log1p_fast_f32, nf_log1pf_fast, mpfr_log1p,
	log1pf, -1.0f, 3.0f);
  NF_DONE ();
}
