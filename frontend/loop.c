/* loop.c: RMSNorm, L2-norm and elementwise loops to libneuronfuse calls
   in the source, the libclang twin of plugin/loop.cc and
   plugin/loop-ir.cc.

   Every compound statement of a function defined in the main file is a
   list of statements; a region starts at a `for` loop whose body is one
   floating-point accumulation `acc += E` and runs, statement by
   statement, over the scalar code after it and at most one more loop
   storing y[i] = E:

     for (int j = 0; j < size; j++) ss += x[j] * x[j];      reduce_add
     ss /= size;  ss += 1e-5f;  ss = 1.0f / sqrtf (ss);      scalars
     for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]); store

   The statements are executed symbolically into the region IR of
   lower/ (ir.h), the same graph plugin/loop-ir.cc builds from GIMPLE:
   each local variable holds the value last assigned to it (an SSA name),
   x[j] and *(x + j) with j the loop's induction variable are LOADs of
   tensor<n>, scalars used in a loop are broadcast, the reduction is a
   REDUCE whose init is the accumulator's value before the loop (the
   statement just before it, `float ss = 0.0f;`).  Values still held by
   variables read after the region escape, as SSA names used after the
   plugin's region do.  lower/'s nf_match_norm (MulRedSqrt, then
   RMSNorm) decides.

   Rewrites (the plugin's calls and overlap test):
     RMSNorm: the statements from the first loop to the second become
       if (<y == x or disjoint, y == w or disjoint>)
	 { nf_rmsnorm_f32 (o, x, weight, <count>, <eps>); }
       else { <the original statements> }
     MulRedSqrt: the loop is removed and sqrtf (s) becomes
       nf_nrm2_f32 (x, <count>) (float data summed in double:
       sqrt (nf_sumsq_f32 (x, <count>))).
   <count> is n for an unsigned bound, (n > 0 ? (size_t) (n) : 0) for a
   signed one, as the plugin's guarded trip count.

   Elementwise loops y[i] = E holding an Expm1 or Log1p candidate are
   built with the scalar pass's rewrite applied (expm1 (x) + 0.0, the
   + 0.0 folded away under -ffast-math/-fno-signed-zeros, as GCC does)
   and matched by nf_match_map; the kernel call (the _pz kernel where
   the + 0.0 stays) behind the overlap test is inserted before the loop,
   which stays as the fallback.

   Elementwise loops whose body does more than the map (an activation:
   ELU, SELU, softplus, CELU; local variables set before the store) are
   built with ?: as SELECT, float comparisons as CMP, a comparison
   converted to a float type as CONVERT from NF_ELEM_BOOL, and GCC's
   folds of (float) (c) * K into c ? K : 0 (nf_lp_csel), as the plugin's
   nf-loop sees them; when nf_match_map fails, nf_match_elementwise and
   nf_ew_lower give the program, and the call
     if (<y == x0 or disjoint> && <y vs x1> && <count> >= NF_EW_MIN_N)
       { nf_elementwise (y, x0, x1, <count>, "<program>", s0..s3); }
     else <the loop>
   is inserted before the loop (the plugin's nf_loop_check_ew), or the
   region is reported missed with the plugin's reason.  Not under
   -funsafe-math-optimizations with AVX vectors (-mavx2, an AVX -march):
   GCC's vectorizer is faster there (the plugin's nf_loop_ew_pays).

   Loop candidates are innermost loops summing a product into a
   floating-point variable (the plugin's nf_loop_candidate); one that
   cannot be built is reported when it sums squares, with the reason.
   A _Float16 accumulator sums in float (GCC's excess precision), the
   arithmetic on _Float16 values too, as the plugin's IR has it.
   Functions under optimize ("O0") are skipped: the plugin's loop pass
   does not run there.

   Not handled: loops with other shapes (offsets, strides, bodies of
   several statements but an elementwise loop's), branches between the
   loops, regions the plugin only sees after inlining (an activation
   through an inline function or a function pointer).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast-ir.h"
#include "ast.h"
#include "kinds.h"
#include "match.h"
#include "nf-clang.h"
#include "record.h"

#define NF_LP_MAX 256
#define NF_LP_VARS 32
#define NF_LP_ARRAYS 8

struct nf_lp_vol
{
  bool found;
};

static enum CXChildVisitResult nf_lp_effect_visit (CXCursor c, CXCursor parent,
						   CXClientData data);

struct nf_lp_array
{
  char text[128]; /* The base expression as written.  */
  nf_value param;
  CXCursor base;
};

struct nf_lp_loop
{
  CXCursor stmt, ivar, bound;
  int sym;
  int64_t extent; /* A constant trip count, or -1.  */
  bool is_signed;
};

/* One region being built.  */
struct nf_lp
{
  nf_tool *t;
  const char *function;
  nf_region *r;
  const char *fail;
  /* Variables: their current value.  */
  CXCursor vdecl[NF_LP_VARS];
  nf_value vval[NF_LP_VARS];
  bool vparam[NF_LP_VARS]; /* Value is the variable at the entry.  */
  int n_vars;
  struct nf_lp_array arrays[NF_LP_ARRAYS];
  int n_arrays;
  struct nf_lp_array leaves[NF_LP_ARRAYS]; /* Members read: s->eps.  */
  int n_leaves;
  struct nf_lp_loop loops[2];
  int n_loops;
  CXCursor cursors[NF_LP_MAX]; /* Value -> expression (params, consts,
				  math calls).  */
  bool noted[NF_LP_MAX];       /* A math call's cursor is recorded.  */
  bool map;	       /* An elementwise loop: see nf_lp_scalar_rewrite.  */
  bool acc_f16;	       /* The accumulator is a _Float16.  */
  nf_value conv_floor; /* The first value of the loop body being built.  */
  const nf_vars *vars; /* The function's local variables.  */
  CXCursor fn;	       /* The function.  */
  nf_value reduce;
  CXCursor acc;	     /* The accumulator's variable.  */
  nf_value ret;	     /* A value returned by the region's end.  */
  CXCursor ret_expr; /* The expression computing it.  */
  CXCursor body_vars[8]; /* Variables an elementwise loop's body sets.  */
  int n_body_vars;
};

static nf_value
nf_lp_fail (struct nf_lp *g, const char *why)
{
  if (!g->fail)
    g->fail = why;
  return NF_NO_VALUE;
}

static nf_value
nf_lp_note (struct nf_lp *g, nf_value v, CXCursor c)
{
  if (v >= 0 && v < NF_LP_MAX)
    g->cursors[v] = c;
  return v;
}

static bool
nf_lp_same_decl (CXCursor a, CXCursor b)
{
  return clang_equalCursors (clang_getCanonicalCursor (a),
			     clang_getCanonicalCursor (b));
}

/* The variable C (stripped) refers to, or a null cursor.  */
static CXCursor
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
static bool
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

static int
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

