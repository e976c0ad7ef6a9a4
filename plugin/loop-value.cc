/* loop-value.cc: the values of a loop region (loop-ir.cc): the
   reductions of its loops, and what its statements compute from them.

   Step 2 of the builder, nf_lr_reduction: a floating-point header PHI
   whose final value leaves its loop is a REDUCE of the input its update
   combines, acc = input OP acc (+, *, MAX_EXPR, MIN_EXPR, or fmax and
   fmin calls) or, for a _Float16 accumulator in C's excess precision,
   acc = (_Float16) (input OP (float) acc), starting from its value on
   the preheader edge.  Step 3, nf_lr_value: the value of an SSA name,
   built on demand from its definition with its operands first: a
   constant; a parameter (a name defined before the region, a load in
   the scalar code that no storing loop of the region precedes); a load
   in a loop (loop-shape.cc); arithmetic, conversions, comparisons and
   selects; the math calls nf_lr_math_op models and libneuronfuse's
   scalar functions; a PHI.  Scalar ops are hash-consed (lower/'s
   nf_cse_*): the same op on the same operands is one value, so that the
   two arms of a cdce diamond meet in one SQRT.

   PHIs in the scalar code are values when every argument computes the
   same value (the cdce diamond, the PRE'd PHI <.SQRT (s), ...>), except
   on a path taken only when a loop runs zero times: there the argument
   must equal the value evaluated with every reduction at its initial
   value (sqrt (0) = 0).  Trip counts include their guard
   (cond ? niter + 1 : 0), so that path is what the fused call computes
   too.

   The scalar rewrite's expm1 (x + 0.0) and log1p (x + 0.0) are built as
   expm1 (x) + 0.0 and log1p (x) + 0.0, the same values in the form the
   matchers and emitters know (nf_lr_call).

   Limitations: a reduction's update is one operation on the running
   value (another than those above, acc - x among them, gives a REDUCE
   with an opaque combiner, which no matcher takes; x - acc is none);
   unordered comparisons (-ffinite-math-only's inverted tests)
   are not modelled; the value with empty loops is evaluated for
   constants, +, -, *, /, sqrt and conversions only; a value may depend
   on itself only through a reduction.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "reasons.h"
#include "nf-plugin.h"
#include "to-ir.h"
#include "loop-ir.h"

#include <math.h>

#define NF_LR_BUSY (-2)

/* --- Hash-consing: the same scalar op on the same operands is one
   value, so that the two arms of a cdce diamond meet in one SQRT
   (lower/'s nf_cse_*, on the region of G).  --- */

static nf_value
nf_lr_binary (struct nf_lregion *g, enum nf_opcode op, nf_value a, nf_value b)
{
  return nf_cse_binary (g->r, op, a, b);
}

static nf_value
nf_lr_unary (struct nf_lregion *g, enum nf_opcode op, nf_value a)
{
  return nf_cse_unary (g->r, op, a);
}

static nf_value
nf_lr_convert (struct nf_lregion *g, nf_value a, enum nf_elem to)
{
  return nf_cse_convert (g->r, a, to);
}

/* The constant T.  */
static nf_value
nf_lr_const (struct nf_lregion *g, tree t)
{
  nf_type type = nf_scalar_type (nf_elem_of (TREE_TYPE (t)));
  double c = nf_cst_value (t);
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_CONST
	&& nf_type_equal (nf_value_type (g->r, v), type)
	&& nf_const_value (g->r, v) == c)
      return v;
  return nf_lr_note (g, nf_const (g->r, type, c), t, NULL);
}

/* --- Step 2: reductions.  ------------------------------------------- */

/* The update UPD of the accumulator whose header PHI defines RES: acc =
   input OP acc; or, for a _Float16 accumulator in C's excess precision,
   acc = (_Float16) (input OP (float) acc).  Returns OP's opcode
   (NF_OP_OPAQUE for one the IR has no combiner for), with the input in
   *INPUT and in *OP_STMT the statement that applies OP (UPD, or the
   operation under its conversion); *INPUT is NULL_TREE when UPD is no
   simple accumulation.  */
