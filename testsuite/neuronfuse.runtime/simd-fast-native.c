/* Area: runtime, nf_expm1f_fast / nf_log1pf_fast vector clones at -O3
   -ffast-math -march=native.
   Purpose: GCC vectorizes a loop over them through this CPU's widest
   clones, whose lanes are the fast kernels' (simd-fast-check.h).  */
/* { dg-do run } */
/* { dg-options "-O3 -ffast-math -march=native -Wl,--wrap=_ZGVbN4v_nf_expm1f_fast,--wrap=_ZGVcN8v_nf_expm1f_fast,--wrap=_ZGVdN8v_nf_expm1f_fast,--wrap=_ZGVeN16v_nf_expm1f_fast,--wrap=_ZGVbN4v_nf_log1pf_fast,--wrap=_ZGVcN8v_nf_log1pf_fast,--wrap=_ZGVdN8v_nf_log1pf_fast,--wrap=_ZGVeN16v_nf_log1pf_fast" } */
#include "simd-fast-check.h"
