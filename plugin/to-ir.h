/* to-ir.h: GIMPLE expressions to the region IR of lower/ (ir.h), with the
   map back from region values to the trees they stand for.  Include after
   the lower/ headers and gcc-common.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_TO_IR_H
#define NF_TO_IR_H

#define NF_EXPR_MAX 16

/* The element type of the scalar type TYPE (NF_ELEM_NONE for others).  */
enum nf_elem nf_elem_of (tree type);

/* The value of the INTEGER_CST or REAL_CST T as a double.  */
double nf_cst_value (tree t);

/* A region built from the expression around one statement.  */
struct nf_expr_region
{
  nf_region *r;
  int n;			/* Values built so far.  */
  tree trees[NF_EXPR_MAX];	/* Value id -> the SSA name or constant.  */
};

/* Start G for a region of the current function.  Returns false when out
   of memory.  */
bool nf_expr_init (struct nf_expr_region *g);
void nf_expr_fini (struct nf_expr_region *g);

/* The tree value V stands for (its SSA name, constant or parameter).  */
tree nf_expr_tree (const struct nf_expr_region *g, nf_value v);

/* The Expm1 candidate at STMT, an assignment A +- B: its operands
   expanded through widening float conversions down to exp/expf/expl
   calls, whose arguments are region parameters.  Returns the value of
   STMT, or NF_NO_VALUE.  */
nf_value nf_expr_expm1 (struct nf_expr_region *g, gimple *stmt);

/* The Log1p candidate at CALL, a call of log/logf/logl: its argument
   expanded through widening float conversions down to one addition or
   subtraction, whose operands are constants or region parameters.
   Returns the value of CALL, or NF_NO_VALUE.  */
nf_value nf_expr_log1p (struct nf_expr_region *g, gcall *call);

#endif /* NF_TO_IR_H */
