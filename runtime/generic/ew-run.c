/* ew-run.c: nf_elementwise's portable block interpreter (see
   ../ew-run-tmpl.h): the variant of CPUs without AVX2 and the reference
   of the others.  On x86-64 the step loops become SSE2 code (4 floats, 2
   doubles per instruction).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#define NF_EW_RUN nf_ew_run_generic
#include "../ew-run-tmpl.h"