static void
nf_lp_set_var (struct nf_lp *g, CXCursor decl, nf_value v, bool param)
{
  /* A variable the region writes must be the function's own: a global,
     a volatile or an addressed local is memory the call would skip.  */
  if (!param)
    {
      struct nf_lp_addr a = { decl, false };
      if (!clang_Cursor_isNull (g->fn))
	clang_visitChildren (g->fn, nf_lp_addr_visit, &a);
      if (a.found || clang_Cursor_hasVarDeclGlobalStorage (decl) == 1
	  || clang_isVolatileQualifiedType (clang_getCursorType (decl)))
	{
	  nf_lp_fail (g, "the region stores to memory outside the idiom");
	  return;
	}
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

/* --- Hash-consed construction (lower/'s nf_cse_*), as the plugin's
   loop-ir.cc builds.  --- */

static nf_value nf_lp_const (struct nf_lp *g, enum nf_elem elem, double c,
			     CXCursor cur);

static nf_value
nf_lp_binary (struct nf_lp *g, enum nf_opcode op, nf_value a, nf_value b)
{
  nf_canonical_binary (g->r, &op, &a, &b);
  return nf_cse_binary (g->r, op, a, b);
}

static nf_value
nf_lp_unary (struct nf_lp *g, enum nf_opcode op, nf_value a)
{
  return nf_cse_unary (g->r, op, a);
}

static nf_value
nf_lp_convert (struct nf_lp *g, nf_value a, enum nf_elem to)
{
  if (a == NF_NO_VALUE || nf_value_type (g->r, a).elem == to)
    return a;
  nf_type t = nf_value_type (g->r, a);
  t.elem = to;
  /* In a loop, one conversion of an element per loop body, as GIMPLE's
     (float) x[j] used twice in x[j] * x[j] (nf_cse_convert merges
     scalars only).  */
  for (nf_value u = g->conv_floor; t.rank == 1 && u < nf_region_n_values (g->r);
       u++)
    if (nf_op (g->r, u) == NF_OP_CONVERT && nf_op_operand (g->r, u, 0) == a
	&& nf_type_equal (nf_value_type (g->r, u), t))
      return u;
  return nf_cse_convert (g->r, a, to);
}

static nf_value
nf_lp_const (struct nf_lp *g, enum nf_elem elem, double c, CXCursor cur)
{
  nf_type type = nf_scalar_type (elem);
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_CONST
	&& nf_type_equal (nf_value_type (g->r, v), type)
	&& nf_const_value (g->r, v) == c
	&& signbit (nf_const_value (g->r, v)) == signbit (c))
      return v;
  return nf_lp_note (g, nf_const (g->r, type, c), cur);
}

/* The source text of [B, E) in BUF, cut short if longer than SIZE.  */
static void
nf_lp_text (const nf_tool *t, size_t b, size_t e, char *buf, size_t size)
{
  size_t n = e > b && e <= t->len ? e - b : 0;
  if (n >= size)
    n = size - 1;
  memcpy (buf, t->buf + b, n);
  buf[n] = '\0';
}

/* The dimension of loop K.  */
static nf_dim
nf_lp_dim (const struct nf_lp *g, int k)
{
  return g->loops[k].extent >= 0 ? nf_const_dim (g->loops[k].extent)
				 : nf_sym_dim (g->loops[k].sym);
}

/* --- Expressions.  --- */

static nf_value nf_lp_expr (struct nf_lp *g, CXCursor c, int k);
static nf_value nf_lp_member (struct nf_lp *g, CXCursor c);
static nf_value nf_lp_scalar_rewrite (struct nf_lp *g, CXCursor c, int k,
				      nf_value v);

/* Whether C (stripped) is loop K's induction variable.  */
static bool
nf_lp_is_ivar (const struct nf_lp *g, CXCursor c, int k)
{
  CXCursor d = nf_lp_var_of (c);
  return k >= 0 && !clang_Cursor_isNull (d)
	 && nf_lp_same_decl (d, g->loops[k].ivar);
}

/* The parameter of TABLE (*N entries) whose source text is TEXT and
   whose elements are TYPE's, added for cursor C, of type TYPE and named
   after C's spelling (s->x is "x"), if there is none; NF_NO_VALUE with
   the missed reason WHY_FULL when the table is full.  */
static nf_value
nf_lp_intern (struct nf_lp *g, struct nf_lp_array *table, int *n, CXCursor c,
	      const char *text, nf_type type, bool is_array,
	      const char *why_full)
{
  for (int i = 0; i < *n; i++)
    if (strcmp (table[i].text, text) == 0
	&& nf_value_type (g->r, table[i].param).elem == type.elem)
      return table[i].param;
  if (*n == NF_LP_ARRAYS)
    return nf_lp_fail (g, why_full);
  struct nf_lp_array *a = &table[(*n)++];
  snprintf (a->text, sizeof a->text, "%s", text);
  a->base = c;
  CXString sp = clang_getCursorSpelling (c);
  const char *name = clang_getCString (sp);
  a->param = nf_param (g->r, name && *name ? name : text, type, is_array);
  clang_disposeString (sp);
  nf_lp_note (g, a->param, c);
  return a->param;
}

/* The array parameter for the pointer expression BASE, accessed in loop
   K with elements of ELEM.  */
static nf_value
nf_lp_array (struct nf_lp *g, CXCursor base, int k, enum nf_elem elem)
{
  char text[128];
  CXCursor s = nf_ast_strip_noop (base);
  CXType pt = clang_getCanonicalType (clang_getCursorType (s));
  CXType et = pt.kind == CXType_Pointer ? clang_getPointeeType (pt)
					: clang_getArrayElementType (pt);
  if (clang_isVolatileQualifiedType (et))
    return nf_lp_fail (g, "the loop accesses volatile memory");
  /* The call and the overlap test evaluate the base again.  */
  struct nf_lp_vol fx = { false };
  clang_visitChildren (s, nf_lp_effect_visit, &fx);
  if (fx.found || clang_getCursorKind (s) == CXCursor_CallExpr)
    return nf_lp_fail (g, "an array access is not affine in the loop");
  nf_lp_text (g->t, nf_ast_begin (s), nf_ast_end (s), text, sizeof text);
  if (!*text)
    return nf_lp_fail (g, "an array access is not affine in the loop");
  return nf_lp_intern (g, g->arrays, &g->n_arrays, s, text,
		       nf_tensor1_type (elem, nf_lp_dim (g, k)), true,
		       "the region accesses too many arrays");
}

/* The base of the access C = base[j] or *(base + j) in loop K, or a
   null cursor.  */
static CXCursor
nf_lp_access_base (struct nf_lp *g, CXCursor c, int k)
{
  CXCursor kids[2];
  c = nf_ast_strip_noop (c);
  enum CXCursorKind kind = clang_getCursorKind (c);
  if (kind == CXCursor_ArraySubscriptExpr && nf_ast_children (c, kids, 2) == 2
      && nf_lp_is_ivar (g, kids[1], k))
    return kids[0];
  if (kind == CXCursor_UnaryOperator
      && clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Deref
      && nf_ast_children (c, kids, 1) == 1)
    {
      CXCursor p = nf_ast_strip_noop (kids[0]);
      if (nf_ast_binop (p) == CXBinaryOperator_Add
	  && nf_ast_children (p, kids, 2) == 2)
	{
	  if (nf_lp_is_ivar (g, kids[1], k))
	    return kids[0];
	  if (nf_lp_is_ivar (g, kids[0], k))
	    return kids[1];
	}
    }
  return clang_getNullCursor ();
}

/* The math function CALL calls, without "__builtin_"; its opcode and
   number of arguments.  */
static enum nf_opcode
nf_lp_math (CXCursor call, int *nargs)
{
  CXCursor fn = clang_getCursorReferenced (call);
  CXString sp = clang_getCursorSpelling (fn);
  const char *name = clang_getCString (sp);
  enum nf_opcode op = NF_OP_COUNT_;
  if (name && strncmp (name, "__builtin_", 10) == 0)
    name += 10;
  static const struct
  {
    const char *name;
    enum nf_opcode op;
    int nargs;
  } table[] = { { "sqrtf", NF_OP_SQRT, 1 }, { "sqrt", NF_OP_SQRT, 1 },
		{ "sqrtl", NF_OP_SQRT, 1 }, { "powf", NF_OP_POW, 2 },
		{ "pow", NF_OP_POW, 2 },    { "powl", NF_OP_POW, 2 },
		{ "expf", NF_OP_EXP, 1 },   { "exp", NF_OP_EXP, 1 },
		{ "expl", NF_OP_EXP, 1 },   { "logf", NF_OP_LOG, 1 },
		{ "log", NF_OP_LOG, 1 },    { "logl", NF_OP_LOG, 1 },
		{ "fmaxf", NF_OP_MAX, 2 },  { "fmax", NF_OP_MAX, 2 },
		{ "fmaxl", NF_OP_MAX, 2 },  { "fminf", NF_OP_MIN, 2 },
		{ "fmin", NF_OP_MIN, 2 },   { "fminl", NF_OP_MIN, 2 } };
  for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
    if (strcmp (name, table[i].name) == 0)
      {
	op = table[i].op;
	*nargs = table[i].nargs;
      }
  clang_disposeString (sp);
  return op;
}

/* The value of the variable DECL read at C.  */
static nf_value
nf_lp_read (struct nf_lp *g, CXCursor decl, CXCursor c)
{
  int i = nf_lp_find_var (g, decl);
  if (i >= 0)
    return g->vval[i];
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (decl));
  if (elem == NF_ELEM_NONE)
    return nf_lp_fail (g, "an input of the region is neither a number "
			  "nor an array");
  CXString sp = clang_getCursorSpelling (decl);
  nf_value p
    = nf_param (g->r, clang_getCString (sp), nf_scalar_type (elem), false);
  clang_disposeString (sp);
  nf_lp_note (g, p, nf_ast_strip_noop (c));
  nf_lp_set_var (g, decl, p, true);
  return p;
}

/* The number read by the member access C (s->eps), a parameter of the
   region named by its text.  */
static nf_value
nf_lp_member (struct nf_lp *g, CXCursor c)
{
  char text[128];
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  if (elem == NF_ELEM_NONE)
    return nf_lp_fail (g, "an input of the region is neither a number "
			  "nor an array");
  nf_lp_text (g->t, nf_ast_begin (c), nf_ast_end (c), text, sizeof text);
  return nf_lp_intern (g, g->leaves, &g->n_leaves, c, text,
		       nf_scalar_type (elem), false,
		       "the region has too many inputs");
}

/* In an elementwise loop (G->map), V as the scalar pass leaves it:
   exp (x) - 1 is expm1 (x) + 0 and log (1 + x) is log1p (x) + 0 (the
   + 0.0 scalar.c writes), as the plugin's loop pass sees the scalar
   pass's output.  */
