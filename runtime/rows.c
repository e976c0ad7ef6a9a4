/* rows.c: nf_rmsnorm_rows_*, RMSNorm of many rows of one length, split
   across a small pool of POSIX threads; nf_set_num_threads.

   Each thread takes whole rows in fixed chunks (NF_POOL_CHUNKS a
   thread, fewer for a small job: NF_POOL_CHUNK_MIN), claimed one at a
   time: a row is at most a few microseconds of work, and splitting one
   would need a second reduction.  The caller's thread claims the chunks
   from the front, the pool's workers from the back, so each keeps its
   rows (and their cache) from call to call.  Small batches stay on the
   calling thread (NF_ROWS_PAR_MIN).  When the output is too big to stay cached, the
   rows are written with non-temporal stores: they skip the
   read-for-ownership of each line, a third of a row pass's traffic where
   the memory system charges for it (1.4x on a Sapphire Rapids guest,
   runtime-facts 5.3; no change on the Zen 5 guest of bench/RESULTS.md,
   where plain stores already reach 0.75 of memcpy).

   Why not OpenMP (which did this until issue 16): libneuronfuse then
   needed libgomp.so.1, whose constructor allocates 32 bytes of heap
   before main in every program linked with the library, kernels called
   or not; each later calloc then lands 32 bytes further on, and
   llama2.c's 64-byte-aligned activations became 32 mod 64, splitting
   every AVX-512 load (5% of -Ofast -march=native's speed).  Loading
   this library runs nothing: the pool is static storage, its workers
   are started by the first rows call that splits, and nothing else is
   ever allocated (glibc's pthread_create itself callocs each new
   thread's TLS vector, at that first split call).

   The pool: NF_POOL_MAX workers at most, started on demand and never
   stopped, each blocked on its own semaphore.  A call takes the pool's
   owner mutex, writes the job, publishes it in the claim word (the job's
   generation and its unclaimed chunks) and posts one semaphore per
   worker it needs; then the caller and the workers claim the chunks one
   at a time (a compare-and-swap on the claim word that names the
   generation), each counts the chunks it ran once it finds none left,
   and whoever completes the job's count posts the done semaphore unless
   it is the caller.  So a worker that the system has not scheduled yet
   (another process has its core) delays nothing: the caller runs the
   chunk it would have run, and the worker, when it wakes, finds nothing
   left of that job (on a 2-vCPU guest running a build alongside,
   llama2.c's forward ran 2.5 times slower on two threads than on one
   while the caller waited for its worker's chunk).  A chunk is the same
   rows whoever runs it, so the results do not depend on who ran what.
   The claim's acquire orders the job's writes before a worker's reads,
   the last count (or done post) its outputs before the caller's
   return (ThreadSanitizer checks it: testsuite's thread-test-tsan).  A
   call that finds the pool in use by another
   thread does all its rows on its own thread rather than wait: the
   other call already has the cores.  A worker waiting for
   work, and the caller waiting for the workers, first poll their
   semaphore with sem_trywait for up to NF_POOL_SPIN_NS, then sleep in
   sem_wait (glibc's sem_post makes a system call only when someone
   sleeps): back-to-back calls, as the matrix-vector products of a
   forward pass make them, hand off without waking a sleeping CPU, and a
   pool idle for longer than that costs nothing.  fork: the child has no
   workers, so an atfork handler (registered with the first worker) empties the
   pool there; the parent waits for a call in progress to finish before it
   forks.

   The thread count: nf_set_num_threads's if one was set, else
   NEURONFUSE_THREADS, else OMP_NUM_THREADS (what the OpenMP version
   obeyed, kept for compatibility; its first number if a list), else
   the CPUs this process may run on (sched_getaffinity, falling back to
   the online CPUs); capped at NF_POOL_MAX + 1 and by the rows.  The
   environment is read once, by the first rows call big enough to split
   or the first nf_get_num_threads.

   Left undone: no binding of workers to CPUs (OMP_PROC_BIND is no
   longer obeyed).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include "kernels.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

/* Below this many elements in all the rows, one thread does everything.
   Measured on the 2-vCPU guest of bench/RESULTS.md (while other jobs
   shared it): pthread_create + join of an empty thread costs 19 us, a
   semaphore round trip to a sleeping thread 4 us back to back and 7 to
   11 us after 0.2 to 2 ms idle, and a split call of 4096 elements 5.7 us
   against 0.5 us on one thread: the pool's handoff is about 5 to 8 us
   (libgomp's spinning team took 1.1).  2^18 elements are about 40 us of
   vector work in cache, so two threads save about 20 us of it for 5 to
   8 us of handoff; at 2^17 the saving barely covers the handoff.  A -D
   can lower it, to time the split itself.  */
