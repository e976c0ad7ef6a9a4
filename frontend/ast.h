/* ast.h: small questions about libclang cursors that the IR builder and
   the rewrite ask: children, types, constants, offsets in the main file,
   calls of known math functions, and the local variables that can be
   read through (the source-level stand-in for GIMPLE's SSA names).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_AST_H
#define NF_AST_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

/* Store up to MAX children of C in OUT; returns how many C has.  */
int nf_ast_children (CXCursor c, CXCursor *out, int max);

/* The element type of the scalar type T (NF_ELEM_NONE for others).  */
enum nf_elem nf_ast_elem (CXType t);
/* Whether T is an unsigned integer type (bool included).  */
bool nf_ast_unsigned (CXType t);

/* C's binary operator kind, or CXBinaryOperator_Invalid when C is not a
   BinaryOperator (compound assignments are not).  */
enum CXBinaryOperatorKind nf_ast_binop (CXCursor c);

/* C's operand of a cast (implicit or written), or a null cursor when C
   is no cast.  */
CXCursor nf_ast_cast_operand (CXCursor c);

/* C without parentheses and casts that keep the element type (lvalue to
   rvalue, int to unsigned...).  */
CXCursor nf_ast_strip_noop (CXCursor c);

/* Whether C (stripped) converts a floating value to another floating
   type; then *INNER is the operand.  */
bool nf_ast_float_convert (CXCursor c, CXCursor *inner);

/* Whether C is a constant expression of literals (through parentheses,
   casts and unary +/-); then *V is its value as a double.  */
bool nf_ast_const (CXCursor c, double *v);

/* Byte offsets of the start and end of C's extent in the main file
   (expansion locations: a macro use counts as its whole invocation).  */
size_t nf_ast_begin (CXCursor c);
size_t nf_ast_end (CXCursor c);
/* The line (of its expansion) where C's extent ends: the report's
   "end_line" of a region whose last statement is C.  */
unsigned nf_ast_end_line (CXCursor c);

/* Whether C is written in the main file.  */
bool nf_ast_in_main_file (CXCursor c);

/* The location (byte offset, line, column) of the operator token of the
   binary operator C of TU: the first token after its left operand.
   Returns false when it cannot be found.  */
bool nf_ast_operator_loc (CXTranslationUnit tu, CXCursor c, size_t *offset,
			  unsigned *line, unsigned *column);

/* A math function and its accurate replacement.  */
struct nf_mathname
{
  const char *from, *to; /* "expf", "expm1f".  */
  const char *report;	 /* Callee in the report: "expm1f".  */
};

extern const struct nf_mathname nf_exp_names[6];
extern const struct nf_mathname nf_log_names[6];

/* If C is a call with one argument of a function of TABLE (N entries),
   declared with external linkage and called directly, returns its index
   and sets *CALLEE to the callee's name reference (and *ARG to the
   argument); else -1.  */
int nf_ast_math_call (CXCursor c, const struct nf_mathname *table, int n,
		      CXCursor *callee, CXCursor *arg);

/* --- Local variables ------------------------------------------------- */

/* What the function says about one local variable.  */
typedef struct nf_var
{
  CXCursor decl;
  int n_refs; /* References in the function.  */
  bool plain; /* Every reference is a plain read.  */
} nf_var;

typedef struct nf_vars
{
  nf_var *v;
  size_t n, cap;
} nf_vars;

/* Fill VT with the variables referenced in the body of function FN.
   Returns 0, or -1 when out of memory.  */
int nf_vars_collect (CXCursor fn, nf_vars *vt);
void nf_vars_free (nf_vars *vt);

/* The entry of DECL, or NULL.  */
const nf_var *nf_vars_find (const nf_vars *vt, CXCursor decl);

/* If C (stripped) reads a variable that stands for its initializer as an
   SSA name would: a non-static, non-volatile local of floating type with
   an initializer, never written nor addressed.  Returns its entry and
   sets *INIT to the initializer; else NULL.  */
const nf_var *nf_ast_ssa_var (const nf_vars *vt, CXCursor c, CXCursor *init);

/* Whether the expressions A and B of one function (whose variables are
   VT) have the same value without side effects, as GCC's value
   numbering would find for two statements computing them: constants of
   one value, reads of one variable, the same arithmetic (+ - * /, unary
   -, casts to one type) on operands of the same value, and, when
   SAME_EXPR says that A and B are in one expression with nothing else
   evaluated between, array elements and members of the same address.
   Across statements only variables never written (ast.h's plain ones)
   are read.  Anything else (calls, assignments, volatile reads) is only
   the same as itself: false.  */
bool nf_ast_same_expr (const nf_vars *vt, CXCursor a, CXCursor b,
		       bool same_expr);

#endif /* NF_AST_H */
