/* simd.c: the vector-ABI clones of nf_expm1f and nf_log1pf (the scalar
   functions themselves are in scalarf.c), the functions GCC's vectorizer
   calls for a loop over a function declared __simd__ ("notinbranch")
   (neuronfuse.h):

     _ZGVbN4v_F   SSE2     __m128 in xmm0, out xmm0
     _ZGVcN8v_F   AVX      __m256 in ymm0, out ymm0
     _ZGVdN8v_F   AVX2     __m256
     _ZGVeN16v_F  AVX-512F __m512 in zmm0, out zmm0

   Dispatch.  A clone runs on any CPU of its ABI level and computes with
   the best instruction set the CPU has (the b clone on an AVX-512
   machine runs the AVX-512 core on its 4 lanes, in a ymm of 4 doubles
   with AVX-512VL): each width of each function is one entry of the
   table nf_simd (simd.h), filled with dispatch.c's own (same ISA, same
   NEURONFUSE_ISA cap, stubs that fill it on the first call), and every
   clone is one tail jump through it (the fast-math functions' clones,
   simd-fast.c, too).  The
   variants (simd.h) share the cores of the array kernels of their ISA,
   so on a given ISA each clone and nf_expm1_f32 give the same bits; the
   scalar functions (scalarf.c) are computed differently, as accurately,
   and may differ from them in the last bit where a result is not
   correctly rounded.  A variant that leaves AVX state dirty runs
   vzeroupper before returning to an SSE caller (GCC inserts it for a
   function returning __m128).  Here: the generic variants (the generic
   array kernel's expression on each lane, nf_expf for expf: correct on
   any x86-64, FMA or not), the
   composition of the x16 form from two AVX2 halves (an AVX-512F CPU
   without DQ/BW/VL, whose ISA is avx2), and the clones, each built for
   its ABI level with a target attribute (this file is built without -m
   flags).

   Accuracy: 0.5 ulp + 2^-23 ulp (expm1f) and 0.5 ulp + 2^-20 ulp
   (log1pf), the array kernels' bounds (neuronfuse.h); -0 gives -0.

   Errno as glibc's expm1f and log1pf set it: ERANGE when a finite x
   overflows (x > NF_EXPM1F_MAX), EDOM for x < -1 (-Inf included) and
   ERANGE for x = -1; never for NaN or +-Inf results of +-Inf.  A clone
   compares the vector once after computing it, and only if a lane is
   out of range looks at the lanes (one errno for the vector: EDOM
   before ERANGE).  FP exception flags: not promised.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

/* neuronfuse.h: declare nf_expm1f and nf_log1pf without __simd__.  */
#define NF_DEFINE_CLONES 1
#include "simd.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#if !defined __x86_64__

/* No clones.  */
void
nf_simd_fill (enum nf_isa isa)
{
  (void) isa;
}

#else

/* The clones are exported under these names, which are not C
   identifiers of neuronfuse.h's.  */
__m128 _ZGVbN4v_nf_expf (__m128 x);
__m256 _ZGVcN8v_nf_expf (__m256 x);
__m256 _ZGVdN8v_nf_expf (__m256 x);
__m512 _ZGVeN16v_nf_expf (__m512 x);
__m128 _ZGVbN4v_nf_expm1f (__m128 x);
__m256 _ZGVcN8v_nf_expm1f (__m256 x);
__m256 _ZGVdN8v_nf_expm1f (__m256 x);
__m512 _ZGVeN16v_nf_expm1f (__m512 x);
__m128 _ZGVbN4v_nf_log1pf (__m128 x);
__m256 _ZGVcN8v_nf_log1pf (__m256 x);
__m256 _ZGVdN8v_nf_log1pf (__m256 x);
__m512 _ZGVeN16v_nf_log1pf (__m512 x);

/* The target attributes of the forms wider than SSE2.  */
#define NF_AVX __attribute__ ((target ("avx")))
#define NF_AVX512 __attribute__ ((target ("avx512f")))

