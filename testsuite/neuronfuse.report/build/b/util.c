/* Unit obj/b/util.c (the same base name as a/util.c): the header's copy
   and a near miss.  */
#include "../common.h"

float
b_act (float x)
{
  return act_m1 (x) + 1.0f;
}

float
b_scaled (const float *x, float c, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++)
    {
      float d = x[i] * c;
      s += d * d;
    }
  return sqrtf (s);
}
