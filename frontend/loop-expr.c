/* loop-expr.c: the expressions of a loop region as region IR, built
   hash-consed (lower/'s nf_cse_*) as plugin/loop-ir.cc builds them from
   GIMPLE, so that lower/'s matchers see the same graphs from both front
   ends.  loop-ir.c holds the region's variables, arrays and statements.

     o[j] = weight[j] * (ss * x[j])      MUL (LOAD weight,
					      MUL (BROADCAST ss, LOAD x))
     y[i] = x[i] > 0 ? x[i] : a * (expf (x[i]) - 1)
					 SELECT (CMP GT, ..., MUL (...,
					   ADD (EXPM1 (LOAD x), 0.0)))

   1. Constants, parentheses and casts that keep the element type
      (nf_lp_expr): a constant is interned per type and value (its sign
      too); an explicit cast rounds (a _Float16 computed in float, C's
      excess precision), an implicit one does not.
   2. Conversions between number types are CONVERTs, one per element per
      loop body (nf_lp_convert), as GIMPLE's (float) x[j] used twice.
   3. Accesses x[j] and x[j + c] are LOADs (loop-access.c), variables
      their current value (loop-ir.c), members s->eps parameters.
   4. c ? a : b is a SELECT on a comparison; a comparison of floats is a
      CMP, made canonical with the constant second; GCC's folds of
      (float) (cmp) * K into cmp ? K : 0 are made here (nf_lp_csel).
   5. + - * / of floats (of _Float16 in float), unary minus, and calls of
      sqrt, pow, exp, log, fmax, fmin (nf_lp_math); GCC's folds of
      pow (x, 2) to x * x (nf_lp_math2), of (-a) * (-b) to a * b, of
      a difference built twice and squared to one, and of |x| * |x|
      to x * x (nf_lp_fold_square;
      fabs, in a norm region, is built for them only); in an elementwise
      loop, exp (x) - 1 and log (1 + x) are the scalar pass's
      expm1 (x) + 0.0 and log1p (x) + 0.0 (nf_lp_scalar_rewrite), and
      (exp (a) - 1) / (exp (a) + 1) is t / (t + 2) (nf_lp_tanh), as the
      plugin's loop pass sees the scalar pass's output.

   Limitations: other operators and calls are reported ("the region
   computes something the matchers do not model").

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <math.h>
#include <string.h>

#include "ast-ir.h"
#include "kinds.h"
#include "loop-int.h"
#include "match-util.h"

/* --- Hash-consed construction (lower/'s nf_cse_*), as the plugin's
   loop-ir.cc builds.  --- */

nf_value
nf_lp_binary (struct nf_lp *g, enum nf_opcode op, nf_value a, nf_value b)
{
  nf_canonical_binary (g->r, &op, &a, &b);
  return nf_cse_binary (g->r, op, a, b);
}

nf_value
nf_lp_unary (struct nf_lp *g, enum nf_opcode op, nf_value a)
{
  return nf_cse_unary (g->r, op, a);
}

nf_value
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

nf_value
nf_lp_const (struct nf_lp *g, enum nf_elem elem, double c, CXCursor cur)
{
  nf_type type = nf_scalar_type (elem);
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_CONST
	&& nf_type_equal (nf_value_type (g->r, v), type)
	&& nf_const_value (g->r, v) == c
	&& signbit (nf_const_value (g->r, v)) == signbit (c))
      return v;
  return nf_lp_note (g, nf_const (g->r, type, c), cur, /*first=*/false);
}

/* The math function CALL calls, without "__builtin_"; its opcode and
   number of arguments.  */
enum nf_opcode
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
  ag.narrow_math = g->t->narrow_math;
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

/* In an elementwise loop (G->map), the quotient C in loop K as the
   scalar pass leaves a tanh quotient (exp (a) - 1) / (exp (a) + 1):
   t / (t + 2) with t = expm1 (a), the numerator t + 0.0 where signed
   zeros matter (scalar.c's nf_try_tanh, the plugin's); else
   NF_NO_VALUE.  */
