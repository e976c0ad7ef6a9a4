/* sumsq-avx2.c: the sums of squares of libneuronfuse for AVX2 (see
   sumsq-tmpl.h; the vocabulary is vec-avx2.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx2.h"
#include "sumsq-tmpl.h"
