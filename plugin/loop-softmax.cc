/* loop-softmax.cc: three loops that are a softmax, as one call of
   libneuronfuse (kind Softmax, lower/match-softmax.c).

   llama2.c's softmax, as nf-early-loop sees it:

     max_val = x[0];                          max_val = x[0];
     for (i = 1; i < size; i++)               if ((x == y || apart)
       if (x[i] > max_val)                        && counts agree)
	 max_val = x[i];                 =>     nf_softmax_f32 (x, x, size);
     for (i = 0; i < size; i++)               else
       {                                        <the original loops>
	 x[i] = expf (x[i] - max_val);
	 sum += x[i];
       }
     for (i = 0; i < size; i++)
       x[i] /= sum;

   Steps (nf_loop_softmax_attempt): 1. loop A is a max reduction of one
   array read contiguously: its one floating-point header PHI m is
   updated by MAX_EXPR, fmax or a comparison choosing the larger of m
   and the element (a COND_EXPR, or the PHI joining an empty arm);
   2. m's final value is used once, after A, by loop B, which subtracts
   it from its elements and takes exp of the difference, stores it and
   sums it from a constant; 3. the sum's final value (or its reciprocal
   computed between the loops) is used by loop C, which divides (or
   multiplies) what it reads where B stored and stores the quotient;
   4. nothing else: no other store, call or floating-point reduction in
   the loops, no side effect between them, no value of the region used
   after it, the three loops one after another on straight-line edges;
   5. the accesses as scalar evolutions at A's entry: each contiguous,
   A's elements B's from the same or the next element (with the seed
   x[0] when next), C's reads B's stores; the trip counts agree (a
   run-time test); 6. the facts go to lower/'s nf_softmax_loops_region,
   which builds the region IR and matches it (so neuronfuse-clang's
   regions and reasons are the same), and nf_call_plan plans the call;
   7. record, and in mode=rewrite outline (loop.cc's nf_loop_outline)
   from A's preheader edge to C's exit.

   Limitations: the loops in the form the early pass sees them (each
   exit tested in the header, no zero-trip guard around a loop: after
   loop header copying the late pass leaves such loops alone); the
   accumulator and exp in the elements' type (a double sum of float
   exps is left to the loops, quietly); rows of a softmax are one call
   per row.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "call.h"
#include "reasons.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"
#include "to-ir.h"

/* What the three loops hold.  */
struct nf_softmax_loops
{
  class loop *a, *b, *c;
  tree m_phi;		 /* A's max (the header PHI's result).  */
  gimple *load_a;	 /* The element A takes the max of.  */
  tree seed;		 /* m's value on entry.  */
  gimple *sub;		 /* B's element minus the max.  */
  gimple *exp_call;	 /* exp of it.  */
  gimple *store_b;	 /* B's store of the exp.  */
  tree sum_phi;		 /* B's sum.  */
  tree sum_init;
  gimple *load_c, *store_c; /* C's read and store of the quotient.  */
  bool recip;		 /* C multiplies by 1 / sum.  */
  tree elt;		 /* The element type.  */
  tree xa, xb, yb, yc_l, yc_s; /* The accesses' first addresses.  */
  tree na, nb, nc;	 /* The body counts (sizetype).  */
  bitmap blocks;		 /* The region's blocks.  */
};

/* T through SSA copies, conversions that keep the type's mode, and
   single-argument PHIs.  */
static tree
nf_sm_strip (tree t)
{
  for (int i = 0; i < 8 && TREE_CODE (t) == SSA_NAME; i++)
    {
      gimple *d = SSA_NAME_DEF_STMT (t);
      if (gphi *phi = dyn_cast<gphi *> (d))
	{
	  if (gimple_phi_num_args (phi) != 1)
	    return t;
	  t = gimple_phi_arg_def (phi, 0);
	}
      else if (is_gimple_assign (d) && gimple_assign_ssa_name_copy_p (d))
	t = gimple_assign_rhs1 (d);
      else
	return t;
    }
  return t;
}

/* The non-debug statements outside LOOP using NAME, through single-
   argument PHIs and copies outside it, into USES.  */
static void
nf_sm_uses_after (class loop *loop, tree name, vec<gimple *> *uses)
{
  auto_vec<tree, 8> work;
  work.safe_push (name);
  for (unsigned i = 0; i < work.length () && i < 32; i++)
    {
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, work[i])
	{
	  gimple *u = USE_STMT (use);
	  if (is_gimple_debug (u) || flow_bb_inside_loop_p (loop, gimple_bb (u)))
	    continue;
	  gphi *phi = dyn_cast<gphi *> (u);
	  if ((phi && gimple_phi_num_args (phi) == 1)
	      || (is_gimple_assign (u) && gimple_assign_ssa_name_copy_p (u)))
	    work.safe_push (gimple_get_lhs (u));
	  else if (!uses->contains (u))
	    uses->safe_push (u);
	}
    }
}

