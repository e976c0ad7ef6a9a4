/* scalar.c: exp (x) - 1 -> expm1 (x) and log (1 + x) -> log1p (x) in
   the source, the libclang twin of plugin/scalar.cc.

   For every function defined in the main file, every floating A +- B
   is an Expm1 candidate and every call of log/logf/logl (and their
   __builtin_ forms) a Log1p candidate.  ast-ir.c builds the region IR
   around the anchor, lower/'s matcher decides (the same matcher as the
   plugin's, so the shape and the guards are the same), and the match is
   mapped back to source ranges:

     exp (x) - 1.0          ->  expm1 (x) + 0.0
     1 - exp (x)            ->  0 - expm1 (x)
     -1.0f + expf (x)       ->  0.0f + expm1f (x)
     log (1 + x)            ->  (log1p (x) + 0.0)
     double t = 1 + x;      ->  double t = x;
     ... log (t) ...        ->  ... (log1p (t) + 0.0) ...

   The "+ 0.0" keeps the sign of a zero result as the original had it
   (exp (-0.0) - 1 is +0.0, expm1 (-0.0) is -0.0), as the plugin's does,
   and is left out, as the plugin leaves it out, when x is never -0 (an
   exp, a square: softplus' log (1 + exp (x)) is log1p (exp (x)));
   a compiler drops it under -fno-signed-zeros.  Replacing the constant
   by 0 of the same type and the operator - by + leaves the precedence of
   the expression as written, so no parentheses are needed there; the
   log1p call gets them.  Only the callee's name, the constant, the
   operator and the argument change: comments and layout around them
   stay.

   The tanh quotient (exp (a) - 1) / (exp (a) + 1), one exp or two of
   the same a, is tried first, as the plugin's nf_try_tanh does (lower/'s
   nf_match_tanh decides): t / (t + 2) with t = expm1 (a), one call where
   the numerator alone would leave expm1 (a) and exp (a).  Two exps
   written twice both become expm1 (a), whose values a compiler merges
   as it merged the exps; its numerator is then no Expm1 of its own:

     (expf (y) - 1) / (expf (y) + 1)  ->  (expm1f (y) + 0.0f) /
					   (expm1f (y) + 2.0f)
     float e = expf (x);              ->  float e = expm1f (x);
     ... (e - 1) / (e + 1) ...        ->  ... (e + 0.0f) / (e + 2.0f) ...

   Under -ffast-math (-funsafe-math-optimizations, no math errno) GCC
   folds (float) exp ((double) xf) into expf (xf); ast-ir.c builds it
   so, and the call becomes expm1f (float e = exp (x) -> float e =
   expm1f (x)), as the plugin rewrites GCC's expf.

   Refused (reported as missed): a region that touches a macro expansion
   (its text is not the code), or whose edits overlap an earlier
   region's (log (exp (x) - 1 + 1) is one or the other).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast-ir.h"
#include "kinds.h"
#include "match.h"
#include "nf-clang.h"
#include "record.h"

/* The function being scanned.  */
struct nf_scan
{
  nf_tool *t;
  const char *function;
  const nf_vars *vars;
  int oom;
  size_t *taken; /* Owned: the start offsets of the tanh quotients'
		    numerators, which are not Expm1 candidates of their
		    own.  */
  size_t n_taken, cap_taken;
};

/* A report entry of a scalar region, with the storage its strings
   need.  */
struct nf_scalar_entry
{
  nf_region_desc d;
  char *in, *out; /* Owned: nf_scalar_entry_fini.  */
  const char *ins[1], *outs[1];
  const char *notes[NF_REGION_MAX_NOTES];
};

/* The source text of C in a new string, newlines and tabs as spaces (a
   report's live-in or live-out), or NULL when out of memory.  */
static char *
nf_text (const nf_tool *t, CXCursor c)
{
  size_t b = nf_ast_begin (c), e = nf_ast_end (c);
  size_t n = e > b && e <= t->len ? e - b : 0;
  char *buf = malloc (n + 1);
  if (!buf)
    return NULL;
  memcpy (buf, t->buf + b, n);
  buf[n] = '\0';
  for (char *p = buf; *p; p++)
    if (*p == '\n' || *p == '\t')
      *p = ' ';
  return buf;
}

