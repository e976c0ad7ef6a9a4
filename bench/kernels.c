/* kernels.c: how much faster libneuronfuse's kernels are than the loops
   users would otherwise write (bench/naive.c), and how close its RMSNorm
   on memory-resident rows comes to memcpy.  Prints one table with issue
   5's goals; `make bench` runs it.  A benchmark, not a test: it exits 0
   whatever the speed, and non-zero only when something is broken (a
   kernel's result disagrees grossly with the naive loop's, or memory
   cannot be had).

   What is timed.  Each workload is a group of variants that do the same
   work: the library kernel, the naive loop built at -O2 and at
   -O3 -ffast-math -march=native (two objects of naive.c, which the driver
   cannot inline), and for the memory rows memcpy of the same bytes.  The
   variants of a group are timed interleaved in this one process: every
   repetition runs each variant once, in an order that rotates by one each
   repetition, and each variant's result is the median over the
   repetitions.  Interleaving is what makes the ratios trustworthy on a
   shared 2-core VM: frequency changes, a neighbour's burst or the host's
   memory traffic hit all variants of the same repetition alike, where
   timing A for a minute and then B for a minute would fold that drift
   into the ratio.  Rotating keeps any variant from always running right
   after the same one (after memcpy flushed the caches, or after the
   2-thread run left a worker thread busy).  The median ignores the
   repetitions an interrupt or a migration hit.

   In-cache workloads (4096 elements, 16 or 32 KiB per array, L1 and L2
   resident) are too short to time one call: each sample times as many
   back-to-back calls as fill about SAMPLE_NS (calibrated per variant
   during the warm-up, which also settles the clock frequency and faults
   in the code), and divides.  Memory workloads time one whole pass over
   8192 x 4096 floats (128 MiB in, 128 MiB out) per sample.  Clock:
   CLOCK_MONOTONIC, whose resolution (tens of ns) is far below a sample.

   Pitfalls this avoids.  The memory buffers must be much bigger than the
   caches (1 to 2 MiB of L2 per core; memcpy's bandwidth drops between 32
   and 64 MiB here), or the "DRAM" rows measure cache bandwidth; and their
   pages must be faulted in before timing (the first touch of 256 MiB
   costs 65536 page faults, more than the pass itself), so both are
   written once at allocation.

   The bandwidth counts bytes as STREAM does, in + out (a copy of B bytes
   moves 2 B), with GB = 10^9 bytes, and memcpy is timed on the very same
   buffers so that page size, alignment and TLB reach are the same for
   both.  Results are checked loosely against the naive -O2 loop before
   timing, so a broken kernel (one that skips work) cannot post a great
   time.  Threads: nf_rmsnorm_rows_f32 is timed with nf_set_num_threads
   (1) and (2), the library's own setter (it splits with a pool of POSIX
   threads, not OpenMP); the pool's worker is started during the
   correctness check, before any timing.

   Usage: bench/kernels [CACHE_REPS [MEMORY_REPS [ONLY]]], ONLY one of
   calls (the rows of the scalar functions and the clones), softmax,
   matvec, issue19 (the distance, Gemma and L2 rows) and memory (the
   memory-resident RMSNorm and residual-add rows).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "neuronfuse.h"
#include "ewprog.h"
#include "naive.h"
#include "calls.h"
#include "clones.h"

#include <gnu/libc-version.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The library names its dispatched ISA once it has fast kernels; weak, so
   that this builds and runs against a library without it (then NULL).  */
extern const char *nf_runtime_isa (void) __attribute__ ((weak));

/* The flags naive.c's objects were built with (set by Makefile.am).  */
#ifndef NAIVE_O2_FLAGS
#define NAIVE_O2_FLAGS "-O2"
#endif
#ifndef CALLS_SC_FLAGS
#define CALLS_SC_FLAGS "-O2 -fno-tree-vectorize"
#define CALLS_O3_FLAGS "-O3"
#define CALLS_NAT_FLAGS "-O3 -march=native"
#endif
#ifndef NAIVE_FAST_FLAGS
#define NAIVE_FAST_FLAGS "-O3 -ffast-math -march=native"
#endif
#ifndef NAIVE_OFAST_FLAGS
#define NAIVE_OFAST_FLAGS "-Ofast"
#endif

enum
{
  N = 4096,	   /* Elements of the in-cache arrays and of a row.  */
  ROWS = 8192,	   /* Rows of the memory workloads: 128 MiB of floats.  */
  MAX_REPS = 1001, /* Bound of the repetition arguments.  */
  MAX_ROWS = 128	   /* Rows of the printed table.  */
};

#define BIG_ELEMS ((size_t) ROWS * N)
#define BIG_BYTES (BIG_ELEMS * sizeof (float))
#define EPS 1e-5f

/* Default repetitions: the whole run takes about 15 s on 2 cores.  Each
   in-cache sample lasts about SAMPLE_NS; the warm-up runs each in-cache
   variant for WARM_NS.  */
#define CACHE_REPS 51
#define MEMORY_REPS 21
#define SAMPLE_NS 2e6
#define WARM_NS 2e7

/* In-cache data, aligned as allocators align big arrays.  The outputs of
   the checks (REF, ALT) are separate from the kernels' (Y) so that each
   can be compared with the naive -O2 loop's.  */
static _Alignas(64) float xf[N], wf[N], yf[N], reff[N], altf[N];
static _Alignas(64) float xf_exp[N], xf_log[N];
/* The clone rows' logarithm inputs: u = exp (x) for logf, u - 1 for
   log1pf (the same work), x from xf_exp.  */
static _Alignas(64) float xf_lgu[N], xf_lgv[N];
static _Alignas(64) double xd[N], yd[N], refd[N];
static _Alignas(64) double xd_exp[N], xd_log[N];
#ifdef __FLT16_MAX__
static _Alignas(64) _Float16 xh[N];
#endif
static float rowf[N]; /* One row of the naive result, for the checks.  */

/* Memory-resident data: ROWS x N floats in, the same out.  */
static float *big_x, *big_y;

/* Results of the nrm2 variants: a global the compiler must store.  */
static volatile double sink;

/* One variant of a workload: RUN does the work once.  */
struct variant
{
  const char *name;
  void (*run) (void);
  long inner;	      /* Calls per sample.  */
  double t[MAX_REPS]; /* ns per call, per repetition.  */
  double med;	      /* Their median.  */
};

/* One line of the table.  GOAL is the issue's minimum ratio, 0 for rows
   given for information.  */
struct row
{
  char workload[64], kernel[24], baseline[40];
  double ratio, goal;
  int wrong; /* The check of this row's kernel failed.  */
};

static struct row table[MAX_ROWS];
static int nrows;
static int broken; /* Set by a failed check: the exit status.  */

/* Return CLOCK_MONOTONIC in ns.  */
static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* xorshift64*: deterministic inputs, the same every run.  */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

/* Return a uniform double in [LO, HI).  */
static double
uniform (double lo, double hi)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  unsigned long long r = rng_state * 0x2545f4914f6cdd1dull;
  return lo + (hi - lo) * (double) (r >> 11) * 0x1p-53;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Return the median of the N values at T (T is left as it was).  */
static double
median (const double *t, int n)
{
  double s[MAX_REPS];
  memcpy (s, t, n * sizeof *t);
  qsort (s, n, sizeof *s, cmp_double);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Time the NV variants at V interleaved, REPS repetitions, and set each
   one's median.  With SAMPLE > 0 (in-cache work) each variant is first
   run for WARM_NS and each sample then times as many calls as last about
   SAMPLE ns; with SAMPLE == 0 (a pass over memory) each variant is run
   twice to warm up and a sample is one call.  */
static void
time_group (struct variant *v, int nv, int reps, double sample)
{
  for (int i = 0; i < nv; i++)
    {
      long calls = 0;
      double t0 = now_ns (), t;
      do
	{
	  v[i].run ();
	  calls++;
	}
      while ((t = now_ns () - t0) < (sample > 0 ? WARM_NS : 0) || calls < 2);
      v[i].inner = 1;
      if (sample > 0 && t / calls < sample)
	v[i].inner = (long) (sample / (t / calls));
    }
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < nv; k++)
      {
	struct variant *p = &v[(r + k) % nv];
	double t0 = now_ns ();
	for (long j = 0; j < p->inner; j++)
	  p->run ();
	p->t[r] = (now_ns () - t0) / p->inner;
      }
  for (int i = 0; i < nv; i++)
    v[i].med = median (v[i].t, reps);
}

/* Return whether GOT[0..N-1] agree with REF within ATOL + RTOL |REF|
   (and in NaN-ness); print the first disagreement under NAME.  Loose on
   purpose: the naive loops are less accurate than the kernels, this only
   catches kernels that compute something else or nothing.  */
static int
close_f32 (const char *name, const float *got, const float *ref, size_t n,
	   double rtol, double atol)
{
  for (size_t i = 0; i < n; i++)
    if (isnan (got[i]) != isnan (ref[i])
	|| fabs ((double) got[i] - ref[i]) > atol + rtol * fabs (ref[i]))
      {
	fprintf (stderr, "kernels: %s: [%zu] = %.9g, the -O2 loop gives %.9g\n",
		 name, i, got[i], ref[i]);
	return 0;
      }
  return 1;
}

/* As close_f32, for doubles.  */
static int
close_f64 (const char *name, const double *got, const double *ref, size_t n,
	   double rtol, double atol)
{
  for (size_t i = 0; i < n; i++)
    if (isnan (got[i]) != isnan (ref[i])
	|| fabs (got[i] - ref[i]) > atol + rtol * fabs (ref[i]))
      {
	fprintf (stderr,
		 "kernels: %s: [%zu] = %.17g, the -O2 loop gives %.17g\n", name,
		 i, got[i], ref[i]);
	return 0;
      }
  return 1;
}

