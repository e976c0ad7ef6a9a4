/* loop-extent.cc: where a loop region of region IR (loop-ir.cc) begins
   and ends in GIMPLE, what it assumes, and its inputs at its entry.

   nf_lr_set_exit cuts the region after the matched ops: after the
   definition of the idiom's result, or, for a STORE, after its loop and
   the code that joins the loop's guard; the blocks from the start to
   there must be single-entry single-exit, and every loop in them must
   run whenever the region does (up to the guard its trip count
   includes).  nf_lr_at_entry rebuilds a value the fused call needs (a
   trip count, eps, an address) from its pure definitions, so that the
   test block on the entry edge can compute it; nf_lr_assumptions turns
   what the builder assumed (G->assume) into the run-time test.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "nf-plugin.h"
#include "loop-ir.h"

tree
nf_lr_assumptions (const struct nf_lregion *g)
{
  tree all = boolean_true_node;
  for (int i = 0; i < g->n_assume; i++)
    {
      tree a = nf_lr_at_entry (g, g->assume[i][0]);
      tree b = nf_lr_at_entry (g, g->assume[i][1]);
      if (!a || !b)
	return NULL_TREE;
      all = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, all,
			 fold_build2 (EQ_EXPR, boolean_type_node,
				      fold_convert (sizetype, a),
				      fold_convert (sizetype, b)));
    }
  return all;
}

bool
nf_lr_copy_p (const struct nf_lregion *g, gimple *stmt)
{
  for (int i = 0; i < g->n_copies; i++)
    if (g->copies[i] == stmt)
      return true;
  return false;
}

bool
nf_lr_copy_covered (const struct nf_lregion *g, gimple *copy, nf_value param)
{
  const struct nf_lr_array *a = nf_lr_array_of (g, param);
  tree b, o;
  for (int i = 0; a && i < g->n_copies; i++)
    if (g->copies[i] == copy)
      /* Analysed in the loop that reads the copy, as it was found.  */
      return nf_lr_pointer_address (g, g->copy_loop[i],
				    gimple_call_arg (copy, 0), copy, &b, &o)
	     && operand_equal_p (a->base, b, 0)
	     && operand_equal_p (a->offset, o, 0);
  return false;
}


/* --- The region's extent.  ------------------------------------------ */

/* Whether BB is an empty block that only passes control on, and not
   into the header of an enclosing loop.  */
static bool
nf_lr_forwarder_p (basic_block bb)
{
  return single_succ_p (bb) && nf_lr_empty_bb (bb) && !phi_nodes (bb)
	 && single_succ (bb) != bb->loop_father->header;
}

/* Where L's exit path and its guard's skip path meet: the first block
   of the exit's chain of forwarders that the skip's chain of
   single-successor blocks reaches.  */
static basic_block
nf_lr_join (const struct nf_lr_loop *l)
{
  if (!l->skip)
    return l->exit->dest;
  basic_block a = l->exit->dest;
  for (int i = 0;; i++)
    {
      basic_block b = l->skip->dest;
      for (int j = 0;; j++)
	{
	  if (a == b)
	    return a;
	  /* The path around may do work (cdce keeps an errno call).  */
	  if (j == 4 || !single_succ_p (b)
	      || single_succ (b) == b->loop_father->header)
	    break;
	  b = single_succ (b);
	}
      if (i == 4 || !nf_lr_forwarder_p (a))
	return NULL;
      a = single_succ (a);
    }
}

/* Whether some path from the region's start to its exit avoids L's
   guard (or preheader) other than through the skip edge of a loop with
   L's trip count, which runs L zero times as the count says.  */
static bool
nf_lr_bypassed (const struct nf_lregion *g, const struct nf_lr_loop *l)
{
  basic_block must = bitmap_bit_p (g->blocks, l->guard_bb->index)
		       ? l->guard_bb
		       : l->loop->header;
  if (must == g->start_bb)
    return false;
  auto_bitmap seen;
  auto_vec<basic_block, 32> work;
  work.safe_push (g->start_bb);
  bitmap_set_bit (seen, g->start_bb->index);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      if (bb == g->exit_bb)
	return true;
      if (bb == must)
	continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
      {
	bool same_skip = false;
	for (int j = 0; j < g->n_loops; j++)
	  same_skip |= g->loops[j].skip == e
		       && operand_equal_p (g->loops[j].count, l->count, 0);
	if (!same_skip && bitmap_bit_p (g->blocks, e->dest->index)
	    && bitmap_set_bit (seen, e->dest->index))
	  work.safe_push (e->dest);
      }
    }
  return false;
}

