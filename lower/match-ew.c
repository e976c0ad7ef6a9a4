/* match-ew.c: the Elementwise matcher and its call lowering, the byte
   code nf_elementwise interprets (runtime/ewprog.h).

   Purpose.  An activation loop stores one expression of the same
   elements of one or two arrays, loop-invariant scalars and constants
   per element, around the idioms' expm1 and log1p (what the scalar
   rewrites leave of exp (x) - 1 and log (1 + x)):

     for (i = 0; i < n; i++)                 nf_elementwise (y, x, 0, n,
       y[i] = x[i] > 0 ? x[i]          =>       "<program>", alpha, 0, 0, 0);
	      : alpha * (expm1f (x[i]) + 0);

   The region IR has the body as tensor ops (LOAD, MUL, EXPM1, CMP,
   SELECT, CONVERT...).  Any such body becomes one program: one
   instruction per op, run by the runtime over blocks of elements, its
   transcendentals through the array kernels, at the speed of the kernels
   rather than of a call per element or per vector.  This is the Neuron
   compiler's Elementwise fusion kind.

   Steps.
   1. nf_match_elementwise, from the STORE: walk its operand DAG; every
      op must be one the programs model (float or double arithmetic,
      min/max, sqrt, compare, select, conversions between float types
      and from a compare, exp, expm1, log, log1p), every load contiguous
      over the store's dimension, and at least one expm1 or log1p among
      them (without one the loop is no region of ours: GCC's vectorizer
      handles it, or not, as without the plugin).  No value of the body
      may be used elsewhere.
   2. nf_ew_lower: number the loads (inputs x0, x1), the scalars (s0..s3)
      and the constants, allocate registers in region order (ids are a
      topological order; a register is freed after its value's last use;
      BROADCAST and same-type CONVERT share their operand's register),
      and write the program.

   Floating-point contract: the program performs the loop's own
   operations in the loop's order and types, so everything but the
   transcendentals is bit-identical to the loop (ISO C evaluation, no
   contraction); expm1 and log1p are the array kernels' (0.5 ulp + 2^-20,
   under -ffast-math the fast f32 ones, 1 ulp), exp and log at least as
   accurate as glibc's.  Every element evaluates every op (a SELECT picks
   afterwards): an op may raise a flag for an element whose value the
   select discards, as the vectorized loop does.

   Limitations: at most two input arrays, four scalars, sixteen
   constants, NF_EW_MAX_INSNS ops and NF_EW_MAX_REGS live values; float
   and double only (no _Float16, long double or integer values: an
   integer scalar converted in the body is a reason); calls other than
   the modelled math functions (tanhf in mish) make the region
   unbuildable, which the front end reports.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"
#include "ewprog.h"

#include <string.h>

_Static_assert (NF_EW_PROG_MAX
		  >= NF_EW_HEADER + NF_EW_INSN * NF_EW_MAX_INSNS
		       + 8 * NF_EW_MAX_CONSTS,
		"nf_ew_call holds the longest program");

/* Whether values of ELEM can live in a program register.  */
static bool
nf_ew_elem_ok (enum nf_elem e)
{
  return e == NF_ELEM_F32 || e == NF_ELEM_F64 || e == NF_ELEM_BOOL;
}

/* The program type of ELEM (nf_ew_elem_ok).  */
static unsigned char
nf_ew_type_of (enum nf_elem e)
{
  return e == NF_ELEM_F32 ? NF_EW_F32 : e == NF_ELEM_F64 ? NF_EW_F64
							  : NF_EW_BOOL;
}

/* Whether op V is one a program models; its operands are checked by the
   walk.  */
static bool
nf_ew_op_ok (const nf_region *r, nf_value v)
{
  switch (nf_op (r, v))
    {
    case NF_OP_CONVERT:
      {
	enum nf_elem from = nf_value_type (r, nf_op_operand (r, v, 0)).elem;
	return nf_elem_is_float (nf_value_type (r, v).elem)
	       && (from == NF_ELEM_BOOL || from == NF_ELEM_F32
		   || from == NF_ELEM_F64);
      }
    case NF_OP_ADD:
    case NF_OP_SUB:
    case NF_OP_MUL:
    case NF_OP_DIV:
    case NF_OP_NEG:
    case NF_OP_SQRT:
    case NF_OP_EXP:
    case NF_OP_LOG:
    case NF_OP_EXPM1:
    case NF_OP_LOG1P:
    case NF_OP_MIN:
    case NF_OP_MAX:
    case NF_OP_CMP:
    case NF_OP_SELECT:
    case NF_OP_BROADCAST:
      return true;
    default:
      return false;
    }
}

