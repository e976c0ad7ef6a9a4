/* elementwise.c: nf_elementwise, the interpreter of the elementwise
   programs of ewprog.h: its entry point, the check of a program and its
   decoding into a plan (ewplan.h), which the block interpreter of this
   CPU's instruction set (ew-run-tmpl.h, through the dispatch table)
   then runs.

   Why an interpreter.  A fused activation loop (ELU, SELU, softplus,
   ...) is a few float operations around one or two transcendental
   functions per element.  Compiled, it calls the function per element
   (or per vector of GCC's clones); interpreted, each instruction runs
   over a block of NF_EW_BLOCK elements, the transcendentals through the
   array kernels of the CPU's best instruction set and the other
   operations as loops GCC vectorizes for it, so the loop runs at about
   the kernels' speed whatever -O and -march the user built with
   (numexpr's idea).  The price is a pass over the block per instruction,
   cheap while the block stays in L1.

   Steps of a call:
   1. Check the whole program (check_program): the header's ranges, each
      instruction's opcode, types, registers and aux byte, and, by
      following the type of each register through the program, that
      every register read was written before with the type the operation
      takes.  Any break of ewprog.h's layout is a compiler bug: a message
      on stderr, then abort ().  n == 0 returns after the check.
   2. Decode (plan_program): drop the instructions whose results nothing
      stored depends on; make each LOAD a view of its input (no copy);
      fuse two patterns, each saving a pass over the block: expm1 (u) + 0
      and log1p (u) + 0 (the encoder's way of keeping exp (u) - 1's +0)
      become the _pz kernel, and a SELECT of a CMP nothing else reads one
      step; give the distinct PARAM and CONST values constant slots,
      filled once per call; give every other result a register slot by
      a linear scan over the values' lifetimes, the lowest slot free at
      that instruction, so that a result never goes to a slot one of its
      operands is in (the step loops take restrict pointers) and at most
      NF_EW_MAX_REGS + 1 slots are used; pick the array kernels of the
      transcendentals (the fast f32 ones under NF_EW_FLAG_FAST); and,
      when y cannot be one of the arrays read after it (in place, y ==
      x0 or x1 is allowed), let the step that computes the stored value
      write y directly instead of a last copy.
   3. Run the plan through the dispatch table (ew_run): blocks of
      NF_EW_BLOCK elements, a tail padded to a multiple of 16
      (ew-run-tmpl.h).
      errno is saved before and restored after: the libm calls of f32
      LOG and f64 EXP and LOG may set it, the interpreter never does.

   Block size: measured on the ELU program over 4096 (16384) floats in
   cache, AVX-512 on Zen 4: 128 elements 0.66 (0.63) ns per element, 256
   0.64 (0.61), 512 0.67 (0.64); the expm1 kernel alone 0.47.  256 also
   bounds the stack at 49 KiB (6 to 10 KiB for the usual programs).

   Cost of a call beyond the blocks: the check and the plan, about 0.14
   us for the 9 instructions of ELU (0.035 ns per element of 4096); a
   call on a few elements costs that much whatever n.

   Limitations: no threads (a big n runs on the caller's thread); no
   cache of plans (a program is checked and decoded on every call);
   CONVERT to BOOL is not in ewprog.h and rejected; the aux byte of
   operations that have none, and STORE's destination, are not checked.

   SPDX-License-Identifier: MIT
   Copyright (c) 2026 The neuronfuse developers.  */

#include "kernels.h"
#include "ewplan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report a bad program, FMT and its arguments saying what is wrong, on
   stderr and abort: never returns.  */
static void __attribute__ ((noreturn, cold, format (printf, 1, 2)))
bad_program (const char *fmt, ...)
{
  char why[160];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  fprintf (stderr,
	   "libneuronfuse: internal error: bad elementwise program (%s)\n",
	   why);
  abort ();
}