/* The floating-point header PHIs of LOOP.  */
static int
nf_sm_float_phis (class loop *loop)
{
  int n = 0;
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree res = gimple_phi_result (pi.phi ());
      n += !virtual_operand_p (res) && FLOAT_TYPE_P (TREE_TYPE (res));
    }
  return n;
}

/* The header PHI of LOOP updated on its latch by NEXT's definition, for
   the floating-point PHIs of LOOP: exactly one, whose result goes in
   *PHI_RES and latch value in *NEXT; false if there are others (a loop
   that computes more) or none.  */
static bool
nf_sm_one_float_phi (class loop *loop, tree *phi_res, tree *next)
{
  int n = 0;
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree res = gimple_phi_result (pi.phi ());
      if (virtual_operand_p (res) || !FLOAT_TYPE_P (TREE_TYPE (res)))
	continue;
      n++;
      *phi_res = res;
      *next = PHI_ARG_DEF_FROM_EDGE (pi.phi (), loop_latch_edge (loop));
    }
  return n == 1;
}

/* Whether L ? TV : FV with the comparison CODE (L, R) chooses the larger
   of M and V ({L, R} = {M, V}): the max, for every input but NaN (where
   every form gives a softmax of NaNs).  */
static bool
nf_sm_max_select (enum tree_code code, tree l, tree r, tree tv, tree fv,
		  tree m, tree v)
{
  if (!((l == m && r == v) || (l == v && r == m)))
    return false;
  switch (code)
    {
    case GT_EXPR:
    case GE_EXPR:
    case UNGT_EXPR:
    case UNGE_EXPR:
      return tv == l && fv == r;
    case LT_EXPR:
    case LE_EXPR:
    case UNLT_EXPR:
    case UNLE_EXPR:
      return tv == r && fv == l;
    default:
      return false;
    }
}

/* The comparison of the boolean C: its code and operands; false when C
   is none.  */
static bool
nf_sm_comparison (tree c, enum tree_code *code, tree *l, tree *r)
{
  if (COMPARISON_CLASS_P (c))
    {
      *code = TREE_CODE (c);
      *l = TREE_OPERAND (c, 0);
      *r = TREE_OPERAND (c, 1);
      return true;
    }
  gimple *d = TREE_CODE (c) == SSA_NAME ? SSA_NAME_DEF_STMT (c) : NULL;
  if (!d || !is_gimple_assign (d)
      || TREE_CODE_CLASS (gimple_assign_rhs_code (d)) != tcc_comparison)
    return false;
  *code = gimple_assign_rhs_code (d);
  *l = gimple_assign_rhs1 (d);
  *r = gimple_assign_rhs2 (d);
  return true;
}

/* The other operand V of the max NEXT = max (M, V) (step 1), or
   NULL_TREE.  */
static tree
nf_sm_max_operand (tree m, tree next)
{
  if (TREE_CODE (next) != SSA_NAME)
    return NULL_TREE;
  gimple *d = SSA_NAME_DEF_STMT (next);
  if (is_gimple_assign (d) && gimple_assign_rhs_code (d) == MAX_EXPR)
    {
      tree a = gimple_assign_rhs1 (d), b = gimple_assign_rhs2 (d);
      return a == m ? b : b == m ? a : NULL_TREE;
    }
  if (gcall *c = nf_as_call (d))
    {
      int nargs;
      if (nf_lr_call_op (c, &nargs) != NF_OP_MAX
	  || gimple_call_num_args (c) != 2)
	return NULL_TREE;
      tree a = gimple_call_arg (c, 0), b = gimple_call_arg (c, 1);
      return a == m ? b : b == m ? a : NULL_TREE;
    }
  enum tree_code code;
  tree l, r;
  if (is_gimple_assign (d) && gimple_assign_rhs_code (d) == COND_EXPR
      && nf_sm_comparison (gimple_assign_rhs1 (d), &code, &l, &r))
    {
      tree tv = gimple_assign_rhs2 (d), fv = gimple_assign_rhs3 (d);
      tree v = l == m ? r : l;
      return nf_sm_max_select (code, l, r, tv, fv, m, v) ? v : NULL_TREE;
    }
  /* The join of `if (x[i] > m) m = x[i];': a PHI of two values, one arm
     the condition's edge itself, the other an empty block after it.  */
  gphi *phi = dyn_cast<gphi *> (d);
  if (!phi || gimple_phi_num_args (phi) != 2)
    return NULL_TREE;
  basic_block cbb = get_immediate_dominator (CDI_DOMINATORS, gimple_bb (phi));
  gcond *cond = cbb ? safe_dyn_cast<gcond *> (last_stmt (cbb)) : NULL;
  if (!cond)
    return NULL_TREE;
  tree tv = NULL_TREE, fv = NULL_TREE;
  for (unsigned i = 0; i < 2; i++)
    {
      edge e = gimple_phi_arg_edge (phi, i);
      edge from = e;
      if (e->src != cbb)
	{
	  if (!single_pred_p (e->src) || single_pred (e->src) != cbb
	      || !nf_lr_empty_bb (e->src))
	    return NULL_TREE;
	  from = single_pred_edge (e->src);
	}
      (from->flags & EDGE_TRUE_VALUE ? tv : fv) = gimple_phi_arg_def (phi, i);
    }
  if (!tv || !fv)
    return NULL_TREE;
  l = gimple_cond_lhs (cond);
  r = gimple_cond_rhs (cond);
  tree v = l == m ? r : l;
  return nf_sm_max_select (gimple_cond_code (cond), l, r, tv, fv, m, v)
	   ? v
	   : NULL_TREE;
}