/* Fill the N bytes at P with NaNs (all bits set), so that a check after
   a kernel call sees what the kernel wrote and not what an earlier call
   left there.  */
static void
poison (void *p, size_t n)
{
  memset (p, 0xff, n);
}

/* Add a table row: WORKLOAD; the kernel's median KERN and the
   baseline's BASE (ns per call of the same work) shown as ns per element
   of PER_ELEM elements, or, if PER_ELEM is 0, as GB/s of BIG_BYTES in
   + out; BASE_NAME names the baseline.  The ratio is BASE / KERN (the
   speed-up, or the fraction of the baseline's bandwidth).  GOAL as in
   struct row; OK is the result of the kernel's check.  */
static void
add_row (const char *workload, double kern, const char *base_name, double base,
	 double per_elem, double goal, int ok)
{
  struct row *r = &table[nrows++];
  snprintf (r->workload, sizeof r->workload, "%s", workload);
  if (per_elem)
    {
      snprintf (r->kernel, sizeof r->kernel, "%.3f ns/el", kern / per_elem);
      snprintf (r->baseline, sizeof r->baseline, "%s %.3f ns/el", base_name,
		base / per_elem);
    }
  else
    {
      snprintf (r->kernel, sizeof r->kernel, "%.2f GB/s", 2 * BIG_BYTES / kern);
      snprintf (r->baseline, sizeof r->baseline, "%s %.2f GB/s", base_name,
		2 * BIG_BYTES / base);
    }
  r->ratio = base / kern;
  r->goal = goal;
  r->wrong = !ok;
  if (!ok)
    broken = 1;
}

/* The variants.  Each does one call's work on the global buffers.  */

static void
k_rmsnorm (void)
{
  nf_rmsnorm_f32 (yf, xf, wf, N, EPS);
}
static void
o2_rmsnorm (void)
{
  naive_o2_rmsnorm (yf, xf, wf, N);
}
static void
fast_rmsnorm (void)
{
  naive_fast_rmsnorm (yf, xf, wf, N);
}

/* RMSNorm of memory-resident rows, one library call per row: what the
   plugin makes of a loop over rows.  */
static void
k_rmsnorm_per_row (void)
{
  for (size_t r = 0; r < ROWS; r++)
    nf_rmsnorm_f32 (big_y + r * N, big_x + r * N, wf, N, EPS);
}
static void
o2_rmsnorm_per_row (void)
{
  naive_o2_rmsnorm_rows (big_y, big_x, wf, ROWS, N);
}
static void
k_rmsnorm_rows_1t (void)
{
  nf_set_num_threads (1);
  nf_rmsnorm_rows_f32 (big_y, big_x, wf, ROWS, N, EPS);
}
static void
k_rmsnorm_rows_2t (void)
{
  nf_set_num_threads (2);
  nf_rmsnorm_rows_f32 (big_y, big_x, wf, ROWS, N, EPS);
}
static void
big_memcpy (void)
{
  memcpy (big_y, big_x, BIG_BYTES);
}

static void
k_expm1_f32 (void)
{
  nf_expm1_f32 (yf, xf_exp, N);
}
static void
o2_expm1_f32 (void)
{
  naive_o2_expm1_f32 (yf, xf_exp, N);
}
static void
fast_expm1_f32 (void)
{
  naive_fast_expm1_f32 (yf, xf_exp, N);
}
static void
k_log1p_f32 (void)
{
  nf_log1p_f32 (yf, xf_log, N);
}
static void
o2_log1p_f32 (void)
{
  naive_o2_log1p_f32 (yf, xf_log, N);
}
static void
fast_log1p_f32 (void)
{
  naive_fast_log1p_f32 (yf, xf_log, N);
}
static void
k_expm1_fast_f32 (void)
{
  nf_expm1_fast_f32 (yf, xf_exp, N);
}
static void
k_log1p_fast_f32 (void)
{
  nf_log1p_fast_f32 (yf, xf_log, N);
}
static void
k_expm1_f64 (void)
{
  nf_expm1_f64 (yd, xd_exp, N);
}
static void
o2_expm1_f64 (void)
{
  naive_o2_expm1_f64 (yd, xd_exp, N);
}
static void
fast_expm1_f64 (void)
{
  naive_fast_expm1_f64 (yd, xd_exp, N);
}
static void
k_log1p_f64 (void)
{
  nf_log1p_f64 (yd, xd_log, N);
}
static void
o2_log1p_f64 (void)
{
  naive_o2_log1p_f64 (yd, xd_log, N);
}
static void
fast_log1p_f64 (void)
{
  naive_fast_log1p_f64 (yd, xd_log, N);
}

static void
k_nrm2_f32 (void)
{
  sink = nf_nrm2_f32 (xf, N);
}
static void
o2_nrm2_f32 (void)
{
  sink = naive_o2_nrm2_f32 (xf, N);
}
static void
fast_nrm2_f32 (void)
{
  sink = naive_fast_nrm2_f32 (xf, N);
}
static void
k_nrm2_f64 (void)
{
  sink = nf_nrm2_f64 (xd, N);
}
static void
o2_nrm2_f64 (void)
{
  sink = naive_o2_nrm2_f64 (xd, N);
}
static void
fast_nrm2_f64 (void)
{
  sink = naive_fast_nrm2_f64 (xd, N);
}
#ifdef __FLT16_MAX__
static void
k_nrm2_f16 (void)
{
  sink = nf_nrm2_f16 (xh, N);
}
static void
o2_nrm2_f16 (void)
{
  sink = naive_o2_nrm2_f16 (xh, N);
}
static void
fast_nrm2_f16 (void)
{
  sink = naive_fast_nrm2_f16 (xh, N);
}
#endif

/* The scalar functions and their clones (bench/calls.c): per-element
   calls, not vectorized, and the loops GCC vectorizes through the
   clones at -O3 and -O3 -march=native.  */
#define CALLS_VARIANT(sfx, f, in)                                              \
  static void c_##sfx##_##f (void) { calls_##sfx##_##f (yf, in, N); }
CALLS_VARIANT (sc, nf_expf, xf_exp)
CALLS_VARIANT (sc, expf, xf_exp)
CALLS_VARIANT (o3, nf_expf, xf_exp)
CALLS_VARIANT (o3, expf, xf_exp)
CALLS_VARIANT (nat, nf_expf, xf_exp)
CALLS_VARIANT (nat, expf, xf_exp)
CALLS_VARIANT (sc, nf_expm1f, xf_exp)
CALLS_VARIANT (sc, expf_m1, xf_exp)
CALLS_VARIANT (sc, expm1f, xf_exp)
CALLS_VARIANT (o3, nf_expm1f, xf_exp)
CALLS_VARIANT (nat, nf_expm1f, xf_exp)
CALLS_VARIANT (sc, nf_log1pf, xf_log)
CALLS_VARIANT (sc, logf_1p, xf_log)
CALLS_VARIANT (sc, log1pf, xf_log)
CALLS_VARIANT (o3, nf_log1pf, xf_log)
CALLS_VARIANT (nat, nf_log1pf, xf_log)
#undef CALLS_VARIANT

/* One function's group: the scalar function SC against the glibc
   expression it replaces (BASE, BASE_NAME) and glibc's own function
   (LIBM, LIBM_NAME), per-element calls; the clone loops O3 and NAT
   against the array kernel K.  All six interleaved; every variant's
   result must be the kernel's (the clones' bit for bit, the scalar's
   within a bit (runtime/scalarf.c computes it differently), the glibc
   ones within 4 float ulps).  */
static void
bench_calls (const char *fname, void (*k) (void),
	     void (*sc) (void), void (*base) (void), const char *base_name,
	     void (*libm) (void), const char *libm_name, void (*o3) (void),
	     void (*nat) (void), int reps)
{
  void (*fns[5]) (void) = { sc, o3, nat, base, libm };
  poison (reff, sizeof reff);
  k ();
  memcpy (reff, yf, sizeof reff);
  int ok = 1;
  for (int i = 0; i < 5; i++)
    {
      poison (yf, sizeof yf);
      fns[i] ();
      if (i > 0 && i < 3 && memcmp (yf, reff, sizeof yf) != 0)
	{
	  fprintf (stderr, "kernels: %s: variant %d differs from the kernel\n",
		   fname, i);
	  ok = 0;
	}
      if (i == 0)
	ok &= close_f32 (fname, yf, reff, N, 1.2e-7, 1.2e-7);
      if (i >= 3)
	ok &= close_f32 (fname, yf, reff, N, 5e-7, 2.5e-7);
    }
  struct variant v[] = { { "kernel", k, 0, { 0 }, 0 },
			 { "scalar", sc, 0, { 0 }, 0 },
			 { "base", base, 0, { 0 }, 0 },
			 { "libm", libm, 0, { 0 }, 0 },
			 { "-O3", o3, 0, { 0 }, 0 },
			 { "native", nat, 0, { 0 }, 0 } };
  time_group (v, 6, reps, SAMPLE_NS);
  char w[64];
  snprintf (w, sizeof w, "%s scalar, 4096 calls (-O2)", fname);
  add_row (w, v[1].med, base_name, v[2].med, N, 1, ok);
  add_row (w, v[1].med, libm_name, v[3].med, N, 0, ok);
  snprintf (w, sizeof w, "%s clones, 4096 (-O3: b)", fname);
  add_row (w, v[4].med, "array kernel", v[0].med, N, 0, ok);
  snprintf (w, sizeof w, "%s clones, 4096 (-O3 native: e)", fname);
  add_row (w, v[5].med, "array kernel", v[0].med, N, 0, ok);
}

