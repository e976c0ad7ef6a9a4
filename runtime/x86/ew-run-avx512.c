/* ew-run-avx512.c: nf_elementwise's block interpreter for AVX-512 (see
   ../ew-run-tmpl.h), built with the AVX-512 library's -m flags: the step
   loops become 512-bit code (16 floats, 8 doubles per instruction; GCC's
   generic tuning would prefer 256-bit vectors for some loops, the
   pragma asks for 512: on Zen 4 the same throughput in half the
   instructions, on Intel the frequency cost is paid by the kernels
   already).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#if defined __GNUC__ && !defined __clang__
#pragma GCC target("prefer-vector-width=512")
#endif

#include "../kernels.h"

#define NF_EW_RUN nf_ew_run_avx512
#include "../ew-run-tmpl.h"
