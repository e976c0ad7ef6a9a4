/* Area: neuronfuse-clang, refusing a rewrite.
   Purpose: the file defines NEURONFUSE_H, the runtime header's guard,
   before its includes, so the include the rewrite adds declares
   nothing: neither the kernel nor the size_t of its count.  The reparse
   of the output cannot build the call and has an error there, which the
   tool reports, and it writes nothing.  */
/* { nf-refuse 20 "the rewritten source does not compile: call to undeclared function 'nf_nrm2_f32'" } */

/* This project's own header once had that guard.  */
#define NEURONFUSE_H 1

#include <math.h>

float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}
