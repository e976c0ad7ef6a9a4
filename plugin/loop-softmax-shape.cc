/* loop-softmax-shape.cc: steps 1-3 of the Softmax kind (the design is
   in loop-softmax.cc): loop A as a max reduction, loop B found from the
   uses of A's max (exp of the element minus it, stored and summed; the
   element's load first put back into B's header where GCC 11's PRE
   carried it around the back edge),
   loop C from the uses of B's sum (divide by it, or multiply by its
   reciprocal computed between the loops), and the effect checks of the
   loops and of the straight paths between them.  Each step returns
   false (not a softmax: quiet) or the near miss's reason.

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
#include "loop-softmax.h"

/* T through SSA copies, conversions that keep the type's mode, and
   single-argument PHIs.  */
tree
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
   argument PHIs outside it and copies anywhere (m_54 = max in the loop,
   used after it: what FRE leaves of C++'s std::max), into USES.  */
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
	  if (is_gimple_debug (u))
	    continue;
	  if (is_gimple_assign (u) && gimple_assign_ssa_name_copy_p (u))
	    {
	      work.safe_push (gimple_assign_lhs (u));
	      continue;
	    }
	  if (flow_bb_inside_loop_p (loop, gimple_bb (u)))
	    continue;
	  gphi *phi = dyn_cast<gphi *> (u);
	  if (phi && gimple_phi_num_args (phi) == 1)
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
const char *
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
	  why = NF_WHY_MAY_THROW;
	break;
      }
  free (bbs);
  return why;
}

/* The blocks from the exit of FROM to the preheader of TO, added to
   BLOCKS: a straight path of blocks that do no work with an effect.
   NULL, or the reason.  */
const char *
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

/* Whether every SSA name in T is defined in or before DATA, the block
   the region starts in or after: T valid at the entry.  */
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

bool
nf_sm_at_entry (basic_block entry, tree t)
{
  return !walk_tree (&t, nf_sm_late_name, entry, NULL);
}

/* Step 1: A as a max loop (L->a, m_phi, load_a, seed).  False when it
   is none.  */
bool
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
   RES (the PHI's result or its latch value NEXT), after the loop.  A PHI
   joining that value with INIT, the value on entry (the edge around
   LOOP of its zero-trip guard, after loop header copying), stands for
   its own uses, and *JOINED is set: the loops then need their guards
   (loop-softmax.cc's nf_sm_guarded_region).  */
static void
nf_sm_final_uses (class loop *loop, tree res, tree init, vec<gimple *> *uses,
		  bool *joined)
{
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (res));
  tree next = PHI_ARG_DEF_FROM_EDGE (phi, loop_latch_edge (loop));
  auto_vec<gimple *, 4> direct;
  nf_sm_uses_after (loop, res, &direct);
  if (TREE_CODE (next) == SSA_NAME)
    nf_sm_uses_after (loop, next, &direct);
  tree in = nf_sm_strip (init);
  for (gimple *u : direct)
    {
      gphi *join = dyn_cast<gphi *> (u);
      if (join && gimple_phi_num_args (join) == 2
	  && (nf_sm_strip (gimple_phi_arg_def (join, 0)) == in
	      || nf_sm_strip (gimple_phi_arg_def (join, 1)) == in))
	{
	  *joined = true;
	  nf_sm_uses_after (loop, gimple_phi_result (join), uses);
	}
      else if (!uses->contains (u))
	uses->safe_push (u);
    }
}

/* Whether B's sum adds what it stores, the exp EV: NEXT = sum + EV, or
   sum + the element B just stored (llama2.c's sum += x[i] after x[i] =
   expf (...), when no FRE has forwarded the store yet).  Not a sum of
   anything else (sum += x[i] of the input: no softmax).  */
static bool
nf_sm_sums_exp (const struct nf_softmax_loops *l, tree ev, tree next)
{
  if (TREE_CODE (next) != SSA_NAME)
    return false;
  gimple *add = SSA_NAME_DEF_STMT (next);
  if (!is_gimple_assign (add) || gimple_assign_rhs_code (add) != PLUS_EXPR)
    return false;
  tree t = gimple_assign_rhs1 (add) == l->sum_phi ? gimple_assign_rhs2 (add)
	   : gimple_assign_rhs2 (add) == l->sum_phi ? gimple_assign_rhs1 (add)
						    : NULL_TREE;
  if (!t || TREE_CODE (t) != SSA_NAME)
    return false;
  if (t == ev)
    return true;
  /* A reload of the stored element: after the store in its block (the
     loop's only store, nf_sm_loop_effects checks), from its address.  */
  gimple *ld = SSA_NAME_DEF_STMT (t);
  if (!gimple_assign_load_p (ld) || gimple_bb (ld) != gimple_bb (l->store_b)
      || !operand_equal_p (gimple_assign_rhs1 (ld),
			   gimple_assign_lhs (l->store_b), 0))
    return false;
  for (gimple_stmt_iterator gsi = gsi_for_stmt (l->store_b); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gsi_stmt (gsi) == ld)
      return true;
  return false;
}

/* The address ADDR of the load REF reads, as a tree (its MEM_REF's
   pointer, or &REF).  */
static tree
nf_sm_load_addr (tree ref)
{
  return TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1))
	   ? TREE_OPERAND (ref, 0)
	   : build_fold_addr_expr (ref);
}

