/* loop-shape.cc: the shape of a loop region (loop-ir.cc): its loops,
   which are its dimensions, and the arrays they access, which are its
   tensor parameters.

   Step 1 of the builder, for each loop the data flow reaches
   (nf_lr_add_loop): 1. the loop is innermost and has a single exit;
   2. its work is one block: a do-while (the work, then the exit test,
   then an empty latch) or a while (a header that only tests the exit,
   the work in the latch); 3. its trip count comes from
   number_of_latch_executions (+ 1 for a do-while) and includes its
   zero-trip guard, cond ? niter + 1 : 0: the loop's own guard, or, for
   a later loop entered only through it, the first loop's (jump
   threading merges identical guards); 4. its dimension is an earlier
   loop's when the counts are equal, else a new symbol named after the
   count's core (the n of s / n, which the RMSNorm matcher compares with
   the mean's divisor).

   The arrays (nf_lr_array): each access of a loop is analysed by
   dr_analyze_innermost; it must be unconditional and contiguous (its
   step the element size: the kernels access every element), and its
   array parameter is the element it starts at, BASE + OFFSET, shared by
   the accesses that start there (s->x[j] and s->w[j] are two).

   Assumptions the guard tests at run time (G->assume): two loops whose
   counts differ only by a conversion of one variable, as ggml's
   int64_t sum loop and its (int) n scale loop, are one dimension if the
   counts are equal; and a load in a loop from memory that a memcpy
   before it filled (memcpy (y, x, n * 4), then y[i] *= scale) reads the
   copy's source, if the copy's bytes are the loop's elements (the copy
   is then written over by the fused call, which loop.cc checks).

   Limitations: loops of exactly two blocks; at most NF_LR_MAX_LOOPS
   loops and NF_LR_MAX_ARRAYS arrays; accesses with a stride of one
   element; a memcpy is found only in the blocks that dominate the loop,
   back to the region's start, with nothing but math calls writing
   memory after it.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "ir.h"
#include "reasons.h"
#include "nf-plugin.h"
#include "to-ir.h"
#include "loop-ir.h"

/* --- Step 1: loops.  ------------------------------------------------ */

/* Whether BB has no statement but labels, debug binds and its final
   jump.  */
bool
nf_lr_empty_bb (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    if (gimple_code (gsi_stmt (gsi)) != GIMPLE_COND
	&& gimple_code (gsi_stmt (gsi)) != GIMPLE_GOTO)
      return false;
  return true;
}

/* Whether BB only computes its exit test: integer and pointer
   arithmetic without memory, and the condition.  */
static bool
nf_lr_test_only_bb (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
       !gsi_end_p (gsi); gsi_next_nondebug (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if (gimple_code (s) == GIMPLE_COND)
	continue;
      if (!is_gimple_assign (s) || gimple_vuse (s)
	  || gimple_has_side_effects (s))
	return false;
      /* The widened accumulator of a _Float16 reduction, (float) acc.  */
      tree a = gimple_assign_rhs1 (s);
      if (CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (s))
	  && TREE_CODE (a) == SSA_NAME
	  && gimple_code (SSA_NAME_DEF_STMT (a)) == GIMPLE_PHI
	  && gimple_bb (SSA_NAME_DEF_STMT (a)) == bb)
	continue;
      if (!(INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_lhs (s)))
	    || POINTER_TYPE_P (TREE_TYPE (gimple_assign_lhs (s)))))
	return false;
    }
  return true;
}

/* The zero-trip guard of LOOP: the condition that ends the nearest block
   before its preheader (through single-successor blocks), with the edge
   *SKIP that goes around the loop and *ENTER_TRUE saying which way
   enters it.  NULL when the loop is entered unconditionally.  */
