/* loop-ir.c: the loop regions of a statement list as region IR (the
   libclang twin of plugin/loop-ir.cc): the region's variables, arrays,
   inputs and loops, and its statements executed symbolically.
   loop-expr.c builds the expressions; loop.c, the driver, says which
   statements make a region.

   The statements of a region are executed in order into lower/'s IR
   (ir.h), the graph plugin/loop-ir.cc builds from GIMPLE:

     float ss = 0.0f;                                    the REDUCE's init
     for (int j = 0; j < size; j++) ss += x[j] * x[j];   (1) (3)
     ss /= size;  ss += 1e-5f;  ss = 1.0f / sqrtf (ss);  (4)
     for (int j = 0; j < size; j++)                      (1)
       o[j] = weight[j] * (ss * x[j]);                   (5)

   1. A loop (nf_lp_loop) is for (j = 0; j < n; j++) (or j != n, ++j,
      j += 1) over an integer j; n, a variable, a member or a constant,
      is the loop's dimension: a symbol of the region (the same text,
      the same symbol) or a constant extent.  Its body is one statement
      (an elementwise loop's may set variables first: loop.c's
      nf_lp_map_body builds those).
   2. Each variable holds the value last assigned to it (an SSA name,
      nf_lp_set_var); a variable read before the region assigns it is a
      parameter (nf_lp_read).  A variable the region writes must be a
      local the function never addresses: anything else is memory the
      call would skip.
   3. The first loop's body acc += E is a REDUCE of E (loop-body.c,
      with the temporaries and further sums of a compound body).
   4. Scalar statements v = E, v op= E, T v = E (nf_lp_scalar_stmt)
      assign their variables.
   5. The last loop's body a[j] = E (nf_lp_store) is a STORE.
   6. A store of the scalar code (*out = sqrtf (s); nf_lp_memory_store)
      is no op of the region, as the plugin's: a value it stores that
      comes from the reduction escapes, and G->stored says so (the
      reason when the match fails); one that does not is G->other_store
      (loop.c refuses a match whose region it is inside).
   x[j], x[j + c] and *(x + j), with j the loop's induction variable,
   are LOADs of the array parameter named by x's text and the offset c
   (loop-access.c, which also has the member reads s->eps: scalar
   parameters named by their text).

   Texts (array bases, members, bounds) are the source's, on the heap:
   two arrays are the same when their whole texts are.

   Limitations: a region has at most NF_LP_VARS variables, NF_LP_ARRAYS
   arrays and as many members read (reported when more).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "loop-int.h"

/* What a visit of nf_lp_vol_visit found.  */
struct nf_lp_vol
{
  bool found;
};

/* Whether a statement reads or writes a volatile object.  */
static enum CXChildVisitResult
nf_lp_vol_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_vol *v = data;
  (void) parent;
  if (clang_isExpression (clang_getCursorKind (c))
      && clang_isVolatileQualifiedType (clang_getCursorType (c)))
    v->found = true;
  return CXChildVisit_Recurse;
}

bool
nf_lp_start (struct nf_lp *g, const struct nf_lp_scan *s, bool map)
{
  memset (g, 0, sizeof *g);
  g->t = s->t;
  g->function = s->function;
  g->fn = s->fn;
  g->map = map;
  /* The scalar pass's decisions, which an elementwise loop sees.  */
  g->vars = map ? s->vars : NULL;
  g->ret = NF_NO_VALUE;
  g->other_store = clang_getNullCursor ();
  g->r = nf_region_new (s->function);
  return g->r != NULL;
}

void
nf_lp_finish (struct nf_lp *g)
{
  nf_region_free (g->r);
  g->r = NULL;
  for (int i = 0; i < g->n_arrays; i++)
    free (g->arrays[i].text);
  for (int i = 0; i < g->n_leaves; i++)
    free (g->leaves[i].text);
  g->n_arrays = g->n_leaves = 0;
  free (g->cursors);
  free (g->noted);
  g->cursors = NULL;
  g->noted = NULL;
  g->n_cursors = 0;
}

