/* loop-ir.cc: one or two innermost loops of GIMPLE, and the scalar code
   between and after them, as region IR (see loop-ir.h).

   The builder starts at a loop with a floating-point reduction and grows
   the region along the data flow, as a graph compiler sees it: every
   value computed from the reduction after the loop is added, and the
   operands of each, down to loads and to values defined before the
   region (its parameters).  For the llama2.c rmsnorm at -O2, after "ldist":

     if (size_22(D) > 0)                           guard: trip count
     # ss_42 = PHI <ss_33(13), 0.0(11)>              size > 0 ? size : 0
     _4 = *_3;  _5 = _4 * _4;  ss_33 = _5 + ss_42;   reduce_add (x*x, 0)
     if (size_22(D) > j_34) ...
     # ss_61 = PHI <ss_33(3)>                      loop-closed: the reduce
     # ss_43 = PHI <ss_61(15), 0.0(2)>             guard's join: the
     ss_23 = ss_43 / _6;  ss_24 = ss_23 + 1e-5;      reduce (0 on the
     if (ss_24 u>= 0.0) _7 = .SQRT (ss_24);          path around the loop)
     else _35 = sqrtf (ss_24);                     cdce: both arms are
     # _38 = PHI <_35(6), _7(5)>                     sqrt (ss_24)
     ss_27 = 1.0e+0 / _38;
     if (size_22(D) > 0) ...                       second loop, same count
     _14 = *_13;  _15 = _14 * ss_27; ...  *_16 = _17;  store

   Steps: 1. analyse the first loop (single exit, one block of work, a
   trip count from number_of_latch_executions, its guard); 2. build its
   reductions as REDUCE ops; 3. build every use of them after the loop
   (a worklist over immediate uses), each statement's operands built on
   demand: loads through dr_analyze_innermost (base, offset, init, step
   = element size), arithmetic, math calls, PHIs; a use inside another
   innermost loop of the same nest adds it as the second loop; 4. mark
   the values used by anything not built as escaping, which the
   matchers' single-use guards see.  nf_lr_set_exit then cuts the region
   after the matched ops and checks it is single-entry single-exit.

   PHIs in the scalar code are values when every argument computes the
   same value (the cdce diamond, the PRE'd PHI <.SQRT (s), ...>), except
   on a path taken only when a loop runs zero times: there the argument
   must equal the value evaluated with every reduction at its initial
   value (sqrt (0) = 0).  Trip counts include their guard
   (cond ? niter + 1 : 0), so that path is what the fused call computes
   too.

   Both instances of the pass use it: nf-loop in loop-closed SSA, where
   a reduction leaves its loop through an exit PHI; nf-early-loop without
   (nf_lr_leaving), where the final value's name is also the running
   value inside the loop (G->finals: a use after the loop reads the
   REDUCE, a use inside is the loop's own).

   Assumptions the guard tests at run time (G->assume): two loops whose
   counts differ only by a conversion of one variable, as ggml's
   int64_t sum loop and its (int) n scale loop, are one dimension if the
   counts are equal; and a load in a loop from memory that a memcpy
   before it filled (memcpy (y, x, n * 4), then y[i] *= scale) reads the
   copy's source, if the copy's bytes are the loop's elements (the copy
   is then written over by the fused call, which loop.cc checks).

   Limitations: loops of exactly two blocks (the work and an empty latch,
   or a header that only tests the exit and the work in the latch); at
   most two loops; no outer loop in the region (rows are one call per
   row); loads only inside the loops.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "nf-plugin.h"
#include "to-ir.h"
#include "loop-ir.h"

#include <math.h>

#define NF_LR_BUSY (-2)

/* Record the first failure REASON; returns NF_NO_VALUE.  */
nf_value
nf_lr_fail (struct nf_lregion *g, const char *reason)
{
  if (!g->fail)
    g->fail = reason;
  return NF_NO_VALUE;
}

/* Make room for value V's maps.  */
static void
nf_lr_grow (struct nf_lregion *g, nf_value v)
{
  if (v < g->cap)
    return;
  int cap = g->cap ? g->cap * 2 : 64;
  while (cap <= v)
    cap *= 2;
  g->trees = XRESIZEVEC (tree, g->trees, cap);
  g->stmts = XRESIZEVEC (gimple *, g->stmts, cap);
  for (int i = g->cap; i < cap; i++)
    {
      g->trees[i] = NULL_TREE;
      g->stmts[i] = NULL;
    }
  g->cap = cap;
}

/* Record that V was built from T (defined by STMT); returns V.  The
   first tree of a value stays its tree.  */
static nf_value
nf_lr_note (struct nf_lregion *g, nf_value v, tree t, gimple *stmt)
{
  if (v < 0)
    return v;
  nf_lr_grow (g, v);
  if (!g->trees[v])
    {
      g->trees[v] = t;
      g->stmts[v] = stmt;
    }
  return v;
}

tree
nf_lr_tree (const struct nf_lregion *g, nf_value v)
{
  return v >= 0 && v < g->cap ? g->trees[v] : NULL_TREE;
}

