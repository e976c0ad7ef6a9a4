/* loop-rows.c: a row loop around an RMSNorm as one call of the rows
   kernel, in the source (the libclang twin of plugin/loop-rows.cc).

   A loop over rows whose body is one RMSNorm of row pointers set per
   row (the RMSNorm loop-rewrite.c is about to make a call per row):

     for (int r = 0; r < rows; r++)      if (<the rows n elements apart>
       {                                     && <y == x or disjoint over
	 const float *x = in + r * dim;          rows * n> && <y apart
	 float *y = out + r * dim;               from w over n>)
	 <the RMSNorm of x into y>  =>     { nf_rmsnorm_rows_f32 (out, in,
       }                                       w, <rows>, <dim>, eps); }
					 else
					 for (int r = 0; ...) <per row>

   where <per row> is the body with loop-rewrite.c's per-row call behind
   its own test, the plugin's fallback too.

   Steps (nf_lp_rows_rewrite): 1. the list holding the RMSNorm is the
   body of a `for` (r = 0; r < rows; r++, as a region's loop: a thread's
   share of the rows, r = ith; r += nth, is quietly no row loop), and
   holds nothing but declarations of pointers (free of side effects) and
   the RMSNorm; 2. each array of the per-row call, through those
   pointers, as B + r * S, &B[r * S] or B (B and S free of r): y and x
   must move with the row, w must not (the weight indexed by the row),
   the count and eps must not depend on r or on the body (near misses
   with the plugin's reasons, at the row loop); a constant step is n
   elements only for a constant n of that many; 3. lower/'s rank-2
   region (nf_rmsnorm_rows_region) and its plan, recorded as the
   plugin records it (one entry, at the row loop); 4. the row loop's
   text replaced by the call behind the test, the row loop with its
   per-row rewrite as the fallback.

   The rows may also be addressed in the accesses, x[r * n + j] (the
   array's index part from outside the region: loop-access.c).

   Limitations: rows reached through a function the loop calls (the
   plugin sees them once inlined) are not row loops here; a row pointer
   declared before the loop and advanced by it (x += n) neither.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "loop-int.h"
#include "reasons.h"
#include "record.h"
#include "residual.h"

/* The row loop being matched.  */
struct nf_lp_rows
{
  CXCursor loop, ivar; /* The row loop, r.  */
  CXCursor *body;      /* Its statements, the RMSNorm's span's list.  */
  int n_body, first;   /* The pointer declarations: BODY[0..FIRST).  */
  char *rbound, *rcount; /* The row loop's bound and trip count.  */
};

/* C without parentheses and implicit conversions (a pointer's
   lvalue-to-rvalue, an integer's widening).  */
static CXCursor
nf_lp_rows_strip (CXCursor c)
{
  CXCursor w;
  c = nf_ast_strip_noop (c);
  while (!clang_Cursor_isNull (w = nf_ast_cast_operand (c)))
    c = nf_ast_strip_noop (w);
  return c;
}

/* Whether the cursor C refers to the variable DECL.  */
static bool
nf_lp_rows_refers (CXCursor c, CXCursor decl)
{
  struct nf_lp_refs refs = { decl, 0, 0, 0 };
  if (nf_lp_same_decl (nf_lp_var_of (c), decl))
    return true;
  clang_visitChildren (c, nf_lp_count_refs, &refs);
  return refs.n > 0;
}

/* Whether C refers to the row loop's index or a variable its body
   declares: a value that may change from row to row.  */
static bool
nf_lp_rows_varies (const struct nf_lp_rows *w, CXCursor c)
{
  if (nf_lp_rows_refers (c, w->ivar))
    return true;
  for (int i = 0; i < w->first; i++)
    {
      CXCursor vd[8];
      int n = nf_ast_children (w->body[i], vd, 8);
      for (int j = 0; j < n && j < 8; j++)
	if (nf_lp_rows_refers (c, vd[j]))
	  return true;
    }
  return false;
}

/* The initializer of the pointer DECL when the row body declares it
   (BODY[0..FIRST)), else a null cursor.  */
static CXCursor
nf_lp_rows_init (const struct nf_lp_rows *w, CXCursor decl)
{
  for (int i = 0; i < w->first; i++)
    {
      CXCursor vd[8];
      int n = nf_ast_children (w->body[i], vd, 8);
      for (int j = 0; j < n && j < 8; j++)
	if (nf_lp_same_decl (vd[j], decl))
	  return clang_Cursor_getVarDeclInitializer (vd[j]);
    }
  return clang_getNullCursor ();
}