static nf_value
nf_lp_scalar_rewrite (struct nf_lp *g, CXCursor c, int k, nf_value v)
{
  nf_match m;
  struct nf_ast_region ag;
  if (!g->map || v == NF_NO_VALUE || !g->vars)
    return v;
  /* The scalar pass's own decision (scalar.c, ast-ir.c).  */
  if (!nf_ast_region_init (&ag, g->function, g->vars))
    return v;
  enum nf_opcode to = NF_OP_COUNT_;
  CXCursor x = clang_getNullCursor ();
  bool keep_zero = true;
  nf_value a = clang_getCursorKind (c) == CXCursor_CallExpr
		 ? nf_ast_log1p (&ag, c)
		 : nf_ast_expm1 (&ag, c);
  if (a != NF_NO_VALUE && nf_op (ag.r, a) == NF_OP_LOG)
    {
      if (nf_match_log1p (ag.r, a, &m))
	{
	  to = NF_OP_LOG1P;
	  x = nf_ast_value_cursor (&ag, m.input);
	  keep_zero = !m.input_never_minus_zero;
	  nf_match_release (&m);
	}
    }
  else if (a != NF_NO_VALUE && nf_match_expm1 (ag.r, a, &m))
    {
      /* 1 - exp (x) becomes 0 - expm1 (x): not the map's shape.  */
      bool one_minus
	= nf_op (ag.r, a) == NF_OP_SUB
	  && nf_cluster_contains (m.cluster, nf_op_operand (ag.r, a, 1));
      if (!one_minus)
	{
	  to = NF_OP_EXPM1;
	  x = nf_ast_value_cursor (&ag, m.input);
	  keep_zero = !m.input_never_minus_zero;
	}
      nf_match_release (&m);
    }
  nf_ast_region_fini (&ag);
  if (to == NF_OP_COUNT_ || clang_Cursor_isNull (x))
    return v;
  nf_type t = nf_value_type (g->r, v);
  nf_value e = nf_lp_unary (g, to, nf_lp_expr (g, x, k));
  if (e == NF_NO_VALUE)
    return v;
  e = nf_lp_convert (g, e, t.elem);
  /* The + 0.0 is gone where signed zeros do not matter, as GCC folds
     it, or where x is never -0 (scalar.c leaves it out).  */
  if (!g->t->signed_zeros || !keep_zero)
    return e;
  return nf_lp_binary (g, NF_OP_ADD, e,
		       nf_lp_const (g, t.elem, 0.0, clang_getNullCursor ()));
}

/* Whether the parentheses and same-type casts from C down to S include
   an explicit cast: only that rounds a _Float16 value computed in float
   (GCC's excess precision); parentheses and implicit casts keep it.  */
static bool
nf_lp_explicit_cast (CXCursor c, CXCursor s)
{
  CXCursor kids[1];
  while (!clang_equalCursors (c, s))
    {
      if (clang_getCursorKind (c) == CXCursor_CStyleCastExpr)
	return true;
      if (clang_getCursorKind (c) == CXCursor_ParenExpr
	  && nf_ast_children (c, kids, 1) == 1)
	c = kids[0];
      else if (clang_Cursor_isNull (c = nf_ast_cast_operand (c)))
	return true; /* Not reached: nf_ast_strip_noop came this way.  */
    }
  return false;
}

/* A OP B in ELEM's precision.  */
static double
nf_lp_fold (enum CXBinaryOperatorKind op, double a, double b,
	    enum nf_elem elem)
{
  if (elem == NF_ELEM_F32)
    {
      float x = (float) a, y = (float) b;
      return op == CXBinaryOperator_Add   ? (float) (x + y)
	     : op == CXBinaryOperator_Sub ? (float) (x - y)
	     : op == CXBinaryOperator_Mul ? (float) (x * y)
					  : (float) (x / y);
    }
  return op == CXBinaryOperator_Add   ? a + b
	 : op == CXBinaryOperator_Sub ? a - b
	 : op == CXBinaryOperator_Mul ? a * b
				      : a / b;
}

/* Whether C (stripped) is a comparison, converted to a float type.  Sets
   *CMP.  */
static bool
nf_lp_cmp_converted (CXCursor c, CXCursor *cmp)
{
  CXCursor in = nf_ast_cast_operand (nf_ast_strip_noop (c));
  if (clang_Cursor_isNull (in))
    return false;
  in = nf_ast_strip_noop (in);
  switch (nf_ast_binop (in))
    {
    case CXBinaryOperator_LT:
    case CXBinaryOperator_LE:
    case CXBinaryOperator_GT:
    case CXBinaryOperator_GE:
    case CXBinaryOperator_EQ:
    case CXBinaryOperator_NE:
      *cmp = in;
      return true;
    default:
      return false;
    }
}

/* In an elementwise loop, whether C folds, as GCC folds it (match.pd,
   fold_binary_op_with_conditional_arg), into a select of two constants
   cmp ? *K1 : *K2: (float) (cmp) * K with K a positive finite constant
   is cmp ? K : 0.0, and (cmp ? K1 : K2) OP K is cmp ? K1 OP K : K2 OP K;
   the plugin's region has the select.  Sets *CMP, the comparison.  Only
   looks: nothing is built.  */
static bool
nf_lp_csel (struct nf_lp *g, CXCursor c, CXCursor *cmp, double *k1,
	    double *k2)
{
  CXCursor kids[2];
  c = nf_ast_strip_noop (c);
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  enum CXBinaryOperatorKind op = nf_ast_binop (c);
  if (!g->map || !nf_elem_is_float (elem) || elem == NF_ELEM_F16
      || (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub
	  && op != CXBinaryOperator_Mul && op != CXBinaryOperator_Div)
      || nf_ast_children (c, kids, 2) != 2)
    return false;
  for (int i = 0; i < 2; i++)
    {
      double k, a1, a2;
      if (!nf_ast_const (kids[1 - i], &k) || !isfinite (k)
	  || nf_ast_elem (clang_getCursorType (kids[1 - i])) != elem)
	continue;
      if (op == CXBinaryOperator_Mul && k > 0
	  && nf_ast_elem (clang_getCursorType (kids[i])) == elem
	  && nf_lp_cmp_converted (kids[i], cmp))
	{
	  *k1 = nf_lp_fold (op, 1.0, k, elem);
	  *k2 = 0.0;
	  return true;
	}
      if (nf_lp_csel (g, kids[i], cmp, &a1, &a2))
	{
	  *k1 = i ? nf_lp_fold (op, k, a1, elem) : nf_lp_fold (op, a1, k, elem);
	  *k2 = i ? nf_lp_fold (op, k, a2, elem) : nf_lp_fold (op, a2, k, elem);
	  if (isfinite (*k1) && isfinite (*k2))
	    return true;
	}
    }
  return false;
}