/* Fill E for a region of KIND calling CALLEE on data of ELEM, reading IN
   and computing OUT; its cost and notes are lower/'s nf_region_contract,
   as the plugin's.  Returns false when out of memory (E is still to be
   finished).  */
static bool
nf_scalar_entry_init (const nf_tool *t, struct nf_scalar_entry *e,
		      enum nf_kind kind, const char *callee, enum nf_elem elem,
		      CXCursor in, CXCursor out)
{
  memset (e, 0, sizeof *e);
  e->ins[0] = e->in = nf_text (t, in);
  e->outs[0] = e->out = nf_text (t, out);
  nf_region_desc_init (&e->d, kind, callee, nf_elem_name (elem),
		       nf_elem_name (elem), e->ins, 1, e->outs, 1);
  nf_region_contract (&e->d, e->notes, kind, elem, elem, false, false,
		      t->math_errno);
  return e->in && e->out;
}

static void
nf_scalar_entry_fini (struct nf_scalar_entry *e)
{
  free (e->in);
  free (e->out);
}

/* Record the region of KIND of S at LINE:COLUMN matched as M (NULL: no
   IR texts nor dumps), rewritten into a call of CALLEE on ELEM data,
   reading IN and computing OUT.  Returns 0, or -1 when out of memory.  */
static int
nf_scalar_record (struct nf_scan *s, enum nf_kind kind, const char *callee,
		  enum nf_elem elem, CXCursor in, CXCursor out, unsigned line,
		  unsigned column, const nf_match *m)
{
  struct nf_scalar_entry entry;
  bool ok = nf_scalar_entry_init (s->t, &entry, kind, callee, elem, in, out);
  if (ok)
    nf_record_region (s->t, &entry.d, s->function, line, column, m);
  nf_scalar_entry_fini (&entry);
  return ok ? 0 : -1;
}

/* A function named as the replacement (a fallback expm1 of its own,
   written exp (x) - 1, as GSL's gsl_expm1 is where libm lacks one)
   would call itself forever.  The plugin's reason too.  */
static const char nf_self_call_reason[]
  = "the function is the one the rewrite would call";

/* An exp the IR holds that the source does not spell as a call (one
   of a macro's, or of GCC's folds the tool repeats).  */
static const char nf_exp_unwritten[]
  = "the call of exp is not written in the source";

/* A zero literal of the floating type ELEM.  */
static const char *
nf_zero (enum nf_elem elem)
{
  switch (elem)
    {
    case NF_ELEM_F32:
      return "0.0f";
    case NF_ELEM_F64:
      return "0.0";
    case NF_ELEM_F80:
      return "0.0L";
    default:
      return "0";
    }
}

/* The line and column of the start of C.  */
static void
nf_start_loc (CXCursor c, unsigned *line, unsigned *column)
{
  clang_getExpansionLocation (clang_getRangeStart (clang_getCursorExtent (c)),
			      NULL, line, column, NULL);
}

/* Whether the cursors C[0..N) are all written in the main file, outside
   macro expansions.  */
static bool
nf_plain_code (const nf_tool *t, const CXCursor *c, int n)
{
  for (int i = 0; i < n; i++)
    if (!nf_ast_in_main_file (c[i])
	|| nf_tool_in_macro (t, nf_ast_begin (c[i]), nf_ast_end (c[i])))
      return false;
  return true;
}

/* Why the code CODE[0..N) cannot become a call of TO (NULL: no call
   named): the function being scanned is TO itself (the call would
   recurse), or the code is not written plainly in the main file; NULL
   when neither.  */
static const char *
nf_scalar_refused (const struct nf_scan *s, const char *to,
		   const CXCursor *code, int n)
{
  if (to && strcmp (s->function, to) == 0)
    return nf_self_call_reason;
  if (!nf_plain_code (s->t, code, n))
    return NF_CLANG_WHY_MACRO;
  return NULL;
}

