/* avx-state.c: does any libneuronfuse kernel return with the AVX upper
   state dirty?  A kernel that returns without vzeroupper leaves the upper
   halves of ymm/zmm0-15 in use, and every later legacy-SSE instruction of
   the caller (all of -O2 / -Ofast code without -march) then pays for it
   on Intel cores (issue 16 item 4's first suspect).  XGETBV with ECX = 1
   reads XINUSE: bit 2 is YMM_Hi128 (upper halves of ymm0-15), bit 6
   ZMM_Hi256 (upper halves of zmm0-15); both must be 0 after every call.
   (Bits 5 and 7, opmask and zmm16-31, are set by glibc's EVEX string
   functions before main already and cost nothing: vzeroupper does not
   touch them either.)

   Build and run from the build tree (NEURONFUSE_ISA=avx2 for the other
   kernels):
     gcc -O2 -Iruntime bench/llama2/avx-state.c -Lruntime/.libs \
       -Wl,-rpath,runtime/.libs -lneuronfuse -o avx-state && ./avx-state

   Exits 1 if a call left the state dirty.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "neuronfuse.h"

#include <cpuid.h>
#include <stdio.h>

static unsigned long long
xinuse (void)
{
  unsigned int lo, hi;
  __asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return ((unsigned long long) hi << 32) | lo;
}

static float x[4096], y[4096], w[4096];
static double xd[4096], yd[4096], wd[4096];
static int dirty;

#define T(call)                                                                \
  do                                                                           \
    {                                                                          \
      call;                                                                    \
      unsigned long long u = xinuse ();                                        \
      if (u & (4 | 64))                                                        \
	{                                                                      \
	  printf ("n = %4d: %-44s XINUSE %#llx: upper state dirty\n", n,       \
		  #call, u);                                                   \
	  dirty = 1;                                                           \
	}                                                                      \
    }                                                                          \
  while (0)

int
main (void)
{
  unsigned a, b, c, d;
  __cpuid_count (0xd, 1, a, b, c, d);
  if (!(a & 4))
    {
      printf ("XGETBV with ECX = 1 not supported: nothing checked\n");
      return 0;
    }
  for (int i = 0; i < 4096; i++)
    {
      x[i] = i * 1e-3f;
      w[i] = 1;
      xd[i] = x[i];
      wd[i] = 1;
    }
  for (int n = 0; n <= 4096; n = n ? n * 2 + 1 : 1)
    {
      T (nf_rmsnorm_f32 (y, x, w, n, 1e-5f));
      T (nf_rmsnorm_f32 (x, x, w, n, 1e-5f));
      T (nf_rmsnorm_f64 (yd, xd, wd, n, 1e-5));
      T (nf_rmsnorm_rows_f32 (y, x, w, 1, n, 1e-5f));
      T (nf_expm1_f32 (y, x, n));
      T (nf_log1p_f32 (y, x, n));
      T (nf_expm1_f64 (yd, xd, n));
      T (nf_log1p_f64 (yd, xd, n));
      T ((void) nf_nrm2_f32 (x, n));
      T ((void) nf_nrm2_f64 (xd, n));
    }
  printf ("library %s: %s\n", nf_runtime_isa (),
	  dirty ? "a kernel returned with the upper state dirty"
		: "every kernel returned with the upper state clean");
  return dirty;
}