gcond *
nf_lr_find_guard (class loop *loop, edge *skip, bool *enter_true)
{
  basic_block b = loop_preheader_edge (loop)->src;
  for (int i = 0; i < 4; i++)
    {
      if (!single_pred_p (b))
	return NULL;
      edge e = single_pred_edge (b);
      basic_block p = e->src;
      if (p == ENTRY_BLOCK_PTR_FOR_FN (cfun)
	  || p->loop_father != loop_outer (loop))
	return NULL;
      if (single_succ_p (p))
	{
	  b = p;
	  continue;
	}
      gcond *c = safe_dyn_cast<gcond *> (last_stmt (p));
      if (!c || EDGE_COUNT (p->succs) != 2)
	return NULL;
      /* Not the test of an enclosing while loop.  */
      if (loop_exits_from_bb_p (p->loop_father, p))
	return NULL;
      *enter_true = (e->flags & EDGE_TRUE_VALUE) != 0;
      *skip = EDGE_SUCC (p, 0) == e ? EDGE_SUCC (p, 1) : EDGE_SUCC (p, 0);
      return c;
    }
  return NULL;
}

/* The core of trip count T, the value its dimension is named after: T
   with conversions and zero-trip conditions (c ? n : 0, MAX (n, 0))
   looked through.  */
static tree
nf_lr_count_core (tree t)
{
  for (;;)
    {
      if (CONVERT_EXPR_P (t) || TREE_CODE (t) == NON_LVALUE_EXPR)
	t = TREE_OPERAND (t, 0);
      else if (TREE_CODE (t) == COND_EXPR
	       && integer_zerop (TREE_OPERAND (t, 2)))
	t = TREE_OPERAND (t, 1);
      else if (TREE_CODE (t) == COND_EXPR
	       && integer_zerop (TREE_OPERAND (t, 1)))
	t = TREE_OPERAND (t, 2);
      else if (TREE_CODE (t) == MAX_EXPR && integer_zerop (TREE_OPERAND (t, 1)))
	t = TREE_OPERAND (t, 0);
      else
	return t;
    }
}

/* Record that the fused call of G assumes A == B (sizetype values);
   false when G assumes too much already.  */
static bool
nf_lr_assume (struct nf_lregion *g, tree a, tree b)
{
  if (g->n_assume == NF_LR_MAX_ASSUME)
    return false;
  g->assume[g->n_assume][0] = a;
  g->assume[g->n_assume++][1] = b;
  return true;
}

/* The block of LOOP, whose single exit is EXIT, that holds its work
   (step 1.2), or NULL with G->fail set when its shape is not
   supported.  */
static basic_block
nf_lr_work_block (struct nf_lregion *g, class loop *loop, edge exit)
{
  /* Do-while (the work, then the exit test, then an empty latch): what
     precedes the test runs niter + 1 times; a cdce diamond inside (an
     invariant sqrtf left in the loop) is allowed, its arms being values
     the PHI after them merges.  While (the header only tests, the latch
     does the work): niter times.  */
  if (nf_lr_empty_bb (loop->latch) && single_pred_p (loop->latch)
      && single_pred (loop->latch) == exit->src)
    return exit->src;
  if (loop->num_nodes != 2)
    return nf_lr_fail (g, "the loop body has branches"), (basic_block) NULL;
  if (exit->src == loop->header && nf_lr_test_only_bb (loop->header))
    return loop->latch;
  return nf_lr_fail (g, NF_WHY_LOOP_SHAPE),
	 (basic_block) NULL;
}

/* COUNT, the trip count of LOOP (G's next loop), under the zero-trip
   guard LOOP runs under (step 1.3): LOOP's own, looked for when LOOP is
   a later loop or G is guarded and returned in *GUARD (NULL when
   none), else the first loop's when only that guard lets LOOP in.
   Sets *SKIP to that guard's edge around the loop (or NULL) and
   *GUARD_BB to its block (or LOOP's preheader).  */
