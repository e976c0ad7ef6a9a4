/* loop-residual.cc: the residual add before an RMSNorm call, as one call
   of nf_add_rmsnorm_* (lower/residual.h).

   A transformer block adds its residual, then normalises (llama2.c's
   forward: `x[i] += xb2[i]`, then rmsnorm (xb, x, w, dim), inlined).
   Once loop.cc has made the RMSNorm one guarded call, the add loop right
   before it is one more pass over x that the kernel can do in the pass
   that sums the squares:

     for (i = 0; i < m; i++)             if (m == n && x1 == x
       x1[i] += r[i];                        && y the same as x or apart
     if (<y, x, w apart>)                    && y the same as w or apart
       nf_rmsnorm_f32 (y, x, w, n, eps); =>  && r apart from x)
     else                                  nf_add_rmsnorm_f32 (y, x, r, w,
       <the RMSNorm's loops>                                   n, eps);
					 else
					   <the original code>

   Steps (nf_loop_residual_attempt): 1. the call is one loop.cc made with
   the overlap test only (nf_loop_rows_plain_p), not in the fallback of
   another; 2. the innermost loop whose exit reaches the call's test
   through blocks that only compute (its zero-trip guard's way around it
   may join on the way); 3. that loop's region (loop-ir.cc's builder)
   is the add x[i] = x[i] + r[i] and nothing else
   (nf_match_residual_loop), no value of the whole stretch is used
   after it, and the call's arguments can be computed before the loop;
   4. lower/'s region of both (nf_add_rmsnorm_region), its plan, the
   report; 5. loop.cc's nf_loop_outline from the add loop's preheader to
   the block after the call, the test checking at run time that the two
   counts and the two x are the same, besides the ranges.

   The RMSNorm call may also be the call of a function of the unit whose
   body is nothing but one (nf_res_wrapper: llama2.c's rmsnorm, fused in
   its own body by nf-early-loop, which GCC keeps out of line as it is
   called three times): its kernel call's arguments, in terms of the
   function's parameters, become the call's arguments; the stretch ends
   at the call, which is the fallback.  A function GCC may replace
   (interposable) or marked noipa is not looked into.

   Both instances of the loop pass try it after their loops: nf-early-
   loop for the add and the RMSNorm written in one function, or an
   RMSNorm function called after it, nf-loop for an RMSNorm inlined
   after the add (its call made early, in its own function).

   Limitations: an add into another array (llm.c's residual_forward
   writes out = a + b) is no update of x in place and stays; a call
   whose arguments are loaded after the add (the loop may change them)
   stays; _Float16 and the rows kernel have no residual variant.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "call.h"
#include "rows.h"
#include "residual.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"

/* Return false, saying why in the details dump.  */
#define NF_RES_NOT(what)                                                      \
  do                                                                          \
    {                                                                         \
      if (dump_file && (dump_flags & TDF_DETAILS))                            \
	fprintf (dump_file, "neuronfuse: no residual add: %s\n", what);       \
      return false;                                                           \
    }                                                                         \
  while (0)

/* The adds fused, by function and location: a copy of one (jump
   threading, inlining after nf-early-loop fused it) is not fused
   again.  */
struct nf_res_done
{
  int fn_uid;
  location_t locus;
};
static vec<nf_res_done> nf_res_fused;

/* Whether the add LOOP of the current function was fused; with SET,
   note that it is.  */
static bool
nf_res_fused_p (class loop *loop, bool set)
{
  location_t locus
    = LOCATION_LOCUS (find_loop_location (loop).get_location_t ());
  int uid = DECL_UID (current_function_decl);
  if (locus == UNKNOWN_LOCATION)
    return false;
  for (unsigned i = 0; i < nf_res_fused.length (); i++)
    if (nf_res_fused[i].fn_uid == uid && nf_res_fused[i].locus == locus)
      return true;
  if (set)
    {
      struct nf_res_done d = { uid, locus };
      nf_res_fused.safe_push (d);
    }
  return false;
}

/* The stretch being matched.  */
struct nf_res
{
  gcall *call;		  /* The RMSNorm call, or the call of a function
			     that is one (WRAPPER).  */
  bool wrapper;
  basic_block test, join; /* The call's test, and the block after the
			     call, where the fallback rejoins; for a
			     WRAPPER both the call's block, which the
			     stretch ends in at the call.  */
  basic_block fallback;	  /* The test's other way (NULL: a WRAPPER).  */
  auto_vec<gimple *> stores; /* The add's stores.  */
  class loop *loop;	  /* The add.  */
  basic_block top;	  /* Where the chain's computations can go: the
			     add's zero-trip guard, or its preheader.  */
  basic_block chain[8];	  /* The blocks from the add's exit to TEST,
			     TEST first.  */
  int n_chain;
  bitmap blocks;	  /* From the loop's header to JOIN.  */
  auto_vec<gimple *> hoist; /* The chain's computations used after it.  */
};

