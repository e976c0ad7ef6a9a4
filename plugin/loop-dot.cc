/* loop-dot.cc: a loop nest that is a matrix-vector product, as one call
   of libneuronfuse (kind Dot, lower/match-dot.c).

   llama2.c's matmul, as nf-early-loop sees it:

     for (i = 0; i < d; i++)                 if (y, w and x disjoint
       {                                         && row step == n * 4)
	 float val = 0.0f;                 =>    nf_matvec_f32 (xout, w, x,
	 for (j = 0; j < n; j++)                                d, n);
	   val += w[i * n + j] * x[j];       else
	 xout[i] = val;                          <the original nest>
       }

   Steps (nf_loop_dot_attempt): 1. the inner loop's region (loop-ir.cc)
   is the dot product of one row, REDUCE (MUL (LOAD, LOAD)) from 0
   (nf_match_dot on it); 2. the nest: the inner loop is the only loop
   of its outer loop, which has one exit, a computable trip count (the
   rows), and does nothing but the inner loop, the store of the row's
   sum and its induction variables: no other store or call, no value
   carried from row to row or used after the nest, the inner loop and
   the store on every row; 3. the accesses as
   scalar evolutions over the nest: the store advances by one element
   per row, one factor by a row step per row and one element per
   element (the matrix), the other only per element (the vector); 4.
   the region IR of the whole nest, rank 2, in which nf_match_dot
   finds the matrix-vector product and lower/'s nf_call_plan plans the
   call; 5. the rewrite (loop.cc's nf_loop_outline): a test on the
   nest's preheader edge (the output disjoint from the matrix and the
   vector, and the row step n elements, which the kernel assumes),
   the call, the original nest as the fallback.

   Limitations: the rows are an outer loop directly around the inner
   one (no matrix-matrix nest, no unrolled rows); the row step is a run-
   time test, not a proof; a vector dot product outside a nest is left
   to the loop (no call for it yet).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "call.h"
#include "nf-plugin.h"
#include "loop-ir.h"
#include "loop.h"

/* The nest being matched.  */
struct nf_dot_nest
{
  class loop *inner, *outer;
  tree rows;		/* The outer loop's trip count (sizetype).  */
  tree n;		/* The inner loop's (sizetype), invariant.  */
  gimple *store;	/* xout[i] = val.  */
  tree y0, w0, x0;	/* The first elements' addresses.  */
  tree row_step;	/* The matrix's step per row, in bytes.  */
  tree welt, xelt, yelt; /* The element types.  */
  bool w_first;		/* The matrix is the product's first operand.  */
};

/* T with SSA copies, single-argument PHIs and conversions looked
   through; *CONVERTED says whether a conversion was among them.  */
static tree
nf_dot_strip (tree t, bool *converted)
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
      else if (is_gimple_assign (d)
	       && (gimple_assign_ssa_name_copy_p (d)
		   || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d))))
	{
	  *converted |= CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d));
	  t = gimple_assign_rhs1 (d);
	}
      else
	return t;
    }
  return t;
}

tree
nf_loop_body_count (class loop *outer, const char **why)
{
  edge exit = single_exit (outer);
  if (!exit)
    return *why = NF_WHY_EXITS, NULL_TREE;
  tree niter = number_of_latch_executions (outer);
  if (!niter || chrec_contains_undetermined (niter)
      || !INTEGRAL_TYPE_P (TREE_TYPE (niter)))
    return *why = NF_WHY_TRIP_COUNT, NULL_TREE;
  /* Do-while (the test ends the body, an empty latch after it): niter
     + 1, also for a loop of one block after header copying, whose
     header is its body and its test; while (the header tests, the body
     follows): niter times.  */
  tree t = fold_convert (sizetype, niter);
  if (single_pred_p (outer->latch) && single_pred (outer->latch) == exit->src
      && nf_lr_empty_bb (outer->latch))
    return size_binop (PLUS_EXPR, t, size_one_node);
  if (exit->src == outer->header)
    return t;
  return *why = NF_WHY_LOOP_SHAPE, NULL_TREE;
}

/* Step 2: OUTER does nothing but its inner loop (which has no call and
   no store), one store and its induction variables.  Returns the store,
   or NULL with *WHY set.  */
