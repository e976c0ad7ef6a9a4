/* simd-fast-check.h: the test of nf_expm1f_fast's and nf_log1pf_fast's
   vector clones (simd-fast.c of the library), included by simd-fast.c
   (-O3 -ffast-math: the b clone) and simd-fast-native.c (-O3 -ffast-math
   -march=native: the widest).  The loops call the scalar functions; GCC
   must vectorize them into calls of the clones, which the link wraps to
   count them.  Checks: clones were called, and every lane is the fast
   array kernel's bits (nf_expm1_fast_f32, the same core) or the
   accurate one's (nf_expm1_f32: a clone may run the accurate core where
   that is faster, as the b clone of nf_expm1f_fast does) where the set
   in use has vector kernels, and within 1 ulp of the long double
   function everywhere, for 2^16 bit patterns spread over the finite
   floats.  */

#include "nf-test.h"
#include "isa.h"
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
NF_WRAP ("sse2", bN4, __m128, nf_expm1f_fast)
NF_WRAP ("avx", cN8, __m256, nf_expm1f_fast)
NF_WRAP ("avx2", dN8, __m256, nf_expm1f_fast)
NF_WRAP ("avx512f", eN16, __m512, nf_expm1f_fast)
NF_WRAP ("sse2", bN4, __m128, nf_log1pf_fast)
NF_WRAP ("avx", cN8, __m256, nf_log1pf_fast)
NF_WRAP ("avx2", dN8, __m256, nf_log1pf_fast)
NF_WRAP ("avx512f", eN16, __m512, nf_log1pf_fast)

static float x[N], y[N], k[N], ka[N];

__attribute__ ((noipa)) static void
loop_expm1f (float *restrict yv, const float *restrict xv, int n)
{
  for (int i = 0; i < n; i++)
    yv[i] = nf_expm1f_fast (xv[i]);
}

__attribute__ ((noipa)) static void
loop_log1pf (float *restrict yv, const float *restrict xv, int n)
{
  for (int i = 0; i < n; i++)
    yv[i] = nf_log1pf_fast (xv[i]);
}

/* The reference, not optimized (nor made fast-math).  */
#pragma GCC push_options
#pragma GCC optimize ("O0", "no-fast-math")
static long double
ref (int log, float v)
{
  return log ? log1pl (v) : expm1l (v);
}
#pragma GCC pop_options

/* Run LOOP over X[0..N-1]: clones called, KERNEL's or ACCURATE's bits on
   a vector set, within 1 ulp everywhere.  */
static void
check_loop (const char *name, void (*loop) (float *, const float *, int),
	    void (*kernel) (float *, const float *, size_t),
	    void (*accurate) (float *, const float *, size_t), int log, int n)
{
  calls = 0;
  loop (y, x, n);
  CHECK (calls > 0);
  kernel (k, x, n);
  accurate (ka, x, n);
  int vector = strcmp (nf_runtime_isa (), "generic") != 0;
  long bad = 0;
  for (int i = 0; i < n; i++)
    {
      long double r = ref (log, x[i]);
      int ok = (vector ? memcmp (&k[i], &y[i], sizeof y[i]) == 0
			   || memcmp (&ka[i], &y[i], sizeof y[i]) == 0
		       : 1)
	       && (isnan (r) ? isnan (y[i])
		   : isinf (r) || fabsl (r) > FLT_MAX ? y[i] == (float) r
		   : NF_ULPS_F (y[i], r) <= 1);
      if (!ok && bad++ < 10)
	fprintf (stderr, "%s (%a, i=%d): clone %a, kernel %a, ref %La\n",
		 name, (double) x[i], i, (double) y[i], (double) k[i], r);
    }
  CHECK (bad == 0);
  printf ("%s: %ld clone calls for %d elements, %ld bad\n", name, calls, n,
	  bad);
}

int
main (void)
{
  nf_check_isa ();
  /* Finite normal floats and zeros only: -ffast-math assumes no NaN or
     Inf, and its start-up code flushes subnormals to zero.  */
  for (uint32_t i = 0; i < N; i++)
    {
      uint32_t b = i * 65537u;
      if ((b & 0x7f800000u) == 0x7f800000u)
	b &= ~0x00800000u;
      else if ((b & 0x7f800000u) == 0 && (b & 0x007fffffu))
	b |= 0x00800000u;
      memcpy (&x[i], &b, sizeof b);
    }
  check_loop ("nf_expm1f_fast", loop_expm1f, nf_expm1_fast_f32, nf_expm1_f32,
	      0, N);
  check_loop ("nf_log1pf_fast", loop_log1pf, nf_log1p_fast_f32, nf_log1p_f32,
	      1, N);
  check_loop ("nf_expm1f_fast", loop_expm1f, nf_expm1_fast_f32, nf_expm1_f32,
	      0, 1003);
  check_loop ("nf_log1pf_fast", loop_log1pf, nf_log1p_fast_f32, nf_log1p_f32,
	      1, 1003);
  NF_DONE ();
}
