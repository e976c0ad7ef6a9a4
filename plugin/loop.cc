/* loop.cc: one loop region of the loop pass (loop-pass.cc drives its
   two instances, nf-early-loop and nf-loop): match it, check that one
   call to libneuronfuse can stand for it, rewrite it, record it.

   For the llama2.c rmsnorm (shown after "ldist"):

     if (size > 0)                            if (size > 0)   <- overlap test
       for (j ...) ss += x[j] * x[j];    =>     nf_rmsnorm_f32 (o, x, weight,
     ss = 1 / sqrtf (ss / size + 1e-5f);                        size, 1e-5f);
     if (size > 0)                            else
       for (j ...) o[j] = weight[j] * (ss * x[j]);  <the original code>

   Steps: 1. for each innermost loop with a floating-point sum of
   products, build the region IR (loop-ir.cc); 2. run the lower/ matchers
   on its REDUCE (MulRedSqrt first, then RMSNorm; each sum of the loop in
   turn); for a loop storing expm1 (x[i]) or log1p (x[i]) (what the
   scalar rewrites leave), build the loop and match its store
   (nf_match_map); 3. cut the region after the matched ops and check
   that the fused call can stand for all of it: every store and side
   effect of the region is the idiom's (a memcpy the builder looked
   through is written over by the call), every value used after it is
   the idiom's result; then lower/'s nf_call_plan (call.h) names the
   callee and its arguments' roles, which become trees at the region's
   entry here, with its overlap pairs as run-time tests (one known to
   fail is the plan's reason) and its shortest run; 4. rewrite: a test block
   on the region's entry edge computes the inputs and the run-time test
   (no overlap but y == x exactly, and what the builder assumed), its
   true edge goes to a block with the call and then to the region's
   exit, its false edge to the untouched original; live-out scalars meet
   in PHIs at the exit; 5. report: one `optimized:` remark at the first
   loop, the JSON report and the HLO dumps (the missed reasons are
   loop-pass.cc's).

   A region whose guard's path around the loops leaves elsewhere (jump
   threading sends it straight to the function's end) is tried again
   from the first loop's header, after the guard.

   A per-row RMSNorm call made in the body of a row loop is tried at
   once as one call for all rows (loop-rows.cc); the region then
   reported is the row loop's, else this one, with the rows' near miss.

   Limitations: see loop-ir.cc for the loop shapes; the kernels are
   lower/callees.def's (no long double norm: missed, with that reason).
   Elementwise loops: where signed zeros matter the scalar rewrite's
   + 0.0 (+0 for x = -0) is part of the region and the call is to the
   _pz kernel, which gives the same +0; under -ffast-math the f32 call
   is to the fast kernel (within 1 ulp).  A loop whose body does more
   than the map is tried as Elementwise (loop-pass.cc, after simd.cc has
   flattened it): one call of nf_elementwise running the program lower/
   wrote for the body, guarded by the overlap test of y against each
   input and by n >= NF_EW_MIN_N; else it is simd.cc's.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "call.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"




/* Step 2.  Match ANCHOR as MulRedSqrt, else RMSNorm, among the enabled
   kinds (nf_match_norm).  On failure, *KIND and *REASON say what to
   report (*REASON NULL: nothing).  */
static bool
nf_loop_match (struct nf_lregion *g, nf_value anchor, nf_match *m,
	       enum nf_kind *kind, const char **reason)
{
  bool matched = nf_match_norm (g->r, anchor, nf_opts.kinds, m);
  *kind = m->kind;
  *reason = m->reason;
  if (matched)
    return true;
  /* A part of the region that could not be built explains more.  */
  if (*reason && g->fail)
    *reason = g->fail;
  return false;
}

/* The array the LOAD or STORE V accesses.  The matchers hand over
   accesses only (nf_match_array_input), and every access the builder
   makes has its array.  */
static const struct nf_lr_array *
nf_loop_array (struct nf_lregion *g, nf_value v)
{
  NF_CHECK (nf_op (g->r, v) == NF_OP_LOAD || nf_op (g->r, v) == NF_OP_STORE,
	    "a kernel argument is not a load or a store");
  const struct nf_lr_array *a = nf_lr_array_of (g, nf_access_base (g->r, v));
  NF_CHECK (a, "an access of the region has no array");
  return a;
}

