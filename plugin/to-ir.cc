/* to-ir.cc: GIMPLE expressions to the region IR (see to-ir.h).

   The scalar idioms need only the few statements around one anchor, so
   this builder expands exactly what the lower/ matchers look at and
   makes everything else a region parameter:

     _1 = expf (x_2(D));             param x
     _3 = (double) _1;          =>   exp x ; convert f64 ; const 1.0
     _4 = _3 - 1.0e+0;               sub                 (anchor)

   A value the function also uses outside the built expression (its
   GIMPLE use count exceeds its uses in the region) is marked as escaping,
   which is what makes the matchers' single-use guards see it.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "nf-plugin.h"
#include "to-ir.h"

bool
nf_expr_init (struct nf_expr_region *g)
{
  memset (g, 0, sizeof *g);
  g->r = nf_region_new (current_function_decl
			  ? IDENTIFIER_POINTER (DECL_NAME (current_function_decl))
			  : "?");
  return g->r != NULL;
}

void
nf_expr_fini (struct nf_expr_region *g)
{
  nf_region_free (g->r);
  g->r = NULL;
}

tree
nf_expr_tree (const struct nf_expr_region *g, nf_value v)
{
  return v >= 0 && v < g->n ? g->trees[v] : NULL_TREE;
}

enum nf_elem
nf_elem_of (tree type)
{
  if (SCALAR_FLOAT_TYPE_P (type))
    switch (TYPE_PRECISION (type))
      {
      case 16:
	return NF_ELEM_F16;
      case 32:
	return NF_ELEM_F32;
      case 64:
	return NF_ELEM_F64;
      default:
	return NF_ELEM_F80;
      }
  if (INTEGRAL_TYPE_P (type))
    return TYPE_PRECISION (type) > 32 ? NF_ELEM_I64 : NF_ELEM_I32;
  return NF_ELEM_NONE;
}

double
nf_cst_value (tree t)
{
  if (TREE_CODE (t) == INTEGER_CST)
    return tree_fits_shwi_p (t) ? (double) tree_to_shwi (t)
				: (double) tree_to_uhwi (t);
  /* GCC exports no REAL_VALUE_TYPE -> double; decimal with 30 digits
     round-trips every double, so the constants a matcher compares
     exactly (0, 1, -1, 2, -0.5) come out exact.  */
  char buf[64];
  real_to_decimal (buf, TREE_REAL_CST_PTR (t), sizeof buf, 30, 1);
  return strtod (buf, NULL);
}

/* Record that value V stands for T; returns V.  */
static nf_value
nf_expr_note (struct nf_expr_region *g, nf_value v, tree t)
{
  if (v >= 0 && v < NF_EXPR_MAX)
    {
      g->trees[v] = t;
      g->n = v + 1;
    }
  return v;
}

/* The value already built for T, or NF_NO_VALUE.  */
static nf_value
nf_expr_lookup (const struct nf_expr_region *g, tree t)
{
  for (int i = 0; i < g->n; i++)
    if (g->trees[i] == t)
      return i;
  return NF_NO_VALUE;
}

/* T as a leaf: a constant, or a parameter named like the variable.  */
static nf_value
nf_expr_leaf (struct nf_expr_region *g, tree t)
{
  nf_value v = nf_expr_lookup (g, t);
  if (v != NF_NO_VALUE)
    return v;
  nf_type type = nf_scalar_type (nf_elem_of (TREE_TYPE (t)));
  if (TREE_CODE (t) == REAL_CST)
    return nf_expr_note (g, nf_const (g->r, type, nf_cst_value (t)), t);
  char name[64];
  return nf_expr_note (g, nf_param (g->r, nf_value_name (t, name,
							  sizeof name),
				     type, false),
		       t);
}

/* Mark V escaping when its SSA name T has more non-debug uses in the
   function than in the region.  */
static void
nf_expr_uses (struct nf_expr_region *g, nf_value v, tree t)
{
  if (v == NF_NO_VALUE || TREE_CODE (t) != SSA_NAME)
    return;
  int n = 0;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, t)
    if (!is_gimple_debug (USE_STMT (use)))
      n++;
  if (n > nf_value_n_uses (g->r, v))
    nf_value_set_escapes (g->r, v);
}

/* The defining statement of T when it is an assignment of CODE class
   (CONVERT_EXPR for any conversion), else NULL.  */
static gimple *
nf_def_assign (tree t)
{
  if (TREE_CODE (t) != SSA_NAME)
    return NULL;
  gimple *def = SSA_NAME_DEF_STMT (t);
  return is_gimple_assign (def) ? def : NULL;
}

