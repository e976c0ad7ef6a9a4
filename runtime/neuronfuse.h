/* neuronfuse.h: the fused kernels that neuronfuse-rewritten code calls.

   Names are nf_<kind>_<dtype>.  Array kernels take (y, x, n): y[i] =
   f(x[i]) for i < n; n == 0 does nothing; exact in-place operation
   (y == x) is supported, any other overlap of y and x is undefined.
   Accuracy: every kernel is at least as accurate as the loop it replaces
   (DESIGN.md section 4); the bound of each is stated below.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NEURONFUSE_H
#define NEURONFUSE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = exp(x[i]) - 1.  f32: within 0.5 ulp + 2^-29 (evaluated in double,
   rounded once); f64: glibc expm1, < 0.8 ulp measured.  */
void nf_expm1_f32 (float *y, const float *x, size_t n);
void nf_expm1_f64 (double *y, const double *x, size_t n);

/* y[i] = log(1 + x[i]), same accuracy as nf_expm1_*.  */
void nf_log1p_f32 (float *y, const float *x, size_t n);
void nf_log1p_f64 (double *y, const double *x, size_t n);

/* The same kernels for the loops' signed zeros: y[i] = nf_expm1_*(x[i])
   + 0.0 (resp. nf_log1p_*), i.e. the same results except that x = -0
   gives +0, as the loop `y[i] = exp (x[i]) - 1` (resp. `log (1 + x[i])`)
   does, where nf_expm1_* and nf_log1p_* keep -0 as expm1 and log1p do.
   Same accuracy and speed (one addition of +0.0 per vector).  */
void nf_expm1_pz_f32 (float *y, const float *x, size_t n);
void nf_expm1_pz_f64 (double *y, const double *x, size_t n);
void nf_log1p_pz_f32 (float *y, const float *x, size_t n);
void nf_log1p_pz_f64 (double *y, const double *x, size_t n);

/* Scalar exp (x), expm1 (x) and log1p (x) of one float, evaluated in
   double and rounded once: within 0.5 ulp + 2^-20 ulp, i.e. correctly
   rounded but for rare inputs (glibc's expf: 0.502 ulp).  -0 gives -0
   (expf: 1), NaN NaN, expf (-Inf) = +0, expm1f (-Inf) = -1, log1pf (-1)
   = -Inf.  errno as glibc 2.36's expf, expm1f and log1pf set it: ERANGE
   when a finite x overflows (x > 0x1.62e42ep6, both exp functions) and,
   expf, when exp (x) < 2^-149 (x < -0x1.9d1d9ep6); log1pf, EDOM for x <
   -1 and ERANGE for x = -1.  For GCC on x86-64 they are declared with
   vector variants: a loop calling them is vectorized (at -O3, or at -O2
   under #pragma omp simd) into calls of the library's clones _ZGVbN4v_,
   _ZGVcN8v_, _ZGVdN8v_ and _ZGVeN16v_ (SSE2, AVX, AVX2, AVX-512), which
   give the f32 array kernels' bits (nf_expm1_f32, nf_log1p_f32), as
   accurate as the scalar function and different from it at most in the
   last bit, on inputs where neither is correctly rounded, and set errno
   as the scalar does, once per vector.  __const__ lets GCC drop or merge
   calls whose errno nobody reads, as it does with -fno-math-errno.
   (NF_DEFINE_CLONES: the library's own sources, which define the clones
   themselves; GCC would make its own of a definition under this
   declaration.)  */
#if defined __GNUC__ && !defined __clang__ && defined __x86_64__           \
  && !defined NF_DEFINE_CLONES
#define NF_SIMD_DECL                                                           \
  __attribute__ ((__simd__ ("notinbranch"), __const__, __nothrow__, __leaf__))
#else
#define NF_SIMD_DECL
#endif
NF_SIMD_DECL float nf_expf (float x);
NF_SIMD_DECL float nf_expm1f (float x);
NF_SIMD_DECL float nf_log1pf (float x);

/* The fast-math variants, for code built with
   -funsafe-math-optimizations (-ffast-math, -Ofast), where the user asked
   for speed: y[i] = expm1 (x[i]), log1p (x[i]) evaluated in float, within
   1 ulp of the exact result for every float input (measured over all
   2^32: at most 0.73 and 0.76 ulp).  NaN, infinities, x = -1 and
   overflow as expm1f / log1pf give them; +-0 keep their sign; the array
   kernels never set errno.  */
void nf_expm1_fast_f32 (float *y, const float *x, size_t n);
void nf_log1p_fast_f32 (float *y, const float *x, size_t n);

/* The scalar forms the plugin calls under -ffast-math: nf_expm1f and
   nf_log1pf (0.5 ulp, errno as they set it), with vector-ABI clones of
   their own (_ZGVbN4v_nf_expm1f_fast...) that compute with the fast
   kernels' float cores: within 1 ulp, errno never set.  */