nf_value
nf_lp_oom (struct nf_lp *g)
{
  g->oom = true;
  g->fail = "out of memory";
  return NF_NO_VALUE;
}

nf_value
nf_lp_fail (struct nf_lp *g, const char *why)
{
  if (!g->fail)
    g->fail = why;
  return NF_NO_VALUE;
}

nf_value
nf_lp_note (struct nf_lp *g, nf_value v, CXCursor c, bool first)
{
  if (v < 0)
    return v;
  if ((size_t) v >= g->n_cursors)
    {
      /* Grown to twice what is needed: a region's values come one at a
	 time.  */
      size_t n = 2 * (size_t) v + 16;
      CXCursor *cs = realloc (g->cursors, n * sizeof *cs);
      if (cs)
	g->cursors = cs;
      bool *nd = cs ? realloc (g->noted, n * sizeof *nd) : NULL;
      if (!nd)
	return nf_lp_oom (g);
      g->noted = nd;
      for (size_t i = g->n_cursors; i < n; i++)
	{
	  g->cursors[i] = clang_getNullCursor ();
	  g->noted[i] = false;
	}
      g->n_cursors = n;
    }
  if (!first)
    g->cursors[v] = c;
  else if (!g->noted[v])
    {
      g->noted[v] = true;
      g->cursors[v] = c;
    }
  return v;
}

CXCursor
nf_lp_cursor (const struct nf_lp *g, nf_value v)
{
  if (v < 0 || (size_t) v >= g->n_cursors)
    return clang_getNullCursor ();
  return g->cursors[v];
}

bool
nf_lp_noted_first (const struct nf_lp *g, nf_value v)
{
  return v >= 0 && (size_t) v < g->n_cursors && g->noted[v];
}

bool
nf_lp_same_decl (CXCursor a, CXCursor b)
{
  return clang_equalCursors (clang_getCanonicalCursor (a),
			     clang_getCanonicalCursor (b));
}

/* The variable C (stripped) refers to, or a null cursor.  */
CXCursor
nf_lp_var_of (CXCursor c)
{
  c = nf_ast_strip_noop (c);
  if (clang_getCursorKind (c) != CXCursor_DeclRefExpr)
    return clang_getNullCursor ();
  CXCursor d = clang_getCursorReferenced (c);
  if (clang_getCursorKind (d) != CXCursor_VarDecl
      && clang_getCursorKind (d) != CXCursor_ParmDecl)
    return clang_getNullCursor ();
  return d;
}

/* Whether C accumulates into a variable: acc += E, acc = acc + E or
   acc = E + acc (C defines the first as the second, and a floating
   addition commutes bit for bit; a conversion of the sum back to acc's
   type is the one += makes).  Sets *LHS to acc's expression and *E.  */
bool
nf_lp_accumulation (CXCursor c, CXCursor *lhs, CXCursor *e)
{
  CXCursor k[2], a[2];
  if (clang_getCursorKind (c) == CXCursor_CompoundAssignOperator
      && clang_getCursorBinaryOperatorKind (c) == CXBinaryOperator_AddAssign
      && nf_ast_children (c, k, 2) == 2)
    {
      *lhs = k[0];
      *e = k[1];
      return true;
    }
  if (nf_ast_binop (c) != CXBinaryOperator_Assign
      || nf_ast_children (c, k, 2) != 2)
    return false;
  CXCursor acc = nf_lp_var_of (k[0]), sum = nf_ast_strip_noop (k[1]), in;
  if (nf_ast_float_convert (sum, &in))
    sum = nf_ast_strip_noop (in);
  if (clang_Cursor_isNull (acc) || nf_ast_binop (sum) != CXBinaryOperator_Add
      || nf_ast_children (sum, a, 2) != 2)
    return false;
  for (int i = 0; i < 2; i++)
    {
      CXCursor x = nf_ast_strip_noop (a[i]);
      if (nf_ast_float_convert (x, &in))
	x = in;
      CXCursor v = nf_lp_var_of (x);
      if (!clang_Cursor_isNull (v) && nf_lp_same_decl (v, acc))
	{
	  *lhs = k[0];
	  *e = a[1 - i];
	  return true;
	}
    }
  return false;
}

