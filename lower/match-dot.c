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

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"

/* Why a reduction of a product from a value other than 0 is no Dot.  */
#define NF_WHY_DOT_INIT "the sum does not start from 0"

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
    return abcast ? "both factors are the same for every row"
		  : "both factors advance with the row";
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
    return "the row sums are not only stored";
  if (nf_value_type (r, via).rank != 1 || nf_access_stride (r, u) != 1)
    return "the row sums are not stored contiguously";
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
