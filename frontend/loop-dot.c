/* loop-dot.c: a loop nest that is a matrix-vector product, as one call
   of libneuronfuse (kind Dot): the libclang twin of plugin/loop-dot.cc.

     for (int i = 0; i < d; i++)
       {
	 float val = 0.0f;
	 for (int j = 0; j < n; j++)
	   val += w[i * n + j] * x[j];
	 xout[i] = val;
       }
   becomes
     if (<xout disjoint from w and from x> && ((n) == 0 || <row step> == n)
	 && <count> >= 16)
       { nf_matvec_f32 (xout, w, x, <rows>, <count>); }
     else
     for (int i = 0; i < d; i++) ...              (the nest, unchanged)

   Steps (nf_lp_try_dot, for the inner loop of a for's body): 1. the
   nest: the inner loop is the only loop of the outer one's body, its
   body one `acc += A * B` of a float accumulator, and the body stores
   acc (converted or not) to memory after it, as the plugin's
   nf_dot_find_store; anything else is no nest and left to the norm
   attempt, without a remark; 2. the row: A and B array accesses affine
   in i and j (nf_dot_affine: sums of i, j, constants, i * E and E * i
   for an invariant E), the inner index contiguous, the sum started
   from 0 in the row (its initialisation in the body before the inner
   loop); 3. the outer body: nothing but acc's initialisation, the
   inner loop and the store, which runs on every row (not under an if);
   acc, i and j not read after the nest; the row length the same for
   every row; 4. the accesses: the store advances one element per row
   (y[i]), one factor per row (the matrix) and the other not (the
   vector), and a constant row step is the row length; 5. the region IR
   of the nest (lower/'s nf_dot_nest_region, from the same facts as the
   plugin's), matched and planned (nf_call_plan), and the call inserted
   before the nest behind the plugin's guard.  The reasons, in the
   plugin's order, are lower/reasons.h's.

   Limitations (no nest: nothing reported): row offsets held in a
   variable (k = i * n; w[k + j]), pointer arithmetic accesses (*(w +
   ...)), an inner body of more than the sum, a 2-D array read other
   than as w[i][j], an outer loop that is no canonical for, a _Float16
   accumulator; the plugin reports some of those as misses.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "loop-int.h"
#include "record.h"

/* An integer expression as c0 + ci * i + cj * j (+ CI_EXPR * i), i and
   j the outer and inner induction variables.  */
struct nf_dot_aff
{
  int64_t c0, ci, cj;
  CXCursor ci_expr; /* i's coefficient when no constant (i * n).  */
  bool j_strided;   /* j's coefficient is no constant (j * d).  */
};

/* What the nest holds.  */
struct nf_dot_nest
{
  struct nf_lp *g;	    /* Loops 0 (rows) and 1 (the row).  */
  CXCursor outer, inner;    /* The for statements.  */
  CXCursor acc;		    /* The accumulator's variable.  */
  CXCursor init;	    /* The statement setting acc to 0 in the row.  */
  CXCursor store;	    /* Y = acc.  */
  CXCursor f[2];	    /* The factors, as written (A, B).  */
  CXCursor base[2], ybase;  /* Their arrays' expressions.  */
  struct nf_dot_aff a[2], y; /* Their indices.  */
  bool two_d[2];	    /* A factor read as w[i][j].  */
  enum nf_elem elt[2], yelt, prod, accum;
};

/* Whether C refers to the variable DECL anywhere.  */
static bool
nf_dot_refers (CXCursor c, CXCursor decl)
{
  struct nf_lp_refs refs = { decl, 0, 0, 0 };
  if (nf_lp_same_decl (nf_lp_var_of (c), decl))
    return true;
  clang_visitChildren (c, nf_lp_count_refs, &refs);
  return refs.n > 0;
}

/* The variables an expression reads that are not the same on every
   row of the nest OUTER: declared inside it, or assigned (=, op=, ++)
   inside it.  */
struct nf_dot_vary
{
  CXCursor outer;
  size_t begin, end; /* OUTER's text.  */
  bool varies;
  bool reads; /* It reads memory.  */
};

/* Whether OUTER (V's) assigns the variable DECL.  */
struct nf_dot_assigns
{
  CXCursor decl;
  bool found;
};