static tree
nf_lr_guarded_count (struct nf_lregion *g, class loop *loop, tree count,
		     gcond **guard, edge *skip, basic_block *guard_bb)
{
  *skip = NULL;
  bool enter_true = true;
  *guard = g->n_loops == 0 && !g->guarded
	     ? NULL
	     : nf_lr_find_guard (loop, skip, &enter_true);
  gcond *cguard = *guard;
  bool center = enter_true;
  *guard_bb = *guard ? gimple_bb (*guard) : loop_preheader_edge (loop)->src;
  /* A later loop without a guard of its own that runs only when the
     first loop's guard let it in (jump threading merges identical
     guards) counts under that guard too.  */
  if (!*guard && g->n_loops > 0 && g->loops[0].guard)
    {
      edge s0 = g->loops[0].skip;
      basic_block g0 = gimple_bb (g->loops[0].guard);
      edge in0
	= EDGE_SUCC (g0, 0) == s0 ? EDGE_SUCC (g0, 1) : EDGE_SUCC (g0, 0);
      if (single_pred_p (in0->dest)
	  && dominated_by_p (CDI_DOMINATORS, *guard_bb, in0->dest))
	{
	  cguard = g->loops[0].guard;
	  center = (in0->flags & EDGE_TRUE_VALUE) != 0;
	  *guard_bb = g0;
	  *skip = s0;
	}
    }
  if (cguard)
    {
      tree c = fold_build2 (gimple_cond_code (cguard), boolean_type_node,
			    gimple_cond_lhs (cguard), gimple_cond_rhs (cguard));
      if (!center)
	c = fold_build1 (TRUTH_NOT_EXPR, boolean_type_node, c);
      count = fold_build3 (COND_EXPR, sizetype, c, count, size_zero_node);
    }
  return count;
}

/* Set the dimension of loop K of G, whose trip count before its guard
   is TRIPS (step 1.4): an earlier loop's of the same count, or of a
   count that differs by a conversion (assumed equal), else a new
   symbol (none for a constant count).  */
static void
nf_lr_name_dim (struct nf_lregion *g, int k, tree trips)
{
  struct nf_lr_loop *l = &g->loops[k];
  tree count = l->count;
  l->sym = -1;
  for (int j = 0; j < k; j++)
    if (operand_equal_p (g->loops[j].count, count, 0))
      l->sym = g->loops[j].sym;
  /* Counts of one variable that differ by a conversion (ggml's scale
     loop runs (int) n times after a sum over the int64_t n): one
     dimension, which the guard checks at run time.  */
  for (int j = 0; j < k && l->sym == -1; j++)
    if (operand_equal_p (nf_lr_count_core (g->loops[j].count),
			 nf_lr_count_core (count), 0)
	&& nf_lr_assume (g, g->loops[j].count, count))
      l->sym = g->loops[j].sym;
  if (l->sym == -1 && TREE_CODE (count) != INTEGER_CST)
    {
      /* Named after its core, whose value (the n of s / n) the RMSNorm
	 matcher compares with the mean's divisor.  The first loop's
	 guard is the region's start, so the core is defined before.  */
      tree core = nf_lr_count_core (trips);
      char name[64] = "n";
      nf_value cv = NF_NO_VALUE;
      if (TREE_CODE (core) == SSA_NAME || TREE_CODE (core) == INTEGER_CST)
	{
	  const char *fail = g->fail;
	  if (TREE_CODE (core) == SSA_NAME)
	    nf_value_name (core, name, sizeof name);
	  cv = nf_lr_value (g, core);
	  g->fail = fail;
	}
      l->sym = nf_region_add_sym (g->r, name, cv);
    }
}

/* Add LOOP to G's loops (step 1).  Returns its index, or -1 with
   G->fail set.  */
int
nf_lr_add_loop (struct nf_lregion *g, class loop *loop)
{
  for (int k = 0; k < g->n_loops; k++)
    if (g->loops[k].loop == loop)
      return k;
  if (g->n_loops == NF_LR_MAX_LOOPS)
    return nf_lr_fail (g, NF_WHY_LOOPS), -1;
  if (loop->inner)
    return nf_lr_fail (g, "the loop is not innermost"), -1;
  edge exit = single_exit (loop);
  if (!exit)
    return nf_lr_fail (g, NF_WHY_EXITS), -1;
  basic_block body = nf_lr_work_block (g, loop, exit);
  if (!body)
    return -1;

  tree niter = number_of_latch_executions (loop);
  if (!niter || chrec_contains_undetermined (niter)
      || !INTEGRAL_TYPE_P (TREE_TYPE (niter)))
    return nf_lr_fail (g, NF_WHY_TRIP_COUNT), -1;
  tree ntype = TREE_TYPE (niter);
  tree trips = body != loop->latch
		 ? fold_build2 (PLUS_EXPR, ntype, niter, build_one_cst (ntype))
		 : niter;
  gcond *guard;
  edge skip;
  basic_block guard_bb;
  tree count = nf_lr_guarded_count (g, loop, fold_convert (sizetype, trips),
				    &guard, &skip, &guard_bb);

  int k = g->n_loops++;
  struct nf_lr_loop *l = &g->loops[k];
  l->loop = loop;
  l->exit = exit;
  l->body = body;
  l->guard = guard;
  l->skip = skip;
  l->guard_bb = guard_bb;
  l->count = count;
  nf_lr_name_dim (g, k, trips);
  return k;
}

