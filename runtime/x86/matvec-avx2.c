/* matvec-avx2.c: the matrix-vector kernels of libneuronfuse for
   AVX2 (see matvec-tmpl.h; the vocabulary is vec-avx2.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx2.h"
#include "matvec-tmpl.h"
