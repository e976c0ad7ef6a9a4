/* loop-softmax-call.c: the Softmax kind's facts, plan and call (steps
   6 and 7 of loop-softmax.c's comment, plugin/loop-softmax.cc's
   nf_sm_fuse, nf_sm_ok and nf_sm_outline): the facts as the plugin
   fills them go to lower/'s nf_softmax_loops_region, the region to
   nf_call_plan; the plugin's run-time test is spelled in C,

     if (<C's count> == <B's> && (<A's> + START == <B's> || <B's> == 0)
	 && ((y) == (x) || (y) + <B's> <= (x) || (x) + <B's> <= (y)))
       { nf_softmax_f32 (y, x, <B's count>); }
     else
       {
     <the loops A to C and what is between them>
       }

   without the parts that hold by the source's text (one bound written
   the same, y the same address as x), "1" when none is left, and
   NF_WHY_SOFTMAX_COUNTS when it can never hold (constant bounds that
   differ, constant overlapping offsets); the report entry is the
   plugin's (A's line to C's store, no errno note: the plugin's has
   none).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "loop-softmax.h"
#include "record.h"

/* --- Steps 6-7: the facts, the plan, the call.  --- */

/* The seed's form: x[0] (B's first element), a constant, or other.  */
static enum nf_softmax_seed
nf_sm_seed (const struct nf_sm *sm, double *value)
{
  CXCursor e;
  *value = 0;
  if (nf_sm_setter (sm, sm->m, sm->ia, &e) < 0)
    return NF_SOFTMAX_SEED_OTHER;
  if (nf_sm_const (e, value))
    return NF_SOFTMAX_SEED_CONST;
  CXCursor k[2];
  double v;
  e = nf_ast_strip_noop (e);
  if (clang_getCursorKind (e) == CXCursor_ArraySubscriptExpr
      && nf_ast_children (e, k, 2) == 2 && nf_ast_const (k[1], &v)
      && nf_lp_same_text (sm->s->t, k[0], sm->xb.base)
      && v == (double) nf_sm_first (&sm->xb, &sm->l[1]))
    return NF_SOFTMAX_SEED_FIRST;
  return NF_SOFTMAX_SEED_OTHER;
}

/* The text of loop L's trip count as a size_t (a new string), or NULL
   when out of memory.  */
static char *
nf_sm_count (const nf_tool *t, const struct nf_sm_loop *l)
{
  struct nf_lp_str c = { 0 };
  char *b = nf_lp_text (t, nf_ast_begin (l->bound), nf_ast_end (l->bound));
  if (!b)
    return NULL;
  if (l->start)
    nf_lp_str_add (&c, "((%s) > %lld ? (size_t) (%s) - %lld : 0)", b,
		   (long long) l->start, b, (long long) l->start);
  else if (l->is_signed)
    nf_lp_str_add (&c, "((%s) > 0 ? (size_t) (%s) : 0)", b, b);
  else
    nf_lp_str_add (&c, "(size_t) (%s)", b);
  free (b);
  return c.s;
}

/* The address of the first element of A (of loop L), a new string.  */
static char *
nf_sm_address (const nf_tool *t, const struct nf_sm_acc *a,
	       const struct nf_sm_loop *l)
{
  struct nf_lp_str s = { 0 };
  char *b = nf_lp_text (t, nf_ast_begin (a->base), nf_ast_end (a->base));
  int64_t first = nf_sm_first (a, l);
  if (b && first)
    nf_lp_str_add (&s, "((%s) + %lld)", b, (long long) first);
  else if (b)
    nf_lp_str_add (&s, "%s", b);
  free (b);
  return s.s;
}

/* The constant trip count of loop L, or -1.  */
static int64_t
nf_sm_extent (const struct nf_sm_loop *l)
{
  double v;
  if (!nf_ast_const (l->bound, &v) || v != (double) (int64_t) v)
    return -1;
  return v > (double) l->start ? (int64_t) v - l->start : 0;
}

/* Append to B the plugin's run-time test of the call C on SM's loops
   (counts in CNT, the output Y and input X addresses): C's and B's
   counts equal, A's B's less START (or B's 0), y x or apart from it;
   "1" when nothing is left to test.  *FALSE_ says when it never
   holds.  */