/* Whether C is r * S or S * r with S free of r; sets *STEP to S.  */
static bool
nf_lp_rows_times_r (const struct nf_lp_rows *w, CXCursor c, CXCursor *step)
{
  CXCursor k[2];
  c = nf_lp_rows_strip (c);
  if (nf_lp_same_decl (nf_lp_var_of (c), w->ivar))
    {
      *step = clang_getNullCursor (); /* r alone: a step of 1.  */
      return true;
    }
  if (nf_ast_binop (c) != CXBinaryOperator_Mul || nf_ast_children (c, k, 2) != 2)
    return false;
  for (int i = 0; i < 2; i++)
    if (nf_lp_same_decl (nf_lp_var_of (nf_lp_rows_strip (k[i])), w->ivar)
	&& !nf_lp_rows_varies (w, k[1 - i]))
      {
	*step = k[1 - i];
	return true;
      }
  return false;
}

/* Step 2: the address P of the per-row call as *BASE, where row 0's
   starts, and *STEP, its elements per row (a null cursor with *MOVES
   false: the same on every row; with *MOVES: 1).  False when it is not
   affine in r.  */
static bool
nf_lp_rows_address (const struct nf_lp_rows *w, CXCursor p, CXCursor *base,
		    CXCursor *step, bool *moves)
{
  CXCursor k[2];
  p = nf_lp_rows_strip (p);
  *moves = false;
  *step = clang_getNullCursor ();
  CXCursor d = nf_lp_var_of (p);
  if (!clang_Cursor_isNull (d))
    {
      CXCursor in = nf_lp_rows_init (w, d);
      if (!clang_Cursor_isNull (in))
	return nf_lp_rows_address (w, in, base, step, moves);
    }
  if (!nf_lp_rows_varies (w, p))
    {
      *base = p;
      return true;
    }
  /* &B[r * S] */
  if (clang_getCursorKind (p) == CXCursor_UnaryOperator
      && clang_getCursorUnaryOperatorKind (p) == CXUnaryOperator_AddrOf
      && nf_ast_children (p, k, 1) == 1)
    {
      CXCursor a = nf_lp_rows_strip (k[0]);
      if (clang_getCursorKind (a) == CXCursor_ArraySubscriptExpr
	  && nf_ast_children (a, k, 2) == 2 && !nf_lp_rows_varies (w, k[0])
	  && nf_lp_rows_times_r (w, k[1], step))
	{
	  *base = k[0];
	  *moves = true;
	  return true;
	}
      return false;
    }
  /* B + r * S, r * S + B */
  if (nf_ast_binop (p) == CXBinaryOperator_Add && nf_ast_children (p, k, 2) == 2)
    for (int i = 0; i < 2; i++)
      if (!nf_lp_rows_varies (w, k[i]) && nf_lp_rows_times_r (w, k[1 - i], step))
	{
	  *base = k[i];
	  *moves = true;
	  return true;
	}
  return false;
}

/* Step 1: whether C declares pointers only, initialized without side
   effects (the row pointers).  */
static bool
nf_lp_rows_pointer_var (CXCursor v)
{
  CXType ty = clang_getCanonicalType (clang_getCursorType (v));
  CXCursor in = clang_Cursor_getVarDeclInitializer (v);
  bool effect = false;
  if (ty.kind != CXType_Pointer || clang_Cursor_isNull (in))
    return false;
  nf_lp_effect_visit (in, in, &effect);
  clang_visitChildren (in, nf_lp_effect_visit, &effect);
  return !effect;
}

static bool
nf_lp_rows_pointer_decls (CXCursor c)
{
  return nf_lp_each_decl (c, nf_lp_rows_pointer_var);
}

/* Step 1: whether C declares the accumulator ACC alone, from a
   constant (float ss = 0.0f;, the row's own start).  */
static bool
nf_lp_rows_acc_decl (CXCursor c, CXCursor acc)
{
  CXCursor vd[2];
  double v;
  if (clang_getCursorKind (c) != CXCursor_DeclStmt
      || nf_ast_children (c, vd, 2) != 1 || !nf_lp_same_decl (vd[0], acc))
    return false;
  CXCursor in = clang_Cursor_getVarDeclInitializer (vd[0]);
  return !clang_Cursor_isNull (in) && nf_ast_const (in, &v);
}

