/* loop-softmax.c: three loops that are a softmax, as one call of
   libneuronfuse (kind Softmax): the libclang twin of
   plugin/loop-softmax.cc.

     float max_val = x[0];
     for (int i = 1; i < size; i++)               (A, the max)
       if (x[i] > max_val)
	 max_val = x[i];
     float sum = 0.0f;
     for (int i = 0; i < size; i++)               (B, exp and sum)
       {
	 x[i] = expf (x[i] - max_val);
	 sum += x[i];
       }
     for (int i = 0; i < size; i++)               (C, the divide)
       x[i] /= sum;
   becomes
     float max_val = x[0];
     if (<the counts agree> && <y is x or apart from it>)
       { nf_softmax_f32 (x, x, <count>); }
     else
       {
     for (int i = 1; i < size; i++) ...          (A to C, unchanged)
       }

   Steps (nf_lp_try_softmax, on each `for' of a statement list before
   the other loop kinds, as the plugin's nf_loop_run): 1. A takes the
   max m of an element X: its body `if (X > m) m = X;', `m = fmaxf (m,
   X)' or `m = X > m ? X : m' (either comparison order, either fmax
   argument); anything else is no max loop, without a remark; 2. B is
   the next loop of the list holding exp (X2 - m) (else no remark); it
   stores e = exp (X2 - m) (directly or through a local) and sums e into
   one floating-point variable, nothing else, and m is read nowhere
   else after A; 3. the sum is read once: by C dividing what it reads by
   it, or by `inv = 1 / sum' between B and C whose one use is C's
   product; C stores the quotient; 4. no loop has a nested loop or
   another exit, the statements between the loops declare and assign
   local variables without calls or stores, and nothing the region sets
   is read after it; 5. the accesses base[i + c], the max's elements
   X2's from the same or the next element (then seeded with x[0]), C's
   reads B's stores, the trip counts computable; 6. the facts go to
   lower/'s nf_softmax_loops_region and the region to nf_call_plan, as
   the plugin's; 7. the call, behind the plugin's run-time test (the
   counts agree, y is x or apart from it), is inserted before A, and A
   to C become its else block (inside #ifndef _OPENMP when an OpenMP
   pragma heads a loop: loop-int.h).  The reasons, in the plugin's
   order, are lower/reasons.h's.

   This file has steps 1-3 and the entry; loop-softmax-check.c steps 4
   and 5 (and the small questions), loop-softmax-call.c steps 6 and 7;
   loop-softmax.h is what they share.

   Limitations: loops other than `for (i = C; i < n; i++)' are no
   candidates; pointer accesses (*(x + i)) are not contiguous here; a
   quotient stored through a local is "not stored contiguously"; any
   other statement in B or C is other work (the plugin lets side-effect
   free ones be); a variable declared between the loops and named after
   them refuses the region (the else block would scope it).  A sum of
   something other than e is no softmax here, where the plugin's check
   does not look at what is summed.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "loop-softmax.h"
#include "record.h"

/* --- Steps 1-3: the loops.  --- */

/* Step 1: whether ST is m = max (m, X) in one of the three forms (see
   the file's comment); sets *M and *X.  */