static enum nf_opcode
nf_lr_accumulation (gimple *upd, tree res, gimple **op_stmt, tree *input)
{
  enum nf_opcode comb = NF_OP_OPAQUE;
  tree in = NULL_TREE;
  gimple *op = upd;
  tree acc = res;
  if (is_gimple_assign (upd)
      && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (upd))
      && TREE_CODE (gimple_assign_rhs1 (upd)) == SSA_NAME
      && SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (upd))))
    {
      op = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (upd));
      if (is_gimple_assign (op) && gimple_num_ops (op) == 3)
	for (int i = 1; i <= 2; i++)
	  {
	    tree o = gimple_op (op, i);
	    gimple *d
	      = TREE_CODE (o) == SSA_NAME ? SSA_NAME_DEF_STMT (o) : NULL;
	    if (d && is_gimple_assign (d)
		&& CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))
		&& gimple_assign_rhs1 (d) == res)
	      acc = o;
	  }
    }
  if (is_gimple_assign (op) && gimple_num_ops (op) == 3 && acc)
    {
      tree a = gimple_assign_rhs1 (op), b = gimple_assign_rhs2 (op);
      enum tree_code code = gimple_assign_rhs_code (op);
      if (a == acc || b == acc)
	{
	  in = a == acc ? b : a;
	  comb = code == PLUS_EXPR   ? NF_OP_ADD
		 : code == MULT_EXPR ? NF_OP_MUL
		 : code == MAX_EXPR  ? NF_OP_MAX
		 : code == MIN_EXPR  ? NF_OP_MIN
				     : NF_OP_OPAQUE;
	  if (code == MINUS_EXPR && a != acc)
	    in = NULL_TREE;
	}
    }
  else if (gcall *call = nf_as_call (upd))
    {
      combined_fn fn = gimple_call_combined_fn (call);
      if (gimple_call_num_args (call) == 2
	  && (gimple_call_arg (call, 0) == res
	      || gimple_call_arg (call, 1) == res))
	{
	  in = gimple_call_arg (call, gimple_call_arg (call, 0) == res);
	  comb = (fn == CFN_BUILT_IN_FMAXF || fn == CFN_BUILT_IN_FMAX
		  || fn == CFN_BUILT_IN_FMAXL)
		   ? NF_OP_MAX
		 : (fn == CFN_BUILT_IN_FMINF || fn == CFN_BUILT_IN_FMIN
		    || fn == CFN_BUILT_IN_FMINL)
		   ? NF_OP_MIN
		   : NF_OP_OPAQUE;
	}
    }
  *op_stmt = op;
  *input = in;
  return comb;
}

/* The REDUCE of loop K's header PHI, whose final value T leaves the loop
   on its exit edge.  */
