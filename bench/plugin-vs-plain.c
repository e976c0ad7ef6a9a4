/* plugin-vs-plain.c: is code built with the plugin at least as fast as
   the same code built without it (DESIGN.md section 4, issue 16)?  Prints
   one Markdown table, workload x flag set, of ratio = plain time / plugin
   time (below 1: the plugin is slower) with both times.  `make bench`
   runs it.  A benchmark, not a test: it exits 0 whatever the speed, and 1
   only when a plugin build's result disagrees grossly with the plain
   build's (the cell says WRONG; its time means nothing).

   What is timed.  The sources in bench/plugin/ hold the code users write
   (workloads.h): activations around expf (x) - 1 and logf (1 + x), a
   scalar expf (v) - 1 function called per element, an L2 normalisation,
   llama2.c's softmax (long and attention-sized), a small llama2.c-style
   forward pass.  Makefile.am compiles each of them
   six times, at -O2, -O3 -march=native and -Ofast, plain and with
   -fplugin=neuronfuse.so, each build's symbols prefixed with its name, and
   links all six builds into this driver, which is compiled once at the
   configured CFLAGS and cannot inline them.

   How.  For each workload the six builds are timed interleaved in this one
   process: every repetition runs each build once, in an order that
   rotates by one each repetition, and each build's result is its median
   over the repetitions (as bench/kernels does, see kernels.c for why).
   The elementwise rows work on 4096 floats (or doubles) in cache, and a
   sample times as many back-to-back calls as fill about SAMPLE_NS; one
   forward pass lasts 0.3 to 5 ms, and a sample is one pass (or as many as
   fill SAMPLE_NS).  Inputs are fixed (a fixed generator): uniform in
   [-5, 5) for the activations, so signs are mixed, [-0.9, 9.1) for
   log (1 + x), [-2, 2) for the norm.

   Usage: bench/plugin-vs-plain [REPS]   (default 41)

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "plugin/workloads.h"

#include <gnu/libc-version.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern const char *nf_runtime_isa (void) __attribute__ ((weak));

/* The flag sets (set by Makefile.am to what it used).  */
#ifndef PVP_O2_FLAGS
#define PVP_O2_FLAGS "-O2"
#endif
#ifndef PVP_O3N_FLAGS
#define PVP_O3N_FLAGS "-O3 -march=native"
#endif
#ifndef PVP_OFAST_FLAGS
#define PVP_OFAST_FLAGS "-Ofast"
#endif

enum
{
  N = 4096,	 /* Elements of the in-cache arrays.  */
  NSETS = 3,	 /* Flag sets.  */
  NBUILDS = 6,	 /* Builds: each flag set plain, then with the plugin.  */
  NSHIFT = 4,	 /* Code offsets of the forward pass (forward.c).  */
  MAX_REPS = 1001
};

#define REPS 41
#define SAMPLE_NS 2e6
#define WARM_NS 2e7

static const char *const set_name[NSETS]
  = { PVP_O2_FLAGS, PVP_O3N_FLAGS, PVP_OFAST_FLAGS };

/* In-cache data.  */
static _Alignas (64) float xf[N], yf[N], outf[NBUILDS][N];
static _Alignas (64) double xd[N], yd[N], outd[NBUILDS][N];

/* The forward pass's weights, input, state and outputs.  */
static struct fw_weights fw;
static float fw_in[FW_DIM], fw_y[FW_DIM], fw_out[NBUILDS][FW_DIM];
static struct fw_state fw_s;

/* ELU's and CELU's alpha: run-time, so that no build can fold it.  */
static volatile float alpha_v = 1.0f;
static float alpha;

typedef void ew_f32_fn (float *, const float *, int, float);
typedef void ew_f64_fn (double *, const double *, int);
typedef void fw_fn (float *, const float *, const struct fw_weights *,
		    struct fw_state *);

enum kind
{
  EW_F32,
  EW_F64,
  FORWARD
};

