/* loop-pass.cc: nf-early-loop and nf-loop, the two instances of the pass
   that outlines RMSNorm, L2-norm and elementwise expm1/log1p loops into
   calls to libneuronfuse (loop.cc does one region).

   nf-early-loop runs on each function at the end of the early local
   optimizations, before IPA: the function as its source wrote it, after
   ccp, forwprop, FRE, early VRP and DCE, before inlining copies it into
   its callers and before loop header copying, jump threading, PRE,
   cdce and loop unswitching rewrite the code around its loops.  An
   inference engine's rmsnorm is so fused once, in its own body, and
   every copy inlined into the forward pass is a call: matched after
   those passes, the copies had become shapes that no longer looked like
   the idiom (guards merged with the neighbouring residual loop's by jump
   threading, PRE's PHI <(float) n, (float) n>, cdce's errno paths
   leaving the region).  nf-loop runs after "ldist", inside the loop
   pipeline (loops have preheaders and recorded exits, SSA is
   loop-closed, SCEV is initialised; also at -O1 and -Os: the insertion
   is positional, ldist's own gate does not apply), on what only
   inlining shows (an idiom split over an inline helper), and reports
   why the loops neither instance fused were not.

   1. Candidates: innermost loops summing products (a square: the loops
      worth a remark) or calling expm1/log1p and storing.
   2. nf-early-loop attempts each (loop.cc) and keeps its verdict per
      loop locus: fused, or the reason found on a region it could build.
      It reports no missed entry: what it cannot fuse is tried again.
   3. nf-loop finds the early verdict on each loop by its locus in the
      function its code was inlined from (or in its own): it leaves
      alone the loops the early instance fused (their regions'
      fallbacks; in mode=report, which changes nothing, the originals),
      and any loop on the other way of a test that calls a kernel
      (nf_loop_in_fallback); attempts the rest; and reports a loop it
      does not fuse either with the early reason where there is one
      (found on the code as written), else its own, and nothing for a
      loop that is no candidate (a loop that could not be built needs a
      sum of squares on its way to a root).
   4. nf-loop, in mode=rewrite: an elementwise candidate that no map
      region took is tried as Elementwise (nf_loop_ew_attempt: simd.cc
      prepares it, loop.cc makes it one nf_elementwise call), unless
      -ffast-math with AVX vectors makes GCC's own vectorization faster
      (nf_loop_ew_pays); its reason replaces the map's when its region
      was built.  The loops left are simd.cc's (nf_simd_prepare_loop).
   Functions always inlined (always_inline) are left to nf-loop, which
   sees each copy with its arguments.

   Limitations: a copy of an early region inlined with arguments that
   overlap for certain runs its fallback (GCC folds the test) and is
   not reported as such; an always_inline function's copies are.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "match.h"
#include "call.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"
#include "gcc-pass.h"

/* Whether T is the floating constant 2.  */
static bool
nf_real_two_p (tree t)
{
  return TREE_CODE (t) == REAL_CST && real_equal (TREE_REAL_CST_PTR (t),
						  &dconst2);
}

/* Whether T is a product x * y or pow (x, 2), through conversions and
   copies; *SQUARE says whether it is x * x (the same value twice).  */
static bool
nf_loop_product_p (tree t, bool *square)
{
  for (int i = 0; i < 4 && TREE_CODE (t) == SSA_NAME; i++)
    {
      gimple *d = SSA_NAME_DEF_STMT (t);
      if (is_gimple_assign (d) && gimple_assign_rhs_code (d) == MULT_EXPR)
	{
	  *square |= operand_equal_p (gimple_assign_rhs1 (d),
				      gimple_assign_rhs2 (d), 0);
	  return true;
	}
      if (gcall *c = nf_as_call (d))
	{
	  /* pow (x, 2); not a p-norm's pow (|x|, p).  */
	  int nargs;
	  bool pow = nf_lr_call_op (c, &nargs)
		       == NF_OP_POW
		     && gimple_call_num_args (c) == 2
		     && nf_real_two_p (gimple_call_arg (c, 1));
	  *square |= pow;
	  return pow;
	}
      if (!is_gimple_assign (d)
	  || !(CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))
	       || gimple_assign_ssa_name_copy_p (d)))
	return false;
      t = gimple_assign_rhs1 (d);
    }
  return false;
}

/* Whether LOOP has a floating-point sum of products: the loops worth a
   remark when they are not fused; *SQUARE whether it sums squares.  */
