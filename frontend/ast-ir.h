/* ast-ir.h: libclang expressions to the region IR of lower/ (ir.h), with
   the map back from region values to the cursors they stand for.  The
   same graphs as the plugin's plugin/to-ir.cc builds from GIMPLE, so
   that lower/'s matchers decide alike for both front ends.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_AST_IR_H
#define NF_AST_IR_H

#include "ast.h"
#include "ir.h"

#define NF_AST_MAX 16

/* A region built from the expression around one anchor.  */
struct nf_ast_region
{
  nf_region *r;
  const nf_vars *vars;		 /* The function's local variables.  */
  int n;			 /* Values built so far.  */
  CXCursor cursors[NF_AST_MAX];	 /* Value id -> the expression.  */
  const nf_var *via[NF_AST_MAX]; /* Value id -> the variable it was read
				    through, or NULL.  */
  nf_value src_b;		 /* The Expm1 candidate's second operand as
				    written, before nf_canonical_binary.  */
  bool narrow_math;		 /* (float) exp ((double) xf) is expf (xf),
				    as GCC folds it under
				    -funsafe-math-optimizations
				    -fno-math-errno: set by the caller.  */
  /* The tanh quotient's first exp argument (a null cursor until it is
     built), its value, and whether its call is written in the quotient
     (not read through a variable): a second exp of the same argument
     reads that value (nf_ast_same_expr).  */
  CXCursor arg1;
  nf_value arg1_v;
  bool arg1_direct, direct;
};

/* Start G for a region of FUNCTION whose local variables are VARS.
   Returns false when out of memory.  */
bool nf_ast_region_init (struct nf_ast_region *g, const char *function,
			 const nf_vars *vars);
void nf_ast_region_fini (struct nf_ast_region *g);

/* The expression value V stands for (a null cursor when none).  */
CXCursor nf_ast_value_cursor (const struct nf_ast_region *g, nf_value v);

/* The Expm1 candidate at C, a floating A + B or A - B: its operands
   expanded through floating conversions (and variables that stand for
   their initializer) down to exp/expf/expl calls, whose arguments are
   region parameters.  Returns the value of C, or NF_NO_VALUE when C is
   no candidate.  */
nf_value nf_ast_expm1 (struct nf_ast_region *g, CXCursor c);

/* The Log1p candidate at CALL, a call of log/logf/logl: its argument
   expanded through floating conversions (and variables) down to one
   addition or subtraction, whose operands are constants or region
   parameters.  Returns the value of CALL, or NF_NO_VALUE.  */
nf_value nf_ast_log1p (struct nf_ast_region *g, CXCursor call);

/* The tanh quotient candidate at C, a floating A / B: A and B as
   nf_ast_expm1 builds its operands, the second exp's argument the value
   of the first's when it is the same expression (nf_ast_same_expr).
   Returns the value of C, or NF_NO_VALUE when C is no division.  */
nf_value nf_ast_tanh (struct nf_ast_region *g, CXCursor c);

#endif /* NF_AST_IR_H */
