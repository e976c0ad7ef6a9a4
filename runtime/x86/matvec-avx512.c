/* matvec-avx512.c: the matrix-vector kernels of libneuronfuse for
   AVX-512 (see matvec-tmpl.h; the vocabulary is vec-avx512.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx512.h"
#include "matvec-tmpl.h"