/* The address of the first element the load or store STMT of LOOP
   accesses, at the entry of the region starting before A; NULL_TREE
   unless it advances by one element per iteration.  */
static tree
nf_sm_first (class loop *a, class loop *loop, gimple *stmt, tree ref)
{
  (void) stmt;
  tree addr = TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1))
		? TREE_OPERAND (ref, 0)
		: build_fold_addr_expr (ref);
  tree ev = analyze_scalar_evolution (loop, addr);
  ev = instantiate_scev (loop_preheader_edge (a), loop, ev);
  if (!ev || TREE_CODE (ev) != POLYNOMIAL_CHREC
      || CHREC_VARIABLE (ev) != (unsigned) loop->num
      || TREE_CODE (CHREC_RIGHT (ev)) != INTEGER_CST
      || !tree_int_cst_equal (fold_convert (sizetype, CHREC_RIGHT (ev)),
			      TYPE_SIZE_UNIT (TREE_TYPE (ref))))
    return NULL_TREE;
  tree base = CHREC_LEFT (ev);
  if (chrec_contains_undetermined (base) || tree_contains_chrecs (base, NULL))
    return NULL_TREE;
  return base;
}

/* P - Q in bytes when a constant, else -1 (pointers of one region).  */
static HOST_WIDE_INT
nf_sm_distance (tree p, tree q)
{
  poly_int64 d;
  if (!ptr_difference_const (p, q, &d) || !d.is_constant ())
    return -1;
  return d.to_constant ();
}

/* The single non-debug statement of LOOP using NAME, or NULL.  */
static gimple *
nf_sm_single_use_in (class loop *loop, tree name)
{
  gimple *found = NULL;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, name)
    {
      gimple *u = USE_STMT (use);
      if (is_gimple_debug (u))
	continue;
      if (found || !flow_bb_inside_loop_p (loop, gimple_bb (u)))
	return NULL;
      found = u;
    }
  return found;
}

/* Whether LOOP does anything with an effect besides ALLOWED (its
   stores and calls of the idiom): the reason, or NULL.  */
static const char *
nf_sm_loop_effects (class loop *loop, gimple *const *allowed, int n)
{
  basic_block *bbs = get_loop_body (loop);
  const char *why = NULL;
  for (unsigned i = 0; i < loop->num_nodes && !why; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	if (is_gimple_debug (s))
	  continue;
	bool ok = false;
	for (int k = 0; k < n; k++)
	  ok |= allowed[k] == s;
	if (gimple_has_volatile_ops (s))
	  why = NF_WHY_LOOP_VOLATILE;
	else if (!ok && (gimple_vdef (s) || is_gimple_call (s)
			 || gimple_has_side_effects (s)))
	  why = NF_WHY_SOFTMAX_OTHER_WORK;
	else if (ok || !stmt_can_throw_internal (cfun, s))
	  continue;
	else
	  why = "a statement of the region may throw";
	break;
      }
  free (bbs);
  return why;
}

/* The blocks from the exit of FROM to the preheader of TO, added to
   BLOCKS: a straight path of blocks that do no work with an effect.
   NULL, or the reason.  */
