/* loop-rows.cc: a row loop around an RMSNorm, as one call of
   libneuronfuse's rows kernel (lower/rows.h, lower/call.c).

   A loop over contiguous rows whose body is one RMSNorm (written out,
   or llama2.c's rmsnorm inlined into it) is, once loop.cc has made the
   body one guarded call per row:

     for (r = 0; r < rows; r++)          if (row steps == n elements
       if (<row r apart>)                    && y == x or disjoint over
	 nf_rmsnorm_f32 (y + r * n,  =>          rows * n && y disjoint
			 x + r * n, w,           from w over n)
			 n, eps);              nf_rmsnorm_rows_f32 (y, x, w,
       else                                          rows, n, eps);
	 <the row's loops>               else
					   <the original nest>

   Steps (nf_loop_rows_attempt): 1. the per-row call is one loop.cc
   made (nf_loop_rows_note: its run-time test was the overlap test
   only, nothing the builder assumed), in the body of a loop with one
   exit and a computable trip count (the rows), reached on every row;
   2. the row loop does nothing but that call and its fallback: no other
   store or call, no float value carried from row to row, nothing used
   after it; 3. the call's arguments as scalar evolutions over the row
   loop: y and x advance by one step per row, w, n and eps do not (a
   weight indexed by the row, a row length or an eps that changes are
   near misses); a constant step is n elements only for a constant n of
   that many; 4. the rank-2 region (lower/rows.h) and its plan
   (nf_call_plan: the rows kernel, y against x in place or disjoint,
   against w disjoint); 5. the rewrite (loop.cc's nf_loop_outline): the
   test on the row loop's preheader edge, the call, the row loop with
   its per-row calls as the fallback.

   Both instances of the loop pass try it: nf-early-loop right after it
   made a per-row call in a row loop (the written-out nest), nf-loop on
   each per-row call it made and on those the early instance made in a
   function inlined into a row loop (llama2.c's rmsnorm).

   Limitations: mode=report, which makes no per-row call, reports the
   rows as a call per row; a per-row test that also checks what the
   builder assumed (two trip counts equal) is not lifted to the rows;
   rows a run-time step apart are a run-time test, not a proof.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "call.h"
#include "rows.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"

/* What loop.cc knew of a per-row call it made (step 1).  */
struct nf_rows_note
{
  location_t locus;
  int fn_uid;	     /* DECL_UID of the function it was made in.  */
  enum nf_elem accum; /* The row loop's accumulator.  */
  bool plain;	     /* Its test was the overlap test only.  */
};
static vec<nf_rows_note> nf_rows_notes;

/* The calls (by location, inlined scope included, and function) whose
   row loop was tried: fused, or a near miss reported.  */
struct nf_rows_judged
{
  location_t loc;
  int fn_uid;
};
static vec<nf_rows_judged> nf_rows_done;

/* Whether CALL's row loop was tried already; else note that it is.  */
static bool
nf_rows_judged_p (gimple *call, bool set)
{
  location_t loc = gimple_location (call);
  int uid = DECL_UID (current_function_decl);
  for (unsigned i = 0; i < nf_rows_done.length (); i++)
    if (nf_rows_done[i].loc == loc && nf_rows_done[i].fn_uid == uid)
      return true;
  if (set)
    {
      struct nf_rows_judged j = { loc, uid };
      nf_rows_done.safe_push (j);
    }
  return false;
}

/* The note of the call at LOCUS made in the function of FN_UID.  */
static struct nf_rows_note *
nf_rows_find (location_t locus, int fn_uid)
{
  for (unsigned i = 0; locus != UNKNOWN_LOCATION && i < nf_rows_notes.length ();
       i++)
    if (nf_rows_notes[i].locus == locus && nf_rows_notes[i].fn_uid == fn_uid)
      return &nf_rows_notes[i];
  return NULL;
}

void
nf_loop_rows_note (gcall *call, enum nf_elem accum, bool plain)
{
  location_t locus = LOCATION_LOCUS (gimple_location (call));
  int uid = DECL_UID (current_function_decl);
  if (locus == UNKNOWN_LOCATION)
    return;
  struct nf_rows_note *n = nf_rows_find (locus, uid);
  if (!n)
    {
      struct nf_rows_note z = { locus, uid, accum, plain };
      nf_rows_notes.safe_push (z);
      return;
    }
  n->accum = accum;
  n->plain &= plain;
}

