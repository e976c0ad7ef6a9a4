/* ast.c: cursor helpers (see ast.h).

   libclang exposes implicit casts as CXCursor_UnexposedExpr with one
   child; written casts are CXCursor_CStyleCastExpr, whose children may
   begin with a TypeRef.  Locations are expansion locations throughout:
   offsets always point into the main file's buffer, and a region that
   touches a macro is refused by the caller (parse.c lists the macro
   expansions, tool.c's nf_tool_in_macro asks them).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

const struct nf_mathname nf_exp_names[6] = {
  { "exp", "expm1", "expm1" },
  { "expf", "expm1f", "expm1f" },
  { "expl", "expm1l", "expm1l" },
  { "__builtin_exp", "__builtin_expm1", "expm1" },
  { "__builtin_expf", "__builtin_expm1f", "expm1f" },
  { "__builtin_expl", "__builtin_expm1l", "expm1l" },
};

const struct nf_mathname nf_log_names[6] = {
  { "log", "log1p", "log1p" },
  { "logf", "log1pf", "log1pf" },
  { "logl", "log1pl", "log1pl" },
  { "__builtin_log", "__builtin_log1p", "log1p" },
  { "__builtin_logf", "__builtin_log1pf", "log1pf" },
  { "__builtin_logl", "__builtin_log1pl", "log1pl" },
};

struct nf_children_acc
{
  CXCursor *out;
  int max, n;
};

static enum CXChildVisitResult
nf_children_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_children_acc *acc = data;
  (void) parent;
  if (acc->n < acc->max)
    acc->out[acc->n] = c;
  acc->n++;
  return CXChildVisit_Continue;
}

int
nf_ast_children (CXCursor c, CXCursor *out, int max)
{
  struct nf_children_acc acc = { out, max, 0 };
  clang_visitChildren (c, nf_children_visit, &acc);
  return acc.n;
}

bool
nf_ast_unsigned (CXType t)
{
  switch (clang_getCanonicalType (t).kind)
    {
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
      return true;
    default:
      return false;
    }
}

enum nf_elem
nf_ast_elem (CXType t)
{
  t = clang_getCanonicalType (t);
  switch (t.kind)
    {
    case CXType_Half:
    case CXType_Float16:
      return NF_ELEM_F16;
    case CXType_Float:
      return NF_ELEM_F32;
    case CXType_Double:
      return NF_ELEM_F64;
    case CXType_LongDouble:
      return NF_ELEM_F80;
    case CXType_Bool:
      return NF_ELEM_BOOL;
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
      return clang_Type_getSizeOf (t) > 4 ? NF_ELEM_I64 : NF_ELEM_I32;
    default:
      return NF_ELEM_NONE;
    }
}

enum CXBinaryOperatorKind
nf_ast_binop (CXCursor c)
{
  return clang_getCursorKind (c) == CXCursor_BinaryOperator
	   ? clang_getCursorBinaryOperatorKind (c)
	   : CXBinaryOperator_Invalid;
}

CXCursor
nf_ast_cast_operand (CXCursor c)
{
  CXCursor kids[4];
  enum CXCursorKind k = clang_getCursorKind (c);
  int n = nf_ast_children (c, kids, 4);
  if (k == CXCursor_UnexposedExpr && n == 1
      && clang_isExpression (clang_getCursorKind (kids[0])))
    return kids[0];
  if (k == CXCursor_CStyleCastExpr && n >= 1 && n <= 4
      && clang_isExpression (clang_getCursorKind (kids[n - 1])))
    return kids[n - 1];
  return clang_getNullCursor ();
}

CXCursor
nf_ast_strip_noop (CXCursor c)
{
  for (;;)
    {
      CXCursor kids[1];
      if (clang_getCursorKind (c) == CXCursor_ParenExpr
	  && nf_ast_children (c, kids, 1) == 1)
	{
	  c = kids[0];
	  continue;
	}
      CXCursor in = nf_ast_cast_operand (c);
      if (clang_Cursor_isNull (in))
	return c;
      enum nf_elem to = nf_ast_elem (clang_getCursorType (c));
      if (to == NF_ELEM_NONE || to != nf_ast_elem (clang_getCursorType (in)))
	return c;
      c = in;
    }
}

bool
nf_ast_float_convert (CXCursor c, CXCursor *inner)
{
  c = nf_ast_strip_noop (c);
  CXCursor in = nf_ast_cast_operand (c);
  if (clang_Cursor_isNull (in))
    return false;
  enum nf_elem to = nf_ast_elem (clang_getCursorType (c));
  enum nf_elem from = nf_ast_elem (clang_getCursorType (in));
  if (!nf_elem_is_float (to) || !nf_elem_is_float (from) || to == from)
    return false;
  *inner = in;
  return true;
}

bool
nf_ast_const (CXCursor c, double *v)
{
  CXCursor kids[1];
  switch (clang_getCursorKind (c))
    {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
      {
	CXEvalResult r = clang_Cursor_Evaluate (c);
	if (!r)
	  return false;
	bool ok = true;
	switch (clang_EvalResult_getKind (r))
	  {
	  case CXEval_Int:
	    *v = clang_EvalResult_isUnsignedInt (r)
		   ? (double) clang_EvalResult_getAsUnsigned (r)
		   : (double) clang_EvalResult_getAsLongLong (r);
	    break;
	  case CXEval_Float:
	    *v = clang_EvalResult_getAsDouble (r);
	    break;
	  default:
	    ok = false;
	  }
	clang_EvalResult_dispose (r);
	return ok;
      }
    case CXCursor_ParenExpr:
      return nf_ast_children (c, kids, 1) == 1 && nf_ast_const (kids[0], v);
    case CXCursor_UnaryOperator:
      {
	enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind (c);
	if ((op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus)
	    || nf_ast_children (c, kids, 1) != 1 || !nf_ast_const (kids[0], v))
	  return false;
	if (op == CXUnaryOperator_Minus)
	  *v = -*v;
	return true;
      }
    default:
      {
	CXCursor in = nf_ast_cast_operand (c);
	if (clang_Cursor_isNull (in) || !nf_ast_const (in, v))
	  return false;
	/* A conversion to an integer would truncate: not folded here.  */
	enum nf_elem to = nf_ast_elem (clang_getCursorType (c));
	return nf_elem_is_float (to)
	       || !nf_elem_is_float (nf_ast_elem (clang_getCursorType (in)));
      }
    }
}

