/* loop-rewrite.c: the fused calls of the loop regions spelled in C (the
   libclang twin of plugin/loop.cc's rewrite and plugin/record.cc's
   entries): the callee, its arguments' texts, the plugin's run-time
   overlap test, the edits, and the report entry.  loop.c, the driver,
   has built the region (loop-ir.c) and matched it; each function here
   takes the scan, the region, the match, the store and where the
   region is (struct nf_lp_span), and returns NULL or the reason it
   does not rewrite.

     for (int j = 0; j < n; j++) ss += x[j] * x[j];
     ss /= n; ss += 1e-5f; ss = 1.0f / sqrtf (ss);
     for (int j = 0; j < n; j++) o[j] = w[j] * (ss * x[j]);
   becomes (RMSNorm)
     if (((o) == (x) || (o) + <count> <= (x) || (x) + <count> <= (o))
	 && ((o) == (w) || ...))
       { nf_rmsnorm_f32 (o, x, w, <count>, (float) 0x1.4f8b58p-17); }
     else
       { <the original statements> }

   1. The count (nf_lp_count_text): (size_t) (n) for an unsigned bound,
      ((n) > 0 ? (size_t) (n) : 0) for a signed one, as the plugin's
      guarded trip count.
   2. The plan: lower/'s nf_call_plan (call.h) names the callee, its
      arguments' roles and the overlap pairs, as for the plugin; here
      they are spelled in C: an array's text (plus the access's
      offset), the count, a scalar as a hex float constant or the text
      it was read from, an Elementwise program as octal escapes
      (nf_lp_add_call), and the test that each pair is the same or
      disjoint, with n >= min_n (nf_lp_add_guard).
   3. MulRedSqrt (nf_lp_mulredsqrt_rewrite): the loop becomes
      `(void) acc;` and sqrtf (s) in the next statement the plan's
      call, nf_nrm2_f32 (x, <count>) (or, where the plan's value is
      the sum of squares, sqrtf (nf_sumsq_f32 (x, <count>))); the
      accumulator must be read nowhere else.
   4. RMSNorm (nf_lp_rmsnorm_rewrite): the region's statements become
      the call behind the test, with the statements as the fallback.
   5. Elementwise loops, array kernels and nf_elementwise programs
      alike (nf_lp_loop_rewrite): the call behind its test is inserted
      before the loop, which stays as the fallback.
   The report entry (nf_lp_record): lower/'s nf_region_contract gives
   the notes, as the plugin's; the cost is the plan's where it has one
   (a distance, a normalisation, an Elementwise program), else the
   report's estimate, as the plugin's.

   Every text is built on the heap to the size it needs (nf_lp_str):
   nothing the source writes is cut short.

   Limitations: the texts of arrays, bounds and eps are the source's, evaluated again by the call
   and the test (the builder refused those with side effects).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop-int.h"
#include "record.h"

const char *
nf_lp_array_text (const struct nf_lp *g, nf_value p)
{
  for (int i = 0; i < g->n_arrays; i++)
    if (g->arrays[i].param == p)
      return g->arrays[i].text;
  /* The matchers hand over accesses only (nf_match_array_input), and
     every access the builder makes has its array: a call on "0" would be
     a wrong program.  */
  nf_internal_error ("a kernel argument has no array", __FILE__, __LINE__);
}

int64_t
nf_lp_array_offset (const struct nf_lp *g, nf_value p)
{
  for (int i = 0; i < g->n_arrays; i++)
    if (g->arrays[i].param == p)
      return g->arrays[i].offset;
  nf_internal_error ("a kernel argument has no array", __FILE__, __LINE__);
}

void
nf_lp_str_add (struct nf_lp_str *b, const char *fmt, ...)
{
  va_list ap;
  if (b->oom)
    return;
  va_start (ap, fmt);
  int n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  if (n < 0)
    goto oom;
  if (b->len + (size_t) n + 1 > b->cap)
    {
      size_t cap = 2 * (b->len + (size_t) n + 1);
      char *s = realloc (b->s, cap);
      if (!s)
	goto oom;
      b->s = s;
      b->cap = cap;
    }
  va_start (ap, fmt);
  vsnprintf (b->s + b->len, b->cap - b->len, fmt, ap);
  va_end (ap);
  b->len += (size_t) n;
  return;
oom:
  free (b->s);
  b->s = NULL;
  b->len = b->cap = 0;
  b->oom = true;
}

