/* x86.c: which of libneuronfuse's x86 kernels this CPU can run.

   CPUID says what the processor implements; XGETBV says what the OS
   saves on a context switch.  Both must hold before an AVX register is
   touched (an OS that does not save ZMM state makes AVX-512 code fault
   or corrupt registers), as zlib-ng's arch/x86/x86_features.c checks.
   The tiers are those the kernels are built for (kernels.h):
     avx512: AVX-512 F, DQ, VL and BW, with ZMM and opmask state saved;
     avx2:   AVX2, FMA and F16C, with YMM state saved.
   Built without any -m flag: it runs before anything is known.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Return the OS's XCR0 (which register state it saves).  */
static unsigned long long
xgetbv0 (void)
{
  unsigned int lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long) hi << 32) | lo;
}

enum nf_isa
nf_cpu_isa (void)
{
  unsigned int a, b, c, d;
  if (!__get_cpuid (1, &a, &b, &c, &d))
    return NF_ISA_GENERIC;
  int osxsave = (c >> 27) & 1, fma = (c >> 12) & 1, f16c = (c >> 29) & 1;
  int avx = (c >> 28) & 1;
  if (!osxsave || !avx)
    return NF_ISA_GENERIC;
  unsigned long long xcr0 = xgetbv0 ();
  /* Bits 1, 2: SSE and AVX (YMM) state; 5, 6, 7: opmask and ZMM.  */
  int ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xe6) == 0xe6;
  if (!ymm || __get_cpuid_max (0, 0) < 7)
    return NF_ISA_GENERIC;
  __cpuid_count (7, 0, a, b, c, d);
  int avx2 = (b >> 5) & 1;
  int avx512 = ((b >> 16) & 1)	   /* F */
	       && ((b >> 17) & 1)  /* DQ */
	       && ((b >> 30) & 1)  /* BW */
	       && ((b >> 31) & 1); /* VL */
  if (avx512 && zmm && avx2 && fma && f16c)
    return NF_ISA_AVX512;
  if (avx2 && fma && f16c)
    return NF_ISA_AVX2;
  return NF_ISA_GENERIC;
}
#else
enum nf_isa
nf_cpu_isa (void)
{
  return NF_ISA_GENERIC;
}
#endif