/* nf_expf (no array kernel): the scalar function and its b and e
   clones against glibc's expf called the same way (per element: GCC
   does not vectorize expf without -ffast-math), all six interleaved;
   every result within 2 float ulps of glibc's.  */
static void
bench_calls_exp (int reps)
{
  void (*fns[6]) (void) = { c_sc_expf,	c_sc_nf_expf,  c_o3_nf_expf,
			    c_nat_nf_expf, c_o3_expf,	 c_nat_expf };
  poison (reff, sizeof reff);
  c_sc_expf ();
  memcpy (reff, yf, sizeof reff);
  int ok = 1;
  for (int i = 1; i < 6; i++)
    {
      poison (yf, sizeof yf);
      fns[i] ();
      ok &= close_f32 ("nf_expf", yf, reff, N, 2.5e-7, 1.2e-7);
    }
  struct variant v[] = { { "expf", c_sc_expf, 0, { 0 }, 0 },
			 { "scalar", c_sc_nf_expf, 0, { 0 }, 0 },
			 { "-O3", c_o3_nf_expf, 0, { 0 }, 0 },
			 { "native", c_nat_nf_expf, 0, { 0 }, 0 },
			 { "expf -O3", c_o3_expf, 0, { 0 }, 0 },
			 { "expf native", c_nat_expf, 0, { 0 }, 0 } };
  time_group (v, 6, reps, SAMPLE_NS);
  add_row ("nf_expf scalar, 4096 calls (-O2)", v[1].med, "expf", v[0].med, N,
	   1, ok);
  add_row ("nf_expf clones, 4096 (-O3: b)", v[2].med, "expf -O3", v[4].med, N,
	   1, ok);
  add_row ("nf_expf clones, 4096 (-O3 native: e)", v[3].med, "expf native",
	   v[5].med, N, 1, ok);
}

static void
k_expm1_f32_to_yf (void)
{
  nf_expm1_f32 (yf, xf_exp, N);
}
static void
k_log1p_f32_to_yf (void)
{
  nf_log1p_f32 (yf, xf_log, N);
}

/* Fill the inputs: data as a model's activations (RMSNorm, nrm2), and
   the ranges of runtime-facts 5.5 for expm1 ([-5, 5)) and log1p
   ([-0.9, 9.1)).  */
static void
fill_inputs (void)
{
  for (int i = 0; i < N; i++)
    {
      xf[i] = (float) uniform (-2, 2);
      wf[i] = (float) uniform (0.5, 1.5);
      xd[i] = uniform (-2, 2);
#ifdef __FLT16_MAX__
      xh[i] = (_Float16) xf[i];
#endif
      xd_exp[i] = uniform (-5, 5);
      xd_log[i] = uniform (-0.9, 9.1);
      xf_exp[i] = (float) xd_exp[i];
      xf_log[i] = (float) xd_log[i];
      xf_lgu[i] = (float) exp (xd_exp[i]);
      xf_lgv[i] = xf_lgu[i] - 1.0f;
    }
}

/* Allocate and fill the memory-resident rows (writing every page now so
   that no page fault is timed); return 0 if memory cannot be had.  */
static int
alloc_big (void)
{
  /* 2 MiB alignment lets transparent huge pages back the buffers when
     the system has them enabled, for memcpy and the kernels alike.  */
  if (posix_memalign ((void **) &big_x, 2 << 20, BIG_BYTES)
      || posix_memalign ((void **) &big_y, 2 << 20, BIG_BYTES))
    return 0;
  for (size_t i = 0; i < BIG_ELEMS; i++)
    big_x[i] = (float) uniform (-2, 2);
  memset (big_y, 0, BIG_BYTES);
  return 1;
}

/* Return whether every row of BIG_Y is RMSNorm of the row of BIG_X, as
   the naive -O2 loop computes it; NAME names the kernel that wrote it.  */
static int
big_rows_ok (const char *name)
{
  for (size_t r = 0; r < ROWS; r++)
    {
      naive_o2_rmsnorm (rowf, big_x + r * N, wf, N);
      if (!close_f32 (name, big_y + r * N, rowf, N, 1e-4, 1e-6))
	return 0;
    }
  return 1;
}

/* The in-cache RMSNorm row.  */
static void
bench_rmsnorm_row (int reps)
{
  poison (yf, sizeof yf);
  nf_rmsnorm_f32 (yf, xf, wf, N, EPS);
  naive_o2_rmsnorm (reff, xf, wf, N);
  naive_fast_rmsnorm (altf, xf, wf, N);
  int ok = close_f32 ("nf_rmsnorm_f32", yf, reff, N, 1e-4, 1e-6);
  int fast_ok = close_f32 ("naive fast rmsnorm", altf, reff, N, 1e-4, 1e-6);
  struct variant v[] = { { "kernel", k_rmsnorm, 0, { 0 }, 0 },
			 { "-O2", o2_rmsnorm, 0, { 0 }, 0 },
			 { "fast", fast_rmsnorm, 0, { 0 }, 0 } };
  time_group (v, 3, reps, SAMPLE_NS);
  add_row ("rmsnorm f32, 1 row of 4096 (cache)", v[0].med, "loop -O2", v[1].med,
	   N, 8, ok);
  add_row ("rmsnorm f32, 1 row of 4096 (cache)", v[0].med, "loop fast",
	   v[2].med, N, 1, ok && fast_ok);
}

/* The memory-resident rows: one call per row, the rows kernel on 1 and
   2 threads, the naive loop per row, and memcpy of the same bytes, all
   in one interleaved group.  */
static void
bench_rmsnorm_big (int reps)
{
  poison (big_y, BIG_BYTES);
  k_rmsnorm_per_row ();
  int per_row_ok = big_rows_ok ("nf_rmsnorm_f32 per row");
  poison (big_y, BIG_BYTES);
  k_rmsnorm_rows_1t ();
  int rows1_ok = big_rows_ok ("nf_rmsnorm_rows_f32, 1 thread");
  poison (big_y, BIG_BYTES);
  k_rmsnorm_rows_2t ();
  int rows2_ok = big_rows_ok ("nf_rmsnorm_rows_f32, 2 threads");
  struct variant v[] = { { "memcpy", big_memcpy, 0, { 0 }, 0 },
			 { "per row", k_rmsnorm_per_row, 0, { 0 }, 0 },
			 { "rows 1t", k_rmsnorm_rows_1t, 0, { 0 }, 0 },
			 { "rows 2t", k_rmsnorm_rows_2t, 0, { 0 }, 0 },
			 { "-O2 per row", o2_rmsnorm_per_row, 0, { 0 }, 0 } };
  time_group (v, 5, reps, 0);
  nf_set_num_threads (0);
  add_row ("rmsnorm f32, 8192x4096, call per row (DRAM)", v[1].med, "memcpy",
	   v[0].med, 0, 0.4, per_row_ok);
  add_row ("rmsnorm f32, 8192x4096, call per row (DRAM)", v[1].med, "loop -O2",
	   v[4].med, 0, 0, per_row_ok);
  add_row ("rmsnorm_rows f32, 8192x4096, 1 thread", v[2].med, "memcpy",
	   v[0].med, 0, 0.6, rows1_ok);
  add_row ("rmsnorm_rows f32, 8192x4096, 2 threads", v[3].med, "1 thread",
	   v[2].med, 0, 1.6, rows2_ok && rows1_ok);
  add_row ("rmsnorm_rows f32, 8192x4096, 2 threads", v[3].med, "memcpy",
	   v[0].med, 0, 0, rows2_ok);
}

/* The residual add, then RMSNorm, from memory (issue 19): x += r and
   y = rmsnorm (x) per row of 8192 x 4096, the kernel against memcpy of
   the same rows and the two loops per row.  The bandwidth counts what
   the work must move, x and r read, x and y written (4 x 128 MiB), and
   memcpy's its in + out (2 x 128 MiB).  */
static float *big_r;

static void
k_add_rmsnorm_per_row (void)
{
  for (size_t r = 0; r < ROWS; r++)
    nf_add_rmsnorm_f32 (big_y + r * N, big_x + r * N, big_r + r * N, wf, N,
			EPS);
}

static void
o2_add_rmsnorm_per_row (void)
{
  naive_o2_add_rmsnorm_rows (big_y, big_x, big_r, wf, ROWS, N);
}

static void
fast_add_rmsnorm_per_row (void)
{
  naive_fast_add_rmsnorm_rows (big_y, big_x, big_r, wf, ROWS, N);
}

/* Whether one pass of RUN over the rows updated x as the loop x[i] +=
   r[i] does (bit for bit) and left in y the rmsnorm of the new x, on
   the first, a middle and the last row (a check of every row would
   cost more than the timing).  */
static int
big_add_rows_ok (const char *name, void (*run) (void))
{
  static float before[3][N], want[N];
  const size_t rows[3] = { 0, ROWS / 2, ROWS - 1 };
  for (int k = 0; k < 3; k++)
    memcpy (before[k], big_x + rows[k] * N, sizeof before[k]);
  poison (big_y, BIG_BYTES);
  run ();
  for (int k = 0; k < 3; k++)
    {
      float *x = big_x + rows[k] * N;
      const float *r = big_r + rows[k] * N;
      for (size_t i = 0; i < N; i++)
	if (x[i] != before[k][i] + r[i])
	  {
	    fprintf (stderr, "%s: row %zu x[%zu] %a, want %a\n", name, rows[k],
		     i, x[i], before[k][i] + r[i]);
	    return 0;
	  }
      naive_o2_rmsnorm (want, x, wf, N);
      if (!close_f32 (name, big_y + rows[k] * N, want, N, 1e-4, 1e-6))
	return 0;
    }
  return 1;
}