static nf_value
nf_lp_tanh (struct nf_lp *g, CXCursor c, int k)
{
  nf_match m;
  struct nf_ast_region ag;
  CXCursor x = clang_getNullCursor ();
  if (!g->map || !g->vars || !(g->t->kinds & NF_KIND_EXPM1)
      || !nf_ast_region_init (&ag, g->function, g->vars))
    return NF_NO_VALUE;
  ag.narrow_math = g->t->narrow_math;
  nf_value q = nf_ast_tanh (&ag, c);
  if (q != NF_NO_VALUE && nf_match_tanh (ag.r, q, &m))
    {
      x = nf_ast_value_cursor (&ag, m.input);
      nf_match_release (&m);
    }
  nf_ast_region_fini (&ag);
  if (clang_Cursor_isNull (x))
    return NF_NO_VALUE;
  nf_value t = nf_lp_unary (g, NF_OP_EXPM1, nf_lp_expr (g, x, k));
  if (t == NF_NO_VALUE)
    return t;
  enum nf_elem elem = nf_value_type (g->r, t).elem;
  CXCursor none = clang_getNullCursor ();
  nf_value num = t;
  if (g->t->signed_zeros)
    num = nf_lp_binary (g, NF_OP_ADD, t, nf_lp_const (g, elem, 0.0, none));
  nf_value den
    = nf_lp_binary (g, NF_OP_ADD, t, nf_lp_const (g, elem, 2.0, none));
  return nf_lp_binary (g, NF_OP_DIV, num, den);
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
nf_lp_fold (enum CXBinaryOperatorKind op, double a, double b, enum nf_elem elem)
{
  if (elem == NF_ELEM_F32)
    {
      float x = (float) a, y = (float) b;
      return op == CXBinaryOperator_Add	  ? (float) (x + y)
	     : op == CXBinaryOperator_Sub ? (float) (x - y)
	     : op == CXBinaryOperator_Mul ? (float) (x * y)
					  : (float) (x / y);
    }
  return op == CXBinaryOperator_Add   ? a + b
	 : op == CXBinaryOperator_Sub ? a - b
	 : op == CXBinaryOperator_Mul ? a * b
				      : a / b;
}

/* Whether C (stripped) is a comparison converted to a float type; sets
 *CMP to the comparison.  */
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
nf_lp_csel (struct nf_lp *g, CXCursor c, CXCursor *cmp, double *k1, double *k2)
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

/* The LOAD of the access C = BASE[j + OFF] of ELEM in loop K (one per
   array and type; the array starts at BASE[OFF], as the plugin's).  */
static nf_value
nf_lp_load (struct nf_lp *g, CXCursor base, int64_t off, int k,
	    enum nf_elem elem)
{
  if (elem == NF_ELEM_NONE)
    return nf_lp_fail (g, "a value of the region is neither a number "
			  "nor an array");
  nf_value p = nf_lp_array (g, base, off, k, elem);
  if (p == NF_NO_VALUE)
    return p;
  nf_type t = nf_tensor1_type (elem, nf_lp_dim (g, k));
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_op (g->r, v) == NF_OP_LOAD && nf_access_base (g->r, v) == p
	&& nf_type_equal (nf_value_type (g->r, v), t))
      return v;
  return nf_load (g->r, p, t, 0, 1, 0);
}

/* The variable read C: its current value (not an induction variable's:
   only x[j] reads those).  */
static nf_value
nf_lp_var_read (struct nf_lp *g, CXCursor c)
{
  CXCursor d = nf_lp_var_of (c);
  if (clang_Cursor_isNull (d))
    return nf_lp_fail (g, NF_WHY_OPERAND);
  for (int j = 0; j < g->n_loops; j++)
    if (nf_lp_same_decl (d, g->loops[j].ivar))
      return nf_lp_fail (g, NF_WHY_NOT_AFFINE);
  return nf_lp_read (g, d, c);
}

/* c ? a : b, C of ELEM in loop K (an activation's branch, GCC's
   COND_EXPR once the plugin's nf-loop made the body one block): a
   SELECT on a comparison.  */
static nf_value
nf_lp_select (struct nf_lp *g, CXCursor c, int k, enum nf_elem elem)
{
  CXCursor kids[3];
  if (nf_ast_children (c, kids, 3) != 3 || !nf_elem_is_float (elem))
    return nf_lp_fail (g, NF_WHY_UNMODELED);
  nf_value cv = nf_lp_expr (g, kids[0], k);
  if (cv == NF_NO_VALUE)
    return cv;
  if (nf_value_type (g->r, cv).elem != NF_ELEM_BOOL)
    return nf_lp_fail (g, NF_WHY_SELECT);
  nf_value a = nf_lp_expr (g, kids[1], k);
  nf_value b = a == NF_NO_VALUE ? a : nf_lp_expr (g, kids[2], k);
  return b == NF_NO_VALUE ? b : nf_cse_select (g->r, cv, a, b);
}