#ifndef NF_ROWS_PAR_MIN
#define NF_ROWS_PAR_MIN ((size_t) 1 << 18)
#endif

/* From this many bytes of output up, rows are streamed past the caches:
   two to four times the L2 of a core of current x86 servers (1 or 2 MiB)
   and below their L3, so an output that could be reread from cache is not
   streamed.  */
#define NF_ROWS_STREAM_MIN ((size_t) 4 << 20)

/* How long a waiter polls before it sleeps.  Without it, a worker that
   slept between two calls 30 us apart took 50 to 60 us to wake on the
   2-vCPU guest of bench/RESULTS.md (a halted virtual CPU woken by an
   interrupt): two threads made a 512 x 768 matrix-vector product three
   times slower than one (96 us against 34, median of 1000 calls).  100
   us covers the gaps between the kernel calls of a forward pass; libgomp
   spins longer by default (GOMP_SPINCOUNT).  */
#ifndef NF_POOL_SPIN_NS
#define NF_POOL_SPIN_NS 100000
#endif

/* Chunks a call's rows are split into, per thread: the caller and the
   workers claim them one at a time, so a worker the system runs late or
   stops mid-chunk holds at most that share of the rows.  llama2.c's
   run.c on a stories15M-shaped checkpoint, on the 2-vCPU guest of
   bench/RESULTS.md with one busy loop sharing it, in tok/s: 2 threads
   with 4 chunks each 126 to 165, with 1 chunk each 110 to 147, the
   pool that waited for its worker's fixed chunk 59 to 60, one thread
   177 to 184 (plain -O3: 43); with two busy loops 127 to 151, 79 to
   140, 52 to 54 and 99 to 132; idle, 443 to 465 either way.  */
#ifndef NF_POOL_CHUNKS
#define NF_POOL_CHUNKS 4
#endif

/* The fewest elements of a chunk, while a job has more chunks than
   threads: 2^15 elements are about 1 us of matrix-vector work in cache.
   On the 2-vCPU Zen 5 guest of bench/RESULTS.md a 288 x 288 product
   (2.5 us on one thread, 0.56 us a chunk of 58 rows) took 1.5 us on two
   threads in two chunks, 1.6 in eight (the chunks changing cores call
   after call) and 1.9 in five.  */
#ifndef NF_POOL_CHUNK_MIN
#define NF_POOL_CHUNK_MIN ((size_t) 1 << 15)
#endif

/* Below this many elements, a job splits only over workers already
   awake (small_job_alone): 2^18 elements are about 8 us of
   matrix-vector work in cache on one thread, what waking a sleeping
   worker takes.  */
#ifndef NF_POOL_WAKE_MIN
#define NF_POOL_WAKE_MIN ((size_t) 1 << 18)
#endif

/* The most workers the pool starts: with the caller, 64 threads, more
   than the memory bandwidth of any current socket needs for a pass
   that moves 8 bytes per float.  */
#define NF_POOL_MAX 63

/* One call's work: RUN (CTX, R0, R1) normalizes rows R0 to R1 - 1 of
   ROWS, split into CHUNKS chunks.  */
struct nf_rows_job
{
  void (*run) (const void *ctx, size_t r0, size_t r1);
  const void *ctx;
  size_t rows;
  unsigned chunks;
};

/* The pool.  WORKERS, JOB, FINISHED's reset and the semaphores'
   initialization belong to whoever holds OWNER; a worker reads JOB only
   after it claimed one of its chunks, which the job's caller waits
   for.  */
static struct
{
  pthread_mutex_t owner;
  unsigned workers; /* started, numbered 0 to workers - 1 */
  struct nf_rows_job job;
  /* The job's generation and its unclaimed chunks (claim_chunk);
     atomic.  */
  unsigned long long claim;
  unsigned finished;	 /* the job's chunks done; atomic */
  sem_t go[NF_POOL_MAX]; /* a new job for worker I (maybe gone already) */
  /* Worker I's state, a hint (small_job_alone); atomic.  */
  unsigned char awake[NF_POOL_MAX];
  sem_t done;		 /* a worker finished the job's last chunk */
} pool = { .owner = PTHREAD_MUTEX_INITIALIZER };

/* nf_set_num_threads's count, 0 for none; atomic.  */
static int threads_set;
/* The count from the environment or the CPUs, set once by env_init.  */
static unsigned threads_env;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* Return the leading count of the environment variable NAME: a decimal
   number from 1 up, ending the string or followed by a comma (as the
   first level of OMP_NUM_THREADS=4,2); 0 if NAME is unset or anything
   else.  */