/* The note of CALL: in the function its code was inlined from (the
   innermost inlined scope first), or in the current one.  */
static struct nf_rows_note *
nf_rows_note_of (gimple *call)
{
  location_t loc = gimple_location (call);
  location_t locus = LOCATION_LOCUS (loc);
  for (tree b = LOCATION_BLOCK (loc); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      {
	tree origin = block_ultimate_origin (b);
	if (origin && TREE_CODE (origin) == FUNCTION_DECL)
	  if (struct nf_rows_note *n = nf_rows_find (locus, DECL_UID (origin)))
	    return n;
      }
  return nf_rows_find (locus, DECL_UID (current_function_decl));
}

bool
nf_loop_rows_plain_p (gimple *call, enum nf_elem *accum)
{
  struct nf_rows_note *note = nf_rows_note_of (call);
  if (!note || !note->plain)
    return false;
  *accum = note->accum;
  return true;
}

bool
nf_loop_rows_callee_p (gimple *s)
{
  tree fn = is_gimple_call (s) ? gimple_call_fndecl (s) : NULL_TREE;
  if (!fn || !DECL_NAME (fn) || gimple_call_num_args (s) != 5)
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fn));
  return strcmp (name, "nf_rmsnorm_f32") == 0
	 || strcmp (name, "nf_rmsnorm_f64") == 0
	 || strcmp (name, "nf_rmsnorm_f16") == 0;
}

/* The row loop being matched.  */
struct nf_rows_nest
{
  class loop *outer;
  gcall *call;
  tree rows, n;		   /* Trip counts (sizetype).  */
  tree y0, x0, w;	   /* At the nest's entry; W null: none.  */
  tree ystep, xstep;	   /* Bytes per row.  */
  tree eps;
  tree elt;		   /* The element type.  */
};

/* The evolution of T over N->outer at its entry.  */
static tree
nf_rows_evolution (const struct nf_rows_nest *n, tree t)
{
  tree ev = analyze_scalar_evolution (n->outer, t);
  return instantiate_scev (loop_preheader_edge (n->outer), n->outer, ev);
}

/* Step 3 for the pointer argument T: its start *BASE and step per row
   *STEP (NULL_TREE: none).  False when not affine over the row loop.  */
static bool
nf_rows_pointer (const struct nf_rows_nest *n, tree t, tree *base, tree *step)
{
  tree ev = nf_rows_evolution (n, t);
  *step = NULL_TREE;
  if (ev && TREE_CODE (ev) == POLYNOMIAL_CHREC
      && CHREC_VARIABLE (ev) == (unsigned) n->outer->num)
    {
      *step = CHREC_RIGHT (ev);
      ev = CHREC_LEFT (ev);
    }
  if (!ev || chrec_contains_undetermined (ev) || tree_contains_chrecs (ev, NULL)
      || (*step && tree_contains_chrecs (*step, NULL)))
    return false;
  *base = ev;
  return true;
}

tree
nf_loop_rebuild (gimple *d, tree (*operand) (tree, void *, int), void *data,
		 int depth)
{
  if (!is_gimple_assign (d) || gimple_vuse (d)
      || gimple_has_side_effects (d) || depth > 8)
    return NULL_TREE;
  enum tree_code code = gimple_assign_rhs_code (d);
  tree type = TREE_TYPE (gimple_assign_lhs (d));
  tree ops[3] = { NULL_TREE, NULL_TREE, NULL_TREE };
  unsigned nops = gimple_num_ops (d) - 1;
  if (nops > 3)
    return NULL_TREE;
  for (unsigned i = 0; i < nops; i++)
    if (!(ops[i] = operand (gimple_op (d, i + 1), data, depth + 1)))
      return NULL_TREE;
  switch (get_gimple_rhs_class (code))
    {
    case GIMPLE_SINGLE_RHS:
      return is_gimple_min_invariant (ops[0]) || TREE_CODE (ops[0]) == SSA_NAME
	       ? ops[0]
	       : NULL_TREE;
    case GIMPLE_UNARY_RHS:
      return fold_build1 (code, type, ops[0]);
    case GIMPLE_BINARY_RHS:
      return fold_build2 (code, type, ops[0], ops[1]);
    case GIMPLE_TERNARY_RHS:
      return fold_build3 (code, type, ops[0], ops[1], ops[2]);
    default:
      return NULL_TREE;
    }
}