/* The dimension of loop K.  */
nf_dim
nf_lr_dim (const struct nf_lregion *g, int k)
{
  const struct nf_lr_loop *l = &g->loops[k];
  if (l->sym >= 0)
    return nf_sym_dim (l->sym);
  return nf_const_dim (tree_to_shwi (l->count));
}

/* --- The arrays.  -------------------------------------------------- */

static nf_value nf_lr_array_at (struct nf_lregion *g, int k, tree base,
			       tree offset, tree type);

/* The array parameter of the memory reference REF of STMT in loop K,
   with the element offset of its first access in *OFF.  */
static nf_value
nf_lr_array (struct nf_lregion *g, int k, tree ref, gimple *stmt, int64_t *off)
{
  if (TREE_THIS_VOLATILE (ref) || gimple_has_volatile_ops (stmt))
    return nf_lr_fail (g, NF_WHY_LOOP_VOLATILE);
  /* Every iteration accesses it: the kernels access every element.  */
  if (!dominated_by_p (CDI_DOMINATORS, g->loops[k].body, gimple_bb (stmt)))
    return nf_lr_fail (g, "an array access in the loop is conditional");
  innermost_loop_behavior drb;
  if (!dr_analyze_innermost (&drb, ref, g->loops[k].loop, stmt))
    return nf_lr_fail (g, NF_WHY_NOT_AFFINE);
  tree type = TREE_TYPE (ref);
  tree esz = TYPE_SIZE_UNIT (type);
  /* A step known only at run time (GSL's v->data[i * v->stride], BLAS's
     x[i * incx]) is assumed to be the element size, which the guard
     tests: the call for the unit stride, the loop for any other.  Not in
     a loop nest, where such a step is a matrix's column (w[j * d + i]: a
     near miss of Dot, never of stride 1).  */
  class loop *lp = g->loops[k].loop;
  if (tree_fits_shwi_p (esz) && !tree_fits_shwi_p (drb.step)
      && loop_depth (lp) == 1 && expr_invariant_in_loop_p (lp, drb.step)
      && nf_lr_assume (g, drb.step, esz))
    drb.step = esz;
  if (!tree_fits_shwi_p (esz) || !tree_fits_shwi_p (drb.step)
      || tree_to_shwi (drb.step) != tree_to_shwi (esz)
      || !tree_fits_shwi_p (drb.init)
      || tree_to_shwi (drb.init) % tree_to_shwi (esz) != 0)
    return nf_lr_fail (g, NF_WHY_NOT_CONTIGUOUS);
  /* One array per first element: s->x[j] and s->w[j] have one base.  */
  *off = 0;
  tree offset = size_binop (PLUS_EXPR, fold_convert (sizetype, drb.offset),
			    fold_convert (sizetype, drb.init));
  return nf_lr_array_at (g, k, drb.base_address, offset, type);
}

/* The array parameter of the elements of TYPE from BASE + OFFSET
   (bytes) on, accessed in loop K: G's, or a new one.  */
