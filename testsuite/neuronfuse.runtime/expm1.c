/* Area: runtime, nf_expm1_f32 / nf_expm1_f64 and their _pz forms.
   Purpose: accuracy against MPFR, special values, n = 0, in place (see
   kernel-check.h).  */
/* { dg-do run } */
#define NF_NAME "nf_expm1"
#define NF_F32 nf_expm1_f32
#define NF_F64 nf_expm1_f64
#define NF_F32_PZ nf_expm1_pz_f32
#define NF_F64_PZ nf_expm1_pz_f64
#define NF_MPFR mpfr_expm1
#define NF_LIBM expm1
#define NF_DOMAIN(x) (x) /* |x| < 512 from the generator: no overflow.  */
#include "kernel-check.h"
