/* match-util.c: helpers shared by the matchers (see match-util.h).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"

#include <string.h>

void
nf_oplist_add (nf_oplist *l, nf_value v)
{
  if (l && l->n < (int) (sizeof l->v / sizeof l->v[0]))
    l->v[l->n++] = v;
}

/* Whether V is a CONVERT between float types that loses nothing.  */
static bool
nf_is_widening (const nf_region *r, nf_value v)
{
  if (nf_op (r, v) != NF_OP_CONVERT)
    return false;
  enum nf_elem to = nf_value_type (r, v).elem;
  enum nf_elem from = nf_value_type (r, nf_op_operand (r, v, 0)).elem;
  return nf_elem_is_float (from) && nf_elem_is_float (to) && to >= from;
}

nf_value
nf_strip_widen (const nf_region *r, nf_value v, nf_oplist *l)
{
  while (nf_is_widening (r, v))
    {
      nf_oplist_add (l, v);
      v = nf_op_operand (r, v, 0);
    }
  return v;
}

nf_value
nf_strip_casts (const nf_region *r, nf_value v, nf_oplist *l)
{
  for (;;)
    {
      enum nf_opcode op = nf_op (r, v);
      bool cast = op == NF_OP_BROADCAST
		  || (op == NF_OP_CONVERT
		      && nf_elem_is_float (nf_value_type (r, v).elem));
      if (!cast)
	return v;
      nf_oplist_add (l, v);
      v = nf_op_operand (r, v, 0);
    }
}

nf_value
nf_user_through_casts (const nf_region *r, nf_value v, nf_oplist *l,
		       nf_value *via)
{
  nf_value u = nf_value_single_user (r, v);
  while (u != NF_NO_VALUE && nf_op (r, u) == NF_OP_CONVERT
	 && nf_elem_is_float (nf_value_type (r, u).elem))
    {
      nf_oplist_add (l, u);
      v = u;
      u = nf_value_single_user (r, u);
    }
  if (via)
    *via = v;
  return u;
}

bool
nf_is_const (const nf_region *r, nf_value v, double c)
{
  return nf_op (r, v) == NF_OP_CONST && nf_const_value (r, v) == c;
}

bool
nf_same_access (const nf_region *r, nf_value a, nf_value b)
{
  if (a == b)
    return true;
  return nf_op (r, a) == NF_OP_LOAD && nf_op (r, b) == NF_OP_LOAD
	 && nf_access_base (r, a) == nf_access_base (r, b)
	 && nf_access_offset (r, a) == nf_access_offset (r, b)
	 && nf_access_stride (r, a) == nf_access_stride (r, b)
	 && nf_access_row_stride (r, a) == nf_access_row_stride (r, b)
	 && nf_type_equal (nf_value_type (r, a), nf_value_type (r, b));
}

/* nf_same_value with at most DEPTH levels of operands.  */
static bool
nf_same_value_1 (const nf_region *r, nf_value a, nf_value b, int depth)
{
  if (nf_same_access (r, a, b))
    return true;
  enum nf_opcode op = nf_op (r, a);
  switch (op)
    {
    case NF_OP_CONST:
      return nf_op (r, b) == NF_OP_CONST
	     && nf_type_equal (nf_value_type (r, a), nf_value_type (r, b))
	     && nf_const_value (r, a) == nf_const_value (r, b);
    case NF_OP_PARAM:
    case NF_OP_LOAD:
    case NF_OP_STORE:
    case NF_OP_REDUCE:
    case NF_OP_OPAQUE:
    case NF_OP_COUNT_:
      return false;		/* Only the same as themselves.  */
    case NF_OP_CMP:
      if (nf_op (r, b) == NF_OP_CMP && nf_cmp_pred (r, a) != nf_cmp_pred (r, b))
	return false;
      break;
    default:
      break;
    }
  int n = nf_op_n_operands (r, a);
  if (depth == 0 || nf_op (r, b) != op || nf_op_n_operands (r, b) != n
      || !nf_type_equal (nf_value_type (r, a), nf_value_type (r, b)))
    return false;
  for (int i = 0; i < n; i++)
    if (!nf_same_value_1 (r, nf_op_operand (r, a, i), nf_op_operand (r, b, i),
			  depth - 1))
      return false;
  return true;
}

bool
nf_same_value (const nf_region *r, nf_value a, nf_value b)
{
  /* Elementwise expressions in loop bodies are a few ops deep.  */
  return nf_same_value_1 (r, a, b, 8);
}

void
nf_match_init (nf_match *m, enum nf_kind kind, nf_value anchor)
{
  memset (m, 0, sizeof *m);
  m->kind = kind;
  m->anchor = anchor;
  m->input = m->input2 = m->weight = m->eps = m->result = NF_NO_VALUE;
  m->residual = NF_NO_VALUE;
}

bool
nf_match_fail (nf_match *m, const char *reason)
{
  m->reason = reason;
  return false;
}

bool
nf_match_accept (const nf_region *r, nf_match *m, const nf_oplist *l)
{
  m->cluster = nf_cluster_new (r, nf_kind_name (m->kind), l->v, l->n);
  if (!m->cluster)
    return nf_match_fail (m, "out of memory");
  m->reason = NULL;
  return true;
}

void
nf_match_release (nf_match *m)
{
  nf_cluster_free (m->cluster);
  m->cluster = NULL;
}
