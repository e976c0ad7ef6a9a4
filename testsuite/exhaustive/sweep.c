/* sweep.c: `make check-exhaustive`, the accuracy of the elementwise
   kernels of libneuronfuse beyond what `make check` samples.

   f32: every one of the 2^32 inputs of nf_expm1_f32 and nf_log1p_f32,
   and of their fast-math variants nf_expm1_fast_f32 and
   nf_log1p_fast_f32.
   The reference is glibc's double expm1 / log1p of the input, within one
   double ulp of exact (2^-29 of a float ulp); where a result's measured
   error is within 2^-24 ulp of a bound, or it is not the double
   reference rounded to float, MPFR decides exactly.  Reports the largest
   error in ulps and how many results are not correctly rounded; fails if
   any error exceeds 0.5 ulp + 2^-20 (neuronfuse.h: the kernels round a
   double result once) or any special value differs from glibc's.  The
   fast variants: the bound is 1 ulp, MPFR decides where the error is
   within 2^-20 of it, and the count reported is of results other than
   the double reference rounded (the correctly rounded float but for a
   few double roundings; counting exactly would take MPFR on every
   one).

   The fast variants' vector-ABI clones (_ZGV..._nf_expm1f_fast and
   _nf_log1pf_fast) give the fast kernel's bits or, where a clone runs
   the accurate core (the b clone of nf_expm1f_fast), the accurate
   kernel's, compared bit for bit over all 2^32 inputs.

   The other forms of each f32 function give the kernel's bits, so its
   accuracy: each vector-ABI clone the CPU can run (_ZGVbN4v_,
   _ZGVcN8v_, _ZGVdN8v_, _ZGVeN16v_) and the _pz kernel (+0 for -0),
   compared bit for bit over all 2^32 inputs.  The scalar functions
   (runtime/scalarf.c, computed differently) are within one bit of the
   kernel, set errno as glibc does, and are swept for accuracy
   themselves: the public one and both variants (SSE2, and FMA where
   the CPU has it; this file includes scalarf.c for them).  nf_expf has
   no array kernel: its b clone is the kernel swept, the other clones
   must give its bits, nf_expf within one bit of them.

   f64: 10^7 random inputs spread over the whole exponent range (and
   every sign), against MPFR: largest error, which must be at most one
   ulp.

   Runs the instruction set the library picks; NEURONFUSE_ISA selects
   another (the Makefile runs each the machine supports).  OpenMP shares
   the sweep between the cores: about a minute per function on two.

   Usage: sweep [f32|fast|f64|all|scalar|isa]   (default all: f32, fast
   and f64; scalar sweeps the scalar functions' SSE2 and FMA variants,
   which do not depend on NEURONFUSE_ISA; isa prints the instruction set
   the library picks and exits)  */

#include <neuronfuse.h>

/* The scalar variants, as static functions nf_F_sse2 and nf_F_fma.  */
#define NF_SCALARF_NO_PUBLIC 1
#include "../../runtime/scalarf.c"

#include "../lib/nf-ulps.h"

#include <errno.h>
#include <immintrin.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