nf_value
nf_lr_reduction (struct nf_lregion *g, int k, tree t)
{
  struct nf_lr_loop *l = &g->loops[k];
  class loop *loop = l->loop;
  edge latch = loop_latch_edge (loop);
  /* Built already: from a PHI on the exit and from nf_lr_leaving.  */
  for (int i = 0; i < g->n_finals; i++)
    if (g->finals[i].name == t && g->finals[i].loop == k)
      return g->finals[i].v;
  /* The final value widened in the loop's header ((float) acc of a
     _Float16 accumulator, tested there before the exit).  */
  gimple *d = TREE_CODE (t) == SSA_NAME ? SSA_NAME_DEF_STMT (t) : NULL;
  if (d && is_gimple_assign (d)
      && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))
      && TREE_CODE (gimple_assign_rhs1 (d)) == SSA_NAME
      && gimple_code (SSA_NAME_DEF_STMT (gimple_assign_rhs1 (d))) == GIMPLE_PHI
      && gimple_bb (SSA_NAME_DEF_STMT (gimple_assign_rhs1 (d))) == loop->header
      && nf_elem_of (TREE_TYPE (t)) != NF_ELEM_NONE)
    {
      nf_value v = nf_lr_reduction (g, k, gimple_assign_rhs1 (d));
      return v == NF_NO_VALUE
	       ? v
	       : nf_lr_convert (g, v, nf_elem_of (TREE_TYPE (t)));
    }
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      gphi *phi = pi.phi ();
      tree res = gimple_phi_result (phi);
      tree next = PHI_ARG_DEF_FROM_EDGE (phi, latch);
      if (res != t && next != t)
	continue;
      if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (res))
	  || TREE_CODE (next) != SSA_NAME)
	return nf_lr_fail (g, "a value leaving the loop is not a "
			      "floating-point reduction");
      /* The value on the exit must be the final one: the latch value
	 where the exit follows the update (do-while), the PHI where the
	 exit test precedes it (while).  */
      gimple *upd = SSA_NAME_DEF_STMT (next);
      bool upd_before_exit
	= dominated_by_p (CDI_DOMINATORS, l->exit->src, gimple_bb (upd));
      if ((t == next) != upd_before_exit)
	return nf_lr_fail (g, "the value leaving the loop is not the "
			      "reduction's final value");
      nf_value init = nf_lr_value (
	g, PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (loop)));
      if (init == NF_NO_VALUE)
	return NF_NO_VALUE;
      gimple *op;
      tree input;
      enum nf_opcode comb = nf_lr_accumulation (upd, res, &op, &input);
      if (!input)
	return nf_lr_fail (g, NF_WHY_ACCUMULATION);
      nf_value in = nf_lr_value (g, input);
      if (in == NF_NO_VALUE)
	return NF_NO_VALUE;
      if (nf_value_type (g->r, in).rank == 0)
	in = nf_broadcast (
	  g->r, in,
	  nf_tensor1_type (nf_value_type (g->r, in).elem, nf_lr_dim (g, k)));
      if (op != upd && g->n_absorbed < NF_LR_MAX_ABSORBED)
	g->absorbed[g->n_absorbed++] = op;
      nf_value v = nf_reduce (
	g->r, in, nf_lr_convert (g, init, nf_elem_of (TREE_TYPE (res))), comb,
	1u);
      nf_lr_note (g, v, next, upd);
      if (v >= 0 && g->n_finals < NF_LR_MAX_FINALS)
	{
	  g->finals[g->n_finals].name = t;
	  g->finals[g->n_finals].loop = k;
	  g->finals[g->n_finals++].v = v;
	}
      return v;
    }
  return nf_lr_fail (g, "a value leaving the loop is not a reduction");
}

/* --- Step 3: the statements.  --------------------------------------- */

/* The opcode of a call to math function FN and its number of
   arguments, or NF_OP_COUNT_.  */
enum nf_opcode
nf_lr_math_op (combined_fn fn, int *nargs)
{
  *nargs = 1;
  switch (fn)
    {
    case CFN_SQRT:
    case CFN_BUILT_IN_SQRTF:
    case CFN_BUILT_IN_SQRT:
    case CFN_BUILT_IN_SQRTL:
      return NF_OP_SQRT;
    case CFN_RSQRT:
      return NF_OP_RSQRT;
    case CFN_EXP:
    case CFN_BUILT_IN_EXPF:
    case CFN_BUILT_IN_EXP:
    case CFN_BUILT_IN_EXPL:
      return NF_OP_EXP;
    case CFN_LOG:
    case CFN_BUILT_IN_LOGF:
    case CFN_BUILT_IN_LOG:
    case CFN_BUILT_IN_LOGL:
      return NF_OP_LOG;
    case CFN_EXPM1:
    case CFN_BUILT_IN_EXPM1F:
    case CFN_BUILT_IN_EXPM1:
    case CFN_BUILT_IN_EXPM1L:
      return NF_OP_EXPM1;
    case CFN_LOG1P:
    case CFN_BUILT_IN_LOG1PF:
    case CFN_BUILT_IN_LOG1P:
    case CFN_BUILT_IN_LOG1PL:
      return NF_OP_LOG1P;
    case CFN_POW:
    case CFN_BUILT_IN_POWF:
    case CFN_BUILT_IN_POW:
    case CFN_BUILT_IN_POWL:
      *nargs = 2;
      return NF_OP_POW;
    case CFN_FMAX:
    case CFN_BUILT_IN_FMAXF:
    case CFN_BUILT_IN_FMAX:
    case CFN_BUILT_IN_FMAXL:
      *nargs = 2;
      return NF_OP_MAX;
    case CFN_FMIN:
    case CFN_BUILT_IN_FMINF:
    case CFN_BUILT_IN_FMIN:
    case CFN_BUILT_IN_FMINL:
      *nargs = 2;
      return NF_OP_MIN;
    default:
      return NF_OP_COUNT_;
    }
}