static enum CXChildVisitResult
nf_dot_assigns_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_dot_assigns *a = data;
  CXCursor k[2];
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  CXCursor target = clang_getNullCursor ();
  if ((kind == CXCursor_CompoundAssignOperator
       || nf_ast_binop (c) == CXBinaryOperator_Assign)
      && nf_ast_children (c, k, 2) == 2)
    target = k[0];
  else if (kind == CXCursor_UnaryOperator && nf_ast_children (c, k, 1) == 1)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (c);
      if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec
	  || u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec
	  || u == CXUnaryOperator_AddrOf)
	target = k[0];
    }
  if (!clang_Cursor_isNull (target)
      && nf_lp_same_decl (nf_lp_var_of (target), a->decl))
    {
      a->found = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult
nf_dot_vary_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_dot_vary *v = data;
  (void) parent;
  enum CXCursorKind ck = clang_getCursorKind (c);
  /* A read of memory (p->w, ws[l], *p): the plugin's nest pass, before
     GCC hoists it, sees a load in the loop and no affine address.  */
  if (ck == CXCursor_ArraySubscriptExpr || ck == CXCursor_MemberRefExpr
      || (ck == CXCursor_UnaryOperator
	  && clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Deref))
    {
      v->varies = v->reads = true;
      return CXChildVisit_Break;
    }
  if (ck != CXCursor_DeclRefExpr)
    return CXChildVisit_Recurse;
  CXCursor d = clang_getCursorReferenced (c);
  enum CXCursorKind dk = clang_getCursorKind (d);
  if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl)
    return CXChildVisit_Continue; /* A function, an enumerator.  */
  size_t db = nf_ast_begin (d);
  struct nf_dot_assigns as = { d, false };
  if (nf_ast_in_main_file (d) && db >= v->begin && db < v->end)
    v->varies = true;
  else
    {
      clang_visitChildren (v->outer, nf_dot_assigns_visit, &as);
      v->varies |= as.found;
    }
  return v->varies ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether C is evaluated the same on every element of the nest N: no
   side effect, no read of memory, and no variable that is declared or
   assigned in the outer loop (i, j, acc, a row pointer set per row),
   as GCC's invariance: the guard and the call read it again, before
   the nest.  *READS (when not NULL) says whether it reads memory.  */
static bool
nf_dot_invariant_r (const struct nf_dot_nest *n, CXCursor c, bool *reads)
{
  bool effects = clang_getCursorKind (c) == CXCursor_CallExpr;
  clang_visitChildren (c, nf_lp_effect_visit, &effects);
  struct nf_dot_vary v = { n->outer, nf_ast_begin (n->outer),
			   nf_ast_end (n->outer), effects, false };
  /* (C itself may be the reference: visit it as its own child.)  */
  if (!effects
      && nf_dot_vary_visit (c, clang_getNullCursor (), &v)
	   == CXChildVisit_Recurse)
    clang_visitChildren (c, nf_dot_vary_visit, &v);
  if (reads)
    *reads = v.reads;
  return !v.varies;
}

static bool
nf_dot_invariant (const struct nf_dot_nest *n, CXCursor c)
{
  return nf_dot_invariant_r (n, c, NULL);
}

/* C without integer conversions and parentheses.  */
static CXCursor
nf_dot_strip_int (CXCursor c)
{
  for (int k = 0; k < 8; k++)
    {
      c = nf_ast_strip_noop (c);
      CXCursor in = nf_ast_cast_operand (c);
      if (clang_Cursor_isNull (in)
	  || nf_ast_elem (clang_getCursorType (in)) == NF_ELEM_NONE
	  || nf_elem_is_float (nf_ast_elem (clang_getCursorType (in))))
	return c;
      c = in;
    }
  return c;
}

/* Step 2: add SIGN times the integer expression C to *A.  Returns false
   when C is no such sum of N's induction variables, constants and
   products of them by invariants.  */