/* Step 1: the row loop around SPAN of G (S->owner's), in *W; false
   when there is none.  */
static bool
nf_lp_rows_loop (struct nf_lp_scan *s, const struct nf_lp *g,
		 const struct nf_lp_span *span, struct nf_lp_rows *w)
{
  memset (w, 0, sizeof *w);
  /* (Quietly, the rows keeping their call per row: a row loop under a
     pragma, whose statement the call's test would take, or in a macro's
     expansion, whose text is not the code.)  */
  size_t lb = nf_ast_begin (s->owner), le = nf_ast_end (s->owner);
  if (clang_getCursorKind (s->owner) != CXCursor_ForStmt
      || span->last != span->n - 1 || nf_lp_pragmas_before (s->t, lb) != lb
      || nf_tool_in_macro (s->t, lb, le))
    return false;
  for (int i = 0; i < span->first; i++)
    if (!nf_lp_rows_pointer_decls (span->stmts[i])
	&& !nf_lp_rows_acc_decl (span->stmts[i], g->acc))
      return false;
  /* The header as a region's loop: for (r = 0; r < rows; r++).  */
  struct nf_lp h;
  if (!nf_lp_start (&h, s, /*map=*/false))
    return false;
  CXCursor b = nf_lp_loop (&h, s->owner);
  bool ok = !clang_Cursor_isNull (b) && !h.fail
	    && nf_lp_count_text (s->t, &h.loops[0], &w->rbound, &w->rcount);
  w->ivar = h.loops[0].ivar;
  nf_lp_finish (&h);
  /* (Quietly: r declared before the loop and read after it, which the
     call would leave unset; the plugin's "a value of the row loop is
     used after it".)  */
  if (ok && nf_ast_begin (w->ivar) < lb
      && nf_lp_read_outside (s->fn, w->ivar, s->owner))
    ok = false;
  if (!ok)
    {
      free (w->rbound);
      free (w->rcount);
      w->rbound = w->rcount = NULL;
      return false;
    }
  w->loop = s->owner;
  w->body = span->stmts;
  w->n_body = span->n;
  w->first = span->first;
  return true;
}

/* The text of C in a new string, or NULL.  */
static char *
nf_lp_rows_text (const nf_tool *t, CXCursor c)
{
  return nf_lp_text (t, nf_ast_begin (c), nf_ast_end (c));
}

/* The per-row facts of the arrays: base texts and steps.  */
struct nf_lp_rows_arrays
{
  CXCursor ybase, xbase, wbase, ystep, xstep;
  bool weight;
};

/* The array of the access V of G: its base expression, and the part
   of its index from outside the region in *EXTRA (x[r * n + j]'s
   r * n; a null cursor: none).  A null cursor when the access starts
   at an offset.  */
static CXCursor
nf_lp_rows_array (const struct nf_lp *g, nf_value v, CXCursor *extra)
{
  nf_value p = nf_access_base (g->r, v);
  *extra = clang_getNullCursor ();
  for (int i = 0; i < g->n_arrays; i++)
    if (g->arrays[i].param == p)
      {
	if (g->arrays[i].offset != 0 || nf_access_offset (g->r, v) != 0)
	  break;
	*extra = g->arrays[i].extra;
	return g->arrays[i].base;
      }
  return clang_getNullCursor ();
}

/* Whether the constant C differs from the row length N (a constant
   one: then a constant step of C elements is a window, not rows).  */
static bool
nf_lp_rows_const_step_bad (CXCursor c, const struct nf_lp_loop *l0)
{
  double v;
  if (clang_Cursor_isNull (c))
    return l0->extent != 1;
  if (!nf_ast_const (c, &v))
    return false;
  return l0->extent < 0 || (double) l0->extent != v;
}

/* Step 2 for the per-row call C of G: the arrays into *A, or the near
   miss's reason.  */
