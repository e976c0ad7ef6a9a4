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
   2. MulRedSqrt (nf_lp_mulredsqrt_rewrite): the loop becomes
      `(void) acc;` and sqrtf (s) in the next statement
      nf_nrm2_f32 (x, <count>) (floats summed in double: nf_nrm2d_f32,
      or sqrtf (nf_sumsq_f32 (x, <count>)) where the sum may be
      reordered); the accumulator must be read nowhere else.
   3. RMSNorm (nf_lp_rmsnorm_rewrite): the region's statements become
      the call behind the test that y is each array read or disjoint
      from it, with the statements as the fallback; eps is the
      constant (as a hex float) or the text it was read from.
   4. Elementwise loops: the array kernel (nf_lp_map_rewrite) or an
      nf_elementwise program (nf_lp_ew_rewrite) behind the same test
      (with n >= NF_EW_MIN_N for the program) is inserted before the
      loop, which stays as the fallback.
   5. The report entry (nf_lp_record): lower/'s nf_region_contract gives
      the cost and notes, as the plugin's.

   Every text is built on the heap to the size it needs (nf_lp_str):
   nothing the source writes is cut short.

   Limitations: the callee choice is the plugin's, copied; the texts of
   arrays, bounds and eps are the source's, evaluated again by the call
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

/* A string built on the heap by nf_lp_str_add: S (NULL until something
   is added) holds LEN bytes and a NUL.  OOM says that an addition ran
   out of memory (S is then freed and NULL).  */
struct nf_lp_str
{
  char *s;
  size_t len, cap;
  bool oom;
};

/* Append FMT... to B, growing it as needed.  */
static void nf_lp_str_add (struct nf_lp_str *b, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
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

/* B's text ("" when nothing was added).  */
static const char *
nf_lp_str_get (const struct nf_lp_str *b)
{
  return b->s ? b->s : "";
}

/* Note that S ran out of memory.  Returns the reason that says so.  */
static const char *
nf_lp_rewrite_oom (struct nf_lp_scan *s)
{
  s->oom = 1;
  return "out of memory";
}

/* Step 1: loop L's bound as written, and its trip count as a size_t,
   in *BOUND and *COUNT (new strings: the caller frees them).  Returns
   false when out of memory.  */
static bool
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

/* Step 5: record in the report the loop region of match M, rewritten
   into a call of CALLEE on ELEM data the loop summed in ACCUM (WEIGHTED
   and MAP as for nf_region_contract): live-ins INS (N_INS of them), the
   one live-out OUT, reducing dimension 0, from LINE:COLUMN to END's last
   line; FLOPS and BYTES when FLOPS >= 0, else the contract's.  */
static void
nf_lp_record (struct nf_lp_scan *s, const nf_match *m, const char *callee,
	      enum nf_elem elem, enum nf_elem accum, bool weighted, bool map,
	      const char *const *ins, size_t n_ins, const char *out,
	      CXCursor end, unsigned line, unsigned column, double flops,
	      double bytes)
{
  nf_tool *t = s->t;
  const char *outs[1] = { out };
  const char *notes[NF_REGION_MAX_NOTES];
  int dims[1] = { 0 };
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
  d.end_line = (int) nf_ast_end_line (end);
  t->needs_runtime = true;
  nf_record_region (t, &d, s->function, line, column, m);
}

/* --- Step 2: MulRedSqrt.  --- */

/* The L2-norm kernel for ELEM data the loop summed in ACCUM: the root
   of a sum in the element type is nf_nrm2_*; floats summed in double
   are nf_nrm2d_f32 (*SUMSQ false), or where the compiler may reorder
   the sum anyway (ASSOCIATIVE) sqrt (nf_sumsq_f32 ()) (*SUMSQ true), as
   doubles summed in long double are always.  When there is none,
   returns NULL with the reason in *WHY.  */
static const char *
nf_lp_norm_callee (enum nf_elem elem, enum nf_elem accum, bool associative,
		   bool *sumsq, const char **why)
{
  *sumsq = accum != elem;
  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64)
    return *why = "no fused L2 norm for this element type", NULL;
  if (*sumsq && !(elem == NF_ELEM_F32 && accum == NF_ELEM_F64)
      && !(elem == NF_ELEM_F64 && accum == NF_ELEM_F80))
    return *why = "no fused L2 norm for this accumulator type", NULL;
  /* Floats summed in double, the root in double: the plain loop is a
     double sum of exact squares, which nf_sumsq_f32 sums in another
     order, not always as well; nf_nrm2d_f32 sums them without error (as
     the plugin does).  Where the compiler may reorder the loop's sum
     anyway, the fast one.  */
  if (*sumsq && elem == NF_ELEM_F32 && !associative)
    *sumsq = false;
  return *sumsq ? (elem == NF_ELEM_F32 ? "nf_sumsq_f32" : "nf_sumsq_f64")
	 : elem == NF_ELEM_F32
	   ? (accum == NF_ELEM_F64 ? "nf_nrm2d_f32" : "nf_nrm2_f32")
	   : "nf_nrm2_f64";
}

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

