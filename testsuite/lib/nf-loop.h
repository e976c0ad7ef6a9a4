/* nf-loop.h: inputs, long double references and checks of the loop
   tests (neuronfuse.loop/), on top of nf-test.h.

   Whether a call ran fused is seen at run time: nf-run-loop-matrix links
   every loop test with -Wl,--wrap=K for each kernel K the pass may call,
   and the wrappers below count the calls that reach libneuronfuse
   (NF_FUSED).  A result of a fused call must be within a few ulps of the
   long double reference and no worse than the plain loop; a result of the
   loops themselves (no plugin, or the pass declined) only within the plain
   loop's own error.  Whether a loop should have been fused is for the
   remark and report checks of each test, not for the program.  */

#ifndef NF_LOOP_H
#define NF_LOOP_H

#include "nf-test.h"
#include "neuronfuse.h"

/* Calls that reached a kernel of libneuronfuse.  */
static unsigned long nf_loop_calls;
static unsigned long nf_loop_before __attribute__ ((unused)); /* NF_FUSED */

/* Whether CALL (an expression) called a kernel of libneuronfuse.  */
#define NF_FUSED(call)                                                        \
  (nf_loop_before = nf_loop_calls, (void) (call),                           \
   nf_loop_calls != nf_loop_before)

/* __wrap_NAME, which the linker calls instead of NAME, and __real_NAME,
   the kernel (C names in C++ too: the loop tests also run as C++).
   RETURN: return, or nothing for a void kernel.  */
#ifdef __cplusplus
#define NF_LOOP_C extern "C"
#else
#define NF_LOOP_C
#endif
#define NF_LOOP_WRAP(name, ret, params, args, RETURN)                         \
  NF_LOOP_C ret __real_##name params;                                         \
  NF_LOOP_C ret __wrap_##name params;                                         \
  NF_LOOP_C ret __wrap_##name params                                          \
  {                                                                           \
    nf_loop_calls++;                                                          \
    RETURN __real_##name args;                                                \
  }

