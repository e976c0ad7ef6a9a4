/* ewplan.h: libneuronfuse's internal form of an elementwise program (not
   installed): what elementwise.c decodes a program of ewprog.h into
   (struct nf_ew_code, once per distinct program: elementwise.c caches
   it), and what the block interpreter of ew-run-tmpl.h, compiled once
   per instruction set, runs (struct nf_ew_plan: a decoded program and
   one call's values of its scalars).

   A decoded program is a list of steps over blocks of at most
   NF_EW_BLOCK elements.  Each step reads and writes blocks named by a
   source index: a register slot (a block on the interpreter's stack), a
   constant slot (a block filled once per call with one PARAM's or
   CONST's value), or a view of the caller's inputs at the current block
   (x0, x1).  The decoding has already renamed the program's registers so
   that no step's destination is one of its operands: the step loops can
   take restrict pointers, which is what lets GCC vectorize them without
   run-time overlap checks.  Nothing in it depends on a call's arguments
   (the scalars s0..s3, whether y is x0 or x1): a decoded program serves
   every call of its program, from any thread.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EWPLAN_H
#define NF_EWPLAN_H

#include "ewprog.h"

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Elements per block.  A slot holds 256 doubles (2 KiB, or 256 floats):
   with 13 register slots, 8 constant slots and the tail's 2 at most, 46
   KiB of stack; what a program of a few registers touches stays in L1
   (measured against 128 and 512: elementwise.c).  A call on fewer
   elements than a block lays out slots of only its padded length.  */
#define NF_EW_BLOCK 256

/* Register slots: the program's registers plus one, enough for every
   step's result to go to a slot none of its operands is in (at most
   NF_EW_MAX_REGS values are live across an instruction).  */
#define NF_EW_SLOTS (NF_EW_MAX_REGS + 1)

/* Constant slots, filled once per call: the distinct PARAMs (by scalar
   and type: at most NF_EW_MAX_SCALARS x 2, so every PARAM has one), then
   the distinct CONST values (by type and bits) while slots remain;
   further CONSTs are FILL steps, filled per block.  */
#define NF_EW_CSLOTS 8

/* Source indices: register slots, constant slots, then the views.  */
enum
{
  NF_EW_SRC_CONST = NF_EW_SLOTS,
  NF_EW_SRC_X0 = NF_EW_SLOTS + NF_EW_CSLOTS,
  NF_EW_SRC_X1,
  NF_EW_NSRC
};

/* cparam of a CONST slot; ystep when no step computes the stored value.  */
#define NF_EW_NONE8 255

/* What a step does: an operation of ewprog.h in one type.  CMP's are
   in the order of enum nf_ew_cmp, F32 first.  */
enum nf_ew_kernel
{
  NF_EW_K_FILL_F32, /* d = imm, rounded to float already.  */
  NF_EW_K_FILL_F64,
  NF_EW_K_COPY_F32, /* d = a: STORE, and CONVERT to the same type.  */
  NF_EW_K_COPY_F64,
  NF_EW_K_ADD_F32,
  NF_EW_K_ADD_F64,
  NF_EW_K_SUB_F32,
  NF_EW_K_SUB_F64,
  NF_EW_K_MUL_F32,
  NF_EW_K_MUL_F64,
  NF_EW_K_DIV_F32,
  NF_EW_K_DIV_F64,
  NF_EW_K_NEG_F32,
  NF_EW_K_NEG_F64,
  NF_EW_K_ABS_F32,
  NF_EW_K_ABS_F64,
  NF_EW_K_MIN_F32,
  NF_EW_K_MIN_F64,
  NF_EW_K_MAX_F32,
  NF_EW_K_MAX_F64,
  NF_EW_K_SQRT_F32,
  NF_EW_K_SQRT_F64,
  NF_EW_K_CMP_F32, /* + predicate: LT LE GT GE EQ NE.  */
  NF_EW_K_CMP_F64 = NF_EW_K_CMP_F32 + 6,
  NF_EW_K_SELECT_F32 = NF_EW_K_CMP_F64 + 6,
  NF_EW_K_SELECT_F64,
  NF_EW_K_SELECT_BOOL,
  NF_EW_K_F32_TO_F64,
  NF_EW_K_F64_TO_F32,
  NF_EW_K_BOOL_TO_F32,
  NF_EW_K_BOOL_TO_F64,
  NF_EW_K_EXP_F32,
  NF_EW_K_EXP_F64,
  NF_EW_K_EXPM1_F32,
  NF_EW_K_EXPM1_F64,
  NF_EW_K_LOG_F32,
  NF_EW_K_LOG_F64,
  NF_EW_K_LOG1P_F32,
  NF_EW_K_LOG1P_F64,
  NF_EW_K_EXPM1_PZ_F32, /* expm1 (a) + 0: the _pz kernels.  */
  NF_EW_K_EXPM1_PZ_F64,
  NF_EW_K_LOG1P_PZ_F32,
  NF_EW_K_LOG1P_PZ_F64,
  NF_EW_K_SELCMP_F32, /* + predicate: d = (a PRED b) ? c : e.  */
  NF_EW_K_SELCMP_F64 = NF_EW_K_SELCMP_F32 + 6,
  NF_EW_K_COUNT_ = NF_EW_K_SELCMP_F64 + 6
};

