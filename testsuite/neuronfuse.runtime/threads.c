/* Area: runtime, thread safety (issue 8).
   Purpose: libneuronfuse's kernels are called from the threads of user
   programs, often several at once, and the first call of any kernel
   fills the dispatch table (runtime/dispatch.c).  Eight threads are
   released together by a barrier into a library nobody has called yet,
   so their first calls race on filling the table; each then runs every
   kernel over its own data (lengths 0 to 4099, with tails for every
   vector width, and a shared read-only weight), twice.  Afterwards the
   main thread computes the same calls alone: every thread's results
   must be the single-threaded ones bit for bit, and the library must run
   the instruction set the test was built for.  Then the eight threads,
   released together again, each normalize a batch of rows big enough to
   be split over the library's thread pool (runtime/rows.c, three
   threads asked for): one call at a time gets the pool, the others
   run alone, and every result must be the one-thread result.

   The same file is the ThreadSanitizer test of runtime/Makefile.am
   (thread-test-tsan), where any race the bit comparison cannot see
   (a torn table entry that happens to work) is reported.  */
/* { dg-do run } */
/* { dg-options "-pthread" } */

#include "nf-check.h"
#include "isa.h"
#include <neuronfuse.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define ROUNDS 2
#define ROWS 9
static const size_t lens[] = { 0, 1, 3, 7, 8, 15, 16, 17, 33, 64, 100, 4099 };
#define NLENS (sizeof lens / sizeof lens[0])
#define MAXN 4099
/* The split batch: above rows.c's threshold of 2^18 elements.  */
#define BIG_ROWS 65
#define BIG_N MAXN

/* What one thread computes for one length.  */
struct out
{
  float e32[MAXN], l32[MAXN], r32[MAXN], rows32[ROWS * 64];
  double e64[MAXN], l64[MAXN], r64[MAXN];
#ifdef __FLT16_MAX__
  _Float16 r16[MAXN];
  float n16;
#endif
  float n32;
  double n64, s32, nd32;
  long double s64;
};

struct job
{
  unsigned id;
  float x32[MAXN], rx32[ROWS * 64];
  double x64[MAXN];
#ifdef __FLT16_MAX__
  _Float16 x16[MAXN];
#endif
  struct out got[NLENS];
};

static float w32[MAXN];
static double w64[MAXN];
#ifdef __FLT16_MAX__
static _Float16 w16[MAXN];
#endif
static pthread_barrier_t start;
static float big_x[BIG_ROWS * BIG_N], big_want[BIG_ROWS * BIG_N];
static float big_got[THREADS][BIG_ROWS * BIG_N];

/* A random double in [-2, 2) from the xorshift state *S.  */
static double
rnd (uint64_t *s)
{
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (double) (*s >> 11) * 0x1p-51 - 2;
}

/* Every kernel over J's inputs of length N into O.  */
static void
run_all (const struct job *j, size_t n, struct out *o)
{
  nf_expm1_f32 (o->e32, j->x32, n);
  nf_log1p_f32 (o->l32, j->x32, n);
  nf_expm1_f64 (o->e64, j->x64, n);
  nf_log1p_f64 (o->l64, j->x64, n);
  nf_rmsnorm_f32 (o->r32, j->x32, w32, n, 1e-6f);
  nf_rmsnorm_f64 (o->r64, j->x64, w64, n, 1e-12);
  nf_rmsnorm_rows_f32 (o->rows32, j->rx32, w32, ROWS, n < 64 ? n : 64, 1e-5f);
#ifdef __FLT16_MAX__
  nf_rmsnorm_f16 (o->r16, j->x16, w16, n, 1e-3f);
  o->n16 = nf_nrm2_f16 (j->x16, n);
#endif
  o->n32 = nf_nrm2_f32 (j->x32, n);
  o->n64 = nf_nrm2_f64 (j->x64, n);
  o->s32 = nf_sumsq_f32 (j->x32, n);
  o->nd32 = nf_nrm2d_f32 (j->x32, n);
  o->s64 = nf_sumsq_f64 (j->x64, n);
}

static void *
thread_main (void *arg)
{
  struct job *j = arg;
  pthread_barrier_wait (&start);
  for (int r = 0; r < ROUNDS; r++)
    for (size_t k = 0; k < NLENS; k++)
      run_all (j, lens[k], &j->got[k]);
  pthread_barrier_wait (&start);
  for (int r = 0; r < ROUNDS; r++)
    nf_rmsnorm_rows_f32 (big_got[j->id], big_x, w32, BIG_ROWS, BIG_N, 1e-5f);
  return NULL;
}