/* The number of operand registers of opcode OP (a valid one).  */
static unsigned
operand_count (unsigned op)
{
  switch (op)
    {
    case NF_EW_LOAD:
    case NF_EW_PARAM:
    case NF_EW_CONST:
      return 0;
    case NF_EW_ADD:
    case NF_EW_SUB:
    case NF_EW_MUL:
    case NF_EW_DIV:
    case NF_EW_MIN:
    case NF_EW_MAX:
    case NF_EW_CMP:
      return 2;
    case NF_EW_SELECT:
      return 3;
    default:
      return 1;
    }
}

static int
is_float_type (unsigned t)
{
  return t == NF_EW_F32 || t == NF_EW_F64;
}

/* Check PROG against ewprog.h (step 1); abort on the first break.  */
static void
check_program (const unsigned char *prog)
{
  const unsigned char *h = prog;
  if (h[0] != NF_EW_VERSION)
    bad_program ("version %u, not %u", h[0], NF_EW_VERSION);
  unsigned ninsns = h[1], nregs = h[2], flags = h[3], nconsts = h[4];
  if (ninsns < 1 || ninsns > NF_EW_MAX_INSNS)
    bad_program ("%u instructions", ninsns);
  if (nregs < 1 || nregs > NF_EW_MAX_REGS)
    bad_program ("%u registers", nregs);
  if (flags & ~(unsigned) NF_EW_FLAG_FAST)
    bad_program ("flags %#x", flags);
  if (nconsts > NF_EW_MAX_CONSTS)
    bad_program ("%u constants", nconsts);
  if (!is_float_type (h[5]))
    bad_program ("type %u of y", h[5]);
  for (int k = 0; k < NF_EW_MAX_INPUTS; k++)
    if (!is_float_type (h[6 + k]) && h[6 + k] != NF_EW_NONE)
      bad_program ("type %u of x%d", h[6 + k], k);

  /* The type of each register's value, NF_EW_NONE until written.  */
  unsigned char rtype[NF_EW_MAX_REGS];
  memset (rtype, NF_EW_NONE, sizeof rtype);
  for (unsigned k = 0; k < ninsns; k++)
    {
      const unsigned char *in = prog + NF_EW_HEADER + k * NF_EW_INSN;
      unsigned op = in[0], type = in[1], d = in[2], aux = in[6];
      if (op < NF_EW_LOAD || op >= NF_EW_OP_COUNT_)
	bad_program ("insn %u: opcode %u", k, op);
      if (in[7] != 0)
	bad_program ("insn %u: byte 7 is %u", k, in[7]);
      if ((op == NF_EW_STORE) != (k == ninsns - 1))
	bad_program ("insn %u: %s", k,
		     op == NF_EW_STORE ? "STORE before the end"
				       : "the last is not a STORE");
      unsigned nops = operand_count (op);
      for (unsigned j = nops; j < 3; j++)
	if (in[3 + j] != 0)
	  bad_program ("insn %u: unused operand %u is %u", k, j, in[3 + j]);
      for (unsigned j = 0; j < nops; j++)
	{
	  if (in[3 + j] >= nregs)
	    bad_program ("insn %u: operand r%u of %u registers", k, in[3 + j],
			 nregs);
	  if (rtype[in[3 + j]] == NF_EW_NONE)
	    bad_program ("insn %u: r%u read before written", k, in[3 + j]);
	}
      if (op != NF_EW_STORE && d >= nregs)
	bad_program ("insn %u: destination r%u of %u registers", k, d, nregs);

      /* The operands' types: all TYPE unless said otherwise; WANT_A for
	 a's (SELECT's condition, CMP's and CONVERT's operand).  */
      unsigned want = type, want_a = type;
      int type_ok = is_float_type (type);
      switch (op)
	{
	case NF_EW_LOAD:
	  if (aux >= NF_EW_MAX_INPUTS || h[6 + aux] == NF_EW_NONE)
	    bad_program ("insn %u: LOAD of input %u, absent", k, aux);
	  type_ok = type == h[6 + aux];
	  break;
	case NF_EW_PARAM:
	  if (aux >= NF_EW_MAX_SCALARS)
	    bad_program ("insn %u: PARAM s%u", k, aux);
	  break;
	case NF_EW_CONST:
	  if (aux >= nconsts)
	    bad_program ("insn %u: CONST %u of %u", k, aux, nconsts);
	  break;
	case NF_EW_CMP:
	  if (NF_EW_CMP_PRED (aux) > NF_EW_NE
	      || !is_float_type (NF_EW_CMP_TYPE (aux)))
	    bad_program ("insn %u: CMP aux %#x", k, aux);
	  type_ok = type == NF_EW_BOOL;
	  want = want_a = NF_EW_CMP_TYPE (aux);
	  break;
	case NF_EW_SELECT:
	  type_ok = type_ok || type == NF_EW_BOOL;
	  want_a = NF_EW_BOOL;
	  break;
	case NF_EW_CONVERT:
	  if (!is_float_type (aux) && aux != NF_EW_BOOL)
	    bad_program ("insn %u: CONVERT from type %u", k, aux);
	  want_a = aux;
	  break;
	case NF_EW_STORE:
	  type_ok = type == h[5];
	  break;
	default:
	  break;
	}
      if (!type_ok)
	bad_program ("insn %u: opcode %u of type %u", k, op, type);
      for (unsigned j = 0; j < nops; j++)
	{
	  unsigned t = rtype[in[3 + j]], w = j == 0 ? want_a : want;
	  if (t != w)
	    bad_program ("insn %u: operand r%u of type %u, not %u", k,
			 in[3 + j], t, w);
	}
      if (op != NF_EW_STORE)
	rtype[d] = (unsigned char) type;
    }
}

