/* Area: nf-loop, MulRedSqrt, report names (issue 20).
   Purpose: an L2 norm that no variable holds, stored into a member
   (a->norm = sqrt (s)), is named in the report after where it is
   stored, a->norm, never by GCC's SSA name ("_19").  */
/* { dg-do run } */
#include "nf-loop.h"

struct acc
{
  double sum, norm;
};

__attribute__ ((noipa)) void
g (struct acc *a, const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  a->norm = sqrt (s);
}

static double x[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (double, x, NF_LOOP_MAX, 1, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      struct acc a = { -1, -1 };
      int fused = NF_FUSED (g (&a, x, n));
      CHECK (a.sum == -1);
      nf_loop_check_nrm2_f64 (a.norm, x, n, fused);
    }
  NF_DONE ();
}

/* { dg-final { nf-report-region MulRedSqrt g 17 outlined } } */
/* { dg-final { nf-report-scan {"live_outs": \[\s*"a->norm"\s*\]} 1 } } */
