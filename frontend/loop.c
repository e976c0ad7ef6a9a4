/* loop.c: the loop pass of neuronfuse-clang, RMSNorm, L2-norm and
   elementwise loops to libneuronfuse calls in the source (the libclang
   twin of plugin/loop-pass.cc, with plugin/loop.cc's checks): the
   driver, which finds the candidates in each statement list, has their
   regions built (loop-ir.c, loop-expr.c), finds what the region leaves
   behind, matches it through lower/ and hands the match to the rewrite
   (loop-rewrite.c).

   A region starts at a `for` loop whose body is a floating-point
   accumulation `acc += E` (with temporaries and other sums:
   loop-body.c) and runs, statement by statement, over the
   scalar code after it and at most one more loop storing y[i] = E:

     for (int j = 0; j < size; j++) ss += x[j] * x[j];      reduce_add
     ss /= size;  ss += 1e-5f;  ss = 1.0f / sqrtf (ss);      scalars
     for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]); store

   becomes
       if (<o == x or disjoint, o == weight or disjoint>)
	 { nf_rmsnorm_f32 (o, x, weight, <count>, <eps>); }
       else { <the original statements> }
   and an L2 norm's loop goes, sqrtf (s) becoming
   nf_nrm2_f32 (x, <count>).

   1. Candidates (nf_lp_visit): each `for` of each compound statement of
      a function defined in the main file; not in a function under
      optimize ("O0"), where the plugin's loop pass does not run
      (nf_lp_unoptimized).  Each is first tried as the max loop of a
      softmax (loop-softmax.c: its three loops become one call), then as
      the row of a matrix-vector nest (loop-dot.c).  Innermost loops
      summing a product into a
      floating-point variable (nf_lp_cand_visit, the plugin's
      nf_loop_candidate) are norm candidates; one that cannot be built
      is reported when it sums squares, with the reason.
   2. The norm region (nf_lp_build_norm): the loop, its reduction, then
      the scalar statements after it up to a second loop's store or a
      return (nf_lp_norm_tail), built into the region IR.
   3. What leaves it (nf_lp_norm_escapes): variables read after the
      region (or before it, in an enclosing loop) hold values that
      escape, as SSA names used after the plugin's region do; an
      induction variable declared outside its loop and read after it
      refuses the region.
   4. lower/'s nf_match_norm (MulRedSqrt, then RMSNorm) decides, on each
      sum of the first loop until one matches (nf_lp_norm_match); the
      loop must compute no other sum used after it
      (nf_lp_norm_other_sum), the region store nowhere else (a store of
      the scalar code before its end neither: nf_lp_norm_other_store),
      let nothing but the result escape, and not start or end in a
      macro expansion (nf_lp_norm_leaves); loop-rewrite.c spells the
      call.
   5. Elementwise loops y[i] = E holding an Expm1 or Log1p candidate, a
      loop no norm candidate took (nf_lp_try_map), are built with the
      scalar pass's rewrite applied (expm1 (x) + 0.0, the + 0.0 folded
      away under -ffast-math/-fno-signed-zeros, as GCC does; the body by
      nf_lp_map_body) and matched by nf_match_map; nf_lp_loop_leaves
      says whether a value it computes is used after it.  The kernel
      call (the _pz kernel where the + 0.0 stays) behind the overlap
      test is inserted before the loop, which stays as the fallback.  A
      body that does more than the map (an activation: ELU, SELU,
      softplus, CELU; local variables set before the store) is matched
      by nf_match_elementwise (nf_lp_try_ew) and becomes one
      nf_elementwise call (the plugin's nf_loop_check_ew), or is
      reported missed with the plugin's reason.  Not under
      -funsafe-math-optimizations with AVX vectors (-mavx2, an AVX
      -march): GCC's vectorizer is faster there (the plugin's
      nf_loop_ew_pays).

   A _Float16 accumulator sums in float (GCC's excess precision), the
   arithmetic on _Float16 values too, as the plugin's IR has it.

   Not handled: loops with other shapes (variable offsets, strides,
   second loops of several statements but an elementwise loop's, of at
   most nine),
   branches between the loops, regions the plugin only sees after
   inlining (an activation through an inline function or a function
   pointer).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "loop-int.h"
#include "record.h"

/* What the body of a loop holds: a floating acc += a * b (the loops
   worth a remark, as the plugin's nf_loop_candidate), whether a * a,
   and whether it can leave early.  */
struct nf_lp_cand
{
  const nf_tool *t;
  bool sum, square, exits, inner;
};