static bool
nf_dot_affine (const struct nf_dot_nest *n, CXCursor c, int64_t sign,
	       struct nf_dot_aff *a)
{
  CXCursor k[2];
  double v;
  c = nf_dot_strip_int (c);
  if (nf_lp_is_ivar (n->g, c, 0))
    return a->ci += sign, true;
  if (nf_lp_is_ivar (n->g, c, 1))
    return a->cj += sign, true;
  if (nf_ast_const (c, &v) && v == (double) (int64_t) v && v < 0x1p40
      && v > -0x1p40)
    return a->c0 += sign * (int64_t) v, true;
  enum CXBinaryOperatorKind op = nf_ast_binop (c);
  if (nf_ast_children (c, k, 2) != 2)
    return false;
  if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
    return nf_dot_affine (n, k[0], sign, a)
	   && nf_dot_affine (n, k[1], op == CXBinaryOperator_Sub ? -sign : sign,
			     a);
  if (op != CXBinaryOperator_Mul)
    return false;
  for (int s = 0; s < 2; s++)
    {
      CXCursor iv = nf_dot_strip_int (k[s]), e = k[1 - s];
      if (nf_ast_const (nf_dot_strip_int (e), &v) && v == (double) (int64_t) v
	  && v < 0x1p20 && v > -0x1p20)
	{
	  struct nf_dot_aff t = { 0, 0, 0, clang_getNullCursor (), false };
	  if (!nf_dot_affine (n, iv, sign * (int64_t) v, &t)
	      || !clang_Cursor_isNull (t.ci_expr) || t.j_strided)
	    return false;
	  a->c0 += t.c0, a->ci += t.ci, a->cj += t.cj;
	  return true;
	}
      if (!nf_dot_invariant (n, e))
	continue;
      if (nf_lp_is_ivar (n->g, iv, 0) && sign == 1
	  && clang_Cursor_isNull (a->ci_expr))
	return a->ci_expr = e, true;
      if (nf_lp_is_ivar (n->g, iv, 1))
	return a->j_strided = true, true;
    }
  return false;
}

/* C without parentheses and casts (an array's decay to a pointer).  */
static CXCursor
nf_dot_strip_all (CXCursor c)
{
  CXCursor in;
  c = nf_ast_strip_noop (c);
  for (int k = 0; k < 8 && !clang_Cursor_isNull (in = nf_ast_cast_operand (c));
       k++)
    c = nf_ast_strip_noop (in);
  return c;
}

/* Step 2: the base *B of an access, when it is a row pointer the outer
   body declares (const float *row = w + i * n, or &w[i * n]) and never
   assigns: the array it points into, its index added to *A.  Returns
   false when *B is such a variable but its initialiser no such
   address.  */
static bool
nf_dot_row_pointer (const struct nf_dot_nest *n, CXCursor *b,
		    struct nf_dot_aff *a)
{
  CXCursor d = clang_getCursorReferenced (*b), k[2];
  if (clang_getCursorKind (*b) != CXCursor_DeclRefExpr
      || clang_getCursorKind (d) != CXCursor_VarDecl || !nf_ast_in_main_file (d)
      || nf_ast_begin (d) < nf_ast_begin (n->outer)
      || nf_ast_begin (d) >= nf_ast_end (n->outer))
    return true;
  struct nf_dot_assigns as = { d, false };
  clang_visitChildren (n->outer, nf_dot_assigns_visit, &as);
  CXCursor e = clang_Cursor_getVarDeclInitializer (d);
  if (as.found || clang_Cursor_isNull (e))
    return false;
  e = nf_dot_strip_all (e);
  if (clang_getCursorKind (e) == CXCursor_UnaryOperator
      && clang_getCursorUnaryOperatorKind (e) == CXUnaryOperator_AddrOf
      && nf_ast_children (e, k, 1) == 1)
    {
      CXCursor s = nf_ast_strip_noop (k[0]);
      if (clang_getCursorKind (s) != CXCursor_ArraySubscriptExpr
	  || nf_ast_children (s, k, 2) != 2)
	return false;
      *b = nf_dot_strip_all (k[0]);
      return nf_dot_affine (n, k[1], 1, a);
    }
  if (nf_ast_binop (e) != CXBinaryOperator_Add || nf_ast_children (e, k, 2) != 2)
    return false;
  enum CXTypeKind t0
    = clang_getCanonicalType (clang_getCursorType (k[0])).kind;
  int pi = t0 == CXType_Pointer || t0 == CXType_ConstantArray
	       || t0 == CXType_IncompleteArray || t0 == CXType_VariableArray
	     ? 0
	     : 1;
  *b = nf_dot_strip_all (k[pi]);
  return nf_dot_affine (n, k[1 - pi], 1, a);
}

/* Step 2: the factor F of N (its index K) as an array access: base[idx]
   or base[i][j] for a base of rows (a 2-D array, a pointer to rows).
   Returns false when it is none.  */