/* Whether T is defined by a conversion between float types.  */
static bool
nf_is_float_convert (tree t)
{
  gimple *def = nf_def_assign (t);
  return def && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))
	 && SCALAR_FLOAT_TYPE_P (TREE_TYPE (t))
	 && SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (def)));
}

/* The exp/expf/expl call defining T, or NULL.  */
static gcall *
nf_def_exp_call (tree t)
{
  const struct nf_mathfn *fn;
  return TREE_CODE (t) == SSA_NAME
	   ? nf_math_call (SSA_NAME_DEF_STMT (t), nf_exp_fns, &fn)
	   : NULL;
}

/* T expanded through float conversions to an exp call, else a leaf.  */
static nf_value
nf_expr_exp_operand (struct nf_expr_region *g, tree t)
{
  if (nf_is_float_convert (t))
    {
      tree inner = gimple_assign_rhs1 (SSA_NAME_DEF_STMT (t));
      if (nf_is_float_convert (inner) || nf_def_exp_call (inner))
	{
	  nf_value in = nf_expr_exp_operand (g, inner);
	  nf_value v = nf_expr_note (g, nf_convert (g->r, in,
						    nf_elem_of (TREE_TYPE (t))),
				     t);
	  nf_expr_uses (g, in, inner);
	  return v;
	}
    }
  gcall *call = nf_def_exp_call (t);
  if (call)
    return nf_expr_note (g, nf_unary (g->r, NF_OP_EXP,
				      nf_expr_leaf (g, gimple_call_arg (call,
									0))),
			 t);
  return nf_expr_leaf (g, t);
}

nf_value
nf_expr_expm1 (struct nf_expr_region *g, gimple *stmt)
{
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree lhs = gimple_assign_lhs (stmt);
  if ((code != PLUS_EXPR && code != MINUS_EXPR)
      || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (lhs)))
    return NF_NO_VALUE;
  tree t1 = gimple_assign_rhs1 (stmt), t2 = gimple_assign_rhs2 (stmt);
  nf_value a = nf_expr_exp_operand (g, t1);
  nf_value b = nf_expr_exp_operand (g, t2);
  nf_value v = nf_expr_note (g, nf_binary (g->r, code == PLUS_EXPR
						   ? NF_OP_ADD : NF_OP_SUB,
					   a, b),
			     lhs);
  nf_expr_uses (g, a, t1);
  if (t2 != t1)
    nf_expr_uses (g, b, t2);
  nf_value_set_escapes (g->r, v);	/* The result leaves the region.  */
  return v;
}

/* T expanded through float conversions to one addition or subtraction
   of leaves or exp calls, else a leaf.  */
static nf_value
nf_expr_log_operand (struct nf_expr_region *g, tree t)
{
  gimple *def = nf_def_assign (t);
  if (!def)
    return nf_expr_leaf (g, t);
  enum tree_code code = gimple_assign_rhs_code (def);
  nf_value v;
  if (nf_is_float_convert (t))
    {
      tree inner = gimple_assign_rhs1 (def);
      nf_value in = nf_expr_log_operand (g, inner);
      v = nf_convert (g->r, in, nf_elem_of (TREE_TYPE (t)));
      nf_expr_note (g, v, t);
      nf_expr_uses (g, in, inner);
      return v;
    }
  if ((code == PLUS_EXPR || code == MINUS_EXPR)
      && SCALAR_FLOAT_TYPE_P (TREE_TYPE (t)))
    {
      /* An exp among the terms is built, for the matcher's sign of
	 zero facts (softplus' log (1 + exp (y))).  */
      nf_value a = nf_expr_exp_operand (g, gimple_assign_rhs1 (def));
      nf_value b = nf_expr_exp_operand (g, gimple_assign_rhs2 (def));
      return nf_expr_note (g, nf_binary (g->r, code == PLUS_EXPR ? NF_OP_ADD
								 : NF_OP_SUB,
					 a, b),
			   t);
    }
  return nf_expr_leaf (g, t);
}

nf_value
nf_expr_log1p (struct nf_expr_region *g, gcall *call)
{
  tree lhs = gimple_call_lhs (call);
  if (!lhs || gimple_call_num_args (call) != 1)
    return NF_NO_VALUE;
  tree arg = gimple_call_arg (call, 0);
  nf_value a = nf_expr_log_operand (g, arg);
  nf_value v = nf_expr_note (g, nf_unary (g->r, NF_OP_LOG, a), lhs);
  nf_expr_uses (g, a, arg);
  nf_value_set_escapes (g->r, v);	/* The result leaves the region.  */
  return v;
}