/* The main-file offset of location L.  */
static size_t
nf_offset (CXSourceLocation l)
{
  unsigned off = 0;
  clang_getExpansionLocation (l, NULL, NULL, NULL, &off);
  return off;
}

size_t
nf_ast_begin (CXCursor c)
{
  return nf_offset (clang_getRangeStart (clang_getCursorExtent (c)));
}

size_t
nf_ast_end (CXCursor c)
{
  return nf_offset (clang_getRangeEnd (clang_getCursorExtent (c)));
}

unsigned
nf_ast_end_line (CXCursor c)
{
  unsigned line = 0;
  clang_getExpansionLocation (clang_getRangeEnd (clang_getCursorExtent (c)),
			      NULL, &line, NULL, NULL);
  return line;
}

bool
nf_ast_in_main_file (CXCursor c)
{
  CXSourceRange r = clang_getCursorExtent (c);
  return clang_Location_isFromMainFile (clang_getRangeStart (r))
	 && clang_Location_isFromMainFile (clang_getRangeEnd (r));
}

bool
nf_ast_operator_loc (CXTranslationUnit tu, CXCursor c, size_t *offset,
		     unsigned *line, unsigned *column)
{
  CXCursor kids[2];
  if (nf_ast_children (c, kids, 2) != 2)
    return false;
  size_t lhs_end = nf_ast_end (kids[0]);
  CXToken *toks = NULL;
  unsigned n = 0;
  bool found = false;
  clang_tokenize (tu, clang_getCursorExtent (c), &toks, &n);
  for (unsigned i = 0; i < n && !found; i++)
    {
      CXSourceLocation l = clang_getTokenLocation (tu, toks[i]);
      unsigned off;
      clang_getExpansionLocation (l, NULL, line, column, &off);
      if (off >= lhs_end && clang_getTokenKind (toks[i]) == CXToken_Punctuation)
	{
	  *offset = off;
	  found = true;
	}
    }
  clang_disposeTokens (tu, toks, n);
  return found;
}

/* The DeclRefExpr naming the function called by CALL, or a null
   cursor.  */
