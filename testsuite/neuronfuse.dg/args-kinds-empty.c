/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-kinds= is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-kinds=" } */
/* { dg-error "no value supplied for option '-fplugin-arg-neuronfuse-kinds'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int nf_unused;