/* The walk of step 1: what the body holds.  */
struct nf_ew_walk
{
  const nf_region *r;
  nf_value store;
  nf_dim dim;		/* The store's dimension.  */
  unsigned char *seen;	/* Per value: 1 visited.  */
  nf_oplist ops;	/* The members (computing ops).  */
  int n_idioms;		/* expm1 and log1p ops.  */
  const char *reason;
};

/* Visit V and its operands; false (with W->reason) when V is no part of
   a program.  */
static bool
nf_ew_visit (struct nf_ew_walk *w, nf_value v, int depth)
{
  const nf_region *r = w->r;
  if (w->seen[v])
    return true;
  w->seen[v] = 1;
  if (depth > 64)
    return (w->reason = "the loop body is too long for an elementwise "
			"program"),
	   false;
  nf_type t = nf_value_type (r, v);
  if (!nf_ew_elem_ok (t.elem))
    {
      w->reason = "a value of the loop body is neither float nor double";
      return false;
    }
  switch (nf_op (r, v))
    {
    case NF_OP_CONST:
      return true;
    case NF_OP_PARAM:
      if (t.rank != 0 || t.elem == NF_ELEM_BOOL)
	return (w->reason = "the loop body reads an array that is no input"),
	       false;
      return true;
    case NF_OP_LOAD:
      if (t.rank != 1 || nf_access_stride (r, v) != 1
	  || !nf_type_equal (t, nf_tensor1_type (t.elem, w->dim)))
	return (w->reason = "the loop reads an array element other than "
			    "the one it stores"),
	       false;
      return true;
    default:
      break;
    }
  if (nf_op (r, v) == NF_OP_CONVERT
      && !nf_ew_elem_ok (nf_value_type (r, nf_op_operand (r, v, 0)).elem))
    return (w->reason = "the loop body converts an integer or another type "
			"than float and double"),
	   false;
  if (!nf_ew_op_ok (r, v))
    return (w->reason = "the loop body computes something an elementwise "
			"program does not model"),
	   false;
  if (t.rank > 1 || (t.rank == 1 && !nf_type_equal (t, nf_tensor1_type (
							 t.elem, w->dim))))
    return (w->reason = "the loop body mixes dimensions"), false;
  if (nf_value_escapes (r, v))
    return (w->reason = "a value computed in the loop is used after it"),
	   false;
  for (int i = 0; i < nf_op_n_operands (r, v); i++)
    if (!nf_ew_visit (w, nf_op_operand (r, v, i), depth + 1))
      return false;
  enum nf_opcode op = nf_op (r, v);
  w->n_idioms += op == NF_OP_EXPM1 || op == NF_OP_LOG1P;
  nf_oplist_add (&w->ops, v);
  return true;
}

/* Whether every user of the members of W is a member or the store.  */
static bool
nf_ew_closed (const struct nf_ew_walk *w)
{
  const nf_region *r = w->r;
  for (nf_value u = 0; u < nf_region_n_values (r); u++)
    {
      if (u == w->store || (w->seen[u] && nf_op (r, u) != NF_OP_LOAD
			    && nf_op (r, u) != NF_OP_PARAM
			    && nf_op (r, u) != NF_OP_CONST))
	continue;
      for (int i = 0; i < nf_op_n_operands (r, u); i++)
	{
	  nf_value o = nf_op_operand (r, u, i);
	  if (w->seen[o] && nf_op (r, o) != NF_OP_LOAD
	      && nf_op (r, o) != NF_OP_PARAM && nf_op (r, o) != NF_OP_CONST)
	    return false;
	}
    }
  return true;
}