static const char *
nf_lp_rows_args (const struct nf_lp_rows *w, const struct nf_lp *g,
		 const nf_call *c, struct nf_lp_rows_arrays *a)
{
  memset (a, 0, sizeof *a);
  bool my = false, mx = false, mw = false;
  CXCursor wstep;
  for (int i = 0; i < c->nargs; i++)
    {
      const nf_call_arg *arg = &c->args[i];
      CXCursor *base = arg->role == NF_ROLE_Y	? &a->ybase
		       : arg->role == NF_ROLE_X ? &a->xbase
		       : arg->role == NF_ROLE_W ? &a->wbase
						: NULL;
      if (!base || arg->value == NF_NO_VALUE)
	continue;
      CXCursor extra;
      CXCursor at = nf_lp_rows_array (g, arg->value, &extra);
      if (clang_Cursor_isNull (at))
	return NF_WHY_DOT_NEST_AFFINE;
      CXCursor *step = arg->role == NF_ROLE_Y	? &a->ystep
		       : arg->role == NF_ROLE_X ? &a->xstep
						: &wstep;
      bool *moves = arg->role == NF_ROLE_Y ? &my
		    : arg->role == NF_ROLE_X ? &mx
					     : &mw;
      if (!clang_Cursor_isNull (extra))
	{
	  /* x[r * n + j]: the row r * n of the array x.  */
	  if (nf_lp_rows_varies (w, at) || !nf_lp_rows_times_r (w, extra, step))
	    return NF_WHY_DOT_NEST_AFFINE;
	  *base = at;
	  *moves = true;
	}
      else if (!nf_lp_rows_address (w, at, base, step, moves))
	return NF_WHY_DOT_NEST_AFFINE;
      if (arg->role == NF_ROLE_W)
	a->weight = true;
    }
  if (!my || !mx)
    return NF_WHY_ROWS_STEP;
  if (mw)
    return NF_WHY_ROWS_WEIGHT;
  const struct nf_lp_loop *l0 = &g->loops[0];
  if (nf_lp_rows_varies (w, l0->bound))
    return NF_WHY_DOT_ROW_LENGTH;
  if (nf_lp_rows_const_step_bad (a->ystep, l0)
      || nf_lp_rows_const_step_bad (a->xstep, l0))
    return NF_WHY_ROWS_STEP;
  return NULL;
}

nf_region *
nf_lp_rmsnorm_plan (const struct nf_lp_scan *s, const struct nf_lp *g,
		    const nf_match *m, bool weight, const char *const labels[3],
		    const char *r_label, unsigned line, unsigned column,
		    nf_match *rm, nf_call *plan, const char **why)
{
  const nf_region *r = g->r;
  struct nf_rmsnorm_rows_facts f;
  memset (&f, 0, sizeof f);
  f.function = s->function;
  f.loc = (nf_srcloc){ s->t->input, (int) line, (int) column };
  f.x_label = labels[1];
  f.y_label = labels[0];
  f.w_label = weight ? labels[2] : NULL;
  f.elem = nf_value_type (r, m->input).elem;
  f.accum = g->acc_f16 ? NF_ELEM_F16 : m->accum;
  f.eps_elem = f.elem == NF_ELEM_F64 ? NF_ELEM_F64 : NF_ELEM_F32;
  f.weight = weight;
  f.eps_const = m->eps == NF_NO_VALUE || nf_op (r, m->eps) == NF_OP_CONST;
  if (m->eps != NF_NO_VALUE && f.eps_const)
    f.eps_value = nf_const_value (r, m->eps);
  else if (!f.eps_const)
    f.eps_name = "eps";
  nf_region *rr = r_label ? nf_add_rmsnorm_region (&f, r_label, rm, why)
			  : nf_rmsnorm_rows_region (&f, rm, why);
  if (!rr)
    return NULL;
  nf_call_flags fl = { s->t->fast_math, s->t->associative_math,
		       s->t->ew_vectorizer };
  if ((*why = nf_call_plan (rr, rm, &fl, plan)))
    {
      nf_match_release (rm);
      nf_region_free (rr);
      return NULL;
    }
  return rr;
}

/* Append to B the test that TEXT elements per row (a null cursor: 1)
   is COUNT, unless it is the row loop's bound BOUND as written.  */
static void
nf_lp_rows_add_step (struct nf_lp_str *b, const nf_tool *t, CXCursor step,
		     const char *bound, const char *count)
{
  char *st = clang_Cursor_isNull (step) ? strdup ("1")
					: nf_lp_rows_text (t, step);
  if (!st)
    b->oom = true;
  else if (strcmp (st, bound) != 0)
    nf_lp_str_add (b, " && (size_t) (%s) == %s", st, count);
  free (st);
}

/* Step 4: the text replacing the row loop: the rows call C behind its
   test, the row loop with REP (the per-row text of SPAN) as the
   fallback; TEXTS the row-0 addresses of y, x and w, EPS the per-row
   call's eps, BOUND and COUNT its loop's bound and trip count.  */
