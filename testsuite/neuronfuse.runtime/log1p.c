/* Area: runtime, nf_log1p_f32 / nf_log1p_f64 and their _pz forms.
   Purpose: accuracy against MPFR, special values, n = 0, in place (see
   kernel-check.h).  */
/* { dg-do run } */
#define NF_NAME "nf_log1p"
#define NF_F32 nf_log1p_f32
#define NF_F64 nf_log1p_f64
#define NF_F32_PZ nf_log1p_pz_f32
#define NF_F64_PZ nf_log1p_pz_f64
#define NF_MPFR mpfr_log1p
#define NF_LIBM log1p
#define NF_DOMAIN(x) ((x) <= -1.0 ? -(x) : (x)) /* log1p's domain.  */
#include "kernel-check.h"