gimple *
nf_lr_stmt (const struct nf_lregion *g, nf_value v)
{
  return v >= 0 && v < g->cap ? g->stmts[v] : NULL;
}

/* Whether STMT comes before the region's start.  */
bool
nf_lr_before_start (const struct nf_lregion *g, gimple *stmt)
{
  basic_block bb = gimple_bb (stmt);
  if (!bb)
    return true;
  if (bb == g->start_bb)
    return g->start_stmt && stmt != g->start_stmt;
  return !dominated_by_p (CDI_DOMINATORS, bb, g->start_bb);
}

struct nf_lr_loop *
nf_lr_loop_of (struct nf_lregion *g, basic_block bb)
{
  for (int k = 0; k < g->n_loops; k++)
    if (bb->loop_father == g->loops[k].loop)
      return &g->loops[k];
  return NULL;
}

const struct nf_lr_array *
nf_lr_array_of (const struct nf_lregion *g, nf_value param)
{
  for (int i = 0; i < g->n_arrays; i++)
    if (g->arrays[i].param == param)
      return &g->arrays[i];
  return NULL;
}

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

static nf_value nf_lr_value (struct nf_lregion *g, tree t);

/* --- Step 1: loops.  ------------------------------------------------ */

/* Whether BB has no statement but labels, debug binds and its final
   jump.  */
bool
nf_lr_empty_bb (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    if (gimple_code (gsi_stmt (gsi)) != GIMPLE_COND
	&& gimple_code (gsi_stmt (gsi)) != GIMPLE_GOTO)
      return false;
  return true;
}

/* Whether BB only computes its exit test: integer and pointer
   arithmetic without memory, and the condition.  */
static bool
nf_lr_test_only_bb (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (gimple_code (s) == GIMPLE_COND)
	continue;
      if (!is_gimple_assign (s) || gimple_vuse (s)
	  || gimple_has_side_effects (s))
	return false;
      /* The widened accumulator of a _Float16 reduction, (float) acc.  */
      tree a = gimple_assign_rhs1 (s);
      if (CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (s))
	  && TREE_CODE (a) == SSA_NAME
	  && gimple_code (SSA_NAME_DEF_STMT (a)) == GIMPLE_PHI
	  && gimple_bb (SSA_NAME_DEF_STMT (a)) == bb)
	continue;
      if (!(INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_lhs (s)))
	    || POINTER_TYPE_P (TREE_TYPE (gimple_assign_lhs (s)))))
	return false;
    }
  return true;
}

/* The zero-trip guard of LOOP: the condition that ends the nearest block
   before its preheader (through single-successor blocks), with the edge
   *SKIP that goes around the loop and *ENTER_TRUE saying which way
   enters it.  NULL when the loop is entered unconditionally.  */
static gcond *
nf_lr_find_guard (class loop *loop, edge *skip, bool *enter_true)
{
  basic_block b = loop_preheader_edge (loop)->src;
  for (int i = 0; i < 4; i++)
    {
      if (!single_pred_p (b))
	return NULL;
      edge e = single_pred_edge (b);
      basic_block p = e->src;
      if (p == ENTRY_BLOCK_PTR_FOR_FN (cfun)
	  || p->loop_father != loop_outer (loop))
	return NULL;
      if (single_succ_p (p))
	{
	  b = p;
	  continue;
	}
      gcond *c = safe_dyn_cast<gcond *> (last_stmt (p));
      if (!c || EDGE_COUNT (p->succs) != 2)
	return NULL;
      /* Not the test of an enclosing while loop.  */
      if (loop_exits_from_bb_p (p->loop_father, p))
	return NULL;
      *enter_true = (e->flags & EDGE_TRUE_VALUE) != 0;
      *skip = EDGE_SUCC (p, 0) == e ? EDGE_SUCC (p, 1) : EDGE_SUCC (p, 0);
      return c;
    }
  return NULL;
}

/* The core of trip count T, the value its dimension is named after: T
   with conversions and zero-trip conditions (c ? n : 0, MAX (n, 0))
   looked through.  */
static tree
nf_lr_count_core (tree t)
{
  for (;;)
    {
      if (CONVERT_EXPR_P (t) || TREE_CODE (t) == NON_LVALUE_EXPR)
	t = TREE_OPERAND (t, 0);
      else if (TREE_CODE (t) == COND_EXPR
	       && integer_zerop (TREE_OPERAND (t, 2)))
	t = TREE_OPERAND (t, 1);
      else if (TREE_CODE (t) == COND_EXPR
	       && integer_zerop (TREE_OPERAND (t, 1)))
	t = TREE_OPERAND (t, 2);
      else if (TREE_CODE (t) == MAX_EXPR && integer_zerop (TREE_OPERAND (t, 1)))
	t = TREE_OPERAND (t, 0);
      else
	return t;
    }
}

/* Record that the fused call of G assumes A == B (sizetype values);
   false when G assumes too much already.  */
static bool
nf_lr_assume (struct nf_lregion *g, tree a, tree b)
{
  if (g->n_assume == NF_LR_MAX_ASSUME)
    return false;
  g->assume[g->n_assume][0] = a;
  g->assume[g->n_assume++][1] = b;
  return true;
}

