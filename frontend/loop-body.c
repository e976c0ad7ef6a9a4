/* loop-body.c: the body of a region's first loop as region IR (the
   libclang twin of plugin/loop-value.cc's reductions): its temporaries
   and its sums.  loop-ir.c analyses the loop, loop-expr.c builds the
   expressions.

     float ss = 0, dot = 0;
     for (int j = 0; j < n; j++)
       { float v = x[j] + r[j]; dot += x[j] * y[j]; ss += v * v; }
     ss = 1.0f / sqrtf (ss / n + 1e-5f);    (dot read nowhere after)

   1. The body is one statement or a compound of them (nf_lp_reduction),
      each, in order: a declaration of floating-point temporaries
      (float v = E, or float v), an assignment to one the body declares
      (v = E), or an accumulation acc += E (nf_lp_accumulation) into a
      variable declared outside the loop.  Anything else is not built
      ("the loop's shape is not supported").
   2. A temporary is just a value: E in the loop (an SSA name of the
      plugin's loop body), which later statements read.
   3. An accumulation is a REDUCE of E, broadcast when scalar, whose init
      is acc's value before the loop (nf_lp_init): the statement just
      before it (float ss = 0.0f;) or acc itself.  The first sum used
      after the loop is the region's (G->reduce), as the plugin's first
      reduction leaving the loop; loop.c tries the others too, and
      refuses a match while another sum of the loop is used after it.
   4. In a compound body, a sum read nowhere after the loop (dot) is dead
      code that GCC deletes before the plugin sees the loop: not built,
      and kept in G->dead for the rewrite (its variable stays declared).
   5. An accumulator also read elsewhere in the body, or accumulated
      twice, is no simple accumulation ("the reduction is not a simple
      accumulation").

   Limitations: temporaries declared in the body only (an assignment to
   a variable of the function is not built), at most NF_LP_SUMS sums,
   and the inits of the sums in the statement just before the loop.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "loop-int.h"

/* The value of the variable ACC before the region starting at the
   statement after PREV (a null cursor: none): PREV's initializer or
   assignment of it.  */
static nf_value
nf_lp_init (struct nf_lp *g, CXCursor acc, CXCursor prev)
{
  if (nf_lp_find_var (g, acc) >= 0 || clang_Cursor_isNull (prev))
    return nf_lp_read (g, acc, acc);
  CXCursor k[2];
  if (clang_getCursorKind (prev) == CXCursor_DeclStmt)
    {
      CXCursor vd[4];
      int n = nf_ast_children (prev, vd, 4);
      for (int i = 0; i < n && i < 4; i++)
	if (nf_lp_same_decl (vd[i], acc))
	  {
	    CXCursor in = clang_Cursor_getVarDeclInitializer (vd[i]);
	    if (!clang_Cursor_isNull (in))
	      return nf_lp_convert (g, nf_lp_expr (g, in, -1),
				    nf_ast_elem (clang_getCursorType (acc)));
	  }
    }
  else if (nf_ast_binop (prev) == CXBinaryOperator_Assign
	   && nf_ast_children (prev, k, 2) == 2
	   && nf_lp_same_decl (nf_lp_var_of (k[0]), acc))
    return nf_lp_convert (g, nf_lp_expr (g, k[1], -1),
			  nf_ast_elem (clang_getCursorType (acc)));
  return nf_lp_read (g, acc, acc);
}

/* Step 3: the REDUCE of the accumulation into ACC (of ELEM) of E in
   loop 0, ACC's init from the statement PREV.  */
static nf_value
nf_lp_sum (struct nf_lp *g, CXCursor acc, enum nf_elem elem, CXCursor e,
	   CXCursor prev)
{
  nf_value init = nf_lp_init (g, acc, prev);
  nf_value in = nf_lp_expr (g, e, 0);
  if (init == NF_NO_VALUE || in == NF_NO_VALUE)
    return NF_NO_VALUE;
  /* A _Float16 accumulator sums in float (C's excess precision): the
     float sum is the reduction, as the plugin's IR has it.  */
  if (elem == NF_ELEM_F16)
    {
      in = nf_lp_convert (g, in, NF_ELEM_F32);
      g->acc_f16 = true;
    }
  else
    in = nf_lp_convert (g, in, elem);
  enum nf_elem ie = nf_value_type (g->r, in).elem;
  if (nf_value_type (g->r, in).rank == 0)
    in = nf_broadcast (g->r, in, nf_tensor1_type (ie, nf_lp_dim (g, 0)));
  nf_value v = nf_reduce (g->r, in, init, NF_OP_ADD, 1u);
  nf_lp_set_var (g, acc, v, false);
  return v;
}

/* The number of references to DECL inside the cursor C.  */
static int
nf_lp_refs_in (CXCursor c, CXCursor decl)
{
  struct nf_lp_refs refs = { decl, 0, 0, 0 };
  clang_visitChildren (c, nf_lp_count_refs, &refs);
  return refs.n;
}

/* Step 4: whether the sum into ACC of loop 0 is read nowhere after the
   loop: no reference after it, none before it but in its init PREV.  */