static bool
nf_sm_max_stmt (const nf_tool *t, CXCursor st, CXCursor *m, CXCursor *x)
{
  CXCursor k[3], c[2], cond, tv, fv;
  int nargs;
  st = nf_sm_one (st);
  if (clang_getCursorKind (st) == CXCursor_IfStmt)
    {
      CXCursor then = nf_ast_children (st, k, 3) == 2 ? nf_sm_one (k[1]) : st;
      if (nf_ast_binop (then) != CXBinaryOperator_Assign
	  || nf_ast_children (then, c, 2) != 2)
	return false;
      *m = nf_lp_var_of (c[0]);
      cond = k[0], tv = c[1], fv = c[0];
    }
  else if (nf_ast_binop (st) == CXBinaryOperator_Assign
	   && nf_ast_children (st, c, 2) == 2)
    {
      *m = nf_lp_var_of (c[0]);
      CXCursor rhs = nf_ast_strip_noop (c[1]);
      if (clang_getCursorKind (rhs) == CXCursor_CallExpr
	  && nf_lp_math (rhs, &nargs) == NF_OP_MAX
	  && clang_Cursor_getNumArguments (rhs) == 2)
	{
	  CXCursor a0 = nf_ast_strip_noop (clang_Cursor_getArgument (rhs, 0));
	  CXCursor a1 = nf_ast_strip_noop (clang_Cursor_getArgument (rhs, 1));
	  bool first = nf_sm_is (a0, *m);
	  *x = first ? a1 : a0;
	  return (first || nf_sm_is (a1, *m)) && !nf_sm_is (*x, *m);
	}
      if (clang_getCursorKind (rhs) != CXCursor_ConditionalOperator
	  || nf_ast_children (rhs, k, 3) != 3)
	return false;
      cond = k[0], tv = k[1], fv = k[2];
    }
  else
    return false;
  cond = nf_ast_strip_noop (cond);
  enum CXBinaryOperatorKind op = nf_ast_binop (cond);
  if (nf_ast_children (cond, c, 2) != 2 || clang_Cursor_isNull (*m))
    return false;
  CXCursor l = nf_ast_strip_noop (c[0]), r = nf_ast_strip_noop (c[1]);
  bool lm = nf_sm_is (l, *m), rm = nf_sm_is (r, *m);
  if (lm == rm)
    return false;
  *x = lm ? r : l;
  /* The larger of L and R: L ? TV : FV with TV the greater side.  */
  CXCursor want_t;
  if (op == CXBinaryOperator_GT || op == CXBinaryOperator_GE)
    want_t = l;
  else if (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE)
    want_t = r;
  else
    return false;
  tv = nf_ast_strip_noop (tv);
  fv = nf_ast_strip_noop (fv);
  bool t_m = nf_sm_same (want_t, lm ? l : r);
  return t_m ? nf_sm_is (tv, *m) && nf_lp_same_text (t, fv, *x)
	     : nf_sm_is (fv, *m) && nf_lp_same_text (t, tv, *x);
}

/* Step 1: SM's loop A (SM->l[0] parsed) as a max loop: M, X_A, ELT,
   A_OTHER.  False when it is none.  */
static bool
nf_sm_max_loop (struct nf_sm *sm)
{
  const nf_tool *t = sm->s->t;
  CXCursor b[16], m, x;
  struct nf_sm_loop *a = &sm->l[0];
  if (!a->header || nf_sm_shape_of (a->body).loops)
    return false;
  CXCursor body = nf_sm_one (a->body);
  int nb = clang_getCursorKind (body) == CXCursor_CompoundStmt
	     ? nf_ast_children (body, b, 16)
	     : (b[0] = body, 1);
  int found = 0;
  for (int j = 0; j < nb && j < 16; j++)
    if (!found && nf_sm_max_stmt (t, b[j], &m, &x))
      found = 1;
    else if (nf_sm_shape_of (b[j]).float_set)
      return false; /* Another floating-point value: not the max.  */
    else
      sm->a_other = true;
  if (!found || nb > 16 || !nf_sm_local_float (m)
      || clang_getCursorKind (x) != CXCursor_ArraySubscriptExpr)
    return false;
  sm->elt = nf_ast_elem (clang_getCursorType (m));
  sm->m = m;
  sm->x_a = x;
  return nf_ast_elem (clang_getCursorType (x)) == sm->elt;
}

/* Find in a statement exp (X2 - m) (or exp (m - X2)) for the variable
   DECL: the call and the subtraction; SUBS counts subtractions of
   DECL.  */
struct nf_sm_exp_find
{
  CXCursor decl, call, sub;
  int subs;
};

