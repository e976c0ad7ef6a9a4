/* Area: runtime, nf_expf / nf_expm1f / nf_log1pf (scalar).
   Purpose: within a bit of the array kernels over 2^16 bit patterns
   spread over all floats, and within 0.5 ulp + 2^-20 ulp of MPFR there
   (the scalar functions are computed differently, runtime/scalarf.c);
   the special values (+-0, NaN, +-Inf, the overflow boundary, -1
   and below, subnormals) and errno as glibc's expm1f and log1pf set
   it.  Called through volatile pointers: this test is about the scalar
   functions, not their vector clones (simd-loop.c).  */
/* { dg-do run } */
#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <errno.h>
#include <neuronfuse.h>
#include <stdint.h>

#define N 65536

static float x[N], ya[N];
static float (*volatile expf_p) (float) = nf_expf;
static float (*volatile expm1f_p) (float) = nf_expm1f;
static float (*volatile log1pf_p) (float) = nf_log1pf;

/* Bits of F.  */
static uint32_t
bits (float f)
{
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  return u;
}

/* F (X) is WANT, sign of zero included (any NaN for a NaN), and errno is
   then ERR.  */
static void
check1 (float (*f) (float), float xv, float want, int err, int line)
{
  errno = 0;
  float got = f (xv);
  int e = errno;
  int ok = isnan (want) ? isnan (got)
			: got == want && !!signbit (got) == !!signbit (want);
  if (!ok || e != err)
    {
      fprintf (stderr, "line %d: f(%a) = %a errno %d, want %a errno %d\n",
	       line, xv, got, e, want, err);
      nf_failures++;
    }
}
#define CHECK1(f, xv, want, err) check1 (f, xv, want, err, __LINE__)

/* Whether A and B are both NaN or differ at most in the last bit.  */
static int
near1 (float a, float b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  int32_t ia, ib;
  memcpy (&ia, &a, sizeof ia);
  memcpy (&ib, &b, sizeof ib);
  return (ia ^ ib) >= 0 && ia - ib <= 1 && ib - ia <= 1;
}

/* Y = F (X) is within 0.5 ulp + 2^-20 ulp of MPFR's FN (finite
   results).  */
static int
accurate (int (*fn) (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), float xv, float y)
{
  if (!isfinite (y) || y == -1.0f || y == 0.0f)
    return 1;
  return NF_ULPS_F (y, nf_mpfr_ref (fn, xv, 64)) <= 0.5L + 0x1p-20L;
}

