/* Area: nf-loop, MulRedSqrt, float and double.
   Purpose: an L2 norm stored through a pointer, into an array element or
   a member (*out = sqrtf (s)), not returned, is outlined as one returned
   is: the store stays, of the kernel's value.  A store that is no value
   of the region before the root (*out = 1) is memory the call would
   skip past (where sqrtf sets errno: at -O2 and up GCC moves the store after
   the root otherwise); a root of s + 1 is no norm, and the store its reason.  */
/* { dg-do run } */
#include "nf-loop.h"

__attribute__ ((noipa)) void
l2_out (float *out, const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  *out = sqrtf (s);
}

__attribute__ ((noipa)) void
l2_twice (double *out, const double *x, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) s = s + x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f64" } */
  out[1] = 2.0 * sqrt (s);
}

struct stats { float mean, norm; };

__attribute__ ((noipa)) void
l2_member (struct stats *st, const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" } */
  st->norm = sqrtf (s);
}

__attribute__ ((noipa)) void
l2_flag (float *out, const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-missed "MulRedSqrt: not rewritten: the region stores to memory outside the idiom" "" { flags {^(?!-O([23].*(fast-math|no-math-errno)|fast))} } } */
  /* { dg-optimized "MulRedSqrt: loop outlined into a call to nf_nrm2_f32" "" { flags {^-O([23].*(fast-math|no-math-errno)|fast)} } 41 } */
  out[0] = 1.0f;
  out[1] = sqrtf (s);
}

__attribute__ ((noipa)) void
l2_plus_one (float *out, const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i]; /* { dg-missed "MulRedSqrt: not rewritten: a value of the region is stored outside its loops" } */
  *out = sqrtf (s + 1.0f);
}

static float x[NF_LOOP_MAX];
static double xd[NF_LOOP_MAX];

/* The checks in main compute references with loops of their own: not
   optimized, so the plugin leaves them alone.  */
#pragma GCC optimize ("O0")

int
main (void)
{
  NF_LOOP_FILL (float, x, NF_LOOP_MAX, 1, 0);
  NF_LOOP_FILL (double, xd, NF_LOOP_MAX, 2, 0);
  for (size_t k = 0; k < NF_N (nf_loop_ns); k++)
    {
      size_t n = nf_loop_ns[k];
      float got = -1;
      int fused = NF_FUSED (l2_out (&got, x, n));
      nf_loop_check_nrm2_f32 (got, x, n, fused);
      double gd[3] = { -1, -1, -1 };
      fused = NF_FUSED (l2_twice (gd, xd, n));
      CHECK (gd[0] == -1 && gd[2] == -1);
      nf_loop_check_nrm2_f64 (gd[1] / 2, xd, n, fused);
      struct stats st = { -1, -1 };
      fused = NF_FUSED (l2_member (&st, x, n));
      CHECK (st.mean == -1);
      nf_loop_check_nrm2_f32 (st.norm, x, n, fused);
      float o[2] = { -1, -1 };
      fused = NF_FUSED (l2_flag (o, x, n));
      CHECK (o[0] == 1.0f);
      nf_loop_check_nrm2_f32 (o[1], x, n, fused);
      long double s = 1;
      for (size_t i = 0; i < n; i++)
	s += (long double) x[i] * x[i];
      CHECK (!NF_FUSED (l2_plus_one (&got, x, n)));
      nf_loop_near ("l2_plus_one", n, got, sqrtl (s), 1e-5L, sqrtl (s));
    }
  NF_DONE ();
}

/* { dg-final { nf-if-flags {^(?!-O([23].*(fast-math|no-math-errno)|fast))} { nf-report-regions MulRedSqrt 3 } } } */
/* { dg-final { nf-if-flags {^(?!-O([23].*(fast-math|no-math-errno)|fast))} { nf-report-missed-count 2 } } } */
/* { dg-final { nf-if-flags {^-O([23].*(fast-math|no-math-errno)|fast)} { nf-report-regions MulRedSqrt 4 } } } */
/* { dg-final { nf-report-region MulRedSqrt l2_out 15 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_twice 23 outlined } } */
/* { dg-final { nf-report-region MulRedSqrt l2_member 33 outlined } } */
/* { dg-final { nf-report-missed MulRedSqrt "stored outside its loops" } } */
/* { dg-final { nf-report-regions RMSNorm 0 } } */