/* The address, valid at the region's entry, of the first element the
   LOAD or STORE V accesses; NULL_TREE if it cannot be computed there.  */
static tree
nf_loop_address (struct nf_lregion *g, nf_value v)
{
  const struct nf_lr_array *a = nf_loop_array (g, v);
  tree base = nf_lr_at_entry (g, a->base);
  tree off = nf_lr_at_entry (g, a->offset);
  if (!base || !off)
    return NULL_TREE;
  HOST_WIDE_INT esz = tree_to_shwi (TYPE_SIZE_UNIT (a->elt_type));
  tree p = fold_build_pointer_plus (base, fold_convert (sizetype, off));
  p = fold_build_pointer_plus_hwi (p, nf_access_offset (g->r, v) * esz);
  return fold_convert (build_pointer_type (TYPE_MAIN_VARIANT (a->elt_type)), p);
}

tree
nf_loop_disjoint (tree p, tree q, tree count, HOST_WIDE_INT esz)
{
  tree bytes = size_binop (MULT_EXPR, count, size_int (esz));
  tree same = fold_build2 (EQ_EXPR, boolean_type_node, p, q);
  tree before = fold_build2 (LE_EXPR, boolean_type_node,
			     fold_build_pointer_plus (p, bytes), q);
  tree after = fold_build2 (LE_EXPR, boolean_type_node,
			    fold_build_pointer_plus (q, bytes), p);
  return fold_build2 (
    TRUTH_OR_EXPR, boolean_type_node, same,
    fold_build2 (TRUTH_OR_EXPR, boolean_type_node, before, after));
}

/* The report's dtype of ELEM.  */
static const char *
nf_loop_dtype (enum nf_elem elem)
{
  return elem == NF_ELEM_F80 ? "f80" : nf_elem_name (elem);
}

/* Part of step 3: whether statement S of the region is covered by the
   fused call of M; appends S's result to C->outs when it is the idiom's
   result and used after the region.  Returns NULL or the reason not.  */
static const char *
nf_loop_check_stmt (struct nf_lregion *g, const nf_match *m,
		    struct nf_loop_call *c, gimple *s)
{
  if (!nf_lr_contains (g, s) || is_gimple_debug (s))
    return NULL;
  switch (gimple_code (s))
    {
    case GIMPLE_LABEL:
    case GIMPLE_COND:
    case GIMPLE_GOTO:
    case GIMPLE_NOP:
      return NULL;
    case GIMPLE_PHI:
    case GIMPLE_ASSIGN:
    case GIMPLE_CALL:
      break;
    default:
      return "the region has a statement the fused call would skip";
    }
  if (gimple_has_volatile_ops (s))
    return NF_WHY_VOLATILE;
  /* Only a throw caught in this function matters (it has an EH edge
     the call would lose); a math call under -fexceptions may throw to
     the caller but never does, and the kernel stands for it.  */
  if (stmt_can_throw_internal (cfun, s))
    return NF_WHY_MAY_THROW;
  tree lhs = gimple_get_lhs (s);
  nf_value v
    = lhs && TREE_CODE (lhs) == SSA_NAME && SSA_NAME_VERSION (lhs) < g->n_ssa
	? g->ssa[SSA_NAME_VERSION (lhs)]
	: NF_NO_VALUE;
  if (gimple_vdef (s) || gimple_has_side_effects (s))
    {
      /* A store or a call that writes memory (errno): allowed only when
	 it is a member of the idiom (the cdce sqrt libcall sets errno
	 only for negative arguments, which a sum of squares plus eps
	 never is).  */
      bool member = v >= 0 && nf_cluster_contains (m->cluster, v);
      if (gimple_store_p (s))
	{
	  member = false;
	  member = c->store != NF_NO_VALUE && nf_lr_stmt (g, c->store) == s;
	}
      /* A copy the builder looked through (memcpy (y, x, n) before y
	 is scaled in place): the call writes all of y again.  */
      if (nf_lr_copy_p (g, s) && c->store != NF_NO_VALUE)
	member = nf_lr_copy_covered (g, s, nf_access_base (g->r, c->store));
      /* A math call whose result is unused (cdce keeps one for errno on
	 the path that skips the loops): its only effect is errno.  */
      int nargs;
      if (is_gimple_call (s) && !gimple_call_lhs (s)
	  && nf_lr_call_op (s, &nargs)
	       != NF_OP_COUNT_)
	member = true;
      if (!member)
	return gimple_store_p (s)
		 ? NF_WHY_OTHER_STORE
		 : "the region calls a function with side effects";
    }
  /* Values used after the region are the idiom's result.  */
  if (!lhs || TREE_CODE (lhs) != SSA_NAME || virtual_operand_p (lhs))
    return NULL;
  imm_use_iterator it;
  use_operand_p use;
  bool out = false;
  FOR_EACH_IMM_USE_FAST (use, it, lhs)
    if (!is_gimple_debug (USE_STMT (use))
	&& !nf_lr_contains (g, USE_STMT (use)))
      out = true;
  if (!out)
    return NULL;
  if (v < 0 || v != m->result)
    return NF_WHY_USED_AFTER;
  c->outs.safe_push (lhs);
  return NULL;
}