/* The value of the expression C, in loop K (or the scalar code, -1).  */
static nf_value
nf_lp_expr (struct nf_lp *g, CXCursor c, int k)
{
  if (g->fail)
    return NF_NO_VALUE;
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (c));
  double cv;
  if (nf_ast_const (c, &cv) && elem != NF_ELEM_NONE)
    return nf_lp_const (g, elem, cv, c);
  CXCursor s = nf_ast_strip_noop (c);
  if (!clang_equalCursors (s, c))
    {
      /* A cast that keeps the element type, or parentheses.  */
      nf_value v = nf_lp_expr (g, s, k);
      if (v == NF_NO_VALUE || !nf_lp_explicit_cast (c, s))
	return v;
      return nf_lp_convert (g, v, elem);
    }
  CXCursor kids[3];
  CXCursor inner = nf_ast_cast_operand (c);
  if (!clang_Cursor_isNull (inner))
    {
      enum nf_elem from = nf_ast_elem (clang_getCursorType (inner));
      if (elem == NF_ELEM_NONE || from == NF_ELEM_NONE)
	return nf_lp_fail (g, "a conversion of the region is not "
			      "between numbers");
      return nf_lp_convert (g, nf_lp_expr (g, inner, k), elem);
    }
  CXCursor base = nf_lp_access_base (g, c, k);
  if (!clang_Cursor_isNull (base))
    {
      if (elem == NF_ELEM_NONE)
	return nf_lp_fail (g, "a value of the region is neither a number "
			      "nor an array");
      nf_value p = nf_lp_array (g, base, k, elem);
      if (p == NF_NO_VALUE)
	return p;
      nf_type t = nf_tensor1_type (elem, nf_lp_dim (g, k));
      for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
	if (nf_op (g->r, v) == NF_OP_LOAD && nf_access_base (g->r, v) == p
	    && nf_type_equal (nf_value_type (g->r, v), t))
	  return v;
      return nf_load (g->r, p, t, 0, 1, 0);
    }
  switch (clang_getCursorKind (c))
    {
    case CXCursor_MemberRefExpr:
      return nf_lp_member (g, c);
    case CXCursor_DeclRefExpr:
      {
	CXCursor d = nf_lp_var_of (c);
	if (clang_Cursor_isNull (d))
	  return nf_lp_fail (g, "an operand is not a simple value");
	for (int j = 0; j < g->n_loops; j++)
	  if (nf_lp_same_decl (d, g->loops[j].ivar))
	    return nf_lp_fail (g, "an array access is not affine in the loop");
	return nf_lp_read (g, d, c);
      }
    case CXCursor_ConditionalOperator:
      {
	/* c ? a : b (an activation's branch, GCC's COND_EXPR once the
	   plugin's nf-loop made the body one block): a SELECT on a
	   comparison.  */
	if (nf_ast_children (c, kids, 3) != 3 || !nf_elem_is_float (elem))
	  return nf_lp_fail (g, "the region computes something the "
				"matchers do not model");
	nf_value cv = nf_lp_expr (g, kids[0], k);
	if (cv == NF_NO_VALUE)
	  return cv;
	if (nf_value_type (g->r, cv).elem != NF_ELEM_BOOL)
	  return nf_lp_fail (g, "a select of the region is not on a "
				"comparison");
	nf_value a = nf_lp_expr (g, kids[1], k);
	nf_value b = a == NF_NO_VALUE ? a : nf_lp_expr (g, kids[2], k);
	return b == NF_NO_VALUE ? b : nf_cse_select (g->r, cv, a, b);
      }
    case CXCursor_BinaryOperator:
      {
	enum nf_opcode op;
	enum nf_cmp pred;
	bool cmp = true;
	CXCursor cc;
	double k1, k2;
	if (nf_lp_csel (g, c, &cc, &k1, &k2))
	  {
	    nf_value cv = nf_lp_expr (g, cc, k);
	    if (cv == NF_NO_VALUE)
	      return cv;
	    return nf_cse_select (g->r, cv,
				  nf_lp_const (g, elem, k1,
					       clang_getNullCursor ()),
				  nf_lp_const (g, elem, k2,
					       clang_getNullCursor ()));
	  }
	switch (clang_getCursorBinaryOperatorKind (c))
	  {
	  case CXBinaryOperator_LT:
	    pred = NF_CMP_LT;
	    break;
	  case CXBinaryOperator_LE:
	    pred = NF_CMP_LE;
	    break;
	  case CXBinaryOperator_GT:
	    pred = NF_CMP_GT;
	    break;
	  case CXBinaryOperator_GE:
	    pred = NF_CMP_GE;
	    break;
	  case CXBinaryOperator_EQ:
	    pred = NF_CMP_EQ;
	    break;
	  case CXBinaryOperator_NE:
	    pred = NF_CMP_NE;
	    break;
	  default:
	    cmp = false;
	    break;
	  }
	if (cmp)
	  {
	    /* A comparison of floats: a CMP (bool), which a conversion to
	       a float type makes 0 or 1 (CONVERT from NF_ELEM_BOOL).  */
	    if (nf_ast_children (c, kids, 2) != 2)
	      return nf_lp_fail (g, "the region computes something the "
				    "matchers do not model");
	    if (!nf_elem_is_float (
		  nf_ast_elem (clang_getCursorType (kids[0]))))
	      return nf_lp_fail (g, "a comparison of the region is not "
				    "between floating-point values");
	    nf_value a = nf_lp_expr (g, kids[0], k);
	    nf_value b = a == NF_NO_VALUE ? a : nf_lp_expr (g, kids[1], k);
	    if (b == NF_NO_VALUE)
	      return b;
	    /* GCC's canonical form: a constant second (0 < x is x > 0).  */
	    if (nf_op (g->r, a) == NF_OP_CONST
		&& nf_op (g->r, b) != NF_OP_CONST)
	      {
		nf_value t = a;
		a = b;
		b = t;
		pred = pred == NF_CMP_LT   ? NF_CMP_GT
		       : pred == NF_CMP_LE ? NF_CMP_GE
		       : pred == NF_CMP_GT ? NF_CMP_LT
		       : pred == NF_CMP_GE ? NF_CMP_LE
					   : pred;
	      }
	    return nf_cse_cmp (g->r, pred, a, b);
	  }
	switch (clang_getCursorBinaryOperatorKind (c))
	  {
	  case CXBinaryOperator_Add:
	    op = NF_OP_ADD;
	    break;
	  case CXBinaryOperator_Sub:
	    op = NF_OP_SUB;
	    break;
	  case CXBinaryOperator_Mul:
	    op = NF_OP_MUL;
	    break;
	  case CXBinaryOperator_Div:
	    op = NF_OP_DIV;
	    break;
	  default:
	    return nf_lp_fail (g, "the region computes something the "
				  "matchers do not model");
	  }
	if (nf_ast_children (c, kids, 2) != 2 || !nf_elem_is_float (elem))
	  return nf_lp_fail (g, "the region computes something the "
				"matchers do not model");
	nf_value a = nf_lp_expr (g, kids[0], k);
	nf_value b = nf_lp_expr (g, kids[1], k);
	/* _Float16 arithmetic is done in float and stays there until an
	   assignment or a cast rounds it (GCC's excess precision).  */
	if (elem == NF_ELEM_F16)
	  {
	    a = nf_lp_convert (g, a, NF_ELEM_F32);
	    b = nf_lp_convert (g, b, NF_ELEM_F32);
	  }
	return nf_lp_scalar_rewrite (g, c, k, nf_lp_binary (g, op, a, b));
      }
    case CXCursor_UnaryOperator:
      if (clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Minus
	  && nf_ast_children (c, kids, 1) == 1)
	return nf_lp_unary (g, NF_OP_NEG, nf_lp_expr (g, kids[0], k));
      return nf_lp_fail (g, "the region computes something the matchers "
			    "do not model");
    case CXCursor_CallExpr:
      {
	int nargs = 0;
	enum nf_opcode op = nf_lp_math (c, &nargs);
	if (op == NF_OP_COUNT_ || clang_Cursor_getNumArguments (c) != nargs)
	  return nf_lp_fail (g, "the region calls a function other than the "
				"math functions it models");
	nf_value a = nf_lp_expr (g, clang_Cursor_getArgument (c, 0), k);
	nf_value v;
	if (nargs == 1)
	  v = nf_lp_unary (g, op, a);
	else
	  v = nf_lp_binary (g, op, a,
			    nf_lp_expr (g, clang_Cursor_getArgument (c, 1), k));
	v = nf_lp_scalar_rewrite (g, c, k, v);
	/* The first call computing V: where an L2 norm is replaced.  */
	if (v >= 0 && v < NF_LP_MAX && !g->noted[v])
	  {
	    g->noted[v] = true;
	    g->cursors[v] = c;
	  }
	return v;
      }
    default:
      return nf_lp_fail (g, "the region computes something the matchers "
			    "do not model");
    }
}

/* --- Statements.  --- */

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

/* Whether an expression has side effects (calls, ++, assignments).  */
static enum CXChildVisitResult
nf_lp_effect_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_vol *v = data;
  (void) parent;
  enum CXCursorKind k = clang_getCursorKind (c);
  if (k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator
      || nf_ast_binop (c) == CXBinaryOperator_Assign)
    v->found = true;
  if (k == CXCursor_UnaryOperator)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (c);
      if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec
	  || u == CXUnaryOperator_PreInc || u == CXUnaryOperator_PreDec)
	v->found = true;
    }
  return CXChildVisit_Recurse;
}

/* Analyse the for statement C as loop K of G: for (int j = 0; j < n;
   j++) with an integer j.  Returns its body, or a null cursor (G->fail
   set).  */
static CXCursor
nf_lp_loop (struct nf_lp *g, CXCursor c)
{
  CXCursor kids[4], null = clang_getNullCursor ();
  /* libclang skips the absent parts: all four must be there.  */
  if (nf_ast_children (c, kids, 4) != 4)
    return nf_lp_fail (g, "the loop's shape is not supported"), null;
  if (g->n_loops == 2)
    return nf_lp_fail (g, "the values flow through more than two loops"), null;
  CXCursor init = kids[0], cond = kids[1], inc = kids[2], body = kids[3];
  CXCursor ivar = null, start = null;
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
    return nf_lp_fail (g, "the loop's trip count is not computable"), null;
  int k = g->n_loops;
  g->loops[k].ivar = ivar;
  enum CXBinaryOperatorKind cop = nf_ast_binop (cond);
  CXCursor cb[2];
  if ((cop != CXBinaryOperator_LT && cop != CXBinaryOperator_NE)
      || nf_ast_children (cond, cb, 2) != 2 || !nf_lp_is_ivar (g, cb[0], k))
    return nf_lp_fail (g, "the loop's trip count is not computable"), null;
  CXCursor bound = nf_ast_strip_noop (cb[1]);
  /* The increment: j++, ++j, j += 1.  */
  CXCursor ik[2];
  bool inc_ok = false;
  if (clang_getCursorKind (inc) == CXCursor_UnaryOperator)
    {
      enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind (inc);
      inc_ok = (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc)
	       && nf_ast_children (inc, ik, 1) == 1
	       && nf_lp_is_ivar (g, ik[0], k);
    }
  else if (clang_getCursorKind (inc) == CXCursor_CompoundAssignOperator
	   && clang_getCursorBinaryOperatorKind (inc)
		== CXBinaryOperator_AddAssign
	   && nf_ast_children (inc, ik, 2) == 2)
    inc_ok = nf_lp_is_ivar (g, ik[0], k) && nf_ast_const (ik[1], &v) && v == 1;
  if (!inc_ok)
    return nf_lp_fail (g, "an array access is not affine in the loop"), null;
  /* The bound: a variable not written in the region or a constant.  */
  CXCursor bd = nf_lp_var_of (bound);
  enum nf_elem be = nf_ast_elem (clang_getCursorType (bound));
  if (be != NF_ELEM_I32 && be != NF_ELEM_I64)
    return nf_lp_fail (g, "the loop's trip count is not computable"), null;
  if (clang_Cursor_isNull (bd) && !nf_ast_const (bound, &v)
      && be == NF_ELEM_NONE)
    return nf_lp_fail (g, "the loop's trip count is not computable"), null;
  CXType bt = clang_getCanonicalType (clang_getCursorType (bound));
  g->loops[k].stmt = c;
  g->loops[k].bound = bound;
  g->loops[k].is_signed = bt.kind == CXType_Int || bt.kind == CXType_Long
			  || bt.kind == CXType_LongLong
			  || bt.kind == CXType_Short || bt.kind == CXType_SChar
			  || bt.kind == CXType_Char_S;
  g->loops[k].sym = -1;
  for (int j = 0; j < k; j++)
    {
      char a[128], b[128];
      nf_lp_text (g->t, nf_ast_begin (g->loops[j].bound),
		  nf_ast_end (g->loops[j].bound), a, sizeof a);
      nf_lp_text (g->t, nf_ast_begin (bound), nf_ast_end (bound), b, sizeof b);
      if (strcmp (a, b) == 0)
	g->loops[k].sym = g->loops[j].sym;
    }
  /* A constant trip count is a constant dimension, as the plugin's.  */
  g->loops[k].extent = -1;
  if (nf_ast_const (bound, &v) && v >= 0)
    g->loops[k].extent = (int64_t) v;
  if (g->loops[k].sym < 0 && g->loops[k].extent < 0)
    {
      char name[64] = "n";
      nf_value cv = NF_NO_VALUE;
      if (!clang_Cursor_isNull (bd) || !nf_ast_const (bound, &v))
	{
	  CXString sp
	    = clang_getCursorSpelling (clang_Cursor_isNull (bd) ? bound : bd);
	  const char *sn = clang_getCString (sp);
	  if (sn && *sn)
	    snprintf (name, sizeof name, "%s", sn);
	  clang_disposeString (sp);
	  /* Other than a variable (s->dim, n - 1): a parameter named by
	     its text.  */
	  cv = clang_Cursor_isNull (bd) ? nf_lp_member (g, bound)
					: nf_lp_read (g, bd, bound);
	}
      else
	cv = nf_lp_expr (g, bound, -1);
      g->loops[k].sym = nf_region_add_sym (g->r, name, cv);
    }
  g->n_loops++;
  /* A body of one statement.  */
  if (clang_getCursorKind (body) == CXCursor_CompoundStmt)
    {
      CXCursor one[2];
      if (nf_ast_children (body, one, 2) != 1)
	{
	  struct nf_lp_vol vol = { false };
	  clang_visitChildren (body, nf_lp_vol_visit, &vol);
	  /* An elementwise loop's body may set variables first: the
	     caller (nf_lp_try_map) builds its statements.  */
	  if (g->map && !vol.found)
	    return body;
	  return nf_lp_fail (g, vol.found
				  ? "the region accesses volatile memory"
				  : "the loop's shape is not supported"),
		 null;
	}
      body = one[0];
    }
  return body;
}

