/* ir.c: the region IR (see ir.h).

   Storage: one growable array of ops indexed by value id; operands are
   at most 3 except for OPAQUE, whose operand list is heap-allocated.
   Uses are counted on demand: regions hold tens of ops, and a use count
   stays right however a front end builds the graph.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NF_INLINE_OPERANDS 3

struct nf_op
{
  enum nf_opcode op;
  nf_type type;
  nf_srcloc loc;
  int n_operands;
  nf_value operands[NF_INLINE_OPERANDS];
  nf_value *more;		/* OPAQUE with more operands: all of them.  */
  char *name;			/* PARAM, OPAQUE.  */
  bool is_array;		/* PARAM.  */
  bool escapes;			/* Used after the region.  */
  double cst;			/* CONST.  */
  nf_value base;		/* LOAD, STORE.  */
  int64_t offset, stride, row_stride;
  enum nf_cmp pred;		/* CMP.  */
  enum nf_opcode combiner;	/* REDUCE.  */
  unsigned dims;		/* REDUCE.  */
};

struct nf_sym
{
  char *name;
  nf_value value;
};

struct nf_region
{
  char *function;
  struct nf_op *ops;
  int n_ops, cap_ops;
  struct nf_sym *syms;
  int n_syms, cap_syms;
  nf_srcloc loc;		/* For the next ops.  */
};

static const char *const nf_opcode_names[NF_OP_COUNT_] = {
  "param", "const",   "load",	 "store", "convert", "add",   "sub",
  "mul",   "div",     "neg",	 "sqrt",  "rsqrt",   "pow",   "exp",
  "log",   "expm1",   "log1p",	 "min",	  "max",     "cmp",   "select",
  "reduce", "broadcast", "opaque",
};

const char *
nf_opcode_name (enum nf_opcode op)
{
  return (unsigned) op < NF_OP_COUNT_ ? nf_opcode_names[op] : "?";
}

const char *
nf_elem_name (enum nf_elem elem)
{
  switch (elem)
    {
    case NF_ELEM_NONE:
      return "none";
    case NF_ELEM_BOOL:
      return "i1";
    case NF_ELEM_I32:
      return "i32";
    case NF_ELEM_I64:
      return "i64";
    case NF_ELEM_F16:
      return "f16";
    case NF_ELEM_F32:
      return "f32";
    case NF_ELEM_F64:
      return "f64";
    case NF_ELEM_F80:
      return "f80";
    }
  return "?";
}

bool
nf_elem_is_float (enum nf_elem elem)
{
  return elem >= NF_ELEM_F16;
}

nf_dim
nf_sym_dim (int sym)
{
  nf_dim d = { sym, 0 };
  return d;
}

nf_dim
nf_const_dim (int64_t extent)
{
  nf_dim d = { -1, extent };
  return d;
}

nf_type
nf_scalar_type (enum nf_elem elem)
{
  nf_type t;
  memset (&t, 0, sizeof t);
  t.elem = elem;
  return t;
}

nf_type
nf_tensor1_type (enum nf_elem elem, nf_dim d0)
{
  nf_type t = nf_scalar_type (elem);
  t.rank = 1;
  t.dims[0] = d0;
  return t;
}

nf_type
nf_tensor2_type (enum nf_elem elem, nf_dim d0, nf_dim d1)
{
  nf_type t = nf_tensor1_type (elem, d0);
  t.rank = 2;
  t.dims[1] = d1;
  return t;
}

static bool
nf_dim_equal (nf_dim a, nf_dim b)
{
  return a.sym == b.sym && (a.sym >= 0 || a.extent == b.extent);
}

bool
nf_type_equal (nf_type a, nf_type b)
{
  if (a.elem != b.elem || a.rank != b.rank)
    return false;
  for (int i = 0; i < a.rank; i++)
    if (!nf_dim_equal (a.dims[i], b.dims[i]))
      return false;
  return true;
}

nf_region *
nf_region_new (const char *function)
{
  nf_region *r = calloc (1, sizeof *r);
  if (!r)
    return NULL;
  r->function = strdup (function ? function : "?");
  if (!r->function)
    {
      free (r);
      return NULL;
    }
  return r;
}