enum nf_opcode
nf_lr_call_op (const gimple *stmt, int *nargs)
{
  enum nf_opcode op = nf_lr_math_op (gimple_call_combined_fn (stmt), nargs);
  if (op == NF_OP_COUNT_)
    op = nf_runtime_call_op (stmt);
  return op;
}

/* Whether T is X + 0.0 (+0, the scalar rewrite's zero), used once; sets
   *X.  */
bool
nf_lr_zero_added (tree t, tree *x)
{
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (!is_gimple_assign (d) || gimple_assign_rhs_code (d) != PLUS_EXPR
      || !has_single_use (t))
    return false;
  tree c = gimple_assign_rhs2 (d);
  if (TREE_CODE (c) != REAL_CST || !real_zerop (c)
      || REAL_VALUE_NEGATIVE (TREE_REAL_CST (c)))
    return false;
  *x = gimple_assign_rhs1 (d);
  return true;
}

/* The value of CALL, a math call.  */
static nf_value
nf_lr_call (struct nf_lregion *g, gcall *call)
{
  int nargs;
  enum nf_opcode op = nf_lr_call_op (call, &nargs);
  if (op == NF_OP_COUNT_ || (int) gimple_call_num_args (call) != nargs)
    return nf_lr_fail (g, NF_WHY_CALL);
  /* The scalar rewrite's expm1 (x + 0.0) and log1p (x + 0.0) (scalar.cc:
     the call stays a tail call) are expm1 (x) + 0.0 and log1p (x) + 0.0,
     the same values: the region has the form the matchers and the
     emitters know, the libclang tool's.  */
  tree z = NULL_TREE;
  tree arg = gimple_call_arg (call, 0);
  if ((op == NF_OP_EXPM1 || op == NF_OP_LOG1P) && TREE_CODE (arg) == SSA_NAME
      && nf_lr_zero_added (arg, &z))
    {
      nf_value x = nf_lr_value (g, z);
      if (x == NF_NO_VALUE)
	return x;
      nf_value e = nf_lr_unary (g, op, x);
      return e == NF_NO_VALUE
	       ? e
	       : nf_lr_binary (g, NF_OP_ADD, e,
			       nf_lr_const (g, build_real (TREE_TYPE (arg),
							   dconst0)));
    }
  tree arg1 = nargs == 2 ? gimple_call_arg (call, 1) : NULL_TREE;
  /* fmax and fmin commute: a constant first (fmaxf (1e-12f, norm)) goes
     second, where GCC 12's folding of the call and the libclang tool put
     it (GCC 11 keeps the order written).  */
  if ((op == NF_OP_MAX || op == NF_OP_MIN) && CONSTANT_CLASS_P (arg)
      && !CONSTANT_CLASS_P (arg1))
    {
      tree t = arg;
      arg = arg1;
      arg1 = t;
    }
  nf_value a = nf_lr_value (g, arg);
  if (a == NF_NO_VALUE)
    return a;
  if (nargs == 1)
    return nf_lr_unary (g, op, a);
  nf_value b = nf_lr_value (g, arg1);
  return b == NF_NO_VALUE ? b : nf_lr_binary (g, op, a, b);
}

/* The comparison A CODE B of floats (an elementwise body's condition),
   or NF_NO_VALUE with a reason.  The unordered predicates of
   -ffinite-math-only's inverted tests are not modelled.  */
static nf_value
nf_lr_compare (struct nf_lregion *g, enum tree_code code, tree a, tree b)
{
  if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (a)))
    return nf_lr_fail (g, NF_WHY_COMPARE);
  enum nf_cmp pred;
  switch (code)
    {
    case LT_EXPR: pred = NF_CMP_LT; break;
    case LE_EXPR: pred = NF_CMP_LE; break;
    case GT_EXPR: pred = NF_CMP_GT; break;
    case GE_EXPR: pred = NF_CMP_GE; break;
    case EQ_EXPR: pred = NF_CMP_EQ; break;
    case NE_EXPR: pred = NF_CMP_NE; break;
    default:
      return nf_lr_fail (g, "a comparison of the region is unordered");
    }
  nf_value x = nf_lr_value (g, a);
  nf_value y = x == NF_NO_VALUE ? x : nf_lr_value (g, b);
  return y == NF_NO_VALUE ? y : nf_cse_cmp (g->r, pred, x, y);
}