static CXCursor
nf_callee_ref (CXCursor call)
{
  CXCursor kids[1];
  if (nf_ast_children (call, kids, 1) < 1)
    return clang_getNullCursor ();
  CXCursor c = kids[0];
  /* The function-to-pointer decay, and parentheses: (exp) (x).  */
  for (int depth = 0; depth < 8; depth++)
    {
      enum CXCursorKind k = clang_getCursorKind (c);
      if (k == CXCursor_DeclRefExpr)
	return c;
      if ((k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
	  || nf_ast_children (c, kids, 1) != 1)
	break;
      c = kids[0];
    }
  return clang_getNullCursor ();
}

int
nf_ast_math_call (CXCursor c, const struct nf_mathname *table, int n,
		  CXCursor *callee, CXCursor *arg)
{
  if (clang_getCursorKind (c) != CXCursor_CallExpr
      || clang_Cursor_getNumArguments (c) != 1)
    return -1;
  CXCursor fn = clang_getCursorReferenced (c);
  if (clang_getCursorKind (fn) != CXCursor_FunctionDecl
      || clang_getCursorLinkage (fn) != CXLinkage_External)
    return -1;
  CXCursor ref = nf_callee_ref (c);
  if (clang_Cursor_isNull (ref))
    return -1;
  CXString s = clang_getCursorSpelling (fn);
  const char *name = clang_getCString (s);
  int found = -1;
  for (int i = 0; i < n && found < 0; i++)
    if (!strcmp (name, table[i].from))
      found = i;
  clang_disposeString (s);
  if (found >= 0)
    {
      *callee = ref;
      *arg = clang_Cursor_getArgument (c, 0);
    }
  return found;
}

/* --- Local variables ------------------------------------------------- */

/* The entry of DECL in VT, added when missing; NULL when out of
   memory.  */
static nf_var *
nf_vars_get (nf_vars *vt, CXCursor decl)
{
  for (size_t i = 0; i < vt->n; i++)
    if (clang_equalCursors (vt->v[i].decl, decl))
      return &vt->v[i];
  if (vt->n == vt->cap)
    {
      size_t cap = vt->cap ? 2 * vt->cap : 32;
      nf_var *v = realloc (vt->v, cap * sizeof *v);
      if (!v)
	return NULL;
      vt->v = v;
      vt->cap = cap;
    }
  vt->v[vt->n] = (nf_var){ decl, 0, true };
  return &vt->v[vt->n++];
}

/* Whether the reference C, a child of PARENT, is a plain read of its
   variable: an lvalue-to-rvalue conversion, an implicit cast; anything
   else (=, +=, ++, &, sizeof) writes, addresses or is not understood.  */
static bool
nf_plain_read (CXCursor c, CXCursor parent)
{
  (void) c;
  return clang_getCursorKind (parent) == CXCursor_UnexposedExpr;
}

struct nf_vars_acc
{
  nf_vars *vt;
  int oom;
};

static enum CXChildVisitResult
nf_vars_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_vars_acc *acc = data;
  if (clang_getCursorKind (c) == CXCursor_DeclRefExpr)
    {
      CXCursor d = clang_getCursorReferenced (c);
      if (clang_getCursorKind (d) == CXCursor_VarDecl)
	{
	  nf_var *v = nf_vars_get (acc->vt, d);
	  if (!v)
	    {
	      acc->oom = 1;
	      return CXChildVisit_Break;
	    }
	  v->n_refs++;
	  if (!nf_plain_read (c, parent))
	    v->plain = false;
	}
    }
  return CXChildVisit_Recurse;
}

int
nf_vars_collect (CXCursor fn, nf_vars *vt)
{
  struct nf_vars_acc acc = { vt, 0 };
  vt->v = NULL;
  vt->n = vt->cap = 0;
  clang_visitChildren (fn, nf_vars_visit, &acc);
  return acc.oom ? -1 : 0;
}

void
nf_vars_free (nf_vars *vt)
{
  free (vt->v);
  vt->v = NULL;
  vt->n = vt->cap = 0;
}

const nf_var *
nf_vars_find (const nf_vars *vt, CXCursor decl)
{
  for (size_t i = 0; i < vt->n; i++)
    if (clang_equalCursors (vt->v[i].decl, decl))
      return &vt->v[i];
  return NULL;
}

const nf_var *
nf_ast_ssa_var (const nf_vars *vt, CXCursor c, CXCursor *init)
{
  c = nf_ast_strip_noop (c);
  if (clang_getCursorKind (c) != CXCursor_DeclRefExpr)
    return NULL;
  CXCursor d = clang_getCursorReferenced (c);
  if (clang_getCursorKind (d) != CXCursor_VarDecl
      || clang_Cursor_getStorageClass (d) != CX_SC_None
      || clang_getCursorKind (clang_getCursorSemanticParent (d))
	   != CXCursor_FunctionDecl)
    return NULL;
  CXType t = clang_getCursorType (d);
  if (!nf_elem_is_float (nf_ast_elem (t)) || clang_isVolatileQualifiedType (t))
    return NULL;
  const nf_var *v = nf_vars_find (vt, d);
  CXCursor in = clang_Cursor_getVarDeclInitializer (d);
  if (!v || !v->plain || clang_Cursor_isNull (in))
    return NULL;
  *init = in;
  return v;
}