NF_SIMD_DECL float nf_expm1f_fast (float x);
NF_SIMD_DECL float nf_log1pf_fast (float x);
#undef NF_SIMD_DECL

/* Elementwise programs: y[i] = f (x0[i], x1[i], s0..s3) for i < n, f the
   program PROG, byte code that the plugin encodes from a loop body of a
   few float operations around exp, expm1, log or log1p (ELU, SELU,
   softplus, ...); the format, each operation's semantics and accuracy
   are in ewprog.h.  Y, X0 and X1 are float or double arrays as PROG's
   header says (an input PROG does not use may be NULL).  Every
   operation but the transcendentals is the IEEE one, uncontracted, as C
   evaluates it; expm1 and log1p as the array kernels above (the fast
   ones if PROG asks for them), f32 exp as nf_expf.  errno is never set;
   y may be x0 or x1 exactly; n == 0 writes nothing.  A malformed PROG is
   a compiler bug: reported on stderr, then abort ().  */
void nf_elementwise (void *y, const void *x0, const void *x1, size_t n,
		     const unsigned char *prog, double s0, double s1,
		     double s2, double s3);

/* Row normalisation, RMSNorm: with r = 1 / sqrt (sum (x[j]^2) / n + eps),
   y[i] = x[i] * r * w[i] for i < n; W may be NULL (no weight, w[i] = 1).
   The whole sum is taken before anything is written, so y == x works;
   n == 0 reads and writes nothing.  NaN and Inf give what the plain loop
   gives (a NaN anywhere makes the row NaN; an Inf makes r = 0).  The sum
   is taken wider than the data, the rest in that wider type, and each
   y[i] is rounded once:
     f32: double sum, r in double, scaling by r as a float pair (exact to
	  2^-48), within 0.5 ulp + 2^-20 ulp + (n + 10) 2^-30 ulp;
     f64: long double Neumaier sum and long double scaling, within
	  0.5 ulp + 2^-8 ulp (x87 or binary128 long double);
     f16: double sum and scaling, within 0.5 ulp + (n + 10) 2^-43 ulp.
   The f64 sum cannot overflow or underflow (squares of doubles fit in
   long double), nor can the f32 and f16 ones in double.  */
void nf_rmsnorm_f32 (float *y, const float *x, const float *w, size_t n,
		     float eps);
void nf_rmsnorm_f64 (double *y, const double *x, const double *w, size_t n,
		     double eps);

/* ROWS rows of N contiguous elements, row r at x + r * n and y + r * n,
   each normalised as by nf_rmsnorm_* with the same weight W (N elements,
   or NULL).  Same accuracy; rows == 0 or n == 0 does nothing.  */
void nf_rmsnorm_rows_f32 (float *y, const float *x, const float *w,
			  size_t rows, size_t n, float eps);
void nf_rmsnorm_rows_f64 (double *y, const double *x, const double *w,
			  size_t rows, size_t n, double eps);

#ifdef __FLT16_MAX__
/* _Float16 data; EPS is a float.  See nf_rmsnorm_f32 and _rows_f32.
   (__extension__, here and below: _Float16 is no ISO C type, and a
   program built with -Wpedantic that includes this header, as the
   rewritten source does, would be told so.)  */
__extension__ void nf_rmsnorm_f16 (_Float16 *y, const _Float16 *x,
				   const _Float16 *w, size_t n, float eps);
__extension__ void nf_rmsnorm_rows_f16 (_Float16 *y, const _Float16 *x,
					const _Float16 *w, size_t rows,
					size_t n, float eps);
#endif

/* Softmax: with m = max x[k], y[i] = exp (x[i] - m) / sum_k exp (x[k] -
   m) for i < n, the loop `m = x[0]; for (...) if (x[i] > m) m = x[i];
   ... x[i] = expf (x[i] - m); s += x[i]; ... x[i] /= s;` (llama2.c's)
   and its forms seeded with -INFINITY or -FLT_MAX or taking fmaxf, which
   all give the same results.  y == x works (in place); any other
   overlap is undefined; n == 0 reads and writes nothing.  No libm call:
   exp of our own, errno never set.
   f32: x[i] - m exact in double, exp in double, the sum in double, each
   y[i] rounded once from the double quotient: within 0.5 ulp + 2^-20
   ulp + n 2^-29 ulp of the exact softmax of the float inputs (1 ulp for
   n <= 2^28; the loop rounds exp, the sum in float and the quotient).
   f64: x[i] - m as an exact double-double, exp to about 2^-58, the sum
   compensated, y[i] rounded once: within 0.5 ulp + 2^-4 ulp.
   Special values, as the loop gives them: a NaN anywhere, or any +Inf
   (Inf - Inf), or every element -Inf makes every y[i] NaN (payload and
   sign unspecified); -Inf elements among finite ones give +0 (masked
   attention); results are never infinite; +0 where the quotient rounds
   to 0.  FP flags: INVALID only for an element +Inf or a max of -Inf,
   as the loop raises it (a NaN alone raises nothing: the compares are
   quiet); never DIVBYZERO or OVERFLOW; inexact and underflow may
   differ from the loop's.  */