void
nf_region_free (nf_region *r)
{
  if (!r)
    return;
  for (int i = 0; i < r->n_ops; i++)
    {
      free (r->ops[i].more);
      free (r->ops[i].name);
    }
  for (int i = 0; i < r->n_syms; i++)
    free (r->syms[i].name);
  free (r->ops);
  free (r->syms);
  free (r->function);
  free (r);
}

int
nf_region_add_sym (nf_region *r, const char *name, nf_value defined_by)
{
  if (r->n_syms == r->cap_syms)
    {
      int cap = r->cap_syms ? 2 * r->cap_syms : 4;
      struct nf_sym *s = realloc (r->syms, cap * sizeof *s);
      if (!s)
	return -1;
      r->syms = s;
      r->cap_syms = cap;
    }
  char *copy = strdup (name);
  if (!copy)
    return -1;
  r->syms[r->n_syms].name = copy;
  r->syms[r->n_syms].value = defined_by;
  return r->n_syms++;
}

void
nf_region_set_loc (nf_region *r, nf_srcloc loc)
{
  r->loc = loc;
}

/* Append an op OP of TYPE with the N operands OPNDS; returns it or NULL.  */
static struct nf_op *
nf_new_op (nf_region *r, enum nf_opcode op, nf_type type,
	   const nf_value *opnds, int n)
{
  for (int i = 0; i < n; i++)
    if (opnds[i] < 0 || opnds[i] >= r->n_ops)
      return NULL;		/* A failed earlier build propagates.  */
  if (r->n_ops == r->cap_ops)
    {
      int cap = r->cap_ops ? 2 * r->cap_ops : 16;
      struct nf_op *ops = realloc (r->ops, cap * sizeof *ops);
      if (!ops)
	return NULL;
      r->ops = ops;
      r->cap_ops = cap;
    }
  struct nf_op *o = &r->ops[r->n_ops];
  memset (o, 0, sizeof *o);
  o->op = op;
  o->type = type;
  o->loc = r->loc;
  o->base = NF_NO_VALUE;
  o->n_operands = n;
  if (n > NF_INLINE_OPERANDS)
    {
      o->more = malloc (n * sizeof *o->more);
      if (!o->more)
	return NULL;
      memcpy (o->more, opnds, n * sizeof *opnds);
    }
  else if (n)
    /* (Not for n == 0: OPNDS may then be null, which memcpy forbids.)  */
    memcpy (o->operands, opnds, n * sizeof *opnds);
  r->n_ops++;
  return o;
}

static nf_value
nf_id (const nf_region *r, const struct nf_op *o)
{
  return o ? (nf_value) (o - r->ops) : NF_NO_VALUE;
}

nf_value
nf_param (nf_region *r, const char *name, nf_type type, bool is_array)
{
  char *copy = strdup (name);
  struct nf_op *o = copy ? nf_new_op (r, NF_OP_PARAM, type, NULL, 0) : NULL;
  if (!o)
    {
      free (copy);
      return NF_NO_VALUE;
    }
  o->name = copy;
  o->is_array = is_array;
  return nf_id (r, o);
}

nf_value
nf_const (nf_region *r, nf_type type, double v)
{
  struct nf_op *o = nf_new_op (r, NF_OP_CONST, type, NULL, 0);
  if (o)
    o->cst = v;
  return nf_id (r, o);
}

/* LOAD or STORE of TYPE with operands OPNDS (N of them).  */
static nf_value
nf_access (nf_region *r, enum nf_opcode op, nf_type type, nf_value base,
	   const nf_value *opnds, int n, int64_t offset, int64_t stride,
	   int64_t row_stride)
{
  if (base < 0 || base >= r->n_ops)
    return NF_NO_VALUE;
  struct nf_op *o = nf_new_op (r, op, type, opnds, n);
  if (o)
    {
      o->base = base;
      o->offset = offset;
      o->stride = stride;
      o->row_stride = row_stride;
    }
  return nf_id (r, o);
}

nf_value
nf_load (nf_region *r, nf_value base, nf_type type, int64_t offset,
	 int64_t stride, int64_t row_stride)
{
  return nf_access (r, NF_OP_LOAD, type, base, NULL, 0, offset, stride,
		    row_stride);
}

