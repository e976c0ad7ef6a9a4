/* ast-ir.c: libclang expressions to the region IR (see ast-ir.h).

   As plugin/to-ir.cc does for GIMPLE, this expands exactly what the
   lower/ matchers look at and makes everything else a region parameter:

     (double) expf (x) - 1        param x
			     =>   exp x ; convert f64 ; const 1.0
				  sub                 (anchor)

   Source-level differences from GIMPLE, and how they are bridged:
   - Parentheses and conversions that keep the element type (lvalue to
     rvalue) do not exist in GIMPLE: they are skipped.
   - Constants: 1, 1.0f, -1, (double) 1 are folded to one CONST of the
     expression's type, as the C front end of GCC folds them.
   - An SSA name defined elsewhere is, in C, a local variable read:
     `double e = exp (x); ... e - 1`.  A variable stands for its
     initializer when it is a non-volatile automatic of floating type,
     never written after its declaration nor addressed (ast.h); each
     variable is one value, and when the function reads it more often
     than the region does, it escapes (the matchers' single-use guards
     see it, as with an SSA name's other uses).

   - GCC folds (float) exp ((double) xf) into expf (xf) under
     -funsafe-math-optimizations without math errno: built so
     (nf_narrowed_exp) when the caller says so.
   - Two exps of one argument written twice are two GIMPLE statements
     GCC's value numbering merges (the plugin's nf_same_value): in a tanh
     quotient the second reads the first's argument value when
     nf_ast_same_expr says the expressions are the same.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdio.h>
#include <string.h>

#include "ast-ir.h"

bool
nf_ast_region_init (struct nf_ast_region *g, const char *function,
		    const nf_vars *vars)
{
  memset (g, 0, sizeof *g);
  g->vars = vars;
  g->src_b = NF_NO_VALUE;
  g->arg1 = clang_getNullCursor ();
  g->arg1_v = NF_NO_VALUE;
  g->r = nf_region_new (function);
  return g->r != NULL;
}

void
nf_ast_region_fini (struct nf_ast_region *g)
{
  nf_region_free (g->r);
  g->r = NULL;
}

CXCursor
nf_ast_value_cursor (const struct nf_ast_region *g, nf_value v)
{
  return v >= 0 && v < g->n ? g->cursors[v] : clang_getNullCursor ();
}

/* Record that value V stands for C, read through VAR (or NULL); returns
   V.  */
static nf_value
nf_note (struct nf_ast_region *g, nf_value v, CXCursor c, const nf_var *var)
{
  if (v >= 0 && v < NF_AST_MAX)
    {
      g->cursors[v] = c;
      g->via[v] = var;
      if (v >= g->n)
	{
	  for (int i = g->n; i < v; i++)
	    g->cursors[i] = clang_getNullCursor ();
	  g->n = v + 1;
	}
    }
  return v;
}

/* The value already built for the variable VAR, or NF_NO_VALUE.  */
static nf_value
nf_lookup_var (const struct nf_ast_region *g, const nf_var *var)
{
  for (int i = 0; var && i < g->n; i++)
    if (g->via[i] == var)
      return i;
  return NF_NO_VALUE;
}

/* C as a leaf: a constant, or a parameter named like the variable (or
   the expression's text).  */
static nf_value
nf_leaf (struct nf_ast_region *g, CXCursor c)
{
  nf_type type = nf_scalar_type (nf_ast_elem (clang_getCursorType (c)));
  double v;
  if (nf_ast_const (c, &v))
    return nf_note (g, nf_const (g->r, type, v), c, NULL);
  CXCursor s = nf_ast_strip_noop (c);
  const nf_var *var = NULL;
  if (clang_getCursorKind (s) == CXCursor_DeclRefExpr)
    {
      var = nf_vars_find (g->vars, clang_getCursorReferenced (s));
      nf_value old = nf_lookup_var (g, var);
      if (old != NF_NO_VALUE)
	return old;
    }
  CXString name = clang_getCursorSpelling (s);
  const char *text = clang_getCString (name);
  /* A name, or "_" for an expression (whose spelling is its operator,
     "/", no value's name).  */
  bool ident = text && *text;
  for (const char *q = text; ident && *q; q++)
    ident = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')
	    || (*q >= '0' && *q <= '9') || *q == '_' || *q == '.';
  nf_value p = nf_param (g->r, ident ? text : "_", type, false);
  clang_disposeString (name);
  return nf_note (g, p, c, var);
}

/* Where the value of C is defined: C itself, or the initializer of the
   variable C reads (then *VAR is set).  */
static CXCursor
nf_def (const struct nf_ast_region *g, CXCursor c, const nf_var **var)
{
  CXCursor init;
  *var = nf_ast_ssa_var (g->vars, c, &init);
  return *var ? nf_ast_strip_noop (init) : nf_ast_strip_noop (c);
}