/* Whether the statements of BB (before UNTIL, when given) only compute
   (its condition aside).  */
static bool
nf_res_pure_bb (basic_block bb, gimple *until = NULL)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (s == until)
	break;
      if (is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL
	  || gimple_code (s) == GIMPLE_COND)
	continue;
      if (!is_gimple_assign (s) || gimple_vdef (s)
	  || gimple_has_volatile_ops (s) || gimple_has_side_effects (s)
	  || stmt_could_throw_p (cfun, s))
	return false;
    }
  return true;
}

/* Whether BB has no statement but labels and debug binds.  */
static bool
nf_res_empty_bb (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi))
	&& gimple_code (gsi_stmt (gsi)) != GIMPLE_LABEL)
      return false;
  return gimple_seq_empty_p (phi_nodes (bb));
}

/* E, or the edge into the chain of empty forwarders E leaves.  */
static edge
nf_res_back (edge e)
{
  for (int i = 0; i < 4 && single_pred_p (e->src) && single_succ_p (e->src)
		  && nf_res_empty_bb (e->src);
       i++)
    e = single_pred_edge (e->src);
  return e;
}

/* Whether E leaves an innermost loop nested in OUTER by its single
   exit.  */
static bool
nf_res_exit_p (edge e, class loop *outer)
{
  class loop *l = e->src->loop_father;
  return l != outer && loop_outer (l) == outer && !l->inner
	 && single_exit (l) == e;
}

/* Step 2: the innermost loop whose single exit reaches TEST through
   blocks that only compute, one after the other (empty forwarders
   aside); the way around the loop of its zero-trip guard may join
   them.  */
static class loop *
nf_res_loop_before (struct nf_res *s, basic_block test)
{
  basic_block bb = test;
  for (int depth = 0; depth < 8; depth++)
    {
      if (!nf_res_pure_bb (bb, s->wrapper && bb == test ? s->call : NULL)
	  || EDGE_COUNT (bb->preds) > 2)
	return NULL;
      s->chain[s->n_chain++] = bb;
      edge e, exit = NULL, other = NULL;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
	{
	  edge b = nf_res_back (e);
	  if (!exit && nf_res_exit_p (b, bb->loop_father))
	    exit = b;
	  else
	    other = b;
	}
      if (exit)
	{
	  class loop *l = exit->src->loop_father;
	  if (other && !dominated_by_p (CDI_DOMINATORS, l->header, other->src))
	    return NULL;
	  s->top = other ? other->src : loop_preheader_edge (l)->src;
	  return l;
	}
      if (!single_pred_p (bb) || !single_succ_p (single_pred (bb)))
	return NULL;
      bb = single_pred (bb);
    }
  return NULL;
}

/* Whether STMT is in the stretch S: in its blocks, and in JOIN only as
   a PHI (nf_lr_contains for nf_loop_outline's region).  */
static bool
nf_res_contains (const struct nf_res *s, gimple *stmt)
{
  basic_block bb = gimple_bb (stmt);
  if (!bb || !bitmap_bit_p (s->blocks, bb->index))
    return false;
  if (bb != s->join || gimple_code (stmt) == GIMPLE_PHI)
    return true;
  /* A WRAPPER's block: up to the call.  */
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
       s->wrapper && !gsi_end_p (gsi); gsi_next (&gsi))
    {
      if (gsi_stmt (gsi) == stmt)
	return true;
      if (gsi_stmt (gsi) == s->call)
	break;
    }
  return false;
}

/* Whether the use USE of a value of the stretch S, outside it, is a
   PHI's argument on an edge leaving the fallback (jump threading may
   have sent the fallback's end past JOIN, to where JOIN goes).  */
static bool
nf_res_fallback_phi_use (const struct nf_res *s, use_operand_p use)
{
  gphi *phi = dyn_cast<gphi *> (USE_STMT (use));
  if (!phi)
    return false;
  edge e = gimple_phi_arg_edge (phi, PHI_ARG_INDEX_FROM_USE (use));
  return s->fallback && bitmap_bit_p (s->blocks, e->src->index)
	 && dominated_by_p (CDI_DOMINATORS, e->src, s->fallback);
}

/* Whether the statement D of the chain of S can go to S->top: it only
   computes, from values of before the stretch or of statements that go
   there too (S->hoist), and cannot trap.  */