/* Add the edit renaming the function CALLEE refers to, spelled FROM in
   the source, to TO; refuse the group when the text there is not
   FROM.  */
static void
nf_rename (nf_tool *t, CXCursor callee, const char *from, const char *to)
{
  size_t b = nf_ast_begin (callee), e = nf_ast_end (callee);
  if (e < b || e - b != strlen (from) || memcmp (t->buf + b, from, e - b))
    nf_edits_refuse (t->edits);
  else
    nf_edits_add (t->edits, b, e, to);
}

/* The entry of nf_exp_names of the family of entry FN (the plain or the
   __builtin_ names) for ELEM; FN itself when ELEM is none of theirs.  */
static int
nf_exp_of_elem (int fn, enum nf_elem elem)
{
  int k = elem == NF_ELEM_F64 ? 0 : elem == NF_ELEM_F32 ? 1
	  : elem == NF_ELEM_F80 ? 2 : -1;
  return fn < 0 || k < 0 ? fn : fn / 3 * 3 + k;
}

/* Whether the Add or Sub C is the numerator of a tanh quotient S
   rewrote.  */
static bool
nf_taken (const struct nf_scan *s, CXCursor c)
{
  for (size_t i = 0; i < s->n_taken; i++)
    if (s->taken[i] == nf_ast_begin (c))
      return true;
  return false;
}

/* If the floating A +- B at C is an Expm1 candidate, rewrite it or
   record why not.  Returns 0, or -1 when out of memory.  */
static int
nf_try_expm1 (struct nf_scan *s, CXCursor c)
{
  nf_tool *t = s->t;
  struct nf_ast_region g;
  nf_match m;
  size_t op_off;
  unsigned line, column;

  if (!nf_ast_region_init (&g, s->function, s->vars))
    return -1;
  g.narrow_math = t->narrow_math;
  nf_value anchor = nf_ast_expm1 (&g, c);
  bool ok = anchor != NF_NO_VALUE && nf_match_expm1 (g.r, anchor, &m);
  /* Without an operator token (inside a macro), the expression's start:
     the region is refused below anyway.  */
  if (anchor != NF_NO_VALUE
      && !nf_ast_operator_loc (t->tu, c, &op_off, &line, &column))
    {
      op_off = nf_ast_begin (c);
      nf_start_loc (c, &line, &column);
    }
  if (anchor == NF_NO_VALUE)
    {
      if (ok)
	nf_match_release (&m);
      nf_ast_region_fini (&g);
      return 0;
    }
  if (!ok)
    {
      if (m.reason)
	nf_record_missed (t, NF_KIND_EXPM1, s->function, line, column,
			  m.reason);
      nf_ast_region_fini (&g);
      return 0;
    }

  /* The source the match stands for.  */
  CXCursor call
    = nf_ast_value_cursor (&g, nf_cluster_find_op (m.cluster, NF_OP_EXP));
  CXCursor callee, arg, kids[2];
  int fn = nf_ast_math_call (call, nf_exp_names, 6, &callee, &arg);
  /* The function of the exp's type in the IR: exp narrowed into a float
     is expf there (nf_narrowed_exp), and becomes expm1f.  */
  enum nf_elem exp_elem = nf_value_type (
    g.r, nf_cluster_find_op (m.cluster, NF_OP_EXP)).elem;
  int to = nf_exp_of_elem (fn, exp_elem);
  nf_ast_children (c, kids, 2);
  /* As written: the IR has the operands in GCC's order (-1 + e is
     e - 1 there), the edits are to the source.  */
  bool sub = nf_ast_binop (c) == CXBinaryOperator_Sub;
  bool exp_second = nf_cluster_contains (m.cluster, g.src_b);
  bool one_minus = sub && exp_second;
  CXCursor cst = exp_second ? kids[0] : kids[1];
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  CXCursor code[2] = { c, call };
  const char *reason = fn < 0 ? nf_exp_unwritten
			       : nf_scalar_refused (s, nf_exp_names[to].to,
						    code, 2);
  if (!reason)
    {
      nf_edits_begin (t->edits);
      nf_rename (t, callee, nf_exp_names[fn].from, nf_exp_names[to].to);
      if (m.input_never_minus_zero && !one_minus)
	{
	  /* No zero to keep: the constant and its operator go.  */
	  if (exp_second)
	    nf_edits_add (t->edits, nf_ast_begin (kids[0]),
			  nf_ast_begin (kids[1]), "");
	  else
	    nf_edits_add (t->edits, nf_ast_end (kids[0]), nf_ast_end (kids[1]),
			  "");
	}
      else
	nf_edits_add (t->edits, nf_ast_begin (cst), nf_ast_end (cst),
		      nf_zero (elem));
      if (sub && !one_minus && !m.input_never_minus_zero)
	{
	  if (t->buf[op_off] != '-')
	    nf_edits_refuse (t->edits);
	  nf_edits_add (t->edits, op_off, op_off + 1, "+");
	}
      if (!nf_edits_commit (t->edits))
	reason = "the region overlaps another rewritten region";
    }
  int status = 0;
  if (reason)
    nf_record_missed (t, NF_KIND_EXPM1, s->function, line, column, reason);
  else
    status = nf_scalar_record (s, NF_KIND_EXPM1, nf_exp_names[to].report,
			       exp_elem, arg, c, line, column, &m);
  nf_match_release (&m);
  nf_ast_region_fini (&g);
  return status;
}

