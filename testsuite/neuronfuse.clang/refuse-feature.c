/* Area: neuronfuse-clang, refusing a rewrite.
   Purpose: _GNU_SOURCE is defined inside the conditional that holds the
   first code: no place outside every conditional and before the code
   comes after it, so the include of neuronfuse.h has no safe place and
   the tool refuses with an error at the macro and writes nothing.  */
/* { nf-refuse 9 "no safe place for '#include <neuronfuse.h>': it must follow the feature-test macro '_GNU_SOURCE' defined here, and precede the first line of code (line 11) outside every conditional" } */
#include <stddef.h>
#ifdef __linux__
#define _GNU_SOURCE
#include <math.h>
static const int nf_linux = 1;
#else
#include <math.h>
static const int nf_linux = 0;
#endif

float
l2 (const float *x, size_t n)
{
  float s = 0.0f;
  for (size_t i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s) + nf_linux;
}