int
nf_lp_find_var (const struct nf_lp *g, CXCursor decl)
{
  for (int i = 0; i < g->n_vars; i++)
    if (nf_lp_same_decl (g->vdecl[i], decl))
      return i;
  return -1;
}

/* Whether the function takes the address of DECL.  */
struct nf_lp_addr
{
  CXCursor decl;
  bool found;
};

static enum CXChildVisitResult
nf_lp_addr_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_addr *a = data;
  CXCursor k[1];
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_UnaryOperator
      && clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_AddrOf
      && nf_ast_children (c, k, 1) == 1)
    {
      CXCursor d = nf_ast_strip_noop (k[0]);
      if (clang_getCursorKind (d) == CXCursor_DeclRefExpr
	  && nf_lp_same_decl (clang_getCursorReferenced (d), a->decl))
	a->found = true;
    }
  return CXChildVisit_Recurse;
}

/* Whether the variable DECL of G's function is memory: a global, a
   volatile or an addressed local.  */
static bool
nf_lp_var_in_memory (const struct nf_lp *g, CXCursor decl)
{
  struct nf_lp_addr a = { decl, false };
  if (!clang_Cursor_isNull (g->fn))
    clang_visitChildren (g->fn, nf_lp_addr_visit, &a);
  return a.found || clang_Cursor_hasVarDeclGlobalStorage (decl) == 1
	 || clang_isVolatileQualifiedType (clang_getCursorType (decl));
}

void
nf_lp_set_var (struct nf_lp *g, CXCursor decl, nf_value v, bool param)
{
  /* A variable the region writes must be the function's own: memory is
     what the call would skip.  */
  if (!param && nf_lp_var_in_memory (g, decl))
    {
      nf_lp_fail (g, NF_WHY_OTHER_STORE);
      return;
    }
  int i = nf_lp_find_var (g, decl);
  if (i < 0)
    {
      if (g->n_vars == NF_LP_VARS)
	{
	  nf_lp_fail (g, "the region has too many variables");
	  return;
	}
      i = g->n_vars++;
      g->vdecl[i] = decl;
    }
  g->vval[i] = v;
  g->vparam[i] = param;
}

char *
nf_lp_text (const nf_tool *t, size_t b, size_t e)
{
  size_t n = e > b && e <= t->len ? e - b : 0;
  char *s = malloc (n + 1);
  if (s)
    {
      memcpy (s, t->buf + b, n);
      s[n] = '\0';
    }
  return s;
}

bool
nf_lp_same_text (const nf_tool *t, CXCursor a, CXCursor b)
{
  size_t ab = nf_ast_begin (a), ae = nf_ast_end (a);
  size_t bb = nf_ast_begin (b), be = nf_ast_end (b);
  size_t an = ae > ab && ae <= t->len ? ae - ab : 0;
  size_t bn = be > bb && be <= t->len ? be - bb : 0;
  /* No text (both inside one macro's expansion, whose extents are the
     macro's name): not known to be the same.  */
  return an > 0 && an == bn && memcmp (t->buf + ab, t->buf + bb, an) == 0;
}

/* The dimension of loop K.  */
nf_dim
nf_lp_dim (const struct nf_lp *g, int k)
{
  return g->loops[k].extent >= 0 ? nf_const_dim (g->loops[k].extent)
				 : nf_sym_dim (g->loops[k].sym);
}

/* Whether C (stripped) is loop K's induction variable.  */
bool
nf_lp_is_ivar (const struct nf_lp *g, CXCursor c, int k)
{
  CXCursor d = nf_lp_var_of (c);
  return k >= 0 && !clang_Cursor_isNull (d)
	 && nf_lp_same_decl (d, g->loops[k].ivar);
}

