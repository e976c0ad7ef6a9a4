/* rmsnorm-avx2.c: the RMSNorm rows of libneuronfuse for AVX2 (see
   rmsnorm-tmpl.h; the vocabulary is vec-avx2.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx2.h"
#include "rmsnorm-tmpl.h"