static void
nf_sm_guard (struct nf_lp_str *b, const struct nf_sm *sm, const nf_call *c,
	     char *const *cnt, const char *y, const char *x, int start,
	     bool *false_)
{
  const nf_tool *t = sm->s->t;
  const struct nf_sm_loop *l = sm->l;
  int64_t e[3]
    = { nf_sm_extent (&l[0]), nf_sm_extent (&l[1]), nf_sm_extent (&l[2]) };
  size_t len = b->len;
  bool same_bc
    = nf_lp_same_text (t, l[1].bound, l[2].bound) && l[1].start == l[2].start;
  bool same_ab
    = nf_lp_same_text (t, l[0].bound, l[1].bound) && sm->xa.off == sm->xb.off;
  *false_ = (e[1] >= 0 && e[2] >= 0 && e[1] != e[2])
	    || (e[0] >= 0 && e[1] >= 0 && e[0] + start != e[1]
		&& !(start && e[1] == 0));
  if (!same_bc && (e[1] < 0 || e[2] < 0))
    nf_lp_str_add (b, "%s == %s", cnt[1], cnt[2]);
  if (!same_ab && (e[0] < 0 || e[1] < 0) && start)
    nf_lp_str_add (b, "%s(%s + 1 == %s || %s == 0)", b->len > len ? " && " : "",
		   cnt[0], cnt[1], cnt[1]);
  else if (!same_ab && (e[0] < 0 || e[1] < 0))
    nf_lp_str_add (b, "%s%s == %s", b->len > len ? " && " : "", cnt[0], cnt[1]);
  int64_t d;
  if (!nf_sm_distance (t, &sm->ycs, &l[2], &sm->xb, &l[1], &d)
      || (d != 0 && e[1] < 0))
    nf_lp_str_add (
      b, "%s((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))",
      b->len > len ? "\n      && " : "", y, x, y, cnt[1], x, x, cnt[1], y);
  else if (d != 0 && (d < 0 ? -d : d) < e[1])
    *false_ = true;
  if (c->min_n)
    nf_lp_str_add (b, "%s%s >= %u", b->len > len ? " && " : "", cnt[1],
		   c->min_n);
  if (b->len == len)
    nf_lp_str_add (b, "1");
}

/* Record the region of match M (region R, plan C) of SM at A's line,
   ending at C's store, X and Y the arrays' texts, N the count's.  */
static void
nf_sm_record (const struct nf_sm *sm, const nf_region *r, const nf_match *m,
	      const nf_call *c, const char *x, const char *y, const char *n)
{
  nf_tool *t = sm->s->t;
  const char *ins[2] = { x, n };
  const char *outs[1] = { y };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 0 };
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  nf_region_desc d;
  nf_region_desc_init (&d, NF_KIND_SOFTMAX, c->callee, nf_elem_name (elem),
		       nf_elem_name (m->accum), ins, 2, outs, 1);
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  /* (no errno note: the plugin's entry has none, and the parity tests
     compare the notes)  */
  nf_region_contract (&d, notes, NF_KIND_SOFTMAX, elem, m->accum, false, false,
		      t->math_errno);
  if (c->flops >= 0)
    {
      d.flops = c->flops;
      d.bytes = c->bytes;
    }
  unsigned line, column, end, ec;
  nf_sm_loc (sm, &line, &column);
  nf_lp_loc (sm->store_c, &end, &ec);
  d.end_line = (int) end;
  t->needs_runtime = true;
  nf_record_region (t, &d, sm->s->function, line, column, m);
}

/* The blanks before AT on its line of T's buffer (a new string: "" when
   something else comes before AT there), or NULL when out of memory.  */
static char *
nf_sm_indent (const nf_tool *t, size_t at)
{
  size_t ls = at;
  while (ls > 0 && (t->buf[ls - 1] == ' ' || t->buf[ls - 1] == '\t'))
    ls--;
  return nf_lp_text (t, ls == 0 || t->buf[ls - 1] == '\n' ? ls : at, at);
}

/* Step 7: the call C of match M (region R) inserted before A behind its
   test, A to C its else block.  Returns NULL, or the reason not.  */