/* The memory state V, through virtual PHIs whose arguments are all one
   state or the PHI itself (what a loop that stores nothing leaves, in
   C++ after FRE): the state they all are, DEPTH PHIs deep at most.  */
static tree
nf_sm_vstate (tree v, int depth)
{
  gphi *phi = TREE_CODE (v) == SSA_NAME
		? dyn_cast<gphi *> (SSA_NAME_DEF_STMT (v))
		: NULL;
  if (!phi || depth == 0)
    return v;
  tree same = NULL_TREE;
  for (unsigned k = 0; k < gimple_phi_num_args (phi); k++)
    {
      tree a = gimple_phi_arg_def (phi, k);
      if (a == v)
	continue;
      a = nf_sm_vstate (a, depth - 1);
      if (a == v)
	continue;
      if (same && a != same)
	return v;
      same = a;
    }
  return same ? same : v;
}

/* GCC 11's PRE (not GCC 12's) carries B's load of x[i] around B's back
   edge when a load of x[0] comes before B (the seed max = x[0] of A):

     <A's preheader>  m_28 = *x;
     <B's header>     # v_54 = PHI <m_28 (preheader), v_53 (latch)>
		      _5 = v_54 - max; ...
     <B's latch>      v_53 = *(x + (i + 1) * 4);

   where GCC 12 leaves `_4 = *(x + i * 4); _5 = _4 - max', the shape
   step 2 and the region builder read.  Put the load back into LOOP's
   header for each such PHI: when the latch's load reads the element
   after the one the preheader's load reads, at the memory state the
   header sees next (and that one at the state on entry), the PHI is
   the element of each iteration as loaded there.  The same values, no
   access the loop did not make; the PHI and the latch's load go.  Only
   in mode=rewrite (mode=report leaves the code as it is: there, such a
   softmax is the near miss "does other work too").  Whether a PHI
   went.  */