/* The value of the variable DECL read at C.  */
nf_value
nf_lp_read (struct nf_lp *g, CXCursor decl, CXCursor c)
{
  int i = nf_lp_find_var (g, decl);
  if (i >= 0)
    return g->vval[i];
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (decl));
  if (elem == NF_ELEM_NONE)
    return nf_lp_fail (g, NF_WHY_INPUT_KIND);
  CXString sp = clang_getCursorSpelling (decl);
  nf_value p
    = nf_param (g->r, clang_getCString (sp), nf_scalar_type (elem), false);
  clang_disposeString (sp);
  nf_lp_note (g, p, nf_ast_strip_noop (c), /*first=*/false);
  nf_lp_set_var (g, decl, p, true);
  return p;
}

/* --- Statements.  --- */

/* The induction variable of the for statement whose init is INIT,
   j = 0 or T j = 0 with an integer j; a null cursor (G failed) when the
   loop has another.  */
static CXCursor
nf_lp_loop_ivar (struct nf_lp *g, CXCursor init)
{
  CXCursor ivar = clang_getNullCursor (), start = clang_getNullCursor ();
  if (clang_getCursorKind (init) == CXCursor_DeclStmt)
    {
      CXCursor vd[2];
      if (nf_ast_children (init, vd, 2) == 1
	  && clang_getCursorKind (vd[0]) == CXCursor_VarDecl)
	{
	  ivar = vd[0];
	  start = clang_Cursor_getVarDeclInitializer (vd[0]);
	}
    }
  else if (nf_ast_binop (init) == CXBinaryOperator_Assign)
    {
      CXCursor ab[2];
      if (nf_ast_children (init, ab, 2) == 2)
	{
	  ivar = nf_lp_var_of (ab[0]);
	  start = ab[1];
	}
    }
  double v;
  if (clang_Cursor_isNull (ivar) || clang_Cursor_isNull (start)
      || nf_ast_elem (clang_getCursorType (ivar)) == NF_ELEM_NONE
      || nf_elem_is_float (nf_ast_elem (clang_getCursorType (ivar)))
      || !nf_ast_const (start, &v) || v != 0)
    {
      nf_lp_fail (g, NF_WHY_TRIP_COUNT);
      return clang_getNullCursor ();
    }
  return ivar;
}

/* Whether INC steps loop K's induction variable by one: j++, ++j,
   j += 1.  */
static bool
nf_lp_loop_step_ok (const struct nf_lp *g, CXCursor inc, int k)
{
  CXCursor ik[2];
  double v;
  if (clang_getCursorKind (inc) == CXCursor_UnaryOperator)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (inc);
      return (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc)
	     && nf_ast_children (inc, ik, 1) == 1
	     && nf_lp_is_ivar (g, ik[0], k);
    }
  if (clang_getCursorKind (inc) == CXCursor_CompoundAssignOperator
      && clang_getCursorBinaryOperatorKind (inc) == CXBinaryOperator_AddAssign
      && nf_ast_children (inc, ik, 2) == 2)
    return nf_lp_is_ivar (g, ik[0], k) && nf_ast_const (ik[1], &v) && v == 1;
  return false;
}

/* Loop K's dimension from its bound BOUND (the variable BD, or a null
   cursor): a constant extent, the symbol of an earlier loop with the
   same bound text, or a new symbol defined by the bound's value (a
   parameter named by its text when it is no variable: s->dim, n - 1).  */
static void
nf_lp_loop_dim (struct nf_lp *g, int k, CXCursor bound, CXCursor bd)
{
  struct nf_lp_loop *l = &g->loops[k];
  double v;
  l->sym = -1;
  for (int j = 0; j < k; j++)
    if (nf_lp_same_text (g->t, g->loops[j].bound, bound))
      l->sym = g->loops[j].sym;
  /* A constant trip count is a constant dimension, as the plugin's.  */
  l->extent = -1;
  if (nf_ast_const (bound, &v) && v >= 0)
    l->extent = (int64_t) v;
  if (l->sym >= 0 || l->extent >= 0)
    return;
  if (clang_Cursor_isNull (bd) && nf_ast_const (bound, &v))
    {
      l->sym = nf_region_add_sym (g->r, "n", nf_lp_expr (g, bound, -1));
      return;
    }
  /* Named after the variable, or the bound's spelling.  */
  CXString sp = clang_getCursorSpelling (clang_Cursor_isNull (bd) ? bound : bd);
  const char *sn = clang_getCString (sp);
  nf_value cv = clang_Cursor_isNull (bd) ? nf_lp_member (g, bound)
					 : nf_lp_read (g, bd, bound);
  l->sym = nf_region_add_sym (g->r, sn && *sn ? sn : "n", cv);
  clang_disposeString (sp);
}