/* The edits of the MulRedSqrt of G whose root is CALL, calling CALLEE
   on XS and COUNT (in place of CALL's argument when SUMSQ), as one
   group.  Returns NULL, or the reason they were refused.  */
static const char *
nf_lp_mulredsqrt_edits (struct nf_lp_scan *s, const struct nf_lp *g,
			CXCursor call, const struct nf_lp_span *span,
			const char *callee, bool sumsq, const char *xs,
			const char *count)
{
  nf_tool *t = s->t;
  struct nf_lp_str gone = { 0 }, kernel = { 0 };
  /* The accumulator stays declared: (void) keeps -Wall quiet.  */
  CXString an = clang_getCursorSpelling (g->acc);
  nf_lp_str_add (&gone, "(void) %s; /* neuronfuse: loop outlined below */",
		 clang_getCString (an));
  clang_disposeString (an);
  /* The root's call (or, summed, its argument) becomes the kernel's.  */
  CXCursor at = sumsq ? clang_Cursor_getArgument (call, 0) : call;
  nf_lp_str_add (&kernel, "%s (%s, %s)", callee, xs, count);
  const char *why = NULL;
  if (gone.oom || kernel.oom)
    why = nf_lp_rewrite_oom (s);
  else
    {
      nf_edits_begin (t->edits);
      if (!nf_lp_norm_call_alone (s, g, call, span))
	nf_edits_refuse (t->edits);
      nf_edits_add (t->edits, span->begin,
		    nf_lp_stmt_end (t, span->stmts[span->first]), gone.s);
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
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  bool sumsq;
  const char *why = NULL;
  const char *callee
    = nf_lp_norm_callee (elem, m->accum, t->associative_math, &sumsq, &why);
  if (!callee)
    return why;
  if (!nf_lp_noted_first (g, m->result)
      || (nf_value_n_uses (r, m->result) == 0
	  && !nf_value_escapes (r, m->result)))
    return "the norm is not used after the loop";
  char *bound, *count;
  if (!nf_lp_count_text (t, &g->loops[0], &bound, &count))
    why = nf_lp_rewrite_oom (s);
  else
    why = nf_lp_mulredsqrt_edits (s, g, nf_lp_cursor (g, m->result), span,
				  callee, sumsq, xs, count);
  if (!why)
    {
      span->last = span->first + 1;
      const char *ins[2] = { xs, bound };
      nf_lp_record (s, m, callee, elem, m->accum, false, false, ins, 2, "norm",
		    span->stmts[span->last], span->line, span->column, -1, 0);
    }
  free (bound);
  free (count);
  return why;
}

/* --- Step 3: RMSNorm.  --- */

/* Why the RMSNorm M of G, whose result STORE stores, of ELEM data, has
   no kernel call, or NULL.  */
static const char *
nf_lp_rmsnorm_check (const struct nf_lp *g, const nf_match *m, nf_value store,
		     enum nf_elem elem)
{
  const nf_region *r = g->r;
  nf_value stored
    = store != NF_NO_VALUE ? nf_op_operand (r, store, 0) : NF_NO_VALUE;
  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64 && elem != NF_ELEM_F16)
    return "no fused RMSNorm for this element type";
  if (stored == NF_NO_VALUE || nf_value_type (r, stored).rank != 1)
    return "the normalised values are not stored";
  if (nf_value_type (r, stored).elem != elem
      || (m->weight != NF_NO_VALUE
	  && nf_value_type (r, m->weight).elem != elem))
    return "the arrays have different element types";
  if (g->ret != NF_NO_VALUE)
    return "a value computed in the region is used after it";
  if (nf_op (r, m->eps) != NF_OP_CONST && nf_op (r, m->eps) != NF_OP_PARAM)
    return "an input of the region is computed inside it";
  return NULL;
}

