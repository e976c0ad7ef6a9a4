/* nf-loop's last step: loops around libneuronfuse's scalar functions
   made vectorizable (the Neuron compiler's Elementwise fusion kind).

   Purpose.  The scalar rewrite calls nf_expm1f and nf_log1pf (mathfn.cc)
   for float exp (x) - 1 and log (1 + x), declared with vector-ABI clones
   that process a whole vector per call.  GCC's vectorizer calls them for
   any loop body, ELU, SELU, softplus and their mixes, with two
   exceptions this step removes (gcc-internals.md section 9):
   - a call under a condition (ELU's x > 0 ? x : alpha * expm1 (x)) is
     not vectorized: GCC 12 has no masked clone calls, and its sink pass
     has moved the call into the arm that uses it;
   - at -O2 (the very cheap cost model) no loop that needs an alias
     check or an epilogue is vectorized.

   Before and after, GIMPLE of ELU:

     <bb 3>: _4 = *_3;                   <bb 3>: _4 = *_3;
	     if (_4 > 0.0) goto 5;               _5 = nf_expm1f (_4);
	     else goto 4;                        _6 = _5 * alpha_9;
     <bb 4>: _5 = nf_expm1f (_4);  ==>           if (_4 > 0.0) goto 5;
	     _6 = _5 * alpha_9;                  else goto 4;
     <bb 5>: # _7 = PHI <_4, _6>         <bb 4>:
	     *_8 = _7;                   <bb 5>: # _7 = PHI <_4, _6> ...

   and the loop is marked force_vectorize (as #pragma omp simd marks it),
   so that if-conversion turns the PHI into a select and the vectorizer
   calls _ZGVbN4v_nf_expm1f (or the AVX2, AVX-512 clone) at every -O
   level that vectorizes at all.

   Steps, for each innermost loop of the function that no region took:
   1. Find the calls of the loop to a const function with simd clones
      (made by IPA's simdclone pass: the declaration existed before IPA).
      No call to one of libneuronfuse's (a loop of libmvec calls under
      -ffast-math is GCC's business): nothing to do.
   2. Each such call in a block that does not run on every iteration
      moves up to the nearest dominator that does (the block of the
      condition), if its argument is computed there already; then the
      float arithmetic of the same block that uses only values available
      there follows it (alpha * e: predicated arithmetic is no more
      vectorizable than the call under -ftrapping-math without AVX-512
      masks).  Only float operations without memory access move.
   3. The loop is marked for the vectorizer.  A remark says what was
      done.

   For the Elementwise attempt (loop-pass.cc's nf_loop_ew_attempt, before
   step 3), three more entry points: nf_simd_companions retargets a libm
   expf the inliner brought into such a loop to nf_expf (nf-scalar-early
   did not see it there); nf_simd_hoist_loop is steps 1-2 alone, the
   scalar rewrite's x + 0.0 going with its call; nf_simd_flatten_loop
   if-converts each condition whose ways meet after at most one block of
   movable statements (float arithmetic, const calls) each: those move
   up, the join's PHIs become COND_EXPRs on the condition as a value, and
   the blocks merge (into the latch where the work sits there, -Os), so
   that the loop is the two blocks loop-ir.cc models.  A loop that then
   becomes an nf_elementwise call keeps the original as its fallback,
   marked for the vectorizer without a remark (nf_simd_mark_fallback).
   Moving an arm's arithmetic to every iteration is under the contract
   below: a division on a discarded element may raise a flag.

   The floating-point contract: a call made unconditional computes an
   element the original did not; its value is discarded, but it may set
   the overflow, invalid or inexact flag (and errno, ERANGE on overflow)
   that the original did not set for that element.  Traps are not
   enabled by default; README.md says so.

   Limitations:
   - Only innermost loops with one exit, calls of one argument.
   - A call whose argument is computed in its own arm (expm1 (2 * x) in
     the arm) moves only if that argument's float arithmetic moves too
     (step 2 moves the block's arithmetic in order, so it does).
   - The vectorizer may still refuse the loop (another call in it, a
     non-affine access); the calls are then scalar, as fast as expf.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "match.h"
#include "call.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"

/* Whether STMT calls a const function whose vector clones exist.  */
static bool
nf_simd_call_p (gimple *stmt)
{
  gcall *call = nf_as_call (stmt);
  if (!call || !gimple_call_lhs (call) || gimple_call_num_args (call) != 1)
    return false;
  tree decl = gimple_call_fndecl (call);
  if (!decl || !TREE_READONLY (decl) || gimple_vdef (call))
    return false;
  cgraph_node *node = cgraph_node::get (decl);
  return node && node->simd_clones;
}

/* Whether every SSA operand of STMT is defined in a block dominating
   (or equal to) TO, or outside LOOP.  */