/* The statement BODY of a loop is, or the one statement of a compound
   BODY; an elementwise loop's or a first loop's compound body (with no
   volatile access) as it is, for loop.c's nf_lp_map_body or
   loop-body.c's nf_lp_reduction.  A null cursor (G failed) for other
   bodies.  */
static CXCursor
nf_lp_loop_body (struct nf_lp *g, CXCursor body)
{
  if (clang_getCursorKind (body) != CXCursor_CompoundStmt)
    return body;
  CXCursor one[2];
  if (nf_ast_children (body, one, 2) == 1)
    return one[0];
  struct nf_lp_vol vol = { false };
  clang_visitChildren (body, nf_lp_vol_visit, &vol);
  /* An elementwise loop's body may set variables first, a first loop's
     temporaries and sums (loop-body.c).  */
  if ((g->map || g->n_loops == 1) && !vol.found)
    return body;
  nf_lp_fail (g, vol.found ? NF_WHY_VOLATILE
			   : NF_WHY_LOOP_SHAPE);
  return clang_getNullCursor ();
}

/* Analyse the for statement C as loop K of G: for (int j = 0; j < n;
   j++) with an integer j (step 1 of the file's comment).  Returns its
   body (nf_lp_loop_body), or a null cursor (G->fail set).  */
CXCursor
nf_lp_loop (struct nf_lp *g, CXCursor c)
{
  CXCursor kids[4], null = clang_getNullCursor ();
  /* libclang skips the absent parts: all four must be there.  */
  if (nf_ast_children (c, kids, 4) != 4)
    return nf_lp_fail (g, NF_WHY_LOOP_SHAPE), null;
  if (g->n_loops == 2)
    return nf_lp_fail (g, NF_WHY_LOOPS), null;
  CXCursor cond = kids[1], inc = kids[2], body = kids[3];
  CXCursor ivar = nf_lp_loop_ivar (g, kids[0]);
  if (clang_Cursor_isNull (ivar))
    return null;
  int k = g->n_loops;
  g->loops[k].ivar = ivar;
  enum CXBinaryOperatorKind cop = nf_ast_binop (cond);
  CXCursor cb[2];
  if ((cop != CXBinaryOperator_LT && cop != CXBinaryOperator_NE)
      || nf_ast_children (cond, cb, 2) != 2 || !nf_lp_is_ivar (g, cb[0], k))
    return nf_lp_fail (g, NF_WHY_TRIP_COUNT), null;
  CXCursor bound = nf_ast_strip_noop (cb[1]);
  if (!nf_lp_loop_step_ok (g, inc, k))
    return nf_lp_fail (g, NF_WHY_NOT_AFFINE), null;
  /* The bound: a variable not written in the region or a constant.  */
  CXCursor bd = nf_lp_var_of (bound);
  enum nf_elem be = nf_ast_elem (clang_getCursorType (bound));
  double v;
  if (be != NF_ELEM_I32 && be != NF_ELEM_I64)
    return nf_lp_fail (g, NF_WHY_TRIP_COUNT), null;
  if (clang_Cursor_isNull (bd) && !nf_ast_const (bound, &v)
      && be == NF_ELEM_NONE)
    return nf_lp_fail (g, NF_WHY_TRIP_COUNT), null;
  CXType bt = clang_getCanonicalType (clang_getCursorType (bound));
  g->loops[k].stmt = c;
  g->loops[k].bound = bound;
  /* An integer bound (BE above): signed unless unsigned.  */
  g->loops[k].is_signed = !nf_ast_unsigned (bt);
  nf_lp_loop_dim (g, k, bound, bd);
  g->n_loops++;
  return nf_lp_loop_body (g, body);
}