/* One step: D = KERNEL (O[0], ...), each a source index.  */
struct nf_ew_step
{
  uint8_t kernel, d, o[4];
  double imm; /* FILL's value.  */
};

/* A BOOL register holds int32_t 0 or 1 per element: the width of a float
   lane, so that CMP and SELECT of floats vectorize without packing, and
   CONVERT to a float is one integer conversion.  */
typedef int32_t nf_ew_bool;

struct nf_ew_plan;

/* A decoded program: immutable once decoded, shared by every call of
   the program (elementwise.c's cache publishes it to all threads).  */
struct nf_ew_code
{
  unsigned nsteps;
  unsigned nslots;  /* Register slots used: 0..nslots-1.  */
  unsigned ncslots; /* Constant slots used.  */
  uint8_t xsize[2]; /* Bytes per element of x0, x1 (0: no input).  */
  uint8_t ysize;
  uint8_t ysrc; /* Where the stored value is after the steps.  */
  /* The step computing the stored value into register slot ysrc, or
     NF_EW_NONE8 (a view or a constant is stored).  A call may have that
     step write y directly instead of a last copy (nf_ew_plan's ydirect)
     unless y is an input that it or a later step reads: YMASK, the views
     those steps read (bit 0: x0, bit 1: x1).  */
  uint8_t ystep, ymask;
  uint8_t errno_kept; /* No step can set errno: no transcendental.  */
  uint8_t cf64[NF_EW_CSLOTS];   /* Constant slot I holds doubles.  */
  uint8_t cparam[NF_EW_CSLOTS]; /* Its PARAM's scalar, or NF_EW_NONE8.  */
  double cval[NF_EW_CSLOTS];	/* A CONST's value (rounded to float if
				   not cf64).  */
  /* The array kernels of the transcendental steps, from the dispatch
     table (fast ones under NF_EW_FLAG_FAST).  */
  void (*exp_f32) (float *, const float *, size_t);
  void (*expm1_f32) (float *, const float *, size_t);
  void (*log1p_f32) (float *, const float *, size_t);
  void (*expm1_f64) (double *, const double *, size_t);
  void (*log1p_f64) (double *, const double *, size_t);
  void (*expm1_pz_f32) (float *, const float *, size_t);
  void (*log1p_pz_f32) (float *, const float *, size_t);
  void (*expm1_pz_f64) (double *, const double *, size_t);
  void (*log1p_pz_f64) (double *, const double *, size_t);
  /* The interpreter of this instruction set (kernels.h's ew_run).  */
  void (*run) (const struct nf_ew_plan *, void *, const void *, const void *,
	       size_t);
  struct nf_ew_step step[NF_EW_MAX_INSNS];
};

/* One call's plan, on nf_elementwise's stack: the decoded program and
   the call's values.  */
struct nf_ew_plan
{
  const struct nf_ew_code *code;
  double cval[NF_EW_CSLOTS]; /* Every constant slot's value.  */
  unsigned ydirect; /* Code's ystep writes y, in the blocks that are
		       views of the caller's arrays.  */
};

#pragma GCC visibility pop

#endif /* NF_EWPLAN_H */