static const char *
nf_sm_between (class loop *from, class loop *to, bitmap blocks)
{
  basic_block bb = single_exit (from)->dest;
  basic_block pre = loop_preheader_edge (to)->src;
  for (int i = 0; i < 8; i++)
    {
      if (!single_pred_p (bb) || (bb != pre && !single_succ_p (bb)))
	return NF_WHY_LOOP_SHAPE;
      bitmap_set_bit (blocks, bb->index);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL)
	    continue;
	  if (gimple_vdef (s) || is_gimple_call (s)
	      || gimple_has_side_effects (s) || gimple_has_volatile_ops (s)
	      || gimple_code (s) == GIMPLE_COND)
	    return NF_WHY_SOFTMAX_BETWEEN;
	}
      if (bb == pre)
	return single_succ_p (bb) && single_succ (bb) == to->header
		 ? NULL
		 : NF_WHY_LOOP_SHAPE;
      bb = single_succ (bb);
    }
  return NF_WHY_LOOP_SHAPE;
}

/* Whether every SSA name in T is defined before the region (whose first
   block is HEADER's preheader's successor): T valid at the entry.  */
static tree
nf_sm_late_name (tree *tp, int *walk_subtrees, void *data)
{
  basic_block pre = (basic_block) data;
  if (TREE_CODE (*tp) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (*tp))
    {
      basic_block bb = gimple_bb (SSA_NAME_DEF_STMT (*tp));
      if (!bb || !dominated_by_p (CDI_DOMINATORS, pre, bb))
	return *tp;
    }
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

static bool
nf_sm_at_entry (class loop *a, tree t)
{
  return !walk_tree (&t, nf_sm_late_name, loop_preheader_edge (a)->src, NULL);
}

/* Step 1: A as a max loop (L->a, m_phi, load_a, seed).  False when it
   is none.  */
static bool
nf_sm_max_loop (struct nf_softmax_loops *l)
{
  class loop *a = l->a;
  tree next;
  if (a->inner || !single_exit (a) || !nf_sm_one_float_phi (a, &l->m_phi, &next))
    return false;
  tree v = nf_sm_max_operand (l->m_phi, next);
  if (!v || TREE_CODE (v) != SSA_NAME)
    return false;
  l->load_a = SSA_NAME_DEF_STMT (v);
  if (!gimple_assign_load_p (l->load_a)
      || !flow_bb_inside_loop_p (a, gimple_bb (l->load_a))
      || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (v)))
    return false;
  l->elt = TYPE_MAIN_VARIANT (TREE_TYPE (v));
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (l->m_phi));
  l->seed = PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (a));
  return true;
}

/* The statements of LOOP using the final value of the reduction PHI
   RES (the PHI's result or its latch value NEXT), after the loop.  */
static void
nf_sm_final_uses (class loop *loop, tree res, vec<gimple *> *uses)
{
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (res));
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  nf_sm_uses_after (loop, res, uses);
  if (TREE_CODE (next) == SSA_NAME)
    nf_sm_uses_after (loop, next, uses);
}

/* Step 2: loop B from the uses of A's max.  False when it is none (the
   max is for something else); else *WHY may hold a near miss.  */
static bool
nf_sm_exp_loop (struct nf_softmax_loops *l, const char **why)
{
  auto_vec<gimple *, 4> uses;
  nf_sm_final_uses (l->a, l->m_phi, &uses);
  gimple *sub = NULL;
  bool elsewhere = false;
  for (gimple *u : uses)
    if (is_gimple_assign (u) && gimple_assign_rhs_code (u) == MINUS_EXPR
	&& !sub && gimple_bb (u)->loop_father != loop_outer (l->a))
      sub = u;
    else
      elsewhere = true;
  if (!sub)
    return false;
  l->b = gimple_bb (sub)->loop_father;
  l->sub = sub;
  if (l->b->inner || loop_outer (l->b) != loop_outer (l->a)
      || !single_exit (l->b))
    return false;
  tree d = gimple_assign_lhs (sub);
  gimple *e = nf_sm_single_use_in (l->b, d);
  int nargs;
  if (!e || !is_gimple_call (e) || nf_lr_call_op (e, &nargs) != NF_OP_EXP
      || !gimple_call_lhs (e))
    return false; /* x - max for something else.  */
  l->exp_call = e;
  if (elsewhere)
    return *why = NF_WHY_SOFTMAX_USED_AFTER, true;
  tree ev = gimple_call_lhs (e);
  if (!useless_type_conversion_p (TREE_TYPE (ev), l->elt))
    return *why = NF_WHY_SOFTMAX_LOOPS, true;
  /* The exp's uses: its store and its sum.  */
  tree next = NULL_TREE;
  if (!nf_sm_one_float_phi (l->b, &l->sum_phi, &next))
    return *why = NF_WHY_SOFTMAX_OTHER_WORK, true;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, ev)
    {
      gimple *u = USE_STMT (use);
      if (is_gimple_debug (u))
	continue;
      if (gimple_store_p (u) && is_gimple_assign (u) && !l->store_b
	  && gimple_assign_rhs1 (u) == ev
	  && flow_bb_inside_loop_p (l->b, gimple_bb (u)))
	l->store_b = u;
      else if (is_gimple_assign (u) && gimple_assign_lhs (u) == next
	       && gimple_assign_rhs_code (u) == PLUS_EXPR
	       && (gimple_assign_rhs1 (u) == l->sum_phi
		   || gimple_assign_rhs2 (u) == l->sum_phi))
	;
      else
	return *why = NF_WHY_SOFTMAX_OTHER_WORK, true;
    }
  if (!l->store_b)
    return *why = NF_WHY_SOFTMAX_LOOPS, true;
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (l->sum_phi));
  l->sum_init = PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (l->b));
  gimple *allowed[2] = { l->exp_call, l->store_b };
  *why = nf_sm_loop_effects (l->b, allowed, 2);
  return true;
}