static void
bench_add_rmsnorm_big (int reps)
{
  if (posix_memalign ((void **) &big_r, 2 << 20, BIG_BYTES))
    {
      fprintf (stderr, "kernels: cannot allocate %zu MiB\n", BIG_BYTES >> 20);
      broken = 1;
      return;
    }
  /* Small residuals, a quarter of them against x: the sums stay in
     range however many passes the timing makes.  */
  for (size_t i = 0; i < BIG_ELEMS; i++)
    big_r[i] = (float) uniform (-1e-3, 1e-3);
  int ok = big_add_rows_ok ("nf_add_rmsnorm_f32 per row",
			    k_add_rmsnorm_per_row);
  int o2_ok = big_add_rows_ok ("add + rmsnorm loops -O2",
			       o2_add_rmsnorm_per_row);
  struct variant v[] = { { "memcpy", big_memcpy, 0, { 0 }, 0 },
			 { "kernel", k_add_rmsnorm_per_row, 0, { 0 }, 0 },
			 { "-O2", o2_add_rmsnorm_per_row, 0, { 0 }, 0 },
			 { "fast", fast_add_rmsnorm_per_row, 0, { 0 }, 0 } };
  time_group (v, 4, reps, 0);
  const char *w = "add+rmsnorm f32, 8192x4096, per row (DRAM)";
  struct row *r = &table[nrows];
  add_row (w, v[1].med, "memcpy", v[0].med, 0, 0.7, ok);
  /* Four streams of BIG_BYTES against memcpy's two.  */
  snprintf (r->kernel, sizeof r->kernel, "%.2f GB/s",
	    4 * BIG_BYTES / v[1].med);
  r->ratio = (4 * BIG_BYTES / v[1].med) / (2 * BIG_BYTES / v[0].med);
  add_row (w, v[1].med, "loops -O2", v[2].med, BIG_ELEMS, 1, ok && o2_ok);
  add_row (w, v[1].med, "loops fast", v[3].med, BIG_ELEMS, 1, ok);
  free (big_r);
}

/* The result buffers of the elementwise workloads of one type, and how
   close to the -O2 loop's result the kernel's (RTOL) and the fast loop's
   (FAST_RTOL) must be, both with ATOL.  */
struct elementwise
{
  int f64;	 /* Doubles (close_f64), else floats (close_f32).  */
  void *y, *ref; /* Where each call writes its result; the -O2 copy.  */
  size_t bytes;	 /* Of each.  */
  double rtol, fast_rtol, atol;
};

static const struct elementwise ew_f32
  = { 0, yf, reff, sizeof yf, 1e-5, 1e-3, 1e-6 };
static const struct elementwise ew_f64
  = { 1, yd, refd, sizeof yd, 1e-12, 1e-9, 1e-15 };

/* Return whether E's result agrees with the -O2 loop's within RTOL and
   E's ATOL; print the first disagreement under NAME.  */
static int
close_ew (const struct elementwise *e, const char *name, double rtol)
{
  return e->f64 ? close_f64 (name, e->y, e->ref, N, rtol, e->atol)
		: close_f32 (name, e->y, e->ref, N, rtol, e->atol);
}

/* An elementwise workload of E's type: kernel K against the loops O2 and
   FAST, GOAL times faster than O2.  Each fills E->y with one call's
   result; K's and FAST's are checked against O2's before timing.  */
static void
bench_elementwise (const struct elementwise *e, const char *workload,
		   const char *name, void (*k) (void), void (*o2) (void),
		   void (*fast) (void), double goal, int reps)
{
  o2 ();
  memcpy (e->ref, e->y, e->bytes);
  poison (e->y, e->bytes);
  fast ();
  int fast_ok = close_ew (e, workload, e->fast_rtol);
  poison (e->y, e->bytes);
  k ();
  int ok = close_ew (e, name, e->rtol);
  struct variant v[] = { { "kernel", k, 0, { 0 }, 0 },
			 { "-O2", o2, 0, { 0 }, 0 },
			 { "fast", fast, 0, { 0 }, 0 } };
  time_group (v, 3, reps, SAMPLE_NS);
  add_row (workload, v[0].med, "loop -O2", v[1].med, N, goal, ok);
  add_row (workload, v[0].med, "loop fast", v[2].med, N, 0, ok && fast_ok);
}

/* A fast-math kernel K (nf_*_fast_f32) against the loop fast that it
   replaces under -ffast-math (issue 16: at least as fast), with the
   accurate kernel ACC interleaved for information.  */
static void
bench_fast (const char *workload, const char *name, void (*k) (void),
	    void (*acc) (void), void (*o2) (void), void (*fast) (void),
	    int reps)
{
  const struct elementwise *e = &ew_f32;
  o2 ();
  memcpy (e->ref, e->y, e->bytes);
  poison (e->y, e->bytes);
  k ();
  int ok = close_ew (e, name, e->rtol);
  struct variant v[] = { { "kernel", k, 0, { 0 }, 0 },
			 { "fast", fast, 0, { 0 }, 0 },
			 { "accurate", acc, 0, { 0 }, 0 } };
  time_group (v, 3, reps, SAMPLE_NS);
  add_row (workload, v[0].med, "loop fast", v[1].med, N, 1, ok);
  add_row (workload, v[0].med, "accurate", v[2].med, N, 0, ok);
}

/* The elementwise programs (nf_elementwise, runtime/ewprog.h), encoded as
   the plugin encodes the loops of naive.c: ELU, x > 0 ? x : alpha (expm1
   (x) + 0) (the + 0 keeps the -0 of expf (x) - 1 at x = -0), and softplus,
   log1p (exp (x)).  The second of each sets NF_EW_FLAG_FAST (what the
   plugin does under -ffast-math).  */
#define EW_I(op, type, d, a, b, c, aux) op, type, d, a, b, c, aux, 0
#define EW_ELU(flags)                                                          \
  {                                                                            \
    NF_EW_VERSION, 9, 6, flags, 1, NF_EW_F32, NF_EW_F32, NF_EW_NONE,           \
      EW_I (NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0),                             \
      EW_I (NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, 0),                            \
      EW_I (NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,                                 \
	    NF_EW_CMP_AUX (NF_EW_GT, NF_EW_F32)),                              \
      EW_I (NF_EW_EXPM1, NF_EW_F32, 3, 0, 0, 0, 0),                            \
      EW_I (NF_EW_ADD, NF_EW_F32, 3, 3, 1, 0, 0),                              \
      EW_I (NF_EW_PARAM, NF_EW_F32, 4, 0, 0, 0, 0),                            \
      EW_I (NF_EW_MUL, NF_EW_F32, 3, 4, 3, 0, 0),                              \
      EW_I (NF_EW_SELECT, NF_EW_F32, 5, 2, 0, 3, 0),                           \
      EW_I (NF_EW_STORE, NF_EW_F32, 0, 5, 0, 0, 0), 0, 0, 0, 0, 0, 0, 0, 0     \
  }
#define EW_SOFTPLUS(flags)                                                     \
  {                                                                            \
    NF_EW_VERSION, 4, 2, flags, 0, NF_EW_F32, NF_EW_F32, NF_EW_NONE,           \
      EW_I (NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0),                             \
      EW_I (NF_EW_EXP, NF_EW_F32, 1, 0, 0, 0, 0),                              \
      EW_I (NF_EW_LOG1P, NF_EW_F32, 1, 1, 0, 0, 0),                            \
      EW_I (NF_EW_STORE, NF_EW_F32, 0, 1, 0, 0, 0)                             \
  }
static const unsigned char ew_elu[] = EW_ELU (0);
static const unsigned char ew_elu_fast[] = EW_ELU (NF_EW_FLAG_FAST);
static const unsigned char ew_softplus[] = EW_SOFTPLUS (0);
static const unsigned char ew_softplus_fast[] = EW_SOFTPLUS (NF_EW_FLAG_FAST);
#undef EW_I
#undef EW_ELU
#undef EW_SOFTPLUS

#define ELU_ALPHA 1.0f

static void
k_elu (void)
{
  nf_elementwise (yf, xf_exp, NULL, N, ew_elu, ELU_ALPHA, 0, 0, 0);
}
static void
k_elu_fast (void)
{
  nf_elementwise (yf, xf_exp, NULL, N, ew_elu_fast, ELU_ALPHA, 0, 0, 0);
}
static void
o2_elu (void)
{
  naive_o2_elu_f32 (yf, xf_exp, N, ELU_ALPHA);
}
static void
ofast_elu (void)
{
  naive_ofast_elu_f32 (yf, xf_exp, N, ELU_ALPHA);
}
static void
fast_elu (void)
{
  naive_fast_elu_f32 (yf, xf_exp, N, ELU_ALPHA);
}
static void
k_softplus (void)
{
  nf_elementwise (yf, xf_exp, NULL, N, ew_softplus, 0, 0, 0, 0);
}
static void
k_softplus_fast (void)
{
  nf_elementwise (yf, xf_exp, NULL, N, ew_softplus_fast, 0, 0, 0, 0);
}
static void
o2_softplus (void)
{
  naive_o2_softplus_f32 (yf, xf_exp, N);
}
static void
ofast_softplus (void)
{
  naive_ofast_softplus_f32 (yf, xf_exp, N);
}
static void
fast_softplus (void)
{
  naive_fast_softplus_f32 (yf, xf_exp, N);
}

