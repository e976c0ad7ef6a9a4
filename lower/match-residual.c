/* match-residual.c: the residual add then RMSNorm (residual.h).

     for (i = 0; i < n; i++) x[i] += r[i];        nf_add_rmsnorm_f32 (y, x,
     <RMSNorm of x into y, weight w, eps>    =>     r, w, n, eps);

   The front end made the RMSNorm a call already (its own region,
   matched as usual); the loop before it is a one-loop region of its own
   whose store nf_match_residual_loop checks: the stored array plus one
   other array, element by element, nothing else.  The two are then one
   region, built here from what the front end found, as match-rows.c
   builds the rows: x + r stored into x, the sum of squares, the
   scaling and the store of y, over a reload of x (what the second loop
   reads), which nf_match_rmsnorm takes as any RMSNorm; the add, its
   loads and its store join the match's cluster, and M->residual is the
   load of r, which nf_call_plan turns into the call's R.

   Limitations: x and r from their first element, one element type
   (float or double: the kernels' two); a residual written into another
   array (llm.c's out = a + b) is no add in place, and stays a loop.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <string.h>

#include "cluster.h"
#include "residual.h"

/* Whether V is a LOAD from the first element of an array of rank 1.  */
static bool
nf_residual_load_p (const nf_region *r, nf_value v)
{
  return nf_op (r, v) == NF_OP_LOAD && nf_access_offset (r, v) == 0
	 && nf_value_type (r, v).rank == 1;
}

bool
nf_match_residual_loop (const nf_region *r, nf_value store, nf_value *x,
			nf_value *res)
{
  if (store == NF_NO_VALUE || nf_op (r, store) != NF_OP_STORE
      || nf_access_offset (r, store) != 0)
    return false;
  nf_value sum = nf_op_operand (r, store, 0);
  enum nf_elem e = nf_value_type (r, sum).elem;
  if (nf_op (r, sum) != NF_OP_ADD || (e != NF_ELEM_F32 && e != NF_ELEM_F64))
    return false;
  nf_value base = nf_access_base (r, store);
  for (int i = 0; i < 2; i++)
    {
      nf_value a = nf_op_operand (r, sum, i);
      nf_value b = nf_op_operand (r, sum, 1 - i);
      if (!nf_residual_load_p (r, a) || !nf_residual_load_p (r, b)
	  || nf_access_base (r, a) != base || nf_access_base (r, b) == base
	  || nf_value_type (r, a).elem != e || nf_value_type (r, b).elem != e)
	continue;
      *x = base;
      *res = nf_access_base (r, b);
      return true;
    }
  return false;
}

nf_region *
nf_add_rmsnorm_region (const struct nf_rmsnorm_rows_facts *f,
		       const char *r_label, nf_match *m, const char **why)
{
  nf_region *r = nf_region_new (f->function);
  *why = NULL;
  memset (m, 0, sizeof *m);
  if (!r)
    return *why = "out of memory", NULL;
  nf_region_set_loc (r, f->loc);
  nf_type i64 = nf_scalar_type (NF_ELEM_I64);
  const char *n_name = f->n_name ? f->n_name : "n";
  nf_value np = nf_param (r, n_name, i64, false);
  nf_dim dn = nf_sym_dim (nf_region_add_sym (r, n_name, np));
  nf_type vec = nf_tensor1_type (f->elem, dn);
  nf_value xp = nf_param (r, f->x_label ? f->x_label : "x", vec, true);
  nf_value rp = nf_param (r, r_label ? r_label : "r", vec, true);
  nf_value yp = nf_param (r, f->y_label ? f->y_label : "y", vec, true);
  nf_value wp = f->weight ? nf_param (r, f->w_label ? f->w_label : "w", vec,
				      true)
			  : NF_NO_VALUE;
  nf_value eps
    = f->eps_const
	? nf_const (r, nf_scalar_type (f->eps_elem), f->eps_value)
	: nf_param (r, f->eps_name ? f->eps_name : "eps",
		    nf_scalar_type (f->eps_elem), false);
  /* The residual loop: x[i] = x[i] + r[i].  */
  nf_value x0 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value r0 = nf_load (r, rp, vec, 0, 1, 0);
  nf_value sum = nf_binary (r, NF_OP_ADD, x0, r0);
  nf_value xst = nf_store (r, xp, sum, 0, 1, 0);
  /* The RMSNorm's loops, reading the new x.  */
  nf_value ss = nf_rmsnorm_rows_body (r, f, xp, yp, wp, np, eps, vec, vec);
  if (ss == NF_NO_VALUE || xst == NF_NO_VALUE
      || !nf_match_rmsnorm (r, ss, m))
    {
      *why = m->reason ? m->reason : "the loops are no RMSNorm";
      nf_match_release (m);
      nf_region_free (r);
      return NULL;
    }
  /* The add joins the cluster.  */
  nf_value ops[64];
  int n = 0;
  for (int i = 0; i < nf_cluster_size (m->cluster) && n < 60; i++)
    ops[n++] = nf_cluster_op (m->cluster, i);
  ops[n++] = x0;
  ops[n++] = r0;
  ops[n++] = sum;
  ops[n++] = xst;
  nf_cluster *c = nf_cluster_new (r, nf_kind_name (m->kind), ops, n);
  if (!c)
    {
      *why = "out of memory";
      nf_match_release (m);
      nf_region_free (r);
      return NULL;
    }
  nf_cluster_free (m->cluster);
  m->cluster = c;
  m->residual = r0;
  return r;
}
