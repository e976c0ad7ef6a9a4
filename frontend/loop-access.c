/* loop-access.c: the array accesses of a loop region (the libclang twin
   of plugin/loop-shape.cc's arrays): which array parameter an access
   reads or writes, and the members read (s->eps).  loop-ir.c builds the
   statements, loop-expr.c the expressions around the accesses.

     x[j]  *(x + j)            the array x, from x[0] on
     x[j + 2]  x[2 + j]  *(x + j + 2)  (x + 2)[j]
			       the array x + 2: a parameter of its own,
			       named x, as the plugin's (its array is the
			       element an access starts at)
     x[j - 1]                  the array x - 1

   1. An access (nf_lp_access) is base[index] or *pointer, where the
      pointer is a sum of terms (nf_lp_pointer): one base, the loop's
      induction variable j once, and integer constants.  A subscript's
      index is j, c + j, j + c or j - c (nf_lp_index).
   2. An index j + c computed in a 32-bit unsigned type wraps modulo
      2^32 where j + c can pass UINT_MAX: GCC's analysis
      (dr_analyze_innermost) then finds no affine access and the plugin
      refuses the loop ("an array access is not affine in the loop");
      nf_lp_index_wraps refuses where it does: a negative c; a positive
      c past what j can reach, UINT_MAX - 1 for j < n with an unsigned
      or signed int n (converted), less for a constant bound or an
      unsigned char or short n (j + 1 never wraps as j < n).  A signed
      index cannot overflow in a valid program, a 64-bit one wraps as
      the address does: both are affine.  Pointer sums (x + j + 2) add
      each term to the address: affine.
   3. The array parameter (nf_lp_array) is the base's source text and
      the constant offset, in elements: two accesses are of one array
      when both are the same; the rewrite spells its address
      ((x) + c) (loop-rewrite.c).  The IR's accesses have offset 0, as
      the plugin's.

   Limitations: offsets that are no integer constant (x[j + k]), strides
   (x[2 * j]) and indices in a type wider than the induction variable's
   ((size_t) j + 1 with an unsigned j) are not built.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loop-int.h"

enum CXChildVisitResult
nf_lp_effect_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  bool *found = data;
  (void) parent;
  enum CXCursorKind k = clang_getCursorKind (c);
  if (k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator
      || nf_ast_binop (c) == CXBinaryOperator_Assign)
    *found = true;
  if (k == CXCursor_UnaryOperator)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (c);
      if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec
	  || u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec)
	*found = true;
    }
  return CXChildVisit_Recurse;
}

/* The parameter of TABLE (*N entries) whose source text is TEXT, whose
   offset is OFFSET and whose elements are TYPE's, added for cursor C,
   of type TYPE and named after C's spelling (s->x is "x"), if there is
   none; NF_NO_VALUE with the missed reason WHY_FULL when the table is
   full, or when TEXT is NULL (out of memory).  TEXT is the caller's new
   string: kept in the table, or freed.  */
static nf_value
nf_lp_intern (struct nf_lp *g, struct nf_lp_array *table, int *n, CXCursor c,
	      CXCursor extra, char *text, int64_t offset, nf_type type,
	      bool is_array, const char *why_full)
{
  if (!text)
    return nf_lp_oom (g);
  for (int i = 0; i < *n; i++)
    if (strcmp (table[i].text, text) == 0 && table[i].offset == offset
	&& nf_value_type (g->r, table[i].param).elem == type.elem)
      {
	free (text);
	return table[i].param;
      }
  if (*n == NF_LP_ARRAYS)
    {
      free (text);
      return nf_lp_fail (g, why_full);
    }
  struct nf_lp_array *a = &table[(*n)++];
  a->text = text;
  a->offset = offset;
  a->base = c;
  a->extra = extra;
  CXString sp = clang_getCursorSpelling (c);
  const char *name = clang_getCString (sp);
  a->param = nf_param (g->r, name && *name ? name : text, type, is_array);
  clang_disposeString (sp);
  return nf_lp_note (g, a->param, c, /*first=*/false);
}