void nf_softmax_f32 (float *y, const float *x, size_t n);
void nf_softmax_f64 (double *y, const double *x, size_t n);

/* Extension (not called by rewritten code): the threads of
   nf_rmsnorm_rows_*.  A rows call splits its rows into static chunks of
   whole rows over up to nf_get_num_threads () threads, the caller's one
   of them (fewer if there are fewer rows; one below 2^18 elements
   in all, where starting the others costs more than it saves).  The
   count is N after nf_set_num_threads (N) with N >= 1, from any thread,
   for the calls that start after it; else NEURONFUSE_THREADS if set to a
   positive number, else OMP_NUM_THREADS (its first number), which the
   OpenMP version of the library obeyed, else the CPUs this process may
   run on; at most 64.  nf_set_num_threads (0) goes back to that
   default; the environment is read once, on first use.  The other
   threads are started on the first call that needs them and then sleep
   between calls; loading the library starts or allocates nothing.  */
void nf_set_num_threads (int n);
int nf_get_num_threads (void);

/* Euclidean norm sqrt (sum (x[i]^2)); 0 for n == 0.  No spurious
   overflow or underflow: f32 squares are summed in double, whose range
   holds them all; f64 ones in double where the sum is comfortably inside
   double's range, else again in long double (x87 or binary128), whose
   range holds the square of every double.  Any NaN gives NaN, else any
   Inf gives Inf.  f32 within 0.5 ulp + n 2^-29 ulp.  f64 within 2 ulp:
   the sum's relative error is at most 3 2^-53 whatever n (squares
   rounded at most three times, then summed error-free), where the plain
   loop's grows as (n - 1) 2^-53; rows shorter than 16 take nf_sumsq_f64's
   sum instead, within 0.5 ulp + 2^-10 ulp.  */
float nf_nrm2_f32 (const float *x, size_t n);
double nf_nrm2_f64 (const double *x, size_t n);

#ifdef __FLT16_MAX__
/* The Euclidean norm of _Float16 data, as a float; 0 for n == 0.  The
   squares are exact in float and double; they are summed in double,
   whose range holds every square (2^-48 to 2^32), so nothing overflows
   or underflows, and the root is taken in double and rounded once to
   float (rounding the root to double first moves the result only where
   the exact norm lies within 2^-29 ulp of a midpoint, inside the bound):
   within 0.5 ulp + n 2^-29 ulp of the exact norm.  Never less accurate
   than the plain loop `float s = 0; ... s += x[i] * x[i]; return sqrtf
   (s);` it replaces, whose float sum errs by up to (n - 1) 2^-24 (and
   stops growing once a square is below half an ulp of it: 2^24 ones sum
   to 2^24 whatever n).  Any NaN gives NaN, else any Inf gives Inf.  */
__extension__ float nf_nrm2_f16 (const _Float16 *x, size_t n);
#endif

/* The Euclidean norm of floats in double, as sqrt (s) of a double sum
   of (double) x[i] * x[i] computes it: the squares (exact in double)
   summed without error (TwoSum, then long double), its root rounded
   once: within 0.5 ulp + 2^-11 ulp whatever n, where the plain double
   loop's sum alone errs by up to (n - 1) 2^-53.  0 for n == 0, NaN and
   Inf as nf_nrm2_*.  */
double nf_nrm2d_f32 (const float *x, size_t n);

/* Distances and root mean squares (issue 19): nf_dist_* is the Euclidean
   distance sqrt (sum ((a[i] - b[i])^2)) (k-means, nearest neighbours),
   nf_rms_* the root mean square difference sqrt (sum ((a[i] - b[i])^2)
   / n) (RMSE); B may be NULL (b[i] = 0: the norm of A, its RMS).  Each
   difference and square is taken in a wider type than the data (f32: in
   double, the difference exact whenever the exponents of a[i] and b[i]
   are within 29 of each other; f64: in long double), summed wider than
   the result (f32: in double, rounded once to float; the _d_ forms, for
   a float loop summing in double, and f64: compensated in long double),
   divided by n there, and the root rounded once.  Never less accurate
   than the plain loop `s += (a[i] - b[i]) * (a[i] - b[i])` in the
   result's type.  n == 0: the distance is 0, the RMS NaN (0 / 0, as the
   loop gives it).  NaN anywhere gives NaN, else any Inf gives Inf.  */
