/* loop-softmax-check.c: the Softmax kind's small questions about
   cursors, the loops' headers and accesses, and the region's checks
   (steps 4 and 5 of loop-softmax.c's comment, plugin/loop-softmax.cc's
   nf_sm_region_blocks and nf_sm_accesses): no other exit or nested
   loop, the statements between the loops without calls or stores,
   nothing the region sets read after it; then each access base[i + c]
   with an invariant base, the max's elements the exp loop's from the
   same or the next one, the divide loop reading where the exp loop
   stored, the bounds invariant.

   Limitations: an access's base is compared by its text (x and x + 0
   are two arrays, whose distance is unknown: "other values" for the
   matcher); a variable the region sets is "read after" when any
   reference follows it but in a later for loop setting it first
   (nf_lp_read_outside_range), a final induction variable the plugin
   recomputes included.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <string.h>

#include "loop-softmax.h"

/* --- Small questions.  --- */

/* The one statement of a compound BODY, or BODY.  */
CXCursor
nf_sm_one (CXCursor body)
{
  CXCursor k[2];
  if (clang_getCursorKind (body) == CXCursor_CompoundStmt
      && nf_ast_children (body, k, 2) == 1)
    return nf_sm_one (k[0]);
  return body;
}

/* Whether A and B are the same expression of the main file (cursors
   reached by different walks may not compare equal).  */
bool
nf_sm_same (CXCursor a, CXCursor b)
{
  return clang_getCursorKind (a) == clang_getCursorKind (b)
	 && nf_ast_begin (a) == nf_ast_begin (b)
	 && nf_ast_end (a) == nf_ast_end (b);
}

/* Whether C (stripped) reads the variable DECL.  */
bool
nf_sm_is (CXCursor c, CXCursor decl)
{
  return nf_lp_same_decl (nf_lp_var_of (c), decl);
}

/* Whether DECL is a local, non-volatile variable of a floating type:
   what GIMPLE holds in SSA names.  */
bool
nf_sm_local_float (CXCursor decl)
{
  enum CXCursorKind k = clang_getCursorKind (decl);
  CXType t = clang_getCursorType (decl);
  return (k == CXCursor_ParmDecl
	  || (k == CXCursor_VarDecl
	      && !clang_Cursor_hasVarDeclGlobalStorage (decl)))
	 && nf_elem_is_float (nf_ast_elem (t))
	 && !clang_isVolatileQualifiedType (t);
}

/* References to DECL in the statements of SM's list from FROM on.  */
int
nf_sm_refs (const struct nf_sm *sm, CXCursor decl, int from)
{
  struct nf_lp_refs r = { decl, 0, 0, 0 };
  for (int j = from; j < sm->n; j++)
    clang_visitChildren (sm->stmts[j], nf_lp_count_refs, &r);
  return r.n;
}

/* The first statement of SM's list from FROM on referring to DECL, or
   -1.  */
int
nf_sm_holding (const struct nf_sm *sm, CXCursor decl, int from)
{
  for (int j = from; j < sm->n; j++)
    {
      struct nf_lp_refs r = { decl, 0, 0, 0 };
      clang_visitChildren (sm->stmts[j], nf_lp_count_refs, &r);
      if (r.n)
	return j;
    }
  return -1;
}

/* The statement before BEFORE in SM's list that last sets DECL (its
   declaration or `DECL = E'), E in *VALUE; -1 when another statement
   refers to it first, or none does.  */
int
nf_sm_setter (const struct nf_sm *sm, CXCursor decl, int before,
	      CXCursor *value)
{
  CXCursor k[8];
  for (int j = before - 1; j >= 0; j--)
    {
      CXCursor st = sm->stmts[j];
      int nk = clang_getCursorKind (st) == CXCursor_DeclStmt
		 ? nf_ast_children (st, k, 8)
		 : 0;
      for (int q = 0; q < nk && q < 8; q++)
	if (nf_lp_same_decl (k[q], decl))
	  {
	    *value = clang_Cursor_getVarDeclInitializer (k[q]);
	    return clang_Cursor_isNull (*value) ? -1 : j;
	  }
      if (nf_ast_binop (st) == CXBinaryOperator_Assign
	  && nf_ast_children (st, k, 2) == 2 && nf_sm_is (k[0], decl))
	{
	  *value = k[1];
	  return j;
	}
      struct nf_lp_refs r = { decl, 0, 0, 0 };
      clang_visitChildren (st, nf_lp_count_refs, &r);
      if (r.n)
	return -1;
    }
  return -1;
}