static unsigned
env_count (const char *name)
{
  const char *s = getenv (name);
  if (!s || *s < '0' || *s > '9')
    return 0;
  char *end;
  errno = 0;
  unsigned long v = strtoul (s, &end, 10);
  if (errno || (*end && *end != ','))
    return 0;
  return v > NF_POOL_MAX + 1 ? NF_POOL_MAX + 1 : (unsigned) v;
}

/* Set threads_env from NEURONFUSE_THREADS, OMP_NUM_THREADS or the CPUs,
   capped at NF_POOL_MAX + 1.  */
static void
env_init (void)
{
  unsigned t = env_count ("NEURONFUSE_THREADS");
  if (!t)
    t = env_count ("OMP_NUM_THREADS");
  if (!t)
    {
      cpu_set_t set;
      long n = -1;
      if (sched_getaffinity (0, sizeof set, &set) == 0)
	n = CPU_COUNT (&set);
      if (n < 1)
	n = sysconf (_SC_NPROCESSORS_ONLN);
      t = n < 1 ? 1 : n > NF_POOL_MAX + 1 ? NF_POOL_MAX + 1 : (unsigned) n;
    }
  threads_env = t;
}

void
nf_set_num_threads (int n)
{
  if (n < 0)
    n = 0;
  if (n > NF_POOL_MAX + 1)
    n = NF_POOL_MAX + 1;
  __atomic_store_n (&threads_set, n, __ATOMIC_RELAXED);
}

int
nf_get_num_threads (void)
{
  int n = __atomic_load_n (&threads_set, __ATOMIC_RELAXED);
  if (n)
    return n;
  pthread_once (&env_once, env_init);
  return (int) threads_env;
}

/* Worker states (pool.awake): polling for work or running it; asleep
   in sem_wait (or about to be); posted to wake by a small job
   (small_job_alone) and not awake yet.  */
enum
{
  W_AWAKE = 1,
  W_ASLEEP = 0,
  W_WOKEN = 2
};

/* Take one post of S: poll for NF_POOL_SPIN_NS, then sleep, with
   *STATE (a worker's, or NULL) W_ASLEEP while it sleeps.  */
static void
pool_wait (sem_t *s, unsigned char *state)
{
  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (unsigned k = 1;; k++)
    {
      if (sem_trywait (s) == 0)
	return;
#if defined __x86_64__ || defined __i386__
      __builtin_ia32_pause ();
#endif
      if (k % 64 == 0)
	{
	  clock_gettime (CLOCK_MONOTONIC, &t);
	  if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec)
	      >= NF_POOL_SPIN_NS)
	    break;
	}
    }
  if (state)
    __atomic_store_n (state, W_ASLEEP, __ATOMIC_RELAXED);
  while (sem_wait (s) != 0)
    ; /* EINTR */
  if (state)
    __atomic_store_n (state, W_AWAKE, __ATOMIC_RELAXED);
}

/* Set *R0 and *R1 to the bounds of chunk C of CHUNKS over ROWS rows: the
   first rows % chunks chunks have one row more.  */
static void
chunk_bounds (size_t rows, unsigned chunks, unsigned c, size_t *r0, size_t *r1)
{
  size_t q = rows / chunks, m = rows % chunks;
  *r0 = q * c + (c < m ? c : m);
  *r1 = *r0 + q + (c < m);
}

/* The claim word: the job's generation in the high 32 bits, its next
   chunk from the front in bits 0 to 15 and one past its last unclaimed
   chunk in bits 16 to 31 (at most (NF_POOL_MAX + 1) NF_POOL_CHUNKS
   chunks).  */
#define CLAIM_BACK_ONE ((unsigned long long) 1 << 16)

/* Claim a chunk of the current job, the first unclaimed one or (BACK)
   the last: its index in *C, or false when none is left.  The caller
   takes chunks from the front and the workers from the back, so that
   with one worker each thread runs the same rows call after call, its
   part of the matrix still in its own cache, and only the chunks around
   where they meet change hands.  (The generation cannot change under a
   claimed chunk: the job's caller waits for every chunk.)  */
