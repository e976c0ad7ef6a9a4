/* vec-avx512.h: the vector vocabulary of the AVX-512 reduction and
   RMSNorm kernels (sumsq-tmpl.h, rmsnorm-tmpl.h).  Build with
   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mf16c
   -ffp-contract=off (the templates' error-free transformations need
   every product and sum rounded where it is written).

   vd is a vector of VD_N doubles: the kernels compute in double and load
   and store any of float, double and _Float16 through it.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_VEC_H
#define NF_VEC_H

#include <immintrin.h>
#include <stdint.h>

#define NF_SFX(name) name##_avx512
#define VD_N 8

typedef __m512d vd;

static inline vd
vd_zero (void)
{
  return _mm512_setzero_pd ();
}

static inline vd
vd_set1 (double a)
{
  return _mm512_set1_pd (a);
}

static inline vd
vd_add (vd a, vd b)
{
  return _mm512_add_pd (a, b);
}

static inline vd
vd_sub (vd a, vd b)
{
  return _mm512_sub_pd (a, b);
}

static inline vd
vd_mul (vd a, vd b)
{
  return _mm512_mul_pd (a, b);
}

/* A * B + C, rounded once.  */
static inline vd
vd_fma (vd a, vd b, vd c)
{
  return _mm512_fmadd_pd (a, b, c);
}

/* A * B - C, rounded once.  */
static inline vd
vd_fms (vd a, vd b, vd c)
{
  return _mm512_fmsub_pd (a, b, c);
}

static inline vd
vd_load_f64 (const double *p)
{
  return _mm512_loadu_pd (p);
}

static inline vd
vd_load_f32 (const float *p)
{
  return _mm512_cvtps_pd (_mm256_loadu_ps (p));
}

#ifdef __FLT16_MAX__ /* GCC 11 has no _Float16 on x86 */
static inline vd
vd_load_f16 (const _Float16 *p)
{
  return _mm512_cvtps_pd (_mm256_cvtph_ps (_mm_loadu_si128 ((const void *) p)));
}
#endif

/* Store V, each lane rounded once to the type.  The _stream forms write
   around the caches and need P aligned to VD_N elements.  */
static inline void
vd_store_f64 (double *p, vd v)
{
  _mm512_storeu_pd (p, v);
}

static inline void
vd_stream_f64 (double *p, vd v)
{
  _mm512_stream_pd (p, v);
}

static inline void
vd_store_f32 (float *p, vd v)
{
  _mm256_storeu_ps (p, _mm512_cvtpd_ps (v));
}

static inline void
vd_stream_f32 (float *p, vd v)
{
  _mm256_stream_ps (p, _mm512_cvtpd_ps (v));
}

#ifdef __FLT16_MAX__
/* V rounded once to _Float16: toward zero to float, with the last bit set
   when that was inexact (round to odd), then to nearest _Float16.  Float
   has 13 bits more than _Float16, so the second rounding sees the first
   one's sticky bit and the result is V correctly rounded (Boldo and
   Melquiond, "When double rounding is odd", 2005).  */