static gimple *
nf_dot_outer_body (class loop *outer, const char **why)
{
  gimple *store = NULL;
  basic_block *bbs = get_loop_body (outer);
  *why = NULL;
  for (unsigned i = 0; i < outer->num_nodes && !*why; i++)
    {
      if (bbs[i]->loop_father != outer)
	{
	  /* The inner loop's: its region holds the sum; anything else
	     with an effect is more than the call does.  */
	  for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]);
	       !gsi_end_p (gsi) && !*why; gsi_next (&gsi))
	    {
	      gimple *s = gsi_stmt (gsi);
	      if (is_gimple_call (s))
		*why = NF_WHY_CALL;
	      else if (gimple_has_volatile_ops (s))
		*why = NF_WHY_VOLATILE;
	      else if (gimple_vdef (s))
		*why = NF_WHY_OTHER_STORE;
	    }
	  continue;
	}
      for (gphi_iterator pi = gsi_start_phis (bbs[i]); !gsi_end_p (pi);
	   gsi_next (&pi))
	{
	  tree res = gimple_phi_result (pi.phi ());
	  if (virtual_operand_p (res))
	    continue;
	  if (SCALAR_FLOAT_TYPE_P (TREE_TYPE (res)) && bbs[i] == outer->header)
	    *why = NF_WHY_DOT_CARRIED;
	}
      for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (is_gimple_debug (s) || gimple_code (s) == GIMPLE_LABEL
	      || gimple_code (s) == GIMPLE_COND)
	    continue;
	  if (is_gimple_call (s))
	    *why = NF_WHY_CALL;
	  else if (gimple_has_volatile_ops (s))
	    *why = NF_WHY_VOLATILE;
	  else if (gimple_vdef (s))
	    {
	      if (store || !gimple_store_p (s))
		*why = NF_WHY_OTHER_STORE;
	      store = s;
	    }
	  else if (!is_gimple_assign (s) || gimple_has_side_effects (s))
	    *why = NF_WHY_LOOP_SHAPE;
	}
    }
  free (bbs);
  if (!*why && !store)
    *why = NF_WHY_DOT_NOT_ONLY_STORED;
  return *why ? NULL : store;
}

bool
nf_loop_used_after (class loop *outer)
{
  basic_block *bbs = get_loop_body (outer);
  bool used = false;
  for (unsigned i = 0; i < outer->num_nodes && !used; i++)
    {
      auto check = [&] (tree def) {
	imm_use_iterator it;
	gimple *u;
	if (!def || TREE_CODE (def) != SSA_NAME || virtual_operand_p (def))
	  return;
	FOR_EACH_IMM_USE_STMT (u, it, def)
	  {
	    if (is_gimple_debug (u) || flow_bb_inside_loop_p (outer,
							      gimple_bb (u)))
	      continue;
	    /* A loop-closed PHI that nothing reads.  */
	    if (gphi *phi = dyn_cast<gphi *> (u))
	      if (has_zero_uses (gimple_phi_result (phi)))
		continue;
	    used = true;
	  }
      };
      for (gphi_iterator pi = gsi_start_phis (bbs[i]); !gsi_end_p (pi);
	   gsi_next (&pi))
	check (gimple_phi_result (pi.phi ()));
      for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	check (gimple_get_lhs (gsi_stmt (gsi)));
    }
  free (bbs);
  return used;
}

/* The evolution of the address PTR (used in loop L of the nest N) over
   the nest, with its parameters at the nest's entry.  */
static tree
nf_dot_evolution (const struct nf_dot_nest *n, class loop *l, tree ptr)
{
  tree ev = analyze_scalar_evolution (l, ptr);
  return instantiate_scev (loop_preheader_edge (n->outer), l, ev);
}

/* Step 3 for the memory reference of the load or store STMT in loop L:
   its address's start *BASE at the nest's entry, its step per row
   *ROW (NULL_TREE: none) and per element *ELT (NULL_TREE: none), in
   bytes.  False when the evolution is not affine in the nest.  */
