/* match-dot.c: the Dot matcher, anchored on a reduction: the dot product
   of two vectors and the matrix-vector product, the Neuron compiler's
   `Dot' (mhlo.dot_general once fused).

     p = a * b;  s = reduce_add (p, 0) over dim 0          (rank 1)
       => Dot (a, b) = s
     p = w * broadcast (x);  s = reduce_add (p, 0) over dim 1;
     store y, s                                             (rank 2)
       => Dot (w, x) = y, y[i] = sum_j w[i][j] * x[j]

   The rank-2 form is what a front end builds for a loop nest whose inner
   loop sums a row of w against x and whose outer loop stores each sum,
   llama2.c's matmul:

     for (i = 0; i < d; i++)
       { float val = 0.0f;
	 for (j = 0; j < n; j++) val += w[i * n + j] * x[j];
	 xout[i] = val; }

   Steps: 1. the reduction is an additive one of a product (through
   widening casts: a float product summed in double, _Float16 weights
   widened to float) of two different arrays; a product of one array by
   itself is a sum of squares, the norms' (no reason: not a candidate
   here); 2. the sum starts from 0 (a sum carried in from outside, or
   across rows, is not one dot product per row); 3. rank 1: both factors
   are contiguous vectors of the reduced dimension; rank 2: the sum runs
   along the rows (dimension 1), one factor is the matrix read row by row
   with contiguous elements, the other a vector broadcast over the rows;
   4. rank 2: each row's sum is stored, contiguously, once (the result
   is the stored value: y, through a narrowing conversion).

   The factors are M->input (the matrix, or a) and M->weight (the vector,
   or b); M->accum is the sum's type.  Limitations: no bias (y[i] = b[i]
   + sum: the sum would not start from 0), no matrix-matrix nest, no
   transposed matrix (a sum down the columns); strided vectors are not
   contiguous (reported).

   nf_dot_nest_region builds the rank-2 region of a nest from what a
   front end found in it (struct nf_dot_nest_facts): both front ends
   hand the same facts to it, so that the plugin's and neuronfuse-clang's
   regions, dumps and reports agree.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <string.h>

#include "match-util.h"
#include "reasons.h"

/* V with widening float CONVERTs and BROADCASTs looked through (each
   added to L), and whether a BROADCAST was among them (*BCAST).  */
static nf_value
nf_dot_factor (const nf_region *r, nf_value v, nf_oplist *l, bool *bcast)
{
  *bcast = false;
  for (int i = 0; i < 4; i++)
    {
      nf_value w = nf_strip_widen (r, v, l);
      if (nf_op (r, w) != NF_OP_BROADCAST)
	return w;
      *bcast = true;
      nf_oplist_add (l, w);
      v = nf_op_operand (r, w, 0);
    }
  return v;
}

/* Step 3 for rank 1: A and B contiguous vectors.  */
static const char *
nf_dot_vectors (const nf_region *r, nf_value a, nf_value b)
{
  if (nf_op (r, a) != NF_OP_LOAD || nf_op (r, b) != NF_OP_LOAD)
    return "a factor of the product is not an array in memory";
  if (nf_access_stride (r, a) != 1 || nf_access_stride (r, b) != 1)
    return "a factor of the product is not contiguous";
  return NULL;
}

/* Step 3 for rank 2: *W the matrix, read row by row, and *X the vector
   broadcast over its rows (in either order, as A and B with ABCAST and
   BBCAST saying which was broadcast).  */
static const char *
nf_dot_matrix (const nf_region *r, nf_value *w, nf_value *x, bool abcast,
	       bool bbcast)
{
  if (abcast == bbcast)
    return abcast ? NF_WHY_DOT_NO_ROWS : NF_WHY_DOT_BOTH_ROWS;
  if (abcast)
    {
      nf_value t = *w;
      *w = *x;
      *x = t;
    }
  if (nf_op (r, *w) != NF_OP_LOAD || nf_op (r, *x) != NF_OP_LOAD)
    return "a factor of the product is not an array in memory";
  nf_type wt = nf_value_type (r, *w), xt = nf_value_type (r, *x);
  if (wt.rank != 2 || xt.rank != 1)
    return "the vector is not one row long";
  if (nf_access_stride (r, *w) != 1)
    return "the matrix's inner index is not contiguous (a column-major or "
	   "strided matrix)";
  int64_t rs = nf_access_row_stride (r, *w);
  if (rs != NF_ROWS_DENSE
      && !(wt.dims[1].sym < 0 && rs == wt.dims[1].extent))
    return "the matrix's rows are not one after another";
  if (nf_access_stride (r, *x) != 1)
    return "the vector is not contiguous";
  return NULL;
}

/* Step 4: the contiguous rank-1 STORE of S (through narrowing float
   conversions, added to L): the stored value in *RESULT.  */
static const char *
nf_dot_stored (const nf_region *r, nf_value s, nf_oplist *l, nf_value *result)
{
  nf_value via = s;
  nf_value u = nf_user_through_casts (r, s, l, &via);
  if (nf_op (r, u) != NF_OP_STORE || nf_value_escapes (r, via))
    return NF_WHY_DOT_NOT_ONLY_STORED;
  if (nf_value_type (r, via).rank != 1 || nf_access_stride (r, u) != 1)
    return NF_WHY_DOT_STORE_STRIDE;
  *result = via;
  return NULL;
}