/* What nf_param_visit looks for: a reference to PARM that is not a
   plain read (nf_plain_read).  */
struct nf_param_acc
{
  CXCursor parm;
  bool written;
};

static enum CXChildVisitResult
nf_param_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_param_acc *acc = data;
  if (clang_getCursorKind (c) == CXCursor_DeclRefExpr
      && clang_equalCursors (clang_getCursorReferenced (c), acc->parm)
      && !nf_plain_read (c, parent))
    {
      acc->written = true;
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* Whether the reference C (stripped) reads a variable that keeps its
   value between the two expressions nf_ast_same_expr compares: any
   non-volatile one within one expression, else a local never written
   (VT's plain ones) or a parameter never written in its function (an
   SSA default definition, to GCC).  */
static bool
nf_stable_ref (const nf_vars *vt, CXCursor c, bool same_expr)
{
  CXCursor d = clang_getCursorReferenced (c);
  enum CXCursorKind k = clang_getCursorKind (d);
  if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
      || clang_isVolatileQualifiedType (clang_getCursorType (d)))
    return false;
  if (same_expr)
    return true;
  if (k == CXCursor_VarDecl)
    {
      const nf_var *v = nf_vars_find (vt, d);
      return v && v->plain;
    }
  struct nf_param_acc acc = { d, false };
  clang_visitChildren (clang_getCursorSemanticParent (d), nf_param_visit,
		       &acc);
  return !acc.written;
}

bool
nf_ast_same_expr (const nf_vars *vt, CXCursor a, CXCursor b, bool same_expr)
{
  double va, vb;
  CXCursor ka[2], kb[2];
  a = nf_ast_strip_noop (a);
  b = nf_ast_strip_noop (b);
  enum CXCursorKind k = clang_getCursorKind (a);
  if (k != clang_getCursorKind (b)
      || !clang_equalTypes (clang_getCursorType (a), clang_getCursorType (b))
      || clang_isVolatileQualifiedType (clang_getCursorType (a)))
    return false;
  if (nf_ast_const (a, &va))
    return nf_ast_const (b, &vb) && va == vb && signbit (va) == signbit (vb);
  int n = nf_ast_children (a, ka, 2);
  if (n != nf_ast_children (b, kb, 2))
    return false;
  switch (k)
    {
    case CXCursor_DeclRefExpr:
      return clang_equalCursors (clang_getCursorReferenced (a),
				 clang_getCursorReferenced (b))
	     && nf_stable_ref (vt, a, same_expr);
    case CXCursor_BinaryOperator:
      switch (nf_ast_binop (a))
	{
	case CXBinaryOperator_Add:
	case CXBinaryOperator_Sub:
	case CXBinaryOperator_Mul:
	case CXBinaryOperator_Div:
	  break;
	default:
	  return false;
	}
      return n == 2 && nf_ast_binop (a) == nf_ast_binop (b)
	     && nf_ast_same_expr (vt, ka[0], kb[0], same_expr)
	     && nf_ast_same_expr (vt, ka[1], kb[1], same_expr);
    case CXCursor_UnaryOperator:
      return n == 1
	     && clang_getCursorUnaryOperatorKind (a) == CXUnaryOperator_Minus
	     && clang_getCursorUnaryOperatorKind (b) == CXUnaryOperator_Minus
	     && nf_ast_same_expr (vt, ka[0], kb[0], same_expr);
    case CXCursor_ArraySubscriptExpr:
      return same_expr && n == 2
	     && nf_ast_same_expr (vt, ka[0], kb[0], same_expr)
	     && nf_ast_same_expr (vt, ka[1], kb[1], same_expr);
    case CXCursor_MemberRefExpr:
      return same_expr && n == 1
	     && clang_equalCursors (clang_getCursorReferenced (a),
				    clang_getCursorReferenced (b))
	     && nf_ast_same_expr (vt, ka[0], kb[0], same_expr);
    default:
      /* A cast that changes the type (the types are equal): its operands'
	 types must be too.  */
      if (clang_Cursor_isNull (nf_ast_cast_operand (a)))
	return false;
      return nf_ast_same_expr (vt, nf_ast_cast_operand (a),
			       nf_ast_cast_operand (b), same_expr);
    }
}