static char *
nf_lp_rows_text_all (const nf_tool *t, const struct nf_lp_rows *w,
		     const nf_call *plan,
		     const char *const texts[3], const struct nf_lp_rows_arrays *a,
		     const struct nf_lp_span *span, const char *rep,
		     const char *bound, const char *count, const char *eps)
{
  struct nf_lp_str b = { 0 }, all = { 0 };
  const char *ys = texts[0], *xs = texts[1], *ws = texts[2];
  struct nf_lp_str steps = { 0 };
  nf_lp_str_add (&all, "%s * %s", w->rcount, count);
  nf_lp_rows_add_step (&steps, t, a->ystep, bound, count);
  nf_lp_rows_add_step (&steps, t, a->xstep, bound, count);
  /* The steps the source writes as the row length need no test.  */
  if (steps.len)
    nf_lp_str_add (&b, "if ((%s == 0 || (1%s))", count, steps.s);
  else
    nf_lp_str_add (&b, "if (1");
  b.oom |= steps.oom;
  free (steps.s);
  if (strcmp (ys, xs) != 0)
    nf_lp_str_add (&b,
		   "\n      && ((%s) == (%s) || (%s) + %s <= (%s)"
		   " || (%s) + %s <= (%s))",
		   ys, xs, ys, all.s ? all.s : "", xs, xs, all.s ? all.s : "",
		   ys);
  if (a->weight)
    nf_lp_str_add (&b, "\n      && ((%s) + %s <= (%s) || (%s) + %s <= (%s))",
		   ys, all.s ? all.s : "", ws, ws, count, ys);
  if (plan->min_n)
    nf_lp_str_add (&b, " && %s >= %u", count, plan->min_n);
  if (plan->min_elems)
    nf_lp_str_add (&b, " && %s >= %luul", all.s ? all.s : "", plan->min_elems);
  nf_lp_str_add (&b, ")\n    { %s (", plan->callee);
  for (int i = 0; i < plan->nargs; i++)
    {
      const nf_call_arg *arg = &plan->args[i];
      nf_lp_str_add (&b, "%s", i ? ", " : "");
      switch (arg->role)
	{
	case NF_ROLE_Y:
	  nf_lp_str_add (&b, "%s", ys);
	  break;
	case NF_ROLE_X:
	  nf_lp_str_add (&b, "%s", xs);
	  break;
	case NF_ROLE_W:
	  nf_lp_str_add (&b, "%s", a->weight ? ws : "0");
	  break;
	case NF_ROLE_ROWS:
	  nf_lp_str_add (&b, "%s", w->rcount);
	  break;
	case NF_ROLE_N:
	  nf_lp_str_add (&b, "%s", count);
	  break;
	case NF_ROLE_EPS:
	  nf_lp_str_add (&b, "%s", eps ? eps : "0");
	  break;
	default:
	  b.oom = true; /* No other argument has a text here.  */
	}
    }
  char *head = nf_lp_text (t, nf_ast_begin (w->loop), span->begin);
  char *tail = nf_lp_text (t, span->end, nf_ast_end (w->loop));
  nf_lp_str_add (&b, "); }\n  else\n  %s%s%s", head ? head : "", rep,
		 tail ? tail : "");
  b.oom |= !head || !tail || all.oom;
  free (head);
  free (tail);
  free (all.s);
  if (b.oom)
    {
      free (b.s);
      return NULL;
    }
  return b.s;
}

/* The eps argument's text of the per-row call C of G, or NULL.  */
static char *
nf_lp_rows_eps (const nf_tool *t, const struct nf_lp *g, const nf_call *c)
{
  for (int i = 0; i < c->nargs; i++)
    if (c->args[i].role == NF_ROLE_EPS)
      {
	struct nf_lp_str b = { 0 };
	if (!nf_lp_add_arg (&b, t, g, c, &c->args[i], ""))
	  {
	    free (b.s);
	    return NULL;
	  }
	return b.s;
      }
  return strdup ("0");
}

/* The location the dumps give the row loop LOOP in *LINE and *COLUMN:
   the plugin's, GCC's loop location, the condition's operator (the `<`
   of r < rows).  Left alone when the condition is no binary operator.  */