/* The run-time test that COUNT elements stored from P (of PSZ bytes each)
   and loaded from Q (QSZ bytes) are the same elements or disjoint.  */
static tree
nf_loop_disjoint2 (tree p, HOST_WIDE_INT psz, tree q, HOST_WIDE_INT qsz,
		   tree count)
{
  if (psz == qsz)
    return nf_loop_disjoint (p, q, count, psz);
  tree pend = fold_build_pointer_plus (p, size_binop (MULT_EXPR, count,
						      size_int (psz)));
  tree qend = fold_build_pointer_plus (q, size_binop (MULT_EXPR, count,
						      size_int (qsz)));
  return fold_build2 (TRUTH_OR_EXPR, boolean_type_node,
		      fold_build2 (LE_EXPR, boolean_type_node, pend,
				   fold_convert (TREE_TYPE (pend), q)),
		      fold_build2 (LE_EXPR, boolean_type_node, qend,
				   fold_convert (TREE_TYPE (qend), p)));
}

/* The scalar type of ELEM (NF_ELEM_NONE: void).  */
static tree
nf_loop_elem_type (enum nf_elem elem)
{
  switch (elem)
    {
    case NF_ELEM_NONE:
      return void_type_node;
    case NF_ELEM_F16:
      return float16_type_node;
    case NF_ELEM_F32:
      return float_type_node;
    case NF_ELEM_F64:
      return double_type_node;
    case NF_ELEM_F80:
      return long_double_type_node;
    case NF_ELEM_I64:
      return size_type_node;
    default:
      NF_CHECK (false, "a kernel argument of an unknown type");
    }
}

/* The size in bytes of an element the LOAD or STORE V accesses.  */
static HOST_WIDE_INT
nf_loop_elem_size (struct nf_lregion *g, nf_value v)
{
  return tree_to_shwi (TYPE_SIZE_UNIT (nf_loop_array (g, v)->elt_type));
}

/* The argument A of the call P at the region's entry, with COUNT the
   trip count; NULL_TREE if it cannot be computed there.  Pointers to
   NF_ELEM_NONE are void pointers (nf_elementwise's).  */
static tree
nf_loop_arg (struct nf_lregion *g, const nf_call_arg *a, const nf_call *p,
	     tree count)
{
  bool ro = a->role != NF_ROLE_Y;
  tree vptr = ro ? const_ptr_type_node : ptr_type_node;
  switch (a->role)
    {
    case NF_ROLE_Y:
    case NF_ROLE_X:
    case NF_ROLE_W:
      if (a->value == NF_NO_VALUE)
	return build_int_cst (a->elem == NF_ELEM_NONE
				? vptr
				: build_pointer_type (nf_loop_elem_type (a->elem)),
			      0);
      else
	{
	  tree ptr = nf_loop_address (g, a->value);
	  if (ptr && a->elem == NF_ELEM_NONE)
	    ptr = fold_convert (vptr, ptr);
	  return ptr;
	}
    case NF_ROLE_N:
      return count;
    case NF_ROLE_ROWS:
      return NULL_TREE; /* A nest's (loop-dot.cc).  */
    case NF_ROLE_PROG:
      {
	tree uchar
	  = build_qualified_type (unsigned_char_type_node, TYPE_QUAL_CONST);
	return fold_convert (build_pointer_type (uchar),
			     build_string_literal (p->ew.len,
						   (const char *) p->ew.prog));
      }
    case NF_ROLE_EPS:
    case NF_ROLE_SCALAR:
      {
	tree type = nf_loop_elem_type (a->elem);
	if (a->value == NF_NO_VALUE)
	  return build_real (type, dconst0);
	tree t = nf_lr_tree (g, a->value);
	tree s = t ? nf_lr_at_entry (g, t) : NULL_TREE;
	if (!s || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (s)))
	  return NULL_TREE;
	return fold_convert (type, s);
      }
    }
  NF_CHECK (false, "a kernel argument of an unknown role");
}

