/* simd-fast.c: the vector-ABI clones of the fast-math functions
   nf_expm1f_fast and nf_log1pf_fast (neuronfuse.h), which the plugin
   calls under -funsafe-math-optimizations and GCC's vectorizer calls in
   the loops around them:

     _ZGVbN4v_F   SSE2     __m128 in xmm0, out xmm0
     _ZGVcN8v_F   AVX      __m256 in ymm0, out ymm0
     _ZGVdN8v_F   AVX2     __m256
     _ZGVeN16v_F  AVX-512F __m512 in zmm0, out zmm0

   Each clone is one tail jump through the clones' table (simd.h,
   nf_simd: the entries *_fast_x4/x8/x16, filled with dispatch.c's table,
   same ISA, same NEURONFUSE_ISA cap), to the fast array kernel's float
   core of that instruction set (runtime/x86/fast-forms-*.c), so its
   lanes get nf_expm1_fast_f32's bits on that set: within 1 ulp.  On
   avx512 every width runs the AVX-512 core (the b, c and d clones with
   AVX-512VL on a ymm: vpermt2ps, vscalefps, vfixupimmps as the kernel
   has them; no lane of a b clone's zero upper half takes a slow path);
   on avx2 the AVX2 core (b on 4 lanes, upper half zero; e as two
   halves); generic runs the scalar function per lane (nf_expm1f_fast,
   0.5 ulp).  errno is never set by the vector forms (-ffast-math implies
   -fno-math-errno); the scalar functions are scalarf.c's.

   Until the first fill the entries are stubs that fill the table and
   call through (the scheme of simd.c and dispatch.c).  The clones used
   to branch on a cached ISA through a function call, which made GCC
   spill the argument around it and run vzeroupper: a store and a
   reload of the vector on the path of every call, 1.4 times libmvec's
   time for the b clone.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

/* neuronfuse.h: declare the scalar functions without __simd__.  */
#define NF_DEFINE_CLONES 1
#include "simd.h"

#if defined __x86_64__

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

/* The generic forms (the scalar function on each lane), the stubs, the
   16 lanes of an AVX2 set as two halves, and the clones, of F (expm1f,
   log1pf).  */
#define NF_FAST_FORMS(f)                                                       \
  static __m128 f##_fast_x4_generic (__m128 x)                                 \
  {                                                                            \
    float a[4];                                                                \
    _mm_storeu_ps (a, x);                                                      \
    for (int i = 0; i < 4; i++)                                                \
      a[i] = nf_##f##_fast (a[i]);                                             \
    return _mm_loadu_ps (a);                                                   \
  }                                                                            \
  static NF_AVX __m256 f##_fast_x8_generic (__m256 x)                          \
  {                                                                            \
    float a[8];                                                                \
    _mm256_storeu_ps (a, x);                                                   \
    for (int i = 0; i < 8; i++)                                                \
      a[i] = nf_##f##_fast (a[i]);                                             \
    return _mm256_loadu_ps (a);                                                \
  }                                                                            \
  static NF_AVX512 __m512 f##_fast_x16_generic (__m512 x)                      \
  {                                                                            \
    float a[16];                                                               \
    _mm512_storeu_ps (a, x);                                                   \
    for (int i = 0; i < 16; i++)                                               \
      a[i] = nf_##f##_fast (a[i]);                                             \
    return _mm512_loadu_ps (a);                                                \
  }                                                                            \
  NF_FAST_X16_AVX2 (f)                                                         \
  __m128 nf_##f##_fast_x4_stub (__m128 x)                                      \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_fast_x4) (x);                                          \
  }                                                                            \
  NF_AVX __m256 nf_##f##_fast_x8_stub (__m256 x)                               \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_fast_x8) (x);                                          \
  }                                                                            \
  NF_AVX512 __m512 nf_##f##_fast_x16_stub (__m512 x)                           \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_fast_x16) (x);                                         \
  }                                                                            \
  __m128 _ZGVbN4v_nf_##f##_fast (__m128 x)                                     \
  {                                                                            \
    return NF_SIMD (f##_fast_x4) (x);                                          \
  }                                                                            \
  NF_AVX __m256 _ZGVcN8v_nf_##f##_fast (__m256 x)                              \
  {                                                                            \
    return NF_SIMD (f##_fast_x8) (x);                                          \
  }                                                                            \
  NF_AVX __m256 _ZGVdN8v_nf_##f##_fast (__m256 x)                              \
  {                                                                            \
    return NF_SIMD (f##_fast_x8) (x);                                          \
  }                                                                            \
  NF_AVX512 __m512 _ZGVeN16v_nf_##f##_fast (__m512 x)                          \
  {                                                                            \
    return NF_SIMD (f##_fast_x16) (x);                                         \
  }

#ifdef NF_HAVE_X86_KERNELS
/* An AVX-512F CPU whose set is avx2 (no DQ/BW/VL, or capped by
   NEURONFUSE_ISA): two AVX2 halves.  */
#define NF_FAST_X16_AVX2(f)                                                    \
  static NF_AVX512 __m512 f##_fast_x16_avx2 (__m512 x)                         \
  {                                                                            \
    __m256 lo = _mm512_castps512_ps256 (x);                                    \
    __m256 hi = _mm256_castpd_ps (                                             \
      _mm512_extractf64x4_pd (_mm512_castps_pd (x), 1));                       \
    lo = nf_##f##_fast_x8_avx2 (lo);                                           \
    hi = nf_##f##_fast_x8_avx2 (hi);                                           \
    return _mm512_castpd_ps (_mm512_insertf64x4 (                              \
      _mm512_castps_pd (_mm512_castps256_ps512 (lo)), _mm256_castps_pd (hi),  \
      1));                                                                     \
  }
#else
#define NF_FAST_X16_AVX2(f)
#endif

NF_FAST_FORMS (expm1f)
NF_FAST_FORMS (log1pf)

/* Point the fast entries at the forms of ISA (simd.c's nf_simd_fill
   calls it).  */
void
nf_simd_fast_fill (enum nf_isa isa)
{
#define NF_FAST_SET(f, v4, v8, v16)                                            \
  NF_SIMD_SET (f##_fast_x4, v4);                                               \
  NF_SIMD_SET (f##_fast_x8, v8);                                               \
  NF_SIMD_SET (f##_fast_x16, v16);
#ifdef NF_HAVE_X86_KERNELS
  if (isa == NF_ISA_AVX512)
    {
      NF_FAST_SET (expm1f, nf_expm1f_x4_avx512, nf_expm1f_fast_x8_avx512,
		   nf_expm1f_fast_x16_avx512);
      NF_FAST_SET (log1pf, nf_log1pf_fast_x4_avx512, nf_log1pf_fast_x8_avx512,
		   nf_log1pf_fast_x16_avx512);
      return;
    }
  if (isa == NF_ISA_AVX2)
    {
      NF_FAST_SET (expm1f, nf_expm1f_x4_avx2, nf_expm1f_fast_x8_avx2,
		   expm1f_fast_x16_avx2);
      NF_FAST_SET (log1pf, nf_log1pf_fast_x4_avx2, nf_log1pf_fast_x8_avx2,
		   log1pf_fast_x16_avx2);
      return;
    }
#else
  (void) isa;
#endif
  NF_FAST_SET (expm1f, expm1f_fast_x4_generic, expm1f_fast_x8_generic,
	       expm1f_fast_x16_generic);
  NF_FAST_SET (log1pf, log1pf_fast_x4_generic, log1pf_fast_x8_generic,
	       log1pf_fast_x16_generic);
#undef NF_FAST_SET
}

#endif
