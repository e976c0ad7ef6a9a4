/* kernel-check.h: the test of one elementwise kernel pair, included by
   a .c file that defines
     NF_NAME    "nf_expm1"          the kernels' name, for messages
     NF_F32     nf_expm1_f32        the kernels under test
     NF_F64     nf_expm1_f64
     NF_F32_PZ  nf_expm1_pz_f32     the same with +0 for -0
     NF_F64_PZ  nf_expm1_pz_f64
     NF_MPFR    mpfr_expm1          the correctly rounded reference
     NF_LIBM    expm1               libm's function, for special values
     NF_DOMAIN(x)                   maps a random double into the domain
   Against MPFR: f32 over a sweep of 2^16 bit patterns spread over all
   floats and f64 over 10^5 random inputs across the exponent range; f32
   within 0.5 ulp + 2^-20 (it rounds a double result once), f64 within
   1 ulp; special values as libm gives them; n = 0 writes nothing; y == x
   in place works; the _pz kernels give the same bits except +0 for
   -0.  */

#include "nf-test.h"
#include "isa.h"
#include "nf-mpfr.h"
#include <neuronfuse.h>
#include <stdint.h>

#define N32 65536
#define N64 100000

/* Correctly rounded NF_NAME of X in a format of PREC bits.  */
#define ref(x, prec) nf_mpfr_ref (NF_MPFR, (x), (prec))

/* Exact value as long double (64 bits: plenty to measure ulps).  */
#define exact(x) ref ((x), 64)

static float xf[N32], yf[N32];
static double xd[N64], yd[N64];

int
main (void)
{
  nf_check_isa ();
  /* f32: bit patterns i * 65537 cover every exponent and sign.  */
  size_t n = 0;
  for (uint32_t i = 0; i < N32; i++)
    {
      uint32_t bits = i * 65537u;
      float x;
      memcpy (&x, &bits, sizeof x);
      if (!isnan (x))
	xf[n++] = x;
    }
  NF_F32 (yf, xf, n);
  long double worst = 0;
  for (size_t i = 0; i < n; i++)
    {
      long double cr = (float) ref (xf[i], 24); /* inf past FLT_MAX.  */
      if (isnan (cr) || isinf (cr) || cr == 0)
	{
	  CHECK ((isnan (cr) && isnan (yf[i])) || yf[i] == (float) cr);
	  continue;
	}
      long double e = NF_ULPS_F (yf[i], exact (xf[i]));
      if (e > worst)
	worst = e;
      if (!(e <= 0.5L + 0x1p-20L))
	fprintf (stderr, "f32 x=%a: %a, %Lg ulp\n", xf[i], yf[i], e);
      CHECK (e <= 0.5L + 0x1p-20L);
    }
  printf (NF_NAME "_f32: max %.4Lf ulp over %zu inputs\n", worst, n);

  /* f64: random signs, exponents in [-60, 9] and mantissas.  */
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < N64; i++)
    {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      double m = (double) (s >> 11) * 0x1p-53;
      int ex = (int) (s % 70) - 60; /* |x| < 512: no overflow.  */
      xd[i] = NF_DOMAIN (ldexp (0.5 + m / 2, ex) * ((s >> 3) & 1 ? -1 : 1));
    }
  NF_F64 (yd, xd, N64);
  worst = 0;
  for (size_t i = 0; i < N64; i++)
    {
      long double e = NF_ULPS_D (yd[i], exact (xd[i]));
      if (e > worst)
	worst = e;
      CHECK (e <= 1.0L);
    }
  printf (NF_NAME "_f64: max %.4Lf ulp over %d inputs\n", worst, N64);

  /* Special values, as libm's scalar function gives them.  */
  static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, -1.0,
			       -2.0, 1e308, -1e308, 0x1p-1074 };
  double ys[NF_N (sp)];
  NF_F64 (ys, sp, NF_N (sp));
  for (size_t i = 0; i < NF_N (sp); i++)
    {
      double want = NF_LIBM (sp[i]);
      CHECK ((isnan (want) && isnan (ys[i]))
	     || (ys[i] == want && !!signbit (ys[i]) == !!signbit (want)));
    }

  /* The _pz kernels: the same bits, except +0 for -0.  */
  static float yf2[N32];
  NF_F32_PZ (yf2, xf, n);
  for (size_t i = 0; i < n; i++)
    CHECK (xf[i] == 0 ? memcmp (&yf2[i], &(float){ 0.0f }, sizeof (float)) == 0
		      : memcmp (&yf2[i], &yf[i], sizeof (float)) == 0);
  static double yd2[N64];
  NF_F64_PZ (yd2, xd, N64);
  for (size_t i = 0; i < N64; i++)
    CHECK (memcmp (&yd2[i], &yd[i], sizeof (double)) == 0);
  NF_F64_PZ (ys, sp, NF_N (sp));
  for (size_t i = 0; i < NF_N (sp); i++)
    {
      double want = NF_LIBM (sp[i]) + 0.0;
      CHECK ((isnan (want) && isnan (ys[i]))
	     || (ys[i] == want && !!signbit (ys[i]) == !!signbit (want)));
    }
  float zf[2] = { -0.0f, 0.0f }, zy[2];
  NF_F32_PZ (zy, zf, 2);
  CHECK (zy[0] == 0 && !signbit (zy[0]) && zy[1] == 0 && !signbit (zy[1]));

  /* n = 0 writes nothing; in place (y == x) is allowed.  */
  yd[0] = 42.0;
  NF_F64 (yd, xd, 0);
  CHECK (yd[0] == 42.0);
  float in[3] = { 1e-7f, 0.5f, -0.25f }, cp[3];
  memcpy (cp, in, sizeof in);
  NF_F32 (in, in, 3);
  for (int i = 0; i < 3; i++)
    CHECK (NF_ULPS_F (in[i], exact (cp[i])) <= 0.5L + 0x1p-20L);
  NF_DONE ();
}
