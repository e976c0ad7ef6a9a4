/* Area: runtime, nf_expm1f / nf_log1pf vector clones at -O3
   -march=native.
   Purpose: GCC vectorizes a loop over them through the clones of this
   CPU's widest vectors (_ZGVeN16v_ and _ZGVdN8v_ on AVX-512), whose
   results are the scalar functions' bits (simd-check.h).  */
/* { dg-do run } */
/* { dg-options "-O3 -march=native -Wl,--wrap=_ZGVbN4v_nf_expf,--wrap=_ZGVcN8v_nf_expf,--wrap=_ZGVdN8v_nf_expf,--wrap=_ZGVeN16v_nf_expf,--wrap=_ZGVbN4v_nf_expm1f,--wrap=_ZGVcN8v_nf_expm1f,--wrap=_ZGVdN8v_nf_expm1f,--wrap=_ZGVeN16v_nf_expm1f,--wrap=_ZGVbN4v_nf_log1pf,--wrap=_ZGVcN8v_nf_log1pf,--wrap=_ZGVdN8v_nf_log1pf,--wrap=_ZGVeN16v_nf_log1pf" } */
#include "simd-check.h"