/* T, the same on every row of the loop OUTER (DATA), rebuilt at the row
   loop's entry from its pure definitions inside the loop (no loads, no
   PHIs): a constant, a value from before the loop, or operations on
   them; NULL_TREE when it may change from row to row.  */
static tree
nf_rows_at_entry_1 (tree t, void *data, int depth)
{
  class loop *outer = (class loop *) data;
  if (CONSTANT_CLASS_P (t))
    return t;
  if (TREE_CODE (t) != SSA_NAME)
    return NULL_TREE;
  gimple *d = SSA_NAME_DEF_STMT (t);
  if (SSA_NAME_IS_DEFAULT_DEF (t) || !gimple_bb (d)
      || !flow_bb_inside_loop_p (outer, gimple_bb (d)))
    return t;
  return nf_loop_rebuild (d, nf_rows_at_entry_1, data, depth);
}

static tree
nf_rows_at_entry (class loop *outer, tree t, int depth)
{
  return nf_rows_at_entry_1 (t, outer, depth);
}

/* Return false, saying why in the details dump.  */
#define NF_ROWS_NOT(what)                                                     \
  do                                                                          \
    {                                                                         \
      if (dump_file && (dump_flags & TDF_DETAILS))                            \
	fprintf (dump_file, "neuronfuse: no row loop: %s\n", what);           \
      return false;                                                           \
    }                                                                         \
  while (0)

/* Steps 1-2: CALL's row loop in *N, or false (with *WHY for a near
   miss of a row loop around it).  */