static bool
nf_dot_access (const struct nf_dot_nest *n, class loop *l, gimple *stmt,
	       tree ref, tree *base, tree *row, tree *elt)
{
  /* The address: the pointer of *p, else &ref (w[i][j] of a 2-D array,
     p->x[j]), which the scalar evolutions interpret as an expression.  */
  tree addr = TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1))
		  ? TREE_OPERAND (ref, 0)
		  : build_fold_addr_expr (ref);
  (void) stmt;
  tree ev = nf_dot_evolution (n, l, addr);
  *row = *elt = NULL_TREE;
  if (ev && TREE_CODE (ev) == POLYNOMIAL_CHREC
      && CHREC_VARIABLE (ev) == (unsigned) n->inner->num)
    {
      *elt = CHREC_RIGHT (ev);
      ev = CHREC_LEFT (ev);
    }
  if (ev && TREE_CODE (ev) == POLYNOMIAL_CHREC
      && CHREC_VARIABLE (ev) == (unsigned) n->outer->num)
    {
      *row = CHREC_RIGHT (ev);
      ev = CHREC_LEFT (ev);
    }
  if (!ev || chrec_contains_undetermined (ev) || tree_contains_chrecs (ev, NULL)
      || (*row && tree_contains_chrecs (*row, NULL))
      || (*elt && tree_contains_chrecs (*elt, NULL)))
    return false;
  *base = ev;
  return true;
}

/* Whether T is the constant ESZ.  */
static bool
nf_dot_step_is (tree t, tree esz)
{
  return t && TREE_CODE (t) == INTEGER_CST
	 && tree_int_cst_equal (fold_convert (sizetype, t), esz);
}

/* Step 3: the store and the two factors (the LOADs A and B of region G)
   as the output, the matrix and the vector.  */
static const char *
nf_dot_accesses (struct nf_dot_nest *n, struct nf_lregion *g, nf_value a,
		 nf_value b)
{
  tree base, row, elt;
  tree yref = gimple_assign_lhs (n->store);
  n->yelt = TREE_TYPE (yref);
  if (!nf_dot_access (n, n->outer, n->store, yref, &base, &row, &elt)
      || elt || !nf_dot_step_is (row, TYPE_SIZE_UNIT (n->yelt)))
    return NF_WHY_DOT_STORE_STRIDE;
  n->y0 = base;
  tree bases[2], rows[2];
  tree elts[2];
  nf_value f[2] = { a, b };
  for (int k = 0; k < 2; k++)
    {
      gimple *ld = nf_lr_stmt (g, f[k]);
      if (!ld || !gimple_assign_load_p (ld))
	return NF_WHY_NOT_AFFINE;
      tree ref = gimple_assign_rhs1 (ld);
      elts[k] = TREE_TYPE (ref);
      if (!nf_dot_access (n, n->inner, ld, ref, &bases[k], &rows[k], &elt))
	return NF_WHY_DOT_NEST_AFFINE;
      if (!nf_dot_step_is (elt, TYPE_SIZE_UNIT (elts[k])))
	return NF_WHY_DOT_READ_STRIDE;
    }
  if ((rows[0] == NULL_TREE) == (rows[1] == NULL_TREE))
    return rows[0] ? NF_WHY_DOT_BOTH_ROWS : NF_WHY_DOT_NO_ROWS;
  n->w_first = rows[0] != NULL_TREE;
  int w = n->w_first ? 0 : 1;
  n->w0 = bases[w];
  n->x0 = bases[1 - w];
  n->welt = elts[w];
  n->xelt = elts[1 - w];
  n->row_step = fold_convert (sizetype, rows[w]);
  /* A constant row step is n elements only for a constant n of that
     many: a sliding window (opus's celt_pitch_xcorr_c, y[i + j]) would
     pass the guard never, and its report would claim a call that never
     runs.  */
  tree wsz = TYPE_SIZE_UNIT (n->welt);
  if (TREE_CODE (n->row_step) == INTEGER_CST
      && (TREE_CODE (n->n) != INTEGER_CST
	  || !tree_int_cst_equal (n->row_step,
				  size_binop (MULT_EXPR,
					      fold_convert (sizetype, n->n),
					      wsz))))
    return NF_WHY_ROW_STEP;
  return NULL;
}