bool
nf_match_elementwise (const nf_region *r, nf_value store, nf_match *m)
{
  nf_match_init (m, NF_KIND_ELEMENTWISE, store);
  if (nf_op (r, store) != NF_OP_STORE)
    return false;
  nf_value v = nf_op_operand (r, store, 0);
  nf_type t = nf_value_type (r, v);
  if (t.rank != 1 || nf_access_stride (r, store) != 1)
    return false;
  int n = nf_region_n_values (r);
  unsigned char seen[n > 0 ? n : 1];
  memset (seen, 0, sizeof seen);
  struct nf_ew_walk w = { r, store, t.dims[0], seen, { { 0 }, 0 }, 0, NULL };
  bool ok = nf_ew_visit (&w, v, 0);
  /* Not ours without an idiom, whatever else the body does.  */
  if (w.n_idioms == 0)
    {
      bool idiom = false;
      for (nf_value u = 0; u < n; u++)
	idiom |= nf_op (r, u) == NF_OP_EXPM1 || nf_op (r, u) == NF_OP_LOG1P;
      if (!idiom)
	return false;
    }
  if (!ok)
    return nf_match_fail (m, w.reason);
  if (t.elem != NF_ELEM_F32 && t.elem != NF_ELEM_F64)
    return nf_match_fail (m, "the loop stores neither float nor double");
  if (w.ops.n >= (int) (sizeof w.ops.v / sizeof w.ops.v[0]))
    return nf_match_fail (m, "the loop body is too long for an elementwise "
			     "program");
  if (!nf_ew_closed (&w))
    return nf_match_fail (m, "a value of the loop body is used elsewhere "
			     "in the loop");
  m->result = v;
  m->accum = t.elem;
  for (nf_value u = 0; u < n && m->input == NF_NO_VALUE; u++)
    if (seen[u] && nf_op (r, u) == NF_OP_LOAD)
      m->input = u;
  if (m->input == NF_NO_VALUE)
    return nf_match_fail (m, "the loop body reads no array");
  return nf_match_accept (r, m, &w.ops);
}

/* --- Step 2: the program ------------------------------------------- */

/* The encoder's state.  */
struct nf_ew_enc
{
  const nf_region *r;
  nf_ew_call *out;
  const nf_cluster *c;
  int *reg;	      /* Per value: its register, or -1.  */
  int *last;	      /* Per value: the last value reading it (an alias's
			 reads count for the value it aliases).  */
  nf_value *root;     /* Per value: the value owning its register.  */
  bool busy[NF_EW_MAX_REGS];
  int n_regs, n_insns, n_consts;
  double consts[NF_EW_MAX_CONSTS];
  const char *reason;
};

/* Whether V is computed by the program (a member or a leaf it reads).  */
static bool
nf_ew_needed (const struct nf_ew_enc *e, nf_value v)
{
  return e->reg[v] != -2;
}

/* A free register for V, or -1 (E->reason set).  */
static int
nf_ew_alloc (struct nf_ew_enc *e)
{
  for (int i = 0; i < NF_EW_MAX_REGS; i++)
    if (!e->busy[i])
      {
	e->busy[i] = true;
	if (i + 1 > e->n_regs)
	  e->n_regs = i + 1;
	return i;
      }
  e->reason = "the loop body keeps too many values live for an elementwise "
	      "program";
  return -1;
}

/* Append an instruction.  */
static bool
nf_ew_emit (struct nf_ew_enc *e, int op, int type, int dst, int a, int b,
	    int c, int aux)
{
  if (e->n_insns >= NF_EW_MAX_INSNS)
    {
      e->reason = "the loop body is too long for an elementwise program";
      return false;
    }
  unsigned char *p = e->out->prog + NF_EW_HEADER + NF_EW_INSN * e->n_insns++;
  p[0] = (unsigned char) op;
  p[1] = (unsigned char) type;
  p[2] = (unsigned char) dst;
  p[3] = (unsigned char) a;
  p[4] = (unsigned char) b;
  p[5] = (unsigned char) c;
  p[6] = (unsigned char) aux;
  p[7] = 0;
  return true;
}

/* The slot of V in LIST (of *N, at most MAX), added if new; -1 when
   full.  SAME says whether two values are one slot.  */
static int
nf_ew_slot (const nf_region *r, nf_value *list, int *n, int max, nf_value v,
	    bool loads)
{
  for (int i = 0; i < *n; i++)
    if (list[i] == v || (loads && nf_same_access (r, list[i], v)))
      return i;
  if (*n >= max)
    return -1;
  list[*n] = v;
  return (*n)++;
}

/* The index of constant X (added if new), or -1.  */
static int
nf_ew_const (struct nf_ew_enc *e, double x)
{
  for (int i = 0; i < e->n_consts; i++)
    if (memcmp (&e->consts[i], &x, sizeof x) == 0)
      return i;
  if (e->n_consts >= NF_EW_MAX_CONSTS)
    return -1;
  e->consts[e->n_consts] = x;
  return e->n_consts++;
}