static bool
nf_res_hoistable (const struct nf_res *s, gimple *d)
{
  if (!is_gimple_assign (d) || gimple_vuse (d) || gimple_has_side_effects (d)
      || gimple_could_trap_p (d) || !gimple_bb (d))
    return false;
  bool chain = false;
  for (int i = 0; i < s->n_chain; i++)
    chain |= gimple_bb (d) == s->chain[i];
  if (!chain || (gimple_bb (d) == s->join && !nf_res_contains (s, d)))
    return false;
  ssa_op_iter it;
  tree u;
  FOR_EACH_SSA_TREE_OPERAND (u, d, it, SSA_OP_USE)
    {
      gimple *ud = SSA_NAME_DEF_STMT (u);
      if (!SSA_NAME_IS_DEFAULT_DEF (u) && gimple_bb (ud)
	  && bitmap_bit_p (s->blocks, gimple_bb (ud)->index)
	  && !s->hoist.contains (ud))
	return false;
    }
  return true;
}

/* The chain's computations of S that can go to S->top, in order, into
   S->hoist (what is used after the stretch must: jump threading and
   FRE share an inlined copy's count and test with the next copy's).  */
static void
nf_res_hoist_list (struct nf_res *s)
{
  for (int i = s->n_chain - 1; i >= 0; i--)
    for (gimple_stmt_iterator gsi = gsi_start_bb (s->chain[i]);
	 !gsi_end_p (gsi); gsi_next (&gsi))
      if (nf_res_hoistable (s, gsi_stmt (gsi)))
	s->hoist.safe_push (gsi_stmt (gsi));
}

/* Move S->hoist to the end of S->top (before its condition).  */
static void
nf_res_hoist (struct nf_res *s)
{
  for (gimple *d : s->hoist)
    {
      gimple_stmt_iterator from = gsi_for_stmt (d);
      gimple_stmt_iterator to = gsi_last_bb (s->top);
      if (!gsi_end_p (to) && stmt_ends_bb_p (gsi_stmt (to)))
	gsi_move_before (&from, &to);
      else
	gsi_move_to_bb_end (&from, s->top);
    }
}

/* The blocks from S->loop's header to S->join (which may not be passed)
   into S->blocks, the fallback's blocks included, whose ways out may
   also go past JOIN (jump threading); false when another way leaves or
   a value computed there is used after it.  */
static bool
nf_res_blocks (struct nf_res *s)
{
  auto_vec<basic_block> work;
  work.safe_push (s->loop->header);
  bitmap_set_bit (s->blocks, s->loop->header->index);
  bitmap_set_bit (s->blocks, s->join->index);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	{
	  if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun)
	      || (e->flags & (EDGE_ABNORMAL | EDGE_EH)))
	    {
	      if (dump_file && (dump_flags & TDF_DETAILS))
		fprintf (dump_file, "neuronfuse: bb %d leaves the function\n",
			 bb->index);
	      return false;
	    }
	  if (bitmap_bit_p (s->blocks, e->dest->index))
	    continue;
	  if (s->fallback && dominated_by_p (CDI_DOMINATORS, bb, s->fallback)
	      && !dominated_by_p (CDI_DOMINATORS, e->dest, s->fallback))
	    continue; /* The fallback's end, threaded past JOIN.  */
	  bitmap_set_bit (s->blocks, e->dest->index);
	  work.safe_push (e->dest);
	}
      if (bitmap_count_bits (s->blocks) > 256)
	return false;
    }
  nf_res_hoist_list (s);
  bitmap_iterator bi;
  unsigned idx;
  EXECUTE_IF_SET_IN_BITMAP (s->blocks, 0, idx, bi)
  {
    basic_block bb = BASIC_BLOCK_FOR_FN (cfun, idx);
    auto_vec<tree> defs;
    for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi); gsi_next (&pi))
      defs.safe_push (gimple_phi_result (pi.phi ()));
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (nf_res_contains (s, gsi_stmt (gsi)))
	if (tree lhs = gimple_get_lhs (gsi_stmt (gsi)))
	  if (TREE_CODE (lhs) == SSA_NAME)
	    defs.safe_push (lhs);
    for (tree d : defs)
      {
	if (virtual_operand_p (d))
	  continue;
	imm_use_iterator it;
	use_operand_p use;
	FOR_EACH_IMM_USE_FAST (use, it, d)
	  {
	    gimple *u = USE_STMT (use);
	    if (!is_gimple_debug (u) && !nf_res_contains (s, u)
		&& !nf_res_fallback_phi_use (s, use)
		&& !s->hoist.contains (SSA_NAME_DEF_STMT (d)))
	      {
		if (dump_file && (dump_flags & TDF_DETAILS))
		  {
		    fprintf (dump_file, "neuronfuse: used after the stretch: ");
		    print_gimple_stmt (dump_file, u, 0);
		  }
		return false;
	      }
	  }
      }
  }
  return true;
}

