/* Area: runtime, nf_matvec_f32/f16 (kind Dot): the kernels' paths give
   a row the same bits.  A chunk of at least eight rows whose x fits the
   kernel's buffer (n below 2048 + 16) converts x to double once and
   sums four rows at a time, their lanes added together in vectors;
   fewer rows (nf_dot_f32, four-row calls) or a longer x convert x as
   they go, and the rows left over go one at a time.  For d = 8, 9, 12
   and 67 rows by n from 0 to 40 and 47 to 49, 63, 64, 100, 288, 768,
   1024, 2047, 2048, 2049, 2063, 2064, 2065 and 4099, the whole product
   (on 1, 2, 3 and 7 threads) equals one call per row and one call per
   four rows, bit for bit; an infinity or a NaN in one row of the
   buffered path gives that row what the one-row call gives (Inf or NaN)
   and leaves the other rows alone.  (matvec.c checks the error bound,
   on 67-row products that take the buffered path.)  */
/* { dg-do run } */

#include "nf-test.h"
#include "isa.h"
#include <math.h>
#include <neuronfuse.h>
#include <stdint.h>
#include <string.h>

#define MAXD 67
#define MAXN 4099

static uint64_t seed = 0x2545f4914f6cdd1du;

static double
unif (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (double) (seed >> 11) * 0x1p-53 * 2 - 1;
}

static float wf[MAXD * MAXN], xf[MAXN], y[MAXD], z[MAXD];
#ifdef __FLT16_MAX__
static _Float16 wh[MAXD * MAXN];
#endif

/* Whether A and B hold the same bits, or are both NaN.  */
static int
same (float a, float b)
{
  return memcmp (&a, &b, sizeof a) == 0 || (isnan (a) && isnan (b));
}

/* Check nf_matvec_f32 (W, X) of D x N against the other paths.  */
static void
paths_f32 (size_t d, size_t n)
{
  nf_set_num_threads (1);
  nf_matvec_f32 (y, wf, xf, d, n);
  for (size_t i = 0; i < d; i++)
    CHECK (same (nf_dot_f32 (wf + i * n, xf, n), y[i]));
  for (size_t i = 0; i + 4 <= d; i += 4)
    {
      nf_matvec_f32 (z, wf + i * n, xf, 4, n);
      for (size_t k = 0; k < 4; k++)
	CHECK (same (z[k], y[i + k]));
    }
  static const int counts[] = { 2, 3, 7 };
  for (size_t k = 0; k < NF_N (counts); k++)
    {
      nf_set_num_threads (counts[k]);
      nf_matvec_f32 (z, wf, xf, d, n);
      for (size_t i = 0; i < d; i++)
	CHECK (same (z[i], y[i]));
    }
  nf_set_num_threads (0);
}

#ifdef __FLT16_MAX__
static void
paths_f16 (size_t d, size_t n)
{
  nf_set_num_threads (1);
  nf_matvec_f16 (y, wh, xf, d, n);
  for (size_t i = 0; i < d; i++)
    {
      nf_matvec_f16 (z, wh + i * n, xf, 1, n);
      CHECK (same (z[0], y[i]));
    }
  nf_set_num_threads (3);
  nf_matvec_f16 (z, wh, xf, d, n);
  for (size_t i = 0; i < d; i++)
    CHECK (same (z[i], y[i]));
  nf_set_num_threads (0);
}
#endif

static void
random_case (size_t d, size_t n)
{
  for (size_t k = 0; k < d * n; k++)
    {
      wf[k] = (float) unif ();
#ifdef __FLT16_MAX__
      wh[k] = (_Float16) wf[k];
#endif
    }
  for (size_t j = 0; j < n; j++)
    xf[j] = (float) (unif () * 4);
  paths_f32 (d, n);
#ifdef __FLT16_MAX__
  paths_f16 (d, n);
#endif
}

/* Row 5 of a 67 x N product with W[5 * N + J] = A and X[J] = XV,
   against the one-row calls; row 5 (ALL: every row) must come out Inf
   (WANT 'i') or NaN ('n').  */
static void
special (size_t n, size_t j, float a, float xv, char want, int all)
{
  size_t d = MAXD;
  for (size_t k = 0; k < d * n; k++)
    wf[k] = (float) unif ();
  for (size_t k = 0; k < n; k++)
    xf[k] = (float) (unif () * 4);
  wf[5 * n + j] = a;
  xf[j] = xv;
  nf_set_num_threads (1);
  nf_matvec_f32 (y, wf, xf, d, n);
  for (size_t i = 0; i < d; i++)
    {
      CHECK (same (nf_dot_f32 (wf + i * n, xf, n), y[i]));
      if (i == 5 || all)
	CHECK (want == 'i' ? isinf (y[i]) : isnan (y[i]));
      else
	CHECK (isfinite (y[i]));
    }
  nf_set_num_threads (0);
}

int
main (void)
{
  nf_check_isa ();
  static const size_t ds[] = { 8, 9, 12, MAXD };
  static const size_t ns[] = { 47,   48,   49,   63,   64,   100,
			       288,  768,  1024, 2047, 2048, 2049,
			       2063, 2064, 2065, 4099 };
  for (size_t a = 0; a < NF_N (ds); a++)
    {
      for (size_t n = 0; n <= 40; n++)
	random_case (ds[a], n);
      for (size_t b = 0; b < NF_N (ns); b++)
	random_case (ds[a], ns[b]);
    }
  /* In the vectors (j = 3, 100) and in the tail (j = 290 of 300).  */
  special (288, 3, INFINITY, 1, 'i', 0);
  special (288, 100, -INFINITY, 1, 'i', 0);
  special (288, 100, NAN, 1, 'n', 0);
  special (300, 290, INFINITY, 1, 'i', 0);
  special (288, 3, INFINITY, 0, 'n', 0);
  special (288, 3, 1, NAN, 'n', 1);
  special (300, 290, 1, NAN, 'n', 1);
  NF_DONE ();
}