/* The value of the variable ACC before the region starting at the
   statement after PREV (a null cursor: none): PREV's initializer or
   assignment of it.  */
static nf_value
nf_lp_init (struct nf_lp *g, CXCursor acc, CXCursor prev)
{
  if (nf_lp_find_var (g, acc) >= 0 || clang_Cursor_isNull (prev))
    return nf_lp_read (g, acc, acc);
  CXCursor k[2];
  if (clang_getCursorKind (prev) == CXCursor_DeclStmt)
    {
      CXCursor vd[4];
      int n = nf_ast_children (prev, vd, 4);
      for (int i = 0; i < n && i < 4; i++)
	if (nf_lp_same_decl (vd[i], acc))
	  {
	    CXCursor in = clang_Cursor_getVarDeclInitializer (vd[i]);
	    if (!clang_Cursor_isNull (in))
	      return nf_lp_convert (g, nf_lp_expr (g, in, -1),
				    nf_ast_elem (clang_getCursorType (acc)));
	  }
    }
  else if (nf_ast_binop (prev) == CXBinaryOperator_Assign
	   && nf_ast_children (prev, k, 2) == 2
	   && nf_lp_same_decl (nf_lp_var_of (k[0]), acc))
    return nf_lp_convert (g, nf_lp_expr (g, k[1], -1),
			  nf_ast_elem (clang_getCursorType (acc)));
  return nf_lp_read (g, acc, acc);
}

/* The first loop's body BODY: acc += E (or acc = acc + E, see
   nf_lp_accumulation).  Returns the REDUCE.  */
static nf_value
nf_lp_reduction (struct nf_lp *g, CXCursor body, CXCursor prev)
{
  CXCursor k[2];
  if (!nf_lp_accumulation (body, &k[0], &k[1]))
    return NF_NO_VALUE; /* No candidate.  */
  CXCursor acc = nf_lp_var_of (k[0]);
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (k[0]));
  if (clang_Cursor_isNull (acc) || !nf_elem_is_float (elem))
    return NF_NO_VALUE;
  nf_value init = nf_lp_init (g, acc, prev);
  g->conv_floor = nf_region_n_values (g->r);
  nf_value in = nf_lp_expr (g, k[1], 0);
  if (init == NF_NO_VALUE || in == NF_NO_VALUE)
    return NF_NO_VALUE;
  /* A _Float16 accumulator sums in float (C's excess precision): the
     float sum is the reduction, as the plugin's IR has it.  */
  if (elem == NF_ELEM_F16)
    {
      in = nf_lp_convert (g, in, NF_ELEM_F32);
      g->acc_f16 = true;
    }
  else
    in = nf_lp_convert (g, in, elem);
  enum nf_elem ie = nf_value_type (g->r, in).elem;
  if (nf_value_type (g->r, in).rank == 0)
    in = nf_broadcast (g->r, in, nf_tensor1_type (ie, nf_lp_dim (g, 0)));
  nf_value v = nf_reduce (g->r, in, init, NF_OP_ADD, 1u);
  nf_lp_set_var (g, acc, v, false);
  g->acc = acc;
  return v;
}

/* The scalar statement C: v = E, v op= E, T v = E.  Returns false when
   C is none.  */
static bool
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
static nf_value
nf_lp_store (struct nf_lp *g, CXCursor body)
{
  CXCursor k[2];
  if (nf_ast_binop (body) != CXBinaryOperator_Assign
      || nf_ast_children (body, k, 2) != 2)
    return nf_lp_fail (g, "the region computes something the matchers do "
			  "not know");
  CXCursor base = nf_lp_access_base (g, k[0], g->n_loops - 1);
  enum nf_elem elem = nf_ast_elem (clang_getCursorType (k[0]));
  if (clang_Cursor_isNull (base) || !nf_elem_is_float (elem))
    return nf_lp_fail (g, "a value of the region is stored outside its "
			  "loops");
  g->conv_floor = nf_region_n_values (g->r);
  nf_value v = nf_lp_convert (g, nf_lp_expr (g, k[1], g->n_loops - 1), elem);
  nf_value p = nf_lp_array (g, base, g->n_loops - 1, elem);
  if (v == NF_NO_VALUE || p == NF_NO_VALUE)
    return NF_NO_VALUE;
  if (nf_value_type (g->r, v).rank == 0)
    v = nf_broadcast (g->r, v,
		      nf_tensor1_type (elem, nf_lp_dim (g, g->n_loops - 1)));
  return nf_store (g->r, p, v, 0, 1, 0);
}

/* --- The function's statement lists.  --- */

struct nf_lp_refs
{
  CXCursor decl;
  size_t after;
  int n;
  size_t before; /* 0: no upper bound.  */
};

static enum CXChildVisitResult
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
static size_t
nf_lp_stmt_end (const nf_tool *t, CXCursor c)
{
  size_t e = nf_ast_end (c), i = e;
  while (i < t->len && (t->buf[i] == ' ' || t->buf[i] == '\t'))
    i++;
  return i < t->len && t->buf[i] == ';' ? i + 1 : e;
}

/* Append to OUT (SIZE bytes) the C text of the pointer to array value
   P.  */
static const char *
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

/* What the body of a loop holds: a floating acc += a * b (the loops
   worth a remark, as the plugin's nf_loop_candidate), whether a * a,
   and whether it can leave early.  */
struct nf_lp_cand
{
  const nf_tool *t;
  bool sum, square, exits, inner;
};

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
      if (nf_ast_binop (p) == CXBinaryOperator_Mul
	  && nf_ast_children (p, f, 2) == 2)
	{
	  char a[128], b[128];
	  d->sum = true;
	  for (int i = 0; i < 2; i++)
	    {
	      f[i] = nf_ast_strip_noop (f[i]);
	      CXCursor w;
	      while (!clang_Cursor_isNull (w = nf_ast_cast_operand (f[i])))
		f[i] = nf_ast_strip_noop (w);
	    }
	  nf_lp_text (d->t, nf_ast_begin (f[0]), nf_ast_end (f[0]), a,
		      sizeof a);
	  nf_lp_text (d->t, nf_ast_begin (f[1]), nf_ast_end (f[1]), b,
		      sizeof b);
	  /* Two reads of volatile memory are two values.  */
	  if (strcmp (a, b) == 0
	      && !clang_isVolatileQualifiedType (clang_getCursorType (f[0])))
	    d->square = true;
	}
    }
  return CXChildVisit_Recurse;
}

struct nf_lp_scan
{
  nf_tool *t;
  const char *function;
  CXCursor fn;
  int oom;
  nf_vars vars;
  bool summed; /* The last loop tried was a sum's candidate.  */
};

/* Record in the report the loop region of match M, rewritten into a
   call of CALLEE on ELEM data the loop summed in ACCUM (WEIGHTED and MAP
   as for nf_region_contract): live-ins INS (N_INS of them), the one
   live-out OUT, reducing dimension 0, from LINE:COLUMN to END's last
   line.  */
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

/* Try a region starting at the loop STMTS[I] of a list of N statements.
   Returns the number of statements it consumed (0: none).  */