/* A walk_tree callback: whether *TP is an SSA name defined in the stretch
   DATA.  */
static tree
nf_res_inside_ssa (tree *tp, int *walk_subtrees, void *data)
{
  const struct nf_res *s = (const struct nf_res *) data;
  (void) walk_subtrees;
  if (TREE_CODE (*tp) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (*tp))
    return NULL_TREE;
  gimple *d = SSA_NAME_DEF_STMT (*tp);
  return gimple_bb (d) && bitmap_bit_p (s->blocks, gimple_bb (d)->index)
	   ? *tp
	   : NULL_TREE;
}

/* The load D after the add, valid before it: its reference, when its
   address is known before the add and no store of the add may write it
   (the chain only computes).  */
static tree
nf_res_load_at_entry (const struct nf_res *s, gimple *d)
{
  if (!gimple_assign_load_p (d) || !gimple_assign_single_p (d))
    return NULL_TREE;
  tree ref = gimple_assign_rhs1 (d);
  if (walk_tree (&ref, nf_res_inside_ssa, (void *) s, NULL))
    return NULL_TREE;
  for (gimple *st : s->stores)
    if (stmt_may_clobber_ref_p (st, ref))
      return NULL_TREE;
  return unshare_expr (ref);
}

/* T, valid before S->loop: itself when defined outside the stretch,
   else rebuilt from its pure definitions in it (no loads, no PHIs).  */
static tree
nf_res_at_entry_1 (tree t, void *data, int depth)
{
  const struct nf_res *s = (const struct nf_res *) data;
  if (!t || CONSTANT_CLASS_P (t))
    return t;
  if (TREE_CODE (t) != SSA_NAME)
    return NULL_TREE;
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (SSA_NAME_IS_DEFAULT_DEF (t) || !gimple_bb (d)
      || !bitmap_bit_p (s->blocks, gimple_bb (d)->index))
    return t;
  if (is_gimple_assign (d) && gimple_vuse (d) && !gimple_has_side_effects (d)
      && !gimple_has_volatile_ops (d))
    return nf_res_load_at_entry (s, d);
  return nf_loop_rebuild (d, nf_res_at_entry_1, data, depth);
}

static tree
nf_res_at_entry (const struct nf_res *s, tree t, int depth)
{
  return nf_res_at_entry_1 (t, (void *) s, depth);
}

/* The address, valid before the loop, of the first element of the array
   PARAM of the add's region G.  */
static tree
nf_res_address (struct nf_lregion *g, nf_value param, tree elt)
{
  const struct nf_lr_array *a = nf_lr_array_of (g, param);
  if (!a)
    return NULL_TREE;
  tree base = nf_lr_at_entry (g, a->base);
  tree off = nf_lr_at_entry (g, a->offset);
  if (!base || !off)
    return NULL_TREE;
  tree p = fold_build_pointer_plus (base, fold_convert (sizetype, off));
  return fold_convert (build_pointer_type (TYPE_MAIN_VARIANT (elt)), p);
}

/* P and Q (COUNT elements of ESZ bytes each) apart.  */
static tree
nf_res_apart (tree p, tree q, tree count, HOST_WIDE_INT esz)
{
  tree bytes = size_binop (MULT_EXPR, count, size_int (esz));
  q = fold_convert (TREE_TYPE (p), q);
  return fold_build2 (
    TRUTH_OR_EXPR, boolean_type_node,
    fold_build2 (LE_EXPR, boolean_type_node, fold_build_pointer_plus (p, bytes),
		 q),
    fold_build2 (LE_EXPR, boolean_type_node, fold_build_pointer_plus (q, bytes),
		 p));
}

/* T, an expression of values of the caller (a WRAPPER's arguments
   substituted), valid before S->loop (nf_res_at_entry on its names).  */
static tree
nf_res_expr_at_entry (const struct nf_res *s, tree t, int depth)
{
  if (!t || CONSTANT_CLASS_P (t) || TREE_CODE (t) == SSA_NAME)
    return nf_res_at_entry (s, t, 0);
  if (depth > 8 || !EXPR_P (t) || TREE_CODE_LENGTH (TREE_CODE (t)) > 3
      || TREE_SIDE_EFFECTS (t))
    return NULL_TREE;
  tree c = copy_node (t);
  for (int i = 0; i < TREE_CODE_LENGTH (TREE_CODE (t)); i++)
    if (TREE_OPERAND (t, i)
	&& !(TREE_OPERAND (c, i)
	     = nf_res_expr_at_entry (s, TREE_OPERAND (t, i), depth + 1)))
      return NULL_TREE;
  return c;
}

