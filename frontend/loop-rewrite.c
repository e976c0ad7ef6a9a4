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

   Limitations: the callee choice is the plugin's, copied; the texts of
   arrays, bounds and eps are the source's, evaluated again by the call
   and the test (the builder refused those with side effects).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

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

/* Step 1: the text of loop L's bound in BOUND (BSIZE bytes) and of its
   trip count as a size_t in COUNT (CSIZE bytes).  */
static void
nf_lp_count_text (const nf_tool *t, const struct nf_lp_loop *l, char *bound,
		  size_t bsize, char *count, size_t csize)
{
  nf_lp_text (t, nf_ast_begin (l->bound), nf_ast_end (l->bound), bound, bsize);
  if (l->is_signed)
    snprintf (count, csize, "((%s) > 0 ? (size_t) (%s) : 0)", bound, bound);
  else
    snprintf (count, csize, "(size_t) (%s)", bound);
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

const char *
nf_lp_mulredsqrt_rewrite (struct nf_lp_scan *s, struct nf_lp *g,
			  const nf_match *m, struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  char count[320], bound[128], text[2048];
  nf_lp_count_text (t, &g->loops[0], bound, sizeof bound, count, sizeof count);
  bool sumsq;
  const char *why = NULL;
  const char *callee
    = nf_lp_norm_callee (elem, m->accum, t->associative_math, &sumsq, &why);
  if (!callee)
    return why;
  if (m->result < 0 || m->result >= NF_LP_MAX || !g->noted[m->result]
      || (nf_value_n_uses (r, m->result) == 0
	  && !nf_value_escapes (r, m->result)))
    return "the norm is not used after the loop";
  CXCursor call = g->cursors[m->result];
  nf_edits_begin (t->edits);
  if (!nf_lp_norm_call_alone (s, g, call, span))
    nf_edits_refuse (t->edits);
  /* The accumulator stays declared: (void) keeps -Wall quiet.  */
  CXString an = clang_getCursorSpelling (g->acc);
  snprintf (text, sizeof text,
	    "(void) %s; /* neuronfuse: loop outlined below */",
	    clang_getCString (an));
  clang_disposeString (an);
  nf_edits_add (t->edits, span->begin,
		nf_lp_stmt_end (t, span->stmts[span->first]), text);
  /* The root's call (or, summed, its argument) becomes the kernel's.  */
  CXCursor at = sumsq ? clang_Cursor_getArgument (call, 0) : call;
  snprintf (text, sizeof text, "%s (%s, %s)", callee, xs, count);
  nf_edits_add (t->edits, nf_ast_begin (at), nf_ast_end (at), text);
  if (!nf_edits_commit (t->edits))
    return "the norm's code is not the statement after the loop";
  span->last = span->first + 1;
  const char *ins[2] = { xs, bound };
  nf_lp_record (s, m, callee, elem, m->accum, false, false, ins, 2, "norm",
		span->stmts[span->last], span->line, span->column, -1, 0);
  return NULL;
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
  return NULL;
}

/* The text of M's eps as the kernel's argument of type FT in EPS (SIZE
   bytes): a constant as a hex float, a parameter as its text.  Returns
   false when eps is computed inside the region.  */
static bool
nf_lp_eps_text (const nf_tool *t, const struct nf_lp *g, const nf_match *m,
		const char *ft, char *eps, size_t size)
{
  const nf_region *r = g->r;
  if (nf_op (r, m->eps) == NF_OP_CONST)
    snprintf (eps, size, "(%s) %a", ft, nf_const_value (r, m->eps));
  else if (nf_op (r, m->eps) == NF_OP_PARAM)
    {
      CXCursor ec = g->cursors[m->eps];
      char et[128];
      nf_lp_text (t, nf_ast_begin (ec), nf_ast_end (ec), et, sizeof et);
      snprintf (eps, size, "(%s) (%s)", ft, et);
    }
  else
    return false;
  return true;
}

/* The test that the stored range YS is each loaded range of G or
   disjoint from it, over COUNT elements, in OKT (SIZE bytes; "" when
   nothing is loaded).  */
static void
nf_lp_rmsnorm_overlap_text (const struct nf_lp *g, const char *ys,
			    const char *count, char *okt, size_t size)
{
  const nf_region *r = g->r;
  *okt = '\0';
  for (nf_value ld = 0; ld < nf_region_n_values (r); ld++)
    if (nf_op (r, ld) == NF_OP_LOAD)
      {
	const char *ls = nf_lp_array_text (g, nf_access_base (r, ld));
	size_t o = strlen (okt);
	snprintf (okt + o, size - o,
		  "%s((%s) == (%s) || (%s) + %s <= (%s) "
		  "|| (%s) + %s <= (%s))",
		  o ? "\n\t && " : "", ys, ls, ys, count, ls, ls, count, ys);
      }
}

const char *
nf_lp_rmsnorm_rewrite (struct nf_lp_scan *s, struct nf_lp *g, const nf_match *m,
		       nf_value store, const struct nf_lp_span *span)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  char count[320], bound[128];
  nf_lp_count_text (t, &g->loops[0], bound, sizeof bound, count, sizeof count);
  const char *why = nf_lp_rmsnorm_check (g, m, store, elem);
  if (why)
    return why;
  const char *ys = nf_lp_array_text (g, nf_access_base (r, store));
  const char *ws = m->weight != NF_NO_VALUE
		     ? nf_lp_array_text (g, nf_access_base (r, m->weight))
		     : "0";
  char eps[160], okt[1024], orig[65536];
  const char *ft = elem == NF_ELEM_F64 ? "double" : "float";
  if (!nf_lp_eps_text (t, g, m, ft, eps, sizeof eps))
    return "an input of the region is computed inside it";
  nf_lp_rmsnorm_overlap_text (g, ys, count, okt, sizeof okt);
  const char *callee = elem == NF_ELEM_F32   ? "nf_rmsnorm_f32"
		       : elem == NF_ELEM_F64 ? "nf_rmsnorm_f64"
					     : "nf_rmsnorm_f16";
  size_t begin = span->begin, end = span->end;
  nf_lp_text (t, begin, end, orig, sizeof orig);
  if (end - begin >= sizeof orig)
    return "the region is too long";
  size_t need = strlen (orig) + strlen (okt) + 1024;
  char *rep = malloc (need);
  if (!rep)
    return s->oom = 1, "out of memory";
  snprintf (rep, need,
	    "if (%s)\n    { %s (%s, %s, %s, %s, %s); }\n  "
	    "else\n    {\n  %s\n    }",
	    *okt ? okt : "1", callee, ys, xs, ws, count, eps, orig);
  nf_edits_begin (t->edits);
  nf_edits_add (t->edits, begin, end, rep);
  free (rep);
  if (!nf_edits_commit (t->edits))
    return "the region overlaps another rewritten region";
  const char *ins[5] = { ys, xs, ws, bound, "eps" };
  nf_lp_record (s, m, callee, elem, g->acc_f16 ? NF_ELEM_F16 : m->accum,
		m->weight != NF_NO_VALUE, false, ins, 5, ys,
		span->stmts[span->last], span->line, span->column, -1, 0);
  return NULL;
}