const char *
nf_lp_str_get (const struct nf_lp_str *b)
{
  return b->s ? b->s : "";
}

const char *
nf_lp_rewrite_oom (struct nf_lp_scan *s)
{
  s->oom = 1;
  return "out of memory";
}

size_t
nf_lp_pragmas_before (const nf_tool *t, size_t begin)
{
  const char *b = t->buf;
  size_t at = begin;
  for (;;)
    {
      /* The start of AT's line, when only blanks come before AT on it.  */
      size_t ls = at;
      while (ls > 0 && (b[ls - 1] == ' ' || b[ls - 1] == '\t'))
	ls--;
      if (ls == 0 || b[ls - 1] != '\n')
	return at;
      /* The line before: a #pragma (not continued from its own line
	 before) belongs to the statement at AT.  */
      size_t pe = ls - 1, ps = pe;
      while (ps > 0 && b[ps - 1] != '\n')
	ps--;
      size_t q = ps;
      while (q < pe && (b[q] == ' ' || b[q] == '\t'))
	q++;
      if (q >= pe || b[q] != '#' || (ps >= 2 && b[ps - 2] == '\\'))
	return at;
      size_t hash = q++;
      while (q < pe && (b[q] == ' ' || b[q] == '\t'))
	q++;
      if (pe - q < 6 || memcmp (b + q, "pragma", 6) != 0)
	return at;
      at = hash;
    }
}

bool
nf_lp_omp_pragma (const nf_tool *t, size_t from, size_t to)
{
  for (size_t i = from; i + 3 <= to && i + 3 <= t->len; i++)
    if (memcmp (t->buf + i, "omp", 3) == 0
	&& (i == 0 || t->buf[i - 1] == ' ' || t->buf[i - 1] == '\t')
	&& (i + 3 == t->len || t->buf[i + 3] == ' ' || t->buf[i + 3] == '\t'
	    || t->buf[i + 3] == '\n'))
      return true;
  return false;
}

bool
nf_lp_count_text (const nf_tool *t, const struct nf_lp_loop *l, char **bound,
		  char **count)
{
  struct nf_lp_str c = { 0 };
  *bound = nf_lp_text (t, nf_ast_begin (l->bound), nf_ast_end (l->bound));
  *count = NULL;
  if (!*bound)
    return false;
  if (l->is_signed)
    nf_lp_str_add (&c, "((%s) > 0 ? (size_t) (%s) : 0)", *bound, *bound);
  else
    nf_lp_str_add (&c, "(size_t) (%s)", *bound);
  *count = c.s;
  return !c.oom;
}

void
nf_lp_record (struct nf_lp_scan *s, const nf_match *m, const char *callee,
	      enum nf_elem elem, enum nf_elem accum, bool weighted, bool map,
	      const char *const *ins, size_t n_ins, const char *out,
	      int reduce_dim, unsigned end_line, unsigned line, unsigned column,
	      double flops, double bytes)
{
  nf_tool *t = s->t;
  const char *outs[1] = { out };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { reduce_dim };
  nf_region_desc d;
  nf_region_desc_init (&d, m->kind, callee, nf_elem_name (elem),
		       nf_elem_name (accum), ins, n_ins, outs, 1);
  d.reduce_dims = dims;
  d.n_reduce_dims = 1;
  nf_region_contract (&d, notes, m->kind, elem, accum, weighted, map,
		      t->math_errno);
  if (flops >= 0)
    {
      d.flops = flops;
      d.bytes = bytes;
    }
  d.end_line = (int) end_line;
  t->needs_runtime = true;
  nf_record_region (t, &d, s->function, line, column, m);
}