/* Add LOOP to G's loops (step 1).  Returns its index, or -1 with
   G->fail set.  */
static int
nf_lr_add_loop (struct nf_lregion *g, class loop *loop)
{
  for (int k = 0; k < g->n_loops; k++)
    if (g->loops[k].loop == loop)
      return k;
  if (g->n_loops == NF_LR_MAX_LOOPS)
    return nf_lr_fail (g, "the values flow through more than two loops"), -1;
  if (loop->inner)
    return nf_lr_fail (g, "the loop is not innermost"), -1;
  edge exit = single_exit (loop);
  if (!exit)
    return nf_lr_fail (g, "the loop has more than one exit"), -1;
  /* Do-while (the work, then the exit test, then an empty latch): what
     precedes the test runs niter + 1 times; a cdce diamond inside (an
     invariant sqrtf left in the loop) is allowed, its arms being values
     the PHI after them merges.  While (the header only tests, the latch
     does the work): niter times.  */
  basic_block body;
  if (nf_lr_empty_bb (loop->latch) && single_pred_p (loop->latch)
      && single_pred (loop->latch) == exit->src)
    body = exit->src;
  else if (loop->num_nodes != 2)
    return nf_lr_fail (g, "the loop body has branches"), -1;
  else if (exit->src == loop->header && nf_lr_test_only_bb (loop->header))
    body = loop->latch;
  else
    return nf_lr_fail (g, "the loop's shape is not supported"), -1;

  tree niter = number_of_latch_executions (loop);
  if (!niter || chrec_contains_undetermined (niter)
      || !INTEGRAL_TYPE_P (TREE_TYPE (niter)))
    return nf_lr_fail (g, "the loop's trip count is not computable"), -1;
  tree ntype = TREE_TYPE (niter);
  tree trips = body != loop->latch
		 ? fold_build2 (PLUS_EXPR, ntype, niter, build_one_cst (ntype))
		 : niter;
  tree count = fold_convert (sizetype, trips);

  edge skip = NULL;
  bool enter_true = true;
  gcond *guard = g->n_loops == 0 && !g->guarded
		   ? NULL
		   : nf_lr_find_guard (loop, &skip, &enter_true);
  gcond *cguard = guard;
  bool center = enter_true;
  basic_block guard_bb
    = guard ? gimple_bb (guard) : loop_preheader_edge (loop)->src;
  /* A later loop without a guard of its own that runs only when the
     first loop's guard let it in (jump threading merges identical
     guards) counts under that guard too.  */
  if (!guard && g->n_loops > 0 && g->loops[0].guard)
    {
      edge s0 = g->loops[0].skip;
      basic_block g0 = gimple_bb (g->loops[0].guard);
      edge in0
	= EDGE_SUCC (g0, 0) == s0 ? EDGE_SUCC (g0, 1) : EDGE_SUCC (g0, 0);
      if (single_pred_p (in0->dest)
	  && dominated_by_p (CDI_DOMINATORS, guard_bb, in0->dest))
	{
	  cguard = g->loops[0].guard;
	  center = (in0->flags & EDGE_TRUE_VALUE) != 0;
	  guard_bb = g0;
	  skip = s0;
	}
    }
  if (cguard)
    {
      tree c = fold_build2 (gimple_cond_code (cguard), boolean_type_node,
			    gimple_cond_lhs (cguard), gimple_cond_rhs (cguard));
      if (!center)
	c = fold_build1 (TRUTH_NOT_EXPR, boolean_type_node, c);
      count = fold_build3 (COND_EXPR, sizetype, c, count, size_zero_node);
    }

  int k = g->n_loops++;
  struct nf_lr_loop *l = &g->loops[k];
  l->loop = loop;
  l->exit = exit;
  l->body = body;
  l->guard = guard;
  l->skip = skip;
  l->guard_bb = guard_bb;
  l->count = count;
  l->sym = -1;
  for (int j = 0; j < k; j++)
    if (operand_equal_p (g->loops[j].count, count, 0))
      l->sym = g->loops[j].sym;
  /* Counts of one variable that differ by a conversion (ggml's scale
     loop runs (int) n times after a sum over the int64_t n): one
     dimension, which the guard checks at run time.  */
  for (int j = 0; j < k && l->sym == -1; j++)
    if (operand_equal_p (nf_lr_count_core (g->loops[j].count),
			 nf_lr_count_core (count), 0)
	&& nf_lr_assume (g, g->loops[j].count, count))
      l->sym = g->loops[j].sym;
  if (l->sym == -1 && TREE_CODE (count) != INTEGER_CST)
    {
      /* Named after its core, whose value (the n of s / n) the RMSNorm
	 matcher compares with the mean's divisor.  The first loop's
	 guard is the region's start, so the core is defined before.  */
      tree core = nf_lr_count_core (trips);
      char name[64] = "n";
      nf_value cv = NF_NO_VALUE;
      if (TREE_CODE (core) == SSA_NAME || TREE_CODE (core) == INTEGER_CST)
	{
	  const char *fail = g->fail;
	  if (TREE_CODE (core) == SSA_NAME)
	    nf_value_name (core, name, sizeof name);
	  cv = nf_lr_value (g, core);
	  g->fail = fail;
	}
      l->sym = nf_region_add_sym (g->r, name, cv);
    }
  return k;
}

