/* sumsq-avx512.c: the sums of squares of libneuronfuse for AVX-512 (see
   sumsq-tmpl.h; the vocabulary is vec-avx512.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx512.h"
#include "sumsq-tmpl.h"