static bool
nf_rows_nest_of (gcall *call, struct nf_rows_nest *n, const char **why)
{
  *why = NULL;
  basic_block cb = gimple_bb (call);
  n->call = call;
  n->outer = cb->loop_father;
  if (!loop_outer (n->outer) || !single_pred_p (cb) || !single_succ_p (cb))
    NF_ROWS_NOT ("the call is in no loop, or not alone in its block");
  basic_block test = single_pred (cb);
  gcond *cond = safe_dyn_cast<gcond *> (last_stmt (test));
  if (!cond || EDGE_COUNT (test->succs) != 2)
    NF_ROWS_NOT ("the call has no test");
  edge other = EDGE_SUCC (test, 0)->dest == cb ? EDGE_SUCC (test, 1)
					       : EDGE_SUCC (test, 0);
  basic_block fb = other->dest;
  edge exit = single_exit (n->outer);
  /* The fallback: what the other way dominates (entered from the test
     only, or a loop's header entered from its own latch too).  */
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, fb->preds)
    if (e->src != test && !dominated_by_p (CDI_DOMINATORS, e->src, fb))
      NF_ROWS_NOT ("the call's test has no fallback of its own");
  if (fb == cb)
    NF_ROWS_NOT ("the call's test has no fallback of its own");
  if (!exit || dominated_by_p (CDI_DOMINATORS, exit->src, fb))
    NF_ROWS_NOT ("the row loop has no exit, or the fallback's");
  if (!dominated_by_p (CDI_DOMINATORS, n->outer->latch, test))
    NF_ROWS_NOT ("the call's test is not on every row");
  /* Step 2: besides the call and its fallback (the blocks of the other
     way), pure statements only.  */
  basic_block *bbs = get_loop_body (n->outer);
  bool ok = true;
  for (unsigned i = 0; i < n->outer->num_nodes && ok; i++)
    {
      basic_block bb = bbs[i];
      if (dominated_by_p (CDI_DOMINATORS, bb, fb))
	continue;
      if (bb->loop_father != n->outer)
	ok = false; /* A loop outside the fallback.  */
      for (gphi_iterator pi = gsi_start_phis (bb); ok && !gsi_end_p (pi);
	   gsi_next (&pi))
	{
	  tree res = gimple_phi_result (pi.phi ());
	  if (!virtual_operand_p (res) && SCALAR_FLOAT_TYPE_P (TREE_TYPE (res))
	      && bb == n->outer->header)
	    ok = false; /* Carried from row to row.  */
	}
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
	   ok && !gsi_end_p (gsi); gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (s == call || is_gimple_debug (s)
	      || gimple_code (s) == GIMPLE_LABEL
	      || gimple_code (s) == GIMPLE_COND)
	    continue;
	  if (is_gimple_call (s) || gimple_has_volatile_ops (s)
	      || gimple_vdef (s) || !is_gimple_assign (s)
	      || gimple_has_side_effects (s)
	      || stmt_could_throw_p (cfun, s))
	    ok = false;
	}
    }
  free (bbs);
  if (!ok)
    NF_ROWS_NOT ("the row loop does more than the call");
  if (nf_loop_used_after (n->outer))
    NF_ROWS_NOT ("a value of the row loop is used after it");
  /* (Quietly: a loop of no computable trip count, such as ggml's share
     of the rows of one thread, for (i = ith; i < nr; i += nth), is no
     row loop to call once; its rows stay per-row calls.)  */
  n->rows = nf_loop_body_count (n->outer, why);
  if (!n->rows)
    {
      const char *w = *why;
      *why = NULL;
      NF_ROWS_NOT (w);
    }
  *why = NULL;

  /* Step 3.  From here on the loop is a row loop around the call: what
     fails is a near miss.  */
  tree yarg = gimple_call_arg (call, 0), xarg = gimple_call_arg (call, 1);
  tree warg = gimple_call_arg (call, 2);
  n->elt = TREE_TYPE (TREE_TYPE (yarg));
  tree wstep;
  if (!nf_rows_pointer (n, yarg, &n->y0, &n->ystep)
      || !nf_rows_pointer (n, xarg, &n->x0, &n->xstep))
    return *why = NF_WHY_DOT_NEST_AFFINE, false;
  if (!n->ystep || !n->xstep)
    return *why = NF_WHY_ROWS_STEP, false;
  if (integer_zerop (warg))
    n->w = NULL_TREE;
  else if (!nf_rows_pointer (n, warg, &n->w, &wstep))
    return *why = NF_WHY_DOT_NEST_AFFINE, false;
  else if (wstep && !integer_zerop (wstep))
    return *why = NF_WHY_ROWS_WEIGHT, false;
  tree nev = nf_rows_at_entry (n->outer, gimple_call_arg (call, 3), 0);
  if (!nev)
    return *why = NF_WHY_DOT_ROW_LENGTH, false;
  n->n = fold_convert (sizetype, nev);
  if (!(n->eps = nf_rows_at_entry (n->outer, gimple_call_arg (call, 4), 0)))
    return *why = NF_WHY_ROWS_EPS, false;
  /* A constant step is n elements only for a constant n of that many.  */
  tree esz = TYPE_SIZE_UNIT (n->elt);
  tree row = size_binop (MULT_EXPR, n->n, fold_convert (sizetype, esz));
  n->ystep = fold_convert (sizetype, n->ystep);
  n->xstep = fold_convert (sizetype, n->xstep);
  tree steps[2] = { n->ystep, n->xstep };
  for (tree step : steps)
    if (TREE_CODE (step) == INTEGER_CST
	&& (TREE_CODE (row) != INTEGER_CST || !tree_int_cst_equal (step, row)))
      return *why = NF_WHY_ROWS_STEP, false;
  return true;
}

/* The step 5 test of N: the row steps n elements, y and x the same or
   disjoint over rows * n, y and w disjoint.  */