static enum CXChildVisitResult
nf_sm_exp_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_sm_exp_find *f = data;
  CXCursor k[2];
  int nargs;
  (void) parent;
  if (nf_ast_binop (c) == CXBinaryOperator_Sub && nf_ast_children (c, k, 2) == 2
      && (nf_sm_is (k[0], f->decl) || nf_sm_is (k[1], f->decl)))
    f->subs++;
  if (clang_Cursor_isNull (f->call)
      && clang_getCursorKind (c) == CXCursor_CallExpr
      && nf_lp_math (c, &nargs) == NF_OP_EXP
      && clang_Cursor_getNumArguments (c) == 1)
    {
      CXCursor a = nf_ast_strip_noop (clang_Cursor_getArgument (c, 0));
      if (nf_ast_binop (a) == CXBinaryOperator_Sub
	  && nf_ast_children (a, k, 2) == 2
	  && (nf_sm_is (k[0], f->decl) || nf_sm_is (k[1], f->decl)))
	f->call = c, f->sub = a;
    }
  return CXChildVisit_Recurse;
}

/* Step 2: one statement ST of B's body: the temporary e = exp, the
   store of e, the sum of e, or other work (*OTHER).  */
static void
nf_sm_exp_stmt (struct nf_sm *sm, CXCursor st, CXCursor *addend, int *sums,
		bool *other)
{
  CXCursor k[2], lhs, e;
  CXCursor call = sm->exp_call;
  if (clang_getCursorKind (st) == CXCursor_DeclStmt
      && nf_ast_children (st, k, 2) == 1 && clang_Cursor_isNull (sm->temp))
    {
      CXCursor in = clang_Cursor_getVarDeclInitializer (k[0]);
      if (!clang_Cursor_isNull (in) && nf_sm_local_float (k[0])
	  && nf_sm_same (nf_ast_strip_noop (in), call))
	{
	  sm->temp = k[0];
	  return;
	}
    }
  if (nf_lp_accumulation (st, &lhs, &e))
    {
      CXCursor a = nf_ast_strip_noop (e);
      (*sums)++;
      sm->sum = nf_lp_var_of (lhs);
      *addend = a;
      /* s += y[i] = exp (...): the store inside.  */
      if (nf_ast_binop (a) == CXBinaryOperator_Assign
	  && nf_ast_children (a, k, 2) == 2 && clang_Cursor_isNull (sm->store_b)
	  && nf_sm_same (nf_ast_strip_noop (k[1]), call))
	sm->store_b = a;
      return;
    }
  if (nf_ast_binop (st) == CXBinaryOperator_Assign
      && nf_ast_children (st, k, 2) == 2 && clang_Cursor_isNull (sm->store_b)
      && clang_getCursorKind (nf_ast_strip_noop (k[0]))
	   == CXCursor_ArraySubscriptExpr)
    {
      CXCursor r = nf_ast_strip_noop (k[1]);
      if (nf_sm_same (r, call)
	  || (!clang_Cursor_isNull (sm->temp) && nf_sm_is (r, sm->temp)))
	{
	  sm->store_b = st;
	  return;
	}
    }
  *other = true;
}

/* Step 2: B's body, after its exp was found: the reason it is no
   softmax's exp loop, or NULL.  */