/* Return the constant I of PROG (NINSNS instructions): 8 bytes,
   little-endian IEEE binary64.  */
static double
program_const (const unsigned char *prog, unsigned ninsns, unsigned i)
{
  const unsigned char *p = prog + NF_EW_HEADER + ninsns * NF_EW_INSN + i * 8;
  uint64_t u = 0;
  for (int b = 7; b >= 0; b--)
    u = u << 8 | p[b];
  double v;
  memcpy (&v, &u, sizeof v);
  return v;
}

/* The step kernel of instruction IN (checked), and its source of type
   SRC_TYPE for CONVERT.  */
static unsigned
step_kernel (const unsigned char *in)
{
  unsigned op = in[0], f64 = in[1] == NF_EW_F64, aux = in[6];
  switch (op)
    {
    case NF_EW_ADD:
      return NF_EW_K_ADD_F32 + f64;
    case NF_EW_SUB:
      return NF_EW_K_SUB_F32 + f64;
    case NF_EW_MUL:
      return NF_EW_K_MUL_F32 + f64;
    case NF_EW_DIV:
      return NF_EW_K_DIV_F32 + f64;
    case NF_EW_NEG:
      return NF_EW_K_NEG_F32 + f64;
    case NF_EW_ABS:
      return NF_EW_K_ABS_F32 + f64;
    case NF_EW_MIN:
      return NF_EW_K_MIN_F32 + f64;
    case NF_EW_MAX:
      return NF_EW_K_MAX_F32 + f64;
    case NF_EW_SQRT:
      return NF_EW_K_SQRT_F32 + f64;
    case NF_EW_CMP:
      return (NF_EW_CMP_TYPE (aux) == NF_EW_F64 ? NF_EW_K_CMP_F64
						: NF_EW_K_CMP_F32)
	     + NF_EW_CMP_PRED (aux);
    case NF_EW_SELECT:
      return in[1] == NF_EW_BOOL ? NF_EW_K_SELECT_BOOL
				 : NF_EW_K_SELECT_F32 + f64;
    case NF_EW_CONVERT:
      if (aux == NF_EW_BOOL)
	return NF_EW_K_BOOL_TO_F32 + f64;
      if (aux == in[1])
	return NF_EW_K_COPY_F32 + f64;
      return f64 ? NF_EW_K_F32_TO_F64 : NF_EW_K_F64_TO_F32;
    case NF_EW_EXP:
      return NF_EW_K_EXP_F32 + f64;
    case NF_EW_EXPM1:
      return NF_EW_K_EXPM1_F32 + f64;
    case NF_EW_LOG:
      return NF_EW_K_LOG_F32 + f64;
    case NF_EW_LOG1P:
      return NF_EW_K_LOG1P_F32 + f64;
    default: /* PARAM and CONST not hoisted.  */
      return NF_EW_K_FILL_F32 + f64;
    }
}