nf_value
nf_store (nf_region *r, nf_value base, nf_value v, int64_t offset,
	  int64_t stride, int64_t row_stride)
{
  return nf_access (r, NF_OP_STORE, nf_scalar_type (NF_ELEM_NONE), base, &v,
		    1, offset, stride, row_stride);
}

nf_value
nf_unary (nf_region *r, enum nf_opcode op, nf_value a)
{
  if (a < 0 || a >= r->n_ops)
    return NF_NO_VALUE;
  return nf_id (r, nf_new_op (r, op, r->ops[a].type, &a, 1));
}

/* The type of an elementwise op on A and B: the higher-rank operand's
   (a scalar operand is implicitly broadcast).  */
static nf_type
nf_elementwise_type (const nf_region *r, nf_value a, nf_value b)
{
  nf_type ta = r->ops[a].type, tb = r->ops[b].type;
  return tb.rank > ta.rank ? tb : ta;
}

nf_value
nf_binary (nf_region *r, enum nf_opcode op, nf_value a, nf_value b)
{
  nf_value ops[2] = { a, b };
  if (a < 0 || a >= r->n_ops || b < 0 || b >= r->n_ops)
    return NF_NO_VALUE;
  return nf_id (r, nf_new_op (r, op, nf_elementwise_type (r, a, b), ops, 2));
}

nf_value
nf_convert (nf_region *r, nf_value a, enum nf_elem to)
{
  if (a < 0 || a >= r->n_ops)
    return NF_NO_VALUE;
  nf_type t = r->ops[a].type;
  t.elem = to;
  return nf_id (r, nf_new_op (r, NF_OP_CONVERT, t, &a, 1));
}

nf_value
nf_cmp (nf_region *r, enum nf_cmp pred, nf_value a, nf_value b)
{
  nf_value ops[2] = { a, b };
  if (a < 0 || a >= r->n_ops || b < 0 || b >= r->n_ops)
    return NF_NO_VALUE;
  nf_type t = nf_elementwise_type (r, a, b);
  t.elem = NF_ELEM_BOOL;
  struct nf_op *o = nf_new_op (r, NF_OP_CMP, t, ops, 2);
  if (o)
    o->pred = pred;
  return nf_id (r, o);
}

nf_value
nf_select (nf_region *r, nf_value c, nf_value a, nf_value b)
{
  nf_value ops[3] = { c, a, b };
  if (a < 0 || a >= r->n_ops || b < 0 || b >= r->n_ops)
    return NF_NO_VALUE;
  return nf_id (r, nf_new_op (r, NF_OP_SELECT, nf_elementwise_type (r, a, b),
			      ops, 3));
}

nf_value
nf_reduce (nf_region *r, nf_value input, nf_value init,
	   enum nf_opcode combiner, unsigned dims_mask)
{
  nf_value ops[2] = { input, init };
  if (input < 0 || input >= r->n_ops)
    return NF_NO_VALUE;
  nf_type in = r->ops[input].type, t = nf_scalar_type (in.elem);
  for (int d = 0; d < in.rank; d++)
    if (!(dims_mask & (1u << d)))
      t.dims[t.rank++] = in.dims[d];
  struct nf_op *o = nf_new_op (r, NF_OP_REDUCE, t, ops, 2);
  if (o)
    {
      o->combiner = combiner;
      o->dims = dims_mask;
    }
  return nf_id (r, o);
}

nf_value
nf_broadcast (nf_region *r, nf_value a, nf_type to)
{
  return nf_id (r, nf_new_op (r, NF_OP_BROADCAST, to, &a, 1));
}

nf_value
nf_find_scalar_op (const nf_region *r, enum nf_opcode op, nf_type type,
		   const nf_value *ops, int n)
{
  if (type.rank != 0)
    return NF_NO_VALUE;
  for (nf_value v = 0; v < nf_region_n_values (r); v++)
    {
      if (nf_op (r, v) != op || nf_op_n_operands (r, v) != n
	  || !nf_type_equal (nf_value_type (r, v), type))
	continue;
      int i = 0;
      while (i < n && nf_op_operand (r, v, i) == ops[i])
	i++;
      if (i == n)
	return v;
    }
  return NF_NO_VALUE;
}

/* A broadcast to the type of B of A when A is a scalar and B a tensor,
   else A.  */
