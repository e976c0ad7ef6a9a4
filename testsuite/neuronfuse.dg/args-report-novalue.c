/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-report is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-report" } */
/* { dg-error "no value supplied for option '-fplugin-arg-neuronfuse-report'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int nf_unused;