/* The element kind of the scalar type T.  */
static enum nf_elem
nf_dot_elem (tree t)
{
  if (!SCALAR_FLOAT_TYPE_P (t))
    return NF_ELEM_NONE;
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

/* Step 4: the nest as region IR (rank 2) from the row's region G (its
   REDUCE ANCHOR of the product P of the LOADs A and B), and its match
   in *M.  Returns the region, or NULL with *WHY set.  */
static nf_region *
nf_dot_region (const struct nf_dot_nest *n, struct nf_lregion *g,
	       nf_value anchor, nf_value p, nf_value a, nf_value b,
	       bool store_converts, nf_match *m, const char **why)
{
  const nf_region *r1 = g->r;
  char name[64];
  nf_dim nd = nf_value_type (r1, a).dims[0];
  nf_value wf = n->w_first ? a : b, xf = n->w_first ? b : a;
  nf_value_name (TREE_OPERAND (gimple_assign_lhs (n->store), 0), name,
		 sizeof name);
  struct nf_dot_nest_facts f;
  f.function = nf_region_function (r1);
  f.loc = nf_value_loc (r1, anchor);
  f.n_name = nd.sym >= 0 ? nf_region_sym_name (r1, nd.sym) : NULL;
  f.w_label = nf_value_label (r1, nf_access_base (r1, wf));
  f.x_label = nf_value_label (r1, nf_access_base (r1, xf));
  f.y_label = name;
  f.welt = nf_dot_elem (n->welt);
  f.xelt = nf_dot_elem (n->xelt);
  f.yelt = nf_dot_elem (n->yelt);
  f.prod = nf_value_type (r1, p).elem;
  f.accum = nf_value_type (r1, anchor).elem;
  f.w_first = n->w_first;
  f.store_converts = store_converts;
  return nf_dot_nest_region (&f, m, why);
}

/* The step 5 test: y disjoint from w and from x, the row step n
   elements of w, rows of at least MIN_N elements and at least MIN_ELEMS
   elements in all.  */
static tree
nf_dot_ok (const struct nf_dot_nest *n, unsigned min_n,
	   unsigned long min_elems)
{
  tree wsz = TYPE_SIZE_UNIT (n->welt);
  tree ybytes = size_binop (MULT_EXPR, n->rows, TYPE_SIZE_UNIT (n->yelt));
  tree wbytes = size_binop (MULT_EXPR, size_binop (MULT_EXPR, n->rows, n->n),
			    wsz);
  tree xbytes = size_binop (MULT_EXPR, n->n, TYPE_SIZE_UNIT (n->xelt));
  auto apart = [] (tree p, tree pb, tree q, tree qb) {
    tree pe = fold_build_pointer_plus (p, pb);
    tree qe = fold_build_pointer_plus (q, qb);
    return fold_build2 (
      TRUTH_OR_EXPR, boolean_type_node,
      fold_build2 (LE_EXPR, boolean_type_node, pe,
		   fold_convert (TREE_TYPE (pe), q)),
      fold_build2 (LE_EXPR, boolean_type_node, qe,
		   fold_convert (TREE_TYPE (qe), p)));
  };
  tree step = fold_build2 (
    TRUTH_OR_EXPR, boolean_type_node,
    fold_build2 (EQ_EXPR, boolean_type_node, n->n, size_zero_node),
    fold_build2 (EQ_EXPR, boolean_type_node, n->row_step,
		 size_binop (MULT_EXPR, n->n, wsz)));
  tree ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node,
			 apart (n->y0, ybytes, n->w0, wbytes),
			 apart (n->y0, ybytes, n->x0, xbytes));
  ok = fold_build2 (TRUTH_AND_EXPR, boolean_type_node, ok, step);
  tree pays = fold_build2 (GE_EXPR, boolean_type_node, n->n, size_int (min_n));
  if (min_elems)
    pays = fold_build2 (
      TRUTH_AND_EXPR, boolean_type_node, pays,
      fold_build2 (GE_EXPR, boolean_type_node,
		   size_binop (MULT_EXPR, n->rows, n->n),
		   build_int_cst (sizetype, min_elems)));
  return fold_build2 (TRUTH_AND_EXPR, boolean_type_node, pays, ok);
}

/* The store in OUTER's own blocks of a value computed in INNER (through
   copies and conversions), or NULL: the row sum a nest stores.  */