static bool
nf_dot_factor (struct nf_dot_nest *n, int k, CXCursor f)
{
  CXCursor s[2], in;
  f = nf_ast_strip_noop (f);
  while (nf_ast_float_convert (f, &in))
    f = nf_ast_strip_noop (in);
  n->f[k] = f;
  n->elt[k] = nf_ast_elem (clang_getCursorType (f));
  if (clang_getCursorKind (f) != CXCursor_ArraySubscriptExpr
      || nf_ast_children (f, s, 2) != 2 || !nf_elem_is_float (n->elt[k]))
    return false;
  struct nf_dot_aff *a = &n->a[k];
  *a = (struct nf_dot_aff){ 0, 0, 0, clang_getNullCursor (), false };
  CXCursor b = nf_dot_strip_all (s[0]), s2[2];
  /* w[i][j]: the rows of w one row apart; another base[idx] (W[l] of
     W[l][i * n + j]) is the base of a 1-D access.  */
  n->two_d[k] = clang_getCursorKind (b) == CXCursor_ArraySubscriptExpr
		&& nf_ast_children (b, s2, 2) == 2
		&& nf_lp_is_ivar (n->g, s2[1], 0);
  if (n->two_d[k])
    {
      if (!nf_lp_is_ivar (n->g, s[1], 1))
	return false;
      b = nf_dot_strip_all (s2[0]);
      a->ci = 1;
      a->cj = 1;
    }
  else if (!nf_dot_affine (n, s[1], 1, a) || !nf_dot_row_pointer (n, &b, a))
    return false;
  n->base[k] = b;
  return nf_dot_invariant (n, b);
}

/* The statement of the outer body STMTS (N of them) that sets acc last
   before the inner loop STMTS[I]: its declaration with an initialiser
   or an assignment; a null cursor when none does.  *ZERO says whether
   it sets it to 0.  */
static CXCursor
nf_dot_init (const struct nf_dot_nest *n, CXCursor *stmts, int i, bool *zero)
{
  CXCursor k[2];
  double v;
  *zero = false;
  for (int j = i - 1; j >= 0; j--)
    {
      CXCursor st = stmts[j], e = clang_getNullCursor ();
      CXCursor decls[8];
      int nd = clang_getCursorKind (st) == CXCursor_DeclStmt
		 ? nf_ast_children (st, decls, 8)
		 : 0;
      bool declares = false;
      for (int q = 0; q < nd && q < 8 && !declares; q++)
	if (nf_lp_same_decl (decls[q], n->acc))
	  {
	    declares = true;
	    e = clang_Cursor_getVarDeclInitializer (decls[q]);
	  }
      if (declares)
	;
      else if (nf_ast_binop (st) == CXBinaryOperator_Assign
	       && nf_ast_children (st, k, 2) == 2
	       && nf_lp_same_decl (nf_lp_var_of (k[0]), n->acc))
	e = k[1];
      else if (!nf_dot_refers (st, n->acc))
	continue;
      *zero = !clang_Cursor_isNull (e) && nf_ast_const (e, &v) && v == 0;
      return st;
    }
  return clang_getNullCursor ();
}

/* Loops in a cursor: counts them in *DATA (an int).  */
static enum CXChildVisitResult
nf_dot_loops_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  (void) parent;
  enum CXCursorKind k = clang_getCursorKind (c);
  if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
    ++*(int *) data;
  if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt
      || k == CXCursor_GotoStmt)
    *(int *) data += 100;
  return CXChildVisit_Recurse;
}

/* Whether ST is `M = acc` or `M = (T) acc`, M an element in memory:
   the row's store (*CONDITIONAL: under an if with no else), its array
   and index into N.  */