/* Whether C is pow (x, 2) (powf, powl), which GCC folds to x * x.  */
static bool
nf_lp_is_pow2 (CXCursor c)
{
  int nargs;
  double k;
  return clang_getCursorKind (c) == CXCursor_CallExpr
	 && nf_lp_math (c, &nargs) == NF_OP_POW
	 && clang_Cursor_getNumArguments (c) == 2
	 && nf_ast_const (clang_Cursor_getArgument (c, 1), &k) && k == 2.0;
}

static enum CXChildVisitResult
nf_lp_cand_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_cand *d = data;
  CXCursor k[2], f[2];
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  if (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt
      || kind == CXCursor_DoStmt)
    d->inner = true;
  if (kind == CXCursor_BreakStmt || kind == CXCursor_ReturnStmt
      || kind == CXCursor_GotoStmt)
    d->exits = true;
  if (nf_lp_accumulation (c, &k[0], &k[1])
      && nf_elem_is_float (nf_ast_elem (clang_getCursorType (k[0]))))
    {
      CXCursor p = nf_ast_strip_noop (k[1]), in;
      if (nf_ast_float_convert (p, &in))
	p = nf_ast_strip_noop (in);
      if (nf_lp_is_pow2 (p))
	d->sum = d->square = true; /* pow (x, 2), GCC's x * x.  */
      else if (nf_ast_binop (p) == CXBinaryOperator_Mul
	       && nf_ast_children (p, f, 2) == 2)
	{
	  d->sum = true;
	  for (int i = 0; i < 2; i++)
	    {
	      f[i] = nf_ast_strip_noop (f[i]);
	      CXCursor w;
	      while (!clang_Cursor_isNull (w = nf_ast_cast_operand (f[i])))
		f[i] = nf_ast_strip_noop (w);
	    }
	  /* Two reads of volatile memory are two values.  */
	  if (nf_lp_same_text (d->t, f[0], f[1])
	      && !clang_isVolatileQualifiedType (clang_getCursorType (f[0])))
	    d->square = true;
	}
    }
  return CXChildVisit_Recurse;
}

void
nf_lp_loc (CXCursor c, unsigned *line, unsigned *column)
{
  clang_getExpansionLocation (clang_getRangeStart (clang_getCursorExtent (c)),
			      NULL, line, column, NULL);
}

/* --- Steps 1-4: the norm regions.  --- */

/* Step 1: whether the loop STMT of S is a norm candidate: written in
   the code (no macro's expansion), innermost, summing a product; *CAND
   says what it holds.  Sets S->summed (for a loop that is no macro's).  */
static bool
nf_lp_norm_candidate (struct nf_lp_scan *s, CXCursor stmt,
		      struct nf_lp_cand *cand)
{
  nf_tool *t = s->t;
  *cand = (struct nf_lp_cand){ t, false, false, false, false };
  /* A loop that is a macro's expansion: its text is not the code.  */
  if (nf_tool_in_macro (t, nf_ast_begin (stmt), nf_ast_begin (stmt) + 1))
    return false;
  if (t->kinds & (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT))
    clang_visitChildren (stmt, nf_lp_cand_visit, cand);
  /* Innermost loops only, as the plugin's.  */
  s->summed = cand->sum && !cand->inner;
  return s->summed;
}

bool
nf_lp_each_decl (CXCursor c, bool (*ok) (CXCursor var))
{
  CXCursor vd[8];
  if (clang_getCursorKind (c) != CXCursor_DeclStmt)
    return false;
  int n = nf_ast_children (c, vd, 8);
  if (n < 1 || n > 8)
    return false;
  for (int i = 0; i < n; i++)
    if (clang_getCursorKind (vd[i]) != CXCursor_VarDecl || !ok (vd[i]))
      return false;
  return true;
}

/* Whether the variable V is an integer or a pointer with an initializer
   free of side effects.  */
static bool
nf_lp_plain_var (CXCursor v)
{
  CXType ty = clang_getCanonicalType (clang_getCursorType (v));
  enum nf_elem e = nf_ast_elem (ty);
  if (e != NF_ELEM_I32 && e != NF_ELEM_I64 && ty.kind != CXType_Pointer)
    return false;
  bool effect = false;
  CXCursor in = clang_Cursor_getVarDeclInitializer (v);
  if (!clang_Cursor_isNull (in))
    {
      nf_lp_effect_visit (in, in, &effect);
      clang_visitChildren (in, nf_lp_effect_visit, &effect);
    }
  return !effect;
}

/* Whether C declares integers and pointers only, with initializers
   free of side effects: no statement setting a floating sum's start.  */