/* --- Step 2: the plan (lower/call.h) spelled in C.  --- */

/* Plan into *C the call of the match M of G under the flags of S's
   tool.  Returns NULL, or the reason no call stands for M.  */
static const char *
nf_lp_plan (const struct nf_lp_scan *s, const struct nf_lp *g,
	    const nf_match *m, nf_call *c)
{
  nf_call_flags flags
    = { s->t->fast_math, s->t->associative_math, s->t->ew_vectorizer };
  return nf_call_plan (g->r, m, &flags, c);
}

/* Append to B the address of the first element the LOAD or STORE V of
   G accesses: its array's text, plus the element the array starts at
   and the access's offset.  */
static void
nf_lp_add_address (struct nf_lp_str *b, const struct nf_lp *g, nf_value v)
{
  nf_value p = nf_access_base (g->r, v);
  const char *base = nf_lp_array_text (g, p);
  long long off
    = (long long) (nf_lp_array_offset (g, p) + nf_access_offset (g->r, v));
  if (off == 0)
    nf_lp_str_add (b, "%s", base);
  else
    nf_lp_str_add (b, "((%s) + %lld)", base, off);
}

/* The text of nf_lp_add_address (a new string), or NULL when out of
   memory.  */
static char *
nf_lp_address (const struct nf_lp *g, nf_value v)
{
  struct nf_lp_str b = { 0 };
  nf_lp_add_address (&b, g, v);
  return b.s;
}

/* The text of the parameter V of G, as the source reads it: a member
   s->eps, a variable, or the expression V was built from; NULL when it
   has none.  The caller frees it.  */
static char *
nf_lp_param_text (const nf_tool *t, const struct nf_lp *g, nf_value v)
{
  for (int i = 0; i < g->n_leaves; i++)
    if (g->leaves[i].param == v)
      return strdup (g->leaves[i].text);
  for (int i = 0; i < g->n_vars; i++)
    if (g->vparam[i] && g->vval[i] == v)
      {
	CXString sp = clang_getCursorSpelling (g->vdecl[i]);
	const char *name = clang_getCString (sp);
	char *text = name && *name ? strdup (name) : NULL;
	clang_disposeString (sp);
	return text;
      }
  CXCursor c = nf_lp_cursor (g, v);
  if (clang_Cursor_isNull (c))
    return NULL;
  return nf_lp_text (t, nf_ast_begin (c), nf_ast_end (c));
}

/* Append to B the scalar argument V of G converted to ELEM (0 for
   NF_NO_VALUE): a constant as a hex float, a parameter as the text it
   was read from.  Returns false when V has no text (it is computed
   inside the region).  */
static bool
nf_lp_add_scalar (struct nf_lp_str *b, const nf_tool *t, const struct nf_lp *g,
		  nf_value v, enum nf_elem elem)
{
  const char *ft = elem == NF_ELEM_F64 ? "double" : "float";
  if (v == NF_NO_VALUE)
    {
      nf_lp_str_add (b, "0");
      return true;
    }
  if (nf_op (g->r, v) == NF_OP_CONST)
    {
      nf_lp_str_add (b, "(%s) %a", ft, nf_const_value (g->r, v));
      return true;
    }
  if (nf_op (g->r, v) != NF_OP_PARAM)
    return false;
  char *text = nf_lp_param_text (t, g, v);
  if (text)
    nf_lp_str_add (b, "(%s) (%s)", ft, text);
  free (text);
  return text != NULL;
}