/* Whether the binary operator C compares; sets *PRED.  */
static bool
nf_lp_cmp_pred (CXCursor c, enum nf_cmp *pred)
{
  switch (clang_getCursorBinaryOperatorKind (c))
    {
    case CXBinaryOperator_LT:
      *pred = NF_CMP_LT;
      return true;
    case CXBinaryOperator_LE:
      *pred = NF_CMP_LE;
      return true;
    case CXBinaryOperator_GT:
      *pred = NF_CMP_GT;
      return true;
    case CXBinaryOperator_GE:
      *pred = NF_CMP_GE;
      return true;
    case CXBinaryOperator_EQ:
      *pred = NF_CMP_EQ;
      return true;
    case CXBinaryOperator_NE:
      *pred = NF_CMP_NE;
      return true;
    default:
      return false;
    }
}

/* The comparison C (PRED) of floats in loop K: a CMP (bool), which a
   conversion to a float type makes 0 or 1 (CONVERT from
   NF_ELEM_BOOL).  */
static nf_value
nf_lp_compare (struct nf_lp *g, CXCursor c, int k, enum nf_cmp pred)
{
  CXCursor kids[2];
  if (nf_ast_children (c, kids, 2) != 2)
    return nf_lp_fail (g, NF_WHY_UNMODELED);
  if (!nf_elem_is_float (nf_ast_elem (clang_getCursorType (kids[0]))))
    return nf_lp_fail (g, NF_WHY_COMPARE);
  nf_value a = nf_lp_expr (g, kids[0], k);
  nf_value b = a == NF_NO_VALUE ? a : nf_lp_expr (g, kids[1], k);
  if (b == NF_NO_VALUE)
    return b;
  /* GCC's canonical form: a constant second (0 < x is x > 0).  */
  if (nf_op (g->r, a) == NF_OP_CONST && nf_op (g->r, b) != NF_OP_CONST)
    {
      nf_value t = a;
      a = b;
      b = t;
      pred = pred == NF_CMP_LT	 ? NF_CMP_GT
	     : pred == NF_CMP_LE ? NF_CMP_GE
	     : pred == NF_CMP_GT ? NF_CMP_LT
	     : pred == NF_CMP_GE ? NF_CMP_LE
				 : pred;
    }
  return nf_cse_cmp (g->r, pred, a, b);
}

/* Whether the call C calls fabs, fabsf or fabsl (or their
   __builtin_).  */
static bool
nf_lp_is_fabs_call (CXCursor c)
{
  CXString sp = clang_getCursorSpelling (clang_getCursorReferenced (c));
  const char *name = clang_getCString (sp);
  if (name && strncmp (name, "__builtin_", 10) == 0)
    name += 10;
  bool is = name
	    && (strcmp (name, "fabs") == 0 || strcmp (name, "fabsf") == 0
		|| strcmp (name, "fabsl") == 0)
	    && clang_Cursor_getNumArguments (c) == 1;
  clang_disposeString (sp);
  return is;
}

/* Whether V of G is a fabs (nf_lp_fabs).  */
static bool
nf_lp_is_fabs (const struct nf_lp *g, nf_value v)
{
  const char *l = nf_value_label (g->r, v);
  return nf_op (g->r, v) == NF_OP_OPAQUE && l && strcmp (l, "fabs") == 0
	 && nf_op_n_operands (g->r, v) == 1;
}

/* |X| in G, the value of the argument of a fabs call: an OPAQUE "fabs"
   op, one per X (a hash-consed call: GCC's fabsf (x[i]) twice is one
   value), which a square folds away (nf_lp_fold_square) and which
   nf_lp_fabs_used refuses elsewhere, as the plugin's builder does its
   ABS_EXPR ("the region computes something the matchers do not
   model").  */
