/* Area: plugin arguments, dump-hlo=DIR.
   Purpose: every rewritten region is dumped as MHLO, StableHLO and
   Penguin text, every .mlir parses with mlir-opt, and a long double
   region (no HLO element type) gets its Penguin text only.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-neuronfuse-dump-hlo=@DUMPS@" } */
#include "nf-test.h"

__attribute__ ((noipa)) double
f (double x)
{
  return exp (x) - 1.0; /* { dg-optimized "Expm1: replaced" } */
}

__attribute__ ((noipa)) float
g (float x)
{
  return logf (1 + x); /* { dg-optimized "Log1p: replaced" } */
}

__attribute__ ((noipa)) long double
h (long double x)
{
  return expl (x) - 1; /* { dg-optimized "Expm1: replaced" } */
}

int
main (void)
{
  if (NF_PLUGIN)
    {
      CHECK (NF_ULPS_D (f (1e-10), expm1l (1e-10)) <= 1);
      CHECK (NF_ULPS_F (g (1e-7f), log1pl (1e-7f)) <= 1.3);
      CHECK (NF_ULPS_LD (h (1e-15L), expm1l (1e-15L)) <= 3);
    }
  NF_DONE ();
}

/* { dg-final { nf-dumps 7 } } */
/* { dg-final { nf-dumps 4 Expm1 } } */
/* { dg-final { nf-dumps 3 Log1p } } */