void
nf_lp_rows_dump_loc (const nf_tool *t, CXCursor loop, unsigned *line,
		     unsigned *column)
{
  CXCursor kids[4], lr[2];
  if (nf_ast_children (loop, kids, 4) != 4
      || nf_ast_children (kids[1], lr, 2) != 2)
    return;
  size_t cb = nf_ast_begin (kids[1]), op = nf_ast_end (lr[0]);
  while (op < t->len && (t->buf[op] == ' ' || t->buf[op] == '\t'))
    op++;
  clang_getExpansionLocation (clang_getCursorLocation (kids[1]), NULL, line,
			      column, NULL);
  if (op >= cb && op - cb < 256)
    *column += (unsigned) (op - cb);
}

int
nf_lp_rows_rewrite (struct nf_lp_scan *s, const struct nf_lp *g,
		    const nf_match *m, const nf_call *c,
		    const struct nf_lp_span *span, const char *rep,
		    const char *bound, const char *count)
{
  nf_tool *t = s->t;
  struct nf_lp_rows w;
  if (!(t->kinds & NF_KIND_RMSNORM) || !nf_lp_rows_loop (s, g, span, &w))
    return 0;
  unsigned line, column;
  nf_lp_loc (w.loop, &line, &column);
  unsigned dline = line, dcolumn = column;
  nf_lp_rows_dump_loc (t, w.loop, &dline, &dcolumn);
  struct nf_lp_rows_arrays a;
  const char *why = nf_lp_rows_args (&w, g, c, &a);
  char *eps = nf_lp_rows_eps (t, g, c);
  CXCursor ec = m->eps != NF_NO_VALUE ? nf_lp_cursor (g, m->eps)
				      : clang_getNullCursor ();
  if (!why
      && (!eps || (!clang_Cursor_isNull (ec) && nf_lp_rows_varies (&w, ec))))
    why = NF_WHY_ROWS_EPS;
  char *texts[3] = { nf_lp_rows_text (t, a.ybase), nf_lp_rows_text (t, a.xbase),
		     a.weight ? nf_lp_rows_text (t, a.wbase) : strdup ("0") };
  int done = 0;
  if (!why && (!texts[0] || !texts[1] || !texts[2]))
    why = nf_lp_rewrite_oom (s);
  nf_match rm;
  nf_call plan;
  nf_region *rr = NULL;
  const char *labels[3] = { NULL, NULL, NULL };
  char lb[3][64];
  for (int i = 0; i < 3 && !why; i++)
    {
      /* Named as the plugin names them: the base variable.  */
      CXCursor bc = i == 0 ? a.ybase : i == 1 ? a.xbase : a.wbase;
      CXString sp = clang_getCursorSpelling (nf_ast_strip_noop (bc));
      const char *nm = clang_getCString (sp);
      snprintf (lb[i], sizeof lb[i], "%s", nm && *nm ? nm : texts[i]);
      clang_disposeString (sp);
      labels[i] = lb[i];
    }
  if (!why)
    rr = nf_lp_rmsnorm_plan (s, g, m, a.weight, labels, NULL, dline, dcolumn,
			     &rm, &plan,
			  &why);
  if (rr)
    {
      const char *cts[3] = { texts[0], texts[1], texts[2] };
      char *text = nf_lp_rows_text_all (t, &w, &plan, cts, &a, span, rep,
					bound, count, eps);
      if (!text)
	why = nf_lp_rewrite_oom (s);
      else
	{
	  nf_edits_begin (t->edits);
	  nf_edits_add (t->edits, nf_ast_begin (w.loop), nf_ast_end (w.loop),
			text);
	  if (!nf_edits_commit (t->edits))
	    why = "the region overlaps another rewritten region";
	  free (text);
	}
      if (!why)
	{
	  const char *ins[6] = { labels[0], labels[1],
				 a.weight ? labels[2] : "NULL", "rows", "n",
				 "eps" };
	  nf_lp_record (s, &rm, plan.callee, nf_value_type (g->r, m->input).elem,
			g->acc_f16 ? NF_ELEM_F16 : m->accum, a.weight, false, ins,
			6, labels[0], 1, 0, line, column, -1, 0);
	  done = 1;
	}
      nf_match_release (&rm);
      nf_region_free (rr);
    }
  /* A near miss of the rows: at the row loop, and the rows keep their
     call per row.  */
  if (why && !s->oom)
    nf_record_missed (t, NF_KIND_RMSNORM, s->function, line, column, why);
  for (int i = 0; i < 3; i++)
    free (texts[i]);
  free (eps);
  free (w.rbound);
  free (w.rcount);
  return done;
}