nf_value
nf_lp_array (struct nf_lp *g, CXCursor base, int64_t offset, int k,
	     enum nf_elem elem)
{
  CXCursor s = nf_ast_strip_noop (base);
  CXType pt = clang_getCanonicalType (clang_getCursorType (s));
  CXType et = pt.kind == CXType_Pointer ? clang_getPointeeType (pt)
					: clang_getArrayElementType (pt);
  if (clang_isVolatileQualifiedType (et))
    return nf_lp_fail (g, NF_WHY_LOOP_VOLATILE);
  /* The call and the overlap test evaluate the base again.  */
  bool effects = false;
  clang_visitChildren (s, nf_lp_effect_visit, &effects);
  if (effects || clang_getCursorKind (s) == CXCursor_CallExpr)
    return nf_lp_fail (g, NF_WHY_NOT_AFFINE);
  char *text = nf_lp_text (g->t, nf_ast_begin (s), nf_ast_end (s));
  CXCursor extra = g->extra;
  char *xt = clang_Cursor_isNull (extra)
	       ? NULL
	       : nf_lp_text (g->t, nf_ast_begin (extra), nf_ast_end (extra));
  if ((text && !*text) || (xt && !*xt))
    {
      /* No text of its own: the array is named inside a macro's
	 expansion (SHR16 (X[i], 1)), which the call cannot repeat.  */
      free (text);
      free (xt);
      return nf_lp_fail (g, NF_CLANG_WHY_MACRO);
    }
  if (xt && text)
    {
      /* The row's start: x[32 * j + l] is ((x) + (32 * j))[l].  */
      struct nf_lp_str b = { 0 };
      nf_lp_str_add (&b, "((%s) + (%s))", text, xt);
      free (text);
      text = b.s;
    }
  free (xt);
  return nf_lp_intern (g, g->arrays, &g->n_arrays, s, extra, text, offset,
		       nf_tensor1_type (elem, nf_lp_dim (g, k)), true,
		       NF_WHY_ARRAYS);
}

/* Whether the integer expression C (stripped) is a constant that fits
   an offset; sets *V.  */
static bool
nf_lp_int_const (CXCursor c, int64_t *v)
{
  double d;
  enum nf_elem e = nf_ast_elem (clang_getCursorType (c));
  if ((e != NF_ELEM_I32 && e != NF_ELEM_I64) || !nf_ast_const (c, &d)
      || d != (double) (int64_t) d || d > 0x1p40 || d < -0x1p40)
    return false;
  *v = (int64_t) d;
  return true;
}

/* Step 2: whether the index j + C of loop K, computed in the integer
   type IT, may wrap where GCC's analysis sees it (then the plugin finds
   no affine access).  */
static bool
nf_lp_index_wraps (const struct nf_lp *g, int k, CXType it, int64_t c)
{
  const struct nf_lp_loop *l = &g->loops[k];
  if (c == 0 || !nf_ast_unsigned (it) || clang_Type_getSizeOf (it) >= 8)
    return false;
  if (c < 0)
    return true; /* j - 1 wraps at j = 0.  */
  /* The largest j: below the bound, which is at most its own type's
     largest value when that is an unsigned type narrower than int, and
     UINT_MAX otherwise (a signed bound converts).  A signed j does not
     overflow.  */
  int64_t jmax = INT32_MAX;
  if (nf_ast_unsigned (clang_getCursorType (l->ivar)))
    {
      CXType bt = clang_getCursorType (l->bound);
      long long bs = clang_Type_getSizeOf (bt);
      int64_t bmax = UINT32_MAX;
      if (l->extent >= 0 && l->extent <= (int64_t) UINT32_MAX)
	bmax = l->extent;
      else if (nf_ast_unsigned (bt) && bs > 0 && bs < 4)
	bmax = ((int64_t) 1 << (8 * bs)) - 1;
      jmax = bmax - 1;
    }
  return jmax + c > (int64_t) UINT32_MAX;
}

/* A visitor: whether an assignment, ++ or -- writes the variable
   D->decl, or its address is taken (D->hit).  */
struct nf_lp_writes
{
  CXCursor decl;
  bool hit;
};