/* If the call C is a Log1p candidate, rewrite it or record why not.
   Returns 0, or -1 when out of memory.  */
static int
nf_try_log1p (struct nf_scan *s, CXCursor c)
{
  nf_tool *t = s->t;
  struct nf_ast_region g;
  nf_match m;
  unsigned line, column;

  if (!nf_ast_region_init (&g, s->function, s->vars))
    return -1;
  g.narrow_math = t->narrow_math;
  nf_value anchor = nf_ast_log1p (&g, c);
  if (anchor == NF_NO_VALUE)
    {
      nf_ast_region_fini (&g);
      return 0;
    }
  nf_start_loc (c, &line, &column);
  if (!nf_match_log1p (g.r, anchor, &m))
    {
      if (m.reason)
	nf_record_missed (t, NF_KIND_LOG1P, s->function, line, column,
			  m.reason);
      nf_ast_region_fini (&g);
      return 0;
    }

  /* The sum, below the conversion of it (log ((double) (1.0f + xf))) if
     any, and x.  */
  nf_value argv = nf_op_operand (g.r, anchor, 0);
  nf_value sumv
    = nf_op (g.r, argv) == NF_OP_CONVERT ? nf_op_operand (g.r, argv, 0) : argv;
  CXCursor sum = nf_ast_value_cursor (&g, sumv);
  CXCursor x = nf_ast_value_cursor (&g, m.input);
  CXCursor callee, arg;
  int fn = nf_ast_math_call (c, nf_log_names, 6, &callee, &arg);
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  CXCursor code[3] = { c, sum, x };
  const char *reason
    = nf_scalar_refused (s, fn >= 0 ? nf_log_names[fn].to : NULL, code, 3);
  if (!reason)
    {
      /* The sum becomes x by deleting what surrounds x in it: edits
	 inside x (log (1 + log (1 + y))) stay possible.  */
      size_t sb = nf_ast_begin (sum), se = nf_ast_end (sum);
      size_t xb = nf_ast_begin (x), xe = nf_ast_end (x);
      char tail[32];
      bool keep_zero = !m.input_never_minus_zero;
      snprintf (tail, sizeof tail, " + %s)", nf_zero (elem));
      nf_edits_begin (t->edits);
      if (xb < sb || xe > se)
	nf_edits_refuse (t->edits);
      if (keep_zero)
	nf_edits_add (t->edits, nf_ast_begin (c), nf_ast_begin (c), "(");
      nf_rename (t, callee, nf_log_names[fn].from, nf_log_names[fn].to);
      if (sb < xb)
	nf_edits_add (t->edits, sb, xb, "");
      if (xe < se)
	nf_edits_add (t->edits, xe, se, "");
      if (keep_zero)
	nf_edits_add (t->edits, nf_ast_end (c), nf_ast_end (c), tail);
      if (!nf_edits_commit (t->edits))
	reason = "the region overlaps another rewritten region";
    }
  int status = 0;
  if (reason)
    nf_record_missed (t, NF_KIND_LOG1P, s->function, line, column, reason);
  else
    status = nf_scalar_record (s, NF_KIND_LOG1P, nf_log_names[fn].report, elem,
			       x, c, line, column, &m);
  nf_match_release (&m);
  nf_ast_region_fini (&g);
  return status;
}