bool
nf_lp_add_arg (struct nf_lp_str *b, const nf_tool *t, const struct nf_lp *g,
	       const nf_call *c, const nf_call_arg *a, const char *count)
{
  switch (a->role)
    {
    case NF_ROLE_Y:
    case NF_ROLE_X:
    case NF_ROLE_W:
      if (a->value == NF_NO_VALUE)
	nf_lp_str_add (b, "0");
      else
	nf_lp_add_address (b, g, a->value);
      return true;
    case NF_ROLE_N:
      nf_lp_str_add (b, "%s", count);
      return true;
    case NF_ROLE_PROG:
      /* Octal escapes of at most three digits: none runs into the
	 next.  */
      nf_lp_str_add (b, "(const unsigned char *) \"");
      for (int i = 0; i < c->ew.len; i++)
	nf_lp_str_add (b, "\\%03o", c->ew.prog[i]);
      nf_lp_str_add (b, "\"");
      return true;
    case NF_ROLE_EPS:
    case NF_ROLE_SCALAR:
      return nf_lp_add_scalar (b, t, g, a->value, a->elem);
    case NF_ROLE_ROWS:
      return false; /* No loop nest is one region here yet.  */
    }
  NF_ASSERT (false, "a call argument with no C spelling");
  return false;
}

/* Append to B the call C of G on COUNT elements, "callee (args)".
   Returns false when an argument has no text here.  */
static bool
nf_lp_add_call (struct nf_lp_str *b, const nf_tool *t, const struct nf_lp *g,
		const nf_call *c, const char *count)
{
  nf_lp_str_add (b, "%s (", c->callee);
  for (int i = 0; i < c->nargs; i++)
    {
      if (i)
	nf_lp_str_add (b, ", ");
      if (!nf_lp_add_arg (b, t, g, c, &c->args[i], count))
	return false;
    }
  nf_lp_str_add (b, ")");
  return true;
}

/* Append to B the test that the arrays texts YS (elements of YSZ bytes)
   and XS (XSZ) are the same or disjoint over COUNT elements, after
   " && " unless B is empty: the plugin's nf_loop_disjoint2.  */
static void
nf_lp_add_disjoint (struct nf_lp_str *b, const char *ys, int ysz,
		    const char *xs, int xsz, const char *count)
{
  const char *and = b->len ? " && " : "";
  if (ysz == xsz)
    nf_lp_str_add (b,
		   "%s((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))",
		   and, ys, xs, ys, count, xs, xs, count, ys);
  else
    nf_lp_str_add (b,
		   "%s((const void *) (%s) == (const void *) (%s)"
		   " || (const char *) ((%s) + %s) <= (const char *) (%s)"
		   " || (const char *) ((%s) + %s) <= (const char *) (%s))",
		   and, ys, xs, ys, count, xs, xs, count, ys);
}

/* The size in bytes of an element of the array the access V of G
   reads or writes.  */
static int
nf_lp_elem_size (const struct nf_lp *g, nf_value v)
{
  enum nf_elem elem = nf_value_type (g->r, nf_access_base (g->r, v)).elem;
  return elem == NF_ELEM_F64 ? 8 : elem == NF_ELEM_F16 ? 2 : 4;
}

/* Append to B the run-time test under which the call C of G on COUNT
   elements is the code's: each pair of C's overlaps the same elements
   (the same text: in place) or disjoint, and COUNT at least C's
   min_n; "1" when nothing is to test.  */
void
nf_lp_add_guard (struct nf_lp_str *b, const struct nf_lp *g, const nf_call *c,
		 const char *count)
{
  struct nf_lp_str ok = { 0 };
  nf_lp_add_unit_steps (&ok, g);
  for (int i = 0; i < c->n_overlaps; i++)
    {
      nf_value st = c->overlaps[i].store, ld = c->overlaps[i].load;
      char *ys = nf_lp_address (g, st), *ls = nf_lp_address (g, ld);
      if (!ys || !ls)
	ok.oom = true;
      else if (strcmp (ys, ls) != 0)
	nf_lp_add_disjoint (&ok, ys, nf_lp_elem_size (g, st), ls,
			    nf_lp_elem_size (g, ld), count);
      free (ys);
      free (ls);
    }
  if (c->min_n)
    nf_lp_str_add (&ok, "%s%s >= %u", ok.len ? " && " : "", count, c->min_n);
  nf_lp_str_add (b, "%s", ok.len ? nf_lp_str_get (&ok) : "1");
  b->oom |= ok.oom;
  free (ok.s);
}