/* ALL6 (name): the six builds' NAME, in the order of struct workload.  */
#define ALL6(name)                                                             \
  {                                                                            \
    o2_plain_##name, o2_plugin_##name, o3n_plain_##name, o3n_plugin_##name,    \
      ofast_plain_##name, ofast_plugin_##name                                  \
  }

/* A workload: six builds of one function.  Builds 2k and 2k + 1 are
   flag set k plain and with the plugin.  LO, HI: the input range (for
   EW_*).  The forward pass's builds are in fwd_shift.  RTOL, ATOL: how far a plugin build's result may be from the
   plain one's before the cell is WRONG; loose on purpose (-Ofast's
   libmvec is 4 ulp off, the kernels 0.5), they catch only results that
   are something else.  */
struct workload
{
  const char *name;
  enum kind kind;
  double lo, hi, rtol, atol;
  ew_f32_fn *f32[NBUILDS];
  ew_f64_fn *f64[NBUILDS];
};

static const struct workload workloads[] = {
  { "`y[i] = expf (x[i]) - 1.0f`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (expm1_f32), { 0 } },
  { "`y[i] = log (1.0 + x[i])` (double)", EW_F64, -0.9, 9.1, 1e-10, 1e-12,
    { 0 }, ALL6 (log1p_f64) },
  { "`y[i] = logf (1.0f + x[i])`", EW_F32, -0.9, 9.1, 1e-4, 1e-5,
    ALL6 (log1p_f32), { 0 } },
  { "ELU `x > 0 ? x : alpha * (expf (x) - 1)`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (elu), { 0 } },
  { "SELU, float constants", EW_F32, -5, 5, 1e-4, 1e-5, ALL6 (selu), { 0 } },
  { "SELU, darknet's (`exp` in double)", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (selu_darknet), { 0 } },
  { "CELU `fmaxf (0, x) + fminf (0, a * (expf (x / a) - 1))`", EW_F32, -5, 5,
    1e-4, 1e-5, ALL6 (celu), { 0 } },
  { "softplus `logf (expf (x) + 1)`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (softplus), { 0 } },
  { "softplus, threshold `x > 20 ? x : ...`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (softplus_thr), { 0 } },
  { "tanh `(expf (2x) - 1) / (expf (2x) + 1)`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (tanh_exp), { 0 } },
  { "log-sigmoid `-logf (1 + expf (-x))`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (logsigmoid), { 0 } },
  { "mish `x * tanhf (logf (1 + expf (x)))`", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (mish), { 0 } },
  { "scalar `em1 (v)` (other unit) per element", EW_F32, -5, 5, 1e-4, 1e-5,
    ALL6 (em1_calls), { 0 } },
  { "L2 normalise (sum x^2, sqrtf, divide)", EW_F32, -2, 2, 1e-4, 1e-7,
    ALL6 (l2normalize), { 0 } },
  { "distances to 16 centroids (k-means), 256 elements each", EW_F32, -2, 2,
    1e-4, 1e-7, ALL6 (dist), { 0 } },
  { "RMS `sqrtf (sum x^2 / n)`", EW_F32, -2, 2, 1e-4, 1e-7, ALL6 (rms),
    { 0 } },
  { "L2 normalise with a floor `x / fmaxf (norm, eps)`", EW_F32, -2, 2, 1e-4,
    1e-7, ALL6 (l2normalize_floor), { 0 } },
  { "RMSNorm, Gemma's gain `1 + w`", EW_F32, -2, 2, 1e-4, 1e-7,
    ALL6 (rmsnorm_gemma), { 0 } },
  { "residual add `h[i] += r[i]`, then RMSNorm", EW_F32, -2, 2, 1e-4, 1e-7,
    ALL6 (add_rmsnorm), { 0 } },
  { "softmax, llama2.c's, 4096 elements in place", EW_F32, -5, 5, 1e-4, 1e-10,
    ALL6 (softmax), { 0 } },
  { "softmax, attention rows of 1..64 elements", EW_F32, -5, 5, 1e-4, 1e-8,
    ALL6 (softmax_rows), { 0 } },
  { "forward pass, 4 layers, dim 288, hidden 768 (us/pass)", FORWARD, 0, 0,
    1e-3, 1e-3, { 0 }, { 0 } },
};

#define NWORKLOADS ((int) (sizeof workloads / sizeof workloads[0]))

/* The forward pass of each build at the code offsets 0, 16, 32, 48.  */
#define FW4(b) { b##_forward, b##_s16_forward, b##_s32_forward, b##_s48_forward }
static fw_fn *const fwd_shift[NBUILDS][NSHIFT]
  = { FW4 (o2_plain),	 FW4 (o2_plugin),   FW4 (o3n_plain),
      FW4 (o3n_plugin), FW4 (ofast_plain), FW4 (ofast_plugin) };

/* The measured medians (ns per call) and checks, per workload and build;
   for the forward pass the mean over the code offsets, and (AT_SHIFT)
   each offset's.  */
static double med[NWORKLOADS][NBUILDS];
static double at_shift[NBUILDS][NSHIFT];
static int wrong[NWORKLOADS][NSETS];
static int broken;

static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A 64-bit LCG (Knuth's MMIX constants): the same inputs every run.  */
static unsigned long long lcg_state = 0x853c49e6748fea9bull;

/* Return a uniform double in [LO, HI).  */
static double
uniform (double lo, double hi)
{
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (hi - lo) * (double) (lcg_state >> 11) * 0x1p-53;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *t, int n)
{
  qsort (t, n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The workload and build the timing loop runs.  */
static const struct workload *cur;

/* Variants per build of CUR: its code offsets (1 but for the forward
   pass).  */
static int
shifts (void)
{
  return cur->kind == FORWARD ? NSHIFT : 1;
}

/* Run variant V of CUR once (build V / shifts (), at code offset
   V % shifts ()), into the shared output buffer.  */
static void
run (int v)
{
  int b = v / shifts ();
  switch (cur->kind)
    {
    case EW_F32:
      cur->f32[b](yf, xf, N, alpha);
      break;
    case EW_F64:
      cur->f64[b](yd, xd, N);
      break;
    case FORWARD:
      fwd_shift[b][v % NSHIFT](fw_y, fw_in, &fw, &fw_s);
      break;
    }
}

/* Time the builds of CUR (every code offset of each) interleaved, REPS
   repetitions; set MED[W] (and SPREAD for the forward pass).  */
static void
time_builds (int w, int reps)
{
  enum
  {
    NV = NBUILDS * NSHIFT
  };
  static double t[NV][MAX_REPS];
  long inner[NV];
  int nv = NBUILDS * shifts ();
  for (int v = 0; v < nv; v++)
    {
      long calls = 0;
      double t0 = now_ns (), dt;
      do
	{
	  run (v);
	  calls++;
	}
      while ((dt = now_ns () - t0) < WARM_NS || calls < 2);
      inner[v] = dt / calls < SAMPLE_NS ? (long) (SAMPLE_NS / (dt / calls)) : 1;
    }
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < nv; k++)
      {
	int v = (r + k) % nv;
	double t0 = now_ns ();
	for (long j = 0; j < inner[v]; j++)
	  run (v);
	t[v][r] = (now_ns () - t0) / inner[v];
      }
  for (int b = 0; b < NBUILDS; b++)
    {
      double sum = 0;
      for (int s = 0; s < shifts (); s++)
	{
	  double m = median (t[b * shifts () + s], reps);
	  sum += m;
	  if (cur->kind == FORWARD)
	    at_shift[b][s] = m;
	}
      med[w][b] = sum / shifts ();
    }
}

/* Return whether GOT[0..N-1] agree with REF within ATOL + RTOL |REF| and
   in NaN-ness; print the first disagreement.  */
static int
agree (const char *what, const char *set, const double *got,
       const double *ref, int n, double rtol, double atol)
{
  for (int i = 0; i < n; i++)
    if (isnan (got[i]) != isnan (ref[i])
	|| fabs (got[i] - ref[i]) > atol + rtol * fabs (ref[i]))
      {
	fprintf (stderr,
		 "plugin-vs-plain: %s at %s: [%d] = %.9g with the plugin, "
		 "%.9g without\n",
		 what, set, i, got[i], ref[i]);
	return 0;
      }
  return 1;
}

/* Run each build of workload W once on fresh output buffers and compare
   each plugin build's result with the plain build's of its flag set.  */
static void
check (int w)
{
  static double a[FW_DIM > N ? FW_DIM : N], b[FW_DIM > N ? FW_DIM : N];
  int n = cur->kind == FORWARD ? FW_DIM : N;
  for (int k = 0; k < NBUILDS; k++)
    {
      memset (yf, 0xff, sizeof yf); /* NaNs: see what the build wrote.  */
      memset (yd, 0xff, sizeof yd);
      memset (fw_y, 0xff, sizeof fw_y);
      run (k * shifts ()); /* Offset 0: the code is the same at all.  */
      memcpy (outf[k], yf, sizeof yf);
      memcpy (outd[k], yd, sizeof yd);
      memcpy (fw_out[k], fw_y, sizeof fw_y);
    }
  for (int s = 0; s < NSETS; s++)
    {
      for (int i = 0; i < n; i++)
	{
	  int p = 2 * s, q = 2 * s + 1;
	  a[i] = cur->kind == EW_F64   ? outd[q][i]
		 : cur->kind == EW_F32 ? outf[q][i]
				       : fw_out[q][i];
	  b[i] = cur->kind == EW_F64   ? outd[p][i]
		 : cur->kind == EW_F32 ? outf[p][i]
				       : fw_out[p][i];
	}
      if (!agree (cur->name, set_name[s], a, b, n, cur->rtol, cur->atol))
	wrong[w][s] = broken = 1;
    }
}

static void
fill_inputs (const struct workload *wl)
{
  lcg_state = 0x853c49e6748fea9bull;
  for (int i = 0; i < N; i++)
    {
      xf[i] = (float) uniform (wl->lo, wl->hi);
      xd[i] = uniform (wl->lo, wl->hi);
    }
}

/* Fill the forward pass's weights: uniform, scaled by 1 / sqrt (fan-in)
   so that activations stay of order 1 through the layers.  */
static int
fill_weights (void)
{
  size_t d = FW_DIM, h = FW_HIDDEN, l = FW_LAYERS;
  float **p[] = { &fw.rms_att, &fw.rms_ffn, &fw.wo, &fw.w1, &fw.w3, &fw.w2,
		  &fw.rms_final };
  size_t len[] = { l * d, l * d, l * d * d, l * h * d, l * h * d, l * d * h,
		   d };
  double scale[] = { 0, 0, 1 / sqrt (d), 1 / sqrt (d), 1 / sqrt (d),
		     1 / sqrt (h), 0 };
  lcg_state = 0x2545f4914f6cdd1dull;
  for (int k = 0; k < 7; k++)
    {
      if (!(*p[k] = malloc (len[k] * sizeof (float))))
	return 0;
      for (size_t i = 0; i < len[k]; i++)
	(*p[k])[i] = scale[k] ? (float) (scale[k] * uniform (-1, 1))
			      : (float) uniform (0.5, 1.5);
    }
  for (int i = 0; i < FW_DIM; i++)
    fw_in[i] = (float) uniform (-1, 1);
  return 1;
}

static void
print_machine (int reps)
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
  printf ("neuronfuse plain-against-plugin benchmark, %s\n", date);
  printf ("cpu:      %s, %ld cores online%s%s\n", model,
	  sysconf (_SC_NPROCESSORS_ONLN),
	  __builtin_cpu_supports ("avx2") ? ", avx2" : "",
	  __builtin_cpu_supports ("avx512f") ? ", avx512f" : "");
  printf ("compiler: gcc %s; glibc %s\n", __VERSION__, gnu_get_libc_version ());
  printf ("library:  %s\n",
	  isa ? isa : "nf_runtime_isa () not exported (portable kernels)");
  printf ("builds:   bench/plugin/*.c at %s, %s, %s; each plain and with "
	  "-fplugin=neuronfuse.so\n",
	  PVP_O2_FLAGS, PVP_O3N_FLAGS, PVP_OFAST_FLAGS);
  printf ("timing:   medians of %d interleaved repetitions; 4096 elements "
	  "in cache per elementwise call\n\n",
	  reps);
  fflush (stdout);
}

static void
print_table (void)
{
  enum
  {
    W0 = 56,
    W1 = 22
  };
  printf ("| %-*s |", W0, "workload");
  for (int s = 0; s < NSETS; s++)
    printf (" %-*s |", W1, set_name[s]);
  printf ("\n|%.*s|", W0 + 2,
	  "------------------------------------------------------------------");
  for (int s = 0; s < NSETS; s++)
    printf ("%.*s|", W1 + 2, "------------------------------");
  printf ("\n");
  for (int w = 0; w < NWORKLOADS; w++)
    {
      const struct workload *wl = &workloads[w];
      /* Per element for the elementwise rows, per pass in us for the
	 forward pass.  */
      double per = wl->kind == FORWARD ? 1e3 : N;
      const char *fmt = wl->kind == FORWARD ? "%.2f (%.0f / %.0f)"
					    : "%.2f (%.2f / %.2f)";
      printf ("| %-*s |", W0, wl->name);
      for (int s = 0; s < NSETS; s++)
	{
	  char cell[64];
	  double plain = med[w][2 * s], plug = med[w][2 * s + 1];
	  if (wrong[w][s])
	    snprintf (cell, sizeof cell, "WRONG");
	  else
	    snprintf (cell, sizeof cell, fmt, plain / plug, plain / per,
		      plug / per);
	  printf (" %-*s |", W1, cell);
	}
      printf ("\n");
    }
}

int
main (int argc, char **argv)
{
  int reps = REPS;
  if (argc > 1)
    {
      char *end;
      long r = strtol (argv[1], &end, 10);
      if (*end || r < 1 || r > MAX_REPS)
	{
	  fprintf (stderr, "usage: plugin-vs-plain [REPS] (1 to %d)\n",
		   MAX_REPS);
	  return 2;
	}
      reps = (int) r;
    }
  double t0 = now_ns ();
  alpha = alpha_v;
  print_machine (reps);
  if (!fill_weights ())
    {
      fprintf (stderr, "plugin-vs-plain: out of memory\n");
      return 1;
    }
  for (int w = 0; w < NWORKLOADS; w++)
    {
      cur = &workloads[w];
      fill_inputs (cur);
      check (w);
      time_builds (w, reps);
    }
  print_table ();
  printf ("\nThe forward pass is timed with its unit's code at 4 offsets (0, "
	  "16, 32, 48 bytes after a 64-byte boundary); its cells are the means "
	  "over them.  us per pass at each offset:\n");
  for (int b = 0; b < NBUILDS; b++)
    {
      double lo = INFINITY, hi = 0;
      printf ("  %-18s %-7s", set_name[b / 2], b % 2 ? "plugin" : "plain");
      for (int s = 0; s < NSHIFT; s++)
	{
	  printf (" %6.0f", at_shift[b][s] / 1e3);
	  lo = fmin (lo, at_shift[b][s]);
	  hi = fmax (hi, at_shift[b][s]);
	}
      printf ("   slowest / fastest %.2f\n", hi / lo);
    }
  printf ("\nEach cell: plain time / plugin time (below 1: slower with the "
	  "plugin), then (plain / plugin) in ns per element, or in us per "
	  "pass for the forward pass.\n%s; %.0f s in all.\n",
	  broken ? "WRONG: a plugin build's result disagrees with the plain "
		   "build's (see above): its time means nothing"
		 : "every plugin build's result agrees with the plain build's",
	  (now_ns () - t0) / 1e9);
  return broken;
}
