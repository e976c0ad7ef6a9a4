/* simd-check.h: the test of nf_expf's, nf_expm1f's and nf_log1pf's
   vector clones,
   included by simd-loop.c (-O3: the b clone) and simd-native.c (-O3
   -march=native: c, d or e as the CPU has them).  The loops below call
   the scalar functions; GCC must vectorize them into calls of the
   library's clones, which the link wraps (-Wl,--wrap=_ZGV...: the
   wrappers count the calls and call the library's).  Checks: the
   clones were called, their results are within a bit of the scalar
   function's (the scalar called through a volatile pointer, never
   vectorized; the two are computed differently, each within 0.5 ulp +
   2^-20 ulp, see runtime/scalarf.c) for
   2^16 bit patterns spread over all floats, and errno is set once a
   vector holds an out-of-range lane, and not otherwise.  */

#include "nf-test.h"
#include "isa.h"
#include <errno.h>
#include <immintrin.h>
#include <neuronfuse.h>
#include <stdint.h>

#define N 65536

static long calls;

#define NF_WRAP(tgt, abi, vt, f)                                               \
  vt __real__ZGV##abi##v_##f (vt);                                             \
  __attribute__ ((target (tgt))) vt __wrap__ZGV##abi##v_##f (vt x)             \
  {                                                                            \
    calls++;                                                                   \
    return __real__ZGV##abi##v_##f (x);                                        \
  }
NF_WRAP ("sse2", bN4, __m128, nf_expf)
NF_WRAP ("avx", cN8, __m256, nf_expf)
NF_WRAP ("avx2", dN8, __m256, nf_expf)
NF_WRAP ("avx512f", eN16, __m512, nf_expf)
NF_WRAP ("sse2", bN4, __m128, nf_expm1f)
NF_WRAP ("avx", cN8, __m256, nf_expm1f)
NF_WRAP ("avx2", dN8, __m256, nf_expm1f)
NF_WRAP ("avx512f", eN16, __m512, nf_expm1f)
NF_WRAP ("sse2", bN4, __m128, nf_log1pf)
NF_WRAP ("avx", cN8, __m256, nf_log1pf)
NF_WRAP ("avx2", dN8, __m256, nf_log1pf)
NF_WRAP ("avx512f", eN16, __m512, nf_log1pf)

static float x[N], y[N];
static float (*volatile expf_p) (float) = nf_expf;
static float (*volatile expm1f_p) (float) = nf_expm1f;
static float (*volatile log1pf_p) (float) = nf_log1pf;

__attribute__ ((noipa)) static void
loop_expf (float *restrict yv, const float *restrict xv, int n)
{
  for (int i = 0; i < n; i++)
    yv[i] = nf_expf (xv[i]);
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
  return (ia ^ ib) >= 0 && ia - ib <= 1 && ib - ia <= 1;
}

__attribute__ ((noipa)) static void
loop_expm1f (float *restrict yv, const float *restrict xv, int n)
{
  for (int i = 0; i < n; i++)
    yv[i] = nf_expm1f (xv[i]);
}

__attribute__ ((noipa)) static void
loop_log1pf (float *restrict yv, const float *restrict xv, int n)
{
  for (int i = 0; i < n; i++)
    yv[i] = nf_log1pf (xv[i]);
}

/* Run LOOP over X[0..N-1]; check that it called a clone and gave F's
   bits.  */
static void
check_loop (const char *name, void (*loop) (float *, const float *, int),
	    float (*f) (float), int n)
{
  calls = 0;
  loop (y, x, n);
  if (calls == 0)
    fprintf (stderr, "%s: the loop called no clone\n", name);
  CHECK (calls > 0);
  long bad = 0;
  for (int i = 0; i < n; i++)
    {
      float s = f (x[i]);
      if (!near1 (s, y[i]) && bad++ < 10)
	fprintf (stderr, "%s (%a): clone %a, scalar %a\n", name, x[i], y[i],
		 s);
    }
  CHECK (bad == 0);
  printf ("%s: %ld clone calls for %d elements, %ld differences\n", name,
	  calls, n, bad);
}

/* Errno after LOOP over the 64 elements of V.  */
static int
loop_errno (void (*loop) (float *, const float *, int), const float *v)
{
  static float in[64], out[64];
  memcpy (in, v, sizeof in);
  errno = 0;
  loop (out, in, 64);
  return errno;
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
  check_loop ("nf_expf", loop_expf, expf_p, N);
  check_loop ("nf_expf", loop_expf, expf_p, 1003);
  check_loop ("nf_expm1f", loop_expm1f, expm1f_p, N);
  check_loop ("nf_log1pf", loop_log1pf, log1pf_p, N);
  /* A length no vector width divides: the epilogue too.  */
  check_loop ("nf_expm1f", loop_expm1f, expm1f_p, 1003);
  check_loop ("nf_log1pf", loop_log1pf, log1pf_p, 1003);

  /* Errno: none for in-range vectors (NaN, +-Inf included); ERANGE for
     one overflowing lane of expm1f; EDOM for x < -1 and ERANGE for -1 in
     log1pf.  The odd lane in each position of a vector once.  */
  float v[64];
  for (int i = 0; i < 64; i++)
    v[i] = (float) (i - 32) / 8;
  v[3] = NAN, v[9] = INFINITY, v[17] = -INFINITY, v[20] = 88.7f;
  CHECK (loop_errno (loop_expm1f, v) == 0);
  CHECK (loop_errno (loop_expf, v) == 0);
  for (int k = 0; k < 16; k++)
    {
      float w[64];
      memcpy (w, v, sizeof w);
      w[32 + k] = 89.0f;
      CHECK (loop_errno (loop_expf, w) == ERANGE);
      w[32 + k] = -103.5f;
      CHECK (loop_errno (loop_expf, w) == ERANGE);
      w[32 + k] = -103.27f; /* Subnormal, no errno (glibc).  */
      CHECK (loop_errno (loop_expf, w) == 0);
    }
  for (int k = 0; k < 16; k++)
    {
      float w[64];
      memcpy (w, v, sizeof w);
      w[32 + k] = 89.0f;
      CHECK (loop_errno (loop_expm1f, w) == ERANGE);
    }
  for (int i = 0; i < 64; i++)
    v[i] = (float) i / 8 - 0.9f;
  v[3] = NAN, v[9] = INFINITY, v[11] = -0.0f;
  CHECK (loop_errno (loop_log1pf, v) == 0);
  for (int k = 0; k < 16; k++)
    {
      float w[64];
      memcpy (w, v, sizeof w);
      w[32 + k] = -1.0f;
      CHECK (loop_errno (loop_log1pf, w) == ERANGE);
      w[32 + k] = -1.5f;
      CHECK (loop_errno (loop_log1pf, w) == EDOM);
      w[32 + k] = -INFINITY;
      CHECK (loop_errno (loop_log1pf, w) == EDOM);
    }
  NF_DONE ();
}