static const char *
nf_sm_rewrite (struct nf_sm *sm, const nf_region *r, const nf_match *m,
	       const nf_call *c, int start)
{
  nf_tool *t = sm->s->t;
  size_t begin = nf_lp_pragmas_before (t, nf_ast_begin (sm->l[0].stmt));
  size_t end = nf_lp_stmt_end (t, sm->l[2].stmt);
  if (end <= begin || nf_tool_in_macro (t, begin, begin + 1)
      || nf_tool_in_macro (t, end - 1, end))
    return NF_CLANG_WHY_MACRO;
  bool omp = false;
  for (int k = 0; k < 3; k++)
    {
      size_t lb = nf_ast_begin (sm->l[k].stmt);
      omp |= nf_lp_omp_pragma (t, nf_lp_pragmas_before (t, lb), lb);
    }
  char *cnt[3] = { nf_sm_count (t, &sm->l[0]), nf_sm_count (t, &sm->l[1]),
		   nf_sm_count (t, &sm->l[2]) };
  char *y = nf_sm_address (t, &sm->ycs, &sm->l[2]);
  char *x = nf_sm_address (t, &sm->xb, &sm->l[1]);
  char *xs
    = nf_lp_text (t, nf_ast_begin (sm->xb.base), nf_ast_end (sm->xb.base));
  char *ys
    = nf_lp_text (t, nf_ast_begin (sm->ycs.base), nf_ast_end (sm->ycs.base));
  char *ns = nf_lp_text (t, nf_ast_begin (sm->l[1].bound),
			 nf_ast_end (sm->l[1].bound));
  struct nf_lp_str b = { 0 };
  const char *why = NULL;
  bool never = false;
  /* The added lines indented as A, the text at BEGIN as it was.  */
  char *ind = nf_sm_indent (t, nf_ast_begin (sm->l[0].stmt));
  char *pind = nf_sm_indent (t, begin);
  struct nf_lp_str tail = { 0 };
  if (ind)
    nf_lp_str_add (&tail, "\n%s  }", ind);
  if (!cnt[0] || !cnt[1] || !cnt[2] || !y || !x || !xs || !ys || !ns || !pind
      || !tail.s)
    b.oom = true;
  else
    {
      if (omp)
	nf_lp_str_add (&b, NF_LP_OMP_IF "%s", ind);
      nf_lp_str_add (&b, "if (");
      nf_sm_guard (&b, sm, c, cnt, y, x, start, &never);
      NF_ASSERT (c->nargs == 3 && c->args[0].role == NF_ROLE_Y
		   && c->args[1].role == NF_ROLE_X
		   && c->args[2].role == NF_ROLE_N,
		 "a softmax call is y, x, n");
      nf_lp_str_add (&b, ")\n%s  { %s (%s, %s, %s); }\n%selse\n%s%s  {\n%s",
		     ind, c->callee, y, x, cnt[1], ind,
		     omp ? NF_LP_OMP_ENDIF : "", ind, pind);
    }
  if (b.oom)
    {
      sm->s->oom = 1;
      why = "out of memory";
    }
  else if (never)
    why = NF_WHY_SOFTMAX_COUNTS;
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, begin, begin, b.s);
      nf_edits_add (t->edits, end, end, tail.s);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    nf_sm_record (sm, r, m, c, xs, ys, ns);
  for (int k = 0; k < 3; k++)
    free (cnt[k]);
  free (y);
  free (x);
  free (xs);
  free (ys);
  free (ns);
  free (ind);
  free (pind);
  free (tail.s);
  free (b.s);
  return why;
}

/* Steps 4-7 on the loops SM found: the reason, or NULL when fused.  */
const char *
nf_sm_fuse (struct nf_sm *sm)
{
  const nf_tool *t = sm->s->t;
  const char *why = nf_sm_region (sm);
  int start;
  bool sub_same, exp_kept;
  if (!why)
    why = nf_sm_accesses (sm, &start, &sub_same, &exp_kept);
  if (why)
    return why;
  struct nf_softmax_facts f;
  memset (&f, 0, sizeof f);
  unsigned line, column;
  nf_sm_loc (sm, &line, &column);
  f.function = sm->s->function;
  f.loc = (nf_srcloc){ t->input, (int) line, (int) column };
  char *xl
    = nf_lp_text (t, nf_ast_begin (sm->xb.base), nf_ast_end (sm->xb.base));
  char *yl
    = nf_lp_text (t, nf_ast_begin (sm->ycs.base), nf_ast_end (sm->ycs.base));
  CXCursor nv = nf_lp_var_of (sm->l[1].bound);
  CXString ns = clang_getCursorSpelling (nv);
  f.x_label = xl;
  f.y_label = yl;
  f.n_name = clang_Cursor_isNull (nv) ? NULL : clang_getCString (ns);
  f.elem = f.exp_elem = f.accum = sm->elt;
  f.seed = nf_sm_seed (sm, &f.seed_value);
  CXCursor init;
  f.sum_init = 1.0; /* (not a constant: the plugin's stand-in)  */
  if (nf_sm_setter (sm, sm->sum, sm->ib, &init) >= 0)
    nf_sm_const (init, &f.sum_init);
  f.sub_same = sub_same;
  f.recip = sm->recip;
  f.exp_kept = exp_kept;
  nf_match m;
  nf_region *r = NULL;
  if (!xl || !yl)
    why = (sm->s->oom = 1, "out of memory");
  else if (start == 1 && f.seed != NF_SOFTMAX_SEED_FIRST)
    why = NF_WHY_SOFTMAX_SKIPS;
  else if ((r = nf_softmax_loops_region (&f, &m, &why)))
    {
      nf_call c;
      /* (ew_vectorizer: the plugin's nf_wide_vector_math_p)  */
      nf_call_flags fl
	= { t->fast_math, t->associative_math, t->ew_vectorizer };
      why = nf_call_plan (r, &m, &fl, &c);
      if (!why)
	why = nf_sm_rewrite (sm, r, &m, &c, start);
      nf_match_release (&m);
      nf_region_free (r);
    }
  clang_disposeString (ns);
  free (xl);
  free (yl);
  return why;
}