static int
claim_chunk (int back, unsigned *c)
{
  unsigned long long w = __atomic_load_n (&pool.claim, __ATOMIC_ACQUIRE);
  for (;;)
    {
      unsigned lo = (unsigned) w & 0xffff, hi = (unsigned) (w >> 16) & 0xffff;
      if (lo >= hi)
	return 0;
      if (__atomic_compare_exchange_n (&pool.claim, &w,
				       back ? w - CLAIM_BACK_ONE : w + 1, 0,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	{
	  *c = back ? hi - 1 : lo;
	  return 1;
	}
    }
}

/* Claim and run chunks of the current job while there are any, then
   count the chunks run in one addition: true when that made the job's
   count complete (this thread ran the job's last chunks; a thread that
   ran none never is).  One atomic addition a thread, not one a chunk:
   each is a cache line passed between the cores.  */
static int
run_chunks (int back)
{
  unsigned c, ran = 0, chunks = 0;
  while (claim_chunk (back, &c))
    {
      /* (read before the count: once the last chunk is counted, the
	 next call may write the job)  */
      chunks = __atomic_load_n (&pool.job.chunks, __ATOMIC_RELAXED);
      size_t r0, r1;
      chunk_bounds (pool.job.rows, chunks, c, &r0, &r1);
      pool.job.run (pool.job.ctx, r0, r1);
      ran++;
    }
  return ran
	 && __atomic_add_fetch (&pool.finished, ran, __ATOMIC_ACQ_REL) == chunks;
}

/* Worker ARG (its index): on each post of its semaphore, claim and run
   chunks of the job while there are any; post done when it ran the
   last.  Never returns.  */
static void *
worker_main (void *arg)
{
  unsigned i = (unsigned) (uintptr_t) arg;
  for (;;)
    {
      pool_wait (&pool.go[i], &pool.awake[i]);
      if (run_chunks (1))
	sem_post (&pool.done);
    }
  return NULL;
}

/* fork: the parent holds the owner mutex across the fork, so no call is
   half done; the child has no workers.  */
static void
fork_prepare (void)
{
  pthread_mutex_lock (&pool.owner);
}
static void
fork_parent (void)
{
  pthread_mutex_unlock (&pool.owner);
}
static void
fork_child (void)
{
  pool.workers = 0;
  pthread_mutex_unlock (&pool.owner);
}
static void
fork_init (void)
{
  pthread_atfork (fork_prepare, fork_parent, fork_child);
}

/* Start worker number POOL.WORKERS, with every signal blocked (they are
   the program's, for its own threads).  Return nonzero on success.
   Called with the owner mutex held.  */
static int
start_worker (void)
{
  unsigned i = pool.workers;
  pthread_attr_t attr;
  sigset_t all, old;
  pthread_t tid;
  int ok = 0;

  if (sem_init (&pool.go[i], 0, 0) != 0)
    return 0;
  __atomic_store_n (&pool.awake[i], W_AWAKE, __ATOMIC_RELAXED);
  if (pthread_attr_init (&attr) != 0)
    return 0;
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  ok = pthread_create (&tid, &attr, worker_main, (void *) (uintptr_t) i) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_attr_destroy (&attr);
  if (ok)
    pool.workers++;
  return ok;
}

/* Whether a small job should run on the caller's thread alone because
   one of the first WORKERS workers is not awake: waking one costs the
   caller a system call (sem_post to a sleeper) and the worker 4 to 60
   us (rows.c's measurements above), more than such a job's work, and a
   worker that the system has not run yet would only arrive after the
   job.  Each sleeping worker is posted to wake once (W_WOKEN), so that
   it polls for the calls that follow: back-to-back small jobs, the
   matrix-vector products of a forward pass, split again from the call
   after it is awake.  Called with the owner mutex held.  */
static int
small_job_alone (unsigned workers)
{
  int alone = 0;
  for (unsigned i = 0; i < workers; i++)
    {
      unsigned char s = __atomic_load_n (&pool.awake[i], __ATOMIC_RELAXED);
      if (s == W_AWAKE)
	continue;
      alone = 1;
      if (s == W_ASLEEP
	  && __atomic_compare_exchange_n (&pool.awake[i], &s, W_WOKEN, 0,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	sem_post (&pool.go[i]);
    }
  return alone;
}

/* Run RUN and CTX over ROWS rows: on this thread alone if the batch is
   small (ELEMS, the elements in all, below PAR_MIN), the pool is busy or one
   thread is asked for, else in as many chunks as threads, this thread running
   the first.  If workers cannot be started, runs with those it has.  */
/* libgomp's, where the program has OpenMP (weak: the library does not
   link libgomp, see above).  Inside a parallel region the program's
   threads already have the cores: a second team of the pool's would
   compete with them.  llama2.c's matmul under -fopenmp, its loop body
   fused by the plugin into a call per thread's rows: 215-225 tok/s with
   the pool splitting each call again, 474 without (plain -fopenmp:
   154-200; stories15M shape, 2 vCPUs).  */
extern int omp_in_parallel (void) __attribute__ ((weak));

void
nf_rows_split (void (*run) (const void *, size_t, size_t), const void *ctx,
	       size_t rows, size_t elems, size_t par_min)
{
  unsigned t = 1;
  if (elems >= par_min && !(omp_in_parallel && omp_in_parallel ()))
    t = (unsigned) nf_get_num_threads ();
  if (t > rows)
    t = (unsigned) rows;
  if (t <= 1 || pthread_mutex_trylock (&pool.owner) != 0)
    {
      run (ctx, 0, rows);
      return;
    }
  /* sem_wait is a cancellation point: a caller cancelled in it would
     leave the pool locked and its workers writing into a dead frame.  */
  int cancel;
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &cancel);
  if (pool.workers == 0)
    {
      /* The first split, or the first in a forked child: (re)create the
	 done semaphore, and register the atfork handlers once.  */
      pthread_once (&fork_once, fork_init);
      if (sem_init (&pool.done, 0, 0) != 0)
	t = 1;
    }
  while (pool.workers < t - 1 && start_worker ())
    ;
  if (t > pool.workers + 1)
    t = pool.workers + 1;
  if (t > 1 && elems < NF_POOL_WAKE_MIN && small_job_alone (t - 1))
    t = 1;
  if (t <= 1)
    {
      pthread_mutex_unlock (&pool.owner);
      pthread_setcancelstate (cancel, NULL);
      run (ctx, 0, rows);
      return;
    }

  /* The job, then the claim word that publishes it (its chunk count
     written atomically: a late worker of the previous job may read it
     before its CAS fails).  */
  pool.job.run = run;
  pool.job.ctx = ctx;
  pool.job.rows = rows;
  /* NF_POOL_CHUNKS chunks a thread: a worker the system runs late or
     stops holds at most that share of the rows; fewer for a small job,
     down to one a thread, so that a chunk has NF_POOL_CHUNK_MIN elements;
     always the same number for each thread (five chunks on two threads
     take three chunks' time).  */
  size_t per = elems / ((size_t) t * NF_POOL_CHUNK_MIN);
  per = per < 1 ? 1 : per > NF_POOL_CHUNKS ? NF_POOL_CHUNKS : per;
  size_t chunks = (size_t) t * per;
  if (chunks > rows)
    chunks = rows;
  __atomic_store_n (&pool.job.chunks, (unsigned) chunks, __ATOMIC_RELAXED);
  __atomic_store_n (&pool.finished, 0, __ATOMIC_RELAXED);
  unsigned long long gen = (pool.claim >> 32) + 1;
  __atomic_store_n (&pool.claim, gen << 32 | chunks * CLAIM_BACK_ONE,
		    __ATOMIC_RELEASE);
  for (unsigned i = 0; i + 1 < t; i++)
    sem_post (&pool.go[i]);
  if (!run_chunks (0))
    pool_wait (&pool.done, NULL);
  pthread_mutex_unlock (&pool.owner);
  pthread_setcancelstate (cancel, NULL);
}

/* The three public kernels: a context of the call's arguments and the
   dispatched row kernel, a chunk function over it, and the call.  */
#define NF_ROWS(sfx, T, E)                                                     \
  struct rows_##sfx                                                            \
  {                                                                            \
    T *y;                                                                      \
    const T *x, *w;                                                            \
    size_t n;                                                                  \
    E eps;                                                                     \
    int stream;                                                                \
    __typeof__ (NF_KERNEL (rmsnorm_##sfx)) k;                                  \
  };                                                                           \
  static void run_##sfx (const void *ctx, size_t r0, size_t r1)                \
  {                                                                            \
    const struct rows_##sfx *c = ctx;                                          \
    for (size_t r = r0; r < r1; r++)                                           \
      c->k (c->y + r * c->n, c->x + r * c->n, c->w, c->n, c->eps, c->stream);  \
  }                                                                            \
  void nf_rmsnorm_rows_##sfx (T *y, const T *x, const T *w, size_t rows,       \
			      size_t n, E eps)                                 \
  {                                                                            \
    if (rows == 0 || n == 0)                                                   \
      return;                                                                  \
    struct rows_##sfx c = { y,                                                 \
			    x,                                                 \
			    w,                                                 \
			    n,                                                 \
			    eps,                                               \
			    rows * n * sizeof *y >= NF_ROWS_STREAM_MIN,        \
			    NF_KERNEL (rmsnorm_##sfx) };                       \
    nf_rows_split (run_##sfx, &c, rows, rows *n, NF_ROWS_PAR_MIN);             \
  }

NF_ROWS (f32, float, float)
NF_ROWS (f64, double, double)
#ifdef __FLT16_MAX__
NF_ROWS (f16, _Float16, float)
#endif