static int
nf_lp_try (struct nf_lp_scan *s, CXCursor *stmts, int n, int i)
{
  nf_tool *t = s->t;
  struct nf_lp g;
  memset (&g, 0, sizeof g);
  g.t = t;
  g.function = s->function;
  g.fn = s->fn;
  g.ret = NF_NO_VALUE;
  g.r = nf_region_new (s->function);
  if (!g.r)
    return s->oom = 1, 0;
  unsigned line, column;
  clang_getExpansionLocation (
    clang_getRangeStart (clang_getCursorExtent (stmts[i])), NULL, &line,
    &column, NULL);

  int j = i;
  if (nf_tool_in_macro (t, nf_ast_begin (stmts[i]),
			nf_ast_begin (stmts[i]) + 1))
    {
      /* The loop is a macro's expansion: its text is not the code.  */
      nf_region_free (g.r);
      return 0;
    }
  struct nf_lp_cand cand = { t, false, false, false, false };
  if (t->kinds & (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT))
    clang_visitChildren (stmts[i], nf_lp_cand_visit, &cand);
  /* Innermost loops only, as the plugin's.  */
  s->summed = cand.sum && !cand.inner;
  if (!cand.sum || cand.inner)
    {
      nf_region_free (g.r);
      return 0;
    }
  if (cand.exits)
    nf_lp_fail (&g, "the loop has more than one exit");
  CXCursor body = nf_lp_loop (&g, stmts[i]);
  g.reduce = clang_Cursor_isNull (body)
	       ? NF_NO_VALUE
	       : nf_lp_reduction (
		 &g, body, i > 0 ? stmts[i - 1] : clang_getNullCursor ());
  if (g.reduce == NF_NO_VALUE)
    {
      /* Not built: worth a remark when it sums squares, as the
	 plugin's.  */
      if (cand.square)
	nf_record_missed (t, NF_KIND_MULREDSQRT, s->function, line, column,
			  g.fail ? g.fail
				 : "the reduction is not a simple "
				   "accumulation");
      nf_region_free (g.r);
      return 0;
    }
  nf_value store = NF_NO_VALUE;
  for (j = i + 1; j < n && !g.fail; j++)
    {
      CXCursor c = stmts[j];
      if (clang_getCursorKind (c) == CXCursor_ForStmt)
	{
	  CXCursor b = nf_lp_loop (&g, c);
	  if (!clang_Cursor_isNull (b))
	    store = nf_lp_store (&g, b);
	  j++;
	  break;
	}
      if (clang_getCursorKind (c) == CXCursor_ReturnStmt)
	{
	  CXCursor e[1];
	  if (nf_ast_children (c, e, 1) == 1)
	    {
	      g.ret = nf_lp_expr (&g, e[0], -1);
	      g.ret_expr = nf_ast_strip_noop (e[0]);
	      if (g.ret != NF_NO_VALUE)
		nf_value_set_escapes (g.r, g.ret);
	    }
	  j++;
	  break;
	}
      if (!nf_lp_scalar_stmt (&g, c))
	break;
    }
  int last = j - 1; /* The region's last statement.  */
  size_t begin = nf_ast_begin (stmts[i]);
  size_t end = nf_lp_stmt_end (t, stmts[last]);
  if (g.ret != NF_NO_VALUE)
    end = nf_ast_begin (stmts[last]); /* The return stays.  */

  /* Variables read after the region: their values escape.  */
  for (int v = 0; v < g.n_vars && !g.fail; v++)
    {
      if (g.vparam[v])
	continue;
      struct nf_lp_refs refs = { g.vdecl[v], end, 0, 0 };
      clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
      /* Before the region too: in an enclosing loop, those run after it
	 (except the accumulator's initialization just before it).  */
      struct nf_lp_refs pre = { g.vdecl[v], 0, 0, begin };
      clang_visitChildren (s->fn, nf_lp_count_refs, &pre);
      CXCursor ab[2];
      double cv;
      if (i > 0 && nf_lp_same_decl (g.vdecl[v], g.acc)
	  && nf_ast_binop (stmts[i - 1]) == CXBinaryOperator_Assign
	  && nf_ast_children (stmts[i - 1], ab, 2) == 2
	  && nf_lp_same_decl (nf_lp_var_of (ab[0]), g.acc)
	  && nf_ast_const (ab[1], &cv))
	pre.n--;
      refs.n += pre.n;
      if (g.ret != NF_NO_VALUE)
	{
	  /* Reads in the returned expression are the region's.  */
	  struct nf_lp_refs in
	    = { g.vdecl[v], nf_ast_begin (g.ret_expr), 0, 0 };
	  struct nf_lp_refs past
	    = { g.vdecl[v], nf_ast_end (g.ret_expr), 0, 0 };
	  clang_visitChildren (stmts[last], nf_lp_count_refs, &in);
	  clang_visitChildren (stmts[last], nf_lp_count_refs, &past);
	  refs.n -= in.n - past.n;
	}
      if (refs.n > 0)
	nf_value_set_escapes (g.r, g.vval[v]);
    }

  /* An induction variable declared outside its loop and read after the
     region: its final value is the region's too.  */
  for (int k = 0; k < g.n_loops && !g.fail; k++)
    {
      CXCursor kids[1];
      if (nf_ast_children (g.loops[k].stmt, kids, 1) >= 1
	  && clang_getCursorKind (kids[0]) != CXCursor_DeclStmt)
	{
	  struct nf_lp_refs refs = { g.loops[k].ivar, end, 0, 0 };
	  clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
	  if (refs.n > 0)
	    g.fail = "a value computed in the region is used after it";
	}
    }

  nf_match m;
  memset (&m, 0, sizeof m);
  enum nf_kind kind = NF_KIND_RMSNORM;
  const char *reason = NULL;
  bool ok = false;
  if (!g.fail)
    {
      ok = nf_match_norm (g.r, g.reduce, t->kinds, &m);
      kind = m.kind;
      reason = ok ? NULL : m.reason;
    }
  else
    reason = g.fail;

  char text[2048];
  if (ok)
    {
      /* Step 3: what the call stands for.  */
      const nf_region *r = g.r;
      enum nf_elem elem = nf_value_type (r, m.input).elem;
      const char *xs = nf_lp_array_text (&g, nf_access_base (r, m.input));
      char count[320], bound[128];
      const struct nf_lp_loop *l0 = &g.loops[0];
      nf_lp_text (t, nf_ast_begin (l0->bound), nf_ast_end (l0->bound), bound,
		  sizeof bound);
      if (l0->is_signed)
	snprintf (count, sizeof count, "((%s) > 0 ? (size_t) (%s) : 0)", bound,
		  bound);
      else
	snprintf (count, sizeof count, "(size_t) (%s)", bound);
      /* An L2 norm's region ends at the norm (the rest, a loop using
	 it, stays): what comes after it is not the region's.  */
      nf_value upto
	= m.kind == NF_KIND_MULREDSQRT ? m.result : nf_region_n_values (r) - 1;
      for (nf_value v = 0; v <= upto && !reason; v++)
	if (nf_op (r, v) == NF_OP_STORE && v != store)
	  reason = "the region stores to memory outside the idiom";
      for (nf_value v = 0; v <= upto && !reason; v++)
	if (nf_value_escapes (r, v) && v != m.result)
	  reason = "a value computed in the region is used after it";
      if (reason)
	;
      /* Macros inside the region are copied verbatim into the
	 fallback and their names into the call; a region starting or
	 ending inside a macro expansion is not the code.  */
      else if (end <= begin || nf_tool_in_macro (t, begin, begin + 1)
	       || nf_tool_in_macro (t, end - 1, end))
	reason = "the code is inside a macro expansion";
      else if (m.kind == NF_KIND_MULREDSQRT)
	{
	  bool sumsq = m.accum != elem;
	  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64)
	    reason = "no fused L2 norm for this element type";
	  else if (sumsq && !(elem == NF_ELEM_F32 && m.accum == NF_ELEM_F64)
		   && !(elem == NF_ELEM_F64 && m.accum == NF_ELEM_F80))
	    reason = "no fused L2 norm for this accumulator type";
	  else if (m.result < 0 || m.result >= NF_LP_MAX || !g.noted[m.result]
		   || (nf_value_n_uses (r, m.result) == 0
		       && !nf_value_escapes (r, m.result)))
	    reason = "the norm is not used after the loop";
	  else
	    {
	      /* Floats summed in double, the root in double: the plain
		 loop is a double sum of exact squares, which nf_sumsq_f32
		 sums in another order, not always as well; nf_nrm2d_f32
		 sums them without error (as the plugin does).  Where the
		 compiler may reorder the loop's sum anyway, the fast one.  */
	      if (sumsq && elem == NF_ELEM_F32 && !t->associative_math)
		sumsq = false;
	      const char *callee
		= sumsq ? (elem == NF_ELEM_F32 ? "nf_sumsq_f32" : "nf_sumsq_f64")
		  : elem == NF_ELEM_F32
		    ? (m.accum == NF_ELEM_F64 ? "nf_nrm2d_f32" : "nf_nrm2_f32")
		    : "nf_nrm2_f64";
	      /* The call computing the norm, in the statement right after
		 the loop; the loop goes, the call becomes the kernel's.
		 The accumulator must be read nowhere else after the
		 loop.  */
	      CXCursor call = g.cursors[m.result];
	      size_t cb = nf_ast_begin (call), ce = nf_ast_end (call);
	      CXCursor acc = g.acc;
	      struct nf_lp_refs all
		= { acc, nf_lp_stmt_end (t, stmts[i]), 0, 0 };
	      struct nf_lp_refs in = { acc, cb, 0, 0 },
				past = { acc, ce, 0, 0 };
	      clang_visitChildren (s->fn, nf_lp_count_refs, &all);
	      clang_visitChildren (call, nf_lp_count_refs, &in);
	      clang_visitChildren (call, nf_lp_count_refs, &past);
	      nf_edits_begin (t->edits);
	      if (i + 1 >= n || cb < nf_ast_begin (stmts[i + 1])
		  || ce > nf_ast_end (stmts[i + 1]) || all.n != in.n - past.n
		  || nf_tool_in_macro (t, cb, ce))
		nf_edits_refuse (t->edits);
	      {
		/* The accumulator stays declared: (void) keeps -Wall
		   quiet.  */
		CXString an = clang_getCursorSpelling (acc);
		snprintf (text, sizeof text,
			  "(void) %s; /* neuronfuse: loop outlined below */",
			  clang_getCString (an));
		clang_disposeString (an);
		nf_edits_add (t->edits, begin, nf_lp_stmt_end (t, stmts[i]),
			      text);
	      }
	      if (sumsq)
		{
		  CXCursor arg = clang_Cursor_getArgument (call, 0);
		  snprintf (text, sizeof text, "%s (%s, %s)", callee, xs,
			    count);
		  nf_edits_add (t->edits, nf_ast_begin (arg), nf_ast_end (arg),
				text);
		}
	      else
		{
		  snprintf (text, sizeof text, "%s (%s, %s)", callee, xs,
			    count);
		  nf_edits_add (t->edits, nf_ast_begin (call),
				nf_ast_end (call), text);
		}
	      if (clang_getCursorKind (call) != CXCursor_CallExpr)
		nf_edits_refuse (t->edits);
	      if (!nf_edits_commit (t->edits))
		reason = "the norm's code is not the statement after the "
			 "loop";
	      else
		{
		  last = i + 1;
		  const char *ins[2] = { xs, bound };
		  nf_lp_record (s, &m, callee, elem, m.accum, false, false, ins,
				2, "norm", stmts[last], line, column, -1, 0);
		}
	    }
	}
      else
	{
	  /* RMSNorm.  */
	  nf_value stored
	    = store != NF_NO_VALUE ? nf_op_operand (r, store, 0) : NF_NO_VALUE;
	  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64 && elem != NF_ELEM_F16)
	    reason = "no fused RMSNorm for this element type";
	  else if (stored == NF_NO_VALUE || nf_value_type (r, stored).rank != 1)
	    reason = "the normalised values are not stored";
	  else if (nf_value_type (r, stored).elem != elem
		   || (m.weight != NF_NO_VALUE
		       && nf_value_type (r, m.weight).elem != elem))
	    reason = "the arrays have different element types";
	  else if (g.ret != NF_NO_VALUE)
	    reason = "a value computed in the region is used after it";
	  if (!reason)
	    {
	      const char *ys = nf_lp_array_text (&g, nf_access_base (r, store));
	      const char *ws
		= m.weight != NF_NO_VALUE
		    ? nf_lp_array_text (&g, nf_access_base (r, m.weight))
		    : "0";
	      char eps[160], okt[1024] = "", orig[65536];
	      const char *ft = elem == NF_ELEM_F64 ? "double" : "float";
	      if (nf_op (r, m.eps) == NF_OP_CONST)
		snprintf (eps, sizeof eps, "(%s) %a", ft,
			  nf_const_value (r, m.eps));
	      else if (nf_op (r, m.eps) == NF_OP_PARAM)
		{
		  CXCursor ec = g.cursors[m.eps];
		  char et[128];
		  nf_lp_text (t, nf_ast_begin (ec), nf_ast_end (ec), et,
			      sizeof et);
		  snprintf (eps, sizeof eps, "(%s) (%s)", ft, et);
		}
	      else
		reason = "an input of the region is computed inside it";
	      /* The stored range against every loaded one.  */
	      for (nf_value ld = 0; ld < nf_region_n_values (r) && !reason;
		   ld++)
		if (nf_op (r, ld) == NF_OP_LOAD)
		  {
		    const char *ls
		      = nf_lp_array_text (&g, nf_access_base (r, ld));
		    size_t o = strlen (okt);
		    snprintf (okt + o, sizeof okt - o,
			      "%s((%s) == (%s) || (%s) + %s <= (%s) "
			      "|| (%s) + %s <= (%s))",
			      o ? "\n\t && " : "", ys, ls, ys, count, ls, ls,
			      count, ys);
		  }
	      const char *callee = elem == NF_ELEM_F32	 ? "nf_rmsnorm_f32"
				   : elem == NF_ELEM_F64 ? "nf_rmsnorm_f64"
							 : "nf_rmsnorm_f16";
	      if (!reason)
		{
		  nf_lp_text (t, begin, end, orig, sizeof orig);
		  if (end - begin >= sizeof orig)
		    reason = "the region is too long";
		}
	      if (!reason)
		{
		  size_t need = strlen (orig) + strlen (okt) + 1024;
		  char *rep = malloc (need);
		  if (!rep)
		    return s->oom = 1, 0;
		  snprintf (rep, need,
			    "if (%s)\n    { %s (%s, %s, %s, %s, %s); }\n  "
			    "else\n    {\n  %s\n    }",
			    *okt ? okt : "1", callee, ys, xs, ws, count, eps,
			    orig);
		  nf_edits_begin (t->edits);
		  nf_edits_add (t->edits, begin, end, rep);
		  free (rep);
		  if (!nf_edits_commit (t->edits))
		    reason = "the region overlaps another rewritten region";
		  else
		    {
		      const char *ins[5] = { ys, xs, ws, bound, "eps" };
		      nf_lp_record (s, &m, callee, elem,
				    g.acc_f16 ? NF_ELEM_F16 : m.accum,
				    m.weight != NF_NO_VALUE, false, ins, 5, ys,
				    stmts[last], line, column, -1, 0);
		    }
		}
	    }
	}
      if (reason)
	kind = m.kind;
      nf_match_release (&m);
    }
  if (reason)
    nf_record_missed (t, kind, s->function, line, column, reason);
  nf_region_free (g.r);
  return ok && !reason ? last - i + 1 : 0;
}

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