/* Append to B the text of M's eps (a constant or a parameter of G) as
   the kernel's argument of type FT: a constant as a hex float, a
   parameter as the text it was read from.  */
static void
nf_lp_add_eps (struct nf_lp_str *b, const nf_tool *t, const struct nf_lp *g,
	       const nf_match *m, const char *ft)
{
  const nf_region *r = g->r;
  if (nf_op (r, m->eps) == NF_OP_CONST)
    {
      nf_lp_str_add (b, "(%s) %a", ft, nf_const_value (r, m->eps));
      return;
    }
  CXCursor ec = nf_lp_cursor (g, m->eps);
  char *et = nf_lp_text (t, nf_ast_begin (ec), nf_ast_end (ec));
  if (et)
    nf_lp_str_add (b, "(%s) (%s)", ft, et);
  else
    b->oom = true;
  free (et);
}

/* Append to B the test that the stored range YS is each loaded range of
   G or disjoint from it, over COUNT elements ("1" when nothing is
   loaded).  */
static void
nf_lp_add_rmsnorm_overlap (struct nf_lp_str *b, const struct nf_lp *g,
			   const char *ys, const char *count)
{
  const nf_region *r = g->r;
  bool any = false;
  for (nf_value ld = 0; ld < nf_region_n_values (r); ld++)
    if (nf_op (r, ld) == NF_OP_LOAD)
      {
	const char *ls = nf_lp_array_text (g, nf_access_base (r, ld));
	nf_lp_str_add (b,
		       "%s((%s) == (%s) || (%s) + %s <= (%s) "
		       "|| (%s) + %s <= (%s))",
		       any ? "\n\t && " : "", ys, ls, ys, count, ls, ls, count,
		       ys);
	any = true;
      }
  if (!any)
    nf_lp_str_add (b, "1");
}

/* The text replacing the RMSNorm M of G in SPAN, of ELEM data, storing
   to YS, reading XS and WS: the call of CALLEE on COUNT elements behind
   the overlap test, the original statements as the fallback.  NULL when
   out of memory.  */
static char *
nf_lp_rmsnorm_text (const nf_tool *t, const struct nf_lp *g, const nf_match *m,
		    const struct nf_lp_span *span, enum nf_elem elem,
		    const char *callee, const char *ys, const char *xs,
		    const char *ws, const char *count)
{
  struct nf_lp_str b = { 0 };
  char *orig = nf_lp_text (t, span->begin, span->end);
  if (!orig)
    return NULL;
  nf_lp_str_add (&b, "if (");
  nf_lp_add_rmsnorm_overlap (&b, g, ys, count);
  nf_lp_str_add (&b, ")\n    { %s (%s, %s, %s, %s, ", callee, ys, xs, ws,
		 count);
  nf_lp_add_eps (&b, t, g, m, elem == NF_ELEM_F64 ? "double" : "float");
  nf_lp_str_add (&b, "); }\n  else\n    {\n  %s\n    }", orig);
  free (orig);
  if (b.oom)
    {
      free (b.s);
      return NULL;
    }
  return b.s;
}

const char *
nf_lp_rmsnorm_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		       nf_value store, const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  const char *why = nf_lp_rmsnorm_check (g, m, store, elem);
  if (why)
    return why;
  const char *ys = nf_lp_array_text (g, nf_access_base (r, store));
  const char *ws = m->weight != NF_NO_VALUE
		     ? nf_lp_array_text (g, nf_access_base (r, m->weight))
		     : "0";
  const char *callee = elem == NF_ELEM_F32   ? "nf_rmsnorm_f32"
		       : elem == NF_ELEM_F64 ? "nf_rmsnorm_f64"
					     : "nf_rmsnorm_f16";
  char *bound, *count, *rep = NULL;
  if (nf_lp_count_text (t, &g->loops[0], &bound, &count))
    rep = nf_lp_rmsnorm_text (t, g, m, span, elem, callee, ys, xs, ws, count);
  if (!rep)
    why = nf_lp_rewrite_oom (s);
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, span->begin, span->end, rep);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    {
      const char *ins[5] = { ys, xs, ws, bound, "eps" };
      nf_lp_record (s, m, callee, elem, g->acc_f16 ? NF_ELEM_F16 : m->accum,
		    m->weight != NF_NO_VALUE, false, ins, 5, ys,
		    span->stmts[span->last], span->line, span->column, -1, 0);
    }
  free (rep);
  free (bound);
  free (count);
  return why;
}