bool
nf_lr_set_exit (struct nf_lregion *g, nf_value v)
{
  if (nf_op (g->r, v) == NF_OP_STORE)
    {
      /* After its loop, where the exit and the guard's skip rejoin.  */
      struct nf_lr_loop *l = nf_lr_loop_of (g, gimple_bb (g->stmts[v]));
      basic_block join = nf_lr_join (l);
      if (!join)
	return nf_lr_fail (g, "the loop's guard does not rejoin after it"),
	       false;
      g->exit_bb = join;
      g->exit_after = NULL;
    }
  else
    {
      /* After the definition of its last tree: the one no PHI merges
	 into another tree of the value (the join of a cdce diamond).  */
      tree best = NULL_TREE;
      for (unsigned ver = 1; ver < g->n_ssa && !best; ver++)
	if (g->ssa[ver] == v && ssa_name (ver))
	  {
	    imm_use_iterator it;
	    use_operand_p use;
	    bool merged = false;
	    FOR_EACH_IMM_USE_FAST (use, it, ssa_name (ver))
	      {
		gimple *u = USE_STMT (use);
		tree res = gimple_code (u) == GIMPLE_PHI ? gimple_phi_result (u)
							 : NULL_TREE;
		merged |= res && SSA_NAME_VERSION (res) < g->n_ssa
			  && g->ssa[SSA_NAME_VERSION (res)] == v;
	      }
	    if (!merged)
	      best = ssa_name (ver);
	  }
      if (!best || TREE_CODE (best) != SSA_NAME)
	return nf_lr_fail (g, "the result is not computed in the region"),
	       false;
      gimple *def = SSA_NAME_DEF_STMT (best);
      g->exit_bb = gimple_bb (def);
      g->exit_after = gimple_code (def) == GIMPLE_PHI ? NULL : def;
    }

  /* The blocks: from the start to the exit, all dominated by the start;
     any other way out is a second exit.  */
  g->blocks = BITMAP_ALLOC (NULL);
  auto_vec<basic_block, 32> work;
  bitmap_set_bit (g->blocks, g->start_bb->index);
  work.safe_push (g->start_bb);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      if (bb == g->exit_bb)
	continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
      {
	basic_block d = e->dest;
	if (bitmap_bit_p (g->blocks, d->index))
	  continue;
	if (d == EXIT_BLOCK_PTR_FOR_FN (cfun)
	    || !dominated_by_p (CDI_DOMINATORS, d, g->start_bb)
	    || d == g->start_bb || bitmap_count_bits (g->blocks) > 64)
	  {
	    if (dump_file && (dump_flags & TDF_DETAILS))
	      fprintf (dump_file,
		       "neuronfuse: bb %d -> %d leaves the region "
		       "(start %d, exit %d)\n",
		       bb->index, d->index, g->start_bb->index,
		       g->exit_bb->index);
	    return nf_lr_fail (g, "the region has a second exit"), false;
	  }
	bitmap_set_bit (g->blocks, d->index);
	work.safe_push (d);
      }
    }
  if (!bitmap_bit_p (g->blocks, g->exit_bb->index))
    return nf_lr_fail (g, "the region has a second exit"), false;

  /* Single entry: every block but the start is entered from the region
     only (the start: from its preheader, too, when it is a header).  */
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (g->blocks, 0, i, bi)
  {
    basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE (e, ei, bb->preds)
    if (!bitmap_bit_p (g->blocks, e->src->index)
	&& !(bb == g->start_bb
	     && (g->start_stmt || e == loop_preheader_edge (g->loops[0].loop))))
      return nf_lr_fail (g, "the region has a second entry"), false;
  }

  /* Every loop in the region runs whenever the region does (up to its
     guard, which its trip count includes).  */
  for (int k = 0; k < g->n_loops; k++)
    {
      struct nf_lr_loop *l = &g->loops[k];
      if (bitmap_bit_p (g->blocks, l->loop->header->index)
	  && nf_lr_bypassed (g, l))
	return nf_lr_fail (g, "a loop of the region runs conditionally"), false;
    }
  return true;
}

bool
nf_lr_contains (const struct nf_lregion *g, gimple *stmt)
{
  basic_block bb = gimple_bb (stmt);
  if (!bb || !g->blocks || !bitmap_bit_p (g->blocks, bb->index))
    return false;
  if (bb == g->start_bb && g->start_stmt)
    return stmt == g->start_stmt;
  if (bb != g->exit_bb || gimple_code (stmt) == GIMPLE_PHI)
    return true;
  if (!g->exit_after)
    return false;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      if (gsi_stmt (gsi) == stmt)
	return true;
      if (gsi_stmt (gsi) == g->exit_after)
	return false;
    }
  return false;
}

tree
nf_lr_at_entry (const struct nf_lregion *g, tree t)
{
  if (!t || CONSTANT_CLASS_P (t) || DECL_P (t))
    return t;
  if (TREE_CODE (t) == SSA_NAME)
    {
      gimple *def = SSA_NAME_DEF_STMT (t);
      if (SSA_NAME_IS_DEFAULT_DEF (t) || nf_lr_before_start (g, def))
	return t;
      if (is_gimple_assign (def) && gimple_assign_load_p (def)
	  && gimple_bb (def)->loop_father == loop_outer (g->loops[0].loop)
	  && nf_lr_hoistable_load (g, def))
	return nf_lr_at_entry (g, gimple_assign_rhs1 (def));
      if (!is_gimple_assign (def) || gimple_assign_load_p (def)
	  || gimple_has_side_effects (def)
	  || gimple_bb (def)->loop_father != loop_outer (g->loops[0].loop))
	return NULL_TREE;
      tree type = TREE_TYPE (t);
      enum tree_code code = gimple_assign_rhs_code (def);
      tree a = nf_lr_at_entry (g, gimple_assign_rhs1 (def));
      if (!a)
	return NULL_TREE;
      switch (get_gimple_rhs_class (code))
	{
	case GIMPLE_SINGLE_RHS:
	  return a;
	case GIMPLE_UNARY_RHS:
	  return fold_build1 (code, type, a);
	case GIMPLE_BINARY_RHS:
	  {
	    tree b = nf_lr_at_entry (g, gimple_assign_rhs2 (def));
	    return b ? fold_build2 (code, type, a, b) : NULL_TREE;
	  }
	default:
	  return NULL_TREE;
	}
    }
  if (!EXPR_P (t))
    return NULL_TREE;
  tree c = copy_node (t);
  for (int i = 0; i < TREE_OPERAND_LENGTH (t); i++)
    if (TREE_OPERAND (t, i))
      {
	tree op = nf_lr_at_entry (g, TREE_OPERAND (t, i));
	if (!op)
	  return NULL_TREE;
	TREE_OPERAND (c, i) = op;
      }
  return c;
}