/* Whether V of G is computed from a reduction of the region (not from
   its inputs alone).  */
static bool
nf_lp_from_reduce (struct nf_lp *g, nf_value v)
{
  const nf_region *r = g->r;
  if (v < 0)
    return false;
  /* Ids are a topological order: one pass up to V.  */
  bool *from = calloc ((size_t) v + 1, sizeof *from);
  if (!from)
    return nf_lp_oom (g), false;
  for (nf_value u = 0; u <= v; u++)
    {
      from[u] = nf_op (r, u) == NF_OP_REDUCE;
      for (int i = 0; i < nf_op_n_operands (r, u) && !from[u]; i++)
	{
	  nf_value o = nf_op_operand (r, u, i);
	  from[u] = o >= 0 && from[o];
	}
    }
  bool res = from[v];
  free (from);
  return res;
}

/* The scalar statement C, LHS = RHS, storing to memory (*out = sqrtf
   (s), out[1] = .., s->norm = .., a global): the plugin's region holds
   the value stored but not the store (step 6 of the file's comment).
   Returns false when C is none (LHS no floating-point object).  */
static bool
nf_lp_memory_store (struct nf_lp *g, CXCursor c, CXCursor lhs, CXCursor rhs)
{
  enum nf_elem e = nf_ast_elem (clang_getCursorType (lhs));
  if (!nf_elem_is_float (e))
    return false;
  nf_value v = nf_lp_convert (g, nf_lp_expr (g, rhs, -1), e);
  if (v == NF_NO_VALUE)
    return true;
  if (nf_lp_from_reduce (g, v))
    {
      nf_value_set_escapes (g->r, v);
      g->stored = NF_WHY_STORED_OUTSIDE;
    }
  else if (clang_Cursor_isNull (g->other_store))
    g->other_store = c;
  return true;
}

/* Whether the assigned expression LHS (stripped) of G is memory rather
   than one of the function's own variables.  */
static bool
nf_lp_lhs_in_memory (const struct nf_lp *g, CXCursor lhs)
{
  CXCursor v = nf_lp_var_of (lhs);
  if (!clang_Cursor_isNull (v))
    return nf_lp_var_in_memory (g, v);
  enum CXCursorKind k = clang_getCursorKind (nf_ast_strip_noop (lhs));
  return k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr
	 || k == CXCursor_UnaryOperator;
}

/* The scalar statement C: v = E, v op= E, T v = E, or a store of a
   value (nf_lp_memory_store).  Returns false when C is none.  */