/* Step 3: loop C from the uses of B's sum.  The reason, or NULL.  */
static const char *
nf_sm_divide_loop (struct nf_softmax_loops *l)
{
  auto_vec<gimple *, 4> uses;
  nf_sm_final_uses (l->b, l->sum_phi, &uses);
  if (uses.length () != 1 || !is_gimple_assign (uses[0]))
    return uses.length () ? NF_WHY_SOFTMAX_USED_AFTER : NF_WHY_SOFTMAX_NO_DIVIDE;
  gimple *q = uses[0];
  tree sum = gimple_assign_rhs2 (q);
  /* inv = 1 / sum between the loops, then C's x * inv.  */
  if (gimple_assign_rhs_code (q) == RDIV_EXPR
      && gimple_bb (q)->loop_father == loop_outer (l->b)
      && real_onep (gimple_assign_rhs1 (q)))
    {
      tree inv = gimple_assign_lhs (q);
      auto_vec<gimple *, 4> u2;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, inv)
	if (!is_gimple_debug (USE_STMT (use)))
	  u2.safe_push (USE_STMT (use));
      if (u2.length () != 1 || !is_gimple_assign (u2[0])
	  || gimple_assign_rhs_code (u2[0]) != MULT_EXPR)
	return NF_WHY_SOFTMAX_NO_DIVIDE;
      q = u2[0];
      l->recip = true;
      sum = inv;
    }
  else if (gimple_assign_rhs_code (q) != RDIV_EXPR)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  tree t = gimple_assign_rhs1 (q);
  if (l->recip && t == sum)
    t = gimple_assign_rhs2 (q);
  else if (nf_sm_strip (gimple_assign_rhs2 (q)) != nf_sm_strip (sum)
	   && gimple_assign_rhs2 (q) != sum)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  l->c = gimple_bb (q)->loop_father;
  if (l->c->inner || loop_outer (l->c) != loop_outer (l->a)
      || !single_exit (l->c) || l->c == l->b || l->c == l->a
      || TREE_CODE (t) != SSA_NAME)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  l->load_c = SSA_NAME_DEF_STMT (t);
  if (!gimple_assign_load_p (l->load_c)
      || !flow_bb_inside_loop_p (l->c, gimple_bb (l->load_c)))
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  gimple *st = nf_sm_single_use_in (l->c, gimple_assign_lhs (q));
  if (!st || !gimple_store_p (st) || !is_gimple_assign (st))
    return "the normalised values are not stored contiguously";
  l->store_c = st;
  /* Only the quotient's and the induction variables' PHIs.  */
  if (nf_sm_float_phis (l->c) != 0)
    return NF_WHY_SOFTMAX_OTHER_WORK;
  gimple *allowed[1] = { l->store_c };
  return nf_sm_loop_effects (l->c, allowed, 1);
}

/* The region's blocks (the loops' and the paths between them) into
   L->blocks, with A's own effects checked (step 4).  The reason, or
   NULL.  */