static nf_value
nf_lp_fabs (struct nf_lp *g, nf_value x)
{
  if (x == NF_NO_VALUE)
    return x;
  /* GCC narrows fabs ((double) f) to (double) fabsf (f).  */
  if (nf_op (g->r, x) == NF_OP_CONVERT)
    {
      nf_value y = nf_op_operand (g->r, x, 0);
      enum nf_elem from = nf_value_type (g->r, y).elem;
      enum nf_elem to = nf_value_type (g->r, x).elem;
      if (nf_elem_is_float (from) && from < to)
	return nf_lp_convert (g, nf_lp_fabs (g, y), to);
    }
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_lp_is_fabs (g, v) && nf_op_operand (g->r, v, 0) == x)
      return v;
  return nf_opaque (g->r, "fabs", nf_value_type (g->r, x), &x, 1);
}

bool
nf_lp_fabs_used (const struct nf_lp *g)
{
  for (nf_value v = 0; v < nf_region_n_values (g->r); v++)
    if (nf_lp_is_fabs (g, v)
	&& (nf_value_n_uses (g->r, v) > 0 || nf_value_escapes (g->r, v)))
      return true;
  return false;
}

/* The factors *A and *B of a product as GCC's match.pd leaves them:
   (-a) * (-b) is a * b, and |x| * |x| (one value) is x * x, each exact;
   both only in the factors' own type (a conversion in between stays).  */
static void
nf_lp_fold_square (const struct nf_lp *g, nf_value *a, nf_value *b)
{
  const nf_region *r = g->r;
  if (nf_op (r, *a) == NF_OP_NEG && nf_op (r, *b) == NF_OP_NEG)
    {
      *a = nf_op_operand (r, *a, 0);
      *b = nf_op_operand (r, *b, 0);
    }
  /* |x[i] - y[i]| * |x[i] - y[i]|: the tool builds the difference twice
     where GCC's value numbering has one (nf_same_value).  */
  if (nf_lp_is_fabs (g, *a) && nf_lp_is_fabs (g, *b)
      && (*a == *b
	  || nf_same_value (r, nf_op_operand (r, *a, 0),
			    nf_op_operand (r, *b, 0))))
    {
      *a = nf_op_operand (r, *a, 0);
      *b = nf_op_operand (r, *b, 0);
    }
  /* (x[i] - y[i]) * (x[i] - y[i]): one difference, squared, as GCC's
     value numbering leaves it (the second, dead, is no user of the
     loads).  */
  if (*a != *b && nf_same_value (r, *a, *b))
    *b = *a;
}

/* The binary operator C of ELEM in loop K: a select of constants
   (nf_lp_csel), a comparison, or + - * / of floats (of _Float16 in
   float, where GCC's excess precision keeps it until an assignment or a
   cast rounds it).  */
static nf_value
nf_lp_binop (struct nf_lp *g, CXCursor c, int k, enum nf_elem elem)
{
  enum nf_opcode op;
  enum nf_cmp pred;
  CXCursor cc, kids[2];
  double k1, k2;
  if (nf_lp_csel (g, c, &cc, &k1, &k2))
    {
      nf_value cv = nf_lp_expr (g, cc, k);
      if (cv == NF_NO_VALUE)
	return cv;
      CXCursor none = clang_getNullCursor ();
      return nf_cse_select (g->r, cv, nf_lp_const (g, elem, k1, none),
			    nf_lp_const (g, elem, k2, none));
    }
  if (nf_lp_cmp_pred (c, &pred))
    return nf_lp_compare (g, c, k, pred);
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
      return nf_lp_fail (g, NF_WHY_UNMODELED);
    }
  if (nf_ast_children (c, kids, 2) != 2)
    return nf_lp_fail (g, NF_WHY_UNMODELED);
  /* An integer + - * after the loops (sqrt (s / (n - 1))): a value GCC
     computes there too, which the matchers see, as the plugin's.  */
  if (!nf_elem_is_float (elem))
    {
      if (k >= 0 || elem == NF_ELEM_NONE || elem == NF_ELEM_BOOL
	  || op == NF_OP_DIV)
	return nf_lp_fail (g, NF_WHY_UNMODELED);
      return nf_lp_binary (g, op, nf_lp_expr (g, kids[0], k),
			   nf_lp_expr (g, kids[1], k));
    }
  nf_value q = op == NF_OP_DIV ? nf_lp_tanh (g, c, k) : NF_NO_VALUE;
  if (q != NF_NO_VALUE)
    return q;
  nf_value a = nf_lp_expr (g, kids[0], k);
  nf_value b = nf_lp_expr (g, kids[1], k);
  if (elem == NF_ELEM_F16)
    {
      a = nf_lp_convert (g, a, NF_ELEM_F32);
      b = nf_lp_convert (g, b, NF_ELEM_F32);
    }
  if (op == NF_OP_MUL && a != NF_NO_VALUE && b != NF_NO_VALUE)
    nf_lp_fold_square (g, &a, &b);
  return nf_lp_scalar_rewrite (g, c, k, nf_lp_binary (g, op, a, b));
}

