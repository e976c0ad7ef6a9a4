/* rmsnorm-avx512.c: the RMSNorm rows of libneuronfuse for AVX-512 (see
   rmsnorm-tmpl.h; the vocabulary is vec-avx512.h).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "vec-avx512.h"
#include "rmsnorm-tmpl.h"