static nf_value
nf_lr_array_at (struct nf_lregion *g, int k, tree base, tree offset,
		tree type)
{
  for (int i = 0; i < g->n_arrays; i++)
    if (operand_equal_p (g->arrays[i].base, base, 0)
	&& operand_equal_p (g->arrays[i].offset, offset, 0)
	&& TYPE_MAIN_VARIANT (g->arrays[i].elt_type)
	     == TYPE_MAIN_VARIANT (type))
      return g->arrays[i].param;
  if (g->n_arrays == NF_LR_MAX_ARRAYS)
    return nf_lr_fail (g, NF_WHY_ARRAYS);
  char name[64];
  /* Named after the pointer or the object: in + r * n is "in".  */
  tree b = base;
  while (TREE_CODE (b) == POINTER_PLUS_EXPR || CONVERT_EXPR_P (b)
	 || (TREE_CODE (b) == ADDR_EXPR && DECL_P (TREE_OPERAND (b, 0))))
    b = TREE_OPERAND (b, 0);
  nf_value_name (b, name, sizeof name);
  struct nf_lr_array *a = &g->arrays[g->n_arrays++];
  a->base = base;
  a->offset = offset;
  a->elt_type = type;
  a->param = nf_param (
    g->r, name, nf_tensor1_type (nf_elem_of (type), nf_lr_dim (g, k)), true);
  return a->param;
}

/* The base and byte offset, in *BASE and *OFFSET, that an access of
   loop K through the pointer PTR (defined before the loop, used by
   STMT) has: the decomposition dr_analyze_innermost gives the loop's own
   accesses, so that memcpy (y, x, ...) and a loop's y[i] and x[i] name
   their arrays alike (y = dst->data + row * nb1 is one base and an
   offset, not the pointer).  False when it cannot be analysed.  */
bool
nf_lr_pointer_address (const struct nf_lregion *g, int k, tree ptr,
		       gimple *stmt, tree *base, tree *offset)
{
  if (!POINTER_TYPE_P (TREE_TYPE (ptr)))
    return false;
  tree ref = build2 (MEM_REF, char_type_node, ptr,
		     build_int_cst (TREE_TYPE (ptr), 0));
  innermost_loop_behavior drb;
  if (!dr_analyze_innermost (&drb, ref, g->loops[k].loop, stmt))
    return false;
  *base = drb.base_address;
  *offset = size_binop (PLUS_EXPR, fold_convert (sizetype, drb.offset),
			fold_convert (sizetype, drb.init));
  return true;
}

/* The memcpy in the scalar code before loop K that last wrote the
   memory at BASE + OFFSET (its destination), or NULL.  Looks back from
   the loop's preheader through the blocks dominating it, up to the
   region's start, past math calls (which write errno only); any other
   write to memory on the way ends the search.  */
static gcall *
nf_lr_copy_into (const struct nf_lregion *g, int k, tree base, tree offset)
{
  for (basic_block bb = loop_preheader_edge (g->loops[k].loop)->src;
       bb && dominated_by_p (CDI_DOMINATORS, bb, g->start_bb);
       bb = get_immediate_dominator (CDI_DOMINATORS, bb))
    {
      if (bb->loop_father != loop_outer (g->loops[0].loop))
	return NULL; /* A loop of the region's in between.  */
      for (gimple_stmt_iterator gsi = gsi_last_bb (bb); !gsi_end_p (gsi);
	   gsi_prev (&gsi))
	{
	  gimple *s = gsi_stmt (gsi);
	  int nargs;
	  if (!gimple_vdef (s))
	    continue;
	  if (gimple_call_builtin_p (s, BUILT_IN_MEMCPY))
	    {
	      tree b, o;
	      bool same = nf_lr_pointer_address (g, k, gimple_call_arg (s, 0),
						 s, &b, &o)
			  && operand_equal_p (b, base, 0)
			  && operand_equal_p (o, offset, 0);
	      return same ? as_a<gcall *> (s) : NULL;
	    }
	  if (!is_gimple_call (s)
	      || nf_lr_call_op (s, &nargs)
		   == NF_OP_COUNT_)
	    return NULL;
	}
      if (bb == g->start_bb)
	break;
    }
  return NULL;
}

/* The array a load of loop K at BASE + OFFSET, elements of TYPE,
   reads: the source of a memcpy that filled it before the loop (ggml's
   rms_norm copies x to y, then scales y in place), so that the load is
   of what was copied; else NF_NO_VALUE.  The guard then checks that the
   copy's bytes are the loop's elements (G->assume), and the check of
   the region that the fused call writes the whole destination.  */