/* The value of the select C ? A : B (a COND_EXPR).  */
static nf_value
nf_lr_select (struct nf_lregion *g, tree c, tree a, tree b)
{
  nf_value cv = COMPARISON_CLASS_P (c)
		  ? nf_lr_compare (g, TREE_CODE (c), TREE_OPERAND (c, 0),
				   TREE_OPERAND (c, 1))
		  : nf_lr_value (g, c);
  if (cv == NF_NO_VALUE)
    return cv;
  if (nf_value_type (g->r, cv).elem != NF_ELEM_BOOL)
    return nf_lr_fail (g, NF_WHY_SELECT);
  nf_value x = nf_lr_value (g, a);
  nf_value y = x == NF_NO_VALUE ? x : nf_lr_value (g, b);
  return y == NF_NO_VALUE ? y : nf_cse_select (g->r, cv, x, y);
}

/* The value of the assignment STMT, in loop K or (K < 0) in the scalar
   code.  */
static nf_value
nf_lr_assign (struct nf_lregion *g, int k, gimple *stmt)
{
  tree lhs = gimple_assign_lhs (stmt);
  if (gimple_assign_load_p (stmt))
    {
      if (k >= 0)
	return nf_lr_load (g, k, stmt);
      if (!nf_lr_hoistable_load (g, stmt))
	return nf_lr_fail (g, "memory is read between the loops after a "
			      "store");
      /* Read before any store of the region: its value at the entry.  */
      enum nf_elem e = nf_elem_of (TREE_TYPE (lhs));
      if (e == NF_ELEM_NONE)
	return nf_lr_fail (g, NF_WHY_INPUT_KIND);
      char name[64];
      return nf_param (
	g->r, nf_value_name (gimple_assign_rhs1 (stmt), name, sizeof name),
	nf_scalar_type (e), false);
    }
  if (nf_elem_of (TREE_TYPE (lhs)) == NF_ELEM_NONE)
    return nf_lr_fail (g, "a value of the region is neither a number nor "
			  "an array element");
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree a = gimple_assign_rhs1 (stmt);
  switch (code)
    {
    case SSA_NAME:
    case REAL_CST:
    case INTEGER_CST:
      return nf_lr_value (g, a);
    CASE_CONVERT:
    case FLOAT_EXPR:
      {
	if (nf_elem_of (TREE_TYPE (a)) == NF_ELEM_NONE)
	  return nf_lr_fail (g, NF_WHY_CONVERSION);
	nf_value v = nf_lr_value (g, a);
	return v == NF_NO_VALUE
		 ? v
		 : nf_lr_convert (g, v, nf_elem_of (TREE_TYPE (lhs)));
      }
    case NEGATE_EXPR:
      {
	nf_value v = nf_lr_value (g, a);
	return v == NF_NO_VALUE ? v : nf_lr_unary (g, NF_OP_NEG, v);
      }
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case RDIV_EXPR:
    case MAX_EXPR:
    case MIN_EXPR:
      {
	nf_value x = nf_lr_value (g, a);
	nf_value y
	  = x == NF_NO_VALUE ? x : nf_lr_value (g, gimple_assign_rhs2 (stmt));
	if (y == NF_NO_VALUE)
	  return y;
	enum nf_opcode op = code == PLUS_EXPR	 ? NF_OP_ADD
			    : code == MINUS_EXPR ? NF_OP_SUB
			    : code == MULT_EXPR	 ? NF_OP_MUL
			    : code == RDIV_EXPR	 ? NF_OP_DIV
			    : code == MAX_EXPR	 ? NF_OP_MAX
						 : NF_OP_MIN;
	return nf_lr_binary (g, op, x, y);
      }
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
    case EQ_EXPR:
    case NE_EXPR:
    case UNLT_EXPR:
    case UNLE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
    case UNEQ_EXPR:
    case LTGT_EXPR:
    case ORDERED_EXPR:
    case UNORDERED_EXPR:
      return nf_lr_compare (g, code, a, gimple_assign_rhs2 (stmt));
    case COND_EXPR:
      return nf_lr_select (g, a, gimple_assign_rhs2 (stmt),
			   gimple_assign_rhs3 (stmt));
    default:
      return nf_lr_fail (g, NF_WHY_UNMODELED);
    }
}