/* An elementwise program, accurate (K) and fast (KF), against its loop
   at -O2 (O2), -Ofast (OFAST: libmvec's SSE clones) and -O3 -ffast-math
   -march=native (FAST: the widest clones), all five interleaved.  Goals:
   the accurate program 3 times the -O2 loop (what the plugin gives a
   default build) and, like the fast one, 1.3 times the -Ofast loop.
   Every result within 1e-5 relative of the -O2 loop's (the loops
   themselves are within 1e-3: libmvec is 4 ulp).  */
static void
bench_program (const char *what, void (*k) (void), void (*kf) (void),
	       void (*o2) (void), void (*ofast) (void), void (*fast) (void),
	       int reps)
{
  const struct elementwise *e = &ew_f32;
  char w[64];
  o2 ();
  memcpy (e->ref, e->y, e->bytes);
  poison (e->y, e->bytes);
  k ();
  int ok = close_ew (e, what, e->rtol);
  poison (e->y, e->bytes);
  kf ();
  int fast_ok = close_ew (e, what, e->rtol);
  poison (e->y, e->bytes);
  ofast ();
  int ofast_ok = close_ew (e, what, e->fast_rtol);
  poison (e->y, e->bytes);
  fast ();
  int native_ok = close_ew (e, what, e->fast_rtol);
  struct variant v[] = { { "program", k, 0, { 0 }, 0 },
			 { "program fast", kf, 0, { 0 }, 0 },
			 { "-O2", o2, 0, { 0 }, 0 },
			 { "-Ofast", ofast, 0, { 0 }, 0 },
			 { "fast", fast, 0, { 0 }, 0 } };
  time_group (v, 5, reps, SAMPLE_NS);
  snprintf (w, sizeof w, "%s f32, 4096 (cache), program", what);
  add_row (w, v[0].med, "loop -O2", v[2].med, N, 3, ok);
  add_row (w, v[0].med, "loop -Ofast", v[3].med, N, 1.3, ok && ofast_ok);
  add_row (w, v[0].med, "loop fast", v[4].med, N, 0, ok && native_ok);
  snprintf (w, sizeof w, "%s f32, 4096 (cache), program fast", what);
  add_row (w, v[1].med, "loop -Ofast", v[3].med, N, 1.3, fast_ok && ofast_ok);
  add_row (w, v[1].med, "loop fast", v[4].med, N, 0, fast_ok && native_ok);
}

/* nf_elementwise's cost per call on short arrays: the ELU program over
   n = 1 to 1024 floats against the -O2 loop, the two interleaved per n.
   What a call costs beyond its blocks (finding the decoded program,
   laying out the call) is what the plugin's minimum n for the call
   weighs against the loop's per-element cost.  */
static size_t ew_short_n;
static void
k_elu_short (void)
{
  nf_elementwise (yf, xf_exp, NULL, ew_short_n, ew_elu, ELU_ALPHA, 0, 0, 0);
}
static void
o2_elu_short (void)
{
  naive_o2_elu_f32 (yf, xf_exp, (int) ew_short_n, ELU_ALPHA);
}

static void
bench_elu_short (int reps)
{
  static const size_t ns[] = { 1, 4, 16, 32, 64, 128, 256, 1024 };
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
    {
      ew_short_n = ns[i];
      poison (yf, sizeof yf);
      o2_elu_short ();
      memcpy (reff, yf, sizeof reff);
      poison (yf, sizeof yf);
      k_elu_short ();
      int ok = close_f32 ("elu program", yf, reff, ns[i], 1e-5, 1e-6);
      /* Nothing past n written.  */
      ok &= isnan (yf[ns[i]]);
      struct variant v[] = { { "program", k_elu_short, 0, { 0 }, 0 },
			     { "-O2", o2_elu_short, 0, { 0 }, 0 } };
      time_group (v, 2, reps, SAMPLE_NS);
      struct row *r = &table[nrows++];
      snprintf (r->workload, sizeof r->workload,
		"elu f32, n = %zu (cache), per call", ns[i]);
      snprintf (r->kernel, sizeof r->kernel, "%.0f ns/call", v[0].med);
      snprintf (r->baseline, sizeof r->baseline, "loop -O2 %.0f ns/call",
		v[1].med);
      r->ratio = v[1].med / v[0].med;
      r->goal = 0;
      r->wrong = !ok;
      if (!ok)
	broken = 1;
    }
}

/* Softmax (issue 18): nf_softmax_f32 against llama2.c's loop (out of
   place, bench/naive.c) at -O2, -Ofast (expf through libmvec's SSE2
   clone) and -O3 -ffast-math -march=native (information), at n of
   attention rows (256, 1024) and of a vocabulary's logits (32000);
   inputs uniform in [-8, 8).  Goals: 3 times the -O2 loop, 1 times the
   -Ofast one.  Every result close to the -O2 loop's (see below; the
   fast loops 10 times looser: libmvec's expf is 4 ulp, their sums
   reordered).  */
#define SM_MAXN 32000
static _Alignas (64) float sm_x[SM_MAXN], sm_y[SM_MAXN], sm_ref[SM_MAXN];
static size_t sm_n;
static void
k_softmax (void)
{
  nf_softmax_f32 (sm_y, sm_x, sm_n);
}
static void
o2_softmax (void)
{
  naive_o2_softmax_f32 (sm_y, sm_x, (int) sm_n);
}
static void
ofast_softmax (void)
{
  naive_ofast_softmax_f32 (sm_y, sm_x, (int) sm_n);
}
static void
fast_softmax (void)
{
  naive_fast_softmax_f32 (sm_y, sm_x, (int) sm_n);
}

static void
bench_softmax (int reps)
{
  static const size_t ns[] = { 256, 1024, 32000 };
  for (size_t i = 0; i < SM_MAXN; i++)
    sm_x[i] = (float) uniform (-8, 8);
  for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
    {
      char w[64];
      sm_n = ns[j];
      o2_softmax ();
      memcpy (sm_ref, sm_y, sizeof sm_ref);
      poison (sm_y, sizeof sm_y);
      k_softmax ();
      /* The loop's float sum errs by up to n 2^-24 relative (2.7e-5
	 seen at n = 32000): beyond 1024 the check allows 1e-3.  */
      double rtol = sm_n <= 1024 ? 1e-5 : 1e-3;
      int ok = close_f32 ("softmax", sm_y, sm_ref, sm_n, rtol, 1e-12);
      poison (sm_y, sizeof sm_y);
      ofast_softmax ();
      int ofast_ok
	= close_f32 ("softmax -Ofast", sm_y, sm_ref, sm_n, 10 * rtol, 1e-12);
      poison (sm_y, sizeof sm_y);
      fast_softmax ();
      int fast_ok
	= close_f32 ("softmax fast", sm_y, sm_ref, sm_n, 10 * rtol, 1e-12);
      struct variant v[] = { { "kernel", k_softmax, 0, { 0 }, 0 },
			     { "-O2", o2_softmax, 0, { 0 }, 0 },
			     { "-Ofast", ofast_softmax, 0, { 0 }, 0 },
			     { "fast", fast_softmax, 0, { 0 }, 0 } };
      time_group (v, 4, reps, SAMPLE_NS);
      snprintf (w, sizeof w, "softmax f32, %zu (cache)", sm_n);
      add_row (w, v[0].med, "loop -O2", v[1].med, sm_n, 3, ok);
      add_row (w, v[0].med, "loop -Ofast", v[2].med, sm_n, 1,
	       ok && ofast_ok);
      add_row (w, v[0].med, "loop fast", v[3].med, sm_n, 0, ok && fast_ok);
    }
}

/* Issue 19: nf_dist_f32, nf_rmsnorm1p_f32 (Gemma's gain) and
   nf_l2normalize_f32 against the plain loops of bench/loops19.h at -O2,
   -O3 -march=native ("loop native": calls.c's build of them) and -O3 -ffast-math
   -march=native (information: its float sums are reassociated into
   vectors, where the kernels sum in double), for n = 256, 1024, 4096 in
   cache; inputs uniform in [-2, 2), gains in [-0.5, 0.5).  Goal: 1 times
   the -O2 and -O3 -march=native loops.  Checks: within 1e-4 relative of
   the -O2 loop (whose float sum errs by up to n 2^-24).  */
#define I19_MAXN 4096
static _Alignas (64) float i19_a[I19_MAXN], i19_b[I19_MAXN], i19_w[I19_MAXN];
static _Alignas (64) float i19_y[I19_MAXN], i19_ref[I19_MAXN];
static size_t i19_n;
static void
k_dist (void)
{
  sink = nf_dist_f32 (i19_a, i19_b, i19_n);
}
static void
o2_dist (void)
{
  sink = naive_o2_dist_f32 (i19_a, i19_b, (int) i19_n);
}
static void
nat_dist (void)
{
  sink = calls_nat_dist_f32 (i19_a, i19_b, (int) i19_n);
}
static void
fast_dist (void)
{
  sink = naive_fast_dist_f32 (i19_a, i19_b, (int) i19_n);
}
static void
k_rmsnorm1p (void)
{
  nf_rmsnorm1p_f32 (i19_y, i19_a, i19_w, i19_n, 1e-6f);
}
static void
o2_rmsnorm1p (void)
{
  naive_o2_rmsnorm1p_f32 (i19_y, i19_a, i19_w, (int) i19_n);
}
static void
nat_rmsnorm1p (void)
{
  calls_nat_rmsnorm1p_f32 (i19_y, i19_a, i19_w, (int) i19_n);
}
static void
fast_rmsnorm1p (void)
{
  naive_fast_rmsnorm1p_f32 (i19_y, i19_a, i19_w, (int) i19_n);
}
static void
k_l2normalize (void)
{
  nf_l2normalize_f32 (i19_y, i19_a, i19_n, 1e-12f);
}
static void
o2_l2normalize (void)
{
  naive_o2_l2normalize_f32 (i19_y, i19_a, (int) i19_n, 1e-12f);
}
static void
nat_l2normalize (void)
{
  calls_nat_l2normalize_f32 (i19_y, i19_a, (int) i19_n, 1e-12f);
}
static void
fast_l2normalize (void)
{
  naive_fast_l2normalize_f32 (i19_y, i19_a, (int) i19_n, 1e-12f);
}