static bool
nf_lp_plain_decls (CXCursor c)
{
  return nf_lp_each_decl (c, nf_lp_plain_var);
}

/* The statement before the loop STMTS[I] that may set the start of its
   sums: the one before it, past declarations of integers and pointers
   (GSL's `double e2 = 0; size_t n = f->size, stride = f->stride; const
   double *data = f->data;` before its loop), which set no floating
   sum and which GIMPLE does not put between them either.  */
static CXCursor
nf_lp_init_stmt (CXCursor *stmts, int i)
{
  int j = i - 1;
  while (j >= 0 && nf_lp_plain_decls (stmts[j]))
    j--;
  return j >= 0 ? stmts[j] : clang_getNullCursor ();
}

/* Step 2, after the reduction: the statements of SPAN after its first
   loop, built into G while they are scalar statements, up to and
   including a second loop (its store in *STORE) or a return (its value
   G->ret, which escapes).  Returns the index of the region's last
   statement: the loop or the return, else the last statement built
   (the one that failed G included).  */
static int
nf_lp_norm_tail (struct nf_lp *g, const struct nf_lp_span *span,
		 nf_value *store)
{
  int j;
  for (j = span->first + 1; j < span->n && !g->fail; j++)
    {
      CXCursor c = span->stmts[j];
      if (clang_getCursorKind (c) == CXCursor_ForStmt && g->stop_at_loop)
	break;
      if (clang_getCursorKind (c) == CXCursor_ForStmt)
	{
	  CXCursor b = nf_lp_loop (g, c);
	  if (!clang_Cursor_isNull (b))
	    *store = nf_lp_store (g, b);
	  return j;
	}
      if (clang_getCursorKind (c) == CXCursor_ReturnStmt)
	{
	  CXCursor e[1];
	  if (nf_ast_children (c, e, 1) == 1)
	    {
	      g->ret = nf_lp_expr (g, e[0], -1);
	      g->ret_expr = nf_ast_strip_noop (e[0]);
	      if (g->ret != NF_NO_VALUE)
		nf_value_set_escapes (g->r, g->ret);
	    }
	  return j;
	}
      if (!nf_lp_scalar_stmt (g, c))
	break;
    }
  return j - 1;
}

/* Step 2: build into G the norm region starting at SPAN's first
   statement, a loop (which can leave early when EXITS: G fails): the
   loop and its reduction, then nf_lp_norm_tail, the second loop's store
   in *STORE.  Sets SPAN's last statement and its text [begin, end) (a
   return stays out of it).  Returns false when the reduction was not
   built (G->fail may say why).  */
static bool
nf_lp_build_norm (struct nf_lp *g, bool exits, struct nf_lp_span *span,
		  nf_value *store)
{
  CXCursor *stmts = span->stmts;
  int i = span->first;
  if (exits)
    nf_lp_fail (g, NF_WHY_EXITS);
  CXCursor body = nf_lp_loop (g, stmts[i]);
  CXCursor prev = nf_lp_init_stmt (stmts, i);
  g->reduce = clang_Cursor_isNull (body) ? NF_NO_VALUE
					 : nf_lp_reduction (g, body, prev);
  /* A fabs no square folded away is no value of the plugin's either.  */
  if (g->reduce != NF_NO_VALUE && nf_lp_fabs_used (g))
    g->reduce = nf_lp_fail (g, NF_WHY_UNMODELED);
  if (g->reduce == NF_NO_VALUE)
    return false;
  int last = span->last = nf_lp_norm_tail (g, span, store);
  if (nf_lp_fabs_used (g))
    nf_lp_fail (g, NF_WHY_UNMODELED);
  span->begin = nf_lp_pragmas_before (g->t, nf_ast_begin (stmts[i]));
  span->end = g->ret != NF_NO_VALUE ? nf_ast_begin (stmts[last])
				    : nf_lp_stmt_end (g->t, stmts[last]);
  return true;
}

/* Step 3: whether the variable DECL, assigned in G's region SPAN, is
   read after it: after its text, or before it (in an enclosing loop,
   those reads run after it) but in the accumulator's initialization to
   a constant just before it, and not in the returned expression (those
   reads are the region's).  */