static bool
nf_loop_candidate (class loop *loop, bool *square)
{
  *square = false;
  edge latch = loop_latch_edge (loop);
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    {
      tree res = gimple_phi_result (pi.phi ());
      tree next = PHI_ARG_DEF_FROM_EDGE (pi.phi (), latch);
      if (!SCALAR_FLOAT_TYPE_P (TREE_TYPE (res))
	  || TREE_CODE (next) != SSA_NAME)
	continue;
      gimple *upd = SSA_NAME_DEF_STMT (next);
      /* A _Float16 accumulator: acc = (_Float16) ((float) acc + x * x).  */
      if (is_gimple_assign (upd)
	  && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (upd))
	  && TREE_CODE (gimple_assign_rhs1 (upd)) == SSA_NAME)
	upd = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (upd));
      if (is_gimple_assign (upd) && gimple_assign_rhs_code (upd) == PLUS_EXPR
	  && (nf_loop_product_p (gimple_assign_rhs1 (upd), square)
	      || nf_loop_product_p (gimple_assign_rhs2 (upd), square)))
	return true;
    }
  return false;
}

/* Whether LOOP calls expm1 or log1p (as the Expm1 and Log1p rewrites
   leave y[i] = exp (x[i]) - 1) and stores: an elementwise loop for the
   array kernels.  */
static bool
nf_loop_map_candidate (class loop *loop)
{
  bool call = false, store = false;
  basic_block *bbs = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *s = gsi_stmt (gsi);
	int nargs;
	enum nf_opcode op
	  = is_gimple_call (s)
	      ? nf_lr_call_op (s, &nargs)
	      : NF_OP_COUNT_;
	call |= (op == NF_OP_EXPM1 && (nf_opts.kinds & NF_KIND_EXPM1))
		|| (op == NF_OP_LOG1P && (nf_opts.kinds & NF_KIND_LOG1P));
	store |= gimple_store_p (s);
      }
  free (bbs);
  return call && store;
}

/* What nf-early-loop decided for each loop locus of this unit
   (LOCATION_LOCUS: an inlined copy's location has its block attached,
   its locus is the original's): fused, or missed with a reason.  nf-loop
   consults it: in mode=report, which changes nothing, it cannot tell an
   early region by a call and skips its loci; and where it fuses no more
   than the early instance did, the early reason is the one reported,
   found on the code as written rather than on what jump threading and
   PRE made of it.  */
struct nf_early_verdict
{
  location_t locus;
  int fn_uid; /* DECL_UID of the function the early instance saw it in.  */
  bool fused;
  enum nf_kind kind;
  const char *reason;
};
static struct nf_early_verdict *nf_early;
static unsigned nf_n_early, nf_cap_early;

/* The early verdict on the loop at LOCUS seen in the function of
   DECL_UID FN_UID, or NULL.  */
static struct nf_early_verdict *
nf_loop_early_entry (location_t locus, int fn_uid)
{
  for (unsigned i = 0; locus != UNKNOWN_LOCATION && i < nf_n_early; i++)
    if (nf_early[i].locus == locus && nf_early[i].fn_uid == fn_uid)
      return &nf_early[i];
  return NULL;
}

/* The early verdict on LOOP, a loop of the current function after
   inlining: the verdict on its locus in the function its code was
   inlined from (the innermost inlined scope of its location first), or
   in the current function.  A copy of an early region's fallback so
   finds its function's verdict however GCC reshaped the test that
   guards it (jump threading duplicates it).  */