/* The texts of the arrays the call C of G stores and reads, in its
   parameters' order, into INS (at most NF_CALL_MAX_ARGS), for the
   report: returns their number.  */
static int
nf_lp_call_arrays (const struct nf_lp *g, const nf_call *c, const char **ins)
{
  int n = 0;
  for (int i = 0; i < c->nargs; i++)
    if ((c->args[i].role == NF_ROLE_Y || c->args[i].role == NF_ROLE_X)
	&& c->args[i].value != NF_NO_VALUE)
      ins[n++]
	= nf_lp_array_text (g, nf_access_base (g->r, c->args[i].value));
  return n;
}

/* --- Step 3: MulRedSqrt.  --- */

/* Whether CALL, the norm's call, is inside the statement right after
   SPAN's loop and holds every read of G's accumulator after the loop:
   then the loop can go and the call become the kernel's.  */
static bool
nf_lp_norm_call_alone (const struct nf_lp_scan *s, const struct nf_lp *g,
		       CXCursor call, const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  size_t cb = nf_ast_begin (call), ce = nf_ast_end (call);
  int i = span->first;
  struct nf_lp_refs all = { g->acc, nf_lp_stmt_end (t, span->stmts[i]), 0, 0 };
  struct nf_lp_refs in = { g->acc, cb, 0, 0 }, past = { g->acc, ce, 0, 0 };
  clang_visitChildren (s->fn, nf_lp_count_refs, &all);
  clang_visitChildren (call, nf_lp_count_refs, &in);
  clang_visitChildren (call, nf_lp_count_refs, &past);
  return i + 1 < span->n && cb >= nf_ast_begin (span->stmts[i + 1])
	 && ce <= nf_ast_end (span->stmts[i + 1]) && all.n == in.n - past.n
	 && !nf_tool_in_macro (t, cb, ce)
	 && clang_getCursorKind (call) == CXCursor_CallExpr;
}

/* The edits of the MulRedSqrt of G whose root is CALL into the call C
   on COUNT elements (in place of CALL's argument when C's value is the
   sum of squares), as one group.  Returns NULL, or the reason they
   were refused.  */
static const char *
nf_lp_mulredsqrt_edits (struct nf_lp_scan *s, const struct nf_lp *g,
			const nf_call *c, CXCursor call,
			const struct nf_lp_span *span, const char *count)
{
  nf_tool *t = s->t;
  struct nf_lp_str gone = { 0 }, kernel = { 0 };
  /* The accumulator stays declared, and so do the loop's dead sums
     (loop-body.c): (void) keeps -Wall quiet.  */
  for (int i = -1; i < g->n_dead; i++)
    {
      CXString an = clang_getCursorSpelling (i < 0 ? g->acc : g->dead[i]);
      nf_lp_str_add (&gone, "(void) %s; ", clang_getCString (an));
      clang_disposeString (an);
    }
  nf_lp_str_add (&gone, "/* neuronfuse: loop outlined below */");
  CXCursor at
    = c->value == NF_CALL_SUMSQ ? clang_Cursor_getArgument (call, 0) : call;
  size_t loop_end = nf_lp_stmt_end (t, span->stmts[span->first]);
  const char *why = NULL;
  if (g->n_unit_steps)
    {
      /* A run-time step: the loop runs for any other step, and the
	 norm is the kernel's only for the unit one.  */
      struct nf_lp_str test = { 0 };
      nf_lp_add_unit_steps (&test, g);
      char *loop = nf_lp_text (t, span->begin, loop_end);
      char *orig = nf_lp_text (t, nf_ast_begin (at), nf_ast_end (at));
      free (gone.s);
      gone = (struct nf_lp_str){ 0 };
      nf_lp_str_add (&gone, "if (!(%s))\n    %s", nf_lp_str_get (&test),
		     loop ? loop : "");
      nf_lp_str_add (&kernel, "(%s ? ", nf_lp_str_get (&test));
      gone.oom |= !loop || test.oom;
      kernel.oom |= !orig;
      free (loop);
      free (test.s);
      if (!nf_lp_add_call (&kernel, t, g, c, count))
	why = NF_WHY_INPUT_INSIDE;
      nf_lp_str_add (&kernel, " : %s)", orig ? orig : "");
      free (orig);
    }
  else if (!nf_lp_add_call (&kernel, t, g, c, count))
    why = NF_WHY_INPUT_INSIDE;
  if (!why && (gone.oom || kernel.oom))
    why = nf_lp_rewrite_oom (s);
  if (!why)
    {
      nf_edits_begin (t->edits);
      if (!nf_lp_norm_call_alone (s, g, call, span))
	nf_edits_refuse (t->edits);
      nf_edits_add (t->edits, span->begin, loop_end, gone.s);
      nf_edits_add (t->edits, nf_ast_begin (at), nf_ast_end (at), kernel.s);
      if (!nf_edits_commit (t->edits))
	why = "the norm's code is not the statement after the loop";
    }
  free (gone.s);
  free (kernel.s);
  return why;
}