/* --- Step 4: elementwise loops.  --- */

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
  char count[320], bound[128], text[2048];
  nf_lp_count_text (t, &g->loops[0], bound, sizeof bound, count, sizeof count);
  snprintf (text, sizeof text,
	    "if ((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))\n"
	    "    { %s (%s, %s, %s); }\n  else\n  ",
	    ys, xs, ys, count, xs, xs, count, ys, callee, ys, xs, count);
  nf_edits_begin (t->edits);
  nf_edits_add (t->edits, span->begin, span->begin, text);
  if (!nf_edits_commit (t->edits))
    return "the region overlaps another rewritten region";
  const char *ins[3] = { ys, xs, bound };
  nf_lp_record (s, m, callee, elem, elem, false, true, ins, 3, ys,
		span->stmts[span->first], span->line, span->column, -1, 0);
  return NULL;
}

/* The size in bytes of an element of ELEM (float or double arrays).  */
static int
nf_lp_elem_size (enum nf_elem elem)
{
  return elem == NF_ELEM_F64 ? 8 : elem == NF_ELEM_F16 ? 2 : 4;
}

/* The C text of the scalar value V of G (a parameter of the region: a
   variable read, or a member s->eps), or NULL.  */
static const char *
nf_lp_scalar_text (const struct nf_lp *g, nf_value v, char *buf, size_t size)
{
  if (v < 0 || v >= NF_LP_MAX || nf_op (g->r, v) != NF_OP_PARAM)
    return NULL;
  for (int i = 0; i < g->n_leaves; i++)
    if (g->leaves[i].param == v)
      return g->leaves[i].text;
  for (int i = 0; i < g->n_vars; i++)
    if (g->vparam[i] && g->vval[i] == v)
      {
	CXString sp = clang_getCursorSpelling (g->vdecl[i]);
	snprintf (buf, size, "%s", clang_getCString (sp));
	clang_disposeString (sp);
	return *buf ? buf : NULL;
      }
  return NULL;
}

