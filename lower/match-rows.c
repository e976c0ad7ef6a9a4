/* match-rows.c: the rank-2 region of a row loop around an RMSNorm
   (rows.h), what a front end builds once it has found

     for (r = 0; r < rows; r++)
       { ss = sum_j x[r*n + j]^2;  k = 1 / sqrt (ss / n + eps);
	 for (j ...) y[r*n + j] = w[j] * (k * x[r*n + j]); }

   as one region: x and y ROWS x N, rows one after another; the sum over
   dimension 1, one per row; k broadcast over the row, the weight (one
   row of N) broadcast over the rows.  nf_match_rmsnorm takes it as it
   takes one row (match-reduce.c), and nf_call_plan gives the rows
   kernel (call.c).  The front end has checked the row's own region with
   the matcher already: this region is its canonical form for the plan,
   the report and the dumps, as nf_dot_nest_region is for Dot.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <string.h>

#include "rows.h"

nf_value
nf_rmsnorm_rows_body (nf_region *r, const struct nf_rmsnorm_rows_facts *f,
		      nf_value xp, nf_value yp, nf_value wp, nf_value np,
		      nf_value eps, nf_type xt, nf_type wt)
{
  /* Rows (rank 2) are dense, their sum over the last dimension; the
     weight, one row, is broadcast over them.  */
  int rank = xt.rank;
  unsigned dense = rank == 2 ? NF_ROWS_DENSE : 0;
  nf_type at = xt;
  at.elem = f->accum;
  nf_value x = nf_load (r, xp, xt, 0, 1, dense);
  nf_value xa = f->accum != f->elem ? nf_convert (r, x, f->accum) : x;
  nf_value ss = nf_reduce (r, nf_binary (r, NF_OP_MUL, xa, xa),
			   nf_const (r, nf_scalar_type (f->accum), 0),
			   NF_OP_ADD, 1u << (rank - 1));
  nf_value mean = nf_binary (r, NF_OP_DIV, ss, nf_convert (r, np, f->accum));
  if (f->eps_elem != f->accum)
    eps = nf_convert (r, eps, f->accum);
  nf_value k = nf_binary (
    r, NF_OP_DIV, nf_const (r, nf_scalar_type (f->accum), 1),
    nf_unary (r, NF_OP_SQRT, nf_binary (r, NF_OP_ADD, mean, eps)));
  /* The scaling loop's own widening of x, as a builder makes it.  */
  nf_value xs = f->accum != f->elem ? nf_convert (r, x, f->accum) : x;
  nf_value y = nf_binary (r, NF_OP_MUL, xs, nf_broadcast (r, k, at));
  if (f->weight)
    {
      nf_value w = nf_load (r, wp, wt, 0, 1, 0);
      if (f->accum != f->elem)
	w = nf_convert (r, w, f->accum);
      y = nf_binary (r, NF_OP_MUL, y, rank == 2 ? nf_broadcast (r, w, at) : w);
    }
  if (f->accum != f->elem)
    y = nf_convert (r, y, f->elem);
  nf_store (r, yp, y, 0, 1, dense);
  return ss;
}

nf_region *
nf_rmsnorm_rows_region (const struct nf_rmsnorm_rows_facts *f, nf_match *m,
			const char **why)
{
  nf_region *r = nf_region_new (f->function);
  *why = NULL;
  memset (m, 0, sizeof *m);
  if (!r)
    return *why = "out of memory", NULL;
  nf_region_set_loc (r, f->loc);
  nf_type i64 = nf_scalar_type (NF_ELEM_I64);
  const char *n_name = f->n_name ? f->n_name : "n";
  nf_value rp = nf_param (r, "rows", i64, false);
  nf_value np = nf_param (r, n_name, i64, false);
  nf_dim dr = nf_sym_dim (nf_region_add_sym (r, "rows", rp));
  nf_dim dn = nf_sym_dim (nf_region_add_sym (r, n_name, np));
  nf_type mat = nf_tensor2_type (f->elem, dr, dn);
  nf_type row = nf_tensor1_type (f->elem, dn);
  nf_value xp = nf_param (r, f->x_label ? f->x_label : "x", mat, true);
  nf_value yp = nf_param (r, f->y_label ? f->y_label : "y", mat, true);
  nf_value wp = f->weight ? nf_param (r, f->w_label ? f->w_label : "w", row,
				      true)
			  : NF_NO_VALUE;
  nf_value eps
    = f->eps_const
	? nf_const (r, nf_scalar_type (f->eps_elem), f->eps_value)
	: nf_param (r, f->eps_name ? f->eps_name : "eps",
		    nf_scalar_type (f->eps_elem), false);
  nf_value ss = nf_rmsnorm_rows_body (r, f, xp, yp, wp, np, eps, mat, row);
  if (ss == NF_NO_VALUE || !nf_match_rmsnorm (r, ss, m))
    {
      *why = m->reason ? m->reason : "the row loop is no RMSNorm of rows";
      nf_match_release (m);
      nf_region_free (r);
      return NULL;
    }
  return r;
}