/* Steps 3-5 for the stretch S of the call whose sum was of ACCUM; for a
   WRAPPER, KARGS are the arguments of the RMSNorm call it stands for.  */
static bool
nf_res_fuse (struct nf_res *s, enum nf_elem accum, tree kargs[5],
	     bool *changed)
{
  gcall *call = s->call;
  tree elt = TREE_TYPE (TREE_TYPE (kargs ? kargs[0] : gimple_call_arg (call, 0)));
  HOST_WIDE_INT esz = tree_to_shwi (TYPE_SIZE_UNIT (elt));
  struct nf_lregion g;
  nf_value store = nf_lr_build_map (&g, s->loop, false);
  nf_value xp, rp;
  bool ok = store != NF_NO_VALUE
	    && nf_match_residual_loop (g.r, store, &xp, &rp)
	    && nf_value_type (g.r, nf_op_operand (g.r, store, 0)).elem
		 == (TYPE_PRECISION (elt) == 32 ? NF_ELEM_F32 : NF_ELEM_F64);
  if (dump_file && (dump_flags & TDF_DETAILS) && g.r)
    {
      fprintf (dump_file, "neuronfuse: the loop %d before the call:%s%s\n",
	       s->loop->num, g.fail ? " " : "", g.fail ? g.fail : "");
      nf_region_print (g.r, dump_file);
    }
  basic_block *bbs = get_loop_body (s->loop);
  for (unsigned i = 0; ok && i < s->loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]);
	 ok && !gsi_end_p (gsi); gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi))
	  || gimple_has_volatile_ops (gsi_stmt (gsi)))
	ok = false;
      else if (gimple_vdef (gsi_stmt (gsi)))
	s->stores.safe_push (gsi_stmt (gsi));
  free (bbs);
  tree x1 = ok ? nf_res_address (&g, xp, elt) : NULL_TREE;
  tree r = ok ? nf_res_address (&g, rp, elt) : NULL_TREE;
  tree m = ok ? nf_lr_at_entry (&g, g.loops[0].count) : NULL_TREE;
  nf_lr_free (&g);
  if (!x1 || !r || !m)
    NF_RES_NOT ("the loop before the call is no residual add x[i] += r[i]");

  /* The call's arguments before the loop.  */
  tree a[5];
  for (int i = 0; i < 5; i++)
    if (!(a[i] = kargs ? nf_res_expr_at_entry (s, kargs[i], 0)
		       : nf_res_at_entry (s, gimple_call_arg (call, i), 0)))
      NF_RES_NOT ("an argument of the call is computed after the add");
  tree y = a[0], x = a[1], w = integer_zerop (a[2]) ? NULL_TREE : a[2];
  tree n = fold_convert (sizetype, a[3]), eps = a[4];
  /* The add's x is the RMSNorm's, as written (a run-time test would let
     an add into another array pass for one).  */
  tree xs = x;
  STRIP_NOPS (xs);
  tree x1s = x1;
  STRIP_NOPS (x1s);
  if (!operand_equal_p (x1s, xs, 0))
    NF_RES_NOT ("the add is into another array than the RMSNorm's x");

  /* Step 4: the region, the plan, the report.  */
  dump_user_location_t loc = find_loop_location (s->loop);
  if (LOCATION_LOCUS (loc.get_location_t ()) == UNKNOWN_LOCATION)
    loc = dump_user_location_t (call);
  expanded_location xl = expand_location (loc.get_location_t ());
  char xname[64], yname[64], wname[64], rname[64], ename[64];
  struct nf_rmsnorm_rows_facts f;
  memset (&f, 0, sizeof f);
  f.function = lang_hooks.decl_printable_name (current_function_decl, 2);
  f.loc.file = xl.file;
  f.loc.line = xl.line;
  f.loc.column = xl.column;
  f.x_label = nf_loop_label (x, xname, sizeof xname);
  f.y_label = nf_loop_label (y, yname, sizeof yname);
  f.w_label = w ? nf_loop_label (w, wname, sizeof wname) : NULL;
  f.elem = TYPE_PRECISION (elt) == 32 ? NF_ELEM_F32 : NF_ELEM_F64;
  f.accum = accum;
  f.eps_elem = f.elem;
  f.weight = w != NULL_TREE;
  f.eps_const = TREE_CODE (eps) == REAL_CST;
  if (f.eps_const)
    {
      /* Decimal with 30 digits round-trips a double (to-ir.cc).  */
      char buf[64];
      real_to_decimal (buf, TREE_REAL_CST_PTR (eps), sizeof buf, 30, 1);
      f.eps_value = strtod (buf, NULL);
    }
  else
    f.eps_name = nf_value_name (eps, ename, sizeof ename);
  nf_match mt;
  const char *why;
  nf_region *reg = nf_add_rmsnorm_region (&f, nf_loop_label (r, rname,
							    sizeof rname),
					  &mt, &why);
  if (!reg)
    NF_RES_NOT (why);
  nf_call plan;
  nf_call_flags fl = { nf_fast_math_p (), flag_associative_math != 0,
		       nf_wide_vector_math_p () };
  if ((why = nf_call_plan (reg, &mt, &fl, &plan)))
    {
      nf_match_release (&mt);
      nf_region_free (reg);
      NF_RES_NOT (why);
    }
  struct nf_loop_call c;
  nf_loop_call_void (&c, NF_KIND_RMSNORM, &plan, elt);
  tree ptr = build_pointer_type (TYPE_MAIN_VARIANT (elt));
  tree cptr = build_pointer_type (
    build_qualified_type (TYPE_MAIN_VARIANT (elt), TYPE_QUAL_CONST));
  c.args[0] = fold_convert (ptr, y);
  c.args[1] = fold_convert (ptr, x);
  c.args[2] = fold_convert (cptr, r);
  c.args[3] = w ? fold_convert (cptr, w) : build_int_cst (cptr, 0);
  c.args[4] = n;
  c.args[5] = eps;
  c.nargs = 6;
  /* The counts and the x of the add and of the call the same; y the same
     as x and w or apart from them; r apart from x (y may hold r: the
     kernel reads all of r before it writes y, as the loops did).  */
  tree ok2 = fold_build2 (
    TRUTH_AND_EXPR, boolean_type_node,
    fold_build2 (EQ_EXPR, boolean_type_node, fold_convert (sizetype, m), n),
    fold_build2 (EQ_EXPR, boolean_type_node, x1, fold_convert (TREE_TYPE (x1),
							       x)));
  ok2 = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok2,
		     nf_loop_disjoint (y, x, n, esz));
  ok2 = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok2,
		     nf_res_apart (r, x, n, esz));
  if (w)
    ok2 = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok2,
		       nf_loop_disjoint (y, w, n, esz));
  c.ok = ok2;

  char yn[64], xn[64], rn[64], wn[64];
  nf_source_array_name (y, yn, sizeof yn);
  nf_source_array_name (x, xn, sizeof xn);
  const char *ins[6] = { yn, xn, nf_source_array_name (r, rn, sizeof rn),
			 w ? nf_source_array_name (w, wn, sizeof wn) : "NULL",
			 "n", "eps" };
  const char *outs[2] = { yn, xn };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 0 };
  nf_region_desc d;
  nf_region_desc_init (&d, NF_KIND_RMSNORM, c.callee, nf_elem_name (f.elem),
		       nf_elem_name (f.accum), ins, 6, outs, 2);
  d.action = "outlined";
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, NF_KIND_RMSNORM, f.elem, f.accum, f.weight,
		      false, flag_errno_math);
  if (plan.flops >= 0)
    {
      d.flops = plan.flops;
      d.bytes = plan.bytes;
    }
  char msg[160];
  snprintf (msg, sizeof msg,
	    "RMSNorm: residual add and RMSNorm outlined into a call to %s",
	    c.callee);
  nf_record_region (loc, &d, msg, &mt);
  nf_match_release (&mt);
  nf_region_free (reg);

  /* Step 5: from the add's preheader to the block after the call, the
     chain's computations used after it moved before the add.  */
  nf_res_hoist (s);
  struct nf_lregion g2;
  memset (&g2, 0, sizeof g2);
  g2.loops[0].loop = s->loop;
  g2.n_loops = 1;
  g2.start_bb = s->loop->header;
  g2.exit_bb = s->join;
  g2.exit_after = s->wrapper ? s->call : NULL;
  g2.blocks = s->blocks;
  g2.n_ssa = num_ssa_names;
  nf_loop_outline (&g2, &c, loc.get_location_t ());
  *changed = true;
  return true;
}

