/* Area: plugin arguments.
   Purpose: a dump-hlo directory that does not exist is refused with
   GCC's wording and the reason, instead of failing later per region.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-neuronfuse-dump-hlo=/nonexistent-dir" } */
/* { dg-error "invalid option argument '-fplugin-arg-neuronfuse-dump-hlo=/nonexistent-dir': No such file or directory" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int nf_unused;