static bool
nf_sm_unrotate_loads (class loop *loop)
{
  if (nf_opts.mode != NF_MODE_REWRITE || !loop->latch
      || !single_succ_p (loop->latch) || !loop_preheader_edge (loop))
    return false;
  edge pre = loop_preheader_edge (loop), back = loop_latch_edge (loop);
  gphi *vphi = NULL, *ivphi = NULL;
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree res = gimple_phi_result (pi.phi ());
      affine_iv iv;
      if (virtual_operand_p (res))
	vphi = pi.phi ();
      else if (!ivphi && INTEGRAL_TYPE_P (TREE_TYPE (res))
	       && simple_iv (loop, loop, res, &iv, false)
	       && iv.step && integer_onep (iv.step))
	ivphi = pi.phi ();
    }
  if (!ivphi)
    return false;
  bool changed = false;
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);)
    {
      gphi *phi = pi.phi ();
      tree res = gimple_phi_result (phi);
      tree init = PHI_ARG_DEF_FROM_EDGE (phi, pre);
      tree next = PHI_ARG_DEF_FROM_EDGE (phi, back);
      gimple *dt, *di;
      if (virtual_operand_p (res) || !FLOAT_TYPE_P (TREE_TYPE (res))
	  || TREE_CODE (init) != SSA_NAME || TREE_CODE (next) != SSA_NAME
	  || !gimple_assign_load_p (dt = SSA_NAME_DEF_STMT (next))
	  || !gimple_assign_load_p (di = SSA_NAME_DEF_STMT (init))
	  || gimple_bb (dt) != loop->latch || !has_single_use (next)
	  || gimple_has_volatile_ops (dt) || gimple_has_volatile_ops (di)
	  || !useless_type_conversion_p (TREE_TYPE (res),
					 TREE_TYPE (gimple_assign_rhs1 (dt)))
	  || !useless_type_conversion_p (TREE_TYPE (res),
					 TREE_TYPE (gimple_assign_rhs1 (di))))
	{
	  gsi_next (&pi);
	  continue;
	}
      /* The memory states: the latch's load sees what the next header
	 sees, the preheader's load what the loop's entry sees.  */
      tree vback = vphi ? PHI_ARG_DEF_FROM_EDGE (vphi, back) : gimple_vuse (dt);
      tree ventry = vphi ? PHI_ARG_DEF_FROM_EDGE (vphi, pre) : gimple_vuse (dt);
      /* The latch reads {first + size, +, size}, the preheader first.  */
      tree ref = gimple_assign_rhs1 (dt);
      tree size = TYPE_SIZE_UNIT (TREE_TYPE (ref));
      tree ev = analyze_scalar_evolution (loop, nf_sm_load_addr (ref));
      ev = instantiate_scev (pre, loop, ev);
      tree first = nf_sm_load_addr (gimple_assign_rhs1 (di));
      poly_int64 d;
      if (gimple_vuse (dt) != vback
	  || nf_sm_vstate (gimple_vuse (di), 4) != nf_sm_vstate (ventry, 4)
	  || !ev || TREE_CODE (ev) != POLYNOMIAL_CHREC
	  || CHREC_VARIABLE (ev) != (unsigned) loop->num
	  || TREE_CODE (CHREC_RIGHT (ev)) != INTEGER_CST
	  || !tree_int_cst_equal (fold_convert (sizetype, CHREC_RIGHT (ev)),
				  size)
	  || tree_contains_chrecs (CHREC_LEFT (ev), NULL)
	  || chrec_contains_undetermined (CHREC_LEFT (ev))
	  || !ptr_difference_const (CHREC_LEFT (ev), first, &d)
	  || maybe_ne (d, tree_to_poly_int64 (size)))
	{
	  gsi_next (&pi);
	  continue;
	}
      /* first + (i - i0) * size, loaded at the header's start.  */
      tree i = gimple_phi_result (ivphi);
      tree i0 = PHI_ARG_DEF_FROM_EDGE (ivphi, pre);
      tree off = fold_build2 (MINUS_EXPR, sizetype, fold_convert (sizetype, i),
			      fold_convert (sizetype, i0));
      off = fold_build2 (MULT_EXPR, sizetype, off, size);
      gimple_seq seq = NULL;
      tree addr = force_gimple_operand (
	fold_build_pointer_plus (unshare_expr (first), off), &seq, true,
	NULL_TREE);
      tree load = fold_build2 (MEM_REF, TREE_TYPE (ref), addr,
			       build_int_cst (reference_alias_ptr_type (ref),
					      0));
      tree val = make_ssa_name (TREE_TYPE (res));
      gimple *ld = gimple_build_assign (val, load);
      gimple_set_vuse (ld, vphi ? gimple_phi_result (vphi) : gimple_vuse (dt));
      gimple_seq_add_stmt (&seq, ld);
      gimple_stmt_iterator at = gsi_after_labels (loop->header);
      gsi_insert_seq_before (&at, seq, GSI_SAME_STMT);
      imm_use_iterator it;
      gimple *u;
      use_operand_p use;
      FOR_EACH_IMM_USE_STMT (u, it, res)
	{
	  FOR_EACH_IMM_USE_ON_STMT (use, it)
	    SET_USE (use, val);
	  update_stmt (u);
	}
      remove_phi_node (&pi, true);
      gimple_stmt_iterator gd = gsi_for_stmt (dt);
      insert_debug_temps_for_defs (&gd);
      gsi_remove (&gd, true);
      release_defs (dt);
      changed = true;
    }
  /* The latch's address arithmetic, now unused: an empty latch is what
     makes the loop a do-while for nf_loop_body_count.  */
  for (bool again = changed; again;)
    {
      again = false;
      for (gimple_stmt_iterator gsi = gsi_last_bb (loop->latch);
	   !gsi_end_p (gsi);)
	{
	  gimple *s = gsi_stmt (gsi);
	  tree lhs = is_gimple_assign (s) ? gimple_assign_lhs (s) : NULL_TREE;
	  if (lhs && TREE_CODE (lhs) == SSA_NAME && has_zero_uses (lhs)
	      && !gimple_vdef (s) && !gimple_has_side_effects (s)
	      && !stmt_could_throw_p (cfun, s))
	    {
	      gimple_stmt_iterator del = gsi;
	      gsi_prev (&gsi);
	      insert_debug_temps_for_defs (&del);
	      gsi_remove (&del, true);
	      release_defs (s);
	      again = true;
	    }
	  else
	    gsi_prev (&gsi);
	}
    }
  if (changed)
    scev_reset_htab ();
  return changed;
}

