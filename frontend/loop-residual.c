/* loop-residual.c: the residual add before an RMSNorm, as one call of
   nf_add_rmsnorm_*, in the source (the libclang twin of
   plugin/loop-residual.cc).

   A transformer block's add, then its RMSNorm, written one after the
   other in a function:

     for (int i = 0; i < n; i++)          if ((size_t) (n) == <count>
       x[i] += r[i];                          && ((r) + <count> <= (x)
     <the RMSNorm of x into y>      =>        || (x) + <count> <= (r))
					      && <the RMSNorm's test>)
					    { nf_add_rmsnorm_f32 (y, x, r, w,
							<count>, eps); }
					  else
					    {
					  for (...) x[i] += r[i];
					  <the RMSNorm's rewrite>
					    }

   Steps (nf_lp_residual_rewrite): 1. the statement right before the
   RMSNorm's first loop (past declarations that can go before it) is a
   `for` loop whose region (built as an elementwise loop's) is the add
   x[i] = x[i] + r[i] and nothing else (lower/'s
   nf_match_residual_loop), with nothing it computes used after it,
   over the RMSNorm's x as written; 2. lower/'s region of both
   (nf_add_rmsnorm_region, through nf_lp_rmsnorm_plan) and its plan; 3. the text: the two counts the
   same and r apart from x, with the RMSNorm's own test, the add's loop
   and the RMSNorm's rewrite as the fallback; recorded as the plugin
   records it, at the add's loop (the RMSNorm's own region is recorded
   by the caller, as the plugin records it before it meets the add).

   Limitations: the add and the RMSNorm in one function (the plugin also
   fuses an RMSNorm inlined after the add); x from its first element,
   written alike in both.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "loop-int.h"
#include "record.h"
#include "residual.h"

/* A visitor: whether the cursor reads memory or has an effect
   (*(bool *) DATA): what an initializer moved before the add may not.  */
