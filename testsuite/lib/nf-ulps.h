/* nf-ulps.h: nf_ulps, the distance in ulps the tests measure errors
   in; included by nf-test.h and by exhaustive/sweep.c (which is built
   outside the testsuite's NF_PLUGIN scheme, so cannot take nf-test.h).  */

#ifndef NF_ULPS_H_INCLUDED
#define NF_ULPS_H_INCLUDED

#include <math.h>

/* Distance of GOT from the exact REF in ulps of a binary format with MANT
   significand bits whose normal exponents start at EMIN (frexp's
   convention); subnormal results count in the smallest ulp.  NaN against
   NaN and equal infinities are 0; anything else against a NaN or an
   infinity is infinite.  */
static long double
nf_ulps (long double got, long double ref, int mant, int emin)
{
  int e;

  if (isnan (got) || isnan (ref))
    return isnan (got) && isnan (ref) ? 0 : INFINITY;
  if (got == ref)
    return 0;
  if (isinf (got) || isinf (ref))
    return INFINITY;
  frexpl (ref, &e);
  if (ref == 0 || e < emin)
    e = emin;
  return fabsl (got - ref) / ldexpl (1.0L, e - mant);
}

#define NF_ULPS_F(got, ref) nf_ulps ((got), (ref), 24, -125)
#define NF_ULPS_D(got, ref) nf_ulps ((got), (ref), 53, -1021)
#define NF_ULPS_LD(got, ref) nf_ulps ((got), (ref), 64, -16381)
#define NF_ULPS_H(got, ref) nf_ulps ((got), (ref), 11, -13) /* _Float16 */

#endif /* NF_ULPS_H_INCLUDED */