static const struct nf_early_verdict *
nf_loop_early_verdict (class loop *loop)
{
  location_t loc = find_loop_location (loop).get_location_t ();
  location_t locus = LOCATION_LOCUS (loc);
  for (tree b = LOCATION_BLOCK (loc); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      {
	tree origin = block_ultimate_origin (b);
	const struct nf_early_verdict *v
	  = origin && TREE_CODE (origin) == FUNCTION_DECL
	      ? nf_loop_early_entry (locus, DECL_UID (origin))
	      : NULL;
	if (v)
	  return v;
      }
  return nf_loop_early_entry (locus, DECL_UID (current_function_decl));
}

/* Record the early verdict on the loop at LOCUS of the current
   function: FUSED, or missed as KIND for REASON.  */
static void
nf_loop_note_early (location_t locus, bool fused, enum nf_kind kind,
		    const char *reason)
{
  if (locus == UNKNOWN_LOCATION)
    return;
  int uid = DECL_UID (current_function_decl);
  struct nf_early_verdict *v = nf_loop_early_entry (locus, uid);
  if (!v)
    {
      if (nf_n_early == nf_cap_early)
	{
	  nf_cap_early = nf_cap_early ? 2 * nf_cap_early : 16;
	  nf_early = XRESIZEVEC (struct nf_early_verdict, nf_early,
				 nf_cap_early);
	}
      v = &nf_early[nf_n_early++];
      v->locus = locus;
      v->fn_uid = uid;
      v->fused = false;
      v->reason = NULL;
    }
  v->fused |= fused;
  v->kind = kind;
  v->reason = fused ? NULL : reason;
}

/* Whether a floating-point value computed in LOOP reaches, after it and
   through at most a few statements, a sqrt, rsqrt or pow: the norm
   without which a loop summing squares is no candidate (nf_match_sumsq
   asks the same of a region that could be built).  */
static bool
nf_loop_reaches_root (class loop *loop)
{
  auto_vec<tree, 16> work;
  for (gphi_iterator pi = gsi_start_phis (loop->header); !gsi_end_p (pi);
       gsi_next (&pi))
    if (SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_phi_result (pi.phi ()))))
      {
	work.safe_push (gimple_phi_result (pi.phi ()));
	tree next = PHI_ARG_DEF_FROM_EDGE (pi.phi (), loop_latch_edge (loop));
	if (TREE_CODE (next) == SSA_NAME)
	  work.safe_push (next);
      }
  for (unsigned i = 0; i < work.length () && i < 64; i++)
    {
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, work[i])
	{
	  gimple *u = USE_STMT (use);
	  if (is_gimple_debug (u) || flow_bb_inside_loop_p (loop, gimple_bb (u)))
	    continue;
	  int nargs;
	  enum nf_opcode op
	    = is_gimple_call (u)
		? nf_lr_call_op (u, &nargs)
		: NF_OP_COUNT_;
	  if ((op == NF_OP_SQRT || op == NF_OP_RSQRT || op == NF_OP_POW)
	      && gimple_bb (u)->loop_father == loop_outer (loop))
	    return true;
	  /* Scalars only (in the loop's outer code): not into another
	     loop's elements, as a quantizer's sqrtf (sigma2 + x[j]^2).  */
	  tree lhs = gimple_get_lhs (u);
	  if (lhs && TREE_CODE (lhs) == SSA_NAME && !virtual_operand_p (lhs)
	      && SCALAR_FLOAT_TYPE_P (TREE_TYPE (lhs)) && i < 48
	      && gimple_bb (u)->loop_father == loop_outer (loop))
	    work.safe_push (lhs);
	}
    }
  return false;
}

/* Whether BB calls a kernel of libneuronfuse (an external nf_*).  */
static bool
nf_loop_bb_calls_kernel (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      tree fn = is_gimple_call (gsi_stmt (gsi))
		  ? gimple_call_fndecl (gsi_stmt (gsi))
		  : NULL_TREE;
      if (fn && DECL_EXTERNAL (fn) && DECL_NAME (fn)
	  && strncmp (IDENTIFIER_POINTER (DECL_NAME (fn)), "nf_", 3) == 0)
	return true;
    }
  return false;
}

/* Whether LOOP is (a copy of) the fallback of a region fused before, by
   nf-early-loop in this function or in one inlined into it: a block
   dominating its header ends in a condition whose other way calls a
   kernel.  nf-loop leaves such loops alone; where GCC folded the
   overlap test to false (constant arguments that overlap), the call is
   gone and the loop is a candidate again, to be reported.  */
bool
nf_loop_bb_in_fallback (basic_block from, bool strict)
{
  for (basic_block bb = get_immediate_dominator (CDI_DOMINATORS, from);
       bb && bb != ENTRY_BLOCK_PTR_FOR_FN (cfun);
       bb = get_immediate_dominator (CDI_DOMINATORS, bb))
    {
      if (!safe_dyn_cast<gcond *> (last_stmt (bb)))
	continue;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (!dominated_by_p (CDI_DOMINATORS, from, e->dest)
	    && nf_loop_bb_calls_kernel (e->dest)
	    && (!strict
		|| dominated_by_p (CDI_DOMINATORS, from,
				   EDGE_SUCC (bb, EDGE_SUCC (bb, 0) == e)->dest)))
	  return true;
    }
  return false;
}

static bool
nf_loop_in_fallback (class loop *loop)
{
  return nf_loop_bb_in_fallback (loop->header, false);
}