/* The dimension of loop K.  */
static nf_dim
nf_lr_dim (const struct nf_lregion *g, int k)
{
  const struct nf_lr_loop *l = &g->loops[k];
  if (l->sym >= 0)
    return nf_sym_dim (l->sym);
  return nf_const_dim (tree_to_shwi (l->count));
}

/* --- Step 2: reductions.  ------------------------------------------- */

/* The REDUCE of loop K's header PHI, whose final value T leaves the loop
   on its exit edge.  */
static nf_value
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
      /* The update: acc = input OP acc; or, for a _Float16 accumulator
	 in C's excess precision, acc = (_Float16) (input OP (float) acc).  */
      enum nf_opcode comb = NF_OP_OPAQUE;
      tree input = NULL_TREE;
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
	      input = a == acc ? b : a;
	      comb = code == PLUS_EXPR	 ? NF_OP_ADD
		     : code == MULT_EXPR ? NF_OP_MUL
		     : code == MAX_EXPR	 ? NF_OP_MAX
		     : code == MIN_EXPR	 ? NF_OP_MIN
					 : NF_OP_OPAQUE;
	      if (code == MINUS_EXPR && a != acc)
		input = NULL_TREE;
	    }
	}
      else if (gcall *call = nf_as_call (upd))
	{
	  combined_fn fn = gimple_call_combined_fn (call);
	  if (gimple_call_num_args (call) == 2
	      && (gimple_call_arg (call, 0) == res
		  || gimple_call_arg (call, 1) == res))
	    {
	      input = gimple_call_arg (call, gimple_call_arg (call, 0) == res);
	      comb = (fn == CFN_BUILT_IN_FMAXF || fn == CFN_BUILT_IN_FMAX
		      || fn == CFN_BUILT_IN_FMAXL)
		       ? NF_OP_MAX
		     : (fn == CFN_BUILT_IN_FMINF || fn == CFN_BUILT_IN_FMIN
			|| fn == CFN_BUILT_IN_FMINL)
		       ? NF_OP_MIN
		       : NF_OP_OPAQUE;
	    }
	}
      if (!input)
	return nf_lr_fail (g, "the reduction is not a simple accumulation");
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

static nf_value nf_lr_array_at (struct nf_lregion *g, int k, tree base,
			       tree offset, tree type);

/* The array parameter of the memory reference REF of STMT in loop K,
   with the element offset of its first access in *OFF.  */
static nf_value
nf_lr_array (struct nf_lregion *g, int k, tree ref, gimple *stmt, int64_t *off)
{
  if (TREE_THIS_VOLATILE (ref) || gimple_has_volatile_ops (stmt))
    return nf_lr_fail (g, "the loop accesses volatile memory");
  /* Every iteration accesses it: the kernels access every element.  */
  if (!dominated_by_p (CDI_DOMINATORS, g->loops[k].body, gimple_bb (stmt)))
    return nf_lr_fail (g, "an array access in the loop is conditional");
  innermost_loop_behavior drb;
  if (!dr_analyze_innermost (&drb, ref, g->loops[k].loop, stmt))
    return nf_lr_fail (g, "an array access is not affine in the loop");
  tree type = TREE_TYPE (ref);
  tree esz = TYPE_SIZE_UNIT (type);
  if (!tree_fits_shwi_p (esz) || !tree_fits_shwi_p (drb.step)
      || tree_to_shwi (drb.step) != tree_to_shwi (esz)
      || !tree_fits_shwi_p (drb.init)
      || tree_to_shwi (drb.init) % tree_to_shwi (esz) != 0)
    return nf_lr_fail (g, "an array access is not contiguous (its step is "
			  "not the element size)");
  /* One array per first element: s->x[j] and s->w[j] have one base.  */
  *off = 0;
  tree offset = size_binop (PLUS_EXPR, fold_convert (sizetype, drb.offset),
			    fold_convert (sizetype, drb.init));
  return nf_lr_array_at (g, k, drb.base_address, offset, type);
}

/* The array parameter of the elements of TYPE from BASE + OFFSET
   (bytes) on, accessed in loop K: G's, or a new one.  */
static nf_value
nf_lr_array_at (struct nf_lregion *g, int k, tree base, tree offset,
		tree type)
{
  for (int i = 0; i < g->n_arrays; i++)
    if (operand_equal_p (g->arrays[i].base, base, 0)
	&& operand_equal_p (g->arrays[i].offset, offset, 0)
	&& TYPE_MAIN_VARIANT (g->arrays[i].elt_type)
	     == TYPE_MAIN_VARIANT (type))
      return g->arrays[i].param;
  if (g->n_arrays == NF_LR_MAX_ARRAYS)
    return nf_lr_fail (g, "the region accesses too many arrays");
  char name[64];
  /* Named after the pointer or the object: in + r * n is "in".  */
  tree b = base;
  while (TREE_CODE (b) == POINTER_PLUS_EXPR || CONVERT_EXPR_P (b)
	 || (TREE_CODE (b) == ADDR_EXPR && DECL_P (TREE_OPERAND (b, 0))))
    b = TREE_OPERAND (b, 0);
  nf_value_name (b, name, sizeof name);
  struct nf_lr_array *a = &g->arrays[g->n_arrays++];
  a->base = base;
  a->offset = offset;
  a->elt_type = type;
  a->param = nf_param (
    g->r, name, nf_tensor1_type (nf_elem_of (type), nf_lr_dim (g, k)), true);
  return a->param;
}

