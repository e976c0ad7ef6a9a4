/* Area: neuronfuse-clang, where the runtime's include goes.
   Purpose: #ifdef __cplusplus conditionals (headers of each language,
   extern "C" around the code): the first code is inside one, so the
   include of neuronfuse.h goes before it, after <math.h>; the result
   builds as C and as C++.  */
/* { nf-include-after "#include <math.h>" } */
/* { nf-paths "" "-x c++" } */
#include <math.h>
#ifdef __cplusplus
#include <cstdlib>
extern "C" {
#else
#include <stdlib.h>
#endif

float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}

#ifdef __cplusplus
}
#endif

int
main (void)
{
  static const float x[] = { 3, 4, 12 };
  if (l2 (x, 3) != 13.0f)
    abort ();
  return 0;
}