int
main (void)
{
  static struct job jobs[THREADS];
  static struct out want;
  pthread_t tid[THREADS];
  uint64_t s = 0x9e3779b97f4a7c15u;

  for (size_t i = 0; i < MAXN; i++)
    {
      w32[i] = (float) (1 + rnd (&s) / 4);
      w64[i] = 1 + rnd (&s) / 4;
#ifdef __FLT16_MAX__
      w16[i] = (_Float16) w32[i];
#endif
    }
  for (unsigned t = 0; t < THREADS; t++)
    {
      struct job *j = &jobs[t];
      j->id = t;
      for (size_t i = 0; i < MAXN; i++)
	{
	  j->x32[i] = (float) rnd (&s);
	  j->x64[i] = rnd (&s);
#ifdef __FLT16_MAX__
	  j->x16[i] = (_Float16) j->x32[i];
#endif
	}
      for (size_t i = 0; i < ROWS * 64; i++)
	j->rx32[i] = (float) rnd (&s);
    }
  for (size_t i = 0; i < BIG_ROWS * BIG_N; i++)
    big_x[i] = (float) rnd (&s);

  /* No kernel has been called yet: the threads' first calls fill the
     table.  (Setting the thread count calls none.)  */
  nf_set_num_threads (3);
  CHECK (pthread_barrier_init (&start, NULL, THREADS) == 0);
  for (unsigned t = 0; t < THREADS; t++)
    CHECK (pthread_create (&tid[t], NULL, thread_main, &jobs[t]) == 0);
  for (unsigned t = 0; t < THREADS; t++)
    CHECK (pthread_join (tid[t], NULL) == 0);
  pthread_barrier_destroy (&start);

  for (unsigned t = 0; t < THREADS; t++)
    for (size_t k = 0; k < NLENS; k++)
      {
	size_t n = lens[k];
	const struct out *g = &jobs[t].got[k];
	memset (&want, 0, sizeof want);
	run_all (&jobs[t], n, &want);
	CHECK (memcmp (g->e32, want.e32, n * sizeof (float)) == 0);
	CHECK (memcmp (g->l32, want.l32, n * sizeof (float)) == 0);
	CHECK (memcmp (g->e64, want.e64, n * sizeof (double)) == 0);
	CHECK (memcmp (g->l64, want.l64, n * sizeof (double)) == 0);
	CHECK (memcmp (g->r32, want.r32, n * sizeof (float)) == 0);
	CHECK (memcmp (g->r64, want.r64, n * sizeof (double)) == 0);
	CHECK (memcmp (g->rows32, want.rows32,
		       ROWS * (n < 64 ? n : 64) * sizeof (float))
	       == 0);
#ifdef __FLT16_MAX__
	CHECK (memcmp (g->r16, want.r16, n * sizeof (_Float16)) == 0);
	CHECK (memcmp (&g->n16, &want.n16, sizeof want.n16) == 0);
#endif
	CHECK (memcmp (&g->n32, &want.n32, sizeof want.n32) == 0);
	CHECK (memcmp (&g->n64, &want.n64, sizeof want.n64) == 0);
	CHECK (memcmp (&g->s32, &want.s32, sizeof want.s32) == 0);
	CHECK (memcmp (&g->nd32, &want.nd32, sizeof want.nd32) == 0);
	/* (Only the value bytes of a long double: x87's has padding.)  */
	CHECK (g->s64 == want.s64);
      }

  /* The split batch: the pool's result, and every thread's, are the
     one-thread one.  */
  nf_rmsnorm_rows_f32 (big_want, big_x, w32, BIG_ROWS, BIG_N, 1e-5f);
  for (unsigned t = 0; t < THREADS; t++)
    CHECK (memcmp (big_got[t], big_want, sizeof big_want) == 0);
  nf_set_num_threads (1);
  memset (big_want, 0, sizeof big_want);
  nf_rmsnorm_rows_f32 (big_want, big_x, w32, BIG_ROWS, BIG_N, 1e-5f);
  for (unsigned t = 0; t < THREADS; t++)
    CHECK (memcmp (big_got[t], big_want, sizeof big_want) == 0);
  nf_check_isa ();
  NF_DONE ();
}