/* The generic forms: on each lane, the generic array kernels'
   expression for expm1f and log1pf (libm's double function rounded
   once: the kernel's bits, which the clones promise), nf_expf for expf
   (which has no array kernel).  libm sets errno only where the clones
   set the same one.  */
static float
expf_lane (float x)
{
  return nf_expf (x);
}

static float
expm1f_lane (float x)
{
  return (float) expm1 ((double) x);
}

static float
log1pf_lane (float x)
{
  return (float) log1p ((double) x);
}


#define NF_GENERIC_FORMS(f)                                                    \
  static __m128 f##_x4_generic (__m128 x)                                      \
  {                                                                            \
    float a[4];                                                                \
    _mm_storeu_ps (a, x);                                                      \
    for (int i = 0; i < 4; i++)                                                \
      a[i] = f##_lane (a[i]);                                          \
    return _mm_loadu_ps (a);                                                   \
  }                                                                            \
  static NF_AVX __m256 f##_x8_generic (__m256 x)                               \
  {                                                                            \
    float a[8];                                                                \
    _mm256_storeu_ps (a, x);                                                   \
    for (int i = 0; i < 8; i++)                                                \
      a[i] = f##_lane (a[i]);                                          \
    return _mm256_loadu_ps (a);                                                \
  }                                                                            \
  static NF_AVX512 __m512 f##_x16_generic (__m512 x)                           \
  {                                                                            \
    float a[16];                                                               \
    _mm512_storeu_ps (a, x);                                                   \
    for (int i = 0; i < 16; i++)                                               \
      a[i] = f##_lane (a[i]);                                          \
    return _mm512_loadu_ps (a);                                                \
  }                                                                            \
  /* An AVX-512F CPU of ISA avx2: two AVX2 halves.  */                         \
  static NF_AVX512 __m512 f##_x16_avx2 (__m512 x)                              \
  {                                                                            \
    __m512d d = _mm512_castps_pd (x);                                          \
    __m256 lo = nf_##f##_x8_avx2 (_mm256_castpd_ps (                           \
      _mm512_castpd512_pd256 (d)));                                            \
    __m256 hi = nf_##f##_x8_avx2 (_mm256_castpd_ps (                           \
      _mm512_extractf64x4_pd (d, 1)));                                         \
    return _mm512_castpd_ps (_mm512_insertf64x4 (                              \
      _mm512_castpd256_pd512 (_mm256_castps_pd (lo)), _mm256_castps_pd (hi),   \
      1));                                                                     \
  }
NF_GENERIC_FORMS (expf)
NF_GENERIC_FORMS (expm1f)
NF_GENERIC_FORMS (log1pf)

/* The table's stubs: fill dispatch.c's table (which fills this one),
   then call through.  */