static enum CXChildVisitResult
nf_lp_writes_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_writes *d = data;
  CXCursor kids[2];
  (void) parent;
  CXCursor target = clang_getNullCursor ();
  enum CXCursorKind kind = clang_getCursorKind (c);
  if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator)
    {
      enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind (c);
      if ((op == CXBinaryOperator_Assign
	   || (op >= CXBinaryOperator_MulAssign
	       && op <= CXBinaryOperator_OrAssign))
	  && nf_ast_children (c, kids, 2) == 2)
	target = kids[0];
    }
  else if (kind == CXCursor_UnaryOperator && nf_ast_children (c, kids, 1) == 1)
    {
      enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind (c);
      if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec
	  || op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec
	  || op == CXUnaryOperator_AddrOf)
	target = kids[0];
    }
  if (!clang_Cursor_isNull (target)
      && nf_lp_same_decl (nf_lp_var_of (target), d->decl))
    {
      d->hit = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* A visitor: whether a variable the cursor reads is written in the
   statement D->stmt (D->hit).  */
struct nf_lp_reads
{
  CXCursor stmt;
  bool hit;
};

static enum CXChildVisitResult
nf_lp_reads_written (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_reads *d = data;
  (void) parent;
  CXCursor v = nf_lp_var_of (c);
  if (!clang_Cursor_isNull (v))
    {
      struct nf_lp_writes wr = { v, false };
      clang_visitChildren (d->stmt, nf_lp_writes_visit, &wr);
      if (wr.hit)
	{
	  d->hit = true;
	  return CXChildVisit_Break;
	}
    }
  return CXChildVisit_Recurse;
}

/* A visitor: whether a loop holds the loop [D->begin, D->end) (D->hit).  */
struct nf_lp_nest
{
  size_t begin, end;
  bool hit;
};

static enum CXChildVisitResult
nf_lp_nest_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_nest *d = data;
  (void) parent;
  enum CXCursorKind kind = clang_getCursorKind (c);
  size_t b = nf_ast_begin (c), e = nf_ast_end (c);
  /* Strictly around it (a cursor of the loop itself may not compare
     equal to D->loop: its extent does).  */
  if ((kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt
       || kind == CXCursor_DoStmt)
      && b <= d->begin && e >= d->end && (b < d->begin || e > d->end))
    {
      d->hit = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* Step 1: whether KIDS, the factors of j * s in loop K, have a step S
   only the run time knows, which the call assumes to be 1 and its guard
   tests (G->unit_steps), as the plugin's nf_lr_array does: S an integer
   variable the function never writes after its declaration (nor takes
   the address of), in a loop no other loop holds (the plugin's
   loop_depth 1: in a nest such a step is a matrix's column).  */
static bool
nf_lp_run_time_step (struct nf_lp *g, CXCursor kids[2], int k)
{
  CXCursor f = kids[nf_lp_is_ivar (g, kids[0], k) ? 1 : 0], w;
  f = nf_ast_strip_noop (f);
  while (!clang_Cursor_isNull (w = nf_ast_cast_operand (f)))
    f = nf_ast_strip_noop (w);
  CXCursor d = nf_lp_var_of (f);
  if (clang_Cursor_isNull (d))
    return false;
  CXType ty = clang_getCanonicalType (clang_getCursorType (d));
  enum nf_elem e = nf_ast_elem (ty);
  if ((e != NF_ELEM_I32 && e != NF_ELEM_I64) || clang_isVolatileQualifiedType (ty))
    return false;
  for (int j = 0; j < g->n_loops; j++)
    if (nf_lp_same_decl (d, g->loops[j].ivar))
      return false;
  struct nf_lp_writes wr = { d, false };
  clang_visitChildren (g->fn, nf_lp_writes_visit, &wr);
  struct nf_lp_nest nest = { nf_ast_begin (g->loops[k].stmt),
			     nf_ast_end (g->loops[k].stmt), false };
  clang_visitChildren (g->fn, nf_lp_nest_visit, &nest);
  if (wr.hit || nest.hit)
    return false;
  for (int j = 0; j < g->n_unit_steps; j++)
    if (nf_lp_same_decl (g->unit_steps[j], d))
      return true;
  if (g->n_unit_steps == (int) (sizeof g->unit_steps / sizeof *g->unit_steps))
    return false;
  g->unit_steps[g->n_unit_steps++] = d;
  return true;
}

void
nf_lp_add_unit_steps (struct nf_lp_str *b, const struct nf_lp *g)
{
  for (int i = 0; i < g->n_unit_steps; i++)
    {
      CXString sp = clang_getCursorSpelling (g->unit_steps[i]);
      nf_lp_str_add (b, "%s(%s) == 1", b->len ? " && " : "",
		     clang_getCString (sp));
      clang_disposeString (sp);
    }
}

/* Step 1: whether the integer expression C is loop K's index: j, c + j,
   j + c or j - c; *OFF becomes c.  Fails G (not affine) where it may
   wrap (nf_lp_index_wraps).  */
static bool
nf_lp_index (struct nf_lp *g, CXCursor c, int k, int64_t *off)
{
  CXCursor kids[2];
  *off = 0;
  CXCursor s = nf_ast_strip_noop (c);
  if (nf_lp_is_ivar (g, s, k))
    return true;
  enum CXBinaryOperatorKind op = nf_ast_binop (s);
  /* j * incx: a step only the run time knows is assumed to be 1
     (nf_lp_run_time_step); any other (a constant 2) is the plugin's
     near miss.  */
  if (op == CXBinaryOperator_Mul && nf_ast_children (s, kids, 2) == 2
      && (nf_lp_is_ivar (g, kids[0], k) || nf_lp_is_ivar (g, kids[1], k)))
    {
      if (nf_lp_run_time_step (g, kids, k))
	return true;
      nf_lp_fail (g, NF_WHY_NOT_CONTIGUOUS);
      return false;
    }
  if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
      || nf_ast_children (s, kids, 2) != 2)
    return false;
  int64_t v;
  if (nf_lp_is_ivar (g, kids[0], k)
      && nf_lp_int_const (nf_ast_strip_noop (kids[1]), &v))
    *off = op == CXBinaryOperator_Add ? v : -v;
  else if (op == CXBinaryOperator_Add && nf_lp_is_ivar (g, kids[1], k)
	   && nf_lp_int_const (nf_ast_strip_noop (kids[0]), &v))
    *off = v;
  else
    return false;
  if (nf_lp_index_wraps (g, k, clang_getCursorType (s), *off))
    {
      nf_lp_fail (g, NF_WHY_NOT_AFFINE);
      return false;
    }
  return true;
}

/* A visitor: whether a cursor refers to one of the region's loop
   indices (D->hit).  */
struct nf_lp_ivars
{
  const struct nf_lp *g;
  bool hit;
};

static enum CXChildVisitResult
nf_lp_ivars_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_ivars *d = data;
  (void) parent;
  for (int j = 0; j < d->g->n_loops; j++)
    if (nf_lp_is_ivar (d->g, c, j))
      {
	d->hit = true;
	return CXChildVisit_Break;
      }
  return CXChildVisit_Recurse;
}

/* Step 1: whether the index C of loop K is A + I or I + A, I loop K's
   index (nf_lp_index, its constant in *OFF) and A an integer from
   outside the region (x[32 * j + l], a row of an outer loop's): no
   index of the region's loops, no side effect, no variable the function
   writes in loop K, in a signed or 64-bit type (GCC's analysis takes
   those as not wrapping).  Sets *EXTRA to A.  */
static bool
nf_lp_outer_index (struct nf_lp *g, CXCursor c, int k, int64_t *off,
		   CXCursor *extra)
{
  CXCursor kids[2];
  CXCursor s = nf_ast_strip_noop (c);
  CXType it = clang_getCanonicalType (clang_getCursorType (s));
  if (nf_ast_binop (s) != CXBinaryOperator_Add || nf_ast_children (s, kids, 2) != 2
      || (nf_ast_unsigned (it) && clang_Type_getSizeOf (it) < 8))
    return false;
  for (int i = 0; i < 2; i++)
    {
      struct nf_lp_ivars iv = { g, false };
      CXCursor a = kids[1 - i];
      clang_visitChildren (a, nf_lp_ivars_visit, &iv);
      nf_lp_ivars_visit (a, a, &iv);
      bool effect = false;
      clang_visitChildren (a, nf_lp_effect_visit, &effect);
      nf_lp_effect_visit (a, a, &effect);
      enum nf_elem e = nf_ast_elem (clang_getCursorType (a));
      if (iv.hit || effect || (e != NF_ELEM_I32 && e != NF_ELEM_I64)
	  || !nf_lp_index (g, kids[i], k, off))
	continue;
      /* Nothing A reads may change in the loop.  */
      struct nf_lp_reads rd = { g->loops[k].stmt, false };
      clang_visitChildren (a, nf_lp_reads_written, &rd);
      nf_lp_reads_written (a, a, &rd);
      if (rd.hit)
	return false;
      *extra = a;
      return true;
    }
  return false;
}

/* Whether the type of C is a pointer or an array.  */
static bool
nf_lp_is_pointer (CXCursor c)
{
  enum CXTypeKind t = clang_getCanonicalType (clang_getCursorType (c)).kind;
  return t == CXType_Pointer || t == CXType_ConstantArray
	 || t == CXType_IncompleteArray || t == CXType_VariableArray;
}

/* Step 1: the base of the pointer expression P of loop K, a sum of
   terms (x + j + 2, (x + 2) + j, x - 1 + j): the constant terms added
   to *OFF, the index terms (nf_lp_index) counted in *N_IVAR.  The base
   is what has no more such terms.  */
static CXCursor
nf_lp_pointer (struct nf_lp *g, CXCursor p, int k, int64_t *off, int *n_ivar)
{
  CXCursor kids[2];
  for (;;)
    {
      p = nf_ast_strip_noop (p);
      enum CXBinaryOperatorKind op = nf_ast_binop (p);
      if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
	  || nf_ast_children (p, kids, 2) != 2)
	return p;
      int pi = nf_lp_is_pointer (kids[0]) ? 0 : 1;
      if (!nf_lp_is_pointer (kids[pi]) || nf_lp_is_pointer (kids[1 - pi])
	  || (op == CXBinaryOperator_Sub && pi != 0))
	return p;
      CXCursor term = nf_ast_strip_noop (kids[1 - pi]);
      int64_t v, sign = op == CXBinaryOperator_Sub ? -1 : 1;
      if (nf_lp_int_const (term, &v))
	*off += sign * v;
      else if (sign > 0 && nf_lp_index (g, term, k, &v))
	{
	  *off += v;
	  ++*n_ivar;
	}
      else
	return p;
      p = kids[pi];
    }
}