static const char *
nf_sm_region_blocks (struct nf_softmax_loops *l)
{
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (l->m_phi));
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (l->a));
  gimple *max = SSA_NAME_DEF_STMT (next);
  gimple *allowed[1] = { max };
  if (const char *why = nf_sm_loop_effects (l->a, allowed, 1))
    return why;
  class loop *loops[3] = { l->a, l->b, l->c };
  for (int k = 0; k < 3; k++)
    {
      basic_block *bbs = get_loop_body (loops[k]);
      for (unsigned i = 0; i < loops[k]->num_nodes; i++)
	bitmap_set_bit (l->blocks, bbs[i]->index);
      free (bbs);
      /* Each loop's exit from its header: a while loop, as the early
	 pass sees it.  */
      if (single_exit (loops[k])->src != loops[k]->header)
	return NF_WHY_LOOP_SHAPE;
    }
  if (const char *why = nf_sm_between (l->a, l->b, l->blocks))
    return why;
  if (const char *why = nf_sm_between (l->b, l->c, l->blocks))
    return why;
  basic_block exit = single_exit (l->c)->dest;
  if (!single_pred_p (exit))
    return NF_WHY_LOOP_SHAPE;
  /* Nothing the region computes is used after it.  */
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (l->blocks, 0, i, bi)
  {
    basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
    auto used_after = [&] (tree def) {
      if (!def || TREE_CODE (def) != SSA_NAME || virtual_operand_p (def))
	return false;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, def)
	{
	  gimple *u = USE_STMT (use);
	  if (!is_gimple_debug (u)
	      && !bitmap_bit_p (l->blocks, gimple_bb (u)->index))
	    return true;
	}
      return false;
    };
    for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
	 gsi_next (&pi))
      if (used_after (gimple_phi_result (pi.phi ())))
	return NF_WHY_SOFTMAX_USED_AFTER;
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (used_after (gimple_get_lhs (gsi_stmt (gsi))))
	return NF_WHY_SOFTMAX_USED_AFTER;
  }
  return NULL;
}

/* Step 5: the accesses and the trip counts.  The reason, or NULL;
   *START is the element A's max starts at (0 or 1).  */
static const char *
nf_sm_accesses (struct nf_softmax_loops *l, int *start, bool *sub_same,
		bool *exp_kept)
{
  l->xa = nf_sm_first (l->a, l->a, l->load_a, gimple_assign_rhs1 (l->load_a));
  gimple *lb = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (l->sub));
  if (!gimple_assign_load_p (lb) || !flow_bb_inside_loop_p (l->b, gimple_bb (lb)))
    return NF_WHY_SOFTMAX_LOOPS;
  l->xb = nf_sm_first (l->a, l->b, lb, gimple_assign_rhs1 (lb));
  l->yb = nf_sm_first (l->a, l->b, l->store_b, gimple_assign_lhs (l->store_b));
  l->yc_l = nf_sm_first (l->a, l->c, l->load_c, gimple_assign_rhs1 (l->load_c));
  l->yc_s = nf_sm_first (l->a, l->c, l->store_c,
			 gimple_assign_lhs (l->store_c));
  if (!l->xa || !l->xb || !l->yb || !l->yc_l || !l->yc_s)
    return NF_WHY_NOT_CONTIGUOUS;
  tree types[4] = { TREE_TYPE (gimple_assign_rhs1 (lb)),
		    TREE_TYPE (gimple_assign_lhs (l->store_b)),
		    TREE_TYPE (gimple_assign_rhs1 (l->load_c)),
		    TREE_TYPE (gimple_assign_lhs (l->store_c)) };
  for (int k = 0; k < 4; k++)
    if (TYPE_MAIN_VARIANT (types[k]) != l->elt)
      return NF_WHY_SOFTMAX_LOOPS;
  HOST_WIDE_INT esz = tree_to_shwi (TYPE_SIZE_UNIT (l->elt));
  HOST_WIDE_INT d = nf_sm_distance (l->xa, l->xb);
  if (dump_file && (dump_flags & TDF_DETAILS))
    {
      fprintf (dump_file, "neuronfuse: max of ");
      print_generic_expr (dump_file, l->xa);
      fprintf (dump_file, ", exp of ");
      print_generic_expr (dump_file, l->xb);
      fprintf (dump_file, ": %ld bytes apart\n", (long) d);
    }
  *sub_same = d == 0 || d == esz;
  *start = d == esz ? 1 : 0;
  if (d > esz || (d > 0 && d != esz))
    return NF_WHY_SOFTMAX_SKIPS;
  if (nf_sm_distance (l->yc_l, l->yb) != 0)
    return NF_WHY_SOFTMAX_LOOPS;
  *exp_kept = nf_sm_distance (l->yc_s, l->yc_l) != 0;
  /* The counts, at the entry.  */
  const char *why = NULL;
  l->na = nf_loop_body_count (l->a, &why);
  l->nb = l->na ? nf_loop_body_count (l->b, &why) : NULL_TREE;
  l->nc = l->nb ? nf_loop_body_count (l->c, &why) : NULL_TREE;
  if (!l->nc)
    return why;
  if (!nf_sm_at_entry (l->a, l->na) || !nf_sm_at_entry (l->a, l->nb)
      || !nf_sm_at_entry (l->a, l->nc))
    return NF_WHY_TRIP_COUNT;
  return NULL;
}

/* The seed's form: x[0] (a load of B's first element), a constant, or
   anything else.  */