/* Note the term C of a tanh quotient in S's taken list.  Returns 0, or
   -1 when out of memory.  */
static int
nf_take (struct nf_scan *s, CXCursor c)
{
  if (s->n_taken == s->cap_taken)
    {
      size_t cap = s->cap_taken ? 2 * s->cap_taken : 8;
      size_t *v = realloc (s->taken, cap * sizeof *v);
      if (!v)
	return -1;
      s->taken = v;
      s->cap_taken = cap;
    }
  s->taken[s->n_taken++] = nf_ast_begin (c);
  return 0;
}

/* Add the edits turning the term C of a tanh quotient of ELEM, exp (a)
   +- K or K + exp (a) as written (K a constant), into t + 0 (the
   numerator: K by 0 and the operator - by +) or, with DEN, t + 2 (K by
   2, or by -2 in exp (a) - -1); t = expm1 (a) is the renamed call.  */
static void
nf_tanh_term_edits (nf_tool *t, CXCursor c, enum nf_elem elem, bool den)
{
  CXCursor kids[2];
  double v = 0;
  size_t op_off;
  unsigned line, column;
  nf_ast_children (c, kids, 2);
  int i = nf_ast_const (kids[0], &v) ? 0 : 1;
  if (i == 1)
    nf_ast_const (kids[1], &v);
  const char *zero = nf_zero (elem); /* "0.0f": "2" and its suffix.  */
  size_t n = strlen (zero) + 2;
  char *lit = malloc (n);
  if (!lit)
    {
      nf_edits_refuse (t->edits);
      return;
    }
  if (den)
    snprintf (lit, n, "%s2%s", v < 0 ? "-" : "", zero + 1);
  else
    snprintf (lit, n, "%s", zero);
  nf_edits_add (t->edits, nf_ast_begin (kids[i]), nf_ast_end (kids[i]), lit);
  free (lit);
  if (!den && nf_ast_binop (c) == CXBinaryOperator_Sub)
    {
      if (!nf_ast_operator_loc (t->tu, c, &op_off, &line, &column)
	  || t->buf[op_off] != '-')
	nf_edits_refuse (t->edits);
      else
	nf_edits_add (t->edits, op_off, op_off + 1, "+");
    }
}

/* If the floating A / B at C is a tanh quotient (exp (a) - 1) /
   (exp (a) + 1), rewrite it into t / (t + 2) with t = expm1 (a), as
   the plugin's nf_try_tanh does, or record why not, and note its
   numerator as taken (no Expm1 of its own).  Two exps of a (written
   twice) both become expm1 (a): the same value, which a compiler merges
   as it merged the exps.  Returns 0, or -1 when out of memory.  */