NF_LOOP_WRAP (nf_rmsnorm_f32, void,
	      (float *y, const float *x, const float *w, size_t n, float eps),
	      (y, x, w, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm_f64, void,
	      (double *y, const double *x, const double *w, size_t n,
	       double eps),
	      (y, x, w, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm_rows_f32, void,
	      (float *y, const float *x, const float *w, size_t rows,
	       size_t n, float eps),
	      (y, x, w, rows, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm_rows_f64, void,
	      (double *y, const double *x, const double *w, size_t rows,
	       size_t n, double eps),
	      (y, x, w, rows, n, eps), )
#ifdef __FLT16_MAX__ /* no _Float16 on x86 before GCC 12 */
NF_LOOP_WRAP (nf_rmsnorm_f16, void,
	      (_Float16 *y, const _Float16 *x, const _Float16 *w, size_t n,
	       float eps),
	      (y, x, w, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm_rows_f16, void,
	      (_Float16 *y, const _Float16 *x, const _Float16 *w, size_t rows,
	       size_t n, float eps),
	      (y, x, w, rows, n, eps), )
#endif
NF_LOOP_WRAP (nf_nrm2_f32, float, (const float *x, size_t n), (x, n), return)
NF_LOOP_WRAP (nf_nrm2d_f32, double, (const float *x, size_t n), (x, n),
	      return)
NF_LOOP_WRAP (nf_nrm2_f64, double, (const double *x, size_t n), (x, n),
	      return)
NF_LOOP_WRAP (nf_sumsq_f32, double, (const float *x, size_t n), (x, n),
	      return)
NF_LOOP_WRAP (nf_sumsq_f64, long double, (const double *x, size_t n), (x, n),
	      return)
#ifdef __FLT16_MAX__ /* no _Float16 on x86 before GCC 12 */
NF_LOOP_WRAP (nf_nrm2_f16, float, (const _Float16 *x, size_t n), (x, n),
	      return)
#endif
NF_LOOP_WRAP (nf_dist_f32, float,
	      (const float *a, const float *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_dist_d_f32, double,
	      (const float *a, const float *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_dist_f64, double,
	      (const double *a, const double *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_rms_f32, float,
	      (const float *a, const float *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_rms_d_f32, double,
	      (const float *a, const float *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_rms_f64, double,
	      (const double *a, const double *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_l2normalize_f32, void,
	      (float *y, const float *x, size_t n, float eps), (y, x, n, eps), )
NF_LOOP_WRAP (nf_l2normalize_f64, void,
	      (double *y, const double *x, size_t n, double eps),
	      (y, x, n, eps), )
NF_LOOP_WRAP (nf_add_rmsnorm_f32, void,
	      (float *y, float *x, const float *r, const float *w, size_t n,
	       float eps),
	      (y, x, r, w, n, eps), )
NF_LOOP_WRAP (nf_add_rmsnorm_f64, void,
	      (double *y, double *x, const double *r, const double *w,
	       size_t n, double eps),
	      (y, x, r, w, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm1p_f32, void,
	      (float *y, const float *x, const float *w, size_t n, float eps),
	      (y, x, w, n, eps), )
NF_LOOP_WRAP (nf_rmsnorm1p_f64, void,
	      (double *y, const double *x, const double *w, size_t n,
	       double eps),
	      (y, x, w, n, eps), )
NF_LOOP_WRAP (nf_matvec_f32, void,
	      (float *y, const float *w, const float *x, size_t d, size_t n),
	      (y, w, x, d, n), )
NF_LOOP_WRAP (nf_matvec_f64, void,
	      (double *y, const double *w, const double *x, size_t d,
	       size_t n),
	      (y, w, x, d, n), )
#ifdef __FLT16_MAX__ /* no _Float16 on x86 before GCC 12 */
NF_LOOP_WRAP (nf_matvec_f16, void,
	      (float *y, const _Float16 *w, const float *x, size_t d,
	       size_t n),
	      (y, w, x, d, n), )
#endif
NF_LOOP_WRAP (nf_dot_f32, float, (const float *a, const float *b, size_t n),
	      (a, b, n), return)
NF_LOOP_WRAP (nf_dot_f64, double,
	      (const double *a, const double *b, size_t n), (a, b, n), return)
NF_LOOP_WRAP (nf_softmax_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_softmax_f64, void, (double *y, const double *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_expm1_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_expm1_pz_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_expm1_pz_f64, void, (double *y, const double *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_log1p_pz_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_log1p_pz_f64, void, (double *y, const double *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_expm1_fast_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_log1p_fast_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_expm1_f64, void, (double *y, const double *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_log1p_f32, void, (float *y, const float *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_log1p_f64, void, (double *y, const double *x, size_t n),
	      (y, x, n), )
NF_LOOP_WRAP (nf_elementwise, void,
	      (void *y, const void *x0, const void *x1, size_t n,
	       const unsigned char *prog, double s0, double s1, double s2,
	       double s3),
	      (y, x0, x1, n, prog, s0, s1, s2, s3), )

/* The row lengths every test runs, and the longest.  */
static const size_t nf_loop_ns[] = { 0, 1, 7, 33, 4096 };
#define NF_LOOP_MAX 4096

/* Whether the plugin calls nf_matvec_* for a D x N matrix under the
   test's flags: rows of 16 elements up (lower/match.h NF_MATVEC_MIN_N),
   and under reassociation, where GCC vectorizes the loop itself, 2^16
   elements up (NF_MATVEC_FAST_MIN_ELEMS).  GCC 12 added
   __ASSOCIATIVE_MATH__; before it, __FAST_MATH__ (-ffast-math, -Ofast,
   which reassociate) stands for it.  */
#if defined __ASSOCIATIVE_MATH__ || (__GNUC__ < 12 && defined __FAST_MATH__)
#define NF_MATVEC_PAYS(d, n) ((n) >= 16 && (size_t) (d) * (n) >= 65536)
#else
#define NF_MATVEC_PAYS(d, n) ((n) >= 16)
#endif

/* Written one past the end of each output: no kernel may touch it.  */
#define NF_LOOP_SENTINEL (-1234.5)

/* A fused result this close to the reference (in ulps) is correctly
   rounded up to the reference's own error: no worse than any loop.  */
#define NF_LOOP_CR 0.55L

/* Value I of the deterministic input SEED: in [-4, 4), every tenth one
   scaled by 2^-6 so that rows mix magnitudes (still normal in _Float16).
   WEIGHT: a gain in [0.5, 1.5) instead.  */
static double
nf_loop_value (size_t i, unsigned seed, int weight)
{
  unsigned long long s = (i + 1) * 6364136223846793005ULL
			 + (seed + 1) * 1442695040888963407ULL;
  s ^= s >> 29;
  s *= 0xbf58476d1ce4e5b9ULL;
  s ^= s >> 32;
  double v = (double) (s >> 11) * 0x1p-53 * 8 - 4;
  if (weight)
    return 0.5 + fabs (v) / 4;
  return i % 10 == 3 ? v * 0x1p-6 : v;
}

#define NF_LOOP_FILL(T, a, n, seed, weight)                                   \
  do                                                                          \
    {                                                                         \
      for (size_t i_ = 0; i_ < (n); i_++)                                     \
	(a)[i_] = (T) nf_loop_value (i_, (seed), (weight));                   \
    }                                                                         \
  while (0)

/* R[i] = X[i] / sqrt (sum (X^2) / N + EPS) * W[i], exactly up to long
   double rounding.  Not optimized: a long double RMSNorm is a candidate
   (with no kernel: a missed entry in every test's report).  */
__attribute__ ((noipa, optimize ("O0"))) static void
nf_loop_ref_rmsnorm (long double *r, const long double *x,
		     const long double *w, size_t n, long double eps)
{
  long double ss = 0;
  for (size_t i = 0; i < n; i++)
    ss += x[i] * x[i];
  long double s = 1 / sqrtl (ss / n + eps);
  for (size_t i = 0; i < n; i++)
    r[i] = x[i] * s * w[i];
}

/* One element of a check: OK, or a message and a failure.  */
static int
nf_loop_elem (int ok, const char *what, size_t n, size_t i, int fused,
	      long double got, long double plain, long double ref,
	      long double eg, long double eo)
{
  if (!ok)
    {
      fprintf (stderr,
	       "%s n=%zu i=%zu fused=%d: got %La (%Lg ulp), plain loop %La "
	       "(%Lg ulp), ref %La\n",
	       what, n, i, fused, got, eg, plain, eo, ref);
      nf_failures++;
    }
  return ok;
}

/* Whether GOT is within TOL times SCALE of REF (NaN matching NaN); else
   a message naming WHAT and index I, and a failure.  For the near misses,
   which must keep the loops' own results.  */
static int
nf_loop_near (const char *what, size_t i, long double got, long double ref,
	      long double tol, long double scale)
{
  int ok = (isnan (got) && isnan (ref)) || fabsl (got - ref) <= tol * scale;
  if (!ok)
    {
      fprintf (stderr, "%s i=%zu: got %La, expected %La (tolerance %Lg)\n",
	       what, i, got, ref, tol * scale);
      nf_failures++;
    }
  return ok;
}

/* nf_loop_check_rmsnorm_SFX (Y, X, W, N, EPS, FUSED): check Y[0..N-1],
   a test's RMSNorm of X (the input, kept aside if Y overwrote it) with
   gain W (NULL: none) and EPS; FUSED: whether a kernel was called.  Fused:
   within BOUND ulps, and no worse than the plain loop.  Not fused: within
   relative LOOSE (the plain loop's own error).  ACC_T: the type of the
   plain loop's accumulator, SQRT its square root.  */
#define NF_LOOP_DEFINE_CHECK(SFX, T, ACC_T, EPS_T, SQRT, ULPS, BOUND, LOOSE) \
  __attribute__ ((noipa, optimize ("O0"))) static void                        \
  nf_loop_plain_rmsnorm_##SFX (T *y, const T *x, const T *w, size_t n,        \
			       EPS_T eps)                                     \
  {                                                                           \
    ACC_T ss = 0;                                                           \
    for (size_t j = 0; j < n; j++)                                            \
      ss += (ACC_T) x[j] * x[j];                                            \
    ss /= n;                                                                  \
    ss += eps;                                                                \
    ss = 1 / SQRT (ss);                                                       \
    for (size_t j = 0; j < n; j++)                                            \
      y[j] = (w ? w[j] : 1) * (ss * x[j]);                                    \
  }                                                                           \
                                                                              \
  static void                                                                 \
  nf_loop_check_rmsnorm_##SFX (const T *y, const T *x, const T *w, size_t n,  \
			       EPS_T eps, int fused)                          \
  {                                                                           \
    static long double xl[NF_LOOP_MAX], wl[NF_LOOP_MAX], r[NF_LOOP_MAX];      \
    static T o[NF_LOOP_MAX];                                                  \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	xl[i] = x[i];                                                         \
	wl[i] = w ? w[i] : 1;                                                 \
      }                                                                       \
    nf_loop_ref_rmsnorm (r, xl, wl, n, eps);                                  \
    nf_loop_plain_rmsnorm_##SFX (o, x, w, n, eps);                            \
    CHECK (NF_PLUGIN || !fused);                                              \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	long double eg = ULPS (y[i], r[i]), eo = ULPS (o[i], r[i]);           \
	int ok = fused ? eg <= (BOUND) && (eg <= eo || eg <= NF_LOOP_CR)      \
		       : fabsl (y[i] - r[i]) <= (LOOSE) * fabsl (r[i]);       \
	if (!nf_loop_elem (ok, "rmsnorm_" #SFX, n, i, fused, y[i], o[i],      \
			   r[i], eg, eo))                                     \
	  break;                                                              \
      }                                                                       \
  }

/* f32: kernel 0.5 ulp + (n + 10) 2^-30; f64: 0.5 ulp + 2^-8; f16: one
   rounding of a double result.  */
NF_LOOP_DEFINE_CHECK (f32, float, float, float, sqrtf, NF_ULPS_F, 2, 1e-5L)
NF_LOOP_DEFINE_CHECK (f64, double, double, double, sqrt, NF_ULPS_D, 2, 1e-12L)
#ifdef __FLT16_MAX__ /* no _Float16 on x86 before GCC 12 */
NF_LOOP_DEFINE_CHECK (f16, _Float16, float, float, sqrtf, NF_ULPS_H, 1, 1e-3L)
#endif

/* nf_loop_check_softmax_SFX (Y, X, N, FUSED): Y[0..N-1] is the softmax
   of X (the input, kept aside if Y overwrote it).  Fused: within 1 ulp
   of the long double reference (the kernel's 0.5 ulp and its double
   sum); not fused: within relative LOOSE (the loop's exp and its sum
   rounded in T).  */
#define NF_LOOP_DEFINE_SOFTMAX(SFX, T, ULPS, LOOSE)                           \
  __attribute__ ((noipa, optimize ("O0"))) static void                        \
  nf_loop_check_softmax_##SFX (const T *y, const T *x, size_t n, int fused)   \
  {                                                                           \
    static long double r[NF_LOOP_MAX];                                        \
    long double m = n ? x[0] : 0, s = 0;                                      \
    for (size_t i = 0; i < n; i++)                                            \
      m = x[i] > m ? x[i] : m;                                                \
    for (size_t i = 0; i < n; i++)                                            \
      s += r[i] = expl ((long double) x[i] - m);                              \
    CHECK (NF_PLUGIN || !fused);                                              \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	long double ref = r[i] / s, eg = ULPS (y[i], ref);                    \
	int ok = fused ? eg <= 1 : fabsl (y[i] - ref) <= (LOOSE) * ref;       \
	if (!nf_loop_elem (ok, "softmax_" #SFX, n, i, fused, y[i], ref, ref,  \
			   eg, 0))                                            \
	  break;                                                              \
      }                                                                       \
  }
NF_LOOP_DEFINE_SOFTMAX (f32, float, NF_ULPS_F, 1e-4L)
NF_LOOP_DEFINE_SOFTMAX (f64, double, NF_ULPS_D, 1e-12L)

/* nf_loop_check_nrm2_SFX (GOT, X, N, FUSED): GOT is sqrt (sum (X^2)) of
   T data summed in R (its type), checked as above against the plain
   loop.  */
#define NF_LOOP_DEFINE_NRM2(SFX, T, R, SQRT, ULPS, LOOSE)                     \
  __attribute__ ((noipa, optimize ("O0"))) static R                           \
  nf_loop_plain_nrm2_##SFX (const T *x, size_t n)                             \
  {                                                                           \
    R s = 0;                                                                  \
    for (size_t i = 0; i < n; i++)                                            \
      s += (R) x[i] * x[i];                                                   \
    return SQRT (s);                                                          \
  }                                                                           \
                                                                              \
  /* Not optimized: the plugin would fuse the reference itself.  */         \
  __attribute__ ((noipa, optimize ("O0"))) static void                        \
  nf_loop_check_nrm2_##SFX (R got, const T *x, size_t n, int fused)           \
  {                                                                           \
    long double ss = 0;                                                       \
    for (size_t i = 0; i < n; i++)                                            \
      ss += (long double) x[i] * x[i];                                        \
    long double r = sqrtl (ss);                                               \
    R o = nf_loop_plain_nrm2_##SFX (x, n);                                    \
    long double eg = ULPS (got, r), eo = ULPS (o, r);                         \
    CHECK (NF_PLUGIN || !fused);                                              \
    nf_loop_elem (fused ? eg <= 2 && (eg <= eo || eg <= NF_LOOP_CR)           \
			: fabsl (got - r) <= (LOOSE) * r,                     \
		  "nrm2_" #SFX, n, 0, fused, got, o, r, eg, eo);              \
  }

NF_LOOP_DEFINE_NRM2 (f32, float, float, sqrtf, NF_ULPS_F, 1e-5L)
NF_LOOP_DEFINE_NRM2 (f64, double, double, sqrt, NF_ULPS_D, 1e-12L)
#ifdef __FLT16_MAX__ /* no _Float16 on x86 before GCC 12 */
NF_LOOP_DEFINE_NRM2 (f16, _Float16, float, sqrtf, NF_ULPS_F, 1e-5L)
#endif

/* nf_loop_check_dist_SFX (GOT, A, B, N, MEAN, FUSED): GOT is the
   distance sqrt (sum ((A - B)^2)) of T data (B NULL: the norm of A), or
   with MEAN its RMS sqrt (sum / N), checked as the norms above against
   the plain loop that takes the differences and sums in R (the type of
   the result: for float data summed in double, the loop with exact
   differences, the most accurate of its forms).  */
#define NF_LOOP_DEFINE_DIST(SFX, T, R, SQRT, ULPS, LOOSE)                     \
  __attribute__ ((noipa, optimize ("O0"))) static R                           \
  nf_loop_plain_dist_##SFX (const T *a, const T *b, size_t n, int mean)       \
  {                                                                           \
    R s = 0;                                                                  \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	R d = (R) a[i] - (b ? (R) b[i] : 0);                                  \
	s += d * d;                                                           \
      }                                                                       \
    return SQRT (mean ? s / n : s);                                           \
  }                                                                           \
                                                                              \
  __attribute__ ((noipa, optimize ("O0"))) static void                        \
  nf_loop_check_dist_##SFX (R got, const T *a, const T *b, size_t n,          \
			    int mean, int fused)                              \
  {                                                                           \
    long double ss = 0;                                                       \
    if (mean && n == 0 && __FINITE_MATH_ONLY__)                               \
      return; /* 0 / 0: no NaN to compare under -ffinite-math-only.  */     \
    for (size_t i = 0; i < n; i++)                                            \
      {                                                                       \
	long double d = (long double) a[i] - (b ? b[i] : 0);                  \
	ss += d * d;                                                          \
      }                                                                       \
    long double r = sqrtl (mean ? ss / n : ss);                               \
    R o = nf_loop_plain_dist_##SFX (a, b, n, mean);                           \
    long double eg = ULPS (got, r), eo = ULPS (o, r);                         \
    CHECK (NF_PLUGIN || !fused);                                              \
    nf_loop_elem (fused ? (isnan (got) && isnan (r))                          \
			    || (eg <= 2 && (eg <= eo || eg <= NF_LOOP_CR))    \
			: (isnan (got) && isnan (r))                          \
			    || fabsl (got - r) <= (LOOSE) * r,                \
		  "dist_" #SFX, n, 0, fused, got, o, r, eg, eo);              \
  }

NF_LOOP_DEFINE_DIST (f32, float, float, sqrtf, NF_ULPS_F, 5e-4L)
NF_LOOP_DEFINE_DIST (f32d, float, double, sqrt, NF_ULPS_D, 1e-6L)
NF_LOOP_DEFINE_DIST (f64, double, double, sqrt, NF_ULPS_D, 1e-12L)

#endif /* NF_LOOP_H */