static bool
nf_lp_read_after (const struct nf_lp_scan *s, const struct nf_lp *g,
		  const struct nf_lp_span *span, CXCursor decl)
{
  CXCursor *stmts = span->stmts;
  int i = span->first;
  struct nf_lp_refs refs = { decl, span->end, 0, 0 };
  clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
  struct nf_lp_refs pre = { decl, 0, 0, span->begin };
  clang_visitChildren (s->fn, nf_lp_count_refs, &pre);
  CXCursor ab[2];
  double cv;
  if (i > 0 && nf_lp_same_decl (decl, g->acc)
      && nf_ast_binop (stmts[i - 1]) == CXBinaryOperator_Assign
      && nf_ast_children (stmts[i - 1], ab, 2) == 2
      && nf_lp_same_decl (nf_lp_var_of (ab[0]), g->acc)
      && nf_ast_const (ab[1], &cv))
    pre.n--;
  refs.n += pre.n;
  if (g->ret != NF_NO_VALUE)
    {
      struct nf_lp_refs in = { decl, nf_ast_begin (g->ret_expr), 0, 0 };
      struct nf_lp_refs past = { decl, nf_ast_end (g->ret_expr), 0, 0 };
      clang_visitChildren (stmts[span->last], nf_lp_count_refs, &in);
      clang_visitChildren (stmts[span->last], nf_lp_count_refs, &past);
      refs.n -= in.n - past.n;
    }
  return refs.n > 0;
}

/* Step 3: the values of G's variables read after its region SPAN
   escape, as SSA names used after the plugin's region do; an induction
   variable declared outside its loop and read after the region fails
   G (its final value is the region's too).  */
static void
nf_lp_norm_escapes (const struct nf_lp_scan *s, struct nf_lp *g,
		    const struct nf_lp_span *span)
{
  for (int v = 0; v < g->n_vars && !g->fail; v++)
    if (!g->vparam[v] && nf_lp_read_after (s, g, span, g->vdecl[v]))
      nf_value_set_escapes (g->r, g->vval[v]);
  for (int k = 0; k < g->n_loops && !g->fail; k++)
    {
      CXCursor kids[1];
      if (nf_ast_children (g->loops[k].stmt, kids, 1) >= 1
	  && clang_getCursorKind (kids[0]) != CXCursor_DeclStmt)
	{
	  struct nf_lp_refs refs = { g->loops[k].ivar, span->end, 0, 0 };
	  clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
	  if (refs.n > 0)
	    g->fail = NF_WHY_USED_AFTER;
	}
    }
}

/* Step 4: why the norm region M of G cannot be replaced by a call
   where SPAN says it is: lower/'s coverage checks (it stores
   elsewhere, a value it computes other than M's result is used after
   it), or it starts or ends inside a macro expansion; NULL when it
   can.  */
static const char *
nf_lp_norm_leaves (const struct nf_lp *g, const nf_match *m,
		   const struct nf_lp_span *span)
{
  const nf_tool *t = g->t;
  const char *why = nf_call_region_covers (g->r, m);
  if (why)
    return why;
  /* Macros inside the region are copied verbatim into the fallback and
     their names into the call; a region starting or ending inside a
     macro expansion is not the code.  */
  size_t begin = span->begin, end = span->end;
  if (end <= begin || nf_tool_in_macro (t, begin, begin + 1)
      || nf_tool_in_macro (t, end - 1, end))
    return NF_CLANG_WHY_MACRO;
  return NULL;
}

/* Step 4: match G's sums as the plugin's nf_loop_match does, the
   region's first (G->reduce), then the others until one is the idiom:
   MulRedSqrt, else RMSNorm (nf_match_norm).  Returns whether one is,
   in *M; else false with the first candidate's reason (NULL: none) in
   *REASON and its kind in *KIND, a store the region does not hold
   (G->stored) explaining more.  */
static bool
nf_lp_norm_match (const struct nf_lp_scan *s, const struct nf_lp *g,
		  nf_match *m, enum nf_kind *kind, const char **reason)
{
  const nf_region *r = g->r;
  *reason = NULL;
  for (nf_value a = g->reduce; a < nf_region_n_values (r); a++)
    {
      if (nf_op (r, a) != NF_OP_REDUCE)
	continue;
      bool matched = nf_match_norm (r, a, s->t->kinds, m);
      const char *why = matched ? NULL : m->reason;
      if (why && g->stored)
	why = g->stored;
      if (a == g->reduce || matched || (why && !*reason))
	{
	  *kind = m->kind;
	  *reason = why;
	}
      if (matched)
	return true;
    }
  return false;
}

/* Step 4: NF_WHY_OTHER_SUM when the first loop of G computes a sum
   used after it besides M's (the norms and the dot product of a cosine
   similarity are no one call), as the plugin's nf_loop_check; else
   NULL.  */