static tree
nf_rows_ok (const struct nf_rows_nest *n)
{
  HOST_WIDE_INT esz = tree_to_shwi (TYPE_SIZE_UNIT (n->elt));
  tree row = size_binop (MULT_EXPR, n->n, size_int (esz));
  tree all = size_binop (MULT_EXPR, n->rows, n->n);
  tree steps = fold_build2 (
    TRUTH_OR_EXPR, boolean_type_node,
    fold_build2 (EQ_EXPR, boolean_type_node, n->n, size_zero_node),
    fold_build2 (TRUTH_AND_EXPR, boolean_type_node,
		 fold_build2 (EQ_EXPR, boolean_type_node, n->ystep, row),
		 fold_build2 (EQ_EXPR, boolean_type_node, n->xstep, row)));
  tree ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, steps,
			 nf_loop_disjoint (n->y0, n->x0, all, esz));
  if (n->w)
    {
      tree yend = fold_build_pointer_plus (n->y0, size_binop (MULT_EXPR, all,
							      size_int (esz)));
      tree wend = fold_build_pointer_plus (n->w, row);
      tree apart = fold_build2 (
	TRUTH_OR_EXPR, boolean_type_node,
	fold_build2 (LE_EXPR, boolean_type_node, yend,
		     fold_convert (TREE_TYPE (yend), n->w)),
	fold_build2 (LE_EXPR, boolean_type_node, wend,
		     fold_convert (TREE_TYPE (wend), n->y0)));
      ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok, apart);
    }
  return ok;
}

/* The element kind of the float type T.  */
static enum nf_elem
nf_rows_elem (tree t)
{
  switch (TYPE_PRECISION (t))
    {
    case 16:
      return NF_ELEM_F16;
    case 32:
      return NF_ELEM_F32;
    default:
      return NF_ELEM_F64;
    }
}

/* The base name of the address T (a parameter, through pointer
   arithmetic) in BUF.  */
const char *
nf_loop_label (tree t, char *buf, size_t size)
{
  STRIP_NOPS (t);
  while (TREE_CODE (t) == POINTER_PLUS_EXPR)
    {
      t = TREE_OPERAND (t, 0);
      STRIP_NOPS (t);
    }
  return nf_value_name (t, buf, size);
}

/* Steps 4-5 for the nest N of the call of NOTE: plan, record, rewrite.
   Returns NULL, or the plan's reason.  */