/* Value V of the region evaluated with every reduction at its initial
   value, as on a path that skips the loops; false when it depends on
   anything else.  */
static bool
nf_lr_eval_empty (const nf_region *r, nf_value v, double *out)
{
  double a, b;
  enum nf_elem e = nf_value_type (r, v).elem;
  switch (nf_op (r, v))
    {
    case NF_OP_CONST:
      *out = nf_const_value (r, v);
      return true;
    case NF_OP_REDUCE:
      return nf_lr_eval_empty (r, nf_op_operand (r, v, 1), out);
    case NF_OP_CONVERT:
    case NF_OP_SQRT:
      if (!nf_lr_eval_empty (r, nf_op_operand (r, v, 0), &a))
	return false;
      *out = nf_op (r, v) == NF_OP_SQRT ? sqrt (a) : a;
      break;
    case NF_OP_ADD:
    case NF_OP_SUB:
    case NF_OP_MUL:
    case NF_OP_DIV:
      if (!nf_lr_eval_empty (r, nf_op_operand (r, v, 0), &a)
	  || !nf_lr_eval_empty (r, nf_op_operand (r, v, 1), &b))
	return false;
      *out = nf_op (r, v) == NF_OP_ADD	 ? a + b
	     : nf_op (r, v) == NF_OP_SUB ? a - b
	     : nf_op (r, v) == NF_OP_MUL ? a * b
					 : a / b;
      break;
    default:
      return false;
    }
  if (e == NF_ELEM_F32)
    *out = (float) *out;
  return true;
}

/* Whether edge E is taken only when some loop's guard skips it.  */
static bool
nf_lr_skip_edge (const struct nf_lregion *g, edge e)
{
  for (int depth = 0; depth < 4; depth++)
    {
      for (int k = 0; k < g->n_loops; k++)
	if (g->loops[k].skip == e)
	  return true;
      if (!single_pred_p (e->src) || !single_succ_p (e->src))
	return false;
      e = single_pred_edge (e->src);
    }
  return false;
}

/* The value of PHI, in the scalar code.  */
static nf_value
nf_lr_phi (struct nf_lregion *g, gphi *phi)
{
  nf_value v = NF_NO_VALUE;
  /* Arguments from paths that run the loops: all the same value.  */
  for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      tree arg = gimple_phi_arg_def (phi, i);
      if (nf_lr_skip_edge (g, e))
	continue;
      nf_value a = NF_NO_VALUE;
      for (int k = 0; k < g->n_loops; k++)
	if (g->loops[k].exit == e)
	  a = nf_lr_reduction (g, k, arg);
      if (a == NF_NO_VALUE && !g->fail)
	a = nf_lr_value (g, arg);
      if (a == NF_NO_VALUE)
	return NF_NO_VALUE;
      if (v != NF_NO_VALUE && a != v)
	return nf_lr_fail (g, "a value after the loop depends on a branch");
      v = a;
    }
  if (v == NF_NO_VALUE)
    return nf_lr_fail (g, "a value after the loop depends on a branch");
  /* Arguments from paths around them: the value with empty loops.  */
  for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      tree arg = gimple_phi_arg_def (phi, i);
      double want, got;
      if (!nf_lr_skip_edge (g, e))
	continue;
      if (TREE_CODE (arg) == SSA_NAME && SSA_NAME_VERSION (arg) < g->n_ssa
	  && g->ssa[SSA_NAME_VERSION (arg)] == v)
	continue;
      if (!(TREE_CODE (arg) == REAL_CST || TREE_CODE (arg) == INTEGER_CST)
	  || !nf_lr_eval_empty (g->r, v, &want)
	  || (got = nf_cst_value (arg), got != want))
	return nf_lr_fail (g, "on the path that skips the loop, a value "
			      "differs from the empty loop's");
    }
  return v;
}

static nf_value nf_lr_def_1 (struct nf_lregion *g, gimple *stmt);

/* The value of the definition STMT of T, inside the region: with
   G->cur_bb its block while its operands are built.  */
