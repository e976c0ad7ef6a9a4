/* Area: runtime, nf_nrm2_f16.
   Purpose: the norm of _Float16 data against MPFR (the squares summed
   exactly in 512 bits, the root rounded once to long double) on random
   vectors of many lengths (0, 1, 15, 16, 17, every tail and head of the
   vector widths, 4096, 2^20) drawn three ways (activations in [-8, 8),
   random finite bit patterns from subnormals to 65504, subnormals
   only), each at many unaligned starts: within the header's 0.5 ulp +
   n 2^-29 ulp, never worse than the plain float loop it replaces (by
   more than the n 2^-28 ulp the two roundings near a midpoint allow; the
   largest error over all vectors no worse at all), and on the generic
   kernels bit for bit what a double sum in order gives (the generic
   reference); on the vector ones within the bound of it.  Every finite
   half alone gives its magnitude exactly; 65504s and the smallest
   subnormal give exact norms; 2^25 ones, where the float loop's sum
   stops at 2^24, give sqrt (2^25); n = 0 gives +0 and reads nothing;
   NaN anywhere gives NaN, else an Inf gives +Inf, at the head, in the
   vector body and in the tail.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include <mpfr.h>
#include <neuronfuse.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __FLT16_MAX__

#define MAXN (1 << 20)
/* Starts 0..MAXOFF elements past a cache line: every head the vector
   kernels peel (up to 31 halves) and more.  */
#define MAXOFF 40

static uint64_t seed = 0x5851f42d4c957f2du;

static uint64_t
next (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return seed;
}

/* A random half: KIND 0 in [-8, 8) (activations), 1 any finite bit
   pattern (subnormals to 65504, both signs), 2 subnormals only.  */
static _Float16
rnd (int kind)
{
  uint64_t s = next ();
  if (kind == 0)
    return (_Float16) ((double) (s >> 11) * 0x1p-49 - 8);
  uint16_t bits;
  if (kind == 1)
    do
      bits = (uint16_t) (s >> 20), s = next ();
    while ((bits & 0x7c00) == 0x7c00);
  else
    bits = (uint16_t) (((s >> 20) & 0x8000) | ((s >> 30) & 0x3ff));
  _Float16 h;
  memcpy (&h, &bits, sizeof h);
  return h;
}

/* The exact norm of X[0..N-1], rounded once to long double: the squares
   (22 bits, 2^-48 to 2^32) and their sum are exact in 512 bits.  */
static long double
reference (const _Float16 *x, size_t n)
{
  mpfr_t s, t;
  mpfr_inits2 (512, s, t, (mpfr_ptr) 0);
  mpfr_set_zero (s, 1);
  for (size_t i = 0; i < n; i++)
    {
      mpfr_set_d (t, (double) x[i], MPFR_RNDN);
      mpfr_sqr (t, t, MPFR_RNDN);
      mpfr_add (s, s, t, MPFR_RNDN);
    }
  mpfr_sqrt (s, s, MPFR_RNDN);
  long double r = mpfr_get_ld (s, MPFR_RNDN);
  mpfr_clears (s, t, (mpfr_ptr) 0);
  return r;
}

/* The plain loop nf_nrm2_f16 replaces: exact squares (GCC evaluates a
   _Float16 product in float) summed in float.  noinline: measured as a
   separate function, as users' code calls it.  */