/* The opcode of the program for the region op OP.  */
static int
nf_ew_opcode (enum nf_opcode op)
{
  switch (op)
    {
    case NF_OP_ADD: return NF_EW_ADD;
    case NF_OP_SUB: return NF_EW_SUB;
    case NF_OP_MUL: return NF_EW_MUL;
    case NF_OP_DIV: return NF_EW_DIV;
    case NF_OP_NEG: return NF_EW_NEG;
    case NF_OP_SQRT: return NF_EW_SQRT;
    case NF_OP_EXP: return NF_EW_EXP;
    case NF_OP_LOG: return NF_EW_LOG;
    case NF_OP_EXPM1: return NF_EW_EXPM1;
    case NF_OP_LOG1P: return NF_EW_LOG1P;
    case NF_OP_MIN: return NF_EW_MIN;
    case NF_OP_MAX: return NF_EW_MAX;
    case NF_OP_CMP: return NF_EW_CMP;
    case NF_OP_SELECT: return NF_EW_SELECT;
    case NF_OP_CONVERT: return NF_EW_CONVERT;
    default: return 0;
    }
}

/* The program's predicate of the region's.  */
static int
nf_ew_pred (enum nf_cmp p)
{
  switch (p)
    {
    case NF_CMP_LT: return NF_EW_LT;
    case NF_CMP_LE: return NF_EW_LE;
    case NF_CMP_GT: return NF_EW_GT;
    case NF_CMP_GE: return NF_EW_GE;
    case NF_CMP_EQ: return NF_EW_EQ;
    default: return NF_EW_NE;
    }
}

/* Free the registers of V's operands whose owners V reads last.  */
static void
nf_ew_release (struct nf_ew_enc *e, nf_value v)
{
  for (int i = 0; i < nf_op_n_operands (e->r, v); i++)
    {
      nf_value o = e->root[nf_op_operand (e->r, v, i)];
      if (e->last[o] == v && e->reg[o] >= 0)
	e->busy[e->reg[o]] = false;
    }
}

/* The instruction(s) of value V.  */
static bool
nf_ew_value (struct nf_ew_enc *e, nf_value v, bool fast)
{
  const nf_region *r = e->r;
  nf_ew_call *out = e->out;
  enum nf_opcode op = nf_op (r, v);
  nf_type t = nf_value_type (r, v);
  int type = nf_ew_type_of (t.elem);
  nf_value a = nf_op_n_operands (r, v) > 0 ? nf_op_operand (r, v, 0)
					   : NF_NO_VALUE;
  (void) fast;
  /* An alias: the operand's register, its last use extended (step 2's
     numbering made LAST the alias's own last use).  */
  if (op == NF_OP_BROADCAST
      || (op == NF_OP_CONVERT && nf_value_type (r, a).elem == t.elem))
    {
      e->reg[v] = e->reg[a];
      e->root[v] = e->root[a];
      return true;
    }
  int dst = nf_ew_alloc (e);
  if (dst < 0)
    return false;
  e->reg[v] = dst;
  int aux = 0;
  switch (op)
    {
    case NF_OP_LOAD:
      aux = nf_ew_slot (r, out->inputs, &out->n_inputs, NF_EW_MAX_INPUTS, v,
			true);
      if (aux < 0)
	return (e->reason = "the loop body reads more than two arrays"),
	       false;
      return nf_ew_emit (e, NF_EW_LOAD, type, dst, 0, 0, 0, aux);
    case NF_OP_PARAM:
      aux = nf_ew_slot (r, out->scalars, &out->n_scalars, NF_EW_MAX_SCALARS,
			v, false);
      if (aux < 0)
	return (e->reason = "the loop body uses more than four scalar "
			    "values"),
	       false;
      return nf_ew_emit (e, NF_EW_PARAM, type, dst, 0, 0, 0, aux);
    case NF_OP_CONST:
      aux = nf_ew_const (e, nf_const_value (r, v));
      if (aux < 0)
	return (e->reason = "the loop body uses more than sixteen "
			    "constants"),
	       false;
      return nf_ew_emit (e, NF_EW_CONST, type, dst, 0, 0, 0, aux);
    default:
      break;
    }
  int ra = e->reg[a];
  int rb = nf_op_n_operands (r, v) > 1 ? e->reg[nf_op_operand (r, v, 1)] : 0;
  int rc = nf_op_n_operands (r, v) > 2 ? e->reg[nf_op_operand (r, v, 2)] : 0;
  NF_ASSERT (ra >= 0 && rb >= 0 && rc >= 0,
	     "an operand of an elementwise op has no register");
  if (op == NF_OP_CMP)
    aux = NF_EW_CMP_AUX (nf_ew_pred (nf_cmp_pred (r, v)),
			 nf_ew_type_of (nf_value_type (r, a).elem));
  else if (op == NF_OP_CONVERT)
    aux = nf_ew_type_of (nf_value_type (r, a).elem);
  return nf_ew_emit (e, nf_ew_opcode (op), type, dst, ra, rb, rc, aux);
}

