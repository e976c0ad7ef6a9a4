/* vec-avx2.h: the vector vocabulary of the AVX2 reduction and RMSNorm
   kernels (sumsq-tmpl.h, rmsnorm-tmpl.h).  Build with -mavx2 -mfma
   -mf16c -ffp-contract=off (the templates' error-free transformations
   need every product and sum rounded where it is written).

   vd is a vector of VD_N doubles: the kernels compute in double and load
   and store any of float, double and _Float16 through it.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_VEC_H
#define NF_VEC_H

#include <immintrin.h>
#include <stdint.h>

#define NF_SFX(name) name##_avx2
#define VD_N 4

typedef __m256d vd;

static inline vd
vd_zero (void)
{
  return _mm256_setzero_pd ();
}

static inline vd
vd_set1 (double a)
{
  return _mm256_set1_pd (a);
}

static inline vd
vd_add (vd a, vd b)
{
  return _mm256_add_pd (a, b);
}

static inline vd
vd_sub (vd a, vd b)
{
  return _mm256_sub_pd (a, b);
}

static inline vd
vd_mul (vd a, vd b)
{
  return _mm256_mul_pd (a, b);
}

/* A * B + C, rounded once.  */
static inline vd
vd_fma (vd a, vd b, vd c)
{
  return _mm256_fmadd_pd (a, b, c);
}

/* A * B - C, rounded once.  */
static inline vd
vd_fms (vd a, vd b, vd c)
{
  return _mm256_fmsub_pd (a, b, c);
}

static inline vd
vd_load_f64 (const double *p)
{
  return _mm256_loadu_pd (p);
}

static inline vd
vd_load_f32 (const float *p)
{
  return _mm256_cvtps_pd (_mm_loadu_ps (p));
}

#ifdef __FLT16_MAX__ /* GCC 11 has no _Float16 on x86 */
static inline vd
vd_load_f16 (const _Float16 *p)
{
  return _mm256_cvtps_pd (_mm_cvtph_ps (_mm_loadl_epi64 ((const void *) p)));
}
#endif

/* Store V, each lane rounded once to the type.  The _stream forms write
   around the caches and need P aligned to VD_N elements.  */
static inline void
vd_store_f64 (double *p, vd v)
{
  _mm256_storeu_pd (p, v);
}

static inline void
vd_stream_f64 (double *p, vd v)
{
  _mm256_stream_pd (p, v);
}

static inline void
vd_store_f32 (float *p, vd v)
{
  _mm_storeu_ps (p, _mm256_cvtpd_ps (v));
}

static inline void
vd_stream_f32 (float *p, vd v)
{
  _mm_stream_ps (p, _mm256_cvtpd_ps (v));
}

#ifdef __FLT16_MAX__
/* V rounded once to _Float16: to float toward zero with the last bit set
   when that was inexact (round to odd), then to nearest _Float16; see
   vec-avx512.h.  AVX2 converts with the rounding mode of MXCSR (to
   nearest): a result that rounded away from zero steps back one float
   toward zero.  */
static inline __m128i
vd_to_f16 (vd v)
{
  __m128 f = _mm256_cvtpd_ps (v);
  __m256d back = _mm256_cvtps_pd (f);
  __m256d sign = _mm256_set1_pd (-0.0);
  __m256d up = _mm256_cmp_pd (_mm256_andnot_pd (sign, back),
			      _mm256_andnot_pd (sign, v), _CMP_GT_OQ);
  __m256d inexact = _mm256_cmp_pd (back, v, _CMP_NEQ_UQ);
  /* Narrow the 64-bit lane masks to 32 bits: all ones or all zeros.  */
  __m128i up32 = _mm256_cvtpd_epi32 (_mm256_and_pd (up, _mm256_set1_pd (1)));
  __m128i in32
    = _mm256_cvtpd_epi32 (_mm256_and_pd (inexact, _mm256_set1_pd (1)));
  __m128i fi = _mm_sub_epi32 (_mm_castps_si128 (f), up32);
  fi = _mm_or_si128 (fi, in32);
  return _mm_cvtps_ph (_mm_castsi128_ps (fi), _MM_FROUND_TO_NEAREST_INT);
}