/* The base and byte offset, in *BASE and *OFFSET, that an access of
   loop K through the pointer PTR (defined before the loop, used by
   STMT) has: the decomposition dr_analyze_innermost gives the loop's own
   accesses, so that memcpy (y, x, ...) and a loop's y[i] and x[i] name
   their arrays alike (y = dst->data + row * nb1 is one base and an
   offset, not the pointer).  False when it cannot be analysed.  */
bool
nf_lr_pointer_address (const struct nf_lregion *g, int k, tree ptr,
		       gimple *stmt, tree *base, tree *offset)
{
  if (!POINTER_TYPE_P (TREE_TYPE (ptr)))
    return false;
  tree ref = build2 (MEM_REF, char_type_node, ptr,
		     build_int_cst (TREE_TYPE (ptr), 0));
  innermost_loop_behavior drb;
  if (!dr_analyze_innermost (&drb, ref, g->loops[k].loop, stmt))
    return false;
  *base = drb.base_address;
  *offset = size_binop (PLUS_EXPR, fold_convert (sizetype, drb.offset),
			fold_convert (sizetype, drb.init));
  return true;
}

/* The memcpy in the scalar code before loop K that last wrote the
   memory at BASE + OFFSET (its destination), or NULL.  Looks back from
   the loop's preheader through the blocks dominating it, up to the
   region's start, past math calls (which write errno only); any other
   write to memory on the way ends the search.  */
static gcall *
nf_lr_copy_into (const struct nf_lregion *g, int k, tree base, tree offset)
{
  for (basic_block bb = loop_preheader_edge (g->loops[k].loop)->src;
       bb && dominated_by_p (CDI_DOMINATORS, bb, g->start_bb);
       bb = get_immediate_dominator (CDI_DOMINATORS, bb))
    {
      if (bb->loop_father != loop_outer (g->loops[0].loop))
	return NULL; /* A loop of the region's in between.  */
      for (gimple_stmt_iterator gsi = gsi_last_bb (bb); !gsi_end_p (gsi);
	   gsi_prev (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  int nargs;
	  if (!gimple_vdef (s))
	    continue;
	  if (gimple_call_builtin_p (s, BUILT_IN_MEMCPY))
	    {
	      tree b, o;
	      bool same = nf_lr_pointer_address (g, k, gimple_call_arg (s, 0),
						 s, &b, &o)
			  && operand_equal_p (b, base, 0)
			  && operand_equal_p (o, offset, 0);
	      return same ? as_a<gcall *> (s) : NULL;
	    }
	  if (!is_gimple_call (s)
	      || nf_lr_call_op (s, &nargs)
		   == NF_OP_COUNT_)
	    return NULL;
	}
      if (bb == g->start_bb)
	break;
    }
  return NULL;
}

/* The array a load of loop K at BASE + OFFSET, elements of TYPE,
   reads: the source of a memcpy that filled it before the loop (ggml's
   rms_norm copies x to y, then scales y in place), so that the load is
   of what was copied; else NF_NO_VALUE.  The guard then checks that the
   copy's bytes are the loop's elements (G->assume), and the check of
   the region that the fused call writes the whole destination.  */
static nf_value
nf_lr_copied_from (struct nf_lregion *g, int k, tree base, tree offset,
		   tree type)
{
  gcall *copy = nf_lr_copy_into (g, k, base, offset);
  if (!copy || g->n_copies == NF_LR_MAX_COPIES)
    return NF_NO_VALUE;
  tree src, src_offset;
  if (!nf_lr_pointer_address (g, k, gimple_call_arg (copy, 1), copy, &src,
			      &src_offset))
    return NF_NO_VALUE;
  tree bytes = size_binop (MULT_EXPR, fold_convert (sizetype,
						     g->loops[k].count),
			   fold_convert (sizetype, TYPE_SIZE_UNIT (type)));
  if (!nf_lr_assume (g, gimple_call_arg (copy, 2), bytes))
    return NF_NO_VALUE;
  g->copy_loop[g->n_copies] = k;
  g->copies[g->n_copies++] = copy;
  return nf_lr_array_at (g, k, src, src_offset, type);
}

/* The LOAD of STMT, a load in loop K.  */
static nf_value
nf_lr_load (struct nf_lregion *g, int k, gimple *stmt)
{
  int64_t off;
  tree ref = gimple_assign_rhs1 (stmt);
  nf_value p = nf_lr_array (g, k, ref, stmt, &off);
  if (p == NF_NO_VALUE)
    return p;
  const struct nf_lr_array *a = nf_lr_array_of (g, p);
  nf_value from = nf_lr_copied_from (g, k, a->base, a->offset, a->elt_type);
  if (from != NF_NO_VALUE)
    p = from;
  nf_type t = nf_tensor1_type (nf_elem_of (TREE_TYPE (ref)), nf_lr_dim (g, k));
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_LOAD && nf_access_base (g->r, v) == p
	&& nf_access_offset (g->r, v) == off
	&& nf_type_equal (nf_value_type (g->r, v), t))
      return v;
  return nf_load (g->r, p, t, off, 1, 0);
}