/* Step 2: loop B from the uses of A's max.  False when it is none (the
   max is for something else); else *WHY may hold a near miss.  */
bool
nf_sm_exp_loop (struct nf_softmax_loops *l, const char **why)
{
  auto_vec<gimple *, 4> uses;
  nf_sm_final_uses (l->a, l->m_phi, l->seed, &uses, &l->guarded);
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
  if (nf_sm_float_phis (l->b) > 1)
    nf_sm_unrotate_loads (l->b);
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
  if (!l->store_b || !nf_sm_sums_exp (l, ev, next))
    return *why = NF_WHY_SOFTMAX_LOOPS, true;
  gphi *phi = as_a<gphi *> (SSA_NAME_DEF_STMT (l->sum_phi));
  l->sum_init = PHI_ARG_DEF_FROM_EDGE (phi, loop_preheader_edge (l->b));
  gimple *allowed[2] = { l->exp_call, l->store_b };
  *why = nf_sm_loop_effects (l->b, allowed, 2);
  return true;
}

/* Step 3: loop C from the uses of B's sum.  The reason, or NULL.  */
const char *
nf_sm_divide_loop (struct nf_softmax_loops *l)
{
  auto_vec<gimple *, 4> uses;
  nf_sm_final_uses (l->b, l->sum_phi, l->sum_init, &uses, &l->guarded);
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
    return NF_WHY_SOFTMAX_STORE;
  l->store_c = st;
  /* Only the quotient's and the induction variables' PHIs.  */
  if (nf_sm_float_phis (l->c) != 0)
    return NF_WHY_SOFTMAX_OTHER_WORK;
  gimple *allowed[1] = { l->store_c };
  return nf_sm_loop_effects (l->c, allowed, 1);
}
