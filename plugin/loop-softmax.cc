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

   Steps (nf_loop_softmax_attempt; 1-3 in loop-softmax-shape.cc):
   1. loop A is a max reduction of one array read contiguously: its one
   floating-point header PHI m is updated by MAX_EXPR, fmax or a
   comparison choosing the larger of m and the element (a COND_EXPR, or
   the PHI joining an empty arm); 2. m's final value is used once, after
   A, by loop B, which subtracts it from its elements and takes exp of
   the difference, stores it and sums it (the exp, or its reload) from a
   constant; 3. the sum's final value (or its reciprocal computed
   between the loops) is used by loop C, which divides (or multiplies)
   what it reads where B stored and stores the quotient; 4. nothing
   else: no other store, call or floating-point reduction in the loops,
   no side effect between them, no value of the region used after it,
   the three loops one after another on straight-line edges (as
   written), or, after loop header copying (the late pass: a softmax
   only inlining shows, C++'s std::max), each behind its zero-trip guard
   with m and the sum joined with their initial values after it: then
   the region runs from A's guard to where the guards' paths meet, its
   only conditions on the path through the three loops the guards, whose
   test at the entry joins the run-time test (nf_sm_guarded_region;
   GCC 11 leaves B's guard only on the path skipping A, off that path);
   5. the accesses as scalar
   evolutions at A's entry: each contiguous, A's elements B's from the
   same or the next element (with the seed x[0] when next), C's reads
   B's stores; the trip counts (nf_loop_body_count: a do-while body
   runs once more than its latch) agree (a run-time test); 6. the facts go to
   lower/'s nf_softmax_loops_region, which builds the region IR and
   matches it (so neuronfuse-clang's regions and reasons are the same),
   and nf_call_plan plans the call; 7. record, and in mode=rewrite
   outline (loop.cc's nf_loop_outline) from A's preheader edge (or
   guard) to C's exit (or the guards' meeting block).

   Limitations: the accumulator and exp in the elements' type (a double
   sum of float exps is left to the loops, quietly); a max kept in
   memory at nf-loop too (C++'s std::max at -O1 and -Os: no candidate);
   rows of a softmax are one call per row.

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

/* The blocks of loops A, B and C into L->blocks.  */
static void
nf_sm_loop_blocks (struct nf_softmax_loops *l)
{
  class loop *loops[3] = { l->a, l->b, l->c };
  for (int k = 0; k < 3; k++)
    {
      basic_block *bbs = get_loop_body (loops[k]);
      for (unsigned i = 0; i < loops[k]->num_nodes; i++)
	bitmap_set_bit (l->blocks, bbs[i]->index);
      free (bbs);
    }
}

/* Step 4 for the loops as the early pass sees them: each a while loop
   (its exit in its header), one after another on straight paths, the
   region from A's preheader edge to C's exit.  The reason, or NULL.  */
static const char *
nf_sm_straight_region (struct nf_softmax_loops *l)
{
  nf_sm_loop_blocks (l);
  class loop *loops[3] = { l->a, l->b, l->c };
  for (int k = 0; k < 3; k++)
    if (single_exit (loops[k])->src != loops[k]->header)
      return NF_WHY_LOOP_SHAPE;
  if (const char *why = nf_sm_between (l->a, l->b, l->blocks))
    return why;
  if (const char *why = nf_sm_between (l->b, l->c, l->blocks))
    return why;
  l->exit_bb = single_exit (l->c)->dest;
  if (!single_pred_p (l->exit_bb))
    return NF_WHY_LOOP_SHAPE;
  return NULL;
}

/* Whether BB, outside the three loops, does nothing but join and test:
   no store, call or side effect, and each condition one of the loops'
   guards GUARDS[0..N), or any condition when OFF_PATH (a block the
   call's path never reaches: the fallback's alone).  */
static bool
nf_sm_guard_block_ok (basic_block bb, gcond *const *guards, int n,
		      bool off_path)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL)
	continue;
      if (gimple_vdef (s) || is_gimple_call (s) || gimple_has_side_effects (s)
	  || gimple_has_volatile_ops (s) || stmt_could_throw_p (cfun, s))
	return false;
      if (gimple_code (s) == GIMPLE_COND)
	{
	  bool known = off_path;
	  for (int k = 0; k < n; k++)
	    known |= guards[k] == s;
	  if (!known)
	    return false;
	}
    }
  return true;
}