static const char *
nf_sm_exp_body (struct nf_sm *sm)
{
  const nf_tool *t = sm->s->t;
  struct nf_sm_loop *b = &sm->l[1];
  CXCursor st[16], addend = clang_getNullCursor ();
  CXCursor body = nf_sm_one (b->body);
  int nb = clang_getCursorKind (body) == CXCursor_CompoundStmt
	     ? nf_ast_children (body, st, 16)
	     : (st[0] = body, 1);
  int sums = 0;
  bool other = nb > 16;
  for (int j = 0; j < nb && j < 16; j++)
    nf_sm_exp_stmt (sm, st[j], &addend, &sums, &other);
  if (nf_ast_elem (clang_getCursorType (sm->exp_call)) != sm->elt)
    return NF_WHY_SOFTMAX_LOOPS;
  /* One floating-point sum (of the element type: a double sum of float
     exps converts e, other work for the plugin too).  */
  if (sums != 1 || !nf_sm_local_float (sm->sum)
      || nf_ast_elem (clang_getCursorType (sm->sum)) != sm->elt)
    return NF_WHY_SOFTMAX_OTHER_WORK;
  /* e used by its store and its sum only.  */
  if (!clang_Cursor_isNull (sm->temp))
    {
      struct nf_lp_refs r = { sm->temp, 0, 0, 0 };
      clang_visitChildren (body, nf_lp_count_refs, &r);
      if (r.n != 2)
	return NF_WHY_SOFTMAX_OTHER_WORK;
    }
  if (clang_Cursor_isNull (sm->store_b))
    return NF_WHY_SOFTMAX_LOOPS;
  CXCursor k[2];
  nf_ast_children (sm->store_b, k, 2);
  /* What is summed is e: the temporary, the store's element read again
     after it, or the store itself.  */
  bool of_e = (!clang_Cursor_isNull (sm->temp) && nf_sm_is (addend, sm->temp))
	      || nf_sm_same (addend, sm->store_b)
	      || (nf_lp_same_text (t, addend, k[0])
		  && nf_ast_begin (addend) > nf_ast_end (sm->store_b));
  if (!of_e)
    return NF_WHY_SOFTMAX_LOOPS;
  if (other)
    return NF_WHY_SOFTMAX_OTHER_WORK;
  if (nf_sm_shape_of (b->body).vol)
    return NF_WHY_LOOP_VOLATILE;
  return NULL;
}

/* Step 2: loop B from the subtractions of A's max.  False when there is
   none (the max is for something else); else *WHY may hold a near
   miss.  */
static bool
nf_sm_exp_loop (struct nf_sm *sm, const char **why)
{
  struct nf_sm_exp_find f
    = { sm->m, clang_getNullCursor (), clang_getNullCursor (), 0 };
  const nf_tool *t = sm->s->t;
  int j;
  *why = NULL;
  for (j = sm->ia + 1; j < sm->n && !f.subs; j++)
    if (clang_getCursorKind (sm->stmts[j]) == CXCursor_ForStmt)
      clang_visitChildren (sm->stmts[j], nf_sm_exp_visit, &f);
  if (clang_Cursor_isNull (f.call))
    return false;
  sm->ib = j - 1;
  sm->exp_call = f.call;
  sm->sub = f.sub;
  nf_sm_header (sm->stmts[sm->ib], &sm->l[1]);
  if (nf_sm_shape_of (sm->l[1].body).loops)
    return false;
  /* m read once after A: by the subtraction.  */
  size_t end = nf_lp_stmt_end (t, sm->stmts[sm->n - 1]);
  if (nf_sm_refs (sm, sm->m, sm->ia + 1) != 1
      || nf_lp_read_outside_range (sm->s->fn, sm->m, nf_sm_from (sm, sm->m),
				   end))
    return *why = NF_WHY_SOFTMAX_USED_AFTER, true;
  *why = nf_sm_exp_body (sm);
  return true;
}

/* Find in a statement the quotient by DECL (X / DECL, X /= DECL) or,
   with MUL, the product by it (X * DECL, DECL * X, X *= DECL).  */
struct nf_sm_q_find
{
  CXCursor decl, q, dividend;
  bool mul;
};