static bool
nf_dot_is_store (struct nf_dot_nest *n, CXCursor st, bool *conditional)
{
  CXCursor k[3];
  *conditional = false;
  if (clang_getCursorKind (st) == CXCursor_IfStmt)
    {
      if (nf_ast_children (st, k, 3) != 2)
	return false;
      st = k[1];
      if (clang_getCursorKind (st) == CXCursor_CompoundStmt
	  && nf_ast_children (st, k, 1) == 1)
	st = k[0];
      *conditional = true;
    }
  if (nf_ast_binop (st) != CXBinaryOperator_Assign
      || nf_ast_children (st, k, 2) != 2)
    return false;
  CXCursor lhs = nf_ast_strip_noop (k[0]), rhs = nf_ast_strip_noop (k[1]), in;
  while (nf_ast_float_convert (rhs, &in))
    rhs = nf_ast_strip_noop (in);
  CXCursor s[2];
  n->yelt = nf_ast_elem (clang_getCursorType (lhs));
  if (clang_getCursorKind (lhs) != CXCursor_ArraySubscriptExpr
      || !nf_elem_is_float (n->yelt) || nf_ast_children (lhs, s, 2) != 2
      || !nf_lp_same_decl (nf_lp_var_of (rhs), n->acc))
    return false;
  n->ybase = nf_dot_strip_all (s[0]);
  n->y = (struct nf_dot_aff){ 0, 0, 0, clang_getNullCursor (), false };
  /* (an index that is none: the store is not contiguous, step 4)  */
  if (!nf_dot_affine (n, s[1], 1, &n->y))
    n->y.j_strided = true;
  return true;
}

/* Step 1: the nest of the inner loop STMTS[I] of OUTER's body (CNT
   statements): the loops, acc, the factors, the store into *N.  False
   when it is none (nothing to report).  */
static bool
nf_dot_nest_of (struct nf_dot_nest *n, CXCursor *stmts, int cnt, int i,
		bool *conditional)
{
  struct nf_lp *g = n->g;
  CXCursor k[2], lhs, e;
  int loops = 0;
  clang_visitChildren (n->outer, nf_dot_loops_visit, &loops);
  if (loops != 1)
    return false;
  if (clang_Cursor_isNull (nf_lp_loop (g, n->outer)) || g->fail)
    return false;
  CXCursor body = nf_lp_loop (g, n->inner);
  if (g->fail || g->n_loops != 2 || clang_Cursor_isNull (body))
    return false;
  if (!nf_lp_accumulation (body, &lhs, &e))
    return false;
  n->acc = nf_lp_var_of (lhs);
  n->accum = nf_ast_elem (clang_getCursorType (lhs));
  CXCursor p = nf_ast_strip_noop (e), in;
  while (nf_ast_float_convert (p, &in))
    p = nf_ast_strip_noop (in);
  if (clang_Cursor_isNull (n->acc) || !nf_elem_is_float (n->accum)
      || n->accum == NF_ELEM_F16 || nf_ast_binop (p) != CXBinaryOperator_Mul
      || nf_ast_children (p, k, 2) != 2)
    return false;
  n->prod = nf_ast_elem (clang_getCursorType (p));
  if (!nf_elem_is_float (n->prod) || n->prod == NF_ELEM_F16)
    return false;
  n->store = clang_getNullCursor ();
  for (int j = i + 1; j < cnt && clang_Cursor_isNull (n->store); j++)
    if (nf_dot_is_store (n, stmts[j], conditional))
      n->store = stmts[j];
  if (clang_Cursor_isNull (n->store))
    return false;
  /* Two factors that are arrays (a scalar or a computed factor is no
     matrix-vector product), not one read twice (the norms').  */
  return nf_dot_factor (n, 0, k[0]) && nf_dot_factor (n, 1, k[1])
	 && !nf_lp_same_text (g->t, n->f[0], n->f[1]);
}

/* Step 3: whether the variable DECL's value after the nest (the
   statement C) may be read (nf_lp_read_outside; the refs of C itself
   are the nest's).  */
static bool
nf_dot_read_after (const struct nf_lp_scan *s, CXCursor decl, CXCursor c)
{
  return nf_lp_read_outside (s->fn, decl, c);
}

/* Step 4: the row length of the 2-D array BASE (a pointer to rows or
   an array of rows) when it is a constant (else -1).  */
static int64_t
nf_dot_row_length (CXCursor base)
{
  CXType t = clang_getCanonicalType (clang_getCursorType (base));
  CXType row = t.kind == CXType_Pointer ? clang_getPointeeType (t)
					: clang_getArrayElementType (t);
  row = clang_getCanonicalType (row);
  return row.kind == CXType_ConstantArray ? clang_getArraySize (row) : -1;
}

/* Steps 2-4: why the nest N (its outer body STMTS, CNT statements, the
   inner loop the I-th) is not the call's, or NULL; *MODELLED false for
   a body that holds more than the nest's statements (no remark).  Sets
   N's matrix (W: 0 or 1).  */