static const char *
nf_lp_norm_other_sum (const struct nf_lp *g, const nf_match *m)
{
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_REDUCE && v != m->anchor)
      return NF_WHY_OTHER_SUM;
  return NULL;
}

/* Step 4: NF_WHY_OTHER_STORE when a store of G's scalar code that
   stores no value of the region (G->other_store) comes before the end
   of M's region (the root's call of a MulRedSqrt, the last loop of an
   RMSNorm), as the plugin finds it inside its region's blocks; else
   NULL.  */
static const char *
nf_lp_norm_other_store (const struct nf_lp *g, const nf_match *m)
{
  if (clang_Cursor_isNull (g->other_store))
    return NULL;
  CXCursor end = g->loops[g->n_loops - 1].stmt;
  if (m->kind == NF_KIND_MULREDSQRT && !m->normalize)
    end = nf_lp_cursor (g, m->result);
  if (!clang_Cursor_isNull (end)
      && nf_ast_begin (end) < nf_ast_begin (g->other_store))
    return NULL;
  return NF_WHY_OTHER_STORE;
}

/* Step 4: match the built norm region G where SPAN
   says it is and have it rewritten.  Returns true when it was (SPAN's
   last statement then the region's last); else false, with the reason
   to report (NULL: none) in *REASON and its kind in *KIND.  */
static bool
nf_lp_norm_decide (struct nf_lp_scan *s, struct nf_lp *g,
		   struct nf_lp_span *span, enum nf_kind *kind,
		   const char **reason)
{
  nf_match m;
  memset (&m, 0, sizeof m);
  *kind = NF_KIND_RMSNORM;
  if (g->fail)
    return *reason = g->fail, false;
  if (!nf_lp_norm_match (s, g, &m, kind, reason))
    return false;
  /* Without the second loop (nf_lp_try), a norm whose value that loop
     reads only.  */
  if (g->stop_at_loop && (m.kind != NF_KIND_MULREDSQRT || m.normalize))
    {
      nf_match_release (&m);
      return *reason = NULL, false;
    }
  *kind = m.kind;
  *reason = nf_lp_norm_other_sum (g, &m);
  if (!*reason)
    *reason = nf_lp_norm_other_store (g, &m);
  if (!*reason)
    *reason = nf_lp_norm_leaves (g, &m, span);
  if (*reason)
    ;
  else if (m.kind == NF_KIND_MULREDSQRT && !m.normalize)
    *reason = nf_lp_mulredsqrt_rewrite (s, g, &m, span);
  else
    *reason = nf_lp_rmsnorm_rewrite (s, g, &m, span);
  nf_match_release (&m);
  return !*reason;
}

/* Steps 2-4 again for the loop STMTS[I] (of a list of N) whose region
   failed in the second loop: without that loop, whose reads of the
   region's values make them escape, as the plugin's builder leaves the
   uses it does not build (ggml's av_x = sqrtf (sum_x2 / 32) read by a
   loop of fabsf: the RMS fuses, the loop stays).  A MulRedSqrt only.
   Returns the number of statements rewritten (0: none, and nothing
   recorded).  */
static int
nf_lp_try_without_loop (struct nf_lp_scan *s, CXCursor *stmts, int n, int i,
			const struct nf_lp_cand *cand)
{
  struct nf_lp g;
  if (!nf_lp_start (&g, s, /*map=*/false))
    return s->oom = 1, 0;
  g.stop_at_loop = true;
  struct nf_lp_span span = { stmts, n, i, i, 0, 0, 0, 0, NULL };
  nf_lp_loc (stmts[i], &span.line, &span.column);
  nf_value store = NF_NO_VALUE;
  enum nf_kind kind;
  const char *reason = NULL;
  int used = 0;
  if (nf_lp_build_norm (&g, cand->exits, &span, &store) && !g.fail)
    {
      nf_lp_norm_escapes (s, &g, &span);
      if (nf_lp_norm_decide (s, &g, &span, &kind, &reason))
	used = span.last - i + 1;
    }
  if (g.oom)
    s->oom = 1;
  nf_lp_finish (&g);
  return used;
}

/* Steps 1-4 for the loop STMTS[I] of a list of N statements.  Returns
   the number of statements the region rewritten took (0: none).  */