/* --- Step 4: elementwise loops.  --- */

/* Append to B the overlap test of the arrays texts YS (elements of YSZ
   bytes) and XS (XSZ) over COUNT elements, after " && " unless B is
   empty: y == x, or disjoint, as the plugin's nf_loop_disjoint2.  */
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

/* The elementwise loop of G matched as M (the STORE STORE): the
   call to the array kernel behind the plugin's overlap test, inserted
   before the loop, which stays (with the scalar pass's rewrite inside)
   as the fallback:
     if (y == x || disjoint) { nf_expm1_f32 (y, x, n); } else
     for (...) y[i] = expm1f (x[i]) + 0.0f;  */
const char *
nf_lp_map_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		   nf_value store, const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64)
    return "no array kernel for this element type";
  /* As the plugin's loop pass (lower/'s choice).  */
  const char *callee = nf_map_callee (m, elem, t->fast_math);
  if (span->used_after)
    return span->used_after;
  const char *ys = nf_lp_array_text (g, nf_access_base (r, store));
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  const char *why = NULL;
  char *bound, *count;
  struct nf_lp_str text = { 0 };
  if (nf_lp_count_text (t, &g->loops[0], &bound, &count))
    {
      nf_lp_str_add (
	&text,
	"if ((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))\n"
	"    { %s (%s, %s, %s); }\n  else\n  ",
	ys, xs, ys, count, xs, xs, count, ys, callee, ys, xs, count);
    }
  if (!count || text.oom)
    why = nf_lp_rewrite_oom (s);
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, span->begin, span->begin, text.s);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    {
      const char *ins[3] = { ys, xs, bound };
      nf_lp_record (s, m, callee, elem, elem, false, true, ins, 3, ys,
		    span->stmts[span->first], span->line, span->column, -1, 0);
    }
  free (text.s);
  free (bound);
  free (count);
  return why;
}

/* The size in bytes of an element of ELEM (float or double arrays).  */
static int
nf_lp_elem_size (enum nf_elem elem)
{
  return elem == NF_ELEM_F64 ? 8 : elem == NF_ELEM_F16 ? 2 : 4;
}

/* Append to B the scalar value V of G as a double argument, (double)
   (<text>): a parameter of the region, a member s->eps read or a
   variable.  Returns false when V has no text (it is computed inside
   the region).  */
static bool
nf_lp_add_scalar (struct nf_lp_str *b, const struct nf_lp *g, nf_value v)
{
  if (v < 0 || nf_op (g->r, v) != NF_OP_PARAM)
    return false;
  for (int i = 0; i < g->n_leaves; i++)
    if (g->leaves[i].param == v)
      {
	nf_lp_str_add (b, ", (double) (%s)", g->leaves[i].text);
	return true;
      }
  for (int i = 0; i < g->n_vars; i++)
    if (g->vparam[i] && g->vval[i] == v)
      {
	CXString sp = clang_getCursorSpelling (g->vdecl[i]);
	const char *name = clang_getCString (sp);
	bool named = name && *name;
	if (named)
	  nf_lp_str_add (b, ", (double) (%s)", name);
	clang_disposeString (sp);
	return named;
      }
  return false;
}

/* The plugin's nf_loop_record's cost of the Elementwise M of R: per
   element an exp, log, expm1 or log1p 20 flops, other ops one.  */
static double
nf_lp_ew_flops (const nf_region *r, const nf_match *m)
{
  double flops = 0;
  for (int i = 0; i < nf_cluster_size (m->cluster); i++)
    {
      enum nf_opcode op = nf_op (r, nf_cluster_op (m->cluster, i));
      flops += op == NF_OP_EXPM1 || op == NF_OP_LOG1P || op == NF_OP_EXP
		   || op == NF_OP_LOG
		 ? 20
	       : op == NF_OP_BROADCAST ? 0
				       : 1;
    }
  return flops;
}

/* Append to B the call nf_elementwise (y, x0, x1, n, prog, s0..s3) of
   EW for the region of G storing with STORE, behind its test (see
   nf_lp_ew_rewrite), the arrays' texts in XS[2] ("0" for those EW does
   not read), COUNT elements.  Returns false when a scalar of EW has no
   text.  */
