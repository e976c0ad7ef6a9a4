/* ew-run-tmpl.h: the block interpreter of nf_elementwise, written once in
   plain C and compiled once per instruction set: generic/ew-run.c,
   x86/ew-run-avx2.c and x86/ew-run-avx512.c define NF_EW_RUN (the
   function's name) and include this file, so that each of the step
   loops below is vectorized by GCC for that set (AVX-512: 16 floats or 8
   doubles per instruction) and dispatch.c's table picks the one of this
   CPU.

   Steps of a call, for the plan of elementwise.c (ewplan.h: a decoded
   program and the call's constants):
   1. Lay the register and constant slots out on the stack (64-byte
      aligned blocks of NF_EW_BLOCK doubles, only as many as the program
      uses; for N below a block, blocks of N rounded up to 16 elements)
      and fill the constant slots once.
   2. For each full block of NF_EW_BLOCK elements, and for a last block
      whose length is a multiple of 16: point the views at x0 and x1
      there, run each step over the block, then copy the stored value to
      y unless the stored value's step wrote it there (the plan's
      ydirect: that step's slot is y for the block).
   3. The last, partial block of m elements otherwise: x0 and x1 copied
      into slots of their own, padded to a multiple of 16 with copies of
      the last element (the padding computes what that element computes:
      no operation a real element would not do), the steps run on that
      block, m results copied out.
   Every loop then runs a multiple of 16 elements, as inner loops of
   exactly 16, which GCC's -O2 (very cheap cost model) vectorizes with no
   scalar epilogue.  Restrict: elementwise.c never gives a step its
   destination as an operand.

   Semantics, as ewprog.h asks: each operation the IEEE one in its type,
   never contracted (-ffp-contract=off and the pragma below); MIN and MAX
   fmin's and fmax's (a NaN operand gives the other), written as
   compares and selects GCC vectorizes; CMP C's comparisons, into
   nf_ew_bool 0 or 1; f32 LOG and f64 EXP and LOG per element by libm
   (errno: elementwise.c restores it), the other transcendentals by the
   dispatched array kernels the plan names (the _pz ones for expm1 (a)
   + 0 and log1p (a) + 0).  SQRT is written with intrinsics: under
   -fmath-errno GCC keeps a call of sqrtf for x < 0 in the loop.

   Limitations: the libm loops are scalar calls; a step's loop reads its
   operands once per step, so a program is as many passes over L1 as it
   has steps (about 0.02 ns per element and step on AVX-512).

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EW_RUN
#error "define NF_EW_RUN, the name of the interpreter to compile"
#endif

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include "ewplan.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined __SSE2__
#include <immintrin.h>
#endif

#define EW_R __restrict__

/* EW_FOR (i, m): i over 0..m-1, m a multiple of 16, as loops of 16.  */
#define EW_FOR(i, m)                                                           \
  for (size_t i##0 = 0; i##0 < (m); i##0 += 16)                                \
    for (size_t i##k = 0, i = i##0; i##k < 16; i##k++, i++)

/* D = EXPR (x = A[i]) over M elements, T to R.  */
#define EW_UNARY(name, T, R, expr)                                             \
  static void __attribute__ ((noinline))                                       \
  name (void *EW_R d_, const void *EW_R a_, size_t m)                          \
  {                                                                            \
    R *EW_R d = d_;                                                            \
    const T *EW_R a = a_;                                                      \
    EW_FOR (i, m)                                                              \
    {                                                                          \
      T x = a[i];                                                              \
      d[i] = (expr);                                                           \
    }                                                                          \
  }

/* D = EXPR (x = A[i], y = B[i]), T to R.  */
#define EW_BINARY(name, T, R, expr)                                            \
  static void __attribute__ ((noinline))                                       \
  name (void *EW_R d_, const void *EW_R a_, const void *EW_R b_, size_t m)     \
  {                                                                            \
    R *EW_R d = d_;                                                            \
    const T *EW_R a = a_, *EW_R b = b_;                                        \
    EW_FOR (i, m)                                                              \
    {                                                                          \
      T x = a[i], y = b[i];                                                    \
      d[i] = (expr);                                                           \
    }                                                                          \
  }

#define EW_FLOAT_OPS(S, T)                                                     \
  EW_BINARY (ew_add_##S, T, T, x + y)                                          \
  EW_BINARY (ew_sub_##S, T, T, x - y)                                          \
  EW_BINARY (ew_mul_##S, T, T, x *y)                                           \
  EW_BINARY (ew_div_##S, T, T, x / y)                                          \
  EW_UNARY (ew_neg_##S, T, T, -x)                                              \
  /* fmin, fmax: the other operand for one NaN; either zero for +-0.  */       \
  EW_BINARY (ew_min_##S, T, T, ((x < y) | (y != y)) ? x : y)                   \
  EW_BINARY (ew_max_##S, T, T, ((x > y) | (y != y)) ? x : y)                   \
  EW_BINARY (ew_lt_##S, T, nf_ew_bool, x < y)                                  \
  EW_BINARY (ew_le_##S, T, nf_ew_bool, x <= y)                                 \
  EW_BINARY (ew_gt_##S, T, nf_ew_bool, x > y)                                  \
  EW_BINARY (ew_ge_##S, T, nf_ew_bool, x >= y)                                 \
  EW_BINARY (ew_eq_##S, T, nf_ew_bool, x == y)                                 \
  EW_BINARY (ew_ne_##S, T, nf_ew_bool, x != y)                                 \
  EW_UNARY (ew_from_bool_##S, nf_ew_bool, T, (T) x)                            \
  EW_UNARY (ew_copy_##S, T, T, x)                                              \
                                                                               \
  /* D = C ? A : B.  */                                                        \
  static void __attribute__ ((noinline))                                       \
  ew_select_##S (void *EW_R d_, const void *EW_R c_, const void *EW_R a_,      \
		 const void *EW_R b_, size_t m)                                \
  {                                                                            \
    T *EW_R d = d_;                                                            \
    const nf_ew_bool *EW_R c = c_;                                             \
    const T *EW_R a = a_, *EW_R b = b_;                                        \
    EW_FOR (i, m)                                                              \
    {                                                                          \
      /* Both loaded unconditionally: if-converted, not masked loads.  */      \
      nf_ew_bool z = c[i];                                                     \
      T x = a[i], y = b[i];                                                    \
      d[i] = z ? x : y;                                                        \
    }                                                                          \
  }                                                                            \
                                                                               \
  /* D = IMM.  */                                                              \
  static void __attribute__ ((noinline))                                       \
  ew_fill_##S (void *EW_R d_, double imm, size_t m)                            \
  {                                                                            \
    T *EW_R d = d_, v = (T) imm;                                               \
    EW_FOR (i, m)                                                              \
    d[i] = v;                                                                  \
  }

/* D = (A op B) ? C : E: a SELECT of a CMP nothing else reads.  */
#define EW_SELCMP(S, T, name, op)                                              \
  static void __attribute__ ((noinline))                                       \
  ew_sel##name##_##S (void *EW_R d_, const void *EW_R a_, const void *EW_R b_, \
		      const void *EW_R c_, const void *EW_R e_, size_t m)      \
  {                                                                            \
    T *EW_R d = d_;                                                            \
    const T *EW_R a = a_, *EW_R b = b_, *EW_R c = c_, *EW_R e = e_;            \
    EW_FOR (i, m)                                                              \
    {                                                                          \
      T x = a[i], y = b[i], t = c[i], f = e[i];                                \
      d[i] = x op y ? t : f;                                                   \
    }                                                                          \
  }
#define EW_SELCMPS(S, T)                                                       \
  EW_SELCMP (S, T, lt, <)                                                      \
  EW_SELCMP (S, T, le, <=)                                                     \
  EW_SELCMP (S, T, gt, >)                                                      \
  EW_SELCMP (S, T, ge, >=)                                                     \
  EW_SELCMP (S, T, eq, ==)                                                     \
  EW_SELCMP (S, T, ne, !=)

EW_FLOAT_OPS (f32, float)
EW_FLOAT_OPS (f64, double)
EW_SELCMPS (f32, float)
EW_SELCMPS (f64, double)
EW_UNARY (ew_abs_f32, float, float, fabsf (x))
EW_UNARY (ew_abs_f64, double, double, fabs (x))

/* sqrt: with errno (the library is built with -fmath-errno, which no
   pragma turns off for a built-in) GCC would call sqrtf for x < 0, so
   the vector instructions are written out.  */
#if defined __AVX512F__
#define EW_SQRT(S, T, load, sqrt, store)                                       \
  static void __attribute__ ((noinline))                                       \
  ew_sqrt_##S (void *EW_R d_, const void *EW_R a_, size_t m)                   \
  {                                                                            \
    T *EW_R d = d_;                                                            \
    const T *EW_R a = a_;                                                      \
    for (size_t i = 0; i < m; i += 64 / sizeof (T))                            \
      store (d + i, sqrt (load (a + i)));                                      \
  }
EW_SQRT (f32, float, _mm512_loadu_ps, _mm512_sqrt_ps, _mm512_storeu_ps)
EW_SQRT (f64, double, _mm512_loadu_pd, _mm512_sqrt_pd, _mm512_storeu_pd)
#elif defined __AVX__
#define EW_SQRT(S, T, load, sqrt, store)                                       \
  static void __attribute__ ((noinline))                                       \
  ew_sqrt_##S (void *EW_R d_, const void *EW_R a_, size_t m)                   \
  {                                                                            \
    T *EW_R d = d_;                                                            \
    const T *EW_R a = a_;                                                      \
    for (size_t i = 0; i < m; i += 32 / sizeof (T))                            \
      store (d + i, sqrt (load (a + i)));                                      \
  }
EW_SQRT (f32, float, _mm256_loadu_ps, _mm256_sqrt_ps, _mm256_storeu_ps)
EW_SQRT (f64, double, _mm256_loadu_pd, _mm256_sqrt_pd, _mm256_storeu_pd)
#elif defined __SSE2__
#define EW_SQRT(S, T, load, sqrt, store)                                       \
  static void __attribute__ ((noinline))                                       \
  ew_sqrt_##S (void *EW_R d_, const void *EW_R a_, size_t m)                   \
  {                                                                            \
    T *EW_R d = d_;                                                            \
    const T *EW_R a = a_;                                                      \
    for (size_t i = 0; i < m; i += 16 / sizeof (T))                            \
      store (d + i, sqrt (load (a + i)));                                      \
  }
EW_SQRT (f32, float, _mm_loadu_ps, _mm_sqrt_ps, _mm_storeu_ps)
EW_SQRT (f64, double, _mm_loadu_pd, _mm_sqrt_pd, _mm_storeu_pd)
#else
EW_UNARY (ew_sqrt_f32, float, float, sqrtf (x))
EW_UNARY (ew_sqrt_f64, double, double, sqrt (x))
#endif
EW_UNARY (ew_widen, float, double, (double) x)
EW_UNARY (ew_narrow, double, float, (float) x)

/* SELECT of BOOLs.  */
static void __attribute__ ((noinline))
ew_select_bool (void *EW_R d_, const void *EW_R c_, const void *EW_R a_,
		const void *EW_R b_, size_t m)
{
  nf_ew_bool *EW_R d = d_;
  const nf_ew_bool *EW_R c = c_, *EW_R a = a_, *EW_R b = b_;
  EW_FOR (i, m)
  {
    nf_ew_bool z = c[i], x = a[i], y = b[i];
    d[i] = z ? x : y;
  }
}

/* The libm loops: per element (no vector form without -ffast-math).  */
static void __attribute__ ((noinline))
ew_libm_f32 (float (*f) (float), void *EW_R d_, const void *EW_R a_, size_t m)
{
  float *EW_R d = d_;
  const float *EW_R a = a_;
  for (size_t i = 0; i < m; i++)
    d[i] = f (a[i]);
}

static void __attribute__ ((noinline))
ew_libm_f64 (double (*f) (double), void *EW_R d_, const void *EW_R a_, size_t m)
{
  double *EW_R d = d_;
  const double *EW_R a = a_;
  for (size_t i = 0; i < m; i++)
    d[i] = f (a[i]);
}

/* Run the steps of P over one block of M elements (a multiple of 16),
   the sources at SRC; return where the stored value is.  YDST, if not
   NULL, is where the step P->ystep writes (y at the block) instead of
   its slot, for it and the later steps to read.  */
static void *
ew_block (const struct nf_ew_code *p, void **src, size_t m, void *ydst)
{
  void *keep = src[p->ysrc];
  for (unsigned k = 0; k < p->nsteps; k++)
    {
      const struct nf_ew_step *s = &p->step[k];
      if (k == p->ystep && ydst)
	src[p->ysrc] = ydst;
      void *d = src[s->d];
      const void *a = src[s->o[0]], *b = src[s->o[1]], *c = src[s->o[2]],
		 *e = src[s->o[3]];
      switch (s->kernel)
	{
#define EW_CASE2(K, S, CALL_F32, CALL_F64)                                     \
  case NF_EW_K_##K##_F32:                                                      \
    CALL_F32;                                                                  \
    break;                                                                     \
  case NF_EW_K_##K##_F64:                                                      \
    CALL_F64;                                                                  \
    break;
#define EW_BIN2(K, op)                                                         \
  EW_CASE2 (K, op, ew_##op##_f32 (d, a, b, m), ew_##op##_f64 (d, a, b, m))
#define EW_UN2(K, op)                                                          \
  EW_CASE2 (K, op, ew_##op##_f32 (d, a, m), ew_##op##_f64 (d, a, m))
	  EW_CASE2 (FILL, fill, ew_fill_f32 (d, s->imm, m),
		    ew_fill_f64 (d, s->imm, m))
	  EW_UN2 (COPY, copy)
	  EW_BIN2 (ADD, add)
	  EW_BIN2 (SUB, sub)
	  EW_BIN2 (MUL, mul)
	  EW_BIN2 (DIV, div)
	  EW_UN2 (NEG, neg)
	  EW_UN2 (ABS, abs)
	  EW_BIN2 (MIN, min)
	  EW_BIN2 (MAX, max)
	  EW_UN2 (SQRT, sqrt)
	  EW_CASE2 (SELECT, select, ew_select_f32 (d, a, b, c, m),
		    ew_select_f64 (d, a, b, c, m))
	  EW_UN2 (BOOL_TO, from_bool)
	  EW_CASE2 (EXP, exp, p->exp_f32 (d, a, m), ew_libm_f64 (exp, d, a, m))
	  EW_CASE2 (EXPM1, expm1, p->expm1_f32 (d, a, m),
		    p->expm1_f64 (d, a, m))
	  EW_CASE2 (LOG, log, ew_libm_f32 (logf, d, a, m),
		    ew_libm_f64 (log, d, a, m))
	  EW_CASE2 (LOG1P, log1p, p->log1p_f32 (d, a, m),
		    p->log1p_f64 (d, a, m))
	  EW_CASE2 (EXPM1_PZ, expm1_pz, p->expm1_pz_f32 (d, a, m),
		    p->expm1_pz_f64 (d, a, m))
	  EW_CASE2 (LOG1P_PZ, log1p_pz, p->log1p_pz_f32 (d, a, m),
		    p->log1p_pz_f64 (d, a, m))
#undef EW_CASE2
#undef EW_BIN2
#undef EW_UN2
#define EW_CMP(K, op)                                                          \
  case NF_EW_K_CMP_F32 + NF_EW_##K:                                            \
    ew_##op##_f32 (d, a, b, m);                                                \
    break;                                                                     \
  case NF_EW_K_CMP_F64 + NF_EW_##K:                                            \
    ew_##op##_f64 (d, a, b, m);                                                \
    break;                                                                     \
  case NF_EW_K_SELCMP_F32 + NF_EW_##K:                                         \
    ew_sel##op##_f32 (d, a, b, c, e, m);                                       \
    break;                                                                     \
  case NF_EW_K_SELCMP_F64 + NF_EW_##K:                                         \
    ew_sel##op##_f64 (d, a, b, c, e, m);                                       \
    break;
	  EW_CMP (LT, lt)
	  EW_CMP (LE, le)
	  EW_CMP (GT, gt)
	  EW_CMP (GE, ge)
	  EW_CMP (EQ, eq)
	  EW_CMP (NE, ne)
#undef EW_CMP
	case NF_EW_K_SELECT_BOOL:
	  ew_select_bool (d, a, b, c, m);
	  break;
	case NF_EW_K_F32_TO_F64:
	  ew_widen (d, a, m);
	  break;
	case NF_EW_K_F64_TO_F32:
	  ew_narrow (d, a, m);
	  break;
	default: /* elementwise.c made no other.  */
	  __builtin_unreachable ();
	}
    }
  void *out = src[p->ysrc];
  src[p->ysrc] = keep;
  return out;
}

/* Copy the M elements of SIZE bytes (4 or 8) at X into the block D and
   pad it to MR elements with copies of the last.  (Copies of a constant
   size: a memcpy of SIZE bytes per element would be a call each.)  */
static void
ew_pad (void *d, const void *x, size_t size, size_t m, size_t mr)
{
  unsigned char *dd = d;
  const unsigned char *last = (const unsigned char *) x + (m - 1) * size;
  memcpy (d, x, m * size);
  if (size == 8)
    {
      uint64_t v;
      memcpy (&v, last, 8);
      for (size_t i = m; i < mr; i++)
	memcpy (dd + i * 8, &v, 8);
    }
  else
    {
      uint32_t v;
      memcpy (&v, last, 4);
      for (size_t i = m; i < mr; i++)
	memcpy (dd + i * 4, &v, 4);
    }
}

void
NF_EW_RUN (const struct nf_ew_plan *pl, void *y, const void *x0,
	   const void *x1, size_t n)
{
  const struct nf_ew_code *p = pl->code;
  /* Elements per slot: a block, or N padded if shorter (a short call
     lays out and touches only what it uses).  */
  size_t cn = n < NF_EW_BLOCK ? (n + 15) & ~(size_t) 15 : NF_EW_BLOCK;
  size_t bs = cn * sizeof (double); /* Bytes per slot, a multiple of 128.  */
  /* The register slots, the constant slots, then the tail's x0 and x1,
     aligned to 64 bytes.  */
  size_t nblk = p->nslots + p->ncslots + 2;
  unsigned char mem[nblk * bs + 64];
  unsigned char *base
    = (unsigned char *) (((uintptr_t) mem + 63) & ~(uintptr_t) 63);
  /* (Unused operands are 0: slot 0 is always a valid pointer.)  */
  void *src[NF_EW_NSRC];
  for (unsigned i = 0; i < NF_EW_SLOTS; i++)
    src[i] = base;
  for (unsigned i = 1; i < p->nslots; i++)
    src[i] = base + i * bs;
  /* The constants, only as long as the longest block.  */
  for (unsigned i = 0; i < p->ncslots; i++)
    {
      src[NF_EW_SRC_CONST + i] = base + (p->nslots + i) * bs;
      if (p->cf64[i])
	ew_fill_f64 (src[NF_EW_SRC_CONST + i], pl->cval[i], cn);
      else
	ew_fill_f32 (src[NF_EW_SRC_CONST + i], pl->cval[i], cn);
    }
  unsigned char *tail = base + (p->nslots + p->ncslots) * bs;
  const unsigned char *xb[2] = { x0, x1 };
  unsigned char *yb = y;

  /* Blocks of NF_EW_BLOCK, then a last one of a multiple of 16, on views
     of the arrays.  */
  size_t i = 0;
  while (i < n && (n - i >= NF_EW_BLOCK || (n - i) % 16 == 0))
    {
      size_t m = n - i < NF_EW_BLOCK ? n - i : NF_EW_BLOCK;
      for (int k = 0; k < 2; k++)
	if (p->xsize[k])
	  src[NF_EW_SRC_X0 + k] = (void *) (xb[k] + i * p->xsize[k]);
      void *yi = yb + i * p->ysize;
      void *out = ew_block (p, src, m, pl->ydirect ? yi : NULL);
      if (out != yi)
	memmove (yi, out, m * p->ysize);
      i += m;
    }
  /* The rest, fewer than NF_EW_BLOCK and not a multiple of 16: copied and
     padded.  */
  if (i < n)
    {
      size_t m = n - i, mr = (m + 15) & ~(size_t) 15;
      for (int k = 0; k < 2; k++)
	if (p->xsize[k])
	  {
	    src[NF_EW_SRC_X0 + k] = tail + k * bs;
	    ew_pad (tail + k * bs, xb[k] + i * p->xsize[k], p->xsize[k], m,
		    mr);
	  }
      void *out = ew_block (p, src, mr, NULL);
      memcpy (yb + i * p->ysize, out, m * p->ysize);
    }
}
