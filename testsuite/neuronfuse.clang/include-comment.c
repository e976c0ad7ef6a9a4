/* Area: neuronfuse-clang, where the runtime's include goes.
   Purpose: directives inside a comment are not directives, and a
   directive ends where its line does not continue (a comment spanning
   lines, a backslash): the include of neuronfuse.h goes after the real
   last #include, outside the comments.  Usage shown to readers:
#include <stdio.h>
#if 0
*/
/* { nf-include-after "and a continued line comment" } */
// #include <string.h>
#include <math.h> /* the square root; this comment spans
		     two lines of the directive */
#include <stdlib.h> // abort, \
			and a continued line comment
#define NF_SQUARE(x) \
  ((x) * (x))

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
  if (l2 (x, 3) != 13.0f || NF_SQUARE (3) != 9)
    abort ();
  return 0;
}