typedef void kern32 (float *, const float *, size_t);
typedef void kern64 (double *, const double *, size_t);
typedef int mpfr_fn (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/* The other forms of an f32 function: the scalar one, the _pz kernel and
   the clones, each run over a chunk by a driver built for its ABI level
   (NULL where the CPU lacks it).  */
struct forms
{
  float (*scalar) (float);
  int (*errno_ok) (float x, float y, int e); /* Errno E right for X?  */
  kern32 *pz;
  kern32 *clone[4];
  /* A clone may give this kernel's bits instead (a fast-math clone that
     runs the accurate core), or NULL.  */
  kern32 *alt;
};
static const char *const clone_names[4] = { "_ZGVbN4v", "_ZGVcN8v", "_ZGVdN8v",
					     "_ZGVeN16v" };

__m128 _ZGVbN4v_nf_expf (__m128);
__m256 _ZGVcN8v_nf_expf (__m256);
__m256 _ZGVdN8v_nf_expf (__m256);
__m512 _ZGVeN16v_nf_expf (__m512);
__m128 _ZGVbN4v_nf_expm1f (__m128);
__m256 _ZGVcN8v_nf_expm1f (__m256);
__m256 _ZGVdN8v_nf_expm1f (__m256);
__m512 _ZGVeN16v_nf_expm1f (__m512);
__m128 _ZGVbN4v_nf_log1pf (__m128);
__m256 _ZGVcN8v_nf_log1pf (__m256);
__m256 _ZGVdN8v_nf_log1pf (__m256);
__m512 _ZGVeN16v_nf_log1pf (__m512);
__m128 _ZGVbN4v_nf_expm1f_fast (__m128);
__m256 _ZGVcN8v_nf_expm1f_fast (__m256);
__m256 _ZGVdN8v_nf_expm1f_fast (__m256);
__m512 _ZGVeN16v_nf_expm1f_fast (__m512);
__m128 _ZGVbN4v_nf_log1pf_fast (__m128);
__m256 _ZGVcN8v_nf_log1pf_fast (__m256);
__m256 _ZGVdN8v_nf_log1pf_fast (__m256);
__m512 _ZGVeN16v_nf_log1pf_fast (__m512);

/* Drivers: y = clone (x) for n a multiple of 16.  */
#define DRIVER(f, abi, tgt, w, load, store)                                    \
  __attribute__ ((target (tgt))) static void drive_##abi##_##f (               \
    float *y, const float *x, size_t n)                                        \
  {                                                                            \
    for (size_t i = 0; i < n; i += w)                                          \
      store (y + i, _ZGV##abi##v_nf_##f (load (x + i)));                       \
  }
#define DRIVERS(f)                                                             \
  DRIVER (f, bN4, "sse2", 4, _mm_loadu_ps, _mm_storeu_ps)                      \
  DRIVER (f, cN8, "avx", 8, _mm256_loadu_ps, _mm256_storeu_ps)                 \
  DRIVER (f, dN8, "avx2", 8, _mm256_loadu_ps, _mm256_storeu_ps)                \
  DRIVER (f, eN16, "avx512f", 16, _mm512_loadu_ps, _mm512_storeu_ps)
DRIVERS (expf)
DRIVERS (expm1f)
DRIVERS (log1pf)
DRIVERS (expm1f_fast)
DRIVERS (log1pf_fast)

static int
expf_errno_ok (float x, float y, int e)
{
  (void) y;
  return e == ((x > NF_EXPM1F_MAX || x < NF_EXPF_UFLOW_ERRNO) && !isinf (x)
		   ? ERANGE
		   : 0);
}

static int
expm1f_errno_ok (float x, float y, int e)
{
  return e == (isinf (y) && !isinf (x) ? ERANGE : 0);
}

static int
log1pf_errno_ok (float x, float y, int e)
{
  (void) y;
  return e == (x < -1 ? EDOM : x == -1 ? ERANGE : 0);
}

/* The scalar functions as kernels, errno checked (failures counted in
   errno_bad).  */
static long errno_bad;
#define SCALAR_KERN(name, fn, ok)                                              \
  static void name (float *y, const float *x, size_t n)                        \
  {                                                                            \
    for (size_t i = 0; i < n; i++)                                             \
      {                                                                        \
	errno = 0;                                                             \
	y[i] = fn (x[i]);                                                      \
	if (!ok (x[i], y[i], errno))                                           \
	  __atomic_fetch_add (&errno_bad, 1, __ATOMIC_RELAXED);                \
      }                                                                        \
  }
#define SCALAR_KERNS(f)                                                        \
  SCALAR_KERN (sc_##f##_sse2, nf_##f##_sse2, f##_errno_ok)                     \
  SCALAR_KERN (sc_##f##_fma, nf_##f##_fma, f##_errno_ok)
SCALAR_KERNS (expf)
SCALAR_KERNS (expm1f)
SCALAR_KERNS (log1pf)

/* The forms of F (expm1f or log1pf) this CPU runs.  */
#define FORMS(f, k)                                                            \
  {                                                                            \
    nf_##f, f##_errno_ok, nf_##k##_pz_f32,                                     \
    {                                                                          \
      drive_bN4_##f, __builtin_cpu_supports ("avx") ? drive_cN8_##f : NULL,    \
	__builtin_cpu_supports ("avx2") ? drive_dN8_##f : NULL,                \
	__builtin_cpu_supports ("avx512f") ? drive_eN16_##f : NULL             \
    }                                                                          \
  }

/* Whether floats A and B have the same bits.  */
static int
same (float a, float b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* Whether A and B are both NaN or differ at most in the last bit.  */
static int
near1 (float a, float b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  int32_t ia, ib;
  memcpy (&ia, &a, sizeof ia);
  memcpy (&ib, &b, sizeof ib);
  return ia == ib || (ia ^ ib) >= 0 && (ia - ib == 1 || ib - ia == 1);
}

/* The exact F (X) as a long double with 64 bits, from 160-bit MPFR.  */
static long double
exact (mpfr_fn *f, double x)
{
  mpfr_t m;
  mpfr_init2 (m, 160);
  mpfr_set_d (m, x, MPFR_RNDN);
  f (m, m, MPFR_RNDN);
  long double r = mpfr_get_ld (m, MPFR_RNDN);
  mpfr_clear (m);
  return r;
}

/* F (X) correctly rounded to PREC bits with exponent range EMIN..EMAX
   (subnormals as IEEE rounds them), as a double.  */
static double
rounded (mpfr_fn *f, double x, int prec, int emin, int emax)
{
  mpfr_exp_t omin = mpfr_get_emin (), omax = mpfr_get_emax ();
  mpfr_t m;
  mpfr_init2 (m, prec);
  mpfr_set_emin (emin), mpfr_set_emax (emax);
  mpfr_t xx;
  mpfr_init2 (xx, 64);
  mpfr_set_d (xx, x, MPFR_RNDN);
  int t = f (m, xx, MPFR_RNDN);
  t = mpfr_check_range (m, t, MPFR_RNDN);
  mpfr_subnormalize (m, t, MPFR_RNDN);
  double r = mpfr_get_d (m, MPFR_RNDN);
  mpfr_clear (m), mpfr_clear (xx);
  mpfr_set_emin (omin), mpfr_set_emax (omax);
  return r;
}

/* Sweep all floats through K; REFD is the double function, F MPFR's,
   FM the other forms, which must give K's bits (NULL: none), BOUND the
   largest error allowed: 0.5 ulp + 2^-20, or 1 ulp for the fast
   variants.  Returns the number of failures.  */
static long
sweep32 (const char *name, kern32 *k, double (*refd) (double), mpfr_fn *f,
	 const struct forms *fm, long double bound)
{
  int fast = bound > 0.75L;
  long bad = 0, notcr = 0, diff = 0;
  double worst = 0;
  float worst_x = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : bad, notcr, diff)
  for (uint64_t c = 0; c < ((uint64_t) 1 << 32) / CHUNK; c++)
    {
      static _Thread_local float x[CHUNK], y[CHUNK], y2[CHUNK], y3[CHUNK];
      for (uint32_t i = 0; i < CHUNK; i++)
	{
	  uint32_t bits = (uint32_t) (c * CHUNK + i);
	  memcpy (&x[i], &bits, sizeof bits);
	}
      k (y, x, CHUNK);
      /* The other forms: K's bits (+ 0.0 for the _pz kernel), the
	 scalar function within a bit.  */
      for (uint32_t i = 0; fm && fm->scalar && i < CHUNK; i++)
	{
	  errno = 0;
	  float s = fm->scalar (x[i]);
	  int e = errno;
	  if (!near1 (s, y[i]) || !fm->errno_ok (x[i], s, e))
	    {
	      diff++;
	      if (diff < 10)
		fprintf (stderr, "%s scalar x=%a: %a errno %d, kernel %a\n",
			 name, x[i], s, e, y[i]);
	    }
	}
      if (fm && fm->pz)
	fm->pz (y2, x, CHUNK);
      for (uint32_t i = 0; fm && fm->pz && i < CHUNK; i++)
	if (!same (y2[i], y[i] + 0.0f) && diff++ < 10)
	  fprintf (stderr, "%s_pz x=%a: %a, kernel %a\n", name, x[i], y2[i],
		   y[i]);
      if (fm && fm->alt)
	fm->alt (y3, x, CHUNK);
      for (int v = 0; fm && v < 4; v++)
	{
	  if (!fm->clone[v])
	    continue;
	  fm->clone[v] (y2, x, CHUNK);
	  for (uint32_t i = 0; i < CHUNK; i++)
	    if (!same (y2[i], y[i]) && !(fm->alt && same (y2[i], y3[i]))
		&& diff++ < 10)
	      fprintf (stderr, "%s %s x=%a: %a, kernel %a\n", name,
		       clone_names[v], x[i], y2[i], y[i]);
	}
      for (uint32_t i = 0; i < CHUNK; i++)
	{
	  double r = refd (x[i]);
	  float rf = (float) r;
	  if (isnan (r) || isinf (rf) || rf == 0 || isnan (y[i]))
	    {
	      /* Specials, overflow and underflow (a billion inputs: x >
		 88.7 for expm1, x < -1 for log1p): the result must be the
		 correctly rounded float, sign included.  The double
		 reference rounded decides unless it disagrees; MPFR then.  */
	      if ((isnan (rf) && isnan (y[i]))
		  || (y[i] == rf && !!signbit (y[i]) == !!signbit (rf)))
		continue;
	      double cr = rounded (f, x[i], 24, -148, 128);
	      if (!((isnan (cr) && isnan (y[i]))
		    || (y[i] == (float) cr
			&& !!signbit (y[i]) == !!signbit (cr))))
		{
		  bad++;
		  if (bad < 20)
		    fprintf (stderr, "%s x=%a: %a, want %a\n", name, x[i], y[i],
			     cr);
		}
	      continue;
	    }
	  long double e = nf_ulps (y[i], r, 24, -125);
	  if (fast)
	    {
	      /* Near the bound: decide with the exact value.  */
	      if (e > bound - 0x1p-20L)
		e = nf_ulps (y[i], exact (f, x[i]), 24, -125);
	      if (y[i] != rf)
		notcr++;
	    }
	  else if (e > 0.5L - 0x1p-24L || y[i] != rf)
	    {
	      /* Near the bound or not the double reference rounded:
		 decide with the exact value.  */
	      e = nf_ulps (y[i], exact (f, x[i]), 24, -125);
	      if (y[i] != (float) rounded (f, x[i], 24, -148, 128))
		notcr++;
	    }
	  if (e > bound)
	    {
	      bad++;
	      if (bad < 20)
		fprintf (stderr, "%s x=%a: %a, %Lg ulp\n", name, x[i], y[i], e);
	    }
	  if (e > worst)
#pragma omp critical
	    if (e > worst)
	      worst = (double) e, worst_x = x[i];
	}
    }
  printf ("%s_f32 (%s): all 2^32 inputs, max error %.9f ulp (x = %a), "
	  "%ld %s, %ld failures\n",
	  name, nf_runtime_isa (), worst, worst_x, notcr,
	  fast ? "not the double reference rounded" : "not correctly rounded",
	  bad);
  if (fm)
    printf ("  the same bits from %sthe clones%s%s%s%s%s: %ld "
	    "differences\n",
	    fm->pz ? "the _pz kernel and " : "", fm->clone[0] ? " b" : "",
	    fm->clone[1] ? " c" : "", fm->clone[2] ? " d" : "",
	    fm->clone[3] ? " e" : "",
	    fm->alt ? " (or the accurate kernel's)"
	    : fm->scalar ? ", within a bit and glibc's errno from the scalar"
			   " function"
			 : "",
	    diff);
  return bad + diff;
}

/* 10^7 random doubles through K against MPFR; returns the failures.  */
static long
random64 (const char *name, kern64 *k, mpfr_fn *f, int log1p_domain)
{
  enum
  {
    N = 10000000
  };
  double *x = malloc (N * sizeof *x), *y = malloc (N * sizeof *y);
  if (!x || !y)
    abort ();
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < N; i++)
    {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      /* Random bits: every exponent and sign, the domain folded in.  */
      double v;
      uint64_t bits = s;
      memcpy (&v, &bits, sizeof v);
      if (isnan (v))
	v = (double) (s >> 11) * 0x1p-53;
      /* Half of them in the interesting range |x| < 2^10.  */
      if (s & 1)
	v = ldexp (frexp (v, &(int){ 0 }), (int) (s >> 3 & 63) - 50);
      if (log1p_domain && v < -1)
	v = -1 / v;
      x[i] = v;
    }
  k (y, x, N);
  long bad = 0;
  double worst = 0, worst_x = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : bad)
  for (size_t i = 0; i < N; i++)
    {
      double cr = rounded (f, x[i], 53, -1073, 1024);
      long double e;
      if (isnan (cr) || isinf (cr) || cr == 0)
	e = (isnan (cr) && isnan (y[i]))
		|| (y[i] == cr && !!signbit (y[i]) == !!signbit (cr))
	      ? 0
	      : INFINITY;
      else
	e = nf_ulps (y[i], exact (f, x[i]), 53, -1021);
      if (e > 1)
	{
	  bad++;
	  if (bad < 20)
	    fprintf (stderr, "%s x=%a: %a, %Lg ulp\n", name, x[i], y[i], e);
	}
      if (e > worst)
#pragma omp critical
	if (e > worst)
	  worst = (double) e, worst_x = x[i];
    }
  printf ("%s_f64 (%s): 10^7 random inputs, max error %.6f ulp (x = %a), "
	  "%ld failures\n",
	  name, nf_runtime_isa (), worst, worst_x, bad);
  free (x), free (y);
  return bad;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "all";
  setvbuf (stdout, NULL, _IOLBF, 0); /* Each result as it comes.  */
  if (strcmp (what, "isa") == 0)
    {
      puts (nf_runtime_isa ());
      return 0;
    }
  int all = strcmp (what, "all") == 0;
  long bad = 0;
  if (all || strcmp (what, "f32") == 0)
    {
      const struct forms fe = FORMS (expm1f, expm1), fl = FORMS (log1pf, log1p);
      const struct forms fx = { nf_expf, expf_errno_ok, NULL,
				{ drive_bN4_expf,
				  __builtin_cpu_supports ("avx") ? drive_cN8_expf
								 : NULL,
				  __builtin_cpu_supports ("avx2") ? drive_dN8_expf
								  : NULL,
				  __builtin_cpu_supports ("avx512f")
				    ? drive_eN16_expf
				    : NULL } };
      bad += sweep32 ("nf_expm1", nf_expm1_f32, expm1, mpfr_expm1, &fe,
		      0.5L + 0x1p-20L);
      bad += sweep32 ("nf_log1p", nf_log1p_f32, log1p, mpfr_log1p, &fl,
		      0.5L + 0x1p-20L);
      bad += sweep32 ("nf_exp clones", drive_bN4_expf, exp, mpfr_exp, &fx,
		      0.5L + 0x1p-20L);
    }
  if (all || strcmp (what, "fast") == 0)
    {
      /* The fast clones: the fast kernel's bits, or the accurate
	 kernel's (simd-fast.c: the b clone of nf_expm1f_fast runs the
	 accurate core).  */
#define FAST_FORMS(f, alt)                                                     \
  {                                                                            \
    NULL, NULL, NULL,                                                          \
      { drive_bN4_##f, __builtin_cpu_supports ("avx") ? drive_cN8_##f : NULL,  \
	__builtin_cpu_supports ("avx2") ? drive_dN8_##f : NULL,                \
	__builtin_cpu_supports ("avx512f") ? drive_eN16_##f : NULL },          \
      alt                                                                      \
  }
      const struct forms ffe = FAST_FORMS (expm1f_fast, nf_expm1_f32);
      const struct forms ffl = FAST_FORMS (log1pf_fast, nf_log1p_f32);
#undef FAST_FORMS
      bad += sweep32 ("nf_expm1_fast", nf_expm1_fast_f32, expm1, mpfr_expm1,
		      &ffe, 1.0L);
      bad += sweep32 ("nf_log1p_fast", nf_log1p_fast_f32, log1p, mpfr_log1p,
		      &ffl, 1.0L);
    }
  if (strcmp (what, "scalar") == 0)
    {
      /* The scalar variants (not dispatched, the same on every ISA: the
	 Makefile runs this once); the public function is one of them,
	 and checked against the kernel by f32.  */
      int fma = __builtin_cpu_supports ("fma");
      bad += sweep32 ("nf_expf_sse2", sc_expf_sse2, exp, mpfr_exp, NULL, 0.5L + 0x1p-20L);
      bad += sweep32 ("nf_expm1f_sse2", sc_expm1f_sse2, expm1, mpfr_expm1,
		      NULL, 0.5L + 0x1p-20L);
      bad += sweep32 ("nf_log1pf_sse2", sc_log1pf_sse2, log1p, mpfr_log1p,
		      NULL, 0.5L + 0x1p-20L);
      if (fma)
	{
	  bad += sweep32 ("nf_expf_fma", sc_expf_fma, exp, mpfr_exp, NULL, 0.5L + 0x1p-20L);
	  bad += sweep32 ("nf_expm1f_fma", sc_expm1f_fma, expm1, mpfr_expm1,
			  NULL, 0.5L + 0x1p-20L);
	  bad += sweep32 ("nf_log1pf_fma", sc_log1pf_fma, log1p, mpfr_log1p,
			  NULL, 0.5L + 0x1p-20L);
	}
    }
  if (all || strcmp (what, "f32") == 0 || strcmp (what, "scalar") == 0)
    {
      printf ("errno of the scalar functions: %ld wrong\n", errno_bad);
      bad += errno_bad;
    }
  if (all || strcmp (what, "f64") == 0)
    {
      bad += random64 ("nf_expm1", nf_expm1_f64, mpfr_expm1, 0);
      bad += random64 ("nf_log1p", nf_log1p_f64, mpfr_log1p, 1);
    }
  return bad != 0;
}