static const char *
nf_dot_check (const struct nf_lp_scan *s, struct nf_dot_nest *n,
	      CXCursor *stmts, int cnt, int i, bool conditional, int *w,
	      bool *modelled)
{
  struct nf_lp *g = n->g;
  *modelled = true;
  for (int k = 0; k < 2; k++)
    if (n->a[k].j_strided || n->a[k].cj != 1)
      return NF_WHY_NOT_CONTIGUOUS;
  bool zero;
  n->init = nf_dot_init (n, stmts, i, &zero);
  if (!zero)
    return NF_WHY_DOT_INIT;
  /* The outer body: the initialisation, the inner loop, the store, and
     declarations without effects.  */
  for (int j = 0; j < cnt; j++)
    {
      CXCursor st = stmts[j];
      if (j == i || clang_equalCursors (st, n->init)
	  || clang_equalCursors (st, n->store))
	continue;
      bool effects = false;
      clang_visitChildren (st, nf_lp_effect_visit, &effects);
      if (effects || clang_getCursorKind (st) != CXCursor_DeclStmt)
	return *modelled = false, NULL;
    }
  if (conditional)
    return NF_WHY_DOT_SOME_ROWS;
  /* (j too after the nest: within it, the next row's inner loop sets
     it before anything reads it)  */
  if (nf_dot_read_after (s, n->acc, n->outer)
      || nf_dot_read_after (s, g->loops[0].ivar, n->outer)
      || nf_dot_read_after (s, g->loops[1].ivar, n->outer))
    return NF_WHY_LOOP_USED_AFTER;
  bool reads;
  if (!nf_dot_invariant_r (n, g->loops[1].bound, &reads))
    {
      /* (a bound read from memory, p->n: not modelled)  */
      if (reads)
	*modelled = false;
      return reads ? NULL : NF_WHY_DOT_ROW_LENGTH;
    }
  /* Step 4: the store y[i], one factor advancing with the rows.  */
  if (n->y.j_strided || n->y.cj || n->y.ci != 1
      || !clang_Cursor_isNull (n->y.ci_expr)
      || !nf_dot_invariant (n, n->ybase))
    return NF_WHY_DOT_STORE_STRIDE;
  bool rows[2];
  for (int k = 0; k < 2; k++)
    rows[k] = n->a[k].ci != 0 || !clang_Cursor_isNull (n->a[k].ci_expr);
  if (rows[0] == rows[1])
    return rows[0] ? NF_WHY_DOT_BOTH_ROWS : NF_WHY_DOT_NO_ROWS;
  *w = rows[0] ? 0 : 1;
  /* A constant row step is the row length only for a constant row
     length of that many (the plugin's nf_dot_accesses).  */
  const struct nf_dot_aff *a = &n->a[*w];
  int64_t step = n->two_d[*w] ? nf_dot_row_length (n->base[*w])
	       : clang_Cursor_isNull (a->ci_expr) ? a->ci
						  : -1;
  if (step >= 0 || (!n->two_d[*w] && clang_Cursor_isNull (a->ci_expr)))
    if (g->loops[1].extent < 0 || step != g->loops[1].extent)
      return NF_WHY_ROW_STEP;
  return NULL;
}

/* --- Step 5: the region, the plan, the call.  --- */

/* The address of the first element the access K of N (K: 0, 1; 2 the
   store) reads: the array's text plus the constant offset; a 2-D
   array's first element.  A new string, or NULL when out of memory.  */
static char *
nf_dot_address (const nf_tool *t, const struct nf_dot_nest *n, int k)
{
  CXCursor b = k == 2 ? n->ybase : n->base[k];
  int64_t off = k == 2 ? n->y.c0 : n->a[k].c0;
  char *text = nf_lp_text (t, nf_ast_begin (b), nf_ast_end (b));
  struct nf_lp_str s = { 0 };
  if (!text)
    return NULL;
  if (k < 2 && n->two_d[k])
    nf_lp_str_add (&s, "(&(%s)[0][0])", text);
  else if (off)
    nf_lp_str_add (&s, "((%s) + %lld)", text, (long long) off);
  else
    nf_lp_str_add (&s, "(%s)", text);
  free (text);
  return s.s;
}

/* Append to B the test that the L1 elements at P and the L2 at Q do
   not overlap (the plugin's nf_dot_ok: the output is never in place).  */
static void
nf_dot_add_apart (struct nf_lp_str *b, const char *p, const char *l1,
		  const char *q, const char *l2)
{
  nf_lp_str_add (b,
		 "((const char *) (%s + %s) <= (const char *) %s"
		 " || (const char *) (%s + %s) <= (const char *) %s)",
		 p, l1, q, q, l2, p);
}