/* Step 3 (nf_loop_check without the recursion test).  */
static const char *
nf_loop_check_1 (struct nf_lregion *g, const nf_match *m,
		 struct nf_loop_call *c)
{
  const nf_region *r = g->r;
  nf_value store = c->store = nf_call_store (r, m);
  if (!nf_lr_set_exit (g, store != NF_NO_VALUE ? store : m->result))
    return g->fail;

  /* One sum per call: a first loop that computes others too (the two
     norms and the dot product of a cosine similarity) is no one call.  */
  if (m->kind == NF_KIND_RMSNORM || m->kind == NF_KIND_MULREDSQRT)
    {
      class loop *l0 = g->loops[0].loop;
      tree acc = nf_lr_tree (g, m->anchor);
      for (gphi_iterator pi = gsi_start_phis (l0->header); !gsi_end_p (pi);
	   gsi_next (&pi))
	if (SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_phi_result (pi.phi ())))
	    && PHI_ARG_DEF_FROM_EDGE (pi.phi (), loop_latch_edge (l0)) != acc)
	  return NF_WHY_OTHER_SUM;
    }

  /* Everything the region does is the idiom's.  */
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (g->blocks, 0, i, bi)
  {
    basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
    for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
	 gsi_next (&pi))
      if (const char *why = nf_loop_check_stmt (g, m, c, pi.phi ()))
	return why;
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (const char *why = nf_loop_check_stmt (g, m, c, gsi_stmt (gsi)))
	return why;
  }

  /* The call lower/ plans, its arguments at the region's entry.  */
  nf_call_flags flags = { nf_fast_math_p (), flag_associative_math != 0,
			  nf_wide_vector_math_p () };
  nf_call *p = &c->plan;
  if (const char *why = nf_call_plan (r, m, &flags, p))
    return why;
  c->kind = m->kind;
  c->callee = p->callee;
  c->sumsq = p->value == NF_CALL_SUMSQ;
  c->elt = TYPE_MAIN_VARIANT (nf_loop_array (g, m->input)->elt_type);
  c->ret = nf_loop_elem_type (p->ret);
  tree count = nf_lr_at_entry (g, g->loops[0].count);
  /* What the builder assumed (two counts equal, a copy's bytes), then
     the overlap tests.  */
  c->ok = nf_lr_assumptions (g);
  if (!count || !c->ok)
    return NF_WHY_INPUT_INSIDE;
  count = fold_convert (size_type_node, count);
  c->nargs = p->nargs;
  for (int i = 0; i < p->nargs; i++)
    if (!(c->args[i] = nf_loop_arg (g, &p->args[i], p, count)))
      return NF_WHY_INPUT_INSIDE;
  for (int i = 0; i < p->n_overlaps; i++)
    {
      nf_value st = p->overlaps[i].store, ld = p->overlaps[i].load;
      tree yp = nf_loop_address (g, st), lp = nf_loop_address (g, ld);
      if (!yp || !lp)
	return NF_WHY_INPUT_INSIDE;
      c->ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, c->ok,
			   nf_loop_disjoint2 (yp, nf_loop_elem_size (g, st), lp,
					      nf_loop_elem_size (g, ld), count));
    }
  if (integer_zerop (c->ok))
    return p->overlap_reason;
  if (p->min_n)
    {
      /* Short runs are the original loop's.  */
      tree enough = fold_build2 (GE_EXPR, boolean_type_node, count,
				 size_int (p->min_n));
      if (integer_zerop (enough))
	return NF_WHY_TOO_SHORT;
      c->ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, c->ok, enough);
    }
  return nf_call_result_live (p, !c->outs.is_empty ());
}

/* Whether the current function is the kernel C calls (libneuronfuse
   built with the plugin): then the call would be infinite recursion, as
   LLVM's loop-idiom pass knows for memset.  */