/* Step 4 after loop header copying (the late pass): each loop behind a
   zero-trip guard (or none, where a constant count folded it), the max
   and the sum joined with their initial values after it.  The region
   runs from A's guard (or preheader edge) to the block where every
   path from it meets (C's exit, through empty blocks); its conditions
   outside the loops are the loops' guards, whose operands are known at
   the entry: L->guard_ok, the test that each enters its loop, makes the
   call stand for the path through all three.  The reason, or NULL.  */
static const char *
nf_sm_guarded_region (struct nf_softmax_loops *l)
{
  class loop *loops[3] = { l->a, l->b, l->c };
  gcond *guards[3];
  bool enters[3];
  int n = 0;
  l->guard_ok = boolean_true_node;
  /* The region starts at A's guard, or at A's preheader edge when the
     guard folded away (a constant count).  */
  edge skip;
  bool enter_true;
  l->start = nf_lr_find_guard (l->a, &skip, &enter_true);
  l->start_bb = l->start ? gimple_bb (l->start) : NULL;
  basic_block entry = l->start ? l->start_bb : loop_preheader_edge (l->a)->src;
  basic_block top = l->start ? l->start_bb : l->a->header;
  for (int k = 0; k < 3; k++)
    {
      gcond *g = nf_lr_find_guard (loops[k], &skip, &enter_true);
      if (!g)
	continue;
      tree lhs = gimple_cond_lhs (g), rhs = gimple_cond_rhs (g);
      if (!nf_sm_at_entry (entry, lhs) || !nf_sm_at_entry (entry, rhs))
	return NF_WHY_SOFTMAX_GUARDED;
      tree t = fold_build2 (gimple_cond_code (g), boolean_type_node, lhs, rhs);
      if (!enter_true)
	t = fold_build1 (TRUTH_NOT_EXPR, boolean_type_node, t);
      l->guard_ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node,
				 l->guard_ok, t);
      enters[n] = enter_true;
      guards[n++] = g;
    }
  nf_sm_loop_blocks (l);
  /* The exit: past C's exit through empty blocks of one predecessor,
     within the loop holding the three (never its latch: a row loop's
     back edge is not the region's to take).  */
  class loop *outer = loop_outer (l->a);
  basic_block x = single_exit (l->c)->dest;
  for (int i = 0; i < 4 && single_pred_p (x) && single_succ_p (x)
		  && !phi_nodes (x) && nf_lr_empty_bb (x)
		  && x != outer->latch && single_succ (x) != outer->header
		  && single_succ (x) != EXIT_BLOCK_PTR_FOR_FN (cfun);
       i++)
    {
      bitmap_set_bit (l->blocks, x->index);
      x = single_succ (x);
    }
  if (x == top || x->loop_father != outer || x == outer->latch
      || !dominated_by_p (CDI_DOMINATORS, x, top))
    return NF_WHY_SOFTMAX_GUARDED;
  l->exit_bb = x;
  /* The path the call stands for (GUARD_OK true): from the start, each
     guard's edge into its loop, each loop from its header to its exit,
     single successors elsewhere.  When it reaches X, conditions off it
     are the fallback's alone and need only be free of effects: GCC 11
     threads B's guard into the path that skips A (`if (n > 1)' before
     A, then `if (n > 0)' only where it failed), which GCC 12 keeps on
     B's preheader.  */
  auto_bitmap on_path;
  basic_block p = l->start ? l->start_bb : l->a->header;
  for (int i = 0; i < 64 && p != x; i++)
    {
      bitmap_set_bit (on_path, p->index);
      gcond *c = safe_dyn_cast<gcond *> (last_stmt (p));
      int k = 0;
      while (k < n && guards[k] != c)
	k++;
      if (p->loop_father != outer)
	{
	  class loop *in = p->loop_father;
	  if ((in != l->a && in != l->b && in != l->c) || p != in->header)
	    break;
	  p = single_exit (in)->dest;
	}
      else if (single_succ_p (p))
	p = single_succ (p);
      else if (k < n && EDGE_COUNT (p->succs) == 2)
	p = ((EDGE_SUCC (p, 0)->flags & EDGE_TRUE_VALUE) != 0) == enters[k]
	      ? EDGE_SUCC (p, 0)->dest
	      : EDGE_SUCC (p, 1)->dest;
      else
	break;
    }
  bool path_known = p == x;
  /* Every block reached from the guard before X: one of the three loops
     (entered at its header, left by its exit), or a block that only
     joins and tests (at most 16 of them).  */
  auto_vec<basic_block, 16> work;
  int others = 0, entered = 0;
  class loop *seen[3] = { NULL, NULL, NULL };
  if (l->start)
    {
      bitmap_set_bit (l->blocks, l->start_bb->index);
      work.safe_push (l->start_bb);
    }
  else
    {
      seen[entered++] = l->a;
      work.safe_push (single_exit (l->a)->src);
    }
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  basic_block d = e->dest;
	  if (e->flags & EDGE_COMPLEX)
	    return NF_WHY_LOOP_SHAPE;
	  if (bb->loop_father != outer && d->loop_father == bb->loop_father)
	    continue; /* Within A (from its exit's block, no guard).  */
	  if (d != x && d->loop_father != outer)
	    {
	      class loop *in = d->loop_father;
	      if ((in != l->a && in != l->b && in != l->c) || d != in->header)
		return NF_WHY_SOFTMAX_OTHER_WORK;
	      if (in == seen[0] || in == seen[1] || in == seen[2])
		continue;
	      seen[entered++] = in;
	      d = single_exit (in)->dest;
	      if (d != x && d->loop_father != outer)
		return NF_WHY_LOOP_SHAPE;
	    }
	  if (d == top)
	    return NF_WHY_LOOP_SHAPE; /* A path back to the start.  */
	  if (d == x || bitmap_bit_p (l->blocks, d->index))
	    continue;
	  if (d == EXIT_BLOCK_PTR_FOR_FN (cfun)
	      || !dominated_by_p (CDI_DOMINATORS, d, top))
	    return NF_WHY_SOFTMAX_GUARDED;
	  if (++others > 16
	      || !nf_sm_guard_block_ok (d, guards, n,
					path_known
					  && !bitmap_bit_p (on_path, d->index)))
	    return NF_WHY_SOFTMAX_BETWEEN;
	  bitmap_set_bit (l->blocks, d->index);
	  work.safe_push (d);
	}
    }
  if (entered != 3)
    return NF_WHY_SOFTMAX_GUARDED;
  bitmap_set_bit (l->blocks, x->index);
  return NULL;
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
  /* Straight as written, or behind guards (after header copying, where
     the max or the sum need not be joined after its loop: -O1 threads
     the skip paths to the exit).  */
  const char *why = l->guarded ? NF_WHY_SOFTMAX_GUARDED
			       : nf_sm_straight_region (l);
  if (why)
    {
      bitmap_clear (l->blocks);
      const char *gwhy = nf_sm_guarded_region (l);
      if (gwhy)
	return l->guarded ? gwhy : why;
    }
  /* Nothing the region computes is used after it (the PHIs of its exit
     block included: they would stay behind the call's join).  */
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (l->blocks, 0, i, bi)
  {
    basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
    if (bb == l->start_bb && l->start)
      continue; /* Only its guard is the region's.  */
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
      if (used_after (gimple_phi_result (pi.phi ()))
	  || (bb == l->exit_bb
	      && !virtual_operand_p (gimple_phi_result (pi.phi ()))))
	return NF_WHY_SOFTMAX_USED_AFTER;
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (bb != l->exit_bb && used_after (gimple_get_lhs (gsi_stmt (gsi))))
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
  basic_block entry = l->start ? l->start_bb : loop_preheader_edge (l->a)->src;
  if (!nf_sm_at_entry (entry, l->na) || !nf_sm_at_entry (entry, l->nb)
      || !nf_sm_at_entry (entry, l->nc))
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
  const char *ins[2] = { nf_source_array_name (l->xb, xb, sizeof xb), "n" };
  const char *outs[1] = { nf_source_array_name (l->yc_s, yb, sizeof yb) };
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
		      false, flag_errno_math);
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
  nf_loop_call_void (&c, NF_KIND_SOFTMAX, p, l->elt);
  tree ptr = build_pointer_type (l->elt);
  tree cptr = build_pointer_type (build_qualified_type (l->elt,
							 TYPE_QUAL_CONST));
  c.args[0] = fold_convert (ptr, l->yc_s);
  c.args[1] = fold_convert (cptr, l->xb);
  c.args[2] = fold_convert (size_type_node, l->nb);
  c.nargs = 3;
  c.ok = ok;
  /* The region: A's preheader edge (or A's guard) to C's exit (or the
     block where the guards' paths meet).  */
  struct nf_lregion g2;
  memset (&g2, 0, sizeof g2);
  g2.loops[0].loop = l->a;
  g2.n_loops = 1;
  g2.start_bb = l->start ? l->start_bb : l->a->header;
  g2.start_stmt = l->start;
  g2.exit_bb = l->exit_bb;
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
  if (l->guard_ok)
    ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, l->guard_ok, ok);
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
  nf_call_flags fl = { nf_fast_math_p (), flag_associative_math != 0,
			nf_wide_vector_math_p () };
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