/* The guard and the call of the plan C for the nest N (the matrix the
   factor W): "if (<test>) { <call>; } else\n  ", inside #ifndef _OPENMP
   when OMP (the nest is an OpenMP loop: loop-int.h), a new string or
   NULL when out of memory.  ROWS and COUNT are the trip counts'
   texts.  */
static char *
nf_dot_text (const nf_tool *t, const struct nf_dot_nest *n, int w,
	     const nf_call *c, const char *rows, const char *count, bool omp)
{
  struct nf_lp_str b = { 0 }, mn = { 0 };
  char *y = nf_dot_address (t, n, 2), *wm = nf_dot_address (t, n, w);
  char *x = nf_dot_address (t, n, 1 - w), *step = NULL;
  const struct nf_dot_aff *a = &n->a[w];
  if (!clang_Cursor_isNull (a->ci_expr))
    step = nf_lp_text (t, nf_ast_begin (a->ci_expr), nf_ast_end (a->ci_expr));
  else if (n->two_d[w] && nf_dot_row_length (n->base[w]) < 0)
    {
      char *bt = nf_lp_text (t, nf_ast_begin (n->base[w]),
			     nf_ast_end (n->base[w]));
      if (bt)
	nf_lp_str_add (&b, "sizeof ((%s)[0]) / sizeof ((%s)[0][0])", bt, bt);
      free (bt);
      step = b.s;
      b = (struct nf_lp_str){ 0 };
    }
  nf_lp_str_add (&mn, "%s * %s", rows, count);
  if (y && wm && x && !mn.oom)
    {
      nf_lp_str_add (&b, "%sif (", omp ? NF_LP_OMP_OPEN : "");
      nf_dot_add_apart (&b, y, rows, wm, mn.s);
      nf_lp_str_add (&b, "\n      && ");
      nf_dot_add_apart (&b, y, rows, x, count);
      if (step)
	nf_lp_str_add (&b, "\n      && (%s == 0 || (size_t) (%s) == %s)", count,
		       step, count);
      if (c->min_n)
	nf_lp_str_add (&b, "\n      && %s >= %u", count, c->min_n);
      if (c->min_elems)
	nf_lp_str_add (&b, " && %s >= %luul", mn.s, c->min_elems);
      NF_ASSERT (c->nargs == 5 && c->args[0].role == NF_ROLE_Y
		   && c->args[3].role == NF_ROLE_ROWS
		   && c->args[4].role == NF_ROLE_N,
		 "a matrix-vector call is y, w, x, rows, n");
      nf_lp_str_add (&b, ")\n    { %s (%s, %s, %s, %s, %s); }\n  else\n  %s",
		     c->callee, y, wm, x, rows, count,
		     omp ? NF_LP_OMP_CLOSE : "");
    }
  else
    b.oom = true;
  free (y);
  free (wm);
  free (x);
  free (step);
  free (mn.s);
  if (b.oom)
    {
      free (b.s);
      return NULL;
    }
  return b.s;
}

/* Record the region of match M (plan C) of the nest N, the matrix the
   factor W, at the outer loop LINE:COLUMN (the plugin's entry).  */
static void
nf_dot_record (struct nf_lp_scan *s, const struct nf_dot_nest *n, int w,
	       const nf_region *r, const nf_match *m, const nf_call *c,
	       unsigned line, unsigned column)
{
  nf_tool *t = s->t;
  char *ws = nf_lp_text (t, nf_ast_begin (n->base[w]), nf_ast_end (n->base[w]));
  char *xs = nf_lp_text (t, nf_ast_begin (n->base[1 - w]),
			 nf_ast_end (n->base[1 - w]));
  char *ys = nf_lp_text (t, nf_ast_begin (n->ybase), nf_ast_end (n->ybase));
  const char *ins[2] = { ws ? ws : "w", xs ? xs : "x" };
  /* (the plugin's entry: the rows' sum is over dimension 1, and the
     region ends on its first line)  */
  nf_lp_record (s, m, c->callee, nf_value_type (r, m->input).elem, m->accum,
		false, false, ins, 2, ys ? ys : "y", 1, 0, line, column, -1, 0);
  free (ws);
  free (xs);
  free (ys);
}

