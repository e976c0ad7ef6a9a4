/* Area: runtime, the threads of nf_rmsnorm_rows_* (issue 16).
   Purpose: the thread count comes from nf_set_num_threads, else
   NEURONFUSE_THREADS, else OMP_NUM_THREADS (its first number), else the
   CPUs the process may use, at most 64; values that are not positive
   numbers are ignored.  Each case runs in a child forked before any
   library call, since the environment is read once.  Then a batch big
   enough to split gives the same bits on 1, 2, 3 and 7 threads and with
   more threads than rows, starts the workers asked for (counted in
   /proc/self/task), and still works in a child forked after the pool
   started (the child has no workers).  */
/* { dg-do run } */
/* { dg-options "-pthread" } */

#define _GNU_SOURCE
#include "nf-check.h"
#include "isa.h"
#include <neuronfuse.h>
#include <dirent.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Above the library's split threshold (2^18 elements), rows that do not
   divide evenly into 2, 3 or 7 chunks.  */
#define ROWS 67
#define N 4099

static float x[ROWS * N], w[N], want[ROWS * N], got[ROWS * N];

/* The count nf_get_num_threads reports in a fresh child whose
   environment has NEURONFUSE_THREADS=NF and OMP_NUM_THREADS=OMP (NULL:
   unset), after nf_set_num_threads (SET) unless SET is -1; or 255 if the
   child failed.  */
static int
count_with (const char *nf, const char *omp, int set)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      unsetenv ("NEURONFUSE_THREADS");
      unsetenv ("OMP_NUM_THREADS");
      if (nf)
	setenv ("NEURONFUSE_THREADS", nf, 1);
      if (omp)
	setenv ("OMP_NUM_THREADS", omp, 1);
      if (set >= 0)
	nf_set_num_threads (set);
      _exit (nf_get_num_threads () & 0xff);
    }
  int st;
  if (pid < 0 || waitpid (pid, &st, 0) != pid || !WIFEXITED (st))
    return 255;
  return WEXITSTATUS (st);
}

/* The threads of this process, or -1 without /proc.  */
static int
tasks (void)
{
  DIR *d = opendir ("/proc/self/task");
  if (!d)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    n += e->d_name[0] != '.';
  closedir (d);
  return n;
}

/* The rows kernel on T threads (ROWS_ rows) must give WANT's bits.  */
static void
check_on (int t, size_t rows_)
{
  memset (got, 0, sizeof got);
  nf_set_num_threads (t);
  nf_rmsnorm_rows_f32 (got, x, w, rows_, N, 1e-5f);
  CHECK (memcmp (got, want, rows_ * N * sizeof (float)) == 0);
}

int
main (void)
{
  cpu_set_t set;
  int cpus = sched_getaffinity (0, sizeof set, &set) == 0
	       ? CPU_COUNT (&set)
	       : (int) sysconf (_SC_NPROCESSORS_ONLN);
  if (cpus > 64)
    cpus = 64;

  /* The count, before this process calls the library.  */
  CHECK (count_with (NULL, NULL, -1) == cpus);
  CHECK (count_with ("3", NULL, -1) == 3);
  CHECK (count_with (NULL, "5", -1) == 5);
  CHECK (count_with (NULL, "4,2", -1) == 4);
  CHECK (count_with ("2", "7", -1) == 2);
  CHECK (count_with ("0", "6", -1) == 6);
  CHECK (count_with ("x", NULL, -1) == cpus);
  CHECK (count_with ("3x", "2", -1) == 2);
  CHECK (count_with ("-3", NULL, -1) == cpus);
  CHECK (count_with ("1000", NULL, -1) == 64);
  CHECK (count_with ("3", "2", 5) == 5);
  CHECK (count_with ("3", "2", 0) == 3);
  CHECK (count_with (NULL, NULL, 1000) == 64);

  uint64_t s = 0x2545f4914f6cdd1du;
  for (size_t i = 0; i < ROWS * N; i++)
    {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      x[i] = (float) ((double) (s >> 11) * 0x1p-51 - 2);
    }
  for (size_t i = 0; i < N; i++)
    w[i] = 1 + (float) (i % 17) / 64;

  /* One row at a time (nf_rmsnorm_f32) is the reference.  */
  for (size_t r = 0; r < ROWS; r++)
    nf_rmsnorm_f32 (want + r * N, x + r * N, w, N, 1e-5f);
  int before = tasks ();
  check_on (1, ROWS);
  CHECK (before < 0 || tasks () == before);
  check_on (2, ROWS);
  check_on (3, ROWS);
  CHECK (before < 0 || tasks () == before + 2);
  check_on (7, ROWS);
  CHECK (before < 0 || tasks () == before + 6);
  check_on (7, 4);    /* more threads than rows: 4 chunks */
  check_on (0, ROWS); /* back to the default */
  CHECK (nf_get_num_threads () > 0);

  /* A child of a process whose pool runs has no workers; it starts its
     own and gets the same bits (the alarm turns a hang into a failure).  */
  pid_t pid = fork ();
  if (pid == 0)
    {
      alarm (60);
      int b = tasks ();
      check_on (3, ROWS);
      CHECK (b < 0 || tasks () == b + 2);
      _exit (nf_failures != 0);
    }
  int st;
  CHECK (pid > 0 && waitpid (pid, &st, 0) == pid && WIFEXITED (st)
	 && WEXITSTATUS (st) == 0);
  check_on (2, ROWS);
  nf_check_isa ();
  NF_DONE ();
}
