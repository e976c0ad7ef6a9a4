/* ew-run-avx2.c: nf_elementwise's block interpreter for AVX2 (see
   ../ew-run-tmpl.h), built with the AVX2 library's -m flags: the step
   loops become 256-bit code (8 floats, 4 doubles per instruction).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "../kernels.h"

#define NF_EW_RUN nf_ew_run_avx2
#include "../ew-run-tmpl.h"