static bool
nf_lp_sum_dead (const struct nf_lp *g, CXCursor acc, CXCursor prev)
{
  CXCursor loop = g->loops[0].stmt;
  struct nf_lp_refs after = { acc, nf_ast_end (loop), 0, 0 };
  struct nf_lp_refs before = { acc, 0, 0, nf_ast_begin (loop) };
  clang_visitChildren (g->fn, nf_lp_count_refs, &after);
  clang_visitChildren (g->fn, nf_lp_count_refs, &before);
  if (!clang_Cursor_isNull (prev))
    before.n -= nf_lp_refs_in (prev, acc);
  return after.n == 0 && before.n <= 0;
}

/* Step 1: the temporaries the body statement C declares, or the one it
   assigns (declared in BODY); false when C is neither.  */
static bool
nf_lp_temporary (struct nf_lp *g, CXCursor c, CXCursor body)
{
  CXCursor vd[4], k[2];
  if (clang_getCursorKind (c) == CXCursor_DeclStmt)
    {
      int n = nf_ast_children (c, vd, 4);
      if (n < 1 || n > 4)
	return false;
      for (int i = 0; i < n && !g->fail; i++)
	{
	  CXCursor in = clang_Cursor_getVarDeclInitializer (vd[i]);
	  enum nf_elem e = nf_ast_elem (clang_getCursorType (vd[i]));
	  if (clang_getCursorKind (vd[i]) != CXCursor_VarDecl
	      || !nf_elem_is_float (e))
	    return false;
	  /* (float d; d = x[i]; the assignment sets it.)  */
	  if (!clang_Cursor_isNull (in))
	    nf_lp_set_var (g, vd[i],
			   nf_lp_convert (g, nf_lp_expr (g, in, 0), e), false);
	}
      return true;
    }
  if (nf_ast_binop (c) != CXBinaryOperator_Assign
      || nf_ast_children (c, k, 2) != 2)
    return false;
  CXCursor v = nf_lp_var_of (k[0]);
  enum nf_elem e = nf_ast_elem (clang_getCursorType (k[0]));
  if (clang_Cursor_isNull (v) || !nf_elem_is_float (e)
      || nf_ast_begin (v) < nf_ast_begin (body)
      || nf_ast_begin (v) >= nf_ast_end (body))
    return false;
  nf_lp_set_var (g, v, nf_lp_convert (g, nf_lp_expr (g, k[1], 0), e), false);
  return true;
}

nf_value
nf_lp_reduction (struct nf_lp *g, CXCursor body, CXCursor prev)
{
  CXCursor stmts[NF_LP_VARS + 1], k[2];
  int n = 1;
  bool compound = clang_getCursorKind (body) == CXCursor_CompoundStmt;
  if (!compound)
    stmts[0] = body;
  else if ((n = nf_ast_children (body, stmts, NF_LP_VARS + 1)) > NF_LP_VARS)
    return nf_lp_fail (g, NF_WHY_LOOP_SHAPE);
  CXCursor accs[NF_LP_SUMS];
  int n_accs = 0;
  g->conv_floor = nf_region_n_values (g->r);
  g->reduce = NF_NO_VALUE;
  for (int i = 0; i < n && !g->fail; i++)
    {
      if (!nf_lp_accumulation (stmts[i], &k[0], &k[1]))
	{
	  if (!compound || !nf_lp_temporary (g, stmts[i], body))
	    return compound ? nf_lp_fail (g, NF_WHY_LOOP_SHAPE)
			    : NF_NO_VALUE; /* No candidate.  */
	  continue;
	}
      CXCursor acc = nf_lp_var_of (k[0]);
      enum nf_elem elem = nf_ast_elem (clang_getCursorType (k[0]));
      if (clang_Cursor_isNull (acc) || !nf_elem_is_float (elem))
	return compound ? nf_lp_fail (g, NF_WHY_LOOP_SHAPE) : NF_NO_VALUE;
      /* Step 5: read only by its own accumulation, once.  */
      if (compound
	  && nf_lp_refs_in (body, acc) != nf_lp_refs_in (stmts[i], acc))
	return nf_lp_fail (g, NF_WHY_ACCUMULATION);
      for (int j = 0; j < n_accs; j++)
	if (nf_lp_same_decl (accs[j], acc))
	  return nf_lp_fail (g, NF_WHY_ACCUMULATION);
      if (n_accs == NF_LP_SUMS)
	return nf_lp_fail (g, NF_WHY_LOOP_SHAPE);
      accs[n_accs++] = acc;
      if (compound && nf_lp_sum_dead (g, acc, prev))
	{
	  g->dead[g->n_dead++] = acc;
	  continue;
	}
      nf_value v = nf_lp_sum (g, acc, elem, k[1], prev);
      if (v != NF_NO_VALUE && g->reduce == NF_NO_VALUE)
	{
	  g->reduce = v;
	  g->acc = acc;
	}
    }
  return g->fail ? NF_NO_VALUE : g->reduce;
}
