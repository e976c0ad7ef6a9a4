/* em1.c: a scalar expf (v) - 1 in its own translation unit, which
   activations.c's em1_calls calls once per element (workloads.h).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "workloads.h"

#include <math.h>

float
PVP (em1) (float v)
{
  return expf (v) - 1;
}