static int
nf_lp_try (struct nf_lp_scan *s, CXCursor *stmts, int n, int i)
{
  struct nf_lp_cand cand;
  if (!nf_lp_norm_candidate (s, stmts[i], &cand))
    return 0;
  struct nf_lp g;
  if (!nf_lp_start (&g, s, /*map=*/false))
    return s->oom = 1, 0;
  struct nf_lp_span span = { stmts, n, i, i, 0, 0, 0, 0, NULL };
  nf_lp_loc (stmts[i], &span.line, &span.column);
  nf_value store = NF_NO_VALUE;
  enum nf_kind kind = NF_KIND_MULREDSQRT;
  const char *reason = NULL;
  int used = 0;
  bool built = nf_lp_build_norm (&g, cand.exits, &span, &store);
  if (g.oom)
    s->oom = 1;
  if (!built)
    {
      /* Not built: worth a remark when it sums squares, as the
	 plugin's.  */
      if (cand.square)
	reason = g.fail ? g.fail : NF_WHY_ACCUMULATION;
    }
  else if (g.fail && span.last > i && !g.oom
	   && clang_getCursorKind (stmts[span.last]) == CXCursor_ForStmt
	   && (used = nf_lp_try_without_loop (s, stmts, n, i, &cand)) > 0)
    reason = NULL;
  else
    {
      nf_lp_norm_escapes (s, &g, &span);
      if (nf_lp_norm_decide (s, &g, &span, &kind, &reason))
	used = span.last - i + 1;
      /* Built up to a statement after the loop that failed: as above,
	 a near miss only when the loop sums squares (ggml's
	 make_qp_quants sums w * diff * diff, then loops from -4 to 4: no
	 RMSNorm's).  */
      else if (g.fail && reason == g.fail && !cand.square)
	reason = NULL;
    }
  if (reason && !s->oom)
    nf_record_missed (s->t, kind, s->function, span.line, span.column, reason);
  nf_lp_finish (&g);
  return used;
}

/* --- Step 5: the elementwise loops.  --- */

/* Whether C calls exp or log (an Expm1/Log1p candidate inside).  */
struct nf_lp_calls
{
  bool exp, log;
};

static enum CXChildVisitResult
nf_lp_calls_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_calls *d = data;
  int nargs;
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_CallExpr)
    {
      enum nf_opcode op = nf_lp_math (c, &nargs);
      d->exp |= op == NF_OP_EXP;
      d->log |= op == NF_OP_LOG;
    }
  return CXChildVisit_Recurse;
}

/* For the rewrites of the elementwise loop of G, SPAN's one statement:
   whether a value it computes is used after it (an escaping value of
   the region, the induction variable declared outside it, a variable
   its body sets) or it is inside a macro expansion.  Returns that
   reason, or NULL with the loop's text range in SPAN.  */
const char *
nf_lp_loop_leaves (const struct nf_lp_scan *s, const struct nf_lp *g,
		   struct nf_lp_span *span)
{
  const nf_region *r = g->r;
  nf_tool *t = s->t;
  CXCursor stmt = span->stmts[span->first];
  for (nf_value v = 0; v < nf_region_n_values (r); v++)
    if (nf_value_escapes (r, v))
      return NF_WHY_LOOP_USED_AFTER;
  CXCursor kids[1];
  if (nf_ast_children (stmt, kids, 1) >= 1
      && clang_getCursorKind (kids[0]) != CXCursor_DeclStmt)
    {
      struct nf_lp_refs refs = { g->loops[0].ivar, nf_ast_end (stmt), 0, 0 };
      clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
      if (refs.n > 0)
	return NF_WHY_LOOP_USED_AFTER;
    }
  for (int i = 0; i < g->n_body_vars; i++)
    {
      struct nf_lp_refs refs = { g->body_vars[i], nf_ast_end (stmt), 0, 0 };
      clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
      if (refs.n > 0)
	return NF_WHY_LOOP_USED_AFTER;
    }
  size_t begin = span->begin = nf_lp_pragmas_before (t, nf_ast_begin (stmt));
  size_t end = span->end = nf_lp_stmt_end (t, stmt);
  if (end <= begin || nf_tool_in_macro (t, begin, begin + 1)
      || nf_tool_in_macro (t, end - 1, end))
    return NF_CLANG_WHY_MACRO;
  return NULL;
}

/* Step 5: build into G an elementwise loop's body BODY (nf_lp_loop's):
   y[i] = F, or { t = E; ...; y[i] = F; } (at most 8 local variables
   set, then the store).  A variable read before the body sets it
   carries a value from the previous iteration: not built.  Returns the
   STORE, or NF_NO_VALUE.  */
