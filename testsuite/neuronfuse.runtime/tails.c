/* Area: runtime, every kernel's handling of lengths, alignment and
   aliasing.
   Purpose: the vector kernels split arrays into a head, full vectors and
   a tail; whatever the split, each output must be what it would be
   anywhere else.  Elementwise kernels: for n = 0..70 at offsets 0..3
   (unaligned for every vector width), out of place and in place, y is
   bit for bit the result of one call over the whole array, and the
   elements just outside [0, n) are untouched.  RMSNorm: a row gives the
   same bits at every offset and in place.  nf_rmsnorm_rows_*: a batch
   big enough to run on threads and to stream its output (520 rows of
   4099, past 4 MiB), at an odd offset, gives each row's single-call
   bits.  Sums of squares: within their bounds of a long double sum for
   every n up to 70.  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include <neuronfuse.h>
#include <stdint.h>
#include <stdlib.h>

#define M 80
#define ROWS 520
#define COLS 4099

static uint64_t seed = 0x853c49e6748fea9bu;

/* A random double in [-4, 4).  */
static double
rnd (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double) (seed >> 11) * 0x1p-50 - 4;
}

/* ELEMWISE (T, kernel): the elementwise check for one kernel.  */
#define ELEMWISE(T, kernel)                                                    \
  do                                                                           \
    {                                                                          \
      static T x[M + 8], want[M + 8], y[M + 8];                                \
      for (size_t i = 0; i < M + 8; i++)                                       \
	x[i] = (T) rnd ();                                                     \
      kernel (want, x, M + 8);                                                 \
      for (size_t off = 0; off < 4; off++)                                     \
	for (size_t n = 0; n <= 70; n++)                                       \
	  {                                                                    \
	    for (size_t i = 0; i < M + 8; i++)                                 \
	      y[i] = (T) 1234;                                                 \
	    kernel (y + off, x + off, n);                                      \
	    for (size_t i = 0; i < M + 8; i++)                                 \
	      CHECK (i >= off && i < off + n                                   \
		       ? memcmp (&y[i], &want[i], sizeof (T)) == 0             \
		       : y[i] == (T) 1234);                                    \
	    memcpy (y, x, sizeof x);                                           \
	    kernel (y + off, y + off, n);                                      \
	    for (size_t i = off; i < off + n; i++)                             \
	      CHECK (memcmp (&y[i], &want[i], sizeof (T)) == 0);               \
	  }                                                                    \
    }                                                                          \
  while (0)

/* ROW (T, SFX, EPS): one RMSNorm row at every offset and in place.  */
#define ROW(T, SFX, EPS)                                                       \
  do                                                                           \
    {                                                                          \
      static T x[M + 8], w[M + 8], want[M + 8], y[M + 8], xs[M + 8];           \
      for (size_t n = 1; n <= 70; n++)                                         \
	{                                                                      \
	  for (size_t i = 0; i < n; i++)                                       \
	    xs[i] = (T) rnd (), w[i] = (T) (1 + rnd () / 8);                   \
	  for (int hasw = 0; hasw < 2; hasw++)                                 \
	    {                                                                  \
	      nf_rmsnorm_##SFX (want, xs, hasw ? w : NULL, n, EPS);            \
	      for (size_t off = 0; off < 4; off++)                             \
		{                                                              \
		  memcpy (x + off, xs, n * sizeof (T));                        \
		  for (size_t i = 0; i < M + 8; i++)                           \
		    y[i] = (T) 1234;                                           \
		  nf_rmsnorm_##SFX (y + off, x + off, hasw ? w : NULL, n,      \
				    EPS);                                      \
		  for (size_t i = 0; i < M + 8; i++)                           \
		    CHECK (i >= off && i < off + n                             \
			     ? memcmp (&y[i], &want[i - off], sizeof (T)) == 0 \
			     : y[i] == (T) 1234);                              \
		  nf_rmsnorm_##SFX (x + off, x + off, hasw ? w : NULL, n,      \
				    EPS);                                      \
		  CHECK (memcmp (x + off, want, n * sizeof (T)) == 0);         \
		}                                                              \
	    }                                                                  \
	}                                                                      \
    }                                                                          \
  while (0)