static inline __m128i
vd_to_f16 (vd v)
{
  __m256 f = _mm512_cvt_roundpd_ps (v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __mmask8 inexact = _mm512_cmp_pd_mask (_mm512_cvtps_pd (f), v, _CMP_NEQ_UQ);
  __m256i fi
    = _mm256_mask_or_epi32 (_mm256_castps_si256 (f), inexact,
			    _mm256_castps_si256 (f), _mm256_set1_epi32 (1));
  return _mm256_cvtps_ph (_mm256_castsi256_ps (fi), _MM_FROUND_TO_NEAREST_INT);
}

static inline void
vd_store_f16 (_Float16 *p, vd v)
{
  _mm_storeu_si128 ((void *) p, vd_to_f16 (v));
}

static inline void
vd_stream_f16 (_Float16 *p, vd v)
{
  _mm_stream_si128 ((void *) p, vd_to_f16 (v));
}
#endif /* __FLT16_MAX__ */

/* V with ALT in the lanes where V is zero or NaN: the fix-up of the
   products through error terms, whose exact zeros are +0 whatever the
   signs (x = -0 must give -0) and whose Inf - Inf is NaN.  */
static inline vd
vd_fix_to (vd v, vd alt)
{
  return _mm512_mask_blend_pd (
    _mm512_cmp_pd_mask (v, _mm512_setzero_pd (), _CMP_EQ_UQ), v, alt);
}

/* Write the lanes of V to P[0..VD_N-1].  */
static inline void
vd_lanes (double *p, vd v)
{
  _mm512_storeu_pd (p, v);
}

/* Y[0..3] = the lane sums of A, B, C and D plus T0 to T3, each rounded
   once to float.  A row's lanes are added pairwise, halves first (l[k] +=
   l[k + 4], then l[k] += l[k + 2], then l[0] + l[1]), the four rows at
   once: the same additions as matvec-tmpl.h's mv_finish of one row, so a
   row's result is the same either way.  */
static inline void
vd_hsum4_f32 (float *y, vd a, vd b, vd c, vd d, double t0, double t1,
	      double t2, double t3)
{
  /* [a lo + a hi | b lo + b hi], [c ... | d ...]: four lanes a row.  */
  vd ab = _mm512_add_pd (_mm512_shuffle_f64x2 (a, b, 0x44),
			 _mm512_shuffle_f64x2 (a, b, 0xee));
  vd cd = _mm512_add_pd (_mm512_shuffle_f64x2 (c, d, 0x44),
			 _mm512_shuffle_f64x2 (c, d, 0xee));
  /* Lanes 0 + 2 and 1 + 3 of each row: two lanes a row, a b c d.  */
  vd v = _mm512_add_pd (_mm512_shuffle_f64x2 (ab, cd, 0x88),
			_mm512_shuffle_f64x2 (ab, cd, 0xdd));
  /* Lane 2k: row k's lanes 0 + 1.  */
  v = _mm512_add_pd (v, _mm512_permute_pd (v, 0x55));
  __m256d s = _mm512_castpd512_pd256 (
    _mm512_permutexvar_pd (_mm512_set_epi64 (7, 5, 3, 1, 6, 4, 2, 0), v));
  s = _mm256_add_pd (s, _mm256_set_pd (t3, t2, t1, t0));
  _mm_storeu_ps (y, _mm256_cvtpd_ps (s));
}

/* vf is a vector of VF_N floats, for the f32 RMSNorm scaling, which
   keeps r as a float pair instead of widening every element.  */
#define VF_N 16

typedef __m512 vf;

static inline vf
vf_set1 (float a)
{
  return _mm512_set1_ps (a);
}

static inline vf
vf_add (vf a, vf b)
{
  return _mm512_add_ps (a, b);
}

/* The low and the high VD_N lanes of V, as doubles (exact).  */
static inline vd
vf_lo_pd (vf v)
{
  return _mm512_cvtps_pd (_mm512_castps512_ps256 (v));
}

static inline vd
vf_hi_pd (vf v)
{
  return _mm512_cvtps_pd (_mm512_extractf32x8_ps (v, 1));
}

static inline vf
vf_mul (vf a, vf b)
{
  return _mm512_mul_ps (a, b);
}

/* A * B + C, rounded once.  */
static inline vf
vf_fma (vf a, vf b, vf c)
{
  return _mm512_fmadd_ps (a, b, c);
}

/* A * B - C, rounded once.  */
static inline vf
vf_fms (vf a, vf b, vf c)
{
  return _mm512_fmsub_ps (a, b, c);
}

static inline vf
vf_load_f32 (const float *p)
{
  return _mm512_loadu_ps (p);
}

static inline void
vf_store_f32 (float *p, vf v)
{
  _mm512_storeu_ps (p, v);
}

/* Needs P aligned to VF_N floats.  */
static inline void
vf_stream_f32 (float *p, vf v)
{
  _mm512_stream_ps (p, v);
}

/* As vd_fix_to, for floats.  */
static inline vf
vf_fix_to (vf v, vf alt)
{
  return _mm512_mask_blend_ps (
    _mm512_cmp_ps_mask (v, _mm512_setzero_ps (), _CMP_EQ_UQ), v, alt);
}

#endif /* NF_VEC_H */