/* The STORE STMT in loop K (step 3); NF_NO_VALUE when it cannot be
   built.  */
static nf_value
nf_lr_store (struct nf_lregion *g, int k, gimple *stmt)
{
  int64_t off;
  tree ref = gimple_assign_lhs (stmt);
  nf_value p = nf_lr_array (g, k, ref, stmt, &off);
  if (p == NF_NO_VALUE)
    return p;
  nf_value v = nf_lr_value (g, gimple_assign_rhs1 (stmt));
  if (v == NF_NO_VALUE)
    return v;
  if (nf_value_type (g->r, v).rank == 0)
    v = nf_broadcast (
      g->r, v,
      nf_tensor1_type (nf_value_type (g->r, v).elem, nf_lr_dim (g, k)));
  nf_value s = nf_store (g->r, p, v, off, 1, 0);
  return nf_lr_note (g, s, NULL_TREE, stmt);
}

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
static bool
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
    return nf_lr_fail (g, "the region calls a function other than the math "
			  "functions it models");
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
  nf_value a = nf_lr_value (g, arg);
  if (a == NF_NO_VALUE)
    return a;
  if (nargs == 1)
    return nf_lr_unary (g, op, a);
  nf_value b = nf_lr_value (g, gimple_call_arg (call, 1));
  return b == NF_NO_VALUE ? b : nf_lr_binary (g, op, a, b);
}

/* Whether the load STMT in the scalar code reads what it would read at
   the region's entry: it is not volatile and no loop of the region that
   stores runs before it.  */
bool
nf_lr_hoistable_load (const struct nf_lregion *g, gimple *stmt)
{
  if (gimple_has_volatile_ops (stmt) || stmt_could_throw_p (cfun, stmt))
    return false;
  for (int k = 0; k < g->n_loops; k++)
    {
      class loop *loop = g->loops[k].loop;
      bool stores = false;
      basic_block *bbs = get_loop_body (loop);
      for (unsigned i = 0; i < loop->num_nodes; i++)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  stores |= gimple_vdef (gsi_stmt (gsi)) != NULL_TREE;
      free (bbs);
      if (stores
	  && dominated_by_p (CDI_DOMINATORS, gimple_bb (stmt), loop->header))
	return false;
    }
  return true;
}

/* The comparison A CODE B of floats (an elementwise body's condition),
   or NF_NO_VALUE with a reason.  The unordered predicates of
   -ffinite-math-only's inverted tests are not modelled.  */
static nf_value
nf_lr_compare (struct nf_lregion *g, enum tree_code code, tree a, tree b)
{
  if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (a)))
    return nf_lr_fail (g, "a comparison of the region is not between "
			  "floating-point values");
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
    return nf_lr_fail (g, "a select of the region is not on a comparison");
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
	return nf_lr_fail (g, "an input of the region is neither a number "
			      "nor an array");
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
	  return nf_lr_fail (g, "a conversion of the region is not "
				"between numbers");
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
      return nf_lr_fail (g, "the region computes something the matchers "
			    "do not model");
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
static nf_value
nf_lr_value (struct nf_lregion *g, tree t)
{
  if (TREE_CODE (t) == REAL_CST || TREE_CODE (t) == INTEGER_CST)
    return nf_elem_of (TREE_TYPE (t)) == NF_ELEM_NONE
	     ? nf_lr_fail (g, "a constant of the region is not a number")
	     : nf_lr_const (g, t);
  if (TREE_CODE (t) != SSA_NAME || virtual_operand_p (t)
      || SSA_NAME_VERSION (t) >= g->n_ssa)
    return nf_lr_fail (g, "an operand is not a simple value");
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
	return nf_lr_fail (g, "an input of the region is neither a number "
			      "nor an array");
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

/* --- Step 4: escapes.  ---------------------------------------------- */

/* Whether the use of T by STMT is represented in the region or harmless:
   an op built from STMT, a PHI that passes T's value on, or the cdce
   test T u>= 0 before a sqrt.  */
static bool
nf_lr_use_built (const struct nf_lregion *g, gimple *stmt)
{
  if (gcond *c = dyn_cast<gcond *> (stmt))
    return !nf_lr_before_start (g, stmt)
	   && (gimple_cond_code (c) == UNGE_EXPR
	       || gimple_cond_code (c) == GE_EXPR)
	   && real_zerop (gimple_cond_rhs (c));
  tree lhs = gimple_get_lhs (stmt);
  if (lhs && TREE_CODE (lhs) == SSA_NAME)
    {
      nf_value u = SSA_NAME_VERSION (lhs) < g->n_ssa
		     ? g->ssa[SSA_NAME_VERSION (lhs)]
		     : NF_NO_VALUE;
      if (u >= 0)
	return true; /* Built, or passes V on (a PHI, a copy).  */
      /* The scalar rewrite's x + 0.0 is part of its call's value
	 (nf_lr_call).  */
      tree z;
      use_operand_p use;
      gimple *call;
      if (nf_lr_zero_added (lhs, &z) && single_imm_use (lhs, &use, &call)
	  && is_gimple_call (call))
	return nf_lr_use_built (g, call);
    }
  for (int s = 0; s < g->cap; s++)
    if (g->stmts[s] == stmt)
      return true;
  for (int i = 0; i < g->n_absorbed; i++)
    if (g->absorbed[i] == stmt)
      return true;
  /* The latch value of a reduction feeds its header PHI.  */
  return gimple_code (stmt) == GIMPLE_PHI
	 && nf_lr_loop_of ((struct nf_lregion *) g, gimple_bb (stmt));
}

/* Mark escaping every value one of whose trees is used by a statement
   the region does not represent (a reduction's final value: after its
   loop; in it the name is the running value, the loop's own).  */
static void
nf_lr_mark_escapes (struct nf_lregion *g)
{
  for (int i = 0; i < g->n_finals; i++)
    {
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, g->finals[i].name)
	{
	  gimple *u = USE_STMT (use);
	  if (!is_gimple_debug (u)
	      && !flow_bb_inside_loop_p (g->loops[g->finals[i].loop].loop,
					 gimple_bb (u))
	      && !nf_lr_use_built (g, u))
	    nf_value_set_escapes (g->r, g->finals[i].v);
	}
    }
  for (unsigned ver = 1; ver < g->n_ssa; ver++)
    {
      nf_value v = g->ssa[ver];
      tree t = ssa_name (ver);
      if (v < 0 || !t)
	continue;
      enum nf_opcode op = nf_op (g->r, v);
      if (op == NF_OP_PARAM || op == NF_OP_CONST)
	continue;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, t)
	{
	  gimple *u = USE_STMT (use);
	  if (!is_gimple_debug (u) && !nf_lr_use_built (g, u))
	    {
	      nf_value_set_escapes (g->r, v);
	      break;
	    }
	}
    }
}

