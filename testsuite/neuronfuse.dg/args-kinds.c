/* Area: plugin arguments.
   Purpose: -fplugin-arg-neuronfuse-kinds=Expm1,Sqrt is refused with GCC's own wording, and the
   plugin fails to initialise instead of crashing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-kinds=Expm1,Sqrt" } */
/* { dg-error "invalid option argument '-fplugin-arg-neuronfuse-kinds=Expm1,Sqrt'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
/* { dg-note "valid kinds are" "" { target *-*-* } 0 } */
int nf_unused;