/* Check the array variants V[0..3] (kernel, -O2, native, fast) against
   the -O2 loop, each output poisoned first; return whether all agree.  */
static int
i19_check (const char *name, struct variant *v)
{
  v[1].run ();
  memcpy (i19_ref, i19_y, i19_n * sizeof *i19_y);
  int ok = 1;
  for (int k = 0; k < 4; k += k == 0 ? 2 : 1)
    {
      poison (i19_y, sizeof i19_y);
      v[k].run ();
      ok &= close_f32 (name, i19_y, i19_ref, i19_n, 1e-4, 1e-30);
    }
  return ok;
}

static void
bench_issue19 (int reps)
{
  static const size_t ns[] = { 256, 1024, 4096 };
  for (size_t i = 0; i < I19_MAXN; i++)
    {
      i19_a[i] = (float) uniform (-2, 2), i19_b[i] = (float) uniform (-2, 2);
      i19_w[i] = (float) uniform (-0.5, 0.5);
    }
  for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
    {
      char w[64];
      i19_n = ns[j];
      o2_dist ();
      double ref = sink;
      k_dist ();
      int ok = fabs (sink - ref) <= 1e-4 * ref;
      nat_dist ();
      ok &= fabs (sink - ref) <= 1e-4 * ref;
      fast_dist ();
      ok &= fabs (sink - ref) <= 1e-4 * ref;
      struct variant d[] = { { "kernel", k_dist, 0, { 0 }, 0 },
			     { "-O2", o2_dist, 0, { 0 }, 0 },
			     { "native", nat_dist, 0, { 0 }, 0 },
			     { "fast", fast_dist, 0, { 0 }, 0 } };
      time_group (d, 4, reps, SAMPLE_NS);
      snprintf (w, sizeof w, "dist f32, %zu (cache)", i19_n);
      add_row (w, d[0].med, "loop -O2", d[1].med, i19_n, 1, ok);
      add_row (w, d[0].med, "loop native", d[2].med, i19_n, 1, ok);
      add_row (w, d[0].med, "loop fast", d[3].med, i19_n, 0, ok);

      struct variant r[] = { { "kernel", k_rmsnorm1p, 0, { 0 }, 0 },
			     { "-O2", o2_rmsnorm1p, 0, { 0 }, 0 },
			     { "native", nat_rmsnorm1p, 0, { 0 }, 0 },
			     { "fast", fast_rmsnorm1p, 0, { 0 }, 0 } };
      ok = i19_check ("rmsnorm1p", r);
      time_group (r, 4, reps, SAMPLE_NS);
      snprintf (w, sizeof w, "rmsnorm1p f32, %zu (cache)", i19_n);
      add_row (w, r[0].med, "loop -O2", r[1].med, i19_n, 1, ok);
      add_row (w, r[0].med, "loop native", r[2].med, i19_n, 1, ok);
      add_row (w, r[0].med, "loop fast", r[3].med, i19_n, 0, ok);

      struct variant l[] = { { "kernel", k_l2normalize, 0, { 0 }, 0 },
			     { "-O2", o2_l2normalize, 0, { 0 }, 0 },
			     { "native", nat_l2normalize, 0, { 0 }, 0 },
			     { "fast", fast_l2normalize, 0, { 0 }, 0 } };
      ok = i19_check ("l2normalize", l);
      time_group (l, 4, reps, SAMPLE_NS);
      snprintf (w, sizeof w, "l2normalize f32, %zu (cache)", i19_n);
      add_row (w, l[0].med, "loop -O2", l[1].med, i19_n, 1, ok);
      add_row (w, l[0].med, "loop native", l[2].med, i19_n, 1, ok);
      add_row (w, l[0].med, "loop fast", l[3].med, i19_n, 0, ok);
    }
}

/* Dot (issue 18): nf_matvec_f32 against llama2.c's matmul
   (bench/naive.c) at -O2, -Ofast and -O3 -ffast-math -march=native, on
   1 and 2 threads, for in-cache shapes of stories15M (288 x 288: 324
   KiB), of stories110M (768 x 768: 2.25 MiB, and its FFN's 2048 x 768:
   6 MiB, past L2), x uniform in [-2, 2).  Goals (summing in double): 0.8
   of the fast loop on one thread, 1.5 on two.  From memory, the 8192 x
   4096 matrix of the memory rows (128 MiB) against memcpy of the same
   bytes, counted as the bytes read (memcpy reads them once, as the
   product does, and writes them too): goal 0.7 on two threads.  The
   checks: within 1e-4 (relative to sum |w x|) of the -O2 loop.  */
static float *mv_w, *mv_y, *mv_ref;
static size_t mv_d, mv_n;
static void
k_matvec_1t (void)
{
  nf_set_num_threads (1);
  nf_matvec_f32 (mv_y, mv_w, xf, mv_d, mv_n);
}
static void
k_matvec_2t (void)
{
  nf_set_num_threads (2);
  nf_matvec_f32 (mv_y, mv_w, xf, mv_d, mv_n);
}
static void
o2_matvec (void)
{
  naive_o2_matmul_f32 (mv_y, xf, mv_w, (int) mv_n, (int) mv_d);
}
static void
ofast_matvec (void)
{
  naive_ofast_matmul_f32 (mv_y, xf, mv_w, (int) mv_n, (int) mv_d);
}
static void
fast_matvec (void)
{
  naive_fast_matmul_f32 (mv_y, xf, mv_w, (int) mv_n, (int) mv_d);
}
static void
mv_memcpy (void)
{
  memcpy (big_y, big_x, mv_d * mv_n * sizeof (float));
}

/* Whether MV_Y holds the product within 1e-4 of sum |w x| of MV_REF.  */
static int
mv_ok (const char *name)
{
  for (size_t i = 0; i < mv_d; i++)
    {
      double a = 0;
      for (size_t j = 0; j < mv_n; j++)
	a += fabs ((double) mv_w[i * mv_n + j] * xf[j]);
      if (!(fabs ((double) mv_y[i] - mv_ref[i]) <= 1e-4 * a + 1e-30))
	{
	  fprintf (stderr, "%s: row %zu: %g, the -O2 loop %g\n", name, i,
		   mv_y[i], mv_ref[i]);
	  return 0;
	}
    }
  return 1;
}

/* Check every variant of V[0..NV-1] (poisoning the output before each)
   against the -O2 loop; return whether all agree.  */
static int
mv_check (struct variant *v, int nv)
{
  o2_matvec ();
  memcpy (mv_ref, mv_y, mv_d * sizeof *mv_y);
  int ok = 1;
  for (int k = 0; k < nv; k++)
    {
      poison (mv_y, mv_d * sizeof *mv_y);
      v[k].run ();
      ok &= mv_ok (v[k].name);
    }
  return ok;
}

static void
bench_matvec_cache (int reps)
{
  static const size_t shapes[][2] = { { 288, 288 }, { 768, 768 }, { 2048, 768 } };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    {
      mv_d = shapes[s][0], mv_n = shapes[s][1];
      if (posix_memalign ((void **) &mv_w, 64, mv_d * mv_n * sizeof (float))
	  || !(mv_y = malloc (mv_d * sizeof (float)))
	  || !(mv_ref = malloc (mv_d * sizeof (float))))
	{
	  broken = 1;
	  return;
	}
      for (size_t k = 0; k < mv_d * mv_n; k++)
	mv_w[k] = (float) uniform (-1, 1);
      struct variant v[] = { { "kernel 1t", k_matvec_1t, 0, { 0 }, 0 },
			     { "kernel 2t", k_matvec_2t, 0, { 0 }, 0 },
			     { "-O2", o2_matvec, 0, { 0 }, 0 },
			     { "-Ofast", ofast_matvec, 0, { 0 }, 0 },
			     { "fast", fast_matvec, 0, { 0 }, 0 } };
      int ok = mv_check (v, 5);
      time_group (v, 5, reps, SAMPLE_NS);
      nf_set_num_threads (0);
      char w[64];
      double el = (double) (mv_d * mv_n);
      snprintf (w, sizeof w, "matvec f32, %zux%zu (cache), 1 thread", mv_d, mv_n);
      add_row (w, v[0].med, "loop -O2", v[2].med, el, 0, ok);
      add_row (w, v[0].med, "loop -Ofast", v[3].med, el, 0, ok);
      add_row (w, v[0].med, "loop fast", v[4].med, el, 0.8, ok);
      snprintf (w, sizeof w, "matvec f32, %zux%zu (cache), 2 threads", mv_d, mv_n);
      add_row (w, v[1].med, "loop fast", v[4].med, el, 1.5, ok);
      free (mv_w);
      free (mv_y);
      free (mv_ref);
    }
}