/* The value of a PARAM or CONST instruction IN of PROG (NINSNS
   instructions), rounded to its type, the scalars at S.  */
static double
imm_value (const unsigned char *prog, unsigned ninsns, const unsigned char *in,
	   const double *s)
{
  double v
    = in[0] == NF_EW_PARAM ? s[in[6]] : program_const (prog, ninsns, in[6]);
  return in[1] == NF_EW_F64 ? v : (double) (float) v;
}

/* Decode PROG (checked) into P for a call with Y, X0, X1 and the
   scalars S[0..3] (step 2).  Values are named by the instruction that
   computes them; OPV[k] are the values instruction k reads (up to four
   once a CMP is fused into its SELECT), KERN[k] its step kernel.  */
static void
plan_program (struct nf_ew_plan *p, const unsigned char *prog, void *y,
	      const void *x0, const void *x1, const double *s)
{
  unsigned ninsns = prog[1], st_k = ninsns - 1;
  int fast = prog[3] & NF_EW_FLAG_FAST;
  const unsigned char *ins = prog + NF_EW_HEADER;
#define INSN(k) (ins + (k) *NF_EW_INSN)

  unsigned char opv[NF_EW_MAX_INSNS][4], nop[NF_EW_MAX_INSNS];
  unsigned char kern[NF_EW_MAX_INSNS], cur[NF_EW_MAX_REGS] = { 0 };
  unsigned char nread[NF_EW_MAX_INSNS];
  uint64_t gone = 0, live; /* One bit per instruction.  */
  for (unsigned k = 0; k < ninsns; k++)
    {
      const unsigned char *in = INSN (k);
      nread[k] = 0; /* (K's operands are earlier values: checked.)  */
      nop[k] = (unsigned char) operand_count (in[0]);
      for (unsigned j = 0; j < nop[k]; j++)
	opv[k][j] = cur[in[3 + j]], nread[cur[in[3 + j]]]++;
      kern[k] = (unsigned char) step_kernel (in);
      cur[in[2]] = (unsigned char) k;
    }

  /* Peepholes, each saving a pass over the block:
     - expm1 (u) + 0 and log1p (u) + 0 (how the encoder keeps the +0 of
       exp (u) - 1 and log (1 + u)): the _pz kernel, where expm1 (u) has
       no other reader (there is no fast _pz kernel);
     - SELECT of a CMP of its own type that nothing else reads: one
       step, the comparison inside the select's loop.
     A replaced instruction is GONE; its readers read REPL instead.  */
  unsigned char repl[NF_EW_MAX_INSNS];
  for (unsigned k = 0; k < ninsns; k++)
    {
      repl[k] = (unsigned char) k;
      for (unsigned j = 0; j < nop[k]; j++)
	opv[k][j] = repl[opv[k][j]];
      const unsigned char *in = INSN (k);
      if (in[0] == NF_EW_ADD && !(fast && in[1] == NF_EW_F32))
	for (unsigned j = 0; j < 2; j++)
	  {
	    unsigned u = opv[k][j], z = opv[k][1 - j];
	    unsigned uop = INSN (u)[0], zop = INSN (z)[0];
	    if ((uop != NF_EW_EXPM1 && uop != NF_EW_LOG1P) || nread[u] != 1
		|| (zop != NF_EW_PARAM && zop != NF_EW_CONST))
	      continue;
	    double zv = imm_value (prog, ninsns, INSN (z), s);
	    uint64_t zb;
	    memcpy (&zb, &zv, sizeof zb);
	    if (zb != 0) /* +0.0 only.  */
	      continue;
	    kern[u]
	      = (unsigned char) ((uop == NF_EW_EXPM1 ? NF_EW_K_EXPM1_PZ_F32
						     : NF_EW_K_LOG1P_PZ_F32)
				 + (in[1] == NF_EW_F64));
	    nread[z]--;
	    nread[u] = nread[k]; /* K's readers now read U.  */
	    gone |= (uint64_t) 1 << k, repl[k] = (unsigned char) u;
	    break;
	  }
      unsigned c = opv[k][0];
      if (in[0] == NF_EW_SELECT && in[1] != NF_EW_BOOL
	  && INSN (c)[0] == NF_EW_CMP && nread[c] == 1
	  && NF_EW_CMP_TYPE (INSN (c)[6]) == in[1])
	{
	  kern[k] = (unsigned char) ((in[1] == NF_EW_F64 ? NF_EW_K_SELCMP_F64
							 : NF_EW_K_SELCMP_F32)
				     + NF_EW_CMP_PRED (INSN (c)[6]));
	  opv[k][3] = opv[k][2], opv[k][2] = opv[k][1];
	  opv[k][0] = opv[c][0], opv[k][1] = opv[c][1];
	  nop[k] = 4;
	  gone |= (uint64_t) 1 << c;
	}
    }

  /* Liveness, backwards from the STORE; LAST[v]: the last live reader
     of value v.  */
  unsigned char last[NF_EW_MAX_INSNS];
  live = (uint64_t) 1 << st_k;
  for (unsigned k = ninsns; k-- > 0;)
    if (live >> k & 1)
      for (unsigned j = 0; j < nop[k]; j++)
	if (!(live >> opv[k][j] & 1))
	  live |= (uint64_t) 1 << opv[k][j],
	    last[opv[k][j]] = (unsigned char) k;
  live &= ~gone;

  p->nslots = p->ncslots = 0;
  for (int k = 0; k < NF_EW_MAX_INPUTS; k++)
    p->xsize[k] = prog[6 + k] == NF_EW_F64   ? 8
		  : prog[6 + k] == NF_EW_F32 ? 4
					     : 0;
  p->ysize = prog[5] == NF_EW_F64 ? 8 : 4;

  /* SRC[v]: where value v is; STEP_OF[v]: the step computing it, if
     any.  AVAIL: the register slots free now, one bit each.  */
  unsigned char src[NF_EW_MAX_INSNS], step_of[NF_EW_MAX_INSNS];
  uint32_t avail = (1u << NF_EW_SLOTS) - 1;
  unsigned n = 0;
  for (unsigned k = 0; k < st_k; k++)
    {
      if (!(live >> k & 1))
	continue;
      const unsigned char *in = INSN (k);
      unsigned op = in[0], f64 = in[1] == NF_EW_F64;
      if (op == NF_EW_LOAD)
	{
	  src[k] = (unsigned char) (NF_EW_SRC_X0 + in[6]);
	  continue;
	}
      double imm = 0;
      if (op == NF_EW_PARAM || op == NF_EW_CONST)
	{
	  imm = imm_value (prog, ninsns, in, s);
	  unsigned c = 0;
	  while (c < p->ncslots
		 && !(p->cf64[c] == f64
		      && memcmp (&p->cval[c], &imm, sizeof imm) == 0))
	    c++;
	  if (c < NF_EW_CSLOTS)
	    {
	      if (c == p->ncslots)
		p->cf64[c] = (uint8_t) f64, p->cval[c] = imm, p->ncslots++;
	      src[k] = (unsigned char) (NF_EW_SRC_CONST + c);
	      continue;
	    }
	}
      struct nf_ew_step *st = &p->step[n];
      *st = (struct nf_ew_step){ 0 };
      st->kernel = kern[k];
      st->imm = imm;
      for (unsigned j = 0; j < nop[k]; j++)
	st->o[j] = src[opv[k][j]];
      /* The lowest free slot: never an operand's, which are taken.  */
      unsigned slot = (unsigned) __builtin_ctz (avail);
      avail &= ~(1u << slot);
      st->d = (uint8_t) slot;
      if (slot + 1 > p->nslots)
	p->nslots = slot + 1;
      src[k] = (unsigned char) slot;
      step_of[k] = (unsigned char) n++;
      for (unsigned j = 0; j < nop[k]; j++)
	if (last[opv[k][j]] == k && src[opv[k][j]] < NF_EW_SLOTS)
	  avail |= 1u << src[opv[k][j]];
    }

  /* The STORE: Y is written by the step computing the stored value V if
     no step from it on reads an input that is y itself.  */
  unsigned v = opv[st_k][0];
  p->ysrc = src[v];
  if (src[v] < NF_EW_SLOTS)
    {
      unsigned alias = 0; /* The views that are y, one bit each.  */
      if (p->xsize[0] && x0 == y)
	alias |= 1u << (NF_EW_SRC_X0 - NF_EW_SRC_X0);
      if (p->xsize[1] && x1 == y)
	alias |= 1u << (NF_EW_SRC_X1 - NF_EW_SRC_X0);
      int ok = 1;
      for (unsigned i = step_of[v]; i < n; i++)
	for (unsigned j = 0; j < 4; j++)
	  {
	    unsigned o = p->step[i].o[j];
	    if (o >= NF_EW_SRC_X0 && o <= NF_EW_SRC_X1
		&& (alias >> (o - NF_EW_SRC_X0) & 1))
	      ok = 0;
	  }
      if (ok)
	{
	  /* Only V is in its slot until the STORE: the later steps that
	     read the slot read V, now in y.  */
	  unsigned slot = src[v];
	  p->step[step_of[v]].d = NF_EW_SRC_Y;
	  for (unsigned i = step_of[v] + 1; i < n; i++)
	    for (unsigned j = 0; j < 4; j++)
	      if (p->step[i].o[j] == slot)
		p->step[i].o[j] = NF_EW_SRC_Y;
	  p->ysrc = NF_EW_SRC_Y;
	}
    }
  p->nsteps = n;

  const struct nf_functable *t = nf_functable ();
#define NF_EW_ENTRY(name) __atomic_load_n (&t->name, __ATOMIC_RELAXED)
  p->exp_f32 = NF_EW_ENTRY (exp_f32);
  p->expm1_f32 = fast ? NF_EW_ENTRY (expm1_fast_f32) : NF_EW_ENTRY (expm1_f32);
  p->log1p_f32 = fast ? NF_EW_ENTRY (log1p_fast_f32) : NF_EW_ENTRY (log1p_f32);
  p->expm1_f64 = NF_EW_ENTRY (expm1_f64);
  p->log1p_f64 = NF_EW_ENTRY (log1p_f64);
  p->expm1_pz_f32 = NF_EW_ENTRY (expm1_pz_f32);
  p->log1p_pz_f32 = NF_EW_ENTRY (log1p_pz_f32);
  p->expm1_pz_f64 = NF_EW_ENTRY (expm1_pz_f64);
  p->log1p_pz_f64 = NF_EW_ENTRY (log1p_pz_f64);
  p->run = NF_EW_ENTRY (ew_run);
#undef NF_EW_ENTRY
#undef INSN
}

void
nf_elementwise (void *y, const void *x0, const void *x1, size_t n,
		const unsigned char *prog, double s0, double s1, double s2,
		double s3)
{
  check_program (prog);
  if (n == 0)
    return;
  const double s[NF_EW_MAX_SCALARS] = { s0, s1, s2, s3 };
  struct nf_ew_plan plan;
  plan_program (&plan, prog, y, x0, x1, s);
  int saved = errno;
  plan.run (&plan, y, x0, x1, n);
  errno = saved;
}