static nf_value
nf_lr_def (struct nf_lregion *g, gimple *stmt)
{
  basic_block saved = g->cur_bb;
  g->cur_bb = gimple_bb (stmt);
  nf_value v = nf_lr_def_1 (g, stmt);
  g->cur_bb = saved;
  return v;
}

static nf_value
nf_lr_def_1 (struct nf_lregion *g, gimple *stmt)
{
  basic_block bb = gimple_bb (stmt);
  int k = -1;
  if (bb->loop_father != loop_outer (g->loops[0].loop))
    {
      struct nf_lr_loop *l = nf_lr_loop_of (g, bb);
      if (!l)
	return nf_lr_fail (g, "a value comes from a loop outside the region");
      k = l - g->loops;
    }
  switch (gimple_code (stmt))
    {
    case GIMPLE_PHI:
      if (k >= 0 && bb == g->loops[k].loop->header)
	return nf_lr_fail (g, "the running value of a reduction or the "
			      "induction variable is used in the loop");
      return nf_lr_phi (g, as_a<gphi *> (stmt));
    case GIMPLE_ASSIGN:
      return nf_lr_assign (g, k, stmt);
    case GIMPLE_CALL:
      return nf_lr_call (g, as_a<gcall *> (stmt));
    default:
      return nf_lr_fail (g, "a value is defined by a statement the matchers "
			    "do not model");
    }
}

/* The value of T (an SSA name or a constant).  */
nf_value
nf_lr_value (struct nf_lregion *g, tree t)
{
  if (TREE_CODE (t) == REAL_CST || TREE_CODE (t) == INTEGER_CST)
    return nf_elem_of (TREE_TYPE (t)) == NF_ELEM_NONE
	     ? nf_lr_fail (g, "a constant of the region is not a number")
	     : nf_lr_const (g, t);
  if (TREE_CODE (t) != SSA_NAME || virtual_operand_p (t)
      || SSA_NAME_VERSION (t) >= g->n_ssa)
    return nf_lr_fail (g, NF_WHY_OPERAND);
  unsigned ver = SSA_NAME_VERSION (t);
  /* A reduction's final value, read after its loop.  */
  for (int i = 0; i < g->n_finals; i++)
    if (g->finals[i].name == t
	&& (!g->cur_bb
	    || !flow_bb_inside_loop_p (g->loops[g->finals[i].loop].loop,
				       g->cur_bb)))
      return g->finals[i].v;
  if (g->ssa[ver] == NF_LR_BUSY)
    return nf_lr_fail (g, "a value depends on itself");
  if (g->ssa[ver] != NF_NO_VALUE)
    return g->ssa[ver];
  gimple *def = SSA_NAME_DEF_STMT (t);
  nf_value v;
  if (!SSA_NAME_IS_DEFAULT_DEF (t) && nf_lr_before_start (g, def)
      && is_gimple_assign (def)
      && (CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))
	  || gimple_assign_rhs_code (def) == FLOAT_EXPR
	  || (gimple_assign_rhs_code (def) == RDIV_EXPR
	      && real_onep (gimple_assign_rhs1 (def))))
      && nf_elem_of (TREE_TYPE (t)) != NF_ELEM_NONE
      && nf_elem_of (TREE_TYPE (gimple_assign_rhs1 (def))) != NF_ELEM_NONE)
    {
      /* A conversion or a reciprocal hoisted before the region, as
	 (float) n and 1 / (float) n: the matchers look at what is
	 converted.  */
      g->ssa[ver] = NF_LR_BUSY;
      v = nf_lr_assign (g, -1, def);
    }
  else if (SSA_NAME_IS_DEFAULT_DEF (t) || nf_lr_before_start (g, def))
    {
      /* Defined before the region: a parameter.  */
      enum nf_elem e = nf_elem_of (TREE_TYPE (t));
      if (e == NF_ELEM_NONE)
	return nf_lr_fail (g, NF_WHY_INPUT_KIND);
      char name[64];
      v = nf_param (g->r, nf_value_name (t, name, sizeof name),
		    nf_scalar_type (e), false);
      def = NULL;
    }
  else
    {
      g->ssa[ver] = NF_LR_BUSY;
      v = nf_lr_def (g, def);
    }
  g->ssa[ver] = v;
  return nf_lr_note (g, v, t, def);
}
