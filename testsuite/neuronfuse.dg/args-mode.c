/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-mode=fast is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-mode=fast" } */
/* { dg-error "invalid option argument '-fplugin-arg-neuronfuse-mode=fast'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
/* { dg-note "valid modes are" "" { target *-*-* } 0 } */
int nf_unused;