/* For the rewrites of the elementwise loop STMT of G: whether a value
   it computes is used after it (an escaping value of the region, the
   induction variable declared outside it, a variable its body sets) or
   it is inside a macro expansion.  Returns that reason, or NULL with
   the loop's text range in *BEGIN, *END.  */
static const char *
nf_lp_loop_leaves (struct nf_lp *g, struct nf_lp_scan *s, CXCursor stmt,
		   size_t *begin, size_t *end)
{
  const nf_region *r = g->r;
  nf_tool *t = s->t;
  for (nf_value v = 0; v < nf_region_n_values (r); v++)
    if (nf_value_escapes (r, v))
      return "a value computed in the loop is used after it";
  CXCursor kids[1];
  if (nf_ast_children (stmt, kids, 1) >= 1
      && clang_getCursorKind (kids[0]) != CXCursor_DeclStmt)
    {
      struct nf_lp_refs refs = { g->loops[0].ivar, nf_ast_end (stmt), 0, 0 };
      clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
      if (refs.n > 0)
	return "a value computed in the loop is used after it";
    }
  for (int i = 0; i < g->n_body_vars; i++)
    {
      struct nf_lp_refs refs = { g->body_vars[i], nf_ast_end (stmt), 0, 0 };
      clang_visitChildren (s->fn, nf_lp_count_refs, &refs);
      if (refs.n > 0)
	return "a value computed in the loop is used after it";
    }
  *begin = nf_ast_begin (stmt);
  *end = nf_lp_stmt_end (t, stmt);
  if (*end <= *begin || nf_tool_in_macro (t, *begin, *begin + 1)
      || nf_tool_in_macro (t, *end - 1, *end))
    return "the code is inside a macro expansion";
  return NULL;
}

/* The elementwise loop STMT of G matched as M (the STORE STORE): the
   call to the array kernel behind the plugin's overlap test, inserted
   before the loop, which stays (with the scalar pass's rewrite inside)
   as the fallback:
     if (y == x || disjoint) { nf_expm1_f32 (y, x, n); } else
     for (...) y[i] = expm1f (x[i]) + 0.0f;
   Returns NULL, or the reason it is not rewritten.  */