/* Whether a program is faster than what GCC makes of an activation
   loop: always, except under -ffast-math with vectors wider than SSE's,
   where GCC vectorizes it through 8- or 16-lane clones (libmvec's and
   the runtime's) and a program measured 0.9x that loop (bench/kernels,
   ELU and softplus at -O3 -ffast-math -march=native): then the loop is
   left to the vectorizer (simd.cc).  */
static bool
nf_loop_ew_pays (void)
{
  return !nf_wide_vector_math_p ();
}

/* The Elementwise attempt on the map candidate LOOP that no map region
   took: its conditional calls hoisted and its empty-armed conditions
   flattened (simd.cc; the changes are the vectorizer's preparation
   anyway), then one program for its body.  On success true; else
   *KIND and *REASON become the program's reason when the region could
   be built and it has one (it says more of an activation than the map
   matcher's).  Sets *CHANGED when the function changed.  */
static bool
nf_loop_ew_attempt (class loop *loop, auto_vec<class loop *> &consumed,
		    enum nf_kind *kind, const char **reason, bool *changed)
{
  if (nf_simd_companions (loop) > 0)
    *changed = true;
  if (nf_simd_hoist_loop (loop) > 0)
    *changed = true;
  if (nf_simd_flatten_loop (loop))
    {
      *changed = true;
      scev_reset ();
    }
  unsigned n = consumed.length ();
  enum nf_kind k = NF_KIND_ELEMENTWISE;
  const char *why = NULL;
  bool built = false;
  if (!nf_loop_attempt (loop, true, NF_LOOP_ELEMENTWISE, consumed, &k, &why,
			changed, &built))
    {
      why = NULL;
      nf_loop_attempt (loop, false, NF_LOOP_ELEMENTWISE, consumed, &k, &why,
		       changed, &built);
    }
  if (consumed.length () > n)
    {
      /* The original loop is the call's fallback, for short runs and
	 overlaps: vectorized through the clones, as without a program.  */
      nf_simd_mark_fallback (loop);
      return true;
    }
  if (built && why && k == NF_KIND_ELEMENTWISE)
    *kind = k, *reason = why;
  return false;
}

/* The verdict on KIND's attempt at LOOP (FUSED, or REASON): early, kept
   for the late instance; late, a missed line with the early reason
   where the early instance built the region (it saw the loops as
   written), else REASON.  */
static void
nf_loop_report_kind (class loop *loop, location_t locus, bool early,
		     bool fused, enum nf_kind kind, const char *reason,
		     const struct nf_early_verdict *ev)
{
  if (early)
    {
      if (fused || reason)
	nf_loop_note_early (locus, fused, kind, reason);
      return;
    }
  if (!fused && ev && !ev->fused && ev->reason && ev->kind == kind)
    reason = ev->reason;
  if (reason)
    nf_record_missed (find_loop_location (loop), kind, reason);
}

/* The loop LOOP: attempt it from its guard, then from its header.  In
   the EARLY pass a loop that is not fused is left for nf-loop, which
   sees it again after inlining and reports why not.  Returns true if it
   rewrote the function.  */
