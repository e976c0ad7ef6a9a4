/* Area: neuronfuse-clang, where the runtime's include goes.
   Purpose: _GNU_SOURCE is defined first, as it must be before any
   system header: the include of neuronfuse.h goes after the file's
   includes, not at the top, and exp10 (a GNU function of <math.h>)
   stays declared.  */
/* { nf-include-after "#include <stdlib.h>" } */
#define _GNU_SOURCE
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
  if (l2 (x, 3) != 13.0f || exp10 (2.0) != 100.0)
    abort ();
  return 0;
}