static inline void
vd_store_f16 (_Float16 *p, vd v)
{
  _mm_storel_epi64 ((void *) p, vd_to_f16 (v));
}

static inline void
vd_stream_f16 (_Float16 *p, vd v)
{
  long long bits = _mm_cvtsi128_si64 (vd_to_f16 (v));
  _mm_stream_si64 ((long long *) (void *) p, bits);
}
#endif /* __FLT16_MAX__ */

/* V with ALT in the lanes where V is zero or NaN: the fix-up of the
   products through error terms, whose exact zeros are +0 whatever the
   signs (x = -0 must give -0) and whose Inf - Inf is NaN.  */
static inline vd
vd_fix_to (vd v, vd alt)
{
  return _mm256_blendv_pd (v, alt,
			  _mm256_cmp_pd (v, _mm256_setzero_pd (), _CMP_EQ_UQ));
}

/* Write the lanes of V to P[0..VD_N-1].  */
static inline void
vd_lanes (double *p, vd v)
{
  _mm256_storeu_pd (p, v);
}

/* Y[0..3] = the lane sums of A, B, C and D plus T0 to T3, each rounded
   once to float.  A row's lanes are added pairwise, halves first (l[k] +=
   l[k + 2], then l[0] + l[1]), the four rows at once: the same additions
   as matvec-tmpl.h's mv_finish of one row, so a row's result is the same
   either way.  */
static inline void
vd_hsum4_f32 (float *y, vd a, vd b, vd c, vd d, double t0, double t1,
	      double t2, double t3)
{
  /* [a lo + a hi | b lo + b hi], [c ... | d ...]: two lanes a row.  */
  vd ab = _mm256_add_pd (_mm256_permute2f128_pd (a, b, 0x20),
			 _mm256_permute2f128_pd (a, b, 0x31));
  vd cd = _mm256_add_pd (_mm256_permute2f128_pd (c, d, 0x20),
			 _mm256_permute2f128_pd (c, d, 0x31));
  /* [a, c, b, d], each its lanes 0 + 1.  */
  vd v = _mm256_add_pd (_mm256_unpacklo_pd (ab, cd),
			_mm256_unpackhi_pd (ab, cd));
  v = _mm256_permute4x64_pd (v, 0xd8);
  v = _mm256_add_pd (v, _mm256_set_pd (t3, t2, t1, t0));
  _mm_storeu_ps (y, _mm256_cvtpd_ps (v));
}

/* vf is a vector of VF_N floats, for the f32 RMSNorm scaling, which
   keeps r as a float pair instead of widening every element.  */
#define VF_N 8

typedef __m256 vf;

static inline vf
vf_set1 (float a)
{
  return _mm256_set1_ps (a);
}

static inline vf
vf_add (vf a, vf b)
{
  return _mm256_add_ps (a, b);
}

/* The low and the high VD_N lanes of V, as doubles (exact).  */
static inline vd
vf_lo_pd (vf v)
{
  return _mm256_cvtps_pd (_mm256_castps256_ps128 (v));
}

static inline vd
vf_hi_pd (vf v)
{
  return _mm256_cvtps_pd (_mm256_extractf128_ps (v, 1));
}

static inline vf
vf_mul (vf a, vf b)
{
  return _mm256_mul_ps (a, b);
}

/* A * B + C, rounded once.  */
static inline vf
vf_fma (vf a, vf b, vf c)
{
  return _mm256_fmadd_ps (a, b, c);
}

/* A * B - C, rounded once.  */
static inline vf
vf_fms (vf a, vf b, vf c)
{
  return _mm256_fmsub_ps (a, b, c);
}

static inline vf
vf_load_f32 (const float *p)
{
  return _mm256_loadu_ps (p);
}

static inline void
vf_store_f32 (float *p, vf v)
{
  _mm256_storeu_ps (p, v);
}

/* Needs P aligned to VF_N floats.  */
static inline void
vf_stream_f32 (float *p, vf v)
{
  _mm256_stream_ps (p, v);
}

/* As vd_fix_to, for floats.  */
static inline vf
vf_fix_to (vf v, vf alt)
{
  return _mm256_blendv_ps (v, alt,
			  _mm256_cmp_ps (v, _mm256_setzero_ps (), _CMP_EQ_UQ));
}

#endif /* NF_VEC_H */