static bool
nf_loop_try (class loop *loop, auto_vec<class loop *> &consumed, bool early)
{
  bool map = false, square = false;
  if ((nf_opts.kinds & (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT | NF_KIND_DOT))
      && nf_loop_candidate (loop, &square))
    map = false;
  else if (nf_loop_map_candidate (loop))
    map = true;
  else
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  location_t locus
    = LOCATION_LOCUS (find_loop_location (loop).get_location_t ());
  const struct nf_early_verdict *ev = early ? NULL
					     : nf_loop_early_verdict (loop);
  /* A loop the early instance fused, in this function or in one
     inlined here, is its region's fallback (in mode=report, its
     original): done with.  */
  if (!early && ((ev && ev->fused) || nf_loop_in_fallback (loop)))
    return false;
  unsigned n_consumed = consumed.length ();
  enum nf_kind kind = NF_KIND_MULREDSQRT;
  const char *reason = NULL;
  bool changed = false;
  bool built = false;
  /* A sum of products that is the row of a matrix-vector product: the
     whole nest (loop-dot.cc).  */
  if (!map && !square && nf_loop_dot_attempt (loop, consumed, &reason,
					      &changed))
    {
      nf_loop_report_kind (loop, locus, early,
			   consumed.length () > n_consumed, NF_KIND_DOT,
			   reason, ev);
      return changed;
    }
  enum nf_loop_mode mode = map ? NF_LOOP_MAP : NF_LOOP_NORM;
  if (!nf_loop_attempt (loop, true, mode, consumed, &kind, &reason, &changed,
			&built))
    {
      reason = NULL;
      nf_loop_attempt (loop, false, mode, consumed, &kind, &reason, &changed,
		       &built);
    }
  bool fused = consumed.length () > n_consumed;
  /* An elementwise loop whose body does more than the map: one program
     (nf-loop, after inlining; the body made one block first).  */
  if (!fused && map && !early && nf_opts.mode == NF_MODE_REWRITE
      && (nf_opts.kinds & NF_KIND_ELEMENTWISE) && nf_loop_ew_pays ())
    {
      if (nf_loop_ew_attempt (loop, consumed, &kind, &reason, &changed))
	{
	  fused = true;
	  reason = NULL;
	}
    }
  /* A loop that could not even be built is no candidate worth a remark
     unless it sums squares on their way to a root (not a loop that also
     calls log1p, a sum of products among other work); one that was
     built has the matcher's reason, or none.  */
  if (reason && !built && (map || !square || !nf_loop_reaches_root (loop)))
    reason = NULL;
  if (early)
    {
      /* A reason found on a region that could be built (a matcher's or
	 the check's) is kept for nf-loop; a builder's is not: the late
	 instance may know more of that loop (a bound reloaded each
	 iteration before LIM: "the trip count is not computable").  */
      if (fused || (reason && built))
	nf_loop_note_early (locus, fused, kind, reason);
      if (reason && dump_file && (dump_flags & TDF_DETAILS))
	fprintf (dump_file, "neuronfuse: left for nf-loop: %s: %s\n",
		 nf_kind_name (kind), reason);
      return changed;
    }
  /* Not fused here either: the early instance's reason on its region,
     where it had one, is the reason.  */
  if (!fused && ev && !ev->fused && ev->reason
      && kind != NF_KIND_ELEMENTWISE)
    kind = ev->kind, reason = ev->reason;
  if (reason)
    {
      nf_record_missed (find_loop_location (loop), kind, reason);
      if (dump_file && (dump_flags & TDF_DETAILS))
	fprintf (dump_file, "neuronfuse: missed %s: %s\n", nf_kind_name (kind),
		 reason);
    }
  return changed;
}

/* LOOP as the max loop of a softmax (loop-softmax.cc), with the early
   verdict kept and reported as nf_loop_try does.  Returns true if it
   rewrote the function.  */
static bool
nf_loop_softmax_try (class loop *loop, auto_vec<class loop *> &consumed,
		     bool early)
{
  if (!(nf_opts.kinds & NF_KIND_SOFTMAX))
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  location_t locus
    = LOCATION_LOCUS (find_loop_location (loop).get_location_t ());
  const struct nf_early_verdict *ev = early ? NULL
					     : nf_loop_early_verdict (loop);
  if (!early && ((ev && ev->fused) || nf_loop_in_fallback (loop)))
    return false;
  unsigned n_consumed = consumed.length ();
  const char *reason = NULL;
  bool changed = false;
  bool found = nf_loop_softmax_attempt (loop, consumed, &reason, &changed);
  bool fused = consumed.length () > n_consumed;
  /* The early reason, found on the loops as written, stands also where
     loop header copying has made them a shape the late pass does not
     take.  */
  if (!early && !found && ev && !ev->fused && ev->reason
      && ev->kind == NF_KIND_SOFTMAX)
    found = true;
  if (found)
    nf_loop_report_kind (loop, locus, early, fused, NF_KIND_SOFTMAX, reason,
			 ev);
  return changed;
}

/* The per-row RMSNorm calls of FUN in row loops that no kernel call
   already stands for (nf_loop_in_fallback), each tried as one call of
   the rows kernel; near misses reported.  Returns true if it rewrote
   FUN.  */
static bool
nf_loop_rows_run (function *fun)
{
  auto_vec<gcall *> calls;
  basic_block bb;
  bool changed = false;
  FOR_EACH_BB_FN (bb, fun)
    if (loop_outer (bb->loop_father))
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	if (nf_loop_rows_callee_p (gsi_stmt (gsi)))
	  calls.safe_push (as_a<gcall *> (gsi_stmt (gsi)));
  for (gcall *call : calls)
    {
      free_dominance_info (CDI_DOMINATORS);
      calculate_dominance_info (CDI_DOMINATORS);
      if (nf_loop_in_fallback (gimple_bb (call)->loop_father))
	continue;
      const char *why = NULL;
      if (nf_loop_rows_attempt (call, &why, &changed) && why)
	nf_loop_rows_missed (call, why);
    }
  return changed;
}

