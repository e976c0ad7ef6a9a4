/* Area: runtime, nf_expm1f / nf_log1pf vector clones at -O3 -mavx.
   Purpose: GCC vectorizes a loop over them through _ZGVcN8v_ (AVX,
   which no -march=native build of an AVX2 machine calls), whose results
   are the scalar functions' bits (simd-check.h).  */
/* { dg-do run } */
/* { dg-options "-O3 -mavx -Wl,--wrap=_ZGVbN4v_nf_expf,--wrap=_ZGVcN8v_nf_expf,--wrap=_ZGVdN8v_nf_expf,--wrap=_ZGVeN16v_nf_expf,--wrap=_ZGVbN4v_nf_expm1f,--wrap=_ZGVcN8v_nf_expm1f,--wrap=_ZGVdN8v_nf_expm1f,--wrap=_ZGVeN16v_nf_expm1f,--wrap=_ZGVbN4v_nf_log1pf,--wrap=_ZGVcN8v_nf_log1pf,--wrap=_ZGVdN8v_nf_log1pf,--wrap=_ZGVeN16v_nf_log1pf" } */
#include "simd-check.h"