static bool
nf_lp_add_ew_call (struct nf_lp_str *b, const struct nf_lp *g, nf_value store,
		   const nf_ew_call *ew, const char **xs, const char *count)
{
  const nf_region *r = g->r;
  nf_value yb = nf_access_base (r, store);
  const char *ys = nf_lp_array_text (g, yb);
  int ysz = nf_lp_elem_size (nf_value_type (r, yb).elem);
  struct nf_lp_str ok = { 0 };
  for (int i = 0; i < ew->n_inputs; i++)
    {
      nf_value xb = nf_access_base (r, ew->inputs[i]);
      xs[i] = nf_lp_array_text (g, xb);
      /* In place (the same text): y == x, which needs no test.  */
      if (strcmp (xs[i], ys) != 0)
	nf_lp_add_disjoint (&ok, ys, ysz, xs[i],
			    nf_lp_elem_size (nf_value_type (r, xb).elem),
			    count);
    }
  nf_lp_str_add (
    b,
    "if (%s%s%s >= %d)\n"
    "    { nf_elementwise (%s, %s, %s, %s, (const unsigned char *) "
    "\"",
    nf_lp_str_get (&ok), ok.len ? " && " : "", count, NF_EW_MIN_N, ys, xs[0],
    xs[1], count);
  b->oom |= ok.oom;
  free (ok.s);
  /* The program's bytes, as octal escapes.  */
  for (int i = 0; i < ew->len; i++)
    nf_lp_str_add (b, "\\%03o", ew->prog[i]);
  nf_lp_str_add (b, "\"");
  for (int i = 0; i < 4; i++)
    if (i >= ew->n_scalars)
      nf_lp_str_add (b, ", 0");
    else if (!nf_lp_add_scalar (b, g, ew->scalars[i]))
      return false;
  nf_lp_str_add (b, "); }\n  else\n  ");
  return true;
}

/* The elementwise loop of G matched as the Elementwise M (the store
   STORE): the call nf_elementwise (y, x0, x1, n, prog, s0..s3) of the
   program lower/ writes (nf_ew_lower), behind the plugin's overlap test
   of y against each input and its n >= NF_EW_MIN_N, inserted before the
   loop, which stays as the fallback:
     if (<y vs x0> && <y vs x1> && <count> >= 64)
       { nf_elementwise (y, x, 0, <count>, (const unsigned char *)
			 "\ooo...", (double) (alpha), 0, 0, 0); }
     else
     for (...) y[i] = x[i] > 0 ? x[i] : alpha * (expm1f (x[i]) + 0.0f);
   The program's bytes are octal escapes (at most three digits: none
   runs into the next).  The reasons are the plugin's
   nf_loop_check_ew's.  */
const char *
nf_lp_ew_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		  nf_value store, const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  nf_ew_call ew;
  const char *why = nf_ew_lower (r, m, store, t->fast_math, &ew);
  if (why)
    return why;
  const struct nf_lp_loop *l0 = &g->loops[0];
  if (l0->extent >= 0 && l0->extent < NF_EW_MIN_N)
    return "the loop runs too few times for a call to pay";
  if (span->used_after)
    return span->used_after;
  char *bound, *count;
  const char *xs[2] = { "0", "0" };
  struct nf_lp_str text = { 0 };
  if (!nf_lp_count_text (t, l0, &bound, &count))
    why = nf_lp_rewrite_oom (s);
  else if (!nf_lp_add_ew_call (&text, g, store, &ew, xs, count))
    why = "an input of the region is computed inside it";
  else if (text.oom)
    why = nf_lp_rewrite_oom (s);
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, span->begin, span->begin, text.s);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    {
      /* The plugin's nf_loop_record: y, the arrays read, n; each array
	 read once, y written.  */
      const char *ys = nf_lp_array_text (g, nf_access_base (r, store));
      const char *ins[4] = { ys, xs[0], xs[1], bound };
      int n_ins = 1 + ew.n_inputs;
      ins[n_ins++] = bound;
      nf_lp_record (
	s, m, "nf_elementwise", elem, elem, m->weight != NF_NO_VALUE, false,
	ins, n_ins, ys, span->stmts[span->first], span->line, span->column,
	nf_lp_ew_flops (r, m), (n_ins - 1) * (elem == NF_ELEM_F32 ? 4.0 : 8.0));
    }
  free (text.s);
  free (bound);
  free (count);
  return why;
}