static const char *
nf_rows_outline (const struct nf_rows_nest *n, const struct nf_rows_note *note,
		 bool *changed)
{
  dump_user_location_t loc = find_loop_location (n->outer);
  if (LOCATION_LOCUS (loc.get_location_t ()) == UNKNOWN_LOCATION)
    loc = dump_user_location_t (n->call);
  expanded_location xl = expand_location (loc.get_location_t ());
  char xname[64], yname[64], wname[64], ename[64];
  struct nf_rmsnorm_rows_facts f;
  memset (&f, 0, sizeof f);
  f.function = lang_hooks.decl_printable_name (current_function_decl, 2);
  f.loc.file = xl.file;
  f.loc.line = xl.line;
  f.loc.column = xl.column;
  f.x_label = nf_loop_label (n->x0, xname, sizeof xname);
  f.y_label = nf_loop_label (n->y0, yname, sizeof yname);
  f.w_label = n->w ? nf_loop_label (n->w, wname, sizeof wname) : NULL;
  f.elem = nf_rows_elem (n->elt);
  f.accum = note->accum;
  f.eps_elem = f.elem == NF_ELEM_F64 ? NF_ELEM_F64 : NF_ELEM_F32;
  f.weight = n->w != NULL_TREE;
  f.eps_const = TREE_CODE (n->eps) == REAL_CST;
  if (f.eps_const)
    {
      /* Decimal with 30 digits round-trips a double (to-ir.cc).  */
      char buf[64];
      real_to_decimal (buf, TREE_REAL_CST_PTR (n->eps), sizeof buf, 30, 1);
      f.eps_value = strtod (buf, NULL);
    }
  else
    f.eps_name = nf_value_name (n->eps, ename, sizeof ename);
  nf_match m;
  const char *why;
  nf_region *r = nf_rmsnorm_rows_region (&f, &m, &why);
  if (!r)
    return why;
  nf_call plan;
  nf_call_flags fl = { nf_fast_math_p (), flag_associative_math != 0,
		       nf_wide_vector_math_p () };
  if ((why = nf_call_plan (r, &m, &fl, &plan)))
    {
      nf_match_release (&m);
      nf_region_free (r);
      return why;
    }
  struct nf_loop_call c;
  nf_loop_call_void (&c, NF_KIND_RMSNORM, &plan, n->elt);
  tree ptr = build_pointer_type (TYPE_MAIN_VARIANT (n->elt));
  tree cptr = build_pointer_type (
    build_qualified_type (TYPE_MAIN_VARIANT (n->elt), TYPE_QUAL_CONST));
  c.args[0] = fold_convert (ptr, n->y0);
  c.args[1] = fold_convert (cptr, n->x0);
  c.args[2] = n->w ? fold_convert (cptr, n->w) : build_int_cst (cptr, 0);
  c.args[3] = n->rows;
  c.args[4] = n->n;
  c.args[5] = fold_convert (TREE_TYPE (gimple_call_arg (n->call, 4)), n->eps);
  c.nargs = 6;
  c.ok = nf_rows_ok (n);

  /* The report: as one row's, with the rows.  */
  char yn[64], xn[64], wn[64];
  nf_source_array_name (n->y0, yn, sizeof yn);
  nf_source_array_name (n->x0, xn, sizeof xn);
  const char *ins[6] = { yn, xn,
			 n->w ? nf_source_array_name (n->w, wn, sizeof wn)
			      : "NULL",
			 "rows", "n", "eps" };
  const char *outs[1] = { yn };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 1 };
  nf_region_desc d;
  nf_region_desc_init (&d, NF_KIND_RMSNORM, c.callee, nf_elem_name (f.elem),
		       nf_elem_name (f.accum), ins, 6, outs, 1);
  d.action = "outlined";
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, NF_KIND_RMSNORM, f.elem, f.accum, f.weight,
		      false, flag_errno_math);
  char msg[128];
  snprintf (msg, sizeof msg, "RMSNorm: loop nest outlined into a call to %s",
	    c.callee);
  nf_record_region (loc, &d, msg, &m);
  nf_match_release (&m);
  nf_region_free (r);
  if (nf_opts.mode != NF_MODE_REWRITE)
    return NULL;

  /* The region: the row loop from its preheader to its exit.  */
  struct nf_lregion g2;
  memset (&g2, 0, sizeof g2);
  g2.loops[0].loop = n->outer;
  g2.n_loops = 1;
  g2.start_bb = n->outer->header;
  g2.exit_bb = single_exit (n->outer)->dest;
  g2.blocks = BITMAP_ALLOC (NULL);
  basic_block *bbs = get_loop_body (n->outer);
  for (unsigned i = 0; i < n->outer->num_nodes; i++)
    bitmap_set_bit (g2.blocks, bbs[i]->index);
  free (bbs);
  bitmap_set_bit (g2.blocks, g2.exit_bb->index);
  g2.n_ssa = num_ssa_names;
  nf_loop_outline (&g2, &c, loc.get_location_t ());
  BITMAP_FREE (g2.blocks);
  *changed = true;
  return NULL;
}

bool
nf_loop_rows_attempt (gcall *call, const char **reason, bool *changed)
{
  *reason = NULL;
  struct nf_rows_note *note = nf_rows_note_of (call);
  if (!(nf_opts.kinds & NF_KIND_RMSNORM) || !note || !note->plain
      || nf_rows_judged_p (call, false))
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  struct nf_rows_nest n;
  memset (&n, 0, sizeof n);
  const char *why;
  if (!nf_rows_nest_of (call, &n, &why))
    {
      if (why)
	nf_rows_judged_p (call, true);
      *reason = why;
      return why != NULL;
    }
  nf_rows_judged_p (call, true);
  *reason = nf_rows_outline (&n, note, changed);
  return true;
}

/* Near misses of the rows, recorded at the row loop.  */
void
nf_loop_rows_missed (gcall *call, const char *reason)
{
  class loop *outer = gimple_bb (call)->loop_father;
  dump_user_location_t loc = find_loop_location (outer);
  if (LOCATION_LOCUS (loc.get_location_t ()) == UNKNOWN_LOCATION)
    loc = dump_user_location_t (call);
  nf_record_missed (loc, NF_KIND_RMSNORM, reason);
  if (dump_file && (dump_flags & TDF_DETAILS))
    fprintf (dump_file, "neuronfuse: missed RMSNorm rows: %s\n", reason);
}