/* Where the variable DECL's value before the region stops mattering:
   its setter's statement before A when it is an assignment (the
   setter's reads are not of the region's value), else A.  */
size_t
nf_sm_from (const struct nf_sm *sm, CXCursor decl)
{
  CXCursor v;
  int j = nf_sm_setter (sm, decl, sm->ia, &v);
  if (j >= 0 && clang_getCursorKind (sm->stmts[j]) != CXCursor_DeclStmt)
    return nf_ast_begin (sm->stmts[j]);
  return nf_ast_begin (sm->l[0].stmt);
}

/* The location GCC gives the loop A of SM (find_loop_location: its
   condition's operator), which the plugin's entries and dumps carry.  */
void
nf_sm_loc (const struct nf_sm *sm, unsigned *line, unsigned *column)
{
  CXCursor k[4];
  size_t off;
  CXCursor a = sm->l[0].stmt;
  if (nf_ast_children (a, k, 4) != 4
      || !nf_ast_operator_loc (sm->s->t->tu, k[1], &off, line, column))
    nf_lp_loc (a, line, column);
}

/* A constant, with -INFINITY and friends (__builtin_inff ()).  */
bool
nf_sm_const (CXCursor c, double *v)
{
  if (nf_ast_const (c, v))
    return true;
  CXEvalResult r = clang_Cursor_Evaluate (c);
  if (!r)
    return false;
  bool ok = clang_EvalResult_getKind (r) == CXEval_Float;
  if (ok)
    *v = clang_EvalResult_getAsDouble (r);
  clang_EvalResult_dispose (r);
  return ok;
}

static enum CXChildVisitResult
nf_sm_shape_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_sm_shape *d = data;
  CXCursor k[2];
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  d->loops += kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt
	      || kind == CXCursor_DoStmt;
  d->exits += kind == CXCursor_BreakStmt || kind == CXCursor_ReturnStmt
	      || kind == CXCursor_GotoStmt;
  if ((kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr
       || kind == CXCursor_ArraySubscriptExpr)
      && clang_isVolatileQualifiedType (clang_getCursorType (c)))
    d->vol = true;
  if ((kind == CXCursor_CompoundAssignOperator
       || nf_ast_binop (c) == CXBinaryOperator_Assign)
      && nf_ast_children (c, k, 2) == 2
      && nf_sm_local_float (nf_lp_var_of (k[0])))
    d->float_set = true;
  return CXChildVisit_Recurse;
}

struct nf_sm_shape
nf_sm_shape_of (CXCursor c)
{
  struct nf_sm_shape d = { 0, 0, false, false };
  nf_sm_shape_visit (c, clang_getNullCursor (), &d);
  clang_visitChildren (c, nf_sm_shape_visit, &d);
  return d;
}

/* C without parentheses and integer conversions.  */
static CXCursor
nf_sm_strip_int (CXCursor c)
{
  for (int k = 0; k < 8; k++)
    {
      c = nf_ast_strip_noop (c);
      CXCursor in = nf_ast_cast_operand (c);
      enum nf_elem e = clang_Cursor_isNull (in)
			 ? NF_ELEM_NONE
			 : nf_ast_elem (clang_getCursorType (in));
      if (e == NF_ELEM_NONE || nf_elem_is_float (e))
	return c;
      c = in;
    }
  return c;
}

/* --- The loops' headers and accesses.  --- */

/* Parse the for statement C into L: the induction variable of its
   init, then START, BOUND and the step; L->header says whether all
   are the form.  Returns L->header.  */