static bool
nf_loop_self_call (const struct nf_loop_call *c)
{
  tree name = DECL_ASSEMBLER_NAME (current_function_decl);
  return name && strcmp (IDENTIFIER_POINTER (name), c->callee) == 0;
}

/* Step 3.  Whether the region of M can become one call; fills C, or
   returns the reason it cannot.  */
static const char *
nf_loop_check (struct nf_lregion *g, const nf_match *m, struct nf_loop_call *c)
{
  const char *why = nf_loop_check_1 (g, m, c);
  if (!why && nf_loop_self_call (c))
    why = "the function is the kernel the region would call";
  return why;
}

/* The declaration of the runtime function C->callee.  Declarations made
   here are cached: the call graph holds each once a call uses it.  */
static tree
nf_loop_decl (const struct nf_loop_call *c)
{
  static tree cache[8];
  static const char *names[8];
  tree id = get_identifier (c->callee);
  for (int i = 0; i < 8 && names[i]; i++)
    if (strcmp (names[i], c->callee) == 0)
      return cache[i];
  if (symtab_node *s = symtab_node::get_for_asmname (id))
    if (TREE_CODE (s->decl) == FUNCTION_DECL)
      return s->decl;
  tree types[NF_LOOP_MAX_ARGS];
  for (int i = 0; i < c->nargs; i++)
    types[i] = TREE_TYPE (c->args[i]);
  tree fntype = build_function_type_array (c->ret, c->nargs, types);
  tree decl = build_fn_decl (c->callee, fntype);
  TREE_NOTHROW (decl) = 1;
  for (int i = 0; i < 8; i++)
    if (!names[i])
      {
	names[i] = c->callee;
	cache[i] = decl;
	break;
      }
  return decl;
}

/* Step 4.  Replace the region of G by the call C, guarded by its
   overlap test, with the original as the fallback.  */
void
nf_loop_call_void (struct nf_loop_call *c, enum nf_kind kind,
		   const nf_call *plan, tree elt)
{
  c->kind = kind;
  c->plan = *plan;
  c->callee = plan->callee;
  c->sumsq = false;
  c->elt = elt;
  c->ret = void_type_node;
  c->store = plan->store;
  c->call = NULL;
}