/* A WRAPPER's callee, in its own function (pushed): the argument T of
   its RMSNorm call as an expression of CALL's arguments, or NULL_TREE
   (something else than its parameters, constants and pure operations on
   them).  */
static tree
nf_res_subst_1 (tree t, void *data, int depth)
{
  gcall *call = (gcall *) data;
  if (CONSTANT_CLASS_P (t))
    return t;
  if (TREE_CODE (t) != SSA_NAME)
    return NULL_TREE;
  if (SSA_NAME_IS_DEFAULT_DEF (t))
    {
      tree var = SSA_NAME_VAR (t);
      unsigned i = 0;
      tree p = DECL_ARGUMENTS (current_function_decl);
      for (; p && p != var; p = DECL_CHAIN (p))
	i++;
      if (!var || TREE_CODE (var) != PARM_DECL || !p
	  || i >= gimple_call_num_args (call))
	return NULL_TREE;
      return fold_convert (TREE_TYPE (t), gimple_call_arg (call, i));
    }
  return nf_loop_rebuild (SSA_NAME_DEF_STMT (t), nf_res_subst_1, data, depth);
}

static tree
nf_res_subst (gcall *call, tree t, int depth)
{
  return nf_res_subst_1 (t, call, depth);
}

/* Whether S is a call of nf_rmsnorm_f32 or _f64.  */
static bool
nf_res_kernel_p (gimple *s)
{
  tree fn = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
  return fn && DECL_NAME (fn) && gimple_call_num_args (s) == 5
	 && (strcmp (IDENTIFIER_POINTER (DECL_NAME (fn)), "nf_rmsnorm_f32") == 0
	     || strcmp (IDENTIFIER_POINTER (DECL_NAME (fn)), "nf_rmsnorm_f64")
		  == 0);
}

