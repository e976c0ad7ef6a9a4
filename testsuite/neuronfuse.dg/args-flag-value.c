/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-disable=1 is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-disable=1" } */
/* { dg-error "invalid option argument '-fplugin-arg-neuronfuse-disable=1'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int nf_unused;