int
main (void)
{
  nf_check_isa ();
  for (uint32_t i = 0; i < N; i++)
    {
      uint32_t b = i * 65537u;
      memcpy (&x[i], &b, sizeof b);
    }
  /* The array kernels' bits, NaN included; no errno for the finite
     results.  */
  nf_expm1_f32 (ya, x, N);
  for (uint32_t i = 0; i < N; i++)
    {
      errno = 0;
      float y = expm1f_p (x[i]);
      if (!near1 (y, ya[i]))
	fprintf (stderr, "expm1f (%a) = %a, kernel %a\n", x[i], y, ya[i]);
      CHECK (near1 (y, ya[i]));
      CHECK (accurate (mpfr_expm1, x[i], y));
      CHECK (errno == 0 || (isinf (y) && !isinf (x[i])));
    }
  nf_log1p_f32 (ya, x, N);
  for (uint32_t i = 0; i < N; i++)
    {
      errno = 0;
      float y = log1pf_p (x[i]);
      if (!near1 (y, ya[i]))
	fprintf (stderr, "log1pf (%a) = %a, kernel %a\n", x[i], y, ya[i]);
      CHECK (near1 (y, ya[i]));
      CHECK (accurate (mpfr_log1p, x[i], y));
      CHECK (errno == 0 || x[i] <= -1.0f);
    }

  /* Against MPFR near 0, 1 and the ends of the ranges.  */
  static const float acc[] = { 0x1p-20f, -0x1p-20f, 0.5f, -0.5f, 1.0f,
			       0x1.62e42ep+6f, -16.0f, 0x1.fffffep127f,
			       -0x1.fffffep-1f, 3.0f };
  for (size_t i = 0; i < NF_N (acc); i++)
    {
      if (fabsf (acc[i]) < 89.0f)
	CHECK (NF_ULPS_F (expm1f_p (acc[i]),
			  nf_mpfr_ref (mpfr_expm1, acc[i], 64))
	       <= 0.5L + 0x1p-20L);
      CHECK (NF_ULPS_F (log1pf_p (acc[i]), nf_mpfr_ref (mpfr_log1p, acc[i], 64))
	     <= 0.5L + 0x1p-20L);
    }

  /* expm1f: specials, the overflow boundary, subnormals.  */
  float inf = INFINITY, nan = NAN, tiny = 0x1p-149f, sub = 0x1.8p-130f;
  CHECK1 (expm1f_p, 0.0f, 0.0f, 0);
  CHECK1 (expm1f_p, -0.0f, -0.0f, 0);
  CHECK1 (expm1f_p, nan, nan, 0);
  CHECK1 (expm1f_p, -nan, nan, 0);
  CHECK1 (expm1f_p, inf, inf, 0);
  CHECK1 (expm1f_p, -inf, -1.0f, 0);
  CHECK1 (expm1f_p, -100.0f, -1.0f, 0);
  CHECK1 (expm1f_p, -0x1p100f, -1.0f, 0);
  CHECK1 (expm1f_p, tiny, tiny, 0);
  CHECK1 (expm1f_p, -tiny, -tiny, 0);
  CHECK1 (expm1f_p, sub, sub, 0);
  CHECK1 (expm1f_p, -sub, -sub, 0);
  CHECK1 (expm1f_p, 0x1p-60f, 0x1p-60f, 0);
  CHECK1 (expm1f_p, 0x1.62e42ep+6f, 0x1.ffff08p+127f, 0); /* Rounded MPFR.  */
  CHECK1 (expm1f_p, 0x1.62e43p+6f, inf, ERANGE);
  CHECK1 (expm1f_p, 100.0f, inf, ERANGE);
  CHECK1 (expm1f_p, 0x1.fffffep127f, inf, ERANGE);

  /* log1pf: specials, -1 and below, subnormals.  */
  CHECK1 (log1pf_p, 0.0f, 0.0f, 0);
  CHECK1 (log1pf_p, -0.0f, -0.0f, 0);
  CHECK1 (log1pf_p, nan, nan, 0);
  CHECK1 (log1pf_p, -nan, nan, 0);
  CHECK1 (log1pf_p, inf, inf, 0);
  CHECK1 (log1pf_p, -inf, nan, EDOM);
  CHECK1 (log1pf_p, -1.0f, -inf, ERANGE);
  CHECK1 (log1pf_p, -0x1.000002p+0f, nan, EDOM);
  CHECK1 (log1pf_p, -2.0f, nan, EDOM);
  CHECK1 (log1pf_p, -0x1.fffffep127f, nan, EDOM);
  CHECK1 (log1pf_p, -0x1.fffffep-1f, (float) log1p (-0x1.fffffep-1), 0);
  CHECK1 (log1pf_p, tiny, tiny, 0);
  CHECK1 (log1pf_p, -tiny, -tiny, 0);
  CHECK1 (log1pf_p, sub, sub, 0);
  CHECK1 (log1pf_p, -sub, -sub, 0);
  CHECK1 (log1pf_p, 0x1.fffffep127f, 0x1.62e43p+6f, 0);

  /* expf: MPFR over the same patterns; specials, both ends, errno.  */
  for (uint32_t i = 0; i < N; i++)
    {
      errno = 0;
      float y = expf_p (x[i]);
      int bad = !accurate (mpfr_exp, x[i], y);
      if (bad)
	fprintf (stderr, "expf (%a) = %a\n", x[i], y);
      CHECK (!bad);
    }
  CHECK1 (expf_p, 0.0f, 1.0f, 0);
  CHECK1 (expf_p, -0.0f, 1.0f, 0);
  CHECK1 (expf_p, nan, nan, 0);
  CHECK1 (expf_p, inf, inf, 0);
  CHECK1 (expf_p, -inf, 0.0f, 0);
  CHECK1 (expf_p, 0x1.62e42ep+6f, 0x1.ffff08p+127f, 0); /* Rounded MPFR.  */
  CHECK1 (expf_p, 0x1.62e43p+6f, inf, ERANGE);
  CHECK1 (expf_p, 0x1.fffffep127f, inf, ERANGE);
  CHECK1 (expf_p, -0x1.9d1d9ep6f, 0x1p-149f, 0);
  CHECK1 (expf_p, -0x1.9d1dap+6f, 0x1p-149f, ERANGE);
  CHECK1 (expf_p, -104.0f, 0.0f, ERANGE);
  CHECK1 (expf_p, -0x1.fffffep127f, 0.0f, ERANGE);
  CHECK1 (expf_p, -100.0f, (float) exp (-100.0), 0);

  /* As glibc's, wherever glibc's are exact enough to agree.  */
  static const float sp[] = { 0.0f, -0.0f, INFINITY, -INFINITY, -1.0f,
			      -2.0f, 0x1.62e43p+6f, 0x1p-149f, 1e-30f };
  for (size_t i = 0; i < NF_N (sp); i++)
    {
      errno = 0;
      float w = expm1f (sp[i]);
      int we = errno;
      CHECK1 (expm1f_p, sp[i], w, we);
      errno = 0;
      w = log1pf (sp[i]);
      we = errno;
      CHECK1 (log1pf_p, sp[i], w, we);
    }
  static const float spe[] = { 0.0f,	  -0.0f,	  INFINITY,
			       -INFINITY, 0x1.62e43p+6f,  -0x1.9d1d9ep6f,
			       -0x1.9d1dap+6f, -0x1.9fe368p6f, -104.0f,
			       -87.0f,	  0x1p-149f,	  1e-30f };
  for (size_t i = 0; i < NF_N (spe); i++)
    {
      errno = 0;
      float w = expf (spe[i]);
      int we = errno;
      CHECK1 (expf_p, spe[i], w, we);
    }
  NF_DONE ();
}
