/* rows.c: nf_rmsnorm_rows_*, RMSNorm of many rows of one length, split
   across threads with OpenMP.

   Each thread takes whole rows in static chunks (as ggml does): a row is
   at most a few microseconds of work, and splitting one would need a
   second reduction.  Small batches stay on the calling thread, because
   starting an OpenMP region costs about 1.1 us on a 2-core machine
   (notes/runtime-facts.md 5.4), as much as 3 to 10 rows of 4096 floats.
   When the output is too big to stay cached, the rows are written with
   non-temporal stores: they skip the read-for-ownership of each line, a
   third of a row pass's traffic where the memory system charges for it
   (1.4x on a Sapphire Rapids guest, runtime-facts 5.3; no change on the
   Zen 5 guest of bench/RESULTS.md, where plain stores already reach 0.75
   of memcpy).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

/* Below this many elements in all the rows, one thread does everything:
   2^17 elements are about 25 us of vector work, 20 times the cost of an
   OpenMP region here.  */
#define NF_ROWS_OMP_MIN ((size_t) 1 << 17)

/* From this many bytes of output up, rows are streamed past the caches:
   two to four times the L2 of a core of current x86 servers (1 or 2 MiB)
   and below their L3, so an output that could be reread from cache is not
   streamed.  */
#define NF_ROWS_STREAM_MIN ((size_t) 4 << 20)

void
nf_rmsnorm_rows_f32 (float *y, const float *x, const float *w, size_t rows,
		     size_t n, float eps)
{
  if (rows == 0 || n == 0)
    return;
  __typeof__ (NF_KERNEL (rmsnorm_f32)) k = NF_KERNEL (rmsnorm_f32);
  int stream = rows * n * sizeof *y >= NF_ROWS_STREAM_MIN;
#pragma omp parallel for schedule(static) if (rows * n >= NF_ROWS_OMP_MIN)
  for (size_t r = 0; r < rows; r++)
    k (y + r * n, x + r * n, w, n, eps, stream);
}

void
nf_rmsnorm_rows_f64 (double *y, const double *x, const double *w, size_t rows,
		     size_t n, double eps)
{
  if (rows == 0 || n == 0)
    return;
  __typeof__ (NF_KERNEL (rmsnorm_f64)) k = NF_KERNEL (rmsnorm_f64);
  int stream = rows * n * sizeof *y >= NF_ROWS_STREAM_MIN;
#pragma omp parallel for schedule(static) if (rows * n >= NF_ROWS_OMP_MIN)
  for (size_t r = 0; r < rows; r++)
    k (y + r * n, x + r * n, w, n, eps, stream);
}

#ifdef __FLT16_MAX__
void
nf_rmsnorm_rows_f16 (_Float16 *y, const _Float16 *x, const _Float16 *w,
		     size_t rows, size_t n, float eps)
{
  if (rows == 0 || n == 0)
    return;
  __typeof__ (NF_KERNEL (rmsnorm_f16)) k = NF_KERNEL (rmsnorm_f16);
  int stream = rows * n * sizeof *y >= NF_ROWS_STREAM_MIN;
#pragma omp parallel for schedule(static) if (rows * n >= NF_ROWS_OMP_MIN)
  for (size_t r = 0; r < rows; r++)
    k (y + r * n, x + r * n, w, n, eps, stream);
}
#endif