/* In a WRAPPER's callee (pushed): its RMSNorm call's arguments in terms
   of CALL's into KARGS, when its body does nothing but that call (one
   loop.cc made with the overlap test only) and its fallback.  */
static bool
nf_res_wrapper_body (gcall *call, tree kargs[5], enum nf_elem *accum)
{
  gimple *k = NULL;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (nf_loop_rows_callee_p (gsi_stmt (gsi)))
	{
	  if (k)
	    return false;
	  k = gsi_stmt (gsi);
	}
  if (!k || !nf_res_kernel_p (k) || !nf_loop_rows_plain_p (k, accum)
      || !single_pred_p (gimple_bb (k)))
    return false;
  basic_block test = single_pred (gimple_bb (k));
  if (!safe_dyn_cast<gcond *> (last_stmt (test))
      || EDGE_COUNT (test->succs) != 2)
    return false;
  basic_block fb = EDGE_SUCC (test, 0)->dest == gimple_bb (k)
		     ? EDGE_SUCC (test, 1)->dest
		     : EDGE_SUCC (test, 0)->dest;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, fb->preds)
    if (e->src != test && !dominated_by_p (CDI_DOMINATORS, e->src, fb))
      return false;
  /* Outside the fallback, nothing but computations and the call.  */
  FOR_EACH_BB_FN (bb, cfun)
    if (!dominated_by_p (CDI_DOMINATORS, bb, fb))
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  greturn *ret = dyn_cast<greturn *> (s);
	  if (s == k || is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL
	      || gimple_code (s) == GIMPLE_COND
	      || (ret && !gimple_return_retval (ret)))
	    continue;
	  if (!is_gimple_assign (s) || gimple_vdef (s) || gimple_vuse (s)
	      || gimple_has_side_effects (s) || gimple_has_volatile_ops (s))
	    return false;
	}
  for (int i = 0; i < 5; i++)
    if (!(kargs[i] = nf_res_subst (call, gimple_call_arg (k, i), 0)))
      return false;
  return true;
}

/* Whether CALL calls a function of this unit whose body is one RMSNorm
   call and its fallback (llama2.c's rmsnorm, fused in its own body by
   nf-early-loop, which GCC keeps out of line): that call's arguments in
   terms of CALL's in KARGS, its sum's type in *ACCUM.  */