static gimple *
nf_dot_find_store (class loop *outer, class loop *inner)
{
  gimple *found = NULL;
  basic_block *bbs = get_loop_body (outer);
  for (unsigned i = 0; i < outer->num_nodes && !found; i++)
    {
      if (bbs[i]->loop_father != outer)
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  if (!gimple_store_p (s) || !is_gimple_assign (s))
	    continue;
	  bool conv = false;
	  tree v = nf_dot_strip (gimple_assign_rhs1 (s), &conv);
	  if (TREE_CODE (v) == SSA_NAME && SCALAR_FLOAT_TYPE_P (TREE_TYPE (v))
	      && gimple_bb (SSA_NAME_DEF_STMT (v))
	      && flow_bb_inside_loop_p (inner, gimple_bb (SSA_NAME_DEF_STMT (v))))
	    {
	      found = s;
	      break;
	    }
	}
    }
  free (bbs);
  return found;
}

/* Steps 1-3 for the inner loop N->inner, whose region G has the REDUCE
   ANCHOR (or none: the builder's reason is G->fail): fill *N, or return
   the reason.  *P, *A, *B are the row's product and factors.  A reason
   is given only for a nest that stores a sum of its inner loop per row
   (a near miss of a matrix-vector product); false with no reason for
   anything else.  */
static bool
nf_dot_nest_of (struct nf_lregion *g, nf_value anchor, struct nf_dot_nest *n,
		nf_value *p, nf_value *a, nf_value *b, bool *store_converts,
		const char **why)
{
  *why = NULL;
  n->outer = loop_outer (n->inner);
  if (!n->outer || !loop_outer (n->outer) || n->outer->inner != n->inner
      || n->inner->next || !nf_dot_find_store (n->outer, n->inner))
    return false;
  /* A row the builder could not take is a near miss only when it read
     the matrix with a stride (column-major): other failures (a call per
     element, a branch) say nothing about a matrix-vector product.  */
  if (anchor == NF_NO_VALUE)
    return *why = g->fail && strcmp (g->fail, NF_WHY_NOT_CONTIGUOUS) == 0
		    ? g->fail : NULL,
	   false;
  nf_match m1;
  bool row = nf_match_dot (g->r, anchor, &m1);
  nf_match_release (&m1);
  if (!row)
    return *why = m1.reason, false;
  *a = m1.input;
  *b = m1.weight;
  *p = nf_op_operand (g->r, anchor, 0);
  while (nf_op (g->r, *p) == NF_OP_CONVERT)
    *p = nf_op_operand (g->r, *p, 0);
  /* Step 2.  */
  n->store = nf_dot_outer_body (n->outer, why);
  if (!n->store)
    return false;
  /* Every row runs the inner loop (from the block of the guard its
     count includes) and stores: a conditional row is not the call's.  */
  if (!dominated_by_p (CDI_DOMINATORS, n->outer->latch,
		       gimple_bb (n->store))
      || !dominated_by_p (CDI_DOMINATORS, n->outer->latch,
			  g->loops[0].guard_bb))
    return *why = NF_WHY_DOT_SOME_ROWS, false;
  *store_converts = false;
  tree stored = nf_dot_strip (gimple_assign_rhs1 (n->store), store_converts);
  nf_value sv = TREE_CODE (stored) == SSA_NAME ? nf_lr_value (g, stored)
					       : NF_NO_VALUE;
  while (sv != NF_NO_VALUE && nf_op (g->r, sv) == NF_OP_CONVERT)
    sv = nf_op_operand (g->r, sv, 0);
  if (sv != anchor)
    return *why = NF_WHY_DOT_NOT_ONLY_STORED, false;
  if (nf_loop_used_after (n->outer))
    return *why = NF_WHY_LOOP_USED_AFTER, false;
  n->rows = nf_loop_body_count (n->outer, why);
  if (!n->rows)
    return false;
  n->n = g->loops[0].count;
  if (!expr_invariant_in_loop_p (n->outer, n->n))
    return *why = NF_WHY_DOT_ROW_LENGTH, false;
  /* Step 3.  */
  *why = nf_dot_accesses (n, g, *a, *b);
  return !*why;
}

/* Record and (in mode=rewrite) make the call of plan C for the nest N
   of match M (region R).  */