static nf_value
nf_cse_widen_rank (nf_region *r, nf_value a, nf_value b)
{
  nf_type ta = nf_value_type (r, a), tb = nf_value_type (r, b);
  if (ta.rank >= tb.rank)
    return a;
  nf_type to = tb;
  to.elem = ta.elem;
  nf_value ops[1] = { a };
  nf_value v = nf_find_scalar_op (r, NF_OP_BROADCAST, to, ops, 1);
  return v != NF_NO_VALUE ? v : nf_broadcast (r, a, to);
}

nf_value
nf_cse_binary (nf_region *r, enum nf_opcode op, nf_value a, nf_value b)
{
  if (a == NF_NO_VALUE || b == NF_NO_VALUE)
    return NF_NO_VALUE;
  a = nf_cse_widen_rank (r, a, b);
  b = nf_cse_widen_rank (r, b, a);
  nf_value ops[2] = { a, b };
  nf_value v = nf_find_scalar_op (r, op, nf_value_type (r, a), ops, 2);
  return v != NF_NO_VALUE ? v : nf_binary (r, op, a, b);
}

nf_value
nf_cse_cmp (nf_region *r, enum nf_cmp pred, nf_value a, nf_value b)
{
  if (a == NF_NO_VALUE || b == NF_NO_VALUE)
    return NF_NO_VALUE;
  a = nf_cse_widen_rank (r, a, b);
  b = nf_cse_widen_rank (r, b, a);
  return nf_cmp (r, pred, a, b);
}

nf_value
nf_cse_select (nf_region *r, nf_value c, nf_value a, nf_value b)
{
  if (c == NF_NO_VALUE || a == NF_NO_VALUE || b == NF_NO_VALUE)
    return NF_NO_VALUE;
  a = nf_cse_widen_rank (r, a, b);
  b = nf_cse_widen_rank (r, b, a);
  a = nf_cse_widen_rank (r, a, c);
  b = nf_cse_widen_rank (r, b, c);
  c = nf_cse_widen_rank (r, c, a);
  return nf_select (r, c, a, b);
}

void
nf_canonical_binary (nf_region *r, enum nf_opcode *op, nf_value *a,
		     nf_value *b)
{
  if (*a == NF_NO_VALUE || *b == NF_NO_VALUE)
    return;
  if ((*op == NF_OP_ADD || *op == NF_OP_MUL || *op == NF_OP_MAX
       || *op == NF_OP_MIN)
      && nf_op (r, *a) == NF_OP_CONST
      && nf_op (r, *b) != NF_OP_CONST)
    {
      nf_value t = *a;
      *a = *b;
      *b = t;
    }
  /* Negative, not -0.0: x + -0.0 is x, x - 0.0 is x too, but GCC folds
     those away rather than flipping them.  */
  if ((*op == NF_OP_ADD || *op == NF_OP_SUB) && nf_op (r, *b) == NF_OP_CONST
      && nf_const_value (r, *b) < 0)
    {
      *b = nf_const (r, nf_value_type (r, *b), -nf_const_value (r, *b));
      *op = *op == NF_OP_ADD ? NF_OP_SUB : NF_OP_ADD;
    }
  /* x / 2^k is x * 2^-k: exact whenever 2^-k is a normal number of the
     type, and GCC folds it so at any flags (ggml's sum_x2 / 32).  */
  nf_type bt = nf_value_type (r, *b);
  if (*op == NF_OP_DIV && nf_op (r, *b) == NF_OP_CONST
      && nf_elem_is_float (bt.elem))
    {
      int e;
      double c = nf_const_value (r, *b);
      int emax = bt.elem == NF_ELEM_F16 ? 15 : bt.elem == NF_ELEM_F32 ? 127
								      : 1023;
      if (c != 0 && isfinite (c) && fabs (frexp (c, &e)) == 0.5
	  && e - 1 >= -emax && e - 1 <= emax)
	{
	  *b = nf_const (r, bt, 1 / c);
	  *op = NF_OP_MUL;
	}
    }
}

nf_value
nf_cse_unary (nf_region *r, enum nf_opcode op, nf_value a)
{
  if (a == NF_NO_VALUE)
    return a;
  nf_value ops[1] = { a };
  nf_value v = nf_find_scalar_op (r, op, nf_value_type (r, a), ops, 1);
  return v != NF_NO_VALUE ? v : nf_unary (r, op, a);
}