/* From memory: BIG_X as the matrix, BIG_Y's start as the output.  */
static void
bench_matvec_big (int reps)
{
  mv_w = big_x, mv_d = ROWS, mv_n = N;
  mv_y = big_y + BIG_ELEMS / 2;
  if (!(mv_ref = malloc (mv_d * sizeof (float))))
    {
      broken = 1;
      return;
    }
  struct variant v[] = { { "kernel 1t", k_matvec_1t, 0, { 0 }, 0 },
			 { "kernel 2t", k_matvec_2t, 0, { 0 }, 0 },
			 { "-O2", o2_matvec, 0, { 0 }, 0 },
			 { "fast", fast_matvec, 0, { 0 }, 0 },
			 { "memcpy", mv_memcpy, 0, { 0 }, 0 } };
  int ok = mv_check (v, 4);
  time_group (v, 5, reps, 0);
  nf_set_num_threads (0);
  /* add_row's GB/s count 2 BIG_BYTES per call: the product reads
     BIG_BYTES, so halve both times to show read bandwidth.  */
  const char *w1 = "matvec f32, 8192x4096 (DRAM), 1 thread, read";
  const char *w2 = "matvec f32, 8192x4096 (DRAM), 2 threads, read";
  add_row (w1, 2 * v[0].med, "memcpy", 2 * v[4].med, 0, 0.7, ok);
  add_row (w1, 2 * v[0].med, "loop -O2", 2 * v[2].med, 0, 0, ok);
  add_row (w2, 2 * v[1].med, "memcpy", 2 * v[4].med, 0, 0, ok);
  add_row (w2, 2 * v[1].med, "loop fast", 2 * v[3].med, 0, 0, ok);
  free (mv_ref);
}

/* The norms.  */
static void
bench_nrm2 (int reps)
{
  double ref = naive_o2_nrm2_f32 (xf, N);
  int ok = fabs (nf_nrm2_f32 (xf, N) - ref) <= 1e-4 * ref;
  int fast_ok = fabs (naive_fast_nrm2_f32 (xf, N) - ref) <= 1e-4 * ref;
  struct variant v[] = { { "kernel", k_nrm2_f32, 0, { 0 }, 0 },
			 { "-O2", o2_nrm2_f32, 0, { 0 }, 0 },
			 { "fast", fast_nrm2_f32, 0, { 0 }, 0 } };
  time_group (v, 3, reps, SAMPLE_NS);
  add_row ("nrm2 f32, 4096 (cache)", v[0].med, "loop -O2", v[1].med, N, 8, ok);
  add_row ("nrm2 f32, 4096 (cache)", v[0].med, "loop fast", v[2].med, N, 0,
	   ok && fast_ok);

  ref = naive_o2_nrm2_f64 (xd, N);
  ok = fabs (nf_nrm2_f64 (xd, N) - ref) <= 1e-12 * ref;
  fast_ok = fabs (naive_fast_nrm2_f64 (xd, N) - ref) <= 1e-12 * ref;
  struct variant w[] = { { "kernel", k_nrm2_f64, 0, { 0 }, 0 },
			 { "-O2", o2_nrm2_f64, 0, { 0 }, 0 },
			 { "fast", fast_nrm2_f64, 0, { 0 }, 0 } };
  time_group (w, 3, reps, SAMPLE_NS);
  add_row ("nrm2 f64, 4096 (cache)", w[0].med, "loop -O2", w[1].med, N, 8, ok);
  add_row ("nrm2 f64, 4096 (cache)", w[0].med, "loop fast", w[2].med, N, 0,
	   ok && fast_ok);

#ifdef __FLT16_MAX__
  /* _Float16 data, the float loop over it (for information: no goal).  */
  ref = naive_o2_nrm2_f16 (xh, N);
  ok = fabs (nf_nrm2_f16 (xh, N) - ref) <= 1e-4 * ref;
  fast_ok = fabs (naive_fast_nrm2_f16 (xh, N) - ref) <= 1e-4 * ref;
  struct variant h[] = { { "kernel", k_nrm2_f16, 0, { 0 }, 0 },
			 { "-O2", o2_nrm2_f16, 0, { 0 }, 0 },
			 { "fast", fast_nrm2_f16, 0, { 0 }, 0 } };
  time_group (h, 3, reps, SAMPLE_NS);
  add_row ("nrm2 f16, 4096 (cache)", h[0].med, "loop -O2", h[1].med, N, 0, ok);
  add_row ("nrm2 f16, 4096 (cache)", h[0].med, "loop fast", h[2].med, N, 0,
	   ok && fast_ok);
#endif
}

#if defined __x86_64__
/* The vector-ABI clones, one width ISA (b, c, d, e) at a time: each
   library clone against libmvec's clone of expf or logf of the same
   width (what GCC calls for a loop of expf or logf under -ffast-math,
   bench/clones.c), and the call of an empty clone (the floor of the
   width: its ratio says what share of libmvec's time the call itself
   is).  All eight interleaved.  Every clone's results within 6 float
   ulps of glibc's scalar function (loose: libmvec's are 4 ulp).  */