static void
nf_dot_outline (const struct nf_dot_nest *n, const nf_region *r,
		const nf_match *m, const nf_call *plan, bool *changed)
{
  struct nf_loop_call c;
  nf_loop_call_void (&c, NF_KIND_DOT, plan, n->welt);
  tree ptr_y = build_pointer_type (n->yelt);
  tree ptr_w = build_pointer_type (build_qualified_type (n->welt,
							  TYPE_QUAL_CONST));
  tree ptr_x = build_pointer_type (build_qualified_type (n->xelt,
							  TYPE_QUAL_CONST));
  c.args[0] = fold_convert (ptr_y, n->y0);
  c.args[1] = fold_convert (ptr_w, n->w0);
  c.args[2] = fold_convert (ptr_x, n->x0);
  c.args[3] = n->rows;
  c.args[4] = n->n;
  c.nargs = 5;
  c.ok = nf_dot_ok (n, plan->min_n, plan->min_elems);

  /* The outer loop's line; in a body GCC outlined for OpenMP (llama2.c's
     matmul._omp_fn.0) its header has none: the inner loop's, else the
     store's (a region at line 0 is no report entry a reader can use).  */
  dump_user_location_t loc = find_loop_location (n->outer);
  if (LOCATION_LOCUS (loc.get_location_t ()) == UNKNOWN_LOCATION)
    loc = find_loop_location (n->inner);
  if (LOCATION_LOCUS (loc.get_location_t ()) == UNKNOWN_LOCATION)
    loc = dump_user_location_t (n->store);
  /* The report names the arrays after the source (the region's labels
     may be GCC's temporaries): the matrix, the vector, the output.  */
  char wn[64], xn[64], yn[64];
  const char *ins[2] = { nf_source_array_name (n->w0, wn, sizeof wn),
			 nf_source_array_name (n->x0, xn, sizeof xn) };
  const char *outs[1] = { nf_source_array_name (n->y0, yn, sizeof yn) };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 1 };
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  nf_region_desc d;
  nf_region_desc_init (&d, NF_KIND_DOT, c.callee, nf_elem_name (elem),
		       nf_elem_name (m->accum), ins, 2, outs, 1);
  d.action = "outlined";
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, NF_KIND_DOT, elem, m->accum, false, false,
		      false);
  char msg[128];
  snprintf (msg, sizeof msg, "Dot: loop nest outlined into a call to %s",
	    c.callee);
  nf_record_region (loc, &d, msg, m);
  if (nf_opts.mode != NF_MODE_REWRITE)
    return;

  /* The region: the outer loop from its preheader to its exit.  */
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
}

bool
nf_loop_dot_attempt (class loop *inner, auto_vec<class loop *> &consumed,
		     const char **reason, bool *changed)
{
  *reason = NULL;
  if (!(nf_opts.kinds & NF_KIND_DOT) || !loop_outer (inner)
      || !loop_outer (loop_outer (inner)))
    return false;
  calculate_dominance_info (CDI_DOMINATORS);
  bool done = false;
  for (int guarded = 1; guarded >= 0 && !done; guarded--)
    {
      struct nf_lregion g;
      nf_value anchor = nf_lr_build (&g, inner, guarded);
      struct nf_dot_nest n;
      memset (&n, 0, sizeof n);
      n.inner = inner;
      nf_value p, a, b;
      bool conv = false;
      const char *why = NULL;
      if (nf_dot_nest_of (&g, anchor, &n, &p, &a, &b, &conv, &why))
	{
	  nf_match m;
	  nf_region *r = nf_dot_region (&n, &g, anchor, p, a, b, conv, &m,
					&why);
	  nf_call plan;
	  nf_call_flags fl = { flag_unsafe_math_optimizations != 0,
			       flag_associative_math != 0 };
	  if (r && !(why = nf_call_plan (r, &m, &fl, &plan))
	      && ((TREE_CODE (n.n) == INTEGER_CST
		   && tree_to_uhwi (n.n) < plan.min_n)
		  || (plan.min_elems && TREE_CODE (n.n) == INTEGER_CST
		      && TREE_CODE (n.rows) == INTEGER_CST
		      && tree_to_uhwi (n.rows) * tree_to_uhwi (n.n)
			   < plan.min_elems)))
	    why = NF_WHY_TOO_SHORT;
	  if (r && !why)
	    {
	      nf_dot_outline (&n, r, &m, &plan, changed);
	      consumed.safe_push (inner);
	      done = true;
	    }
	  if (r)
	    {
	      nf_match_release (&m);
	      nf_region_free (r);
	    }
	}
      if (why && !*reason)
	*reason = why;
      nf_lr_free (&g);
      if (done)
	*reason = NULL;
    }
  return done || *reason;
}