static nf_value
nf_lr_copied_from (struct nf_lregion *g, int k, tree base, tree offset,
		   tree type)
{
  gcall *copy = nf_lr_copy_into (g, k, base, offset);
  if (!copy || g->n_copies == NF_LR_MAX_COPIES)
    return NF_NO_VALUE;
  tree src, src_offset;
  if (!nf_lr_pointer_address (g, k, gimple_call_arg (copy, 1), copy, &src,
			      &src_offset))
    return NF_NO_VALUE;
  tree bytes = size_binop (MULT_EXPR, fold_convert (sizetype,
						     g->loops[k].count),
			   fold_convert (sizetype, TYPE_SIZE_UNIT (type)));
  if (!nf_lr_assume (g, gimple_call_arg (copy, 2), bytes))
    return NF_NO_VALUE;
  g->copy_loop[g->n_copies] = k;
  g->copies[g->n_copies++] = copy;
  return nf_lr_array_at (g, k, src, src_offset, type);
}

/* The LOAD of STMT, a load in loop K.  */
nf_value
nf_lr_load (struct nf_lregion *g, int k, gimple *stmt)
{
  int64_t off;
  tree ref = gimple_assign_rhs1 (stmt);
  nf_value p = nf_lr_array (g, k, ref, stmt, &off);
  if (p == NF_NO_VALUE)
    return p;
  const struct nf_lr_array *a = nf_lr_array_of (g, p);
  nf_value from = nf_lr_copied_from (g, k, a->base, a->offset, a->elt_type);
  if (from != NF_NO_VALUE)
    p = from;
  nf_type t = nf_tensor1_type (nf_elem_of (TREE_TYPE (ref)), nf_lr_dim (g, k));
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_LOAD && nf_access_base (g->r, v) == p
	&& nf_access_offset (g->r, v) == off
	&& nf_type_equal (nf_value_type (g->r, v), t))
      return v;
  return nf_load (g->r, p, t, off, 1, 0);
}

/* The STORE STMT in loop K (step 3); NF_NO_VALUE when it cannot be
   built.  */
nf_value
nf_lr_store (struct nf_lregion *g, int k, gimple *stmt)
{
  int64_t off;
  tree ref = gimple_assign_lhs (stmt);
  nf_value p = nf_lr_array (g, k, ref, stmt, &off);
  if (p == NF_NO_VALUE)
    return p;
  nf_value v = nf_lr_value (g, gimple_assign_rhs1 (stmt));
  if (v == NF_NO_VALUE)
    return v;
  if (nf_value_type (g->r, v).rank == 0)
    v = nf_broadcast (
      g->r, v,
      nf_tensor1_type (nf_value_type (g->r, v).elem, nf_lr_dim (g, k)));
  nf_value s = nf_store (g->r, p, v, off, 1, 0);
  return nf_lr_note (g, s, NULL_TREE, stmt);
}

/* Whether the load STMT in the scalar code reads what it would read at
   the region's entry: it is not volatile and no loop of the region that
   stores runs before it.  */
bool
nf_lr_hoistable_load (const struct nf_lregion *g, gimple *stmt)
{
  if (gimple_has_volatile_ops (stmt) || stmt_could_throw_p (cfun, stmt))
    return false;
  for (int k = 0; k < g->n_loops; k++)
    {
      class loop *loop = g->loops[k].loop;
      bool stores = false;
      basic_block *bbs = get_loop_body (loop);
      for (unsigned i = 0; i < loop->num_nodes; i++)
	for (gimple_stmt_iterator gsi = gsi_start_bb (bbs[i]); !gsi_end_p (gsi);
	     gsi_next (&gsi))
	  stores |= gimple_vdef (gsi_stmt (gsi)) != NULL_TREE;
      free (bbs);
      if (stores
	  && dominated_by_p (CDI_DOMINATORS, gimple_bb (stmt), loop->header))
	return false;
    }
  return true;
}