#define CLONE_VARIANTS(isa)                                                    \
  static void cl_##isa##_ident (void)                                          \
  {                                                                            \
    clones_##isa##_bench_ident (yf, xf_exp, N);                                \
  }                                                                            \
  static void cl_##isa##_expf (void) { clones_##isa##_expf (yf, xf_exp, N); }  \
  static void cl_##isa##_nf_expf (void)                                        \
  {                                                                            \
    clones_##isa##_nf_expf (yf, xf_exp, N);                                    \
  }                                                                            \
  static void cl_##isa##_nf_expm1f (void)                                      \
  {                                                                            \
    clones_##isa##_nf_expm1f (yf, xf_exp, N);                                  \
  }                                                                            \
  static void cl_##isa##_nf_expm1f_fast (void)                                 \
  {                                                                            \
    clones_##isa##_nf_expm1f_fast (yf, xf_exp, N);                             \
  }                                                                            \
  static void cl_##isa##_logf (void) { clones_##isa##_logf (yf, xf_lgu, N); }  \
  static void cl_##isa##_nf_log1pf (void)                                      \
  {                                                                            \
    clones_##isa##_nf_log1pf (yf, xf_lgv, N);                                  \
  }                                                                            \
  static void cl_##isa##_nf_log1pf_fast (void)                                 \
  {                                                                            \
    clones_##isa##_nf_log1pf_fast (yf, xf_lgv, N);                             \
  }                                                                            \
  static const struct clone_set cl_##isa                                       \
    = { #isa,                  cl_##isa##_ident,    cl_##isa##_expf,           \
	cl_##isa##_nf_expf,    cl_##isa##_nf_expm1f, cl_##isa##_nf_expm1f_fast, \
	cl_##isa##_logf,       cl_##isa##_nf_log1pf, cl_##isa##_nf_log1pf_fast };

/* One width's loops, in the order of the variants below.  */
struct clone_set
{
  const char *isa;
  void (*ident) (void), (*expf) (void), (*nf_expf) (void),
    (*nf_expm1f) (void), (*nf_expm1f_fast) (void), (*logf) (void),
    (*nf_log1pf) (void), (*nf_log1pf_fast) (void);
};
CLONE_VARIANTS (b)
CLONE_VARIANTS (c)
CLONE_VARIANTS (d)
CLONE_VARIANTS (e)
#undef CLONE_VARIANTS

/* Return whether the clone loop RUN gives F of its inputs X within 6
   float ulps; NAME for the message.  */
static int
clone_ok (const char *name, void (*run) (void), const float *x,
	  double (*f) (double))
{
  for (int i = 0; i < N; i++)
    altf[i] = (float) f (x[i]);
  poison (yf, sizeof yf);
  run ();
  return close_f32 (name, yf, altf, N, 7.2e-7, 1e-37);
}

static double
expm1_of (double x)
{
  return expm1 (x);
}
static double
log1p_of (double x)
{
  return log1p (x);
}
static double
exp_of (double x)
{
  return exp (x);
}
static double
log_of (double x)
{
  return log (x);
}

static void
bench_clones (const struct clone_set *c, int reps)
{
  char w[64];
  int ok[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  ok[1] = clone_ok ("libmvec expf", c->expf, xf_exp, exp_of);
  ok[2] = clone_ok ("nf_expf clone", c->nf_expf, xf_exp, exp_of);
  ok[3] = clone_ok ("nf_expm1f clone", c->nf_expm1f, xf_exp, expm1_of);
  ok[4] = clone_ok ("nf_expm1f_fast clone", c->nf_expm1f_fast, xf_exp,
		    expm1_of);
  ok[5] = clone_ok ("libmvec logf", c->logf, xf_lgu, log_of);
  ok[6] = clone_ok ("nf_log1pf clone", c->nf_log1pf, xf_lgv, log1p_of);
  ok[7] = clone_ok ("nf_log1pf_fast clone", c->nf_log1pf_fast, xf_lgv,
		    log1p_of);
  struct variant v[] = { { "ident", c->ident, 0, { 0 }, 0 },
			 { "expf", c->expf, 0, { 0 }, 0 },
			 { "nf_expf", c->nf_expf, 0, { 0 }, 0 },
			 { "nf_expm1f", c->nf_expm1f, 0, { 0 }, 0 },
			 { "nf_expm1f_fast", c->nf_expm1f_fast, 0, { 0 }, 0 },
			 { "logf", c->logf, 0, { 0 }, 0 },
			 { "nf_log1pf", c->nf_log1pf, 0, { 0 }, 0 },
			 { "nf_log1pf_fast", c->nf_log1pf_fast, 0, { 0 }, 0 } };
  time_group (v, 8, reps, SAMPLE_NS);
  for (int i = 2; i < 8; i++)
    {
      int base = i < 5 ? 1 : 5;
      if (i == 5)
	continue;
      snprintf (w, sizeof w, "clone %s: %s, 4096 (cache)", c->isa, v[i].name);
      add_row (w, v[i].med, base == 1 ? "libmvec expf" : "libmvec logf",
	       v[base].med, N, 1, ok[i] && ok[base]);
    }
  snprintf (w, sizeof w, "clone %s: empty clone (the call alone)", c->isa);
  add_row (w, v[0].med, "libmvec expf", v[1].med, N, 0, 1);
}

/* The widths this CPU runs.  */
static void
bench_all_clones (int reps)
{
  bench_clones (&cl_b, reps);
  if (__builtin_cpu_supports ("avx"))
    bench_clones (&cl_c, reps);
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    bench_clones (&cl_d, reps);
  if (__builtin_cpu_supports ("avx512f"))
    bench_clones (&cl_e, reps);
}
#else
static void
bench_all_clones (int reps)
{
  (void) reps;
}
#endif

/* Print the machine: CPU model from /proc/cpuinfo, cores, compiler, C
   library, the library's ISA, the rows kernels' threads, the date.  */
static void
print_machine (int cache_reps, int memory_reps)
{
  char line[512], model[256] = "unknown";
  FILE *f = fopen ("/proc/cpuinfo", "r");
  if (f)
    {
      while (fgets (line, sizeof line, f))
	if (!strncmp (line, "model name", 10) && strchr (line, ':'))
	  {
	    snprintf (model, sizeof model, "%s", strchr (line, ':') + 2);
	    model[strcspn (model, "\n")] = 0;
	    break;
	  }
      fclose (f);
    }
  char date[64];
  time_t t = time (NULL);
  strftime (date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime (&t));
  const char *isa = nf_runtime_isa ? nf_runtime_isa () : NULL;

  printf ("neuronfuse kernel benchmark, %s\n", date);
  printf ("cpu:      %s, %ld cores online%s%s\n", model,
	  sysconf (_SC_NPROCESSORS_ONLN),
	  __builtin_cpu_supports ("avx2") ? ", avx2" : "",
	  __builtin_cpu_supports ("avx512f") ? ", avx512f" : "");
  printf ("compiler: gcc %s; glibc %s\n", __VERSION__, gnu_get_libc_version ());
  printf ("library:  %s\n",
	  isa ? isa : "nf_runtime_isa () not exported (portable kernels)");
  const char *nft = getenv ("NEURONFUSE_THREADS");
  printf ("threads:  rows kernels up to %d by default (NEURONFUSE_THREADS=%s); "
	  "the rows rows set 1 and 2\n",
	  nf_get_num_threads (), nft ? nft : "(unset)");
  printf ("loops:    bench/naive.c at " NAIVE_O2_FLAGS " (\"loop -O2\"), "
	  "at " NAIVE_FAST_FLAGS " (\"loop fast\") and at " NAIVE_OFAST_FLAGS
	  " (\"loop -Ofast\", elementwise programs and softmax)\n");
  printf ("calls:    bench/calls.c at " CALLS_SC_FLAGS " (scalar rows), "
	  CALLS_O3_FLAGS " (b clones) and " CALLS_NAT_FLAGS " (e clones)\n");
  printf ("timing:   medians of %d interleaved repetitions (in cache), "
	  "%d (memory, 128 MiB in + 128 MiB out)\n\n",
	  cache_reps, memory_reps);
  fflush (stdout);
}

/* Print the table as Markdown, ready to paste into bench/RESULTS.md.  */
static void
print_table (void)
{
  printf ("| %-43s | %-12s | %-26s | %-6s | %-7s | %-6s |\n", "workload",
	  "kernel", "baseline", "ratio", "goal", "result");
  static const int width[] = { 43, 12, 26, 6, 7, 6 };
  for (int c = 0; c < 6; c++)
    printf ("|%.*s", width[c] + 2,
	    "------------------------------------------------");
  printf ("|\n");
  for (int i = 0; i < nrows; i++)
    {
      struct row *r = &table[i];
      char ratio[24], goal[24];
      snprintf (ratio, sizeof ratio, "%.2fx", r->ratio);
      if (r->goal)
	snprintf (goal, sizeof goal, ">= %gx", r->goal);
      else
	snprintf (goal, sizeof goal, "info");
      const char *verdict = r->wrong		  ? "WRONG"
			    : !r->goal		  ? ""
			    : r->ratio >= r->goal ? "met"
						  : "below";
      printf ("| %-43s | %-12s | %-26s | %6s | %-7s | %-6s |\n", r->workload,
	      r->kernel, r->baseline, ratio, goal, verdict);
    }
}

/* Return the repetition count given as ARG, or DFLT without it; exit on
   a bad one.  */
static int
reps_arg (const char *arg, int dflt)
{
  if (!arg)
    return dflt;
  char *end;
  long r = strtol (arg, &end, 10);
  if (*end || r < 1 || r > MAX_REPS)
    {
      fprintf (stderr,
	       "usage: kernels [CACHE_REPS [MEMORY_REPS [calls]]] "
	       "(each 1 to %d)\n",
	       MAX_REPS);
      exit (2);
    }
  return (int) r;
}

int
main (int argc, char **argv)
{
  int cache_reps = reps_arg (argc > 1 ? argv[1] : NULL, CACHE_REPS);
  int memory_reps = reps_arg (argc > 2 ? argv[2] : NULL, MEMORY_REPS);
  double t0 = now_ns ();

  /* A third argument "calls": only the rows of the scalar functions and
     the clones.  */
  int only_calls = argc > 3 && !strcmp (argv[3], "calls");
  /* "softmax": only the softmax rows; "matvec": only the Dot rows.  */
  int only_softmax = argc > 3 && !strcmp (argv[3], "softmax");
  int only_matvec = argc > 3 && !strcmp (argv[3], "matvec");
  /* "issue19": only the distance, Gemma RMSNorm and L2 rows.  */
  int only_issue19 = argc > 3 && !strcmp (argv[3], "issue19");
  /* "memory": only the memory-resident RMSNorm rows and the residual
     add.  */
  int only_addnorm = argc > 3 && !strcmp (argv[3], "memory");

  print_machine (cache_reps, memory_reps);
  fill_inputs ();
  if (only_calls)
    goto calls;
  if (only_softmax)
    {
      bench_softmax (cache_reps);
      goto done;
    }
  if (only_issue19)
    {
      bench_issue19 (cache_reps);
      goto done;
    }
  if (!only_matvec && !only_addnorm)
    bench_rmsnorm_row (cache_reps);
  if (!alloc_big ())
    {
      fprintf (stderr, "kernels: cannot allocate 2 x %zu MiB\n",
	       BIG_BYTES >> 20);
      return 1;
    }
  if (!only_matvec)
    {
      bench_rmsnorm_big (memory_reps);
      bench_add_rmsnorm_big (memory_reps);
    }
  if (only_addnorm)
    goto done;
  bench_matvec_big (memory_reps);
  free (big_x);
  free (big_y);
  if (only_matvec)
    {
      bench_matvec_cache (cache_reps);
      goto done;
    }
  bench_elementwise (&ew_f32, "expm1 f32, 4096 (cache), expf(x)-1",
		     "nf_expm1_f32", k_expm1_f32, o2_expm1_f32, fast_expm1_f32,
		     5, cache_reps);
  bench_elementwise (&ew_f32, "log1p f32, 4096 (cache), logf(1+x)",
		     "nf_log1p_f32", k_log1p_f32, o2_log1p_f32, fast_log1p_f32,
		     5, cache_reps);
  bench_fast ("expm1 fast f32, 4096 (cache)", "nf_expm1_fast_f32",
	      k_expm1_fast_f32, k_expm1_f32, o2_expm1_f32, fast_expm1_f32,
	      cache_reps);
  bench_fast ("log1p fast f32, 4096 (cache)", "nf_log1p_fast_f32",
	      k_log1p_fast_f32, k_log1p_f32, o2_log1p_f32, fast_log1p_f32,
	      cache_reps);
  bench_elementwise (&ew_f64, "expm1 f64, 4096 (cache), exp(x)-1",
		     "nf_expm1_f64", k_expm1_f64, o2_expm1_f64, fast_expm1_f64,
		     3, cache_reps);
  bench_elementwise (&ew_f64, "log1p f64, 4096 (cache), log(1+x)",
		     "nf_log1p_f64", k_log1p_f64, o2_log1p_f64, fast_log1p_f64,
		     3, cache_reps);
  bench_program ("elu", k_elu, k_elu_fast, o2_elu, ofast_elu, fast_elu,
		 cache_reps);
  bench_program ("softplus", k_softplus, k_softplus_fast, o2_softplus,
		 ofast_softplus, fast_softplus, cache_reps);
  bench_elu_short (cache_reps);
  bench_nrm2 (cache_reps);
  bench_softmax (cache_reps);
  bench_issue19 (cache_reps);
  bench_matvec_cache (cache_reps);
calls:
  bench_calls_exp (cache_reps);
  bench_calls ("nf_expm1f", k_expm1_f32_to_yf, c_sc_nf_expm1f,
	       c_sc_expf_m1, "expf(x)-1", c_sc_expm1f, "expm1f", c_o3_nf_expm1f,
	       c_nat_nf_expm1f, cache_reps);
  bench_calls ("nf_log1pf", k_log1p_f32_to_yf, c_sc_nf_log1pf,
	       c_sc_logf_1p, "logf(1+x)", c_sc_log1pf, "log1pf",
	       c_o3_nf_log1pf, c_nat_nf_log1pf, cache_reps);
  bench_all_clones (cache_reps);

done:
  print_table ();
  printf ("\nratio: baseline time / kernel time (speed-up; for GB/s rows the "
	  "fraction of the baseline's bandwidth).\n"
	  "%s; %.0f s in all.\n",
	  broken ? "WRONG: a kernel's result disagrees with the -O2 loop "
		   "(see above): its time means nothing"
		 : "every kernel's result agrees with the -O2 loop",
	  (now_ns () - t0) / 1e9);
  return broken;
}