static bool
nf_simd_operands_available (class loop *loop, gimple *stmt, basic_block to)
{
  ssa_op_iter it;
  tree op;
  FOR_EACH_SSA_TREE_OPERAND (op, stmt, it, SSA_OP_USE)
  {
    if (SSA_NAME_IS_DEFAULT_DEF (op))
      continue;
    basic_block d = gimple_bb (SSA_NAME_DEF_STMT (op));
    if (!d || !flow_bb_inside_loop_p (loop, d))
      continue;
    if (!dominated_by_p (CDI_DOMINATORS, to, d))
      return false;
  }
  return true;
}

/* Whether STMT is float arithmetic that touches no memory and cannot
   trap other than by raising a flag: a candidate to follow the call.  */
static bool
nf_simd_float_arith_p (gimple *stmt)
{
  if (!is_gimple_assign (stmt) || gimple_vuse (stmt)
      || TREE_CODE (gimple_assign_lhs (stmt)) != SSA_NAME
      || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_assign_lhs (stmt))))
    return false;
  switch (gimple_assign_rhs_code (stmt))
    {
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case RDIV_EXPR:
    case NEGATE_EXPR:
    case ABS_EXPR:
    case SSA_NAME:
    case REAL_CST:
    case FLOAT_EXPR:
    case NOP_EXPR:
    case CONVERT_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      break;
    default:
      return false;
    }
  /* Float operands only (a FLOAT_EXPR's integer operand is exact).  */
  for (unsigned i = 1; i < gimple_num_ops (stmt); i++)
    {
      tree o = gimple_op (stmt, i);
      if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (o))
	  && gimple_assign_rhs_code (stmt) != FLOAT_EXPR)
	return false;
    }
  return true;
}

/* The nearest dominator of BB in LOOP that runs on every iteration (one
   that dominates the latch), or NULL.  */
static basic_block
nf_simd_every_iteration (class loop *loop, basic_block bb)
{
  for (basic_block d = bb; d && flow_bb_inside_loop_p (loop, d);
       d = get_immediate_dominator (CDI_DOMINATORS, d))
    if (dominated_by_p (CDI_DOMINATORS, loop->latch, d))
      return d;
  return NULL;
}

/* Step 2 for the block BB of LOOP: move its simd calls, and the float
   arithmetic that can follow them, to the end of TO (before its
   condition).  Returns the number of calls moved.  */
static int
nf_simd_hoist_block (class loop *loop, basic_block bb, basic_block to)
{
  int calls = 0;
  bool any_call = false;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);)
    {
      gimple *stmt = gsi_stmt (gsi);
      bool call = nf_simd_call_p (stmt);
      any_call |= call;
      /* The scalar rewrite's x + 0.0 before the call (scalar.cc) goes
	 with it.  */
      tree arg = call ? gimple_call_arg (stmt, 0) : NULL_TREE;
      gimple *add = arg && TREE_CODE (arg) == SSA_NAME
		      ? SSA_NAME_DEF_STMT (arg)
		      : NULL;
      if (add && gimple_bb (add) == bb && nf_simd_float_arith_p (add)
	  && has_single_use (arg) && nf_simd_operands_available (loop, add, to))
	{
	  gimple_stmt_iterator from = gsi_for_stmt (add);
	  gimple_stmt_iterator dest = gsi_last_bb (to);
	  if (!gsi_end_p (dest) && is_ctrl_stmt (gsi_stmt (dest)))
	    gsi_move_before (&from, &dest);
	  else
	    gsi_move_to_bb_end (&from, to);
	}
      /* Arithmetic moves only along with a call, after it.  */
      if ((call || (any_call && nf_simd_float_arith_p (stmt)))
	  && nf_simd_operands_available (loop, stmt, to))
	{
	  gimple_stmt_iterator dest = gsi_last_bb (to);
	  if (!gsi_end_p (dest) && is_ctrl_stmt (gsi_stmt (dest)))
	    gsi_move_before (&gsi, &dest);
	  else
	    gsi_move_to_bb_end (&gsi, to);
	  calls += call;
	  continue;
	}
      gsi_next (&gsi);
    }
  return calls;
}

/* Steps 1 and 2 for LOOP: the name of the runtime function it calls
   (NULL: no loop of ours, nothing done) and in *MOVED the number of calls
   made unconditional.  */