void
nf_loop_outline (struct nf_lregion *g, struct nf_loop_call *c, location_t loc)
{
  /* The region's exit and entry edges.  */
  edge exit_e = g->exit_after ? split_block (g->exit_bb, g->exit_after)
			      : split_block_after_labels (g->exit_bb);
  basic_block after = exit_e->dest;
  edge entry_e;
  if (g->start_stmt)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (g->start_stmt);
      gsi_prev (&gsi);
      entry_e = gsi_end_p (gsi) ? split_block_after_labels (g->start_bb)
				: split_block (g->start_bb, gsi_stmt (gsi));
    }
  else
    entry_e = loop_preheader_edge (g->loops[0].loop);
  basic_block test = split_edge (entry_e);

  /* The test block: the inputs, then if (ok).  */
  gimple_stmt_iterator gsi = gsi_last_bb (test);
  auto_vec<tree, NF_LOOP_MAX_ARGS> args;
  for (int i = 0; i < c->nargs; i++)
    args.quick_push (force_gimple_operand_gsi (&gsi, unshare_expr (c->args[i]),
					       true, NULL_TREE, false,
					       GSI_CONTINUE_LINKING));
  tree ok = force_gimple_operand_gsi (&gsi, unshare_expr (c->ok), true,
				      NULL_TREE, false, GSI_CONTINUE_LINKING);
  gcond *cond = gimple_build_cond (NE_EXPR, ok, build_zero_cst (TREE_TYPE (ok)),
				   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  gsi_insert_after (&gsi, cond, GSI_NEW_STMT);

  edge fallback = single_succ_edge (test);
  fallback->flags = (fallback->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  basic_block callbb = create_empty_bb (test);
  add_bb_to_loop (callbb, test->loop_father);
  edge fast = make_edge (test, callbb, EDGE_TRUE_VALUE);
  fast->probability = profile_probability::likely ();
  fallback->probability = fast->probability.invert ();
  callbb->count = test->count.apply_probability (fast->probability);
  edge join = make_edge (callbb, after, EDGE_FALLTHRU);
  join->probability = profile_probability::always ();

  /* The call.  */
  gsi = gsi_start_bb (callbb);
  gcall *call = gimple_build_call_vec (nf_loop_decl (c), args);
  gimple_call_set_nothrow (call, true);
  gimple_set_location (call, loc);
  c->call = call;
  tree res = NULL_TREE;
  if (!VOID_TYPE_P (c->ret))
    {
      res = make_ssa_name (c->ret);
      gimple_call_set_lhs (call, res);
    }
  gsi_insert_after (&gsi, call, GSI_NEW_STMT);
  if (c->sumsq)
    {
      /* sqrt of a sum of squares never sets errno: the internal fn.  */
      tree s = make_ssa_name (c->ret);
      gcall *sq = gimple_build_call_internal (IFN_SQRT, 1, res);
      gimple_call_set_lhs (sq, s);
      gimple_set_location (sq, loc);
      gsi_insert_after (&gsi, sq, GSI_NEW_STMT);
      res = s;
    }

  /* Live-outs meet in PHIs after the region.  */
  for (tree name : c->outs)
    {
      tree val = res;
      if (!useless_type_conversion_p (TREE_TYPE (name), TREE_TYPE (res)))
	{
	  val = make_ssa_name (TREE_TYPE (name));
	  gsi_insert_after (&gsi, gimple_build_assign (val, NOP_EXPR, res),
			    GSI_NEW_STMT);
	}
      tree nn = copy_ssa_name (name);
      gphi *phi = create_phi_node (nn, after);
      add_phi_arg (phi, name, exit_e, UNKNOWN_LOCATION);
      add_phi_arg (phi, val, join, UNKNOWN_LOCATION);
      imm_use_iterator it;
      gimple *u;
      FOR_EACH_IMM_USE_STMT (u, it, name)
	{
	  if (u == phi || nf_lr_contains (g, u))
	    continue;
	  use_operand_p use;
	  FOR_EACH_IMM_USE_ON_STMT (use, it)
	  SET_USE (use, nn);
	  update_stmt (u);
	}
    }
  /* Debug binds after the region of values only the fallback computes.  */
  for (unsigned ver = 1; ver < g->n_ssa; ver++)
    {
      tree t = ssa_name (ver);
      if (!t || virtual_operand_p (t) || SSA_NAME_IS_DEFAULT_DEF (t)
	  || !nf_lr_contains (g, SSA_NAME_DEF_STMT (t)))
	continue;
      imm_use_iterator it;
      gimple *u;
      FOR_EACH_IMM_USE_STMT (u, it, t)
	if (gimple_debug_bind_p (u) && !nf_lr_contains (g, u))
	  {
	    gimple_debug_bind_reset_value (u);
	    update_stmt (u);
	  }
    }
  /* The call's memory state joins the fallback's at the exit: rename
     the virtual operands now, before the CFG cleanup removes blocks.  */
  free_dominance_info (CDI_DOMINATORS);
  mark_virtual_operands_for_renaming (cfun);
  update_ssa (TODO_update_ssa_only_virtuals);
  scev_reset ();
}

/* The element type the loop accumulated in: M's, except for a _Float16
   accumulator, whose region IR sums the float products it rounds.  */
static enum nf_elem
nf_loop_accum (const struct nf_lregion *g, const nf_match *m)
{
  tree acc = nf_lr_tree (g, m->anchor);
  if (acc && SCALAR_FLOAT_TYPE_P (TREE_TYPE (acc))
      && TYPE_PRECISION (TREE_TYPE (acc)) == 16)
    return NF_ELEM_F16;
  return m->accum;
}

/* The last source line of region G that starts at WHERE: the greatest
   line of a statement of G in WHERE's file (the loops' headers to their
   last statements; the exit block counts up to G->exit_after only, and
   statements inlined from elsewhere are skipped).  Returns WHERE's line
   when none is later.  */
static int
nf_loop_end_line (const struct nf_lregion *g, dump_user_location_t where)
{
  expanded_location start = expand_location (where.get_location_t ());
  int end = start.line;
  bitmap_iterator bi;
  unsigned i;

  if (!g->blocks || !start.file)
    return end;
  EXECUTE_IF_SET_IN_BITMAP (g->blocks, 0, i, bi)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, i);
      if (!bb || (bb == g->exit_bb && !g->exit_after))
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  location_t l = gimple_location (stmt);
	  expanded_location xl = expand_location (l);
	  if (l != UNKNOWN_LOCATION && xl.file
	      && strcmp (xl.file, start.file) == 0 && xl.line > end)
	    end = xl.line;
	  if (bb == g->exit_bb && stmt == g->exit_after)
	    break; /* The rest of the exit block is after the region.  */
	}
    }
  return end;
}