const char *
nf_lp_mulredsqrt_rewrite (struct nf_lp_scan *s, struct nf_lp *g,
			  const nf_match *m, struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  nf_call c;
  const char *why = nf_lp_plan (s, g, m, &c);
  if (why)
    return why;
  /* The root's call, where the rewrite puts the kernel's.  */
  bool live = nf_lp_noted_first (g, m->result)
	      && (nf_value_n_uses (r, m->result) > 0
		  || nf_value_escapes (r, m->result));
  if ((why = nf_call_result_live (&c, live)))
    return why;
  char *bound, *count;
  if (!nf_lp_count_text (t, &g->loops[0], &bound, &count))
    why = nf_lp_rewrite_oom (s);
  else
    why = nf_lp_mulredsqrt_edits (s, g, &c, nf_lp_cursor (g, m->result), span,
				  count);
  if (!why)
    {
      span->last = span->first + 1;
      const char *ins[2]
	= { nf_lp_array_text (g, nf_access_base (r, m->input)), bound };
      nf_lp_record (s, m, c.callee, nf_value_type (r, m->input).elem,
		    m->accum, false, false, ins, 2, "norm", 0,
		    nf_ast_end_line (span->stmts[span->last]), span->line,
		    span->column, c.flops, c.bytes);
    }
  free (bound);
  free (count);
  return why;
}

/* --- Step 4: RMSNorm.  --- */

/* The text replacing SPAN, the RMSNorm of G: the call C on COUNT
   elements behind its test, the original statements as the fallback.
   NULL with *WHY set when the call has no text here, or out of memory
   (*WHY NULL).  */
static char *
nf_lp_rmsnorm_text (const nf_tool *t, const struct nf_lp *g, const nf_call *c,
		    const struct nf_lp_span *span, const char *count,
		    const char **why)
{
  struct nf_lp_str b = { 0 };
  char *orig = nf_lp_text (t, span->begin, span->end);
  *why = NULL;
  if (!orig)
    return NULL;
  nf_lp_str_add (&b, "if (");
  nf_lp_add_guard (&b, g, c, count);
  nf_lp_str_add (&b, ")\n    { ");
  if (!nf_lp_add_call (&b, t, g, c, count))
    *why = NF_WHY_INPUT_INSIDE;
  nf_lp_str_add (&b, "; }\n  else\n    {\n  %s\n    }", orig);
  free (orig);
  if (b.oom || *why)
    {
      free (b.s);
      return NULL;
    }
  return b.s;
}