nf_value
nf_lp_map_body (struct nf_lp *g, CXCursor body)
{
  if (clang_getCursorKind (body) != CXCursor_CompoundStmt)
    return nf_lp_store (g, body);
  CXCursor b[9], k2[2];
  int nb = nf_ast_children (body, b, 9);
  for (int i = 0; i < nb - 1 && i < 8 && !g->fail; i++)
    {
      CXCursor v = clang_getNullCursor ();
      if (nf_ast_binop (b[i]) == CXBinaryOperator_Assign
	  && nf_ast_children (b[i], k2, 2) == 2)
	v = nf_lp_var_of (k2[0]);
      enum nf_elem e = clang_Cursor_isNull (v)
			 ? NF_ELEM_NONE
			 : nf_ast_elem (clang_getCursorType (v));
      if (!nf_elem_is_float (e) || nf_lp_find_var (g, v) >= 0)
	{
	  nf_lp_fail (g, "the region computes something the matchers "
			 "do not know");
	  break;
	}
      nf_value x = nf_lp_convert (g, nf_lp_expr (g, k2[1], 0), e);
      if (x == NF_NO_VALUE)
	break;
      nf_lp_set_var (g, v, x, false);
      g->body_vars[g->n_body_vars++] = v;
    }
  if (nb >= 1 && nb <= 9 && !g->fail)
    return nf_lp_store (g, b[nb - 1]);
  return NF_NO_VALUE;
}

/* Step 5, for an elementwise region G that nf_match_map did not take
   (its reason in *REASON, of *KIND): one program (the plugin's
   nf_loop_ew_attempt), whose reason, where the region has one, says
   more than the map matcher's, and replaces *REASON and *KIND.  */
static void
nf_lp_try_ew (struct nf_lp_scan *s, struct nf_lp *g, nf_value store,
	      const struct nf_lp_span *span, enum nf_kind *kind,
	      const char **reason)
{
  nf_tool *t = s->t;
  nf_match e;
  if (!(t->kinds & NF_KIND_ELEMENTWISE) || t->ew_vectorizer)
    return;
  if (nf_match_elementwise (g->r, store, &e))
    {
      *kind = NF_KIND_ELEMENTWISE;
      *reason = nf_lp_loop_rewrite (s, g, &e, span);
      nf_match_release (&e);
    }
  else if (e.reason)
    {
      *kind = NF_KIND_ELEMENTWISE;
      *reason = e.reason;
    }
}

/* Step 5: the loop STMT storing y[i] = E where E holds an Expm1 or
   Log1p candidate: build it as the plugin's nf_lr_build_map does and
   record nf_match_map's reason (or nf_lp_try_ew's).  Where the tool's
   scalar rewrite keeps + 0.0 (the sign of a zero result), the map's
   call is to the _pz kernel.  */
static void
nf_lp_try_map (struct nf_lp_scan *s, CXCursor stmt)
{
  nf_tool *t = s->t;
  struct nf_lp_calls calls = { false, false };
  clang_visitChildren (stmt, nf_lp_calls_visit, &calls);
  if (!((calls.exp && (t->kinds & NF_KIND_EXPM1))
	|| (calls.log && (t->kinds & NF_KIND_LOG1P))))
    return;
  struct nf_lp g;
  if (!nf_lp_start (&g, s, /*map=*/true))
    {
      s->oom = 1;
      return;
    }
  struct nf_lp_span span = { &stmt, 1, 0, 0, 0, 0, 0, 0, NULL };
  nf_lp_loc (stmt, &span.line, &span.column);
  CXCursor body = nf_lp_loop (&g, stmt);
  nf_value store
    = clang_Cursor_isNull (body) ? NF_NO_VALUE : nf_lp_map_body (&g, body);
  if (g.oom)
    s->oom = 1;
  if (store != NF_NO_VALUE && !g.fail)
    {
      enum nf_kind kind;
      const char *reason;
      nf_match m;
      span.used_after = nf_lp_loop_leaves (s, &g, &span);
      if (nf_match_map (g.r, store, &m))
	{
	  kind = m.kind;
	  reason = nf_lp_loop_rewrite (s, &g, &m, &span);
	  nf_match_release (&m);
	}
      else
	{
	  kind = m.kind;
	  reason = m.reason;
	  nf_lp_try_ew (s, &g, store, &span, &kind, &reason);
	}
      if (reason && !s->oom)
	nf_record_missed (t, kind, s->function, span.line, span.column, reason);
    }
  nf_lp_finish (&g);
}