bool
nf_match_dot (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_match_init (m, NF_KIND_DOT, anchor);
  if (nf_op (r, anchor) != NF_OP_REDUCE
      || nf_reduce_combiner (r, anchor) != NF_OP_ADD)
    return false;
  nf_oplist l = { .n = 0 };
  /* Step 1.  */
  nf_value p = nf_strip_widen (r, nf_op_operand (r, anchor, 0), &l);
  if (nf_op (r, p) != NF_OP_MUL)
    return false;
  bool abcast, bbcast;
  nf_value a = nf_dot_factor (r, nf_op_operand (r, p, 0), &l, &abcast);
  nf_value b = nf_dot_factor (r, nf_op_operand (r, p, 1), &l, &bbcast);
  if (nf_same_value (r, a, b))
    return false; /* A sum of squares: the norms'.  */
  nf_type t = nf_value_type (r, p);
  if (!nf_elem_is_float (t.elem))
    return false;
  /* Step 2.  */
  if (!nf_is_const (r, nf_op_operand (r, anchor, 1), 0.0))
    return nf_match_fail (m, NF_WHY_DOT_INIT);
  const char *why;
  m->accum = nf_value_type (r, anchor).elem;
  if (t.rank == 1 && (abcast || bbcast))
    return false; /* A scaled sum: no product of two vectors.  */
  if (t.rank == 1 && nf_reduce_dims (r, anchor) == 1u)
    {
      /* Step 3, rank 1.  */
      if ((why = nf_dot_vectors (r, a, b)))
	return nf_match_fail (m, why);
      m->result = anchor;
    }
  else if (t.rank == 2 && nf_reduce_dims (r, anchor) == 2u)
    {
      /* Steps 3 and 4, rank 2.  */
      if ((why = nf_dot_matrix (r, &a, &b, abcast, bbcast)))
	return nf_match_fail (m, why);
      nf_oplist_add (&l, p);
      nf_oplist_add (&l, anchor);
      if ((why = nf_dot_stored (r, anchor, &l, &m->result)))
	return nf_match_fail (m, why);
      m->input = a;
      m->weight = b;
      m->reduce_dims = 2u;
      return nf_match_accept (r, m, &l);
    }
  else if (t.rank == 2)
    return nf_match_fail (m, "the sum runs down the columns (a transposed "
			     "matrix)");
  else
    return false;
  nf_oplist_add (&l, p);
  nf_oplist_add (&l, anchor);
  m->input = a;
  m->weight = b;
  m->reduce_dims = 1u;
  return nf_match_accept (r, m, &l);
}

nf_region *
nf_dot_nest_region (const struct nf_dot_nest_facts *f, nf_match *m,
		    const char **why)
{
  nf_region *r = nf_region_new (f->function);
  *why = NULL;
  memset (m, 0, sizeof *m);
  if (!r)
    return *why = "out of memory", NULL;
  nf_region_set_loc (r, f->loc);
  int dsym = nf_region_add_sym (r, "d", NF_NO_VALUE);
  int nsym = nf_region_add_sym (r, f->n_name ? f->n_name : "n", NF_NO_VALUE);
  nf_dim dd = nf_sym_dim (dsym), dn = nf_sym_dim (nsym);
  nf_type mat = nf_tensor2_type (f->welt, dd, dn);
  nf_type vec = nf_tensor1_type (f->xelt, dn);
  nf_type out = nf_tensor1_type (f->yelt, dd);
  nf_value wp = nf_param (r, f->w_label ? f->w_label : "w", mat, true);
  nf_value xp = nf_param (r, f->x_label ? f->x_label : "x", vec, true);
  nf_value yp = nf_param (r, f->y_label ? f->y_label : "y", out, true);
  nf_value wv = nf_load (r, wp, mat, 0, 1, NF_ROWS_DENSE);
  nf_value xv = nf_load (r, xp, vec, 0, 1, 0);
  /* The factors' conversions to the product's type, as the row had.  */
  if (nf_value_type (r, wv).elem != f->prod)
    wv = nf_convert (r, wv, f->prod);
  if (nf_value_type (r, xv).elem != f->prod)
    xv = nf_convert (r, xv, f->prod);
  xv = nf_broadcast (r, xv, nf_tensor2_type (f->prod, dd, dn));
  nf_value p = f->w_first ? nf_binary (r, NF_OP_MUL, wv, xv)
			  : nf_binary (r, NF_OP_MUL, xv, wv);
  if (f->accum != f->prod)
    p = nf_convert (r, p, f->accum);
  nf_value zero = nf_const (r, nf_scalar_type (f->accum), 0.0);
  nf_value s = nf_reduce (r, p, zero, NF_OP_ADD, 2u);
  nf_value sv = s;
  if (f->store_converts || f->yelt != f->accum)
    sv = nf_convert (r, s, f->yelt);
  nf_store (r, yp, sv, 0, 1, 0);
  if (s == NF_NO_VALUE || !nf_match_dot (r, s, m))
    {
      *why = m->reason ? m->reason : NF_WHY_DOT_NEST;
      nf_match_release (m);
      nf_region_free (r);
      return NULL;
    }
  return r;
}