/* --- The driver.  --------------------------------------------------- */

/* Build every use of T after the first loop (step 3), and of what they
   define in turn.  */
static void
nf_lr_grow_uses (struct nf_lregion *g, tree t0)
{
  auto_vec<tree, 16> work;
  work.safe_push (t0);
  class loop *outer = loop_outer (g->loops[0].loop);
  while (!work.is_empty ())
    {
      tree t = work.pop ();
      imm_use_iterator it;
      use_operand_p use;
      auto_vec<gimple *, 8> users;
      FOR_EACH_IMM_USE_FAST (use, it, t)
	users.safe_push (USE_STMT (use));
      for (gimple *u : users)
	{
	  if (is_gimple_debug (u) || gimple_code (u) == GIMPLE_COND
	      || nf_lr_before_start (g, u))
	    continue;
	  class loop *ul = gimple_bb (u)->loop_father;
	  if (ul != outer)
	    {
	      if (ul->inner || loop_outer (ul) != outer)
		continue;
	      if (!nf_lr_loop_of (g, gimple_bb (u)))
		{
		  const char *fail = g->fail;
		  if (nf_lr_add_loop (g, ul) < 0)
		    continue;
		  g->fail = fail;
		}
	    }
	  if (gimple_store_p (u) && is_gimple_assign (u))
	    {
	      bool done = false;
	      for (int s = 0; s < g->cap; s++)
		done |= g->stmts[s] == u;
	      struct nf_lr_loop *l = nf_lr_loop_of (g, gimple_bb (u));
	      if (!l)
		nf_lr_fail (g, "a value of the region is stored outside its "
			       "loops");
	      else if (!done)
		nf_lr_store (g, l - g->loops, u);
	      continue;
	    }
	  tree lhs = gimple_get_lhs (u);
	  if (!lhs || TREE_CODE (lhs) != SSA_NAME || virtual_operand_p (lhs)
	      || g->ssa[SSA_NAME_VERSION (lhs)] != NF_NO_VALUE)
	    continue;
	  /* The reduction's own update and header PHI are its REDUCE;
	     outside loop-closed SSA the final value's name is also the
	     running value, whose uses in the loop are the loop's own.  */
	  if (nf_lr_loop_of (g, gimple_bb (u)) == &g->loops[0])
	    continue;
	  if (nf_lr_value (g, lhs) != NF_NO_VALUE)
	    work.safe_push (lhs);
	}
    }
}

/* Start G at LOOP, from its guard when GUARDED (see nf_lr_build).
   Returns false with G->fail set when LOOP cannot be its first loop.  */
