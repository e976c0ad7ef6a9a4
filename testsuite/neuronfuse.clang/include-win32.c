/* Area: neuronfuse-clang, where the runtime's include goes.
   Purpose: the last #include before the code is inside #if
   defined(_WIN32), as ggml.c's <windows.h> is: the include of
   neuronfuse.h goes after the #endif, and the rewritten file builds
   without an implicit declaration with _WIN32 and without it.  */
/* { nf-include-after "#endif" } */
/* { nf-paths "" "-D_WIN32" } */
#include <math.h>
#include <stdlib.h>
#if defined(_WIN32)
#include <malloc.h>
#endif

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