static __attribute__ ((noinline)) float
plain (const _Float16 *x, size_t n)
{
  float s = 0;
  for (size_t i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}

/* The generic kernel's arithmetic: the double sum in order, its root in
   double, rounded once to float.  */
static float
generic (const _Float16 *x, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return (float) sqrt (s);
}

#define BOUND(n) (0.5L + (long double) (n) * 0x1p-29L)

static _Float16 *buf; /* MAXN + MAXOFF + 64 halves, 64-byte aligned.  */
static long double worst, worst_plain;
static size_t cases, differ, worse;

/* Check nf_nrm2_f16 on X[0..N-1] (in BUF at offset OFF) against REF,
   the plain loop and the generic arithmetic.  */
static void
check_at (const _Float16 *x, size_t n, long double ref, size_t off)
{
  float got = nf_nrm2_f16 (x, n), p = plain (x, n), g = generic (x, n);
  long double e = NF_ULPS_F (got, ref), ep = NF_ULPS_F (p, ref);
  if (!(e <= BOUND (n) && e <= ep + 2 * (BOUND (n) - 0.5L)))
    fprintf (stderr, "n=%zu off=%zu: %a want %La, %Lg ulp (plain %a, %Lg)\n",
	     n, off, got, ref, e, p, ep);
  CHECK (e <= BOUND (n));
  /* Where the plain loop happens to round right and the kernel's double
     sum and root are within their n 2^-29 ulp of a midpoint on the
     other side, each is off the midpoint by at most that much.  */
  CHECK (e <= ep + 2 * (BOUND (n) - 0.5L));
  differ += memcmp (&got, &g, sizeof got) != 0;
#ifdef NF_ISA_generic
  CHECK (memcmp (&got, &g, sizeof got) == 0);
#else
  CHECK (NF_ULPS_F (g, ref) <= BOUND (n));
#endif
  worst = fmaxl (worst, e), worst_plain = fmaxl (worst_plain, ep);
  worse += e > ep;
  cases++;
}

/* Fill N halves of KIND at BUF + OFF and check them there and, if
   SHIFTS, at every start up to MAXOFF.  */
static void
check_random (size_t n, int kind, size_t off, int shifts)
{
  _Float16 *x = buf + off;
  for (size_t i = 0; i < n; i++)
    x[i] = rnd (kind);
  long double ref = reference (x, n);
  check_at (x, n, ref, off);
  if (!shifts)
    return;
  for (size_t o = 0; o <= MAXOFF; o++)
    if (o != off)
      {
	memmove (buf + o, x, n * sizeof *x);
	x = buf + o;
	check_at (x, n, ref, o);
      }
}

int
main (void)
{
  nf_check_isa ();
  /* C11 wants the size a multiple of the alignment (ASan checks it).  */
  size_t bytes = (MAXN + MAXOFF + 64) * sizeof *buf;
  buf = aligned_alloc (64, (bytes + 63) / 64 * 64);
  CHECK (buf != NULL);

  /* Random vectors: every length to 70 (each head, body and tail of
     VD_N = 4 and 8, eight accumulators of 32 and 64 halves), then some
     long ones, at every start for the short ones.  */
  for (int kind = 0; kind < 3; kind++)
    {
      for (size_t n = 0; n <= 70; n++)
	check_random (n, kind, n % 7, 1);
      static const size_t ns[] = { 15, 16, 17, 127, 128, 129, 255, 256,
				   257, 1000, 4095, 4096, 4097 };
      for (int rep = 0; rep < 4; rep++)
	for (size_t k = 0; k < NF_N (ns); k++)
	  check_random (ns[k], kind, (size_t) (rep * 11 + k) % MAXOFF,
			rep == 0);
      check_random (65536 + 3, kind, 5, 0);
      check_random (MAXN, kind, 0, 0);
      check_random (MAXN - 7, kind, 3, 0);
    }
  printf ("nf_nrm2_f16 random: max %.6Lf ulp (plain float loop %.4Lf) over "
	  "%zu vectors; %zu worse than the plain loop, %zu not the generic "
	  "sum's bits\n", worst, worst_plain, cases, worse, differ);
  CHECK (worst <= worst_plain);

  /* n = 0: +0, nothing read.  */
  CHECK (nf_nrm2_f16 (NULL, 0) == 0 && !signbit (nf_nrm2_f16 (NULL, 0)));

  /* Every half alone: its magnitude, exactly (Inf gives +Inf, NaN NaN).  */
  for (uint32_t b = 0; b < 0x10000; b++)
    {
      uint16_t bits = (uint16_t) b;
      _Float16 h;
      memcpy (&h, &bits, sizeof h);
      for (size_t off = 0; off < 2; off++)
	{
	  buf[off] = h;
	  float got = nf_nrm2_f16 (buf + off, 1);
	  if (isnan (h))
	    CHECK (!NF_SPECIALS || isnan (got));
	  else if (isinf (h))
	    CHECK (!NF_SPECIALS || got == INFINITY);
	  else
	    CHECK (got == fabsf ((float) h) && !signbit (got));
	}
    }

  /* The largest and the smallest halves, where the norm is exact.  */
  for (size_t i = 0; i < 4096; i++)
    buf[i + 1] = i & 1 ? (_Float16) -65504 : (_Float16) 65504;
  CHECK (nf_nrm2_f16 (buf + 1, 4096) == 65504.0f * 64);
  CHECK (nf_nrm2_f16 (buf + 1, 1) == 65504.0f);
  check_at (buf + 1, 4096, reference (buf + 1, 4096), 1);
  for (size_t i = 0; i < 4096; i++)
    buf[i + 3] = i & 1 ? (_Float16) -0x1p-24 : (_Float16) 0x1p-24;
  CHECK (nf_nrm2_f16 (buf + 3, 4096) == 0x1p-18f);
  check_at (buf + 3, 4096, reference (buf + 3, 4096), 3);
  /* Both at once: 65504 and 4095 subnormals (lost in any sum: the norm
     is 65504 (1 + about 2^-69)).  */
  buf[3 + 2000] = (_Float16) 65504;
  check_at (buf + 3, 4096, reference (buf + 3, 4096), 3);
  CHECK (nf_nrm2_f16 (buf + 3, 4096) == 65504.0f);

  /* 2^25 ones: the float loop's sum stops at 2^24 (each 1 is half an
     ulp of it, rounded to even), so it gives 4096; the norm is 2^12.5.  */
  {
    size_t big = (size_t) 1 << 25;
    _Float16 *ones = malloc ((big + 1) * sizeof *ones);
    CHECK (ones != NULL);
    for (size_t i = 0; i < big + 1; i++)
      ones[i] = (_Float16) 1;
    long double want = sqrtl ((long double) big);
    for (size_t off = 0; off < 2; off++)
      {
	float got = nf_nrm2_f16 (ones + off, big), p = plain (ones + off, big);
	long double e = NF_ULPS_F (got, want);
	CHECK (e <= 0.5L && p == 4096.0f);
	if (off == 0)
	  printf ("2^25 ones: %a, %.4Lf ulp (plain float loop %g)\n", got, e,
		  (double) p);
      }
    free (ones);
  }

  /* NaN anywhere gives NaN; else an Inf (either sign) gives +Inf.  At
     the head, in the vector body, in the tail, at several starts.  */
  if (NF_SPECIALS)
    {
      static const size_t at[] = { 0, 1, 5, 31, 40, 64, 100, 195, 198, 199 };
      for (size_t off = 0; off < 5; off++)
	for (size_t k = 0; k < NF_N (at); k++)
	  {
	    _Float16 *x = buf + off;
	    for (size_t i = 0; i < 200; i++)
	      x[i] = rnd (0);
	    x[at[k]] = (_Float16) (k & 1 ? -INFINITY : INFINITY);
	    CHECK (nf_nrm2_f16 (x, 200) == INFINITY);
	    x[at[(k + 3) % NF_N (at)]] = (_Float16) (k & 1 ? -NAN : NAN);
	    CHECK (isnan (nf_nrm2_f16 (x, 200)));
	    x[at[k]] = (_Float16) 1;
	    CHECK (isnan (nf_nrm2_f16 (x, 200)));
	  }
      static const _Float16 a[] = { 1, NAN, INFINITY }, b[] = { -INFINITY, 1 };
      CHECK (isnan (nf_nrm2_f16 (a, 3)) && nf_nrm2_f16 (b, 2) == INFINITY);
    }
  free (buf);
  NF_DONE ();
}

#else /* !__FLT16_MAX__ */

int
main (void)
{
  nf_check_isa ();
  printf ("no _Float16: nf_nrm2_f16 not built\n");
  NF_DONE ();
}

#endif