bool
nf_lp_scalar_stmt (struct nf_lp *g, CXCursor c)
{
  CXCursor k[2];
  enum CXCursorKind kind = clang_getCursorKind (c);
  if (kind == CXCursor_DeclStmt)
    {
      CXCursor vd[2];
      if (nf_ast_children (c, vd, 2) != 1
	  || clang_getCursorKind (vd[0]) != CXCursor_VarDecl)
	return false;
      CXCursor in = clang_Cursor_getVarDeclInitializer (vd[0]);
      enum nf_elem e = nf_ast_elem (clang_getCursorType (vd[0]));
      if (clang_Cursor_isNull (in) || !nf_elem_is_float (e))
	return false;
      nf_lp_set_var (g, vd[0], nf_lp_convert (g, nf_lp_expr (g, in, -1), e),
		     false);
      return true;
    }
  enum CXBinaryOperatorKind op = CXBinaryOperator_Invalid;
  if (kind == CXCursor_BinaryOperator
      || kind == CXCursor_CompoundAssignOperator)
    op = clang_getCursorBinaryOperatorKind (c);
  if (op < CXBinaryOperator_Assign || op > CXBinaryOperator_SubAssign
      || nf_ast_children (c, k, 2) != 2)
    return false;
  if (op == CXBinaryOperator_Assign && nf_lp_lhs_in_memory (g, k[0]))
    return nf_lp_memory_store (g, c, k[0], k[1]);
  CXCursor v = nf_lp_var_of (k[0]);
  enum nf_elem e = nf_ast_elem (clang_getCursorType (k[0]));
  if (clang_Cursor_isNull (v) || !nf_elem_is_float (e))
    return false;
  nf_value rhs = nf_lp_expr (g, k[1], -1);
  if (rhs == NF_NO_VALUE)
    return true;
  if (op == CXBinaryOperator_Assign)
    {
      nf_lp_set_var (g, v, nf_lp_convert (g, rhs, e), false);
      return true;
    }
  /* v op= E: in the wider of the two types, then back to v's.  */
  enum nf_elem re = nf_value_type (g->r, rhs).elem;
  enum nf_elem ce = nf_elem_is_float (re) && re > e ? re : e;
  nf_value cur = nf_lp_convert (g, nf_lp_read (g, v, k[0]), ce);
  rhs = nf_lp_convert (g, rhs, ce);
  enum nf_opcode bop = op == CXBinaryOperator_MulAssign	  ? NF_OP_MUL
		       : op == CXBinaryOperator_DivAssign ? NF_OP_DIV
		       : op == CXBinaryOperator_AddAssign ? NF_OP_ADD
		       : op == CXBinaryOperator_SubAssign ? NF_OP_SUB
							  : NF_OP_COUNT_;
  if (bop == NF_OP_COUNT_)
    return false;
  nf_lp_set_var (g, v, nf_lp_convert (g, nf_lp_binary (g, bop, cur, rhs), e),
		 false);
  return true;
}

/* The second loop's body BODY: a[j] = E.  Returns the STORE.  */
nf_value
nf_lp_store (struct nf_lp *g, CXCursor body)
{
  CXCursor k[2];
  enum CXBinaryOperatorKind op
    = clang_getCursorKind (body) == CXCursor_CompoundAssignOperator
	? clang_getCursorBinaryOperatorKind (body)
	: nf_ast_binop (body);
  enum nf_opcode bop = op == CXBinaryOperator_AddAssign	  ? NF_OP_ADD
		       : op == CXBinaryOperator_SubAssign ? NF_OP_SUB
		       : op == CXBinaryOperator_MulAssign ? NF_OP_MUL
		       : op == CXBinaryOperator_DivAssign ? NF_OP_DIV
							  : NF_OP_COUNT_;
  if ((op != CXBinaryOperator_Assign && bop == NF_OP_COUNT_)
      || nf_ast_children (body, k, 2) != 2)
    return nf_lp_fail (g, "the region computes something the matchers do "
			  "not know");
  int64_t off;
  int lk = g->n_loops - 1;
  CXCursor base = nf_lp_access (g, k[0], lk, &off);
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (k[0]));
  if (clang_Cursor_isNull (base) || !nf_elem_is_float (elem))
    return nf_lp_fail (g, NF_WHY_STORED_OUTSIDE);
  g->conv_floor = nf_region_n_values (g->r);
  nf_value v;
  if (op == CXBinaryOperator_Assign)
    v = nf_lp_convert (g, nf_lp_expr (g, k[1], lk), elem);
  else
    {
      /* y[i] op= E: y[i] read first, as GCC gimplifies it, the operation
	 in the wider of the two types, then back to y's.  */
      nf_value cur = nf_lp_expr (g, k[0], lk);
      nf_value rhs = nf_lp_expr (g, k[1], lk);
      enum nf_elem re = rhs == NF_NO_VALUE ? elem
					   : nf_value_type (g->r, rhs).elem;
      enum nf_elem ce = nf_elem_is_float (re) && re > elem ? re : elem;
      v = nf_lp_convert (g, nf_lp_binary (g, bop, nf_lp_convert (g, cur, ce),
					  nf_lp_convert (g, rhs, ce)),
			 elem);
    }
  nf_value p = nf_lp_array (g, base, off, lk, elem);
  if (v == NF_NO_VALUE || p == NF_NO_VALUE)
    return NF_NO_VALUE;
  if (nf_value_type (g->r, v).rank == 0)
    v = nf_broadcast (g->r, v,
		      nf_tensor1_type (elem, nf_lp_dim (g, g->n_loops - 1)));
  return nf_store (g->r, p, v, 0, 1, 0);
}

