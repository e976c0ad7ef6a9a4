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
   trip count from number_of_latch_executions, its guard: loop-shape.cc);
   2. build its reductions as REDUCE ops (loop-value.cc); 3. build every
   use of them after the loop (a worklist over immediate uses, here),
   each statement's operands built on demand (loop-value.cc): loads
   through dr_analyze_innermost (base, offset, init, step = element
   size: loop-shape.cc), arithmetic, math calls, PHIs; a use inside
   another innermost loop of the same nest adds it as the second loop;
   4. mark the values used by anything not built as escaping (here),
   which the matchers' single-use guards see.  nf_lr_set_exit
   (loop-extent.cc) then cuts the region after the matched ops and
   checks it is single-entry single-exit.  A loop that stores one array
   (nf_lr_build_map) starts from its store instead: steps 1, 3 for the
   stored value, and 4.

   This file holds the driver, the map from region values back to
   GIMPLE (G->trees, G->stmts) and step 4; loop-shape.cc the loops and
   the arrays, with what the guard assumes of them; loop-value.cc the
   reductions and the values of statements, with the rules for PHIs.

   Both instances of the pass use it: nf-loop in loop-closed SSA, where
   a reduction leaves its loop through an exit PHI; nf-early-loop without
   (nf_lr_leaving), where the final value's name is also the running
   value inside the loop (G->finals: a use after the loop reads the
   REDUCE, a use inside is the loop's own).

   Limitations: loops of exactly two blocks (the work and an empty latch,
   or a header that only tests the exit and the work in the latch); at
   most two loops; no outer loop in the region (rows are one call per
   row); loads in the scalar code only where no loop of the region that
   stores precedes them (they read their values at the entry).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "reasons.h"
#include "nf-plugin.h"
#include "loop-ir.h"

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
nf_value
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
		nf_lr_fail (g, NF_WHY_STORED_OUTSIDE);
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