static int
nf_try_tanh (struct nf_scan *s, CXCursor c)
{
  nf_tool *t = s->t;
  struct nf_ast_region g;
  nf_match m;
  size_t op_off;
  unsigned line, column;

  if (!nf_ast_region_init (&g, s->function, s->vars))
    return -1;
  g.narrow_math = t->narrow_math;
  nf_value anchor = nf_ast_tanh (&g, c);
  if (anchor == NF_NO_VALUE || !nf_match_tanh (g.r, anchor, &m))
    {
      nf_ast_region_fini (&g);
      return 0;
    }
  if (!nf_ast_operator_loc (t->tu, c, &op_off, &line, &column))
    nf_start_loc (c, &line, &column);
  nf_value numv = nf_op_operand (g.r, anchor, 0);
  nf_value denv = nf_op_operand (g.r, anchor, 1);
  CXCursor num = nf_ast_value_cursor (&g, numv);
  CXCursor den = nf_ast_value_cursor (&g, denv);
  CXCursor call1 = nf_ast_value_cursor (&g, nf_op_operand (g.r, numv, 0));
  CXCursor call2 = nf_ast_value_cursor (&g, nf_op_operand (g.r, denv, 0));
  CXCursor callee1, callee2, arg1, arg2;
  int fn1 = nf_ast_math_call (call1, nf_exp_names, 6, &callee1, &arg1);
  int fn2 = nf_ast_math_call (call2, nf_exp_names, 6, &callee2, &arg2);
  enum nf_elem elem = nf_value_type (g.r, nf_op_operand (g.r, numv, 0)).elem;
  int to1 = nf_exp_of_elem (fn1, elem), to2 = nf_exp_of_elem (fn2, elem);
  bool two = !clang_equalCursors (call1, call2);
  CXCursor code[5] = { c, num, den, call1, call2 };
  const char *reason = NULL;
  if (nf_take (s, num) != 0)
    {
      nf_match_release (&m);
      nf_ast_region_fini (&g);
      return -1;
    }
  if (fn1 < 0 || fn2 < 0)
    reason = nf_exp_unwritten;
  else
    reason = nf_scalar_refused (s, nf_exp_names[to1].to, code, 5);
  if (!reason)
    {
      nf_edits_begin (t->edits);
      nf_rename (t, callee1, nf_exp_names[fn1].from, nf_exp_names[to1].to);
      if (two)
	nf_rename (t, callee2, nf_exp_names[fn2].from, nf_exp_names[to2].to);
      nf_tanh_term_edits (t, num, elem, /*den=*/false);
      nf_tanh_term_edits (t, den, elem, /*den=*/true);
      if (!nf_edits_commit (t->edits))
	reason = "the region overlaps another rewritten region";
    }
  int status = 0;
  if (reason)
    nf_record_missed (t, NF_KIND_EXPM1, s->function, line, column, reason);
  else
    status = nf_scalar_record (s, NF_KIND_EXPM1, nf_exp_names[to1].report,
			       elem, arg1, c, line, column, /*m=*/NULL);
  nf_match_release (&m);
  nf_ast_region_fini (&g);
  return status;
}

/* The first walk: the tanh quotients, whose numerators are theirs.  */
static enum CXChildVisitResult
nf_tanh_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_scan *s = data;
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_BinaryOperator)
    s->oom |= nf_try_tanh (s, c) != 0;
  return s->oom ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static enum CXChildVisitResult
nf_scan_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_scan *s = data;
  enum CXCursorKind k = clang_getCursorKind (c);
  (void) parent;
  if (k == CXCursor_BinaryOperator && (s->t->kinds & NF_KIND_EXPM1)
      && !nf_taken (s, c))
    s->oom |= nf_try_expm1 (s, c) != 0;
  else if (k == CXCursor_CallExpr && (s->t->kinds & NF_KIND_LOG1P))
    s->oom |= nf_try_log1p (s, c) != 0;
  return s->oom ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The pass over the function FN, named NAME (nf_tool_function_fn).  */
static int
nf_scalar_function (nf_tool *t, CXCursor fn, const char *name,
		    const nf_vars *vars, void *data)
{
  struct nf_scan s = { t, name, vars, 0, NULL, 0, 0 };
  (void) data;
  /* The tanh quotients first, as the plugin's pass takes them.  */
  if (t->kinds & NF_KIND_EXPM1)
    clang_visitChildren (fn, nf_tanh_visit, &s);
  if (!s.oom)
    clang_visitChildren (fn, nf_scan_visit, &s);
  free (s.taken);
  return s.oom ? -1 : 0;
}

int
nf_scalar_run (nf_tool *t)
{
  if (!(t->kinds & (NF_KIND_EXPM1 | NF_KIND_LOG1P)))
    return 0;
  return nf_tool_each_function (t, NULL, nf_scalar_function, NULL);
}