static const char *
nf_simd_hoist_1 (class loop *loop, int *n_calls, int *moved)
{
  *n_calls = *moved = 0;
  if (loop->inner || !loop->latch || !single_exit (loop)
      || loop->dont_vectorize)
    return NULL;
  basic_block *bbs = get_loop_body (loop);
  const char *callee = NULL;
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (nf_simd_call_p (gsi_stmt (gsi)))
	{
	  tree decl = gimple_call_fndecl (as_a<gcall *> (gsi_stmt (gsi)));
	  (*n_calls)++;
	  if (nf_runtime_fn_p (decl))
	    callee = IDENTIFIER_POINTER (DECL_NAME (decl));
	}
  /* Only loops around the rewrite's calls: others are GCC's own.  */
  if (callee)
    for (unsigned i = 0; i < loop->num_nodes; i++)
      {
	basic_block to = nf_simd_every_iteration (loop, bbs[i]);
	if (to && to != bbs[i])
	  *moved += nf_simd_hoist_block (loop, bbs[i], to);
      }
  free (bbs);
  return callee;
}

int
nf_simd_hoist_loop (class loop *loop)
{
  int n_calls, moved;
  return nf_simd_hoist_1 (loop, &n_calls, &moved) ? moved : -1;
}

/* Whether the arm block B holds nothing but statements that may run on
   every iteration: float arithmetic without memory (an element the
   select then discards may raise a flag, as a call made unconditional
   may) and calls of const functions (fminf).  */
static bool
nf_simd_movable_bb (basic_block b)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (b);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (gimple_code (s) == GIMPLE_GOTO || nf_simd_float_arith_p (s))
	continue;
      gcall *call = nf_as_call (s);
      tree decl = call ? gimple_call_fndecl (call) : NULL_TREE;
      if (call && decl && TREE_READONLY (decl) && !gimple_vdef (call)
	  && gimple_call_lhs (call)
	  && TREE_CODE (gimple_call_lhs (call)) == SSA_NAME
	  && SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_call_lhs (call)))
	  && !stmt_can_throw_internal (cfun, call))
	continue;
      return false;
    }
  return true;
}

/* Move the statements of the arm block B to before the condition that
   ends CB (nf_simd_movable_bb holds).  */
static void
nf_simd_move_arm (basic_block b, basic_block cb)
{
  gimple_stmt_iterator dest = gsi_last_bb (cb);
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (b);
       !gsi_end_p (gsi);)
    {
      gimple *s = gsi_stmt (gsi);
      if (gimple_code (s) == GIMPLE_GOTO || is_gimple_debug (s))
	{
	  gsi_next (&gsi);
	  continue;
	}
      gsi_move_before (&gsi, &dest);
    }
}

/* The block after the way E of a condition in LOOP: E's destination, or
   past it when it is a block of LOOP entered only from E that holds
   only movable statements (*ARM: that block, else NULL).  *INTO is the
   edge entering the join.  */
static basic_block
nf_simd_arm (class loop *loop, edge e, basic_block *arm, edge *into)
{
  basic_block b = e->dest;
  *arm = NULL;
  *into = e;
  if (b != loop->latch && b != loop->header && single_pred_p (b)
      && single_succ_p (b) && gimple_seq_empty_p (phi_nodes (b))
      && nf_simd_movable_bb (b)
      && !(single_succ_edge (b)->flags & EDGE_COMPLEX))
    {
      *arm = b;
      *into = single_succ_edge (b);
      return (*into)->dest;
    }
  return b;
}

/* Flatten the condition ending CB of LOOP if its ways meet in a block of
   LOOP after at most one block each of statements that may run always:
   those move to CB, the join's PHIs become COND_EXPRs in CB and the
   blocks one.  Returns whether it did.  */