static enum CXChildVisitResult
nf_lp_residual_reads (CXCursor c, CXCursor parent, CXClientData data)
{
  bool *hit = data;
  (void) parent;
  enum CXCursorKind k = clang_getCursorKind (c);
  bool effect = false;
  nf_lp_effect_visit (c, c, &effect);
  if (effect || k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr
      || k == CXCursor_MemberRefExpr
      || (k == CXCursor_UnaryOperator && !clang_Cursor_isNull (c)
	  && clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Deref))
    {
      *hit = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* Whether C declares variables whose initializers read no memory and
   have no effect (the sum's `float ss = 0.0f;`): it may go before the
   add.  */
static bool
nf_lp_residual_movable_var (CXCursor v)
{
  CXCursor in = clang_Cursor_getVarDeclInitializer (v);
  bool hit = false;
  if (!clang_Cursor_isNull (in))
    {
      nf_lp_residual_reads (in, in, &hit);
      if (!hit)
	clang_visitChildren (in, nf_lp_residual_reads, &hit);
    }
  return !hit;
}

static bool
nf_lp_residual_movable (CXCursor c)
{
  return nf_lp_each_decl (c, nf_lp_residual_movable_var);
}

/* Step 1: the add loop STMT of the scan S into A (started), over the
   elements of the array X_TEXT: its r's text (a new string) and its
   count's in *COUNT, and its text range in *AS; NULL when it is no
   such add.  */
static char *
nf_lp_residual_loop (struct nf_lp_scan *s, struct nf_lp *a, CXCursor *stmt,
		     const char *x_text, enum nf_elem elem,
		     struct nf_lp_span *as, char **count)
{
  *count = NULL;
  CXCursor body = nf_lp_loop (a, *stmt);
  nf_value store
    = clang_Cursor_isNull (body) ? NF_NO_VALUE : nf_lp_map_body (a, body);
  nf_value xp, rp;
  if (store == NF_NO_VALUE || a->fail || a->oom
      || !nf_match_residual_loop (a->r, store, &xp, &rp)
      || nf_value_type (a->r, nf_op_operand (a->r, store, 0)).elem != elem
      || nf_lp_array_offset (a, xp) != 0 || nf_lp_array_offset (a, rp) != 0
      || strcmp (nf_lp_array_text (a, xp), x_text) != 0)
    return NULL;
  *as = (struct nf_lp_span){ stmt, 1, 0, 0, 0, 0, 0, 0, NULL };
  nf_lp_loc (*stmt, &as->line, &as->column);
  char *bound;
  if (nf_lp_loop_leaves (s, a, as)
      || !nf_lp_count_text (s->t, &a->loops[0], &bound, count))
    return NULL;
  free (bound);
  return strdup (nf_lp_array_text (a, rp));
}

/* Step 3: the text replacing the add AS, the declarations after it up
   to BEGIN (moved before it) and the RMSNorm (REP, its rewrite) with the
   call CALLEE: the RMSNorm's call C of G with R's text RS after x.  NULL
   when out of memory.  */
static char *
nf_lp_residual_text (const nf_tool *t, const struct nf_lp *g, const nf_call *c,
		     const char *callee, const struct nf_lp_span *as,
		     size_t begin, const char *rs, const char *xs,
		     const char *count, const char *count2, const char *rep)
{
  struct nf_lp_str b = { 0 };
  char *orig = nf_lp_text (t, as->begin, as->end);
  char *decls = nf_lp_text (t, as->end, begin);
  if (!orig || !decls)
    {
      free (orig);
      free (decls);
      return NULL;
    }
  /* The declarations first (their text starts after the loop's end).  */
  size_t lead = strspn (decls, " \t\n"), len = strlen (decls);
  while (len > lead && strchr (" \t\n", decls[len - 1]))
    len--;
  if (len > lead)
    nf_lp_str_add (&b, "%.*s\n  ", (int) (len - lead), decls + lead);
  free (decls);
  nf_lp_str_add (&b, "if (");
  if (strcmp (count2, count) != 0)
    nf_lp_str_add (&b, "%s == %s && ", count2, count);
  nf_lp_str_add (&b, "((%s) + %s <= (%s) || (%s) + %s <= (%s)) && ", rs,
		 count, xs, xs, count, rs);
  nf_lp_add_guard (&b, g, c, count);
  nf_lp_str_add (&b, ")\n    { %s (", callee);
  bool ok = true;
  for (int i = 0; i < c->nargs && ok; i++)
    {
      if (i)
	nf_lp_str_add (&b, ", ");
      ok = nf_lp_add_arg (&b, t, g, c, &c->args[i], count);
      if (c->args[i].role == NF_ROLE_X)
	nf_lp_str_add (&b, ", %s", rs);
    }
  nf_lp_str_add (&b, "); }\n  else\n    {\n  %s\n  %s\n    }", orig, rep);
  free (orig);
  if (b.oom || !ok)
    {
      free (b.s);
      return NULL;
    }
  return b.s;
}

bool
nf_lp_residual_rewrite (struct nf_lp_scan *s, const struct nf_lp *g,
			const nf_match *m, const nf_call *c,
			const struct nf_lp_span *span, const char *rep,
			const char *count)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  /* The add's loop, past declarations that can go before it.  */
  int k = span->first - 1;
  while (k >= 0 && nf_lp_residual_movable (span->stmts[k]))
    k--;
  if (k < 0 || m->gain_plus_one || c->store == NF_NO_VALUE
      || (elem != NF_ELEM_F32 && elem != NF_ELEM_F64)
      || clang_getCursorKind (span->stmts[k]) != CXCursor_ForStmt)
    return false;
  struct nf_lp a;
  if (!nf_lp_start (&a, s, /*map=*/true))
    return s->oom = 1, false;
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  const char *ys = nf_lp_array_text (g, nf_access_base (r, c->store));
  const char *ws = m->weight != NF_NO_VALUE
		     ? nf_lp_array_text (g, nf_access_base (r, m->weight))
		     : NULL;
  struct nf_lp_span as;
  char *count2;
  char *rs = nf_lp_residual_loop (s, &a, &span->stmts[k], xs, elem, &as,
				  &count2);
  if (a.oom)
    s->oom = 1;
  nf_lp_finish (&a);
  bool done = false;
  nf_match rm;
  nf_call plan;
  const char *why = NULL;
  /* The dumps' location is the plugin's: the loop condition's operator.  */
  unsigned dline = as.line, dcolumn = as.column;
  if (rs)
    nf_lp_rows_dump_loc (t, span->stmts[k], &dline, &dcolumn);
  nf_region *rr
    = rs && count2 && nf_lp_array_offset (g, nf_access_base (r, m->input)) == 0
	? nf_lp_rmsnorm_plan (s, g, m, ws != NULL,
			      (const char *const[3]){ ys, xs, ws }, rs, dline,
			      dcolumn, &rm, &plan, &why)
	: NULL;
  char *text = rr ? nf_lp_residual_text (t, g, c, plan.callee, &as,
					 span->begin, rs, xs, count, count2,
					 rep)
		  : NULL;
  if (text)
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, as.begin, span->end, text);
      done = nf_edits_commit (t->edits);
    }
  if (done)
    {
      const char *ins[6] = { ys, xs, rs, ws ? ws : "0", count, "eps" };
      nf_lp_record (s, &rm, plan.callee, elem, m->accum, ws != NULL, false,
		    ins, 6, ys, 0, 0, as.line, as.column, plan.flops,
		    plan.bytes);
    }
  if (rr)
    {
      nf_match_release (&rm);
      nf_region_free (rr);
    }
  free (text);
  free (rs);
  free (count2);
  return done;
}