nf_value
nf_cse_convert (nf_region *r, nf_value a, enum nf_elem to)
{
  if (a == NF_NO_VALUE)
    return a;
  nf_type t = nf_value_type (r, a);
  if (t.elem == to)
    return a;
  t.elem = to;
  nf_value ops[1] = { a };
  nf_value v = nf_find_scalar_op (r, NF_OP_CONVERT, t, ops, 1);
  return v != NF_NO_VALUE ? v : nf_convert (r, a, to);
}

nf_value
nf_opaque (nf_region *r, const char *what, nf_type type,
	   const nf_value *operands, int n_operands)
{
  char *copy = strdup (what);
  struct nf_op *o
    = copy ? nf_new_op (r, NF_OP_OPAQUE, type, operands, n_operands) : NULL;
  if (!o)
    {
      free (copy);
      return NF_NO_VALUE;
    }
  o->name = copy;
  return nf_id (r, o);
}

const char *
nf_region_function (const nf_region *r)
{
  return r->function;
}

int
nf_region_n_values (const nf_region *r)
{
  return r->n_ops;
}

int
nf_region_n_syms (const nf_region *r)
{
  return r->n_syms;
}

const char *
nf_region_sym_name (const nf_region *r, int sym)
{
  NF_ASSERT (sym >= 0 && sym < r->n_syms, "a symbol id outside its region");
  return r->syms[sym].name;
}

nf_value
nf_region_sym_value (const nf_region *r, int sym)
{
  NF_ASSERT (sym >= 0 && sym < r->n_syms, "a symbol id outside its region");
  return r->syms[sym].value;
}

/* NF_ASSERT's failure: say which invariant broke, and abort.  */
void
nf_internal_error (const char *msg, const char *file, int line)
{
  fprintf (stderr, "neuronfuse: internal error: %s (%s:%d)\n", msg, file,
	   line);
  fflush (stderr);
  abort ();
}

/* The op of V; NF_NO_VALUE reads as an opaque op with no operands.  */
static const struct nf_op *
nf_get (const nf_region *r, nf_value v)
{
  static const struct nf_op none = { .op = NF_OP_OPAQUE, .base = -1 };
  if (v == NF_NO_VALUE)
    return &none;
  NF_ASSERT (v >= 0 && v < r->n_ops, "a value id outside its region");
  return &r->ops[v];
}

/* The op of V, a LOAD or a STORE.  */
static const struct nf_op *
nf_get_access (const nf_region *r, nf_value v)
{
  const struct nf_op *o = nf_get (r, v);
  NF_ASSERT (o->op == NF_OP_LOAD || o->op == NF_OP_STORE,
	     "an access query on an op that is neither a load nor a store");
  return o;
}

/* The op of V, whose opcode must be OP (a query of one opcode's
   attribute; WHAT names it for the message).  */
static const struct nf_op *
nf_get_kind (const nf_region *r, nf_value v, enum nf_opcode op,
	     const char *what)
{
  const struct nf_op *o = nf_get (r, v);
  NF_ASSERT (o->op == op, what);
  return o;
}

enum nf_opcode
nf_op (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->op;
}

nf_type
nf_value_type (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->type;
}

int
nf_op_n_operands (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->n_operands;
}

nf_value
nf_op_operand (const nf_region *r, nf_value v, int i)
{
  const struct nf_op *o = nf_get (r, v);
  if (v == NF_NO_VALUE)
    return NF_NO_VALUE;
  NF_ASSERT (i >= 0 && i < o->n_operands, "an operand index outside its op");
  return o->more ? o->more[i] : o->operands[i];
}

nf_srcloc
nf_value_loc (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->loc;
}

const char *
nf_value_label (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->name;
}

bool
nf_param_is_array (const nf_region *r, nf_value v)
{
  return nf_get_kind (r, v, NF_OP_PARAM, "a parameter query on another op")
    ->is_array;
}

double
nf_const_value (const nf_region *r, nf_value v)
{
  return nf_get_kind (r, v, NF_OP_CONST, "a constant query on another op")->cst;
}

nf_value
nf_access_base (const nf_region *r, nf_value v)
{
  return nf_get_access (r, v)->base;
}

int64_t
nf_access_offset (const nf_region *r, nf_value v)
{
  return nf_get_access (r, v)->offset;
}