float nf_dist_f32 (const float *a, const float *b, size_t n);
double nf_dist_f64 (const double *a, const double *b, size_t n);
double nf_dist_d_f32 (const float *a, const float *b, size_t n);
float nf_rms_f32 (const float *a, const float *b, size_t n);
double nf_rms_f64 (const double *a, const double *b, size_t n);
double nf_rms_d_f32 (const float *a, const float *b, size_t n);

/* RMSNorm with Gemma's gain: y[i] = x[i] * r * (1 + w[i]), r as in
   nf_rmsnorm_* (W not NULL); 1 + w[i] and the products are taken in the
   wider type and each y[i] is rounded once; the accuracy, y == x, n == 0
   and special values as nf_rmsnorm_*.  */
void nf_rmsnorm1p_f32 (float *y, const float *x, const float *w, size_t n,
		       float eps);
void nf_rmsnorm1p_f64 (double *y, const double *x, const double *w,
		       size_t n, double eps);

/* Residual add then RMSNorm (vLLM's fused_add_rms_norm, llama2.c's
   `x[i] += xb[i]` before its rmsnorm): x[i] = x[i] + r[i] for i < n,
   each sum rounded once to the data's type and stored back into X, as
   the loop stores it; then Y = the RMSNorm of the updated x with gain W
   (NULL: none) and EPS, as nf_rmsnorm_* computes it (same accuracy).
   One pass over memory for the add and the sum of squares.  y == x
   works (y then holds the normalised row, as the loops leave it); R must
   not overlap X; Y may be R or overlap it (all of R is read before Y is
   written, as by the loops); W and Y as for nf_rmsnorm_*; n == 0 does
   nothing.  */
void nf_add_rmsnorm_f32 (float *y, float *x, const float *r, const float *w,
			 size_t n, float eps);
void nf_add_rmsnorm_f64 (double *y, double *x, const double *r,
			 const double *w, size_t n, double eps);

/* L2 normalisation with a floor (PyTorch's F.normalize):
   y[i] = x[i] / fmax (sqrt (sum (x[j]^2)), eps).  The norm as nf_nrm2_*
   takes it but kept in the wider type, the floor and the quotient taken
   there, each y[i] rounded once.  fmax's rule for NaN: a NaN norm gives
   eps (NaN elements stay NaN, the others are x[i] / eps), as fmaxf in
   the loop does.  y == x works; n == 0 reads and writes nothing.  */
void nf_l2normalize_f32 (float *y, const float *x, size_t n, float eps);
void nf_l2normalize_f64 (double *y, const double *x, size_t n, double eps);

/* Sum of the squares of X[0..N-1], the building block of the kernels
   above; 0 for n == 0, NaN and Inf as nf_nrm2_*.  f32: plain double sum,
   relative error at most (n - 1) 2^-53 (the squares are exact).  f64:
   long double squares (relative error 2^-64 each) summed with Neumaier's
   compensation, relative error at most about 3 2^-64 for n < 2^30.  */
double nf_sumsq_f32 (const float *x, size_t n);
long double nf_sumsq_f64 (const double *x, size_t n);

/* Dot: y[i] = sum_j w[i * n + j] * x[j] for i < d (a row-major d x n
   matrix W, rows one after another), and the dot product of A and B.
   The float kernels (f16: _Float16 weights, float x and y) sum the
   products, exact in double, in double and round once:
   |y[i] - exact| <= 0.5 ulp (y[i]) + (n / 8 + 8) 2^-53 sum_j |w x|, where
   the float loop errs by up to (n - 1) 2^-24 sum_j |w x|.  f64: Dot2
   (compensated), as if summed in twice double's precision and rounded
   once.  NaN anywhere gives NaN; infinities as the loop's sum.  Y must
   not overlap W or X.  The rows are split over threads from 2^15
   elements up (nf_set_num_threads); the result is the same for any
   number of threads.  n == 0 gives zeros.  */
void nf_matvec_f32 (float *y, const float *w, const float *x, size_t d,
		    size_t n);
void nf_matvec_f64 (double *y, const double *w, const double *x, size_t d,
		    size_t n);
float nf_dot_f32 (const float *a, const float *b, size_t n);
double nf_dot_f64 (const double *a, const double *b, size_t n);
#ifdef __FLT16_MAX__
__extension__ void nf_matvec_f16 (float *y, const _Float16 *w, const float *x,
				  size_t d, size_t n);
#endif

/* The instruction set the kernels run with: "avx512" (AVX-512 F, DQ, VL,
   BW), "avx2" (AVX2, FMA, F16C) or "generic" (portable C).  Chosen once,
   on the first call of any kernel, as the best the CPU and OS support,
   capped by the environment variable NEURONFUSE_ISA=generic|avx2|avx512
   if set (other values are ignored).  */
const char *nf_runtime_isa (void);

#ifdef __cplusplus
}
#endif

#endif /* NEURONFUSE_H */
