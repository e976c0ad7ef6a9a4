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
   0. Look the program up in the cache of decoded programs (cache_find):
      a hit is an entry made at the same address whose copy of the
      program's bytes is the program's bytes now (compared in full, 8
      bytes at a time: 88 bytes for ELU), and skips steps 1 and 2.  Only
      the bytes make a hit: a program rewritten in place, or another one
      at the address of an unloaded library's, is a miss, never a wrong
      plan.
   1. On a miss, check the whole program (check_program): the header's
      ranges, each instruction's opcode, types, registers and aux byte,
      and, by following the type of each register through the program,
      that every register read was written before with the type the
      operation takes.  Any break of ewprog.h's layout is a compiler
      bug: a message on stderr, then abort ().  n == 0 returns after
      the check (or after a hit: a cached program passed it).
   2. Decode (plan_program) a copy of the bytes into a new entry, which
      nothing about the call enters (not the scalars, not y's address),
      so that it serves every later call: drop the instructions whose
      results nothing stored depends on; make each LOAD a view of its
      input (no copy); fuse two patterns, each saving a pass over the
      block: expm1 (u) + 0 and log1p (u) + 0 with a CONST +0 (the
      encoder's way of keeping exp (u) - 1's +0) become the _pz kernel,
      and a SELECT of a CMP nothing else reads one step; give the PARAMs
      (one per scalar and type: at most 8, all fit) and then the
      distinct CONST values constant slots, filled once per call; give
      every other result a register slot by a linear scan over the
      values' lifetimes, the lowest slot free at that instruction, so
      that a result never goes to a slot one of its operands is in (the
      step loops take restrict pointers) and at most NF_EW_MAX_REGS + 1
      slots are used; pick the array kernels of the transcendentals (the
      fast f32 ones under NF_EW_FLAG_FAST); and note the step computing
      the stored value and the inputs it reads, so that a call whose y
      is none of them (in place, y == x0 or x1, is allowed otherwise)
      has it write y directly instead of a last copy.  Then publish the
      entry (cache_publish).
   3. Run (run_code): the call's plan on the stack (the decoded program,
      the constant slots' values with the call's scalars, whether y is
      written directly), through the interpreter of the dispatch table
      (ew_run): blocks of NF_EW_BLOCK elements, a last one of a multiple
      of 16 also on the caller's arrays, else padded (ew-run-tmpl.h).
      errno is saved before and restored after when the program has a
      transcendental step: the libm calls of f32 LOG and f64 EXP and
      LOG, and the generic array kernels (libm's expm1 and log1p), may
      set it; the interpreter itself never does.

   The cache: a table of EW_CACHE_SLOTS pointers, a program's entry in
   one of the EW_CACHE_WAYS slots from a hash of its address, the first
   free one.  An entry (malloc'd: the address, a copy of the bytes, the
   decoded program) is complete before a CAS publishes it into a free
   slot (release; the lookup's loads acquire), and never changes after:
   the hit path takes no lock and writes nothing shared.  Two threads
   missing the same program both decode it; one CAS wins, the other
   frees its entry after its call.  When the program's ways are all
   taken (more than EW_CACHE_SLOTS programs, or stale entries of
   rewritten buffers or unloaded libraries), or malloc fails, the
   program is decoded on the stack for the call alone: correct, at the
   old cost.  Entries are never freed (bounded: EW_CACHE_SLOTS of at
   most 1.5 KiB): a stale one is only a slot that no call finds again.

   Block size: measured on the ELU program over 4096 (16384) floats in
   cache, AVX-512 on Zen 4: 128 elements 0.66 (0.63) ns per element, 256
   0.64 (0.61), 512 0.67 (0.64); the expm1 kernel alone 0.47.  256 also
   bounds the stack at 47 KiB (6 to 10 KiB for the usual programs; a
   call on fewer elements lays out slots only as long as it needs).

   Cost of a call beyond the blocks (ELU f32, AVX-512, Zen 4, the fastest
   of 41 interleaved samples, ns per call, then the plain -O2 loop):

     n            1     4    16    32    64   128   256  1024
     uncached   170   168   152   161   180   220   290   749
     cached      48    47    37    44    67   100   180   643
     loop -O2     5    11    35    60   118   233   462  1831

   The check and the decoding were about 0.11 us of the old cost (72% of
   a short call's profile); what remains at n = 16 is the lookup and the
   call's plan (5 ns), the interpreter's setup and step dispatch (15
   ns), the expm1 kernel on 16 elements (12 ns) and the other steps.  A
   padded last block (n below 256 and not a multiple of 16) costs about
   10 ns more.  The program overtakes the loop between n = 16 and 32.

   Limitations: no threads (a big n runs on the caller's thread); the
   cache knows a program by its address first (the same bytes at two
   addresses are two entries; a buffer rewritten with many programs
   fills its ways with them); CONVERT to BOOL is not in ewprog.h and
   rejected; the aux byte of operations that have none, and STORE's
   destination, are not checked.

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

/* The value of a CONST instruction IN of PROG (NINSNS instructions),
   rounded to its type.  */
static double
const_value (const unsigned char *prog, unsigned ninsns,
	     const unsigned char *in)
{
  double v = program_const (prog, ninsns, in[6]);
  return in[1] == NF_EW_F64 ? v : (double) (float) v;
}

/* Decode PROG (checked) into P (step 2), for every call: nothing here
   depends on a call's arguments.  Values are named by the instruction
   that computes them; OPV[k] are the values instruction k reads (up to
   four once a CMP is fused into its SELECT), KERN[k] its step kernel.  */
static void
plan_program (struct nf_ew_code *p, const unsigned char *prog)
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
       no other reader (there is no fast _pz kernel) and 0 is a CONST (a
       PARAM's value is the call's: not known here);
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
		|| zop != NF_EW_CONST)
	      continue;
	    double zv = const_value (prog, ninsns, INSN (z));
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

  /* The constant slots: first the live PARAMs, one per scalar and type
     (at most NF_EW_CSLOTS: all fit), their values the call's; then the
     live CONSTs, one per type and value, while slots remain.  CSLOT[v]:
     value v's slot, NF_EW_NONE8 for a CONST filled by a step.  */
  unsigned char cslot[NF_EW_MAX_INSNS];
  for (int pass = 0; pass < 2; pass++)
    for (unsigned k = 0; k < st_k; k++)
      {
	const unsigned char *in = INSN (k);
	unsigned op = in[0], f64 = in[1] == NF_EW_F64, c = 0;
	if (!(live >> k & 1) || op != (pass ? NF_EW_CONST : NF_EW_PARAM))
	  continue;
	double v = pass ? const_value (prog, ninsns, in) : 0;
	unsigned par = pass ? NF_EW_NONE8 : in[6];
	while (c < p->ncslots
	       && !(p->cf64[c] == f64 && p->cparam[c] == par
		    && memcmp (&p->cval[c], &v, sizeof v) == 0))
	  c++;
	if (c == p->ncslots && c < NF_EW_CSLOTS)
	  p->cf64[c] = (uint8_t) f64, p->cparam[c] = (uint8_t) par,
	  p->cval[c] = v, p->ncslots++;
	cslot[k] = (unsigned char) (c < NF_EW_CSLOTS ? c : NF_EW_NONE8);
      }

  /* SRC[v]: where value v is; STEP_OF[v]: the step computing it, if
     any.  AVAIL: the register slots free now, one bit each.  */
  unsigned char src[NF_EW_MAX_INSNS] = { 0 }, step_of[NF_EW_MAX_INSNS] = { 0 };
  uint32_t avail = (1u << NF_EW_SLOTS) - 1;
  unsigned n = 0;
  for (unsigned k = 0; k < st_k; k++)
    {
      if (!(live >> k & 1))
	continue;
      const unsigned char *in = INSN (k);
      unsigned op = in[0];
      if (op == NF_EW_LOAD)
	{
	  src[k] = (unsigned char) (NF_EW_SRC_X0 + in[6]);
	  continue;
	}
      if ((op == NF_EW_PARAM || op == NF_EW_CONST) && cslot[k] != NF_EW_NONE8)
	{
	  src[k] = (unsigned char) (NF_EW_SRC_CONST + cslot[k]);
	  continue;
	}
      /* (A PARAM always has a slot: a FILL step is a CONST's.)  */
      double imm = op == NF_EW_CONST ? const_value (prog, ninsns, in) : 0;
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

  /* The STORE: the step computing the stored value V may write y itself
     unless a step from it on reads an input that is y: YMASK, the inputs
     they read, for each call to compare with its y (in place, y == x0 or
     x1, is allowed).  Only V is in its slot until the STORE, so the later
     steps that read the slot read V, then in y.  */
  unsigned v = opv[st_k][0];
  p->ysrc = src[v];
  p->ystep = NF_EW_NONE8;
  p->ymask = 0;
  if (src[v] < NF_EW_SLOTS)
    {
      p->ystep = step_of[v];
      for (unsigned i = step_of[v]; i < n; i++)
	for (unsigned j = 0; j < 4; j++)
	  {
	    unsigned o = p->step[i].o[j];
	    if (o >= NF_EW_SRC_X0 && o <= NF_EW_SRC_X1)
	      p->ymask |= (uint8_t) (1u << (o - NF_EW_SRC_X0));
	  }
    }
  p->nsteps = n;
  /* errno: the libm loops may set it, and so may the array kernels (the
     generic ones call libm's expm1 and log1p); only a program without a
     transcendental step leaves it alone.  */
  p->errno_kept = 1;
  for (unsigned i = 0; i < n; i++)
    {
      unsigned kk = p->step[i].kernel;
      if (kk >= NF_EW_K_EXP_F32 && kk <= NF_EW_K_LOG1P_PZ_F64)
	p->errno_kept = 0;
    }

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

/* The cache of decoded programs (step 0).  A slot holds a published
   entry or NULL; an entry is never changed after it is published, nor
   freed (at most EW_CACHE_SLOTS of them, 1 to 1.5 KiB each, for the
   life of the process).  */
#define EW_CACHE_BITS 7
#define EW_CACHE_SLOTS (1u << EW_CACHE_BITS)
#define EW_CACHE_WAYS 8 /* The slots an entry may be in.  */

struct ew_entry
{
  const unsigned char *key; /* The address of the program, as called.  */
  size_t len;		    /* Its bytes, a multiple of 8.  */
  struct nf_ew_code code;
  unsigned char bytes[]; /* A copy of them, the program decoded.  */
};

static struct ew_entry *ew_cache[EW_CACHE_SLOTS];

/* The first of the slots of the program at PROG: a hash of its address
   (which the same call site passes every time).  */
static unsigned
cache_home (const unsigned char *prog)
{
  uint64_t h = (uint64_t) (uintptr_t) prog * 0x9e3779b97f4a7c15ull;
  return (unsigned) (h >> (64 - EW_CACHE_BITS));
}

/* Load 8 bytes at P.  */
static inline uint64_t
load8 (const unsigned char *p)
{
  uint64_t u;
  memcpy (&u, p, sizeof u);
  return u;
}

/* Whether the program at PROG has E's bytes.  The headers first: equal,
   they give PROG E's length (so nothing past PROG's end is read).  */
static inline int
same_program (const struct ew_entry *e, const unsigned char *prog)
{
  if (load8 (e->bytes) != load8 (prog))
    return 0;
  uint64_t diff = 0;
  for (size_t i = 8; i < e->len; i += 8)
    diff |= load8 (e->bytes + i) ^ load8 (prog + i);
  return diff == 0;
}

/* The decoded program of PROG's bytes if the cache has it, else NULL.
   Lock-free: an acquire load per slot, pairing with the publishing CAS,
   makes the entry's contents visible.  */
static inline const struct nf_ew_code *
cache_find (const unsigned char *prog)
{
  unsigned h = cache_home (prog);
  for (unsigned w = 0; w < EW_CACHE_WAYS; w++)
    {
      const struct ew_entry *e = __atomic_load_n (
	&ew_cache[(h + w) % EW_CACHE_SLOTS], __ATOMIC_ACQUIRE);
      if (!e)
	return NULL; /* Entries fill a program's ways in order.  */
      if (e->key == prog && same_program (e, prog))
	return &e->code;
    }
  return NULL;
}

/* Publish E (complete) in the first free way of its program's slots;
   return 0 if it is not published: the ways are all taken, or another
   thread published the same program first.  */
static int
cache_publish (struct ew_entry *e)
{
  unsigned h = cache_home (e->key);
  for (unsigned w = 0; w < EW_CACHE_WAYS; w++)
    {
      struct ew_entry **slot = &ew_cache[(h + w) % EW_CACHE_SLOTS];
      struct ew_entry *cur = __atomic_load_n (slot, __ATOMIC_ACQUIRE);
      if (!cur
	  && __atomic_compare_exchange_n (slot, &cur, e, 0, __ATOMIC_RELEASE,
					  __ATOMIC_ACQUIRE))
	return 1;
      /* (A failed CAS left the winner in CUR.)  */
      if (cur->key == e->key && same_program (cur, e->key))
	return 0;
    }
  return 0;
}

/* Run the decoded program C over the N > 0 elements (step 3): the
   call's plan, its constants and whether its y may be written by the
   stored value's step.  */
static inline void
run_code (const struct nf_ew_code *c, void *y, const void *x0,
	  const void *x1, size_t n, double s0, double s1, double s2,
	  double s3)
{
  const double s[NF_EW_MAX_SCALARS] = { s0, s1, s2, s3 };
  struct nf_ew_plan plan;
  plan.code = c;
  for (unsigned i = 0; i < c->ncslots; i++)
    plan.cval[i] = c->cparam[i] == NF_EW_NONE8 ? c->cval[i] : s[c->cparam[i]];
  unsigned alias = (c->xsize[0] && x0 == y) | (c->xsize[1] && x1 == y) << 1;
  plan.ydirect = c->ystep != NF_EW_NONE8 && !(alias & c->ymask);
  if (c->errno_kept)
    c->run (&plan, y, x0, x1, n);
  else
    {
      int *e = &errno, saved = *e;
      c->run (&plan, y, x0, x1, n);
      *e = saved;
    }
}

/* A program the cache does not have (step 1, 2): check it, decode it
   into a new entry, publish the entry (if there is memory and a free
   slot; else decode it on the stack for this call only) and run it.  */
static void __attribute__ ((noinline))
elementwise_miss (void *y, const void *x0, const void *x1, size_t n,
		  const unsigned char *prog, double s0, double s1, double s2,
		  double s3)
{
  check_program (prog);
  if (n == 0)
    return;
  size_t len = NF_EW_HEADER + (size_t) (prog[1] + prog[4]) * 8;
  struct ew_entry *e = malloc (sizeof *e + len);
  if (!e)
    {
      struct nf_ew_code code;
      plan_program (&code, prog);
      run_code (&code, y, x0, x1, n, s0, s1, s2, s3);
      return;
    }
  e->key = prog;
  e->len = len;
  memcpy (e->bytes, prog, len);
  plan_program (&e->code, e->bytes);
  int kept = cache_publish (e);
  run_code (&e->code, y, x0, x1, n, s0, s1, s2, s3);
  if (!kept)
    free (e);
}

void
nf_elementwise (void *y, const void *x0, const void *x1, size_t n,
		const unsigned char *prog, double s0, double s1, double s2,
		double s3)
{
  const struct nf_ew_code *c = cache_find (prog);
  if (!c)
    elementwise_miss (y, x0, x1, n, prog, s0, s1, s2, s3);
  else if (n > 0)
    run_code (c, y, x0, x1, n, s0, s1, s2, s3);
}