static bool
nf_lr_start (struct nf_lregion *g, class loop *loop, bool guarded)
{
  memset (g, 0, sizeof *g);
  g->guarded = guarded;
  g->r
    = nf_region_new (lang_hooks.decl_printable_name (current_function_decl, 2));
  if (!g->r)
    return false;
  g->n_ssa = num_ssa_names;
  g->ssa = XNEWVEC (nf_value, g->n_ssa);
  for (unsigned i = 0; i < g->n_ssa; i++)
    g->ssa[i] = NF_NO_VALUE;

  /* The region starts at the loop's guard, or at its header.  */
  edge skip;
  bool enter_true;
  gcond *guard = guarded ? nf_lr_find_guard (loop, &skip, &enter_true) : NULL;
  g->start_bb = guard ? gimple_bb (guard) : loop->header;
  g->start_stmt = guard;
  return nf_lr_add_loop (g, loop) == 0;
}

nf_value
nf_lr_build_map (struct nf_lregion *g, class loop *loop, bool guarded)
{
  if (!nf_lr_start (g, loop, guarded))
    return NF_NO_VALUE;
  nf_value store = NF_NO_VALUE;
  basic_block *bbs = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gimple_store_p (gsi_stmt (gsi)) && is_gimple_assign (gsi_stmt (gsi)))
	{
	  if (store != NF_NO_VALUE)
	    {
	      store = nf_lr_fail (g, "the loop stores more than one array");
	      break;
	    }
	  store = nf_lr_store (g, 0, gsi_stmt (gsi));
	  if (store == NF_NO_VALUE)
	    break;
	}
  free (bbs);
  if (store != NF_NO_VALUE)
    nf_lr_mark_escapes (g);
  return store;
}

/* The values leaving G's first loop into LEAVING.  In loop-closed SSA
   (nf-loop) the results of its exit's PHIs.  Without (nf-early-loop: its
   rewrite into loop-closed SSA and back changed the SSA names' order,
   and with it GCC's canonical operand order, so mode=report would change
   the code): the final value of each floating-point header PHI used
   after the loop, the PHI itself where the exit test precedes the update
   (a while loop), its latch value where it follows (do-while); which
   nf_lr_reduction records in G->finals, the REDUCE that its uses after
   the loop read (inside, the name is the running value).  */
static void
nf_lr_leaving (struct nf_lregion *g, vec<tree> *leaving)
{
  struct nf_lr_loop *l = &g->loops[0];
  if (loops_state_satisfies_p (LOOP_CLOSED_SSA))
    {
      for (gphi_iterator pi = gsi_start_phis (l->exit->dest); !gsi_end_p (pi);
	   gsi_next (&pi))
	if (!virtual_operand_p (gimple_phi_result (pi.phi ())))
	  leaving->safe_push (gimple_phi_result (pi.phi ()));
      return;
    }
  edge latch = loop_latch_edge (l->loop);
  for (gphi_iterator pi = gsi_start_phis (l->loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree res = gimple_phi_result (pi.phi ());
      tree next = PHI_ARG_DEF_FROM_EDGE (pi.phi (), latch);
      if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (res))
	  || TREE_CODE (next) != SSA_NAME)
	continue;
      gimple *upd = SSA_NAME_DEF_STMT (next);
      tree fin = gimple_bb (upd)
		     && dominated_by_p (CDI_DOMINATORS, l->exit->src,
					gimple_bb (upd))
		   ? next
		   : res;
      bool used_after = false;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, fin)
	{
	  gimple *u = USE_STMT (use);
	  used_after |= !is_gimple_debug (u)
			&& !flow_bb_inside_loop_p (l->loop, gimple_bb (u));
	}
      if (!used_after || SSA_NAME_VERSION (fin) >= g->n_ssa)
	continue;
      nf_lr_reduction (g, 0, fin);
      leaving->safe_push (fin);
    }
}

nf_value
nf_lr_build (struct nf_lregion *g, class loop *loop, bool guarded)
{
  if (!nf_lr_start (g, loop, guarded))
    return NF_NO_VALUE;

  /* Step 2: the reductions leave through the exit's PHIs (loop-closed
     SSA), or, in nf-early-loop (which leaves SSA as it is, see
     nf_lr_leaving), as the final values of the header's PHIs.  */
  nf_value anchor = NF_NO_VALUE;
  auto_vec<tree, 8> leaving;
  nf_lr_leaving (g, &leaving);
  for (tree res : leaving)
    {
      nf_value v = nf_lr_value (g, res);
      if (v == NF_NO_VALUE)
	return NF_NO_VALUE;
      for (; v != NF_NO_VALUE && nf_op (g->r, v) != NF_OP_REDUCE;
	   v = nf_op_n_operands (g->r, v) ? nf_op_operand (g->r, v, 0)
					  : NF_NO_VALUE)
	;
      if (v != NF_NO_VALUE && anchor == NF_NO_VALUE)
	anchor = v;
      nf_lr_grow_uses (g, res);
    }
  if (anchor == NF_NO_VALUE)
    return nf_lr_fail (g, "no reduction leaves the loop");
  nf_lr_mark_escapes (g);
  return anchor;
}

void
nf_lr_free (struct nf_lregion *g)
{
  nf_region_free (g->r);
  XDELETEVEC (g->ssa);
  XDELETEVEC (g->trees);
  XDELETEVEC (g->stmts);
  if (g->blocks)
    BITMAP_FREE (g->blocks);
  memset (g, 0, sizeof *g);
}