static enum CXChildVisitResult
nf_lp_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_scan *s = data;
  if (clang_getCursorKind (c) == CXCursor_CompoundStmt)
    {
      s->owner = parent;
      int n = nf_ast_children (c, NULL, 0);
      CXCursor *stmts = malloc ((n ? n : 1) * sizeof *stmts);
      if (!stmts)
	s->oom = 1;
      else
	nf_ast_children (c, stmts, n);
      for (int i = 0; i < n && !s->oom; i++)
	if (clang_getCursorKind (stmts[i]) == CXCursor_ForStmt)
	  {
	    /* A softmax's loops (loop-softmax.c) before any other kind,
	       as the plugin's nf_loop_run; then the row of a
	       matrix-vector nest (loop-dot.c), as its nf_loop_try.  */
	    int used = nf_lp_try_softmax (s, stmts, n, i);
	    if (used > 0)
	      {
		i += used - 1;
		continue;
	      }
	    if (!s->oom && nf_lp_try_dot (s, parent, stmts, n, i))
	      continue;
	    used = nf_lp_try (s, stmts, n, i);
	    if (used > 0)
	      i += used - 1;
	    else if (!s->oom && !s->summed)
	      nf_lp_try_map (s, stmts[i]);
	  }
      free (stmts);
    }
  return s->oom ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the LEN bytes at L contain the string S.  */
static bool
nf_lp_has (const char *l, size_t len, const char *s)
{
  size_t n = strlen (s);
  for (size_t i = 0; i + n <= len; i++)
    if (memcmp (l + i, s, n) == 0)
      return true;
  return false;
}

/* Whether [B, E) of T's buffer asks for -O0: optimize ("O0").  */
static bool
nf_lp_o0_in (const nf_tool *t, size_t b, size_t e)
{
  for (size_t i = b; i + 8 <= e; i++)
    if (memcmp (t->buf + i, "optimize", 8) == 0)
      {
	size_t j = i + 8;
	while (j < e
	       && (t->buf[j] == ' ' || t->buf[j] == '(' || t->buf[j] == '"'))
	  j++;
	if (j + 2 <= e && memcmp (t->buf + j, "O0", 2) == 0)
	  return true;
      }
  return false;
}

/* Set *DATA, a size_t, to the offset of C when it is a compound
   statement (a function's body).  */
static enum CXChildVisitResult
nf_lp_body_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_CompoundStmt)
    *(size_t *) data = nf_ast_begin (c);
  return CXChildVisit_Continue;
}

/* Whether the function FN is compiled without optimization, under
   `#pragma GCC optimize ("O0")` or __attribute__ ((optimize ("O0"))):
   the plugin's loop pass, in GCC's loop pipeline, does not run there.  */
static bool
nf_lp_unoptimized (const nf_tool *t, CXCursor fn)
{
  size_t begin = nf_ast_begin (fn);
  size_t body = begin;
  clang_visitChildren (fn, nf_lp_body_visit, &body);
  /* The attributes before the declaration, back to the previous one.  */
  size_t a = begin;
  while (a > 0 && t->buf[a - 1] != ';' && t->buf[a - 1] != '}'
	 && t->buf[a - 1] != '/' && begin - a < 512)
    a--;
  if (body > a && nf_lp_o0_in (t, a, body))
    return true;
  /* The last #pragma GCC optimize / reset_options / pop_options before
     FN.  */
  bool o0 = false;
  for (size_t i = 0; i + 11 < begin && i < t->len; i++)
    if ((i == 0 || t->buf[i - 1] == '\n')
	&& memcmp (t->buf + i, "#pragma GCC", 11) == 0)
      {
	size_t e = i;
	while (e < t->len && t->buf[e] != '\n')
	  e++;
	const char *l = t->buf + i;
	size_t len = e - i;
	if (nf_lp_has (l, len, "optimize"))
	  o0 = nf_lp_o0_in (t, i, e);
	else if (nf_lp_has (l, len, "reset_options")
		 || nf_lp_has (l, len, "pop_options"))
	  o0 = false;
      }
  return o0;
}

/* The pass over the function FN, named NAME (nf_tool_function_fn).  */
static int
nf_lp_function (nf_tool *t, CXCursor fn, const char *name,
		const nf_vars *vars, void *data)
{
  struct nf_lp_scan s = { t, name, fn, 0, vars, false, clang_getNullCursor () };
  (void) data;
  clang_visitChildren (fn, nf_lp_visit, &s);
  return s.oom ? -1 : 0;
}

int
nf_loop_run (nf_tool *t)
{
  if (!(t->kinds
	& (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT | NF_KIND_EXPM1 | NF_KIND_LOG1P
	   | NF_KIND_ELEMENTWISE | NF_KIND_DOT | NF_KIND_SOFTMAX)))
    return 0;
  return nf_tool_each_function (t, nf_lp_unoptimized, nf_lp_function, NULL);
}