/* Step 5: the region of the checked nest N (the matrix the factor W),
   its plan, and the call inserted before the outer loop.  Returns NULL
   when it was, else the reason it was not.  */
static const char *
nf_dot_rewrite (struct nf_lp_scan *s, struct nf_dot_nest *n, int w)
{
  nf_tool *t = s->t;
  struct nf_lp *g = n->g;
  const struct nf_lp_loop *l1 = &g->loops[1];
  struct nf_dot_nest_facts f;
  memset (&f, 0, sizeof f);
  f.function = s->function;
  f.n_name = l1->sym >= 0 ? nf_region_sym_name (g->r, l1->sym) : NULL;
  f.welt = n->elt[w];
  f.xelt = n->elt[1 - w];
  f.yelt = n->yelt;
  f.prod = n->prod;
  f.accum = n->accum;
  f.w_first = w == 0;
  nf_match m;
  const char *why;
  nf_region *r = nf_dot_nest_region (&f, &m, &why);
  if (!r)
    return why;
  nf_call c;
  nf_call_flags fl = { t->fast_math, t->associative_math, t->ew_vectorizer };
  const struct nf_lp_loop *l0 = &g->loops[0];
  size_t begin = nf_lp_pragmas_before (t, nf_ast_begin (n->outer));
  size_t end = nf_ast_end (n->outer);
  char *rows = NULL, *count = NULL, *b0 = NULL, *b1 = NULL, *text = NULL;
  if ((why = nf_call_plan (r, &m, &fl, &c)))
    ;
  else if ((l1->extent >= 0 && l1->extent < (int64_t) c.min_n)
	   || (c.min_elems && l1->extent >= 0 && l0->extent >= 0
	       && (unsigned long) l1->extent * (unsigned long) l0->extent
		    < c.min_elems))
    why = NF_WHY_TOO_SHORT;
  else if (end <= begin || nf_tool_in_macro (t, begin, begin + 1)
	   || nf_tool_in_macro (t, end - 1, end))
    why = NF_CLANG_WHY_MACRO;
  else if (!nf_lp_count_text (t, l0, &b0, &rows)
	   || !nf_lp_count_text (t, l1, &b1, &count)
	   || !(text = nf_dot_text (t, n, w, &c, rows, count,
				    nf_lp_omp_pragma (t, begin,
						      nf_ast_begin (n->outer)))))
    {
      s->oom = 1;
      why = "out of memory";
    }
  else
    {
      nf_edits_begin (t->edits);
      nf_edits_add (t->edits, begin, begin, text);
      if (!nf_edits_commit (t->edits))
	why = "the region overlaps another rewritten region";
    }
  if (!why)
    {
      unsigned line, column;
      nf_lp_loc (n->outer, &line, &column);
      nf_dot_record (s, n, w, r, &m, &c, line, column);
    }
  free (rows);
  free (count);
  free (b0);
  free (b1);
  free (text);
  nf_match_release (&m);
  nf_region_free (r);
  return why;
}

bool
nf_lp_try_dot (struct nf_lp_scan *s, CXCursor outer, CXCursor *stmts, int cnt,
	       int i)
{
  nf_tool *t = s->t;
  if (!(t->kinds & NF_KIND_DOT)
      || clang_getCursorKind (outer) != CXCursor_ForStmt
      || nf_tool_in_macro (t, nf_ast_begin (stmts[i]),
			   nf_ast_begin (stmts[i]) + 1))
    return false;
  struct nf_lp g;
  if (!nf_lp_start (&g, s, /*map=*/false))
    return s->oom = 1, false;
  struct nf_dot_nest n;
  memset (&n, 0, sizeof n);
  n.g = &g;
  n.outer = outer;
  n.inner = stmts[i];
  bool conditional = false, modelled = false;
  const char *why = NULL;
  int w = 0;
  if (nf_dot_nest_of (&n, stmts, cnt, i, &conditional))
    {
      why = nf_dot_check (s, &n, stmts, cnt, i, conditional, &w, &modelled);
      if (modelled && !why)
	why = nf_dot_rewrite (s, &n, w);
    }
  if (g.oom)
    s->oom = 1;
  if (modelled && why && !s->oom)
    {
      unsigned line, column;
      nf_lp_loc (stmts[i], &line, &column);
      nf_record_missed (t, NF_KIND_DOT, s->function, line, column, why);
    }
  nf_lp_finish (&g);
  return modelled;
}