/* The two-operand math call OP (A, B) in G as GCC's folds leave it:
   pow (x, 2) is x * x (exact, folded at any flags); fmax (k, x) is
   fmax (x, k) (nf_canonical_binary).  */
static nf_value
nf_lp_math2 (struct nf_lp *g, enum nf_opcode op, nf_value a, nf_value b)
{
  const nf_region *r = g->r;
  if (a == NF_NO_VALUE || b == NF_NO_VALUE)
    return nf_lp_binary (g, op, a, b);
  if (op == NF_OP_POW && nf_op (r, b) == NF_OP_CONST
      && nf_const_value (r, b) == 2.0)
    return nf_lp_binary (g, NF_OP_MUL, a, a);
  return nf_lp_binary (g, op, a, b);
}

/* The call C in loop K of a math function nf_lp_math models.  The
   first call computing its value is noted: where an L2 norm is
   replaced.  */
static nf_value
nf_lp_call (struct nf_lp *g, CXCursor c, int k)
{
  int nargs = 0;
  /* A norm region's fabs, which a square folds away.  */
  if (!g->map && nf_lp_is_fabs_call (c))
    return nf_lp_fabs (g, nf_lp_expr (g, clang_Cursor_getArgument (c, 0), k));
  enum nf_opcode op = nf_lp_math (c, &nargs);
  if (op == NF_OP_COUNT_ || clang_Cursor_getNumArguments (c) != nargs)
    return nf_lp_fail (g, NF_WHY_CALL);
  nf_value a = nf_lp_expr (g, clang_Cursor_getArgument (c, 0), k);
  nf_value v;
  if (nargs == 1)
    v = nf_lp_unary (g, op, a);
  else
    {
      nf_value b = nf_lp_expr (g, clang_Cursor_getArgument (c, 1), k);
      v = nf_lp_math2 (g, op, a, b);
    }
  v = nf_lp_scalar_rewrite (g, c, k, v);
  return nf_lp_note (g, v, c, /*first=*/true);
}

nf_value
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
  CXCursor kids[1];
  CXCursor inner = nf_ast_cast_operand (c);
  if (!clang_Cursor_isNull (inner))
    {
      enum nf_elem from = nf_ast_elem (clang_getCursorType (inner));
      if (elem == NF_ELEM_NONE || from == NF_ELEM_NONE)
	return nf_lp_fail (g, NF_WHY_CONVERSION);
      return nf_lp_convert (g, nf_lp_expr (g, inner, k), elem);
    }
  int64_t off;
  CXCursor base = nf_lp_access (g, c, k, &off);
  if (!clang_Cursor_isNull (base))
    return nf_lp_load (g, base, off, k, elem);
  if (g->fail)
    return NF_NO_VALUE;
  switch (clang_getCursorKind (c))
    {
    case CXCursor_MemberRefExpr:
      return nf_lp_member (g, c);
    case CXCursor_DeclRefExpr:
      return nf_lp_var_read (g, c);
    case CXCursor_ConditionalOperator:
      return nf_lp_select (g, c, k, elem);
    case CXCursor_BinaryOperator:
      return nf_lp_binop (g, c, k, elem);
    case CXCursor_UnaryOperator:
      if (clang_getCursorUnaryOperatorKind (c) == CXUnaryOperator_Minus
	  && nf_ast_children (c, kids, 1) == 1)
	return nf_lp_unary (g, NF_OP_NEG, nf_lp_expr (g, kids[0], k));
      return nf_lp_fail (g, NF_WHY_UNMODELED);
    case CXCursor_CallExpr:
      return nf_lp_call (g, c, k);
    default:
      return nf_lp_fail (g, NF_WHY_UNMODELED);
    }
}