/* Step 5.  Record the region of M, fused as C, at LOC.  */
static void
nf_loop_record (struct nf_lregion *g, const nf_match *m,
		const struct nf_loop_call *c, dump_user_location_t loc)
{
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  char names[NF_CALL_MAX_ARGS][64];
  const char *ins[NF_CALL_MAX_ARGS];
  int n_ins = 0;
  bool map = m->kind == NF_KIND_EXPM1 || m->kind == NF_KIND_LOG1P;
  /* The arrays by their source names, n and eps (an Elementwise
     program's scalars are its own).  */
  for (int i = 0; i < c->plan.nargs; i++)
    {
      const nf_call_arg *a = &c->plan.args[i];
      const char *label = NULL, *name = a->name;
      switch (a->role)
	{
	case NF_ROLE_Y:
	case NF_ROLE_X:
	case NF_ROLE_W:
	  if (a->value == NF_NO_VALUE && a->role == NF_ROLE_X)
	    continue;
	  if (a->value == NF_NO_VALUE)
	    name = "NULL";
	  else
	    label = nf_source_array_name (c->args[i], names[n_ins],
					  sizeof names[n_ins]);
	  if (a->role == NF_ROLE_X)
	    name = "x";
	  break;
	case NF_ROLE_N:
	case NF_ROLE_EPS:
	  /* The plan's name, unless the region named a temporary.  */
	  if (name && nf_name_is_ssa (name))
	    label = nf_source_name (c->args[i], names[n_ins],
				    sizeof names[n_ins]);
	  break;
	default:
	  continue;
	}
      if (!label)
	snprintf (names[n_ins], sizeof names[n_ins], "%s", name);
      ins[n_ins] = names[n_ins];
      n_ins++;
    }
  char outname[96];
  const char *outs[1] = { outname };
  if (m->kind != NF_KIND_MULREDSQRT || m->normalize)
    snprintf (outname, sizeof outname, "%s", names[0]);
  else
    snprintf (outname, sizeof outname, "%s", c->out_name);
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 0 };
  enum nf_elem accum = nf_loop_accum (g, m);
  nf_region_desc d;
  nf_region_desc_init (&d, m->kind, c->callee, nf_loop_dtype (elem),
		       nf_loop_dtype (accum), ins, n_ins, outs, 1);
  d.action = "outlined";
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, m->kind, elem, accum,
		      m->weight != NF_NO_VALUE, map, flag_errno_math);
  if (c->plan.flops >= 0)
    {
      d.flops = c->plan.flops;
      d.bytes = c->plan.bytes;
    }
  char msg[128];
  int n_loops = 0;
  for (int k = 0; k < g->n_loops; k++)
    n_loops += bitmap_bit_p (g->blocks, g->loops[k].loop->header->index);
  snprintf (msg, sizeof msg, "%s: loop%s outlined into a call to %s", d.kind,
	    n_loops > 1 ? "s" : "", c->callee);
  d.end_line = nf_loop_end_line (g, loc);
  int id = nf_record_region (loc, &d, msg, m);
  if (dump_file && (dump_flags & TDF_DETAILS))
    fprintf (dump_file, "neuronfuse: region %d: %s %s in %s (%d loop%s)\n", id,
	     d.kind, nf_opts.mode == NF_MODE_REPORT ? "reported" : "outlined",
	     c->callee, n_loops, n_loops == 1 ? "" : "s");
}

/* Steps 1-5 for the innermost loop LOOP, with the region starting at
   its guard when GUARDED.  Returns true when the loop is done with (a
   region recorded, or a reason in *REASON and *KIND); sets *CHANGED when
   it rewrote the function.  CONSUMED collects the loops of fused
   regions.  */