/* The RMSNorm calls of FUN that no kernel call already stands for, each
   tried with the residual add loop before it as one call of
   nf_add_rmsnorm_* (loop-residual.cc).  Returns true if it rewrote
   FUN.  */
static bool
nf_loop_residual_run (function *fun)
{
  auto_vec<gcall *> calls;
  basic_block bb;
  bool changed = false;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (nf_loop_residual_call_p (gsi_stmt (gsi)))
	calls.safe_push (as_a<gcall *> (gsi_stmt (gsi)));
  for (gcall *call : calls)
    {
      free_dominance_info (CDI_DOMINATORS);
      calculate_dominance_info (CDI_DOMINATORS);
      if (!nf_loop_bb_in_fallback (gimple_bb (call), true))
	changed |= nf_loop_residual_attempt (call, &changed);
    }
  return changed;
}

/* Try every innermost loop of FUN once; EARLY for nf-early-loop.
   Returns the pass's TODO flags.  */
static unsigned int
nf_loop_run (function *fun, bool early)
{
  auto_vec<class loop *> consumed;
  auto_vec<class loop *> todo;
  bool changed = false;

  for (auto loop : loops_list (fun, LI_ONLY_INNERMOST))
    todo.safe_push (loop);
  for (class loop *loop : todo)
    if (!consumed.contains (loop))
      changed |= nf_loop_softmax_try (loop, consumed, early);
  for (class loop *loop : todo)
    if (!consumed.contains (loop))
      changed |= nf_loop_try (loop, consumed, early);
  /* A per-row RMSNorm call the early instance made in a function
     inlined into a row loop here: the row loop as one call
     (loop-rows.cc); those this pass or the early one made in a nest of
     their own were tried when made.  */
  if (!early && nf_opts.mode == NF_MODE_REWRITE)
    changed |= nf_loop_rows_run (fun);
  /* The residual add before an RMSNorm call either instance made (in
     this function, or in one inlined into it).  */
  if (nf_opts.mode == NF_MODE_REWRITE)
    changed |= nf_loop_residual_run (fun);
  /* The loops left calling the scalar functions, for the vectorizer
     (simd.cc); after the outlining, which may have changed the CFG.  */
  if (!early && nf_opts.mode == NF_MODE_REWRITE)
    {
      free_dominance_info (CDI_DOMINATORS);
      calculate_dominance_info (CDI_DOMINATORS);
      for (class loop *loop : todo)
	{
	  const struct nf_early_verdict *ev = nf_loop_early_verdict (loop);
	  if (!consumed.contains (loop) && !(ev && ev->fused)
	      && !nf_loop_in_fallback (loop))
	    changed |= nf_simd_prepare_loop (loop);
	}
    }
  return changed ? TODO_cleanup_cfg | TODO_rebuild_cgraph_edges : 0;
}

static bool
nf_loop_gate (function *)
{
  return optimize && !optimize_debug && nf_opts.kinds != 0;
}

static unsigned int
nf_loop_execute (function *fun)
{
  return nf_loop_run (fun, false);
}

/* Not in a function that is always inlined: its copies get constant
   arguments, and after inlining an overlap proven at compile time is a
   missed entry at the copy (a partial overlap) rather than a region
   whose call never runs.  */
static bool
nf_loop_early_gate (function *fun)
{
  return nf_loop_gate (fun) && number_of_loops (fun) > 1
	 && !lookup_attribute ("always_inline", DECL_ATTRIBUTES (fun->decl));
}

/* nf-early-loop: the same on each function before IPA, as its source
   wrote it.  See the file's header for why.  The early pipeline keeps
   loops but not their normal form: set it up (preheaders, simple
   latches, recorded exits, SCEV) as GCC's loop passes there do, and
   take it down again.  Not loop-closed SSA: rewriting into it and back
   renumbers SSA names, which changes GCC's canonical operand order and
   so the code of a function mode=report must leave alone (loop-ir.cc's
   nf_lr_leaving finds the values leaving a loop without it).  */
static unsigned int
nf_loop_early_execute (function *fun)
{
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  scev_initialize ();
  unsigned int todo = nf_loop_run (fun, true);
  scev_finalize ();
  loop_optimizer_finalize ();
  return todo;
}

NF_GIMPLE_PASS (nf_loop, "nf-loop", 0)
NF_GIMPLE_PASS (nf_loop_early, "nf-early-loop", 0)