#define NF_STUBS(f)                                                            \
  static __m128 f##_x4_stub (__m128 x)                                         \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_x4) (x);                                               \
  }                                                                            \
  static NF_AVX __m256 f##_x8_stub (__m256 x)                                  \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_x8) (x);                                               \
  }                                                                            \
  static NF_AVX512 __m512 f##_x16_stub (__m512 x)                              \
  {                                                                            \
    nf_functable ();                                                           \
    return NF_SIMD (f##_x16) (x);                                              \
  }
NF_STUBS (expf)
NF_STUBS (expm1f)
NF_STUBS (log1pf)
#undef NF_STUBS

struct nf_simdtable nf_simd = {
  expf_x4_stub,		  expf_x8_stub,		  expf_x16_stub,
  expm1f_x4_stub,	  expm1f_x8_stub,	  expm1f_x16_stub,
  log1pf_x4_stub,	  log1pf_x8_stub,	  log1pf_x16_stub,
  nf_expm1f_fast_x4_stub, nf_expm1f_fast_x8_stub, nf_expm1f_fast_x16_stub,
  nf_log1pf_fast_x4_stub, nf_log1pf_fast_x8_stub, nf_log1pf_fast_x16_stub,
};

void
nf_simd_fill (enum nf_isa isa)
{
  nf_simd_fast_fill (isa);
#define NF_SIMD_SET_ALL(f, v4, v8, v16)                                     \
  NF_SIMD_SET (f##_x4, v4);                                                    \
  NF_SIMD_SET (f##_x8, v8);                                                    \
  NF_SIMD_SET (f##_x16, v16);
#ifdef NF_HAVE_X86_KERNELS
  if (isa == NF_ISA_AVX512)
    {
      NF_SIMD_SET_ALL (expf, nf_expf_x4_avx512, nf_expf_x8_avx512,
		       nf_expf_x16_avx512);
      NF_SIMD_SET_ALL (expm1f, nf_expm1f_x4_avx512,
		       nf_expm1f_x8_avx512, nf_expm1f_x16_avx512);
      NF_SIMD_SET_ALL (log1pf, nf_log1pf_x4_avx512,
		       nf_log1pf_x8_avx512, nf_log1pf_x16_avx512);
      return;
    }
  if (isa == NF_ISA_AVX2)
    {
      NF_SIMD_SET_ALL (expf, nf_expf_x4_avx2, nf_expf_x8_avx2,
		       expf_x16_avx2);
      NF_SIMD_SET_ALL (expm1f, nf_expm1f_x4_avx2,
		       nf_expm1f_x8_avx2, expm1f_x16_avx2);
      NF_SIMD_SET_ALL (log1pf, nf_log1pf_x4_avx2,
		       nf_log1pf_x8_avx2, log1pf_x16_avx2);
      return;
    }
#else
  (void) isa;
#endif
  NF_SIMD_SET_ALL (expf, expf_x4_generic, expf_x8_generic,
		   expf_x16_generic);
  NF_SIMD_SET_ALL (expm1f, expm1f_x4_generic,
		   expm1f_x8_generic, expm1f_x16_generic);
  NF_SIMD_SET_ALL (log1pf, log1pf_x4_generic,
		   log1pf_x8_generic, log1pf_x16_generic);
#undef NF_SIMD_SET_ALL
}

/* Errno of a vector of N lanes at X whose compare found a lane out of
   range: what the scalar function would set for the lanes, EDOM first.
   (The clones' rare path; never inlined.)  */
static __attribute__ ((noinline, cold)) void
expf_errno (const float *x, int n)
{
  for (int i = 0; i < n; i++)
    if ((x[i] > NF_EXPM1F_MAX && x[i] < INFINITY)
	|| (x[i] < NF_EXPF_UFLOW_ERRNO && x[i] > -INFINITY))
      errno = ERANGE;
}

static __attribute__ ((noinline, cold)) void
expm1f_errno (const float *x, int n)
{
  for (int i = 0; i < n; i++)
    if (x[i] > NF_EXPM1F_MAX && x[i] < INFINITY)
      errno = ERANGE;
}

static __attribute__ ((noinline, cold)) void
log1pf_errno (const float *x, int n)
{
  int e = 0;
  for (int i = 0; i < n; i++)
    if (x[i] < -1.0f)
      e = EDOM;
    else if (x[i] == -1.0f && e == 0)
      e = ERANGE;
  if (e)
    errno = e;
}

/* The clones.  Each tests X once for lanes that may set errno, before
   computing: the common case is then a tail jump through the table (no
   spill of X across a call, no second call), and only a vector with such
   a lane takes the slow path, which computes and then looks at the
   lanes.  The tests: expf, |x + 7.278| > 96 (outside [-103.278, 88.722],
   a window inside (NF_EXPF_UFLOW_ERRNO, NF_EXPM1F_MAX]: nothing due is
   missed, +-Inf and the few lanes near the ends are sorted out by
   expf_errno); expm1f, x > NF_EXPM1F_MAX (+Inf included); log1pf, x <=
   -1.  */
#define NF_EXPF_MID -7.278f
#define NF_EXPF_HALF 96.0f
#define NF_CLONES(f, w, abi, vt, tgt, out)                                     \
  static __attribute__ ((noinline, cold)) tgt vt f##_##abi##_slow (vt x)      \
  {                                                                            \
    vt y = NF_SIMD (f##_x##w) (x);                                             \
    float a[w];                                                                \
    memcpy (a, &x, sizeof a);                                                  \
    f##_errno (a, w);                                                          \
    return y;                                                                  \
  }                                                                            \
  tgt vt _ZGV##abi##v_nf_##f (vt x)                                            \
  {                                                                            \
    if (__builtin_expect (out, 0))                                             \
      return f##_##abi##_slow (x);                                           \
    return NF_SIMD (f##_x##w) (x);                                             \
  }
#define NF_NOTGT
#define NF_TGT_AVX __attribute__ ((target ("avx")))
#define NF_TGT_AVX2 __attribute__ ((target ("avx2")))
#define OUT4(cmp) (_mm_movemask_ps (cmp) != 0)
#define OUT8(cmp) (_mm256_movemask_ps (cmp) != 0)
#define EXPF_DIST4                                                             \
  _mm_andnot_ps (_mm_set1_ps (-0.0f), _mm_sub_ps (x, _mm_set1_ps (NF_EXPF_MID)))
#define EXPF_DIST8                                                             \
  _mm256_andnot_ps (_mm256_set1_ps (-0.0f),                                    \
		    _mm256_sub_ps (x, _mm256_set1_ps (NF_EXPF_MID)))
#define EXPF_DIST16                                                            \
  _mm512_abs_ps (_mm512_sub_ps (x, _mm512_set1_ps (NF_EXPF_MID)))

NF_CLONES (expf, 4, bN4, __m128, NF_NOTGT,
	   OUT4 (_mm_cmpgt_ps (EXPF_DIST4, _mm_set1_ps (NF_EXPF_HALF))))
NF_CLONES (expm1f, 4, bN4, __m128, NF_NOTGT,
	   OUT4 (_mm_cmpgt_ps (x, _mm_set1_ps (NF_EXPM1F_MAX))))
NF_CLONES (log1pf, 4, bN4, __m128, NF_NOTGT,
	   OUT4 (_mm_cmple_ps (x, _mm_set1_ps (-1.0f))))
/* The c and d clones differ only in the instructions GCC may use.  */
#define NF_CLONES8(abi, tgt)                                                   \
  NF_CLONES (expf, 8, abi, __m256, tgt,                                        \
	     OUT8 (_mm256_cmp_ps (EXPF_DIST8, _mm256_set1_ps (NF_EXPF_HALF),    \
				  _CMP_GT_OQ)))                                 \
  NF_CLONES (expm1f, 8, abi, __m256, tgt,                                      \
	     OUT8 (_mm256_cmp_ps (x, _mm256_set1_ps (NF_EXPM1F_MAX),            \
				  _CMP_GT_OQ)))                                 \
  NF_CLONES (log1pf, 8, abi, __m256, tgt,                                      \
	     OUT8 (_mm256_cmp_ps (x, _mm256_set1_ps (-1.0f), _CMP_LE_OQ)))
NF_CLONES8 (cN8, NF_TGT_AVX)
NF_CLONES8 (dN8, NF_TGT_AVX2)
#undef NF_CLONES8
NF_CLONES (expf, 16, eN16, __m512, NF_AVX512,
	   _mm512_cmp_ps_mask (EXPF_DIST16, _mm512_set1_ps (NF_EXPF_HALF),
			       _CMP_GT_OQ)
	     != 0)
NF_CLONES (expm1f, 16, eN16, __m512, NF_AVX512,
	   _mm512_cmp_ps_mask (x, _mm512_set1_ps (NF_EXPM1F_MAX), _CMP_GT_OQ)
	     != 0)
NF_CLONES (log1pf, 16, eN16, __m512, NF_AVX512,
	   _mm512_cmp_ps_mask (x, _mm512_set1_ps (-1.0f), _CMP_LE_OQ) != 0)
#undef NF_CLONES

#endif /* __x86_64__ */
