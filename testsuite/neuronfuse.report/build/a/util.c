/* Unit obj/a/util.c: the header's copy and an L2 norm.  */
#include "../common.h"

float
a_act (float x)
{
  return act_m1 (x) * 2.0f;
}

float
a_norm (const float *x, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}