const char *
nf_lp_rmsnorm_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		       const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  nf_call c;
  const char *why = nf_lp_plan (s, g, m, &c);
  if (why)
    return why;
  if (g->ret != NF_NO_VALUE)
    return NF_WHY_USED_AFTER;
  char *bound, *count, *rep = NULL;
  if (nf_lp_count_text (t, &g->loops[0], &bound, &count))
    rep = nf_lp_rmsnorm_text (t, g, &c, span, count, &why);
  if (!rep && !why)
    why = nf_lp_rewrite_oom (s);
  else if (rep && nf_lp_rows_rewrite (s, g, m, &c, span, rep, bound, count))
    {
      /* The row loop around it is one call (loop-rows.c).  */
      free (rep);
      free (bound);
      free (count);
      return NULL;
    }
  else if (rep && nf_lp_residual_rewrite (s, g, m, &c, span, rep, count))
    ; /* With the add before it, one call (loop-residual.c).  */
  else if (rep)
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, span->begin, span->end, rep);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    {
      const char *ys = nf_lp_array_text (g, nf_access_base (r, c.store));
      const char *ins[5]
	= { ys, nf_lp_array_text (g, nf_access_base (r, m->input)),
	    m->weight != NF_NO_VALUE
	      ? nf_lp_array_text (g, nf_access_base (r, m->weight))
	      : "0",
	    bound, "eps" };
      nf_lp_record (s, m, c.callee, nf_value_type (r, m->input).elem,
		    g->acc_f16 ? NF_ELEM_F16 : m->accum,
		    m->weight != NF_NO_VALUE, false, ins, 5, ys, 0,
		    nf_ast_end_line (span->stmts[span->last]), span->line,
		    span->column, c.flops, c.bytes);
    }
  free (rep);
  free (bound);
  free (count);
  return why;
}

/* --- Step 5: elementwise loops.  --- */

/* Insert before SPAN's loop, the elementwise loop of G, the call C on
   COUNT elements behind its test, the loop staying as the fallback:
     if (<test>)
       { nf_expm1_f32 (y, x, <count>); }
     else
     for (...) y[i] = expm1f (x[i]) + 0.0f;
   Returns NULL, or the reason it is not.  */
static const char *
nf_lp_insert_call (struct nf_lp_scan *s, const struct nf_lp *g,
		   const nf_call *c, const struct nf_lp_span *span,
		   const char *count)
{
  nf_tool *t = s->t;
  struct nf_lp_str text = { 0 };
  const char *why = NULL;
  bool omp = nf_lp_omp_pragma (t, span->begin,
			       nf_ast_begin (span->stmts[span->first]));
  nf_lp_str_add (&text, "%sif (", omp ? NF_LP_OMP_OPEN : "");
  nf_lp_add_guard (&text, g, c, count);
  nf_lp_str_add (&text, ")\n    { ");
  if (!nf_lp_add_call (&text, t, g, c, count))
    why = NF_WHY_INPUT_INSIDE;
  else if (nf_lp_str_add (&text, "; }\n  else\n  %s",
			  omp ? NF_LP_OMP_CLOSE : ""),
	   text.oom)
    why = nf_lp_rewrite_oom (s);
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, span->begin, span->begin, text.s);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  free (text.s);
  return why;
}

const char *
nf_lp_loop_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		    const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  const struct nf_lp_loop *l0 = &g->loops[0];
  nf_call c;
  const char *why = nf_lp_plan (s, g, m, &c);
  if (why)
    return why;
  if (c.min_n && l0->extent >= 0 && l0->extent < (long long) c.min_n)
    return NF_WHY_TOO_SHORT;
  if (span->used_after)
    return span->used_after;
  char *bound, *count;
  if (!nf_lp_count_text (t, l0, &bound, &count))
    why = nf_lp_rewrite_oom (s);
  else
    why = nf_lp_insert_call (s, g, &c, span, count);
  if (!why)
    {
      /* y, the arrays read, n.  */
      const char *ins[NF_CALL_MAX_ARGS + 1];
      int n_ins = nf_lp_call_arrays (g, &c, ins);
      ins[n_ins++] = bound;
      bool ew = m->kind == NF_KIND_ELEMENTWISE;
      enum nf_elem elem = nf_value_type (r, m->input).elem;
      nf_lp_record (s, m, c.callee, elem, elem, ew && m->weight != NF_NO_VALUE,
		    !ew, ins, (size_t) n_ins, ins[0], 0,
		    nf_ast_end_line (span->stmts[span->first]), span->line,
		    span->column, c.flops, c.bytes);
    }
  free (bound);
  free (count);
  return why;
}