const char *
nf_ew_lower (const nf_region *r, const nf_match *m, nf_value store, bool fast,
	     nf_ew_call *out)
{
  NF_ASSERT (m->kind == NF_KIND_ELEMENTWISE && m->cluster,
	     "nf_ew_lower takes an accepted Elementwise match");
  memset (out, 0, sizeof *out);
  int n = nf_region_n_values (r);
  int reg[n], last[n];
  nf_value root[n];
  struct nf_ew_enc e = { r, out, m->cluster, reg, last, root, { false }, 0,
			 0, 0, { 0 }, NULL };
  /* Needed: the members and the leaves they read (-1); others -2.  */
  for (nf_value v = 0; v < n; v++)
    {
      reg[v] = nf_cluster_contains (m->cluster, v) ? -1 : -2;
      last[v] = NF_NO_VALUE;
      root[v] = v;
    }
  for (int i = 0; i < nf_cluster_n_live_ins (m->cluster); i++)
    reg[nf_cluster_live_in (m->cluster, i)] = -1;
  /* Last readers, an alias's readers counting for its operand.  */
  for (nf_value v = n - 1; v >= 0; v--)
    {
      if (!nf_ew_needed (&e, v) && v != store)
	continue;
      for (int i = 0; i < nf_op_n_operands (r, v); i++)
	{
	  nf_value o = nf_op_operand (r, v, i);
	  bool alias = nf_op (r, v) == NF_OP_BROADCAST
		       || (nf_op (r, v) == NF_OP_CONVERT
			   && nf_value_type (r, o).elem
				== nf_value_type (r, v).elem);
	  nf_value until = alias && last[v] != NF_NO_VALUE ? last[v] : v;
	  if (last[o] == NF_NO_VALUE || until > last[o])
	    last[o] = until;
	}
    }
  for (nf_value v = 0; v < n; v++)
    if (nf_ew_needed (&e, v) && v != store)
      {
	if (!nf_ew_value (&e, v, fast))
	  return e.reason;
	nf_ew_release (&e, v);
      }
  nf_value y = nf_op_operand (r, store, 0);
  NF_ASSERT (reg[y] >= 0, "the stored value has no register");
  if (!nf_ew_emit (&e, NF_EW_STORE, nf_ew_type_of (nf_value_type (r, y).elem),
		   0, reg[y], 0, 0, 0))
    return e.reason;
  /* The header, then the constants after the instructions.  */
  unsigned char *h = out->prog;
  h[0] = NF_EW_VERSION;
  h[1] = (unsigned char) e.n_insns;
  h[2] = (unsigned char) e.n_regs;
  h[3] = fast ? NF_EW_FLAG_FAST : 0;
  h[4] = (unsigned char) e.n_consts;
  h[5] = nf_ew_type_of (nf_value_type (r, y).elem);
  for (int i = 0; i < NF_EW_MAX_INPUTS; i++)
    h[6 + i] = i < out->n_inputs
		 ? nf_ew_type_of (nf_value_type (r, out->inputs[i]).elem)
		 : NF_EW_NONE;
  unsigned char *k = h + NF_EW_HEADER + NF_EW_INSN * e.n_insns;
  for (int i = 0; i < e.n_consts; i++)
    {
      uint64_t bits;
      memcpy (&bits, &e.consts[i], sizeof bits);
      for (int b = 0; b < 8; b++)
	k[8 * i + b] = (unsigned char) (bits >> (8 * b));
    }
  out->len = NF_EW_HEADER + NF_EW_INSN * e.n_insns + 8 * e.n_consts;
  return NULL;
}
