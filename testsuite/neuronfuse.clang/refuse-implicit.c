/* Area: neuronfuse-clang, refusing a rewrite.
   Purpose: the file declares exp itself, without <math.h>: expm1, which
   the rewrite of exp (x) - 1 calls, would be declared implicitly, so
   the tool refuses with an error and writes nothing.  */
/* { nf-refuse 12 "the call of 'expm1' the rewrite adds here would be declared implicitly: no declaration of it is in scope" } */

double exp (double);

double
f (double x)
{
  return exp (x) - 1.0;
}
