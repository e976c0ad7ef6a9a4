/* clones.c: loops that call one vector-ABI clone per vector, for
   bench/kernels.c's rows of the library's clones against libmvec's (the
   clones GCC calls for expf and logf under -ffast-math) at each width.

   Each loop loads a vector of X, calls the clone, stores Y: what a loop
   GCC vectorized through the clone does, without the loop's own
   arithmetic.  The clones are called by their mangled names
   (_ZGV<isa>N<lanes>v_<f>: b SSE2 4 lanes, c AVX 8, d AVX2 8, e AVX-512F
   16), each loop built for its ABI level with a target attribute, so
   that this file needs no -m flags and runs on any x86-64 up to the
   widths the CPU has (bench/kernels.c checks which).  clones_<isa>_ident
   calls a clone of this file that returns its argument: the cost of the
   call itself, the floor under every other row of the width.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "clones.h"

#if defined __x86_64__

#include <immintrin.h>

#define TGT_b
#define TGT_c __attribute__ ((target ("avx")))
#define TGT_d __attribute__ ((target ("avx2,fma")))
#define TGT_e __attribute__ ((target ("avx512f")))
#define VT_b __m128
#define VT_c __m256
#define VT_d __m256
#define VT_e __m512
#define W_b 4
#define W_c 8
#define W_d 8
#define W_e 16
#define LD_b _mm_loadu_ps
#define LD_c _mm256_loadu_ps
#define LD_d _mm256_loadu_ps
#define LD_e _mm512_loadu_ps
#define ST_b _mm_storeu_ps
#define ST_c _mm256_storeu_ps
#define ST_d _mm256_storeu_ps
#define ST_e _mm512_storeu_ps
#define MANGLE_b(f) _ZGVbN4v_##f
#define MANGLE_c(f) _ZGVcN8v_##f
#define MANGLE_d(f) _ZGVdN8v_##f
#define MANGLE_e(f) _ZGVeN16v_##f

/* The identity clones: noipa, so that each call stays a call.  */
#define IDENT(isa)                                                             \
  __attribute__ ((noipa)) TGT_##isa VT_##isa MANGLE_##isa (bench_ident) (      \
    VT_##isa x)                                                                \
  {                                                                            \
    return x;                                                                  \
  }
IDENT (b)
IDENT (c)
IDENT (d)
IDENT (e)

#define LOOP(isa, f)                                                           \
  TGT_##isa VT_##isa MANGLE_##isa (f) (VT_##isa);                              \
  TGT_##isa void clones_##isa##_##f (float *y, const float *x, int n)          \
  {                                                                            \
    for (int i = 0; i + W_##isa <= n; i += W_##isa)                            \
      ST_##isa (y + i, MANGLE_##isa (f) (LD_##isa (x + i)));                   \
  }
#define LOOPS(isa)                                                             \
  LOOP (isa, nf_expf)                                                          \
  LOOP (isa, nf_expm1f)                                                        \
  LOOP (isa, nf_expm1f_fast)                                                   \
  LOOP (isa, nf_log1pf)                                                        \
  LOOP (isa, nf_log1pf_fast)                                                   \
  LOOP (isa, expf)                                                             \
  LOOP (isa, logf)                                                             \
  LOOP (isa, bench_ident)
LOOPS (b)
LOOPS (c)
LOOPS (d)
LOOPS (e)

#endif