static enum nf_softmax_seed
nf_sm_seed (const struct nf_softmax_loops *l, double *value)
{
  tree s = nf_sm_strip (l->seed);
  *value = 0;
  if (TREE_CODE (s) == REAL_CST)
    {
      *value = nf_cst_value (s);
      return NF_SOFTMAX_SEED_CONST;
    }
  gimple *d = TREE_CODE (s) == SSA_NAME ? SSA_NAME_DEF_STMT (s) : NULL;
  if (d && gimple_assign_load_p (d))
    {
      tree ref = gimple_assign_rhs1 (d);
      tree addr = TREE_CODE (ref) == MEM_REF
		      && integer_zerop (TREE_OPERAND (ref, 1))
		    ? TREE_OPERAND (ref, 0)
		    : build_fold_addr_expr (ref);
      if (nf_sm_distance (addr, l->xb) == 0)
	return NF_SOFTMAX_SEED_FIRST;
    }
  return NF_SOFTMAX_SEED_OTHER;
}

/* The element kind of the scalar float type T.  */
static enum nf_elem
nf_sm_elem (tree t)
{
  switch (TYPE_PRECISION (t))
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
}

/* The label of the array whose first element is at ADDR.  */
static const char *
nf_sm_label (tree addr, char *buf, size_t size)
{
  tree t = addr;
  STRIP_NOPS (t);
  if (TREE_CODE (t) == POINTER_PLUS_EXPR)
    t = TREE_OPERAND (t, 0);
  STRIP_NOPS (t);
  if (TREE_CODE (t) == ADDR_EXPR)
    t = TREE_OPERAND (t, 0);
  return nf_value_name (t, buf, size);
}

/* Step 7: record the region of match M (region R, plan P) at A's line
   and, in mode=rewrite, make the call guarded by OK.  */
static void
nf_sm_outline (struct nf_softmax_loops *l, const nf_region *r,
	       const nf_match *m, const nf_call *p, tree ok, bool *changed)
{
  dump_user_location_t loc = find_loop_location (l->a);
  char xb[64], yb[64];
  const char *ins[2] = { nf_sm_label (l->xb, xb, sizeof xb), "n" };
  const char *outs[1] = { nf_sm_label (l->yc_s, yb, sizeof yb) };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 0 };
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  nf_region_desc d;
  nf_region_desc_init (&d, NF_KIND_SOFTMAX, p->callee, nf_elem_name (elem),
		       nf_elem_name (m->accum), ins, 2, outs, 1);
  d.action = "outlined";
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, NF_KIND_SOFTMAX, elem, m->accum, false,
		      false, false);
  if (p->flops >= 0)
    {
      d.flops = p->flops;
      d.bytes = p->bytes;
    }
  expanded_location end = expand_location (gimple_location (l->store_c));
  expanded_location start = expand_location (loc.get_location_t ());
  if (end.file && start.file && strcmp (end.file, start.file) == 0)
    d.end_line = end.line;
  char msg[128];
  snprintf (msg, sizeof msg, "Softmax: loops outlined into a call to %s",
	    p->callee);
  nf_record_region (loc, &d, msg, m);
  if (nf_opts.mode != NF_MODE_REWRITE)
    return;

  struct nf_loop_call c;
  c.kind = NF_KIND_SOFTMAX;
  c.plan = *p;
  c.callee = p->callee;
  c.sumsq = false;
  c.elt = l->elt;
  c.ret = void_type_node;
  c.store = p->store;
  tree ptr = build_pointer_type (l->elt);
  tree cptr = build_pointer_type (build_qualified_type (l->elt,
							 TYPE_QUAL_CONST));
  c.args[0] = fold_convert (ptr, l->yc_s);
  c.args[1] = fold_convert (cptr, l->xb);
  c.args[2] = fold_convert (size_type_node, l->nb);
  c.nargs = 3;
  c.ok = ok;
  /* The region: A's preheader edge to C's exit.  */
  struct nf_lregion g2;
  memset (&g2, 0, sizeof g2);
  g2.loops[0].loop = l->a;
  g2.n_loops = 1;
  g2.start_bb = l->a->header;
  g2.exit_bb = single_exit (l->c)->dest;
  g2.blocks = BITMAP_ALLOC (NULL);
  bitmap_copy (g2.blocks, l->blocks);
  bitmap_set_bit (g2.blocks, g2.exit_bb->index);
  g2.n_ssa = num_ssa_names;
  nf_loop_outline (&g2, &c, loc.get_location_t ());
  BITMAP_FREE (g2.blocks);
  *changed = true;
}

/* The run-time test of the call: the counts agree (C's and B's equal,
   A's B's less START or both 0) and y is x or apart from it.  */
