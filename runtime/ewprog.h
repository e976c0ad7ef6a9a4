/* ewprog.h: the byte code of an elementwise program, the argument PROG of
   nf_elementwise (neuronfuse.h).  One definition for both sides: lower/
   encodes it (lower/ewprog.c, from a matched loop body), the runtime
   interprets it (runtime/elementwise.c).  Installed with neuronfuse.h
   only as documentation of PROG's bytes: programs are compiler output,
   not written by hand.

   Why a program.  An activation loop (ELU, SELU, softplus, tanh through
   exp, CELU, log-sigmoid) calls a transcendental per element among a few
   float operations.  Per-element calls (or GCC's per-vector clone calls)
   pay a call per 1 to 16 elements; the interpreter instead runs each
   instruction over a block of elements held in cache, the transcendental
   ones through the array kernels of the CPU's instruction set, so the
   loop runs at the kernels' speed at every -O level and -march (the
   vectorized-interpreter idea of numexpr).

   Layout (all multi-byte values little-endian):

     header, 8 bytes:
       [0] NF_EW_VERSION
       [1] number of instructions, 1..NF_EW_MAX_INSNS
       [2] number of registers, 1..NF_EW_MAX_REGS
       [3] flags: NF_EW_FLAG_FAST
       [4] number of constants, 0..NF_EW_MAX_CONSTS
       [5] the type of y (NF_EW_F32 or NF_EW_F64)
       [6] the type of x0, or NF_EW_NONE
       [7] the type of x1, or NF_EW_NONE
     instructions, 8 bytes each:
       [0] opcode (enum nf_ew_op)
       [1] type of the result (enum nf_ew_type); for CMP, BOOL
       [2] destination register
       [3] a   [4] b   [5] c    operand registers (unused: 0)
       [6] aux: LOAD the input (0: x0, 1: x1); PARAM the scalar
           argument (0..3: s0..s3); CONST the constant's index; CMP
           NF_EW_CMP_AUX (predicate, operand type); CONVERT the operand's type
       [7] 0
     constants, 8 bytes each: IEEE binary64.

   Semantics, for each i < n: registers are values of their type (BOOL:
   true or false); instructions run in order (a register is written
   before it is read; registers may be reused); the last instruction is
   the only STORE, y[i] = a.  Every float operation is the IEEE operation
   in its type, rounded to nearest, never contracted (no FMA), as C
   evaluates it with FLT_EVAL_METHOD 0:

     LOAD     r = x_aux[i]                       (the input's type)
     PARAM    r = (type) s_aux                   (s0..s3 are doubles)
     CONST    r = (type) const[aux]
     ADD SUB MUL DIV   r = a op b                (a, b, r of one type)
     NEG      r = -a
     ABS      r = fabs (a)
     MIN MAX  r = fmin (a, b), fmax (a, b): a NaN operand gives the other
              (either zero for -0 and +0)
     SQRT     r = sqrt (a)
     CMP      r = a PRED b, C's comparison of a and b (both of the type
              in aux's high nibble, the predicate in its low one:
              NF_EW_CMP_AUX): false if a or b is NaN, except NE, true
     SELECT   r = a (a register of type BOOL) ? b : c
     CONVERT  r = (type) a, a of type aux: BOOL to a float gives 1 or 0;
              F32 <-> F64 rounds to nearest
     EXPM1 LOG1P  r = f (a) within the array kernels' bounds (f32: 0.5
              ulp + 2^-20 ulp; f64: 1 ulp); with NF_EW_FLAG_FAST, f32 ones
              may be the fast kernels', within 1 ulp.  exp (-0) - 1 is +0, expm1 (-0) -0:
              the encoder adds the ADD of +0 that keeps the loop's zero
     EXP      f32: within 0.5 ulp + 2^-20 ulp (nf_expf's bound); f64: as
              accurate as glibc's exp
     LOG      as accurate as glibc's logf, log
     STORE    y[i] = a                           (type: y's)

   errno is never set; floating-point exception flags are not promised
   (an operation may raise a flag for an element whose value a SELECT
   then discards).  y may be x0 or x1 exactly (in place); any other
   overlap is the caller's problem.  A program that breaks this layout is
   a compiler bug: nf_elementwise reports it on stderr and aborts.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#ifndef NF_EWPROG_H
#define NF_EWPROG_H

#define NF_EW_VERSION 1
#define NF_EW_HEADER 8
#define NF_EW_INSN 8
#define NF_EW_MAX_INSNS 48
#define NF_EW_MAX_REGS 12
#define NF_EW_MAX_CONSTS 16
#define NF_EW_MAX_INPUTS 2
#define NF_EW_MAX_SCALARS 4

/* Header byte 3.  */
#define NF_EW_FLAG_FAST 1

enum nf_ew_type
{
  NF_EW_F32 = 0,
  NF_EW_F64 = 1,
  NF_EW_BOOL = 2,
  NF_EW_NONE = 255
};

enum nf_ew_op
{
  NF_EW_LOAD = 1,
  NF_EW_PARAM,
  NF_EW_CONST,
  NF_EW_ADD,
  NF_EW_SUB,
  NF_EW_MUL,
  NF_EW_DIV,
  NF_EW_NEG,
  NF_EW_ABS,
  NF_EW_MIN,
  NF_EW_MAX,
  NF_EW_SQRT,
  NF_EW_CMP,
  NF_EW_SELECT,
  NF_EW_CONVERT,
  NF_EW_EXP,
  NF_EW_EXPM1,
  NF_EW_LOG,
  NF_EW_LOG1P,
  NF_EW_STORE,
  NF_EW_OP_COUNT_
};

/* CMP's predicate, C's operators.  */
enum nf_ew_cmp
{
  NF_EW_LT,
  NF_EW_LE,
  NF_EW_GT,
  NF_EW_GE,
  NF_EW_EQ,
  NF_EW_NE
};

/* CMP's aux byte: the predicate in the low nibble, the operands' type
   (NF_EW_F32 or NF_EW_F64) in the high one.  */
#define NF_EW_CMP_AUX(pred, type) ((unsigned) (pred) | ((unsigned) (type) << 4))
#define NF_EW_CMP_PRED(aux) ((aux) & 15u)
#define NF_EW_CMP_TYPE(aux) ((aux) >> 4)

#endif /* NF_EWPROG_H */