bool
nf_sm_header (CXCursor c, struct nf_sm_loop *l)
{
  CXCursor k[4], v[2], ab[2], start = clang_getNullCursor ();
  double d;
  memset (l, 0, sizeof *l);
  l->stmt = c;
  l->ivar = l->bound = l->body = clang_getNullCursor ();
  if (clang_getCursorKind (c) != CXCursor_ForStmt
      || nf_ast_children (c, k, 4) != 4)
    return false;
  l->body = k[3];
  if (clang_getCursorKind (k[0]) == CXCursor_DeclStmt
      && nf_ast_children (k[0], v, 2) == 1)
    {
      l->ivar = v[0];
      start = clang_Cursor_getVarDeclInitializer (v[0]);
    }
  else if (nf_ast_binop (k[0]) == CXBinaryOperator_Assign
	   && nf_ast_children (k[0], ab, 2) == 2)
    {
      l->ivar = nf_lp_var_of (ab[0]);
      start = ab[1];
    }
  enum nf_elem ie = clang_Cursor_isNull (l->ivar)
		      ? NF_ELEM_NONE
		      : nf_ast_elem (clang_getCursorType (l->ivar));
  if (ie == NF_ELEM_NONE || nf_elem_is_float (ie) || clang_Cursor_isNull (start)
      || !nf_ast_const (start, &d) || d < 0 || d > 64 || d != (int64_t) d)
    return false;
  l->start = (int64_t) d;
  if (nf_ast_binop (k[1]) != CXBinaryOperator_LT
      || nf_ast_children (k[1], ab, 2) != 2 || !nf_sm_is (ab[0], l->ivar))
    return false;
  l->bound = nf_ast_strip_noop (ab[1]);
  enum nf_elem be = nf_ast_elem (clang_getCursorType (l->bound));
  bool effects = clang_getCursorKind (l->bound) == CXCursor_CallExpr;
  clang_visitChildren (l->bound, nf_lp_effect_visit, &effects);
  if ((be != NF_ELEM_I32 && be != NF_ELEM_I64) || effects)
    return false;
  l->is_signed = !nf_ast_unsigned (clang_getCursorType (l->bound));
  /* i++, ++i, i += 1.  */
  CXCursor inc = k[2];
  if (clang_getCursorKind (inc) == CXCursor_UnaryOperator)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (inc);
      l->header = (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc)
		  && nf_ast_children (inc, ab, 1) == 1
		  && nf_sm_is (ab[0], l->ivar);
    }
  else if (clang_getCursorKind (inc) == CXCursor_CompoundAssignOperator
	   && clang_getCursorBinaryOperatorKind (inc)
		== CXBinaryOperator_AddAssign
	   && nf_ast_children (inc, ab, 2) == 2)
    l->header = nf_sm_is (ab[0], l->ivar) && nf_ast_const (ab[1], &d) && d == 1;
  return l->header;
}

/* The access E of the loop L as A: base[i], base[i + c], base[c + i]
   or base[i - c] with a base that has no side effect.  */
static void
nf_sm_access (const struct nf_sm_loop *l, CXCursor e, struct nf_sm_acc *a)
{
  CXCursor k[2];
  double v;
  memset (a, 0, sizeof *a);
  a->expr = e = nf_ast_strip_noop (e);
  if (clang_getCursorKind (e) != CXCursor_ArraySubscriptExpr
      || nf_ast_children (e, k, 2) != 2 || clang_Cursor_isNull (l->ivar))
    return;
  a->base = k[0];
  CXCursor idx = nf_sm_strip_int (k[1]), ik[2];
  enum CXBinaryOperatorKind op = nf_ast_binop (idx);
  if (nf_sm_is (idx, l->ivar))
    a->ok = true;
  else if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
	   && nf_ast_children (idx, ik, 2) == 2)
    for (int s = 0; s < 2 && !a->ok; s++)
      if (nf_sm_is (nf_sm_strip_int (ik[s]), l->ivar)
	  && nf_ast_const (nf_sm_strip_int (ik[1 - s]), &v)
	  && v == (double) (int64_t) v && v < 0x1p30 && v > -0x1p30
	  && (op == CXBinaryOperator_Add || s == 0))
	{
	  a->off = op == CXBinaryOperator_Add ? (int64_t) v : -(int64_t) v;
	  a->ok = true;
	}
  bool effects = clang_getCursorKind (a->base) == CXCursor_CallExpr;
  struct nf_lp_refs r = { l->ivar, 0, 0, 0 };
  clang_visitChildren (a->base, nf_lp_effect_visit, &effects);
  clang_visitChildren (a->base, nf_lp_count_refs, &r);
  a->ok &= !effects && r.n == 0 && !nf_sm_is (a->base, l->ivar);
}

/* The first element A of loop L accesses.  */
int64_t
nf_sm_first (const struct nf_sm_acc *a, const struct nf_sm_loop *l)
{
  return a->off + l->start;
}

/* Whether A (of loop LA) and B (of LB) start at the same element of
   one base written the same: then *D is how many elements A's first
   is after B's.  */
bool
nf_sm_distance (const nf_tool *t, const struct nf_sm_acc *a,
		const struct nf_sm_loop *la, const struct nf_sm_acc *b,
		const struct nf_sm_loop *lb, int64_t *d)
{
  if (!nf_lp_same_text (t, a->base, b->base))
    return false;
  *d = nf_sm_first (a, la) - nf_sm_first (b, lb);
  return true;
}