CXCursor
nf_lp_access (struct nf_lp *g, CXCursor c, int k, int64_t *off)
{
  CXCursor kids[2], null = clang_getNullCursor ();
  int n_ivar = 0;
  *off = 0;
  c = nf_ast_strip_noop (c);
  CXCursor base = null;
  g->extra = null;
  if (clang_getCursorKind (c) == CXCursor_ArraySubscriptExpr
      && nf_ast_children (c, kids, 2) == 2 && nf_lp_is_pointer (kids[0]))
    {
      int64_t v;
      if (!nf_lp_index (g, kids[1], k, &v)
	  && (g->fail || !nf_lp_outer_index (g, kids[1], k, &v, &g->extra)))
	return null;
      n_ivar = 1;
      base = nf_lp_pointer (g, kids[0], k, off, &n_ivar);
      *off += v;
    }
  else if (clang_getCursorKind (c) == CXCursor_UnaryOperator
	   && clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Deref
	   && nf_ast_children (c, kids, 1) == 1)
    base = nf_lp_pointer (g, kids[0], k, off, &n_ivar);
  /* j once: *x is no access of the loop, x[j + j] no affine one.  */
  if (n_ivar != 1 || g->fail)
    return null;
  /* A base that moves with a loop of the region ((x + (j & 1))[j]) is
     no array of it.  */
  for (int i = 0; i < g->n_loops; i++)
    {
      struct nf_lp_refs refs = { g->loops[i].ivar, 0, 0, 0 };
      clang_visitChildren (base, nf_lp_count_refs, &refs);
      if (refs.n > 0 || nf_lp_is_ivar (g, base, i))
	return nf_lp_fail (g, NF_WHY_NOT_AFFINE), null;
    }
  return base;
}

/* The number read by the member access C (s->eps), a parameter of the
   region named by its text.  */
nf_value
nf_lp_member (struct nf_lp *g, CXCursor c)
{
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  if (elem == NF_ELEM_NONE)
    return nf_lp_fail (g, NF_WHY_INPUT_KIND);
  char *text = nf_lp_text (g->t, nf_ast_begin (c), nf_ast_end (c));
  return nf_lp_intern (g, g->leaves, &g->n_leaves, c, clang_getNullCursor (),
		       text, 0,
		       nf_scalar_type (elem), false,
		       "the region has too many inputs");
}