/* --- References after a region, statement ends.  --- */

enum CXChildVisitResult
nf_lp_count_refs (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_refs *r = data;
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_DeclRefExpr
      && nf_ast_begin (c) >= r->after
      && (!r->before || nf_ast_begin (c) < r->before)
      && nf_lp_same_decl (clang_getCursorReferenced (c), r->decl))
    r->n++;
  return CXChildVisit_Recurse;
}

/* The end of statement C including its `;`.  */
size_t
nf_lp_stmt_end (const nf_tool *t, CXCursor c)
{
  size_t e = nf_ast_end (c), i = e;
  while (i < t->len && (t->buf[i] == ' ' || t->buf[i] == '\t'))
    i++;
  return i < t->len && t->buf[i] == ';' ? i + 1 : e;
}

/* Visit data for nf_lp_read_outside.  */
struct nf_lp_outside
{
  CXCursor decl;
  size_t begin, end; /* the statement's text */
  size_t from;	     /* references from here on count */
  bool read;
  bool again;	     /* code before the statement may run after it */
};

/* Whether code before the statement O may run after it: a loop holds
   it, or the function has a goto.  */
static enum CXChildVisitResult
nf_lp_again_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_outside *o = data;
  (void) parent;
  enum CXCursorKind k = clang_getCursorKind (c);
  if (((k == CXCursor_ForStmt || k == CXCursor_WhileStmt
	|| k == CXCursor_DoStmt)
       && nf_ast_begin (c) < o->begin && nf_ast_end (c) >= o->end)
      || k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt)
    {
      o->again = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* Whether C is DECL = E with E not reading DECL.  */
static bool
nf_lp_kills (CXCursor c, CXCursor decl)
{
  CXCursor k[2];
  c = nf_ast_strip_noop (c);
  if (nf_ast_binop (c) != CXBinaryOperator_Assign
      || nf_ast_children (c, k, 2) != 2
      || !nf_lp_same_decl (nf_lp_var_of (k[0]), decl)
      || nf_lp_same_decl (nf_lp_var_of (k[1]), decl))
    return false;
  struct nf_lp_refs refs = { decl, 0, 0, 0 };
  clang_visitChildren (k[1], nf_lp_count_refs, &refs);
  return refs.n == 0;
}

static enum CXChildVisitResult
nf_lp_outside_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_outside *o = data;
  CXCursor kids[1];
  (void) parent;
  size_t b = nf_ast_begin (c);
  if (b >= o->begin && nf_ast_end (c) <= o->end && b < o->end)
    return CXChildVisit_Continue; /* the statement itself */
  /* A for loop that sets DECL first, and does not hold the statement:
     what it reads is its own value.  */
  if (clang_getCursorKind (c) == CXCursor_ForStmt
      && !(b <= o->begin && nf_ast_end (c) >= o->end)
      && nf_ast_children (c, kids, 1) >= 1 && nf_lp_kills (kids[0], o->decl))
    return CXChildVisit_Continue;
  if (clang_getCursorKind (c) == CXCursor_DeclRefExpr && b >= o->from
      && nf_lp_same_decl (clang_getCursorReferenced (c), o->decl))
    {
      o->read = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

bool
nf_lp_read_outside (CXCursor fn, CXCursor decl, CXCursor stmt)
{
  return nf_lp_read_outside_range (fn, decl, nf_ast_begin (stmt),
				   nf_ast_end (stmt));
}

bool
nf_lp_read_outside_range (CXCursor fn, CXCursor decl, size_t begin,
			  size_t end)
{
  struct nf_lp_outside o = { decl, begin, end, 0, false, false };
  clang_visitChildren (fn, nf_lp_again_visit, &o);
  if (!o.again)
    o.from = o.end;
  clang_visitChildren (fn, nf_lp_outside_visit, &o);
  return o.read;
}