/* --- Step 4: what the region does besides.  --- */

/* Whether an expression has an effect besides setting local variables:
   a call, a store to memory, a volatile access.  */
static enum CXChildVisitResult
nf_sm_effect_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  bool *found = data;
  CXCursor k[2];
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  CXCursor target = clang_getNullCursor ();
  if (kind == CXCursor_CallExpr
      || ((kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr
	   || kind == CXCursor_ArraySubscriptExpr)
	  && clang_isVolatileQualifiedType (clang_getCursorType (c))))
    *found = true;
  if ((kind == CXCursor_CompoundAssignOperator
       || nf_ast_binop (c) == CXBinaryOperator_Assign)
      && nf_ast_children (c, k, 2) == 2)
    target = k[0];
  if (kind == CXCursor_UnaryOperator && nf_ast_children (c, k, 1) == 1)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (c);
      if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec
	  || u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec)
	target = k[0];
    }
  if (!clang_Cursor_isNull (target))
    {
      CXCursor v = nf_lp_var_of (target);
      if (clang_Cursor_isNull (v)
	  || clang_Cursor_hasVarDeclGlobalStorage (v) == 1)
	*found = true;
    }
  return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Step 4: the statements of SM's list strictly between FROM and TO:
   declarations and assignments of local variables.  The reason, or
   NULL.  */
static const char *
nf_sm_between (const struct nf_sm *sm, int from, int to)
{
  for (int j = from + 1; j < to; j++)
    {
      CXCursor st = sm->stmts[j];
      enum CXCursorKind k = clang_getCursorKind (st);
      if (k == CXCursor_NullStmt)
	continue;
      if (k != CXCursor_DeclStmt && !clang_isExpression (k))
	return NF_WHY_LOOP_SHAPE;
      bool effects = false;
      if (nf_sm_effect_visit (st, clang_getNullCursor (), &effects)
	  == CXChildVisit_Recurse)
	clang_visitChildren (st, nf_sm_effect_visit, &effects);
      if (effects)
	return NF_WHY_SOFTMAX_BETWEEN;
    }
  return NULL;
}

/* The variables a cursor assigns (or a declaration statement of the
   list declares): at most NF_LP_VARS.  */
struct nf_sm_sets
{
  CXCursor v[NF_LP_VARS];
  int n;
  bool full;
};

static void
nf_sm_sets_add (struct nf_sm_sets *d, CXCursor v)
{
  for (int i = 0; i < d->n; i++)
    if (nf_lp_same_decl (d->v[i], v))
      return;
  if (d->n == NF_LP_VARS)
    d->full = true;
  else
    d->v[d->n++] = v;
}

static enum CXChildVisitResult
nf_sm_sets_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  CXCursor k[2];
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  bool unary = kind == CXCursor_UnaryOperator
	       && clang_getCursorUnaryOperatorKind (c) != CXUnaryOperator_Deref
	       && nf_ast_children (c, k, 1) == 1;
  if (((kind == CXCursor_CompoundAssignOperator
	|| nf_ast_binop (c) == CXBinaryOperator_Assign)
       && nf_ast_children (c, k, 2) == 2)
      || unary)
    {
      CXCursor v = nf_lp_var_of (k[0]);
      if (!clang_Cursor_isNull (v))
	nf_sm_sets_add (data, v);
    }
  return CXChildVisit_Recurse;
}

/* Step 4: whether a variable the region (A to C) sets is read after
   it; one declared between the loops is not even named after them.  */
static bool
nf_sm_used_after (const struct nf_sm *sm)
{
  const nf_tool *t = sm->s->t;
  struct nf_sm_sets d;
  d.n = 0;
  d.full = false;
  for (int j = sm->ia; j <= sm->ic; j++)
    {
      CXCursor k[8];
      CXCursor st = sm->stmts[j];
      int nk = clang_getCursorKind (st) == CXCursor_DeclStmt
		 ? nf_ast_children (st, k, 8)
		 : 0;
      for (int q = 0; q < nk && q < 8; q++)
	if (nf_sm_refs (sm, k[q], sm->ic + 1) > 0)
	  return true;
      nf_sm_sets_visit (st, clang_getNullCursor (), &d);
      clang_visitChildren (st, nf_sm_sets_visit, &d);
    }
  size_t end = nf_lp_stmt_end (t, sm->stmts[sm->ic]);
  for (int i = 0; i < d.n; i++)
    if (nf_lp_read_outside_range (sm->s->fn, d.v[i], nf_sm_from (sm, d.v[i]),
				  end))
      return true;
  return d.full;
}