static bool
nf_simd_flatten_at (class loop *loop, basic_block cb)
{
  gimple *last = last_stmt (cb);
  gcond *cond = last ? dyn_cast<gcond *> (last) : NULL;
  if (!cond || EDGE_COUNT (cb->succs) != 2)
    return false;
  edge te, fe;
  extract_true_false_edges_from_block (cb, &te, &fe);
  if ((te->flags | fe->flags) & EDGE_COMPLEX)
    return false;
  basic_block tarm, farm;
  edge tin, fin;
  basic_block join = nf_simd_arm (loop, te, &tarm, &tin);
  if (nf_simd_arm (loop, fe, &farm, &fin) != join || join == cb
      || join == loop->header || !flow_bb_inside_loop_p (loop, join)
      || EDGE_COUNT (join->preds) != 2 || (!tarm && !farm)
      || !dominated_by_p (CDI_DOMINATORS, join, cb))
    return false;
  /* Every PHI of the join: a value of each way, a virtual one the same
     on both (the arms are empty).  */
  for (gphi_iterator pi = gsi_start_phis (join); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      gphi *phi = pi.phi ();
      if (virtual_operand_p (gimple_phi_result (phi))
	  && PHI_ARG_DEF_FROM_EDGE (phi, tin) != PHI_ARG_DEF_FROM_EDGE (phi, fin))
	return false;
    }

  /* The arms' statements, then the condition as a value, then a select
     per PHI, before the jump.  */
  if (tarm)
    nf_simd_move_arm (tarm, cb);
  if (farm)
    nf_simd_move_arm (farm, cb);
  gimple_stmt_iterator gsi = gsi_for_stmt (cond);
  tree c = make_ssa_name (boolean_type_node);
  gassign *ca = gimple_build_assign (c, gimple_cond_code (cond),
				     gimple_cond_lhs (cond),
				     gimple_cond_rhs (cond));
  gimple_set_location (ca, gimple_location (cond));
  gsi_insert_before (&gsi, ca, GSI_SAME_STMT);
  for (gphi_iterator pi = gsi_start_phis (join); !gsi_end_p (pi);)
    {
      gphi *phi = pi.phi ();
      tree res = gimple_phi_result (phi);
      tree tv = PHI_ARG_DEF_FROM_EDGE (phi, tin);
      tree fv = PHI_ARG_DEF_FROM_EDGE (phi, fin);
      remove_phi_node (&pi, false);
      if (virtual_operand_p (res))
	{
	  replace_uses_by (res, tv);
	  release_ssa_name (res);
	  continue;
	}
      gassign *sel = gimple_build_assign (res, COND_EXPR, c, tv, fv);
      gsi_insert_before (&gsi, sel, GSI_SAME_STMT);
    }
  gsi_remove (&gsi, true);

  /* One way from CB to the join, then one block.  */
  if (tarm)
    delete_basic_block (tarm);
  if (farm)
    delete_basic_block (farm);
  edge e = find_edge (cb, join);
  if (!e)
    e = make_edge (cb, join, EDGE_FALLTHRU);
  e->flags &= ~(EDGE_TRUE_VALUE | EDGE_FALSE_VALUE);
  e->flags |= EDGE_FALLTHRU;
  e->probability = profile_probability::always ();
  join->count = cb->count;
  if (can_merge_blocks_p (cb, join))
    merge_blocks (cb, join);
  return true;
}

bool
nf_simd_flatten_loop (class loop *loop)
{
  if (loop->inner || !loop->latch || !single_exit (loop))
    return false;
  bool changed = false;
  for (int round = 0; round < 4; round++)
    {
      calculate_dominance_info (CDI_DOMINATORS);
      basic_block *bbs = get_loop_body_in_dom_order (loop);
      bool any = false;
      for (unsigned i = 0; i < loop->num_nodes && !any; i++)
	any = nf_simd_flatten_at (loop, bbs[i]);
      free (bbs);
      if (!any)
	break;
      free_dominance_info (CDI_DOMINATORS);
      changed = true;
    }
  if (changed)
    calculate_dominance_info (CDI_DOMINATORS);
  return changed;
}

int
nf_simd_companions (class loop *loop)
{
  if (nf_fast_math_p ())
    return 0;
  int n = 0;
  basic_block *bbs = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (gcall *call = nf_as_call (gsi_stmt (gsi)))
	if (gimple_call_builtin_p (call, BUILT_IN_EXPF))
	{
	  /* After IPA the declaration may be new, without clones.  */
	  cgraph_node *node = cgraph_node::get (nf_runtime_fn_decl ("nf_expf"));
	  n += nf_expf_to_runtime (cfun, call, node && node->simd_clones);
	}
  free (bbs);
  return n;
}

void
nf_simd_mark_fallback (class loop *loop)
{
  if (flag_tree_loop_vectorize && !loop->force_vectorize
      && !loop->dont_vectorize)
    {
      loop->force_vectorize = true;
      cfun->has_force_vectorize_loops = true;
    }
}

bool
nf_simd_prepare_loop (class loop *loop)
{
  int n_calls, moved;
  const char *callee = nf_simd_hoist_1 (loop, &n_calls, &moved);
  if (!callee)
    return false;

  bool mark = flag_tree_loop_vectorize && !loop->force_vectorize;
  if (mark)
    {
      loop->force_vectorize = true;
      cfun->has_force_vectorize_loops = true;
    }
  dump_user_location_t loc = find_loop_location (loop);
  char msg[200];
  char made[64] = "";
  if (moved)
    snprintf (made, sizeof made, "; %d call%s made unconditional", moved,
	      moved == 1 ? "" : "s");
  snprintf (msg, sizeof msg,
	    "Elementwise: loop calling %s prepared for the vectorizer "
	    "(its vector clones)%s",
	    callee, made);
  nf_remark_optimized (loc, msg);
  if (dump_file && (dump_flags & TDF_DETAILS))
    fprintf (dump_file,
	     "neuronfuse: loop %d: %d simd call(s), %d made unconditional, "
	     "%s\n",
	     loop->num, n_calls, moved,
	     mark ? "marked force_vectorize" : "not marked");
  return moved > 0 || mark;
}
