/* Prints the instruction set libneuronfuse picks on this machine, for
   neuronfuse.runtime/runtime.exp (which runs every runtime test once per
   instruction set up to that one).  */
#include <neuronfuse.h>
#include <stdio.h>

int
main (void)
{
  printf ("isa=%s\n", nf_runtime_isa ());
  return 0;
}