int64_t
nf_access_stride (const nf_region *r, nf_value v)
{
  return nf_get_access (r, v)->stride;
}

int64_t
nf_access_row_stride (const nf_region *r, nf_value v)
{
  return nf_get_access (r, v)->row_stride;
}

enum nf_cmp
nf_cmp_pred (const nf_region *r, nf_value v)
{
  return nf_get_kind (r, v, NF_OP_CMP, "a comparison query on another op")
    ->pred;
}

enum nf_opcode
nf_reduce_combiner (const nf_region *r, nf_value v)
{
  return nf_get_kind (r, v, NF_OP_REDUCE, "a reduction query on another op")
    ->combiner;
}

unsigned
nf_reduce_dims (const nf_region *r, nf_value v)
{
  return nf_get_kind (r, v, NF_OP_REDUCE, "a reduction query on another op")
    ->dims;
}

int
nf_value_n_uses (const nf_region *r, nf_value v)
{
  int n = 0;
  (void) nf_get (r, v); /* V is a value of R, or NF_NO_VALUE.  */
  for (nf_value u = v + 1; u < r->n_ops; u++)
    for (int i = 0; i < r->ops[u].n_operands; i++)
      n += nf_op_operand (r, u, i) == v;
  return n;
}

nf_value
nf_value_single_user (const nf_region *r, nf_value v)
{
  nf_value user = NF_NO_VALUE;
  if (nf_value_escapes (r, v))
    return NF_NO_VALUE;
  for (nf_value u = v + 1; u < r->n_ops; u++)
    for (int i = 0; i < r->ops[u].n_operands; i++)
      if (nf_op_operand (r, u, i) == v)
	{
	  if (user != NF_NO_VALUE && user != u)
	    return NF_NO_VALUE;	/* x * x is one user.  */
	  user = u;
	}
  return user;
}

void
nf_value_set_escapes (nf_region *r, nf_value v)
{
  if (v == NF_NO_VALUE)
    return; /* A failed build: nothing escapes.  */
  NF_ASSERT (v >= 0 && v < r->n_ops, "a value id outside its region");
  r->ops[v].escapes = true;
}

bool
nf_value_escapes (const nf_region *r, nf_value v)
{
  return nf_get (r, v)->escapes;
}

/* The dimension D as text in BUF.  */
static const char *
nf_dim_text (const nf_region *r, nf_dim d, char *buf, size_t size)
{
  if (d.sym >= 0)
    snprintf (buf, size, "%s", nf_region_sym_name (r, d.sym));
  else
    snprintf (buf, size, "%lld", (long long) d.extent);
  return buf;
}

void
nf_region_print (const nf_region *r, FILE *f)
{
  for (nf_value v = 0; v < nf_region_n_values (r); v++)
    {
      nf_type t = nf_value_type (r, v);
      fprintf (f, "  %%%d = %s", v, nf_opcode_name (nf_op (r, v)));
      if (nf_value_label (r, v))
	fprintf (f, " \"%s\"", nf_value_label (r, v));
      if (nf_op (r, v) == NF_OP_CONST)
	fprintf (f, " %g", nf_const_value (r, v));
      for (int i = 0; i < nf_op_n_operands (r, v); i++)
	fprintf (f, "%s %%%d", i ? "," : "", nf_op_operand (r, v, i));
      if (nf_op (r, v) == NF_OP_LOAD || nf_op (r, v) == NF_OP_STORE)
	fprintf (f, " [%%%d + %lld]", nf_access_base (r, v),
		 (long long) nf_access_offset (r, v));
      fprintf (f, " : ");
      char a[32], b[32];
      if (t.rank == 0)
	fprintf (f, "%s", nf_elem_name (t.elem));
      else if (t.rank == 1)
	fprintf (f, "tensor<%s x %s>", nf_dim_text (r, t.dims[0], a, sizeof a),
		 nf_elem_name (t.elem));
      else
	fprintf (f, "tensor<%s x %s x %s>",
		 nf_dim_text (r, t.dims[0], a, sizeof a),
		 nf_dim_text (r, t.dims[1], b, sizeof b), nf_elem_name (t.elem));
      if (nf_value_escapes (r, v))
	fprintf (f, " escapes");
      fputc ('\n', f);
    }
}