/* Step 4: A's own work, the loops' exits, the code between them, the
   values used after.  The reason, or NULL.  */
const char *
nf_sm_region (const struct nf_sm *sm)
{
  struct nf_sm_shape a = nf_sm_shape_of (sm->l[0].body);
  if (a.vol)
    return NF_WHY_LOOP_VOLATILE;
  if (sm->a_other)
    return NF_WHY_SOFTMAX_OTHER_WORK;
  for (int k = 0; k < 3; k++)
    if (nf_sm_shape_of (sm->l[k].body).exits)
      return NF_WHY_LOOP_SHAPE;
  const char *why = nf_sm_between (sm, sm->ia, sm->ib);
  if (!why)
    why = nf_sm_between (sm, sm->ib, sm->ic);
  if (!why && nf_sm_used_after (sm))
    why = NF_WHY_SOFTMAX_USED_AFTER;
  return why;
}

/* Whether a variable the region sets is read in C: the base of an
   access, a bound.  */
static bool
nf_sm_varies (const struct nf_sm *sm, CXCursor c)
{
  struct nf_sm_sets d;
  d.n = 0;
  d.full = false;
  for (int j = sm->ia; j <= sm->ic; j++)
    {
      nf_sm_sets_visit (sm->stmts[j], clang_getNullCursor (), &d);
      clang_visitChildren (sm->stmts[j], nf_sm_sets_visit, &d);
    }
  for (int i = 0; i < d.n; i++)
    {
      struct nf_lp_refs r = { d.v[i], 0, 0, 0 };
      clang_visitChildren (c, nf_lp_count_refs, &r);
      if (r.n || nf_sm_is (c, d.v[i]))
	return true;
    }
  return d.full;
}

/* Step 5: the accesses and the trip counts (loop-softmax.h).  */
const char *
nf_sm_accesses (struct nf_sm *sm, int *start, bool *sub_same, bool *exp_kept)
{
  const nf_tool *t = sm->s->t;
  CXCursor k[2];
  nf_ast_children (sm->sub, k, 2);
  if (nf_sm_is (k[0], sm->m))
    return NF_WHY_SOFTMAX_LOOPS; /* m - x[i] */
  nf_sm_access (&sm->l[0], sm->x_a, &sm->xa);
  nf_sm_access (&sm->l[1], k[0], &sm->xb);
  nf_ast_children (sm->store_b, k, 2);
  nf_sm_access (&sm->l[1], k[0], &sm->yb);
  nf_sm_access (&sm->l[2], sm->load_c, &sm->ycl);
  nf_ast_children (sm->store_c, k, 2);
  nf_sm_access (&sm->l[2], k[0], &sm->ycs);
  if (clang_getCursorKind (sm->xb.expr) != CXCursor_ArraySubscriptExpr)
    return NF_WHY_SOFTMAX_LOOPS;
  for (int i = 0; i < 3; i++)
    if (!sm->l[i].header)
      return NF_WHY_TRIP_COUNT;
  struct nf_sm_acc *acc[5] = { &sm->xa, &sm->xb, &sm->yb, &sm->ycl, &sm->ycs };
  for (int i = 0; i < 5; i++)
    if (!acc[i]->ok || nf_sm_varies (sm, acc[i]->base))
      return NF_WHY_NOT_CONTIGUOUS;
  for (int i = 1; i < 5; i++)
    if (nf_ast_elem (clang_getCursorType (acc[i]->expr)) != sm->elt)
      return NF_WHY_SOFTMAX_LOOPS;
  int64_t d = -1;
  if (!nf_sm_distance (t, &sm->xa, &sm->l[0], &sm->xb, &sm->l[1], &d))
    d = -1;
  *sub_same = d == 0 || d == 1;
  *start = d == 1;
  if (d > 1)
    return NF_WHY_SOFTMAX_SKIPS;
  int64_t dc;
  if (!nf_sm_distance (t, &sm->ycl, &sm->l[2], &sm->yb, &sm->l[1], &dc)
      || dc != 0)
    return NF_WHY_SOFTMAX_LOOPS;
  *exp_kept = !nf_sm_distance (t, &sm->ycs, &sm->l[2], &sm->ycl, &sm->l[2], &dc)
	      || dc != 0;
  for (int i = 0; i < 3; i++)
    if (nf_sm_varies (sm, sm->l[i].bound))
      return NF_WHY_TRIP_COUNT;
  return NULL;
}