bool
nf_loop_attempt (class loop *loop, bool guarded, enum nf_loop_mode mode,
		 auto_vec<class loop *> &consumed, enum nf_kind *kind,
		 const char **reason, bool *changed, bool *built)
{
  dump_user_location_t loc = find_loop_location (loop);
  struct nf_lregion g;
  nf_match m;
  bool done = true;

  calculate_dominance_info (CDI_DOMINATORS);
  bool map = mode != NF_LOOP_NORM;
  nf_value anchor = map ? nf_lr_build_map (&g, loop, guarded)
			: nf_lr_build (&g, loop, guarded);
  if (dump_file && (dump_flags & TDF_DETAILS) && g.r)
    {
      fprintf (dump_file, "neuronfuse: region of loop %d%s:\n", loop->num,
	       guarded ? "" : " (from its header)");
      for (int k = 0; k < g.n_loops; k++)
	{
	  fprintf (dump_file, "  loop %d: trip count ", g.loops[k].loop->num);
	  print_generic_expr (dump_file, g.loops[k].count);
	  fputc ('\n', dump_file);
	}
      nf_region_print (g.r, dump_file);
    }
  bool matched = false;
  *built = anchor != NF_NO_VALUE;
  if (anchor == NF_NO_VALUE)
    *reason = g.fail;
  else if (map)
    {
      matched = mode == NF_LOOP_ELEMENTWISE
		  ? nf_match_elementwise (g.r, anchor, &m)
		  : nf_match_map (g.r, anchor, &m);
      *kind = m.kind;
      *reason = matched ? NULL : m.reason;
      if (!matched && m.reason && g.fail)
	*reason = g.fail;
    }
  else
    {
      /* Each sum the loop computes, until one is the idiom: the norms
	 of a cosine similarity follow its dot product.  The reason is
	 the first candidate's.  */
      matched = nf_loop_match (&g, anchor, &m, kind, reason);
      for (nf_value a = anchor + 1; !matched && a < nf_region_n_values (g.r);
	   a++)
	{
	  enum nf_kind k2 = NF_KIND_RMSNORM;
	  const char *why = NULL;
	  if (nf_op (g.r, a) != NF_OP_REDUCE)
	    continue;
	  matched = nf_loop_match (&g, a, &m, &k2, &why);
	  if (matched || (why && !*reason))
	    *kind = k2, *reason = why;
	}
    }
  if (matched)
    {
      struct nf_loop_call c;
      *kind = m.kind;
      memset (c.args, 0, sizeof c.args);
      c.sumsq = false;
      c.store = NF_NO_VALUE;
      c.call = NULL;
      *reason = nf_loop_check (&g, &m, &c);
      if (!*reason)
	{
	  for (int k = 0; k < g.n_loops; k++)
	    if (bitmap_bit_p (g.blocks, g.loops[k].loop->header->index))
	      consumed.safe_push (g.loops[k].loop);
	  /* The per-row call first: the row loop around it may become one
	     call of the rows kernel (loop-rows.cc), which then is the
	     region reported; else this one is, with the rows' near miss.  */
	  bool rows = false;
	  const char *rows_why = NULL;
	  enum nf_elem accum = nf_loop_accum (&g, &m);
	  bool plain = integer_onep (nf_lr_assumptions (&g));
	  /* The result's name before the rewrite redefines it.  */
	  if (c.outs.length ())
	    nf_source_name (c.outs[0], c.out_name, sizeof c.out_name);
	  else
	    snprintf (c.out_name, sizeof c.out_name, "(value)");
	  if (nf_opts.mode == NF_MODE_REWRITE)
	    {
	      nf_loop_outline (&g, &c, loc.get_location_t ());
	      *changed = true;
	      if (m.kind == NF_KIND_RMSNORM && c.call)
		{
		  nf_loop_rows_note (c.call, accum, plain);
		  rows = nf_loop_rows_attempt (c.call, &rows_why, changed)
			 && !rows_why;
		}
	    }
	  if (!rows)
	    nf_loop_record (&g, &m, &c, loc);
	  if (rows_why)
	    nf_loop_rows_missed (c.call, rows_why);
	}
      /* A region whose guard's path around it leaves elsewhere may fit
	 from the loop's header.  */
      else if (guarded && g.loops[0].guard && g.blocks && (g.fail == *reason))
	done = false;
      nf_match_release (&m);
    }
  nf_lr_free (&g);
  return done;
}