/* BATCH (T, SFX, EPS): nf_rmsnorm_rows_SFX against one call per row.  */
#define BATCH(T, SFX, EPS)                                                     \
  do                                                                           \
    {                                                                          \
      size_t total = (size_t) ROWS * COLS;                                     \
      T *x = malloc ((total + 1) * sizeof (T));                                \
      T *y = malloc ((total + 2) * sizeof (T));                                \
      T *w = malloc (COLS * sizeof (T)), *one = malloc (COLS * sizeof (T));    \
      CHECK (x &&y &&w &&one);                                                 \
      for (size_t i = 0; i < total; i++)                                       \
	x[i + 1] = (T) rnd ();                                                 \
      for (size_t i = 0; i < COLS; i++)                                        \
	w[i] = (T) (1 + rnd () / 8);                                           \
      y[total + 1] = (T) 1234;                                                 \
      nf_rmsnorm_rows_##SFX (y + 1, x + 1, w, ROWS, COLS, EPS);                \
      CHECK (y[total + 1] == (T) 1234);                                        \
      for (size_t r = 0; r < ROWS; r++)                                        \
	{                                                                      \
	  nf_rmsnorm_##SFX (one, x + 1 + r * COLS, w, COLS, EPS);              \
	  CHECK (memcmp (one, y + 1 + r * COLS, COLS * sizeof (T)) == 0);      \
	}                                                                      \
      /* In place, without a weight.  */                                       \
      memcpy (y + 1, x + 1, total * sizeof (T));                               \
      nf_rmsnorm_rows_##SFX (y + 1, y + 1, NULL, ROWS, COLS, EPS);             \
      for (size_t r = 0; r < ROWS; r += 17)                                    \
	{                                                                      \
	  nf_rmsnorm_##SFX (one, x + 1 + r * COLS, NULL, COLS, EPS);           \
	  CHECK (memcmp (one, y + 1 + r * COLS, COLS * sizeof (T)) == 0);      \
	}                                                                      \
      free (x), free (y), free (w), free (one);                                \
    }                                                                          \
  while (0)

int
main (void)
{
  nf_check_isa ();
  ELEMWISE (float, nf_expm1_f32);
  ELEMWISE (double, nf_expm1_f64);
  ELEMWISE (float, nf_log1p_f32);
  ELEMWISE (double, nf_log1p_f64);
  ELEMWISE (float, nf_expm1_fast_f32);
  ELEMWISE (float, nf_log1p_fast_f32);
  ROW (float, f32, 1e-5f);
  ROW (double, f64, 1e-6);
#ifdef __FLT16_MAX__ /* the f16 kernels: only where GCC has _Float16 */
  ROW (_Float16, f16, 1e-5f);
#endif
  BATCH (float, f32, 1e-5f);
  BATCH (double, f64, 1e-6);
#ifdef __FLT16_MAX__
  BATCH (_Float16, f16, 1e-5f);
#endif

  /* Sums of squares of every short length.  */
  static float xf[M];
  static double xd[M];
  for (size_t n = 0; n <= 70; n++)
    {
      long double sf = 0, sd = 0;
      for (size_t i = 0; i < n; i++)
	{
	  xf[i] = (float) rnd (), xd[i] = rnd ();
	  sf += (long double) xf[i] * xf[i], sd += (long double) xd[i] * xd[i];
	}
      CHECK (fabsl (nf_sumsq_f32 (xf, n) - sf) <= 0x1p-46L * sf);
      /* sf, sums of exact 48-bit squares in long double, is within
	 n 2^-64 itself: the norm in double rounds it once more.  */
      CHECK (fabsl (nf_nrm2d_f32 (xf, n) - sqrtl (sf)) <= 0x1p-52L * sqrtl (sf));
      CHECK (fabsl (nf_sumsq_f64 (xd, n) - sd) <= 0x1p-60L * sd);
      CHECK (fabsl (nf_nrm2_f64 (xd, n) - sqrtl (sd)) <= 0x1p-50L * sqrtl (sd));
    }
  NF_DONE ();
}
