/* Area: neuronfuse-clang, refusing a rewrite.
   Purpose: the file defines a macro of the kernel's name: the call the
   rewrite adds would not call the kernel, so the tool refuses with an
   error at the region and writes nothing.  */
/* { nf-refuse 19 "the call of 'nf_nrm2_f32' the rewrite adds here would not call it: 'nf_nrm2_f32' is a macro here, defined at" } */
#include <math.h>
#include <stddef.h>

/* Debugging: the kernels' names go to local versions.  */
#define nf_nrm2_f32 local_nrm2
float local_nrm2 (const float *x, size_t n);

float
l2 (const float *x, int n)
{
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrtf (s);
}