/* Whether C is defined by an exp call.  */
static bool
nf_def_exp_call (const struct nf_ast_region *g, CXCursor c)
{
  const nf_var *var;
  CXCursor d = nf_def (g, c, &var), callee, arg;
  return nf_ast_math_call (d, nf_exp_names, 6, &callee, &arg) >= 0;
}

/* Whether C is defined by a floating conversion; *INNER its operand.  */
static bool
nf_def_float_convert (const struct nf_ast_region *g, CXCursor c,
		      CXCursor *inner)
{
  const nf_var *var;
  return nf_ast_float_convert (nf_def (g, c, &var), inner);
}

/* The argument ARG of an exp call as a leaf; in a tanh quotient, the
   first exp's argument when ARG is the same expression.  */
static nf_value
nf_exp_arg (struct nf_ast_region *g, CXCursor arg)
{
  if (!clang_Cursor_isNull (g->arg1)
      && nf_ast_same_expr (g->vars, arg, g->arg1,
			   /*same_expr=*/g->arg1_direct && g->direct))
    return g->arg1_v;
  return nf_leaf (g, arg);
}

/* If G narrows math (G->narrow_math) and D converts the result of an exp
   call to a narrower floating type whose argument is, looked through
   floating extensions, of that type ((float) exp ((double) xf)), the
   call as GCC folds it: the exp of that type (expf (xf)), noted with
   the call's cursor; else NF_NO_VALUE.  GCC folds such a conversion of
   the call itself only: not of a variable holding its value, nor of an
   argument computed in the wider type (exp (2.0 * xf)).  */
static nf_value
nf_narrowed_exp (struct nf_ast_region *g, CXCursor d, const nf_var *var)
{
  CXCursor call, callee, arg, a, in;
  if (!g->narrow_math || !nf_ast_float_convert (d, &call))
    return NF_NO_VALUE;
  enum nf_elem to = nf_ast_elem (clang_getCursorType (d));
  call = nf_ast_strip_noop (call);
  if (to >= nf_ast_elem (clang_getCursorType (call))
      || nf_ast_math_call (call, nf_exp_names, 6, &callee, &arg) < 0)
    return NF_NO_VALUE;
  for (a = nf_ast_strip_noop (arg);
       nf_ast_float_convert (a, &in)
       && nf_ast_elem (clang_getCursorType (in))
	    < nf_ast_elem (clang_getCursorType (a));
       a = nf_ast_strip_noop (in))
    ;
  if (nf_ast_elem (clang_getCursorType (a)) != to)
    return NF_NO_VALUE;
  return nf_note (g, nf_unary (g->r, NF_OP_EXP, nf_exp_arg (g, a)), call,
		  var);
}

/* C expanded through floating conversions to an exp call, else a
   leaf.  */
static nf_value
nf_exp_operand (struct nf_ast_region *g, CXCursor c)
{
  const nf_var *var;
  CXCursor d = nf_def (g, c, &var), inner, inner2, callee, arg;
  nf_value old = nf_lookup_var (g, var);
  if (old != NF_NO_VALUE)
    return old;
  nf_value narrowed = nf_narrowed_exp (g, d, var);
  if (narrowed != NF_NO_VALUE)
    return narrowed;
  if (nf_ast_float_convert (d, &inner)
      && (nf_def_float_convert (g, inner, &inner2)
	  || nf_def_exp_call (g, inner)))
    {
      nf_value in = nf_exp_operand (g, inner);
      return nf_note (
	g, nf_convert (g->r, in, nf_ast_elem (clang_getCursorType (d))), d,
	var);
    }
  if (nf_ast_math_call (d, nf_exp_names, 6, &callee, &arg) >= 0)
    return nf_note (g, nf_unary (g->r, NF_OP_EXP, nf_exp_arg (g, arg)), d,
		    var);
  return nf_leaf (g, c);
}

/* Mark escaping every variable read whose function reads it more often
   than the region does.  */
static void
nf_var_uses (struct nf_ast_region *g)
{
  for (int i = 0; i < g->n; i++)
    if (g->via[i] && nf_op (g->r, i) != NF_OP_PARAM
	&& g->via[i]->n_refs > nf_value_n_uses (g->r, i))
      nf_value_set_escapes (g->r, i);
}

nf_value
nf_ast_expm1 (struct nf_ast_region *g, CXCursor c)
{
  enum CXBinaryOperatorKind op = nf_ast_binop (c);
  CXCursor kids[2];
  if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
      || !nf_elem_is_float (nf_ast_elem (clang_getCursorType (c)))
      || nf_ast_children (c, kids, 2) != 2)
    return NF_NO_VALUE;
  nf_value a = nf_exp_operand (g, kids[0]);
  nf_value b = nf_exp_operand (g, kids[1]);
  enum nf_opcode bop = op == CXBinaryOperator_Add ? NF_OP_ADD : NF_OP_SUB;
  g->src_b = b;
  nf_canonical_binary (g->r, &bop, &a, &b);
  nf_value v = nf_note (g, nf_binary (g->r, bop, a, b), c, NULL);
  nf_var_uses (g);
  nf_value_set_escapes (g->r, v); /* The result leaves the region.  */
  return v;
}

