/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-foo is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-foo" } */
/* { dg-error "unknown option '-fplugin-arg-neuronfuse-foo'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int nf_unused;