/* The overlap test of the arrays texts YS (elements of YSZ bytes) and XS
   (XSZ) over COUNT elements, appended to OK (SIZE bytes): y == x, or
   disjoint, as the plugin's nf_loop_disjoint2.  */
static void
nf_lp_ew_disjoint (char *ok, size_t size, const char *ys, int ysz,
		   const char *xs, int xsz, const char *count)
{
  size_t o = strlen (ok);
  if (ysz == xsz)
    snprintf (ok + o, size - o,
	      "%s((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))",
	      o ? " && " : "", ys, xs, ys, count, xs, xs, count, ys);
  else
    snprintf (ok + o, size - o,
	      "%s((const void *) (%s) == (const void *) (%s)"
	      " || (const char *) ((%s) + %s) <= (const char *) (%s)"
	      " || (const char *) ((%s) + %s) <= (const char *) (%s))",
	      o ? " && " : "", ys, xs, ys, count, xs, xs, count, ys);
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
  char count[320], bound[128], ok[2048] = "";
  nf_lp_count_text (t, l0, bound, sizeof bound, count, sizeof count);
  nf_value yb = nf_access_base (r, store);
  const char *ys = nf_lp_array_text (g, yb);
  int ysz = nf_lp_elem_size (nf_value_type (r, yb).elem);
  const char *xs[2] = { "0", "0" };
  for (int i = 0; i < ew.n_inputs; i++)
    {
      nf_value xb = nf_access_base (r, ew.inputs[i]);
      xs[i] = nf_lp_array_text (g, xb);
      /* In place (the same text): y == x, which needs no test.  */
      if (strcmp (xs[i], ys) != 0)
	nf_lp_ew_disjoint (ok, sizeof ok, ys, ysz, xs[i],
			   nf_lp_elem_size (nf_value_type (r, xb).elem), count);
    }
  char sc[4][160], sbuf[4][128];
  for (int i = 0; i < 4; i++)
    {
      snprintf (sc[i], sizeof sc[i], "0");
      if (i >= ew.n_scalars)
	continue;
      const char *st
	= nf_lp_scalar_text (g, ew.scalars[i], sbuf[i], sizeof sbuf[i]);
      if (!st)
	return "an input of the region is computed inside it";
      snprintf (sc[i], sizeof sc[i], "(double) (%.140s)", st);
    }
  char prog[4 * NF_EW_PROG_MAX + 1];
  for (int i = 0; i < ew.len; i++)
    snprintf (prog + 4 * i, 5, "\\%03o", ew.prog[i]);
  prog[4 * ew.len] = '\0';
  size_t need = strlen (ok) + strlen (prog) + 4 * sizeof count + 1024;
  char *text = malloc (need);
  if (!text)
    return s->oom = 1, "out of memory";
  snprintf (text, need,
	    "if (%s%s%s >= %d)\n"
	    "    { nf_elementwise (%s, %s, %s, %s, (const unsigned char *) "
	    "\"%s\", %s, %s, %s, %s); }\n  else\n  ",
	    ok, *ok ? " && " : "", count, NF_EW_MIN_N, ys, xs[0], xs[1], count,
	    prog, sc[0], sc[1], sc[2], sc[3]);
  nf_edits_begin (t->edits);
  nf_edits_add (t->edits, span->begin, span->begin, text);
  free (text);
  if (!nf_edits_commit (t->edits))
    return "the region overlaps another rewritten region";
  /* The plugin's nf_loop_record: y, the arrays read, n; each array read
     once, y written.  */
  const char *ins[4] = { ys, xs[0], xs[1], bound };
  int n_ins = 1 + ew.n_inputs;
  ins[n_ins++] = bound;
  nf_lp_record (s, m, "nf_elementwise", elem, elem, m->weight != NF_NO_VALUE,
		false, ins, n_ins, ys, span->stmts[span->first], span->line,
		span->column, nf_lp_ew_flops (r, m),
		(n_ins - 1) * (elem == NF_ELEM_F32 ? 4.0 : 8.0));
  return NULL;
}