static enum CXChildVisitResult
nf_sm_q_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_sm_q_find *f = data;
  CXCursor k[2];
  (void) parent;
  enum CXBinaryOperatorKind op = nf_ast_binop (c), want;
  want = f->mul ? CXBinaryOperator_Mul : CXBinaryOperator_Div;
  if (clang_getCursorKind (c) == CXCursor_CompoundAssignOperator)
    op = clang_getCursorBinaryOperatorKind (c) == CXBinaryOperator_DivAssign
	   ? CXBinaryOperator_Div
	 : clang_getCursorBinaryOperatorKind (c) == CXBinaryOperator_MulAssign
	   ? CXBinaryOperator_Mul
	   : CXBinaryOperator_Invalid;
  if (op != want || nf_ast_children (c, k, 2) != 2)
    return CXChildVisit_Recurse;
  if (nf_sm_is (k[1], f->decl))
    f->q = c, f->dividend = nf_ast_strip_noop (k[0]);
  else if (f->mul && nf_sm_is (k[0], f->decl)
	   && clang_getCursorKind (c) != CXCursor_CompoundAssignOperator)
    f->q = c, f->dividend = nf_ast_strip_noop (k[1]);
  return clang_Cursor_isNull (f->q) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* Step 3: `inv = 1 / sum' at SM's statement J: INV.  */
static bool
nf_sm_recip (struct nf_sm *sm, int j)
{
  CXCursor st = sm->stmts[j], k[2], v = clang_getNullCursor (), e;
  double one;
  if (clang_getCursorKind (st) == CXCursor_DeclStmt
      && nf_ast_children (st, k, 2) == 1)
    v = k[0], e = clang_Cursor_getVarDeclInitializer (k[0]);
  else if (nf_ast_binop (st) == CXBinaryOperator_Assign
	   && nf_ast_children (st, k, 2) == 2)
    v = nf_lp_var_of (k[0]), e = k[1];
  if (clang_Cursor_isNull (v) || !nf_sm_local_float (v)
      || clang_Cursor_isNull (e))
    return false;
  e = nf_ast_strip_noop (e);
  if (nf_ast_binop (e) != CXBinaryOperator_Div || nf_ast_children (e, k, 2) != 2
      || !nf_sm_is (k[1], sm->sum) || !nf_ast_const (k[0], &one) || one != 1)
    return false;
  sm->inv = v;
  sm->recip = true;
  return true;
}

/* Find a call with the variable DECL as an argument.  */
struct nf_sm_arg_find
{
  CXCursor decl;
  bool found;
};

static enum CXChildVisitResult
nf_sm_arg_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_sm_arg_find *f = data;
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_CallExpr)
    for (int i = 0; i < clang_Cursor_getNumArguments (c); i++)
      f->found |= nf_sm_is (clang_Cursor_getArgument (c, i), f->decl);
  return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Step 3: loop C from the one use of B's sum.  The reason, or NULL.  */
static const char *
nf_sm_divide_loop (struct nf_sm *sm)
{
  const nf_tool *t = sm->s->t;
  size_t end = nf_lp_stmt_end (t, sm->stmts[sm->n - 1]);
  CXCursor by = sm->sum;
  int uses = nf_sm_refs (sm, by, sm->ib + 1);
  bool outside
    = nf_lp_read_outside_range (sm->s->fn, by, nf_sm_from (sm, by), end);
  if (uses + outside > 1 || (outside && !uses))
    return NF_WHY_SOFTMAX_USED_AFTER;
  if (!uses)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  int j = nf_sm_holding (sm, by, sm->ib + 1);
  if (clang_getCursorKind (sm->stmts[j]) != CXCursor_ForStmt)
    {
      /* Passed to a function or returned: no assignment, as the
	 plugin's "used after".  */
      struct nf_sm_arg_find a = { by, false };
      clang_visitChildren (sm->stmts[j], nf_sm_arg_visit, &a);
      if (a.found || clang_getCursorKind (sm->stmts[j]) == CXCursor_ReturnStmt)
	return NF_WHY_SOFTMAX_USED_AFTER;
      if (!nf_sm_recip (sm, j) || nf_sm_refs (sm, sm->inv, j + 1) != 1
	  || nf_lp_read_outside_range (sm->s->fn, sm->inv,
				       nf_ast_begin (sm->stmts[j]), end))
	return NF_WHY_SOFTMAX_NO_DIVIDE;
      by = sm->inv;
      j = nf_sm_holding (sm, by, j + 1);
    }
  struct nf_sm_loop *c = &sm->l[2];
  if (clang_getCursorKind (sm->stmts[j]) != CXCursor_ForStmt)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  sm->ic = j;
  nf_sm_header (sm->stmts[j], c);
  struct nf_sm_q_find f
    = { by, clang_getNullCursor (), clang_getNullCursor (), sm->recip };
  clang_visitChildren (c->stmt, nf_sm_q_visit, &f);
  if (clang_Cursor_isNull (f.q) || nf_sm_shape_of (c->body).loops
      || clang_getCursorKind (f.dividend) != CXCursor_ArraySubscriptExpr)
    return NF_WHY_SOFTMAX_NO_DIVIDE;
  sm->q = f.q;
  sm->load_c = f.dividend;
  /* The quotient stored by the body's statement holding it: q itself
     (y[i] /= s), or y[i] = q; nothing else in the body.  */
  CXCursor st[8], k[2], body = nf_sm_one (c->body);
  int nb = clang_getCursorKind (body) == CXCursor_CompoundStmt
	     ? nf_ast_children (body, st, 8)
	     : (st[0] = body, 1);
  size_t qb = nf_ast_begin (f.q);
  for (int i = 0; i < nb && i < 8; i++)
    if (qb >= nf_ast_begin (st[i]) && qb < nf_ast_end (st[i]))
      sm->store_c = st[i];
  CXCursor sc = sm->store_c;
  bool stored = nf_sm_same (sc, f.q)
		  ? clang_getCursorKind (f.q) == CXCursor_CompoundAssignOperator
		  : nf_ast_binop (sc) == CXBinaryOperator_Assign
		      && nf_ast_children (sc, k, 2) == 2
		      && nf_sm_same (nf_ast_strip_noop (k[1]), f.q)
		      && clang_getCursorKind (nf_ast_strip_noop (k[0]))
			   == CXCursor_ArraySubscriptExpr;
  if (!stored)
    return NF_WHY_SOFTMAX_STORE;
  if (nb != 1)
    return NF_WHY_SOFTMAX_OTHER_WORK; /* More statements than the store.  */
  return nf_sm_shape_of (c->body).vol ? NF_WHY_LOOP_VOLATILE : NULL;
}

int
nf_lp_try_softmax (struct nf_lp_scan *s, CXCursor *stmts, int n, int i)
{
  nf_tool *t = s->t;
  if (!(t->kinds & NF_KIND_SOFTMAX)
      || nf_tool_in_macro (t, nf_ast_begin (stmts[i]),
			   nf_ast_begin (stmts[i]) + 1))
    return 0;
  struct nf_sm sm;
  memset (&sm, 0, sizeof sm);
  sm.s = s;
  sm.stmts = stmts;
  sm.n = n;
  sm.ia = i;
  sm.m = sm.sum = sm.inv = sm.temp = sm.store_b = clang_getNullCursor ();
  sm.q = sm.store_c = sm.load_c = clang_getNullCursor ();
  nf_sm_header (stmts[i], &sm.l[0]);
  const char *why;
  if (!nf_sm_max_loop (&sm) || !nf_sm_exp_loop (&sm, &why))
    return 0;
  if (!why)
    why = nf_sm_divide_loop (&sm);
  if (!why)
    why = nf_sm_fuse (&sm);
  if (why && !s->oom)
    {
      unsigned line, column;
      nf_sm_loc (&sm, &line, &column);
      nf_record_missed (t, NF_KIND_SOFTMAX, s->function, line, column, why);
    }
  return why ? 0 : sm.ic - i + 1;
}