static const char *
nf_lp_map_rewrite (struct nf_lp *g, struct nf_lp_scan *s, CXCursor stmt,
		   nf_value store, const nf_match *m, unsigned line,
		   unsigned column)
{
  nf_tool *t = s->t;
  const nf_region *r = g->r;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  if (elem != NF_ELEM_F32 && elem != NF_ELEM_F64)
    return "no array kernel for this element type";
  /* As the plugin's loop pass (lower/'s choice).  */
  const char *callee = nf_map_callee (m, elem, t->fast_math);
  size_t begin, end;
  const char *leaves = nf_lp_loop_leaves (g, s, stmt, &begin, &end);
  if (leaves)
    return leaves;
  const char *ys = nf_lp_array_text (g, nf_access_base (r, store));
  const char *xs = nf_lp_array_text (g, nf_access_base (r, m->input));
  char count[320], bound[128], text[2048];
  const struct nf_lp_loop *l0 = &g->loops[0];
  nf_lp_text (t, nf_ast_begin (l0->bound), nf_ast_end (l0->bound), bound,
	      sizeof bound);
  if (l0->is_signed)
    snprintf (count, sizeof count, "((%s) > 0 ? (size_t) (%s) : 0)", bound,
	      bound);
  else
    snprintf (count, sizeof count, "(size_t) (%s)", bound);
  snprintf (text, sizeof text,
	    "if ((%s) == (%s) || (%s) + %s <= (%s) || (%s) + %s <= (%s))\n"
	    "    { %s (%s, %s, %s); }\n  else\n  ",
	    ys, xs, ys, count, xs, xs, count, ys, callee, ys, xs, count);
  nf_edits_begin (t->edits);
  nf_edits_add (t->edits, begin, begin, text);
  if (!nf_edits_commit (t->edits))
    return "the region overlaps another rewritten region";
  const char *ins[3] = { ys, xs, bound };
  nf_lp_record (s, m, callee, elem, elem, false, true, ins, 3, ys, stmt,
		line, column, -1, 0);
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

/* The elementwise loop STMT of G matched as the Elementwise M (the
   store STORE): the call nf_elementwise (y, x0, x1, n, prog, s0..s3) of
   the program lower/ writes (nf_ew_lower), behind the plugin's overlap
   test of y against each input and its n >= NF_EW_MIN_N, inserted
   before the loop, which stays as the fallback:
     if (<y vs x0> && <y vs x1> && <count> >= 64)
       { nf_elementwise (y, x, 0, <count>, (const unsigned char *)
			 "\ooo...", (double) (alpha), 0, 0, 0); }
     else
     for (...) y[i] = x[i] > 0 ? x[i] : alpha * (expm1f (x[i]) + 0.0f);
   The program's bytes are octal escapes (at most three digits: none
   runs into the next).  Returns NULL, or the reason it is not
   rewritten (the plugin's nf_loop_check_ew's).  */
static const char *
nf_lp_ew_rewrite (struct nf_lp *g, struct nf_lp_scan *s, CXCursor stmt,
		  nf_value store, const nf_match *m, unsigned line,
		  unsigned column)
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
  size_t begin, end;
  const char *leaves = nf_lp_loop_leaves (g, s, stmt, &begin, &end);
  if (leaves)
    return leaves;
  char count[320], bound[128], ok[2048] = "";
  nf_lp_text (t, nf_ast_begin (l0->bound), nf_ast_end (l0->bound), bound,
	      sizeof bound);
  if (l0->is_signed)
    snprintf (count, sizeof count, "((%s) > 0 ? (size_t) (%s) : 0)", bound,
	      bound);
  else
    snprintf (count, sizeof count, "(size_t) (%s)", bound);
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
  nf_edits_add (t->edits, begin, begin, text);
  free (text);
  if (!nf_edits_commit (t->edits))
    return "the region overlaps another rewritten region";
  /* The plugin's nf_loop_record: y, the arrays read, n; per element an
     exp, log, expm1 or log1p 20 flops, other ops one; each array read
     once, y written.  */
  const char *ins[4] = { ys, xs[0], xs[1], bound };
  int n_ins = 1 + ew.n_inputs;
  ins[n_ins++] = bound;
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
  nf_lp_record (s, m, "nf_elementwise", elem, elem,
		m->weight != NF_NO_VALUE, false, ins, n_ins, ys, stmt, line,
		column, flops, (n_ins - 1) * (elem == NF_ELEM_F32 ? 4.0 : 8.0));
  return NULL;
}

/* The loop STMT storing y[i] = E where E holds an Expm1 or Log1p
   candidate: build it as the plugin's nf_lr_build_map does and record
   nf_match_map's reason.  Where the tool's scalar rewrite keeps + 0.0
   (the sign of a zero result), the map's call is to the _pz kernel.  */
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
  memset (&g, 0, sizeof g);
  g.t = t;
  g.function = s->function;
  g.map = true;
  g.vars = &s->vars;
  g.fn = s->fn;
  g.r = nf_region_new (s->function);
  if (!g.r)
    {
      s->oom = 1;
      return;
    }
  unsigned line, column;
  clang_getExpansionLocation (
    clang_getRangeStart (clang_getCursorExtent (stmt)), NULL, &line, &column,
    NULL);
  CXCursor body = nf_lp_loop (&g, stmt);
  nf_value store = NF_NO_VALUE;
  if (!clang_Cursor_isNull (body)
      && clang_getCursorKind (body) == CXCursor_CompoundStmt)
    {
      /* { t = E; ...; y[i] = F; }: local variables set, then the
	 store (a variable read before the body sets it carries a value
	 from the previous iteration: not built).  */
      CXCursor b[9], k2[2];
      int nb = nf_ast_children (body, b, 9);
      for (int i = 0; i < nb - 1 && i < 8 && !g.fail; i++)
	{
	  CXCursor v = clang_getNullCursor ();
	  if (nf_ast_binop (b[i]) == CXBinaryOperator_Assign
	      && nf_ast_children (b[i], k2, 2) == 2)
	    v = nf_lp_var_of (k2[0]);
	  enum nf_elem e = clang_Cursor_isNull (v)
			     ? NF_ELEM_NONE
			     : nf_ast_elem (clang_getCursorType (v));
	  if (!nf_elem_is_float (e) || nf_lp_find_var (&g, v) >= 0)
	    {
	      nf_lp_fail (&g, "the region computes something the matchers "
			      "do not know");
	      break;
	    }
	  nf_value x = nf_lp_convert (&g, nf_lp_expr (&g, k2[1], 0), e);
	  if (x == NF_NO_VALUE)
	    break;
	  nf_lp_set_var (&g, v, x, false);
	  g.body_vars[g.n_body_vars++] = v;
	}
      if (nb >= 1 && nb <= 9 && !g.fail)
	store = nf_lp_store (&g, b[nb - 1]);
    }
  else if (!clang_Cursor_isNull (body))
    store = nf_lp_store (&g, body);
  nf_match m;
  if (store != NF_NO_VALUE && !g.fail)
    {
      if (nf_match_map (g.r, store, &m))
	{
	  const char *reason
	    = nf_lp_map_rewrite (&g, s, stmt, store, &m, line, column);
	  if (reason)
	    nf_record_missed (t, m.kind, s->function, line, column, reason);
	  nf_match_release (&m);
	}
      else
	{
	  /* A body that does more than the map: one program (the
	     plugin's nf_loop_ew_attempt), whose reason, where the
	     region has one, says more than the map matcher's.  */
	  enum nf_kind kind = m.kind;
	  const char *reason = m.reason;
	  nf_match e;
	  if ((t->kinds & NF_KIND_ELEMENTWISE) && !t->ew_vectorizer)
	    {
	      if (nf_match_elementwise (g.r, store, &e))
		{
		  const char *why
		    = nf_lp_ew_rewrite (&g, s, stmt, store, &e, line, column);
		  kind = NF_KIND_ELEMENTWISE;
		  reason = why;
		  nf_match_release (&e);
		}
	      else if (e.reason)
		{
		  kind = NF_KIND_ELEMENTWISE;
		  reason = e.reason;
		}
	    }
	  if (reason && !s->oom)
	    nf_record_missed (t, kind, s->function, line, column, reason);
	}
    }
  nf_region_free (g.r);
}

static enum CXChildVisitResult
nf_lp_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_lp_scan *s = data;
  (void) parent;
  if (clang_getCursorKind (c) == CXCursor_CompoundStmt)
    {
      CXCursor stmts[256];
      int n = nf_ast_children (c, stmts, 256);
      if (n > 256)
	n = 256;
      for (int i = 0; i < n && !s->oom; i++)
	if (clang_getCursorKind (stmts[i]) == CXCursor_ForStmt)
	  {
	    int used = nf_lp_try (s, stmts, n, i);
	    if (used > 0)
	      i += used - 1;
	    else if (!s->oom && !s->summed)
	      nf_lp_try_map (s, stmts[i]);
	  }
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

/* Whether the function FN is compiled without optimization, under
   `#pragma GCC optimize ("O0")` or __attribute__ ((optimize ("O0"))):
   the plugin's loop pass, in GCC's loop pipeline, does not run there.  */
static bool
nf_lp_unoptimized (const nf_tool *t, CXCursor fn)
{
  size_t begin = nf_ast_begin (fn);
  size_t body = begin;
  CXCursor kids[32];
  int n = nf_ast_children (fn, kids, 32);
  for (int i = 0; i < n && i < 32; i++)
    if (clang_getCursorKind (kids[i]) == CXCursor_CompoundStmt)
      body = nf_ast_begin (kids[i]);
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

static enum CXChildVisitResult
nf_lp_function (CXCursor c, CXCursor parent, CXClientData data)
{
  nf_tool *t = data;
  (void) parent;
  if (clang_getCursorKind (c) != CXCursor_FunctionDecl
      || !clang_isCursorDefinition (c)
      || !clang_Location_isFromMainFile (
	clang_getRangeStart (clang_getCursorExtent (c)))
      || nf_lp_unoptimized (t, c))
    return CXChildVisit_Continue;
  CXString name = clang_getCursorSpelling (c);
  struct nf_lp_scan s
    = { t, clang_getCString (name), c, 0, { NULL, 0, 0 }, false };
  if (nf_vars_collect (c, &s.vars) != 0)
    s.oom = 1;
  else
    clang_visitChildren (c, nf_lp_visit, &s);
  nf_vars_free (&s.vars);
  clang_disposeString (name);
  return s.oom ? CXChildVisit_Break : CXChildVisit_Continue;
}

int
nf_loop_run (nf_tool *t)
{
  if (!(t->kinds
	& (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT | NF_KIND_EXPM1
	   | NF_KIND_LOG1P | NF_KIND_ELEMENTWISE)))
    return 0;
  return clang_visitChildren (clang_getTranslationUnitCursor (t->tu),
			      nf_lp_function, t)
	   ? -1
	   : 0;
}
