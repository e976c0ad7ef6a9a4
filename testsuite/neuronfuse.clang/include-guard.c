/* Area: neuronfuse-clang, where the runtime's include goes.
   Purpose: an include guard wraps the whole of a header-like .c: the
   include of neuronfuse.h goes inside it, after the file's own
   includes (whenever the guard skips it, it skips the code too), and
   the guard stays the file's first and last directive.  */
/* { nf-include-after "#include <stdlib.h>" } */
#ifndef NF_INCLUDE_GUARD_C
#define NF_INCLUDE_GUARD_C

#include <math.h>
#include <stdlib.h>

float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}

int
main (void)
{
  static const float x[] = { 3, 4, 12 };
  if (l2 (x, 3) != 13.0f)
    abort ();
  return 0;
}

#endif /* NF_INCLUDE_GUARD_C */
