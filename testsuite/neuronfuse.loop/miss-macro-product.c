/* Area: nf-loop, MulRedSqrt, sums written with macros.
   Purpose: opus's MAC16_16 (c, a, b) writes a sum of products; a product
   of two different values (a dot product, a weighted band sum) is no
   near miss of an L2 norm, however the macro spells it: no region, no
   missed entry.  (neuronfuse-clang took the two factors, both inside
   the macro's expansion and so of no text of their own, for the same
   one: 27 false missed entries on libopus.)  */
/* { dg-do compile } */
#include <math.h>

#define MAC16_16(c, a, b) ((c) + (float) (a) * (float) (b))

float
band_energy (const float *x, const short *e, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++)
    s = MAC16_16 (s, x[i], e[i + 1] - e[i]);
  return sqrtf (s);
}

float
dot_norm (const float *x, const float *y, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++)
    s = MAC16_16 (s, x[i], y[i]);
  return sqrtf (s);
}

/* { dg-final { nf-report-regions MulRedSqrt 0 } } */
/* { dg-final { nf-report-missed-count 0 } } */