static bool
nf_res_wrapper (gcall *call, tree kargs[5], enum nf_elem *accum)
{
  tree fndecl = gimple_call_fndecl (call);
  if (!fndecl || DECL_EXTERNAL (fndecl)
      || !VOID_TYPE_P (TREE_TYPE (TREE_TYPE (fndecl)))
      || fndecl == current_function_decl
      || lookup_attribute ("noipa", DECL_ATTRIBUTES (fndecl))
      || gimple_call_num_args (call)
	   != (unsigned) list_length (DECL_ARGUMENTS (fndecl)))
    return false;
  function *fn = DECL_STRUCT_FUNCTION (fndecl);
  cgraph_node *node = cgraph_node::get (fndecl);
  /* Not one another definition may replace (interposition).  */
  if (!fn || !fn->cfg || !gimple_in_ssa_p (fn) || !node
      || node->get_availability () < AVAIL_AVAILABLE)
    return false;
  push_cfun (fn);
  bool had_dom = dom_info_available_p (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  bool ok = nf_res_wrapper_body (call, kargs, accum);
  if (!had_dom)
    free_dominance_info (CDI_DOMINATORS);
  pop_cfun ();
  return ok;
}

bool
nf_loop_residual_call_p (gimple *s)
{
  tree fn = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
  return nf_res_kernel_p (s)
	 || (fn && !DECL_EXTERNAL (fn) && !fndecl_built_in_p (fn)
	     && VOID_TYPE_P (TREE_TYPE (TREE_TYPE (fn))));
}

/* Step 2 for a WRAPPER call: the stretch ends at it, in its block.  */
static bool
nf_res_wrapper_stretch (struct nf_res *s)
{
  s->test = s->join = gimple_bb (s->call);
  s->fallback = NULL;
  s->loop = nf_res_loop_before (s, s->test);
  if (!s->loop)
    NF_RES_NOT ("no loop right before the call");
  return true;
}

/* Step 2 for a kernel call: its test after the add, and its fallback.  */
static bool
nf_res_kernel_stretch (struct nf_res *s)
{
  basic_block cb = gimple_bb (s->call);
  if (!single_succ_p (cb) || EDGE_COUNT (cb->preds) > 2
      || gsi_stmt (gsi_start_nondebug_after_labels_bb (cb)) != s->call)
    NF_RES_NOT ("the call is not alone in its block");
  s->join = single_succ (cb);
  /* The call's test after the add (jump threading may have copied it
     onto the way around the add: that copy stays as it is).  */
  edge e;
  edge_iterator ei;
  s->loop = NULL;
  basic_block to_call = cb;
  FOR_EACH_EDGE (e, ei, cb->preds)
    {
      edge b = nf_res_back (e);
      s->test = b->src;
      to_call = b->dest;
      s->n_chain = 0;
      if (safe_dyn_cast<gcond *> (last_stmt (s->test))
	  && EDGE_COUNT (s->test->succs) == 2
	  && (s->loop = nf_res_loop_before (s, s->test)))
	break;
    }
  if (!s->loop)
    NF_RES_NOT ("no loop right before the call's test");
  s->fallback = EDGE_SUCC (s->test, 0)->dest == to_call
		  ? EDGE_SUCC (s->test, 1)->dest
		  : EDGE_SUCC (s->test, 0)->dest;
  /* The fallback: what the other way dominates (entered from the test
     only, or a loop's header entered from its own latch too).  */
  FOR_EACH_EDGE (e, ei, s->fallback->preds)
    if (e->src != s->test
	&& !dominated_by_p (CDI_DOMINATORS, e->src, s->fallback))
      NF_RES_NOT ("the call's test has no fallback of its own");
  if (s->fallback == s->join || s->fallback == to_call)
    NF_RES_NOT ("the call's test has no fallback of its own");
  return true;
}

bool
nf_loop_residual_attempt (gcall *call, bool *changed)
{
  enum nf_elem accum;
  tree kargs[5];
  if (!(nf_opts.kinds & NF_KIND_RMSNORM) || nf_opts.mode != NF_MODE_REWRITE)
    return false;
  struct nf_res s;
  s.call = call;
  s.n_chain = 0;
  s.top = NULL;
  s.wrapper = !nf_res_kernel_p (call);
  if (s.wrapper ? !nf_res_wrapper (call, kargs, &accum)
		: !nf_loop_rows_plain_p (call, &accum))
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  if (dump_file && (dump_flags & TDF_DETAILS))
    fprintf (dump_file, "neuronfuse: residual add before the call in bb %d?\n",
	     gimple_bb (call)->index);
  if (!(s.wrapper ? nf_res_wrapper_stretch (&s) : nf_res_kernel_stretch (&s)))
    return false;
  /* An add fused already (with another copy of the call that jump
     threading made) is in that call's fallback.  */
  if (nf_loop_bb_in_fallback (s.loop->header, true)
      || nf_res_fused_p (s.loop, false))
    NF_RES_NOT ("the add is in the fallback of a call");
  s.blocks = BITMAP_ALLOC (NULL);
  bool done = false;
  if (!nf_res_blocks (&s))
    {
      if (dump_file && (dump_flags & TDF_DETAILS))
	fprintf (dump_file, "neuronfuse: no residual add: the stretch from "
			    "the loop to the call is not closed\n");
    }
  else
    {
      class loop *add = s.loop;
      done = nf_res_fuse (&s, accum, s.wrapper ? kargs : NULL, changed);
      if (done)
	nf_res_fused_p (add, true);
    }
  BITMAP_FREE (s.blocks);
  return done;
}