/* C expanded through floating conversions to one addition or
   subtraction of leaves or exp calls, else a leaf.  */
static nf_value
nf_log_operand (struct nf_ast_region *g, CXCursor c)
{
  const nf_var *var;
  CXCursor d = nf_def (g, c, &var), inner, kids[2];
  nf_value old = nf_lookup_var (g, var);
  if (old != NF_NO_VALUE)
    return old;
  if (nf_ast_float_convert (d, &inner))
    {
      nf_value in = nf_log_operand (g, inner);
      return nf_note (
	g, nf_convert (g->r, in, nf_ast_elem (clang_getCursorType (d))), d,
	var);
    }
  enum CXBinaryOperatorKind op = nf_ast_binop (d);
  if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
      && nf_elem_is_float (nf_ast_elem (clang_getCursorType (d)))
      && nf_ast_children (d, kids, 2) == 2)
    {
      /* An exp among the terms is built, for the matcher's sign of
	 zero facts (softplus' log (1 + exp (y))), as the plugin does.  */
      nf_value a = nf_exp_operand (g, kids[0]);
      nf_value b = nf_exp_operand (g, kids[1]);
      enum nf_opcode bop = op == CXBinaryOperator_Add ? NF_OP_ADD : NF_OP_SUB;
      nf_canonical_binary (g->r, &bop, &a, &b);
      return nf_note (g, nf_binary (g->r, bop, a, b), d, var);
    }
  return nf_leaf (g, c);
}

nf_value
nf_ast_log1p (struct nf_ast_region *g, CXCursor call)
{
  CXCursor callee, arg;
  if (nf_ast_math_call (call, nf_log_names, 6, &callee, &arg) < 0
      || !nf_elem_is_float (nf_ast_elem (clang_getCursorType (call))))
    return NF_NO_VALUE;
  nf_value a = nf_log_operand (g, arg);
  nf_value v = nf_note (g, nf_unary (g->r, NF_OP_LOG, a), call, NULL);
  nf_var_uses (g);
  nf_value_set_escapes (g->r, v); /* The result leaves the region.  */
  return v;
}

/* Whether C is, looked through parentheses and floating conversions, a
   call written there (not a variable read).  */
static bool
nf_written_call (CXCursor c)
{
  CXCursor in;
  c = nf_ast_strip_noop (c);
  while (nf_ast_float_convert (c, &in))
    c = nf_ast_strip_noop (in);
  return clang_getCursorKind (c) == CXCursor_CallExpr;
}

/* The term C of a tanh quotient: a floating A + B or A - B written there,
   its operands as nf_exp_operand builds them, else a leaf.  */
static nf_value
nf_tanh_term (struct nf_ast_region *g, CXCursor c)
{
  CXCursor s = nf_ast_strip_noop (c), kids[2];
  enum CXBinaryOperatorKind op = nf_ast_binop (s);
  if ((op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
      || !nf_elem_is_float (nf_ast_elem (clang_getCursorType (s)))
      || nf_ast_children (s, kids, 2) != 2)
    return nf_leaf (g, c);
  g->direct = nf_written_call (kids[0]);
  nf_value a = nf_exp_operand (g, kids[0]);
  g->direct = nf_written_call (kids[1]);
  nf_value b = nf_exp_operand (g, kids[1]);
  enum nf_opcode bop = op == CXBinaryOperator_Add ? NF_OP_ADD : NF_OP_SUB;
  nf_canonical_binary (g->r, &bop, &a, &b);
  return nf_note (g, nf_binary (g->r, bop, a, b), s, NULL);
}

nf_value
nf_ast_tanh (struct nf_ast_region *g, CXCursor c)
{
  CXCursor kids[2];
  if (nf_ast_binop (c) != CXBinaryOperator_Div
      || !nf_elem_is_float (nf_ast_elem (clang_getCursorType (c)))
      || nf_ast_children (c, kids, 2) != 2)
    return NF_NO_VALUE;
  nf_value num = nf_tanh_term (g, kids[0]);
  /* The numerator's exp argument, for the denominator's.  */
  for (int i = 0; i < nf_op_n_operands (g->r, num); i++)
    {
      nf_value e = nf_op_operand (g->r, num, i);
      if (nf_op (g->r, e) == NF_OP_EXP && e < NF_AST_MAX
	  && clang_Cursor_isNull (g->arg1))
	{
	  g->arg1_v = nf_op_operand (g->r, e, 0);
	  g->arg1 = nf_ast_value_cursor (g, g->arg1_v);
	  g->arg1_direct = g->via[e] == NULL;
	}
    }
  nf_value den = nf_tanh_term (g, kids[1]);
  nf_value v = nf_note (g, nf_binary (g->r, NF_OP_DIV, num, den), c, NULL);
  nf_var_uses (g);
  nf_value_set_escapes (g->r, v); /* The result leaves the region.  */
  return v;
}