static tree
nf_sm_ok (const struct nf_softmax_loops *l, int start)
{
  tree na = fold_convert (sizetype, l->na), nb = fold_convert (sizetype, l->nb);
  tree nc = fold_convert (sizetype, l->nc);
  tree same = fold_build2 (EQ_EXPR, boolean_type_node, nb, nc);
  tree a_ok = fold_build2 (EQ_EXPR, boolean_type_node,
			   size_binop (PLUS_EXPR, na, size_int (start)), nb);
  if (start)
    a_ok = fold_build2 (TRUTH_OR_EXPR, boolean_type_node, a_ok,
			fold_build2 (EQ_EXPR, boolean_type_node, nb,
				     size_zero_node));
  tree ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, same, a_ok);
  tree esz = TYPE_SIZE_UNIT (l->elt);
  return fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok,
		      nf_loop_disjoint (l->yc_s, l->xb, nb, tree_to_shwi (esz)));
}

/* Steps 4-7 on the loops L found: the reason, or NULL when fused.  */
static const char *
nf_sm_fuse (struct nf_softmax_loops *l, bool *changed)
{
  if (const char *why = nf_sm_region_blocks (l))
    return why;
  int start;
  bool sub_same, exp_kept;
  if (const char *why = nf_sm_accesses (l, &start, &sub_same, &exp_kept))
    return why;
  struct nf_softmax_facts f;
  memset (&f, 0, sizeof f);
  char xn[64], yn[64], nn[64];
  f.function = lang_hooks.decl_printable_name (current_function_decl, 2);
  expanded_location xl
    = expand_location (find_loop_location (l->a).get_location_t ());
  f.loc.file = xl.file;
  f.loc.line = xl.line;
  f.loc.column = xl.column;
  f.x_label = nf_sm_label (l->xb, xn, sizeof xn);
  f.y_label = nf_sm_label (l->yc_s, yn, sizeof yn);
  tree n = nf_sm_strip (l->nb);
  STRIP_NOPS (n);
  f.n_name = TREE_CODE (n) == SSA_NAME ? nf_value_name (n, nn, sizeof nn) : NULL;
  f.elem = f.exp_elem = f.accum = nf_sm_elem (l->elt);
  f.seed = nf_sm_seed (l, &f.seed_value);
  if (start == 1 && f.seed != NF_SOFTMAX_SEED_FIRST)
    return NF_WHY_SOFTMAX_SKIPS;
  tree init = nf_sm_strip (l->sum_init);
  f.sum_init = TREE_CODE (init) == REAL_CST ? nf_cst_value (init) : 1.0;
  f.sub_same = sub_same;
  f.recip = l->recip;
  f.exp_kept = exp_kept;
  nf_match m;
  const char *why;
  nf_region *r = nf_softmax_loops_region (&f, &m, &why);
  if (!r)
    return why;
  nf_call plan;
  nf_call_flags fl = { nf_fast_math_p (), flag_associative_math != 0 };
  why = nf_call_plan (r, &m, &fl, &plan);
  tree ok = why ? NULL_TREE : nf_sm_ok (l, start);
  if (ok && integer_zerop (ok))
    why = NF_WHY_SOFTMAX_COUNTS;
  if (!why)
    nf_sm_outline (l, r, &m, &plan, ok, changed);
  nf_match_release (&m);
  nf_region_free (r);
  return why;
}

bool
nf_loop_softmax_attempt (class loop *a, auto_vec<class loop *> &consumed,
			 const char **reason, bool *changed)
{
  *reason = NULL;
  if (!(nf_opts.kinds & NF_KIND_SOFTMAX) || !loop_outer (a))
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  struct nf_softmax_loops l;
  memset (&l, 0, sizeof l);
  l.a = a;
  if (!nf_sm_max_loop (&l))
    return false;
  const char *why = NULL;
  bool dump = dump_file && (dump_flags & TDF_DETAILS);
  if (dump)
    fprintf (dump_file, "neuronfuse: loop %d takes a max\n", a->num);
  if (!nf_sm_exp_loop (&l, &why))
    {
      if (dump)
	fprintf (dump_file, "neuronfuse: no exp loop after it\n");
      return false;
    }
  if (!why)
    why = nf_sm_divide_loop (&l);
  if (!why)
    {
      l.blocks = BITMAP_ALLOC (NULL);
      why = nf_sm_fuse (&l, changed);
      BITMAP_FREE (l.blocks);
    }
  if (!why)
    {
      consumed.safe_push (l.a);
      consumed.safe_push (l.b);
      consumed.safe_push (l.c);
    }
  if (dump)
    fprintf (dump_file, "neuronfuse: softmax loops %d, %d, %d: %s\n", a->num,
	     l.b ? l.b->num : -1, l.c ? l.c->num : -1, why ? why : "fused");
  *reason = why;
  return true;
}
