/* simd-fast.c: the vector-ABI clones of the fast-math functions
   nf_expm1f_fast and nf_log1pf_fast (neuronfuse.h), which the plugin
   calls under -funsafe-math-optimizations and GCC's vectorizer calls in
   the loops around them:

     _ZGVbN4v_F   SSE2     __m128 in xmm0, out xmm0
     _ZGVcN8v_F   AVX      __m256 in ymm0, out ymm0
     _ZGVdN8v_F   AVX2     __m256
     _ZGVeN16v_F  AVX-512F __m512 in zmm0, out zmm0

   Each clone runs the fast array kernel's float core of the instruction
   set the library dispatched to (nf_runtime_isa: the CPU's best, capped
   by NEURONFUSE_ISA), so its lanes get nf_expm1_fast_f32's bits on that
   set: within 1 ulp.  The b and c clones on an AVX2 machine run the AVX2
   core (on 4 lanes for b, upper half zero), the e clone on an AVX2-only
   set two AVX2 halves, and generic runs the scalar function per lane
   (nf_expm1f_fast, 0.5 ulp).  A direct branch on the set, cached on the
   first call: no table to go through.  errno is never set by the vector
   forms (-ffast-math implies -fno-math-errno); the scalar functions, in
   fast.c, are nf_expm1f / nf_log1pf's.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

/* neuronfuse.h: declare the scalar functions without __simd__.  */
#define NF_DEFINE_CLONES 1
#include "kernels.h"

#if defined __x86_64__ && defined NF_HAVE_X86_KERNELS

#include "simd-fast.h"

__m128 _ZGVbN4v_nf_expm1f_fast (__m128 x);
__m256 _ZGVcN8v_nf_expm1f_fast (__m256 x);
__m256 _ZGVdN8v_nf_expm1f_fast (__m256 x);
__m512 _ZGVeN16v_nf_expm1f_fast (__m512 x);
__m128 _ZGVbN4v_nf_log1pf_fast (__m128 x);
__m256 _ZGVcN8v_nf_log1pf_fast (__m256 x);
__m256 _ZGVdN8v_nf_log1pf_fast (__m256 x);
__m512 _ZGVeN16v_nf_log1pf_fast (__m512 x);

#define NF_AVX __attribute__ ((target ("avx")))
#define NF_AVX512 __attribute__ ((target ("avx512f")))

/* The instruction set the library dispatched to, cached.  */
static enum nf_isa
fast_isa (void)
{
  static int isa = -1;
  int i = __atomic_load_n (&isa, __ATOMIC_RELAXED);
  if (i < 0)
    {
      const char *s = nf_runtime_isa ();
      i = s[0] == 'g' ? NF_ISA_GENERIC : s[3] == '2' ? NF_ISA_AVX2
						      : NF_ISA_AVX512;
      __atomic_store_n (&isa, i, __ATOMIC_RELAXED);
    }
  return (enum nf_isa) i;
}

/* The clones of F (expm1f, log1pf): the cores of the set in use, or the
   scalar function on each lane.  */
#define NF_FAST_CLONES(f)                                                      \
  __m128 _ZGVbN4v_nf_##f##_fast (__m128 x)                                     \
  {                                                                            \
    if (__builtin_expect (fast_isa () != NF_ISA_GENERIC, 1))                   \
      return nf_##f##_fast_x4_avx2 (x);                                        \
    float a[4];                                                                \
    _mm_storeu_ps (a, x);                                                      \
    for (int i = 0; i < 4; i++)                                                \
      a[i] = nf_##f##_fast (a[i]);                                             \
    return _mm_loadu_ps (a);                                                   \
  }                                                                            \
  NF_AVX __m256 _ZGVcN8v_nf_##f##_fast (__m256 x)                              \
  {                                                                            \
    if (__builtin_expect (fast_isa () != NF_ISA_GENERIC, 1))                   \
      return nf_##f##_fast_x8_avx2 (x);                                        \
    float a[8];                                                                \
    _mm256_storeu_ps (a, x);                                                   \
    for (int i = 0; i < 8; i++)                                                \
      a[i] = nf_##f##_fast (a[i]);                                             \
    return _mm256_loadu_ps (a);                                                \
  }                                                                            \
  NF_AVX __m256 _ZGVdN8v_nf_##f##_fast (__m256 x)                              \
  {                                                                            \
    return _ZGVcN8v_nf_##f##_fast (x);                                         \
  }                                                                            \
  NF_AVX512 __m512 _ZGVeN16v_nf_##f##_fast (__m512 x)                          \
  {                                                                            \
    enum nf_isa isa = fast_isa ();                                             \
    if (__builtin_expect (isa == NF_ISA_AVX512, 1))                            \
      return nf_##f##_fast_x16_avx512 (x);                                     \
    __m256 lo = _mm512_castps512_ps256 (x);                                    \
    __m256 hi = _mm256_castpd_ps (                                             \
      _mm512_extractf64x4_pd (_mm512_castps_pd (x), 1));                       \
    lo = _ZGVcN8v_nf_##f##_fast (lo);                                          \
    hi = _ZGVcN8v_nf_##f##_fast (hi);                                          \
    return _mm512_castpd_ps (_mm512_insertf64x4 (                              \
      _mm512_castps_pd (_mm512_castps256_ps512 (lo)), _mm256_castps_pd (hi),  \
      1));                                                                     \
  }

NF_FAST_CLONES (expm1f)
NF_FAST_CLONES (log1pf)

#endif
