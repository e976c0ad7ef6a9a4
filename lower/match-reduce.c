/* match-reduce.c: the matchers anchored on a reduction: MulRedSqrt (the
   L2 norm) and RMSNorm, which share the sum-of-squares core.

   MulRedSqrt, as the Neuron compiler's pass but stricter (it never checks
   the reduction's body):

     sq = x * x;  s = reduce_add (sq, 0);  r = sqrt (s)
       => MulRedSqrt (x) = r

   RMSNorm, the core extended up to the scaled output (notes/
   fusion-variants-and-ir-syntax.md s. 6 lists the variants):

     s = reduce_add (x * x, 0)                  (x * x or pow (x, 2))
     m = s / n  |  s * (1 / n)  |  s / (float) n
     a = m + eps  |  eps + m
     k = 1 / sqrt (a)  |  rsqrt (a)  |  pow (a, -0.5)   -- then y = x*k*w
       or q = sqrt (a)                                  -- then y = x*w/q
     y = x * k * w in any association and order, w optional
       => RMSNorm (x, w, eps) = y

   Steps: 1. the sum-of-squares core (nf_match_sumsq): a REDUCE whose
   input is a product of one value by itself, through widening casts,
   on its way to a root (anything else is no candidate at all, so gets
   no missed entry: a dot product, a matrix-vector product, a sum of
   squares returned as is);
   2. walk the single-use chain down from the reduce, one stage at a time,
   each stage's guard giving its own reason; 3. flatten the product tree
   of the output and check its leaves are exactly x, the scale and at most
   one weight indexed like x; last, x must be an array in memory (the
   kernels' input).  Casts between float types are allowed
   anywhere (f16/f32 storage with a wider accumulator); anything else
   between normalisation and gain rejects.

   Rows: x may be a 2-D tensor (rows of n contiguous elements) reduced
   over its last dimension; the weight is then one row broadcast over
   all rows.  Limitations: a per-row eps is rejected as not
   loop-invariant; the weight must have x's element stride.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"

#include <math.h>
#include <string.h>

/* The near miss 1 / (sqrt (mean) + eps): RMSNorm's reason, also read by
   nf_match_norm, which then does not fuse the RMS under it alone.  */
#define NF_WHY_EPS_OUTSIDE "eps is added outside the sqrt"

/* Whether V flows, through at most DEPTH of its users no wider than
   RANK (the reduction's own rank: a scalar, or one value per row), into
   a root: sqrt, rsqrt or a constant power (pow (.., -0.5), and
   pow (.., -1) as a near miss of it).  A sum of squares that never
   reaches one (returned as is, a mean squared error) is no near miss of
   a norm.  */
static bool
nf_reaches_root (const nf_region *r, nf_value v, int rank, int depth)
{
  for (nf_value u = v + 1; u < nf_region_n_values (r); u++)
    {
      bool uses = false;
      for (int i = 0; i < nf_op_n_operands (r, u); i++)
	uses |= nf_op_operand (r, u, i) == v;
      /* No wider than the sum: a norm is a root of the sum itself, not
	 of an elementwise value it is added into (a quantizer's weights,
	 sqrtf (sigma2 + x[j] * x[j])).  */
      if (!uses || nf_value_type (r, u).rank > rank)
	continue;
      enum nf_opcode op = nf_op (r, u);
      if (op == NF_OP_SQRT || op == NF_OP_RSQRT
	  || (op == NF_OP_POW
	      && nf_op (r, nf_op_operand (r, u, 1)) == NF_OP_CONST))
	return true;
      if (depth > 0 && op != NF_OP_STORE && op != NF_OP_REDUCE
	  && nf_reaches_root (r, u, rank, depth - 1))
	return true;
    }
  return false;
}

/* Step 1.  If ANCHOR is reduce_add (x * x, 0), add its ops to L, set *X
   to the squared value (casts looked through) and return true.  Returns
   false with M->reason set for a sum of squares on its way to a root
   that breaks a guard, with no reason when ANCHOR is no candidate: not a
   sum of products, a product of two different values (a dot product, a
   matrix-vector product: no near miss of a norm), or a sum that reaches
   no root.  X may be computed (a difference, a scaled element): the
   idiom holds, and the matchers' last guard says that no kernel takes
   it (nf_match_array_input).  */
static bool
nf_match_sumsq (const nf_region *r, nf_value anchor, nf_match *m,
		nf_oplist *l, nf_value *x, nf_value *x2)
{
  if (nf_op (r, anchor) != NF_OP_REDUCE)
    return false;
  nf_value in = nf_op_operand (r, anchor, 0);
  nf_oplist chain = { { 0 }, 0 };	/* Casts between the square and it.  */
  nf_value p = nf_strip_widen (r, in, &chain);
  nf_value a, b;
  if (nf_op (r, p) == NF_OP_MUL)
    {
      a = nf_op_operand (r, p, 0);
      b = nf_op_operand (r, p, 1);
    }
  else if (nf_op (r, p) == NF_OP_POW
	   && nf_is_const (r, nf_op_operand (r, p, 1), 2.0))
    a = b = nf_op_operand (r, p, 0);
  else
    return false;		/* Not a sum of products.  */

  nf_oplist casts = { { 0 }, 0 };
  nf_value as = nf_strip_widen (r, a, &casts);
  nf_value bs = nf_strip_widen (r, b, &casts);
  if (!nf_same_value (r, as, bs))
    return false;		/* x * y: not a square.  */
  if (!nf_reaches_root (r, anchor, nf_value_type (r, anchor).rank, 6))
    return false;		/* No norm: not a candidate.  */
  if (nf_reduce_combiner (r, anchor) != NF_OP_ADD)
    return nf_match_fail (m, "the reduction does not add");
  if (!nf_is_const (r, nf_op_operand (r, anchor, 1), 0.0))
    return nf_match_fail (m, "the reduction does not start from 0");
  if (nf_value_type (r, as).rank == 0)
    return nf_match_fail (m, "the squared value is not an array");
  /* The square and the casts after it feed only the reduction.  */
  for (nf_value v = p; v != in; v = nf_value_single_user (r, v))
    if (v == NF_NO_VALUE || nf_value_escapes (r, v))
      return nf_match_fail (m, "the square x * x is also used elsewhere");
  if (nf_value_single_user (r, in) != anchor)
    return nf_match_fail (m, "the square x * x is also used elsewhere");

  for (int i = 0; i < casts.n; i++)
    nf_oplist_add (l, casts.v[i]);
  nf_oplist_add (l, p);
  for (int i = 0; i < chain.n; i++)
    nf_oplist_add (l, chain.v[i]);
  nf_oplist_add (l, anchor);
  m->input = as;
  m->reduce_dims = nf_reduce_dims (r, anchor);
  m->accum = nf_value_type (r, anchor).elem;
  *x = as;
  if (x2)
    *x2 = bs;
  return true;
}

/* The last guard of both matchers: the kernels read x from memory, so
   an idiom over a computed x (the norm of a difference, the RMSNorm of
   a residual sum x[i] + r[i]) has none yet.  Returns false with the
   reason WHAT when M->input is no LOAD.  */
static bool
nf_match_array_input (const nf_region *r, nf_match *m, const char *what)
{
  if (nf_op (r, m->input) == NF_OP_LOAD)
    return true;
  return nf_match_fail (m, what);
}

/* The single user of V through float casts and broadcasts (each added to
   L); *VIA is the value the user reads.  NF_NO_VALUE when V (or a cast on
   the way) has several users or escapes.  */
static nf_value
nf_user_through_bcast (const nf_region *r, nf_value v, nf_oplist *l,
		       nf_value *via)
{
  nf_value u = nf_value_single_user (r, v);
  while (u != NF_NO_VALUE
	 && (nf_op (r, u) == NF_OP_BROADCAST
	     || (nf_op (r, u) == NF_OP_CONVERT
		 && nf_elem_is_float (nf_value_type (r, u).elem))))
    {
      nf_oplist_add (l, u);
      v = u;
      u = nf_value_single_user (r, u);
    }
  *via = v;
  return u;
}

/* The other operand of the binary op U than VIA.  */
static nf_value
nf_other_operand (const nf_region *r, nf_value u, nf_value via)
{
  nf_value a = nf_op_operand (r, u, 0);
  return a == via ? nf_op_operand (r, u, 1) : a;
}

/* Whether V (through any converts, added to L) is the trip count of
   dimension D: the value defining its symbol, or its constant extent.  */
static bool
nf_is_trip_count (const nf_region *r, nf_value v, nf_dim d, nf_oplist *l)
{
  while (nf_op (r, v) == NF_OP_CONVERT)
    {
      nf_oplist_add (l, v);
      v = nf_op_operand (r, v, 0);
    }
  if (d.sym >= 0)
    return v == nf_region_sym_value (r, d.sym) && v != NF_NO_VALUE;
  return nf_is_const (r, v, (double) d.extent);
}

/* Whether V is 1 / trip count of D: 1 / n, or a constant within float
   rounding of 1 / extent.  */
static bool
nf_is_inv_trip_count (const nf_region *r, nf_value v, nf_dim d,
		      nf_oplist *l)
{
  v = nf_strip_widen (r, v, l);
  if (nf_op (r, v) == NF_OP_DIV && nf_is_const (r, nf_op_operand (r, v, 0), 1))
    {
      nf_oplist_add (l, v);
      return nf_is_trip_count (r, nf_op_operand (r, v, 1), d, l);
    }
  return d.sym < 0 && d.extent > 0 && nf_op (r, v) == NF_OP_CONST
	 && fabs (nf_const_value (r, v) * (double) d.extent - 1.0) <= 0x1p-23;
}

/* Whether V is a scalar computed from region parameters and constants
   only (loop-invariant: no load, reduction or opaque op feeds it).  */
static bool
nf_is_invariant_scalar (const nf_region *r, nf_value v)
{
  if (nf_value_type (r, v).rank != 0)
    return false;
  switch (nf_op (r, v))
    {
    case NF_OP_PARAM:
      return !nf_param_is_array (r, v);
    case NF_OP_CONST:
      return true;
    case NF_OP_LOAD:
    case NF_OP_STORE:
    case NF_OP_REDUCE:
    case NF_OP_OPAQUE:
      return false;
    default:
      for (int i = 0; i < nf_op_n_operands (r, v); i++)
	if (!nf_is_invariant_scalar (r, nf_op_operand (r, v, i)))
	  return false;
      return true;
    }
}

/* Whether U, a user of a sum read as VIA, multiplies it by another sum:
   a cosine similarity's sqrt (na) * sqrt (nb) that -ffast-math merged
   into sqrt (na * nb).  Neither a mean nor a norm of one sum.  */
static bool
nf_is_product_of_sums (const nf_region *r, nf_value u, nf_value via)
{
  return nf_op (r, u) == NF_OP_MUL
	 && nf_op (r, nf_strip_casts (r, nf_other_operand (r, u, via), NULL))
	      == NF_OP_REDUCE;
}

/* Whether the op U is in L.  */
static bool
nf_oplist_has (const nf_oplist *l, nf_value u)
{
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == u)
      return true;
  return false;
}

/* Whether U is used by nothing, in the region or after it: the clang
   tool's |a - b| once |d| * |d| folded to d * d (GCC deletes it).  */
static bool
nf_value_dead (const nf_region *r, nf_value u)
{
  return nf_value_n_uses (r, u) == 0 && !nf_value_escapes (r, u);
}

/* A distance's difference: D (the squared value, casts stripped: one
   factor of the square, D2 the other, the same elements) is a - b of two
   arrays of one element type read alike, used by nothing but the square
   (whose ops L holds).  Sets M->input to a and M->input2 to b and adds
   the SUBs and their operands' casts to L.  False with M->reason when D
   is a difference of something else; with none when D is no SUB.  */
static bool
nf_match_difference (const nf_region *r, nf_value d, nf_value d2,
		     nf_match *m, nf_oplist *l)
{
  if (nf_op (r, d) != NF_OP_SUB)
    return false;
  nf_oplist casts = { { 0 }, 0 };
  nf_value a = nf_strip_widen (r, nf_op_operand (r, d, 0), &casts);
  nf_value b = nf_strip_widen (r, nf_op_operand (r, d, 1), &casts);
  if (nf_op (r, a) != NF_OP_LOAD || nf_op (r, b) != NF_OP_LOAD)
    return nf_match_fail (m, "the squared difference is not of two arrays "
			     "(no kernel takes x - c)");
  if (!nf_type_equal (nf_value_type (r, a), nf_value_type (r, b))
      || nf_access_stride (r, a) != nf_access_stride (r, b))
    return nf_match_fail (m, "the two arrays of the squared difference are "
			     "not read alike");
  nf_value subs[2] = { d, d2 };
  for (int k = 0; k < 2; k++)
    {
      if (nf_value_escapes (r, subs[k]))
	return nf_match_fail (m, "the difference a - b is also used "
				 "elsewhere");
      for (nf_value u = subs[k] + 1; u < nf_region_n_values (r); u++)
	for (int i = 0; i < nf_op_n_operands (r, u); i++)
	  if (nf_op_operand (r, u, i) == subs[k] && !nf_oplist_has (l, u)
	      && !nf_value_dead (r, u))
	    return nf_match_fail (m, "the difference a - b is also used "
				     "elsewhere");
    }
  for (int i = 0; i < casts.n; i++)
    nf_oplist_add (l, casts.v[i]);
  nf_oplist_add (l, d);
  if (d2 != d)
    {
      nf_oplist_add (l, d2);
      nf_strip_widen (r, nf_op_operand (r, d2, 0), l);
      nf_strip_widen (r, nf_op_operand (r, d2, 1), l);
    }
  m->input = a;
  m->input2 = b;
  return true;
}

/* Step 2, mean: U, the user of the sum S (read as VIA), is S / n or
   S * (1 / n) for the trip count of D.  */
static bool
nf_match_mean (const nf_region *r, nf_value u, nf_value via, nf_dim d,
	       nf_match *m, nf_oplist *l)
{
  if (nf_op (r, u) == NF_OP_DIV && nf_op_operand (r, u, 0) == via)
    {
      if (!nf_is_trip_count (r, nf_op_operand (r, u, 1), d, l))
	return nf_match_fail (m, "the divisor of the mean is not the "
				 "reduction's trip count");
    }
  else if (nf_op (r, u) == NF_OP_MUL && !nf_is_product_of_sums (r, u, via))
    {
      if (!nf_is_inv_trip_count (r, nf_other_operand (r, u, via), d, l))
	return nf_match_fail (m, "the sum of squares is multiplied by "
				 "something other than 1 / trip count");
    }
  else
    return false;		/* Not a mean: not an RMSNorm candidate.  */
  nf_oplist_add (l, u);
  return true;
}

/* Step 2, + eps: U (the user of the mean, read as VIA) is mean + eps with
   eps a finite, non-negative, loop-invariant scalar.  */
static bool
nf_match_eps (const nf_region *r, nf_value u, nf_value via, nf_match *m,
	      nf_oplist *l)
{
  if (nf_op (r, u) == NF_OP_SQRT)
    {
      nf_value v, w = nf_user_through_casts (r, u, NULL, &v);
      if (w != NF_NO_VALUE && nf_op (r, w) == NF_OP_ADD)
	return nf_match_fail (m, NF_WHY_EPS_OUTSIDE);
    }
  if (nf_op (r, u) != NF_OP_ADD)
    return nf_match_fail (m, "there is no + eps under the sqrt");
  nf_value eps = nf_other_operand (r, u, via);
  nf_oplist casts = { { 0 }, 0 };
  nf_value e = nf_strip_widen (r, eps, &casts);
  if (!nf_is_invariant_scalar (r, e))
    return nf_match_fail (m, "eps is not a loop-invariant scalar");
  if (nf_op (r, e) == NF_OP_CONST
      && !(isfinite (nf_const_value (r, e)) && nf_const_value (r, e) >= 0))
    return nf_match_fail (m, "eps is not a finite, non-negative constant");
  for (int i = 0; i < casts.n; i++)
    nf_oplist_add (l, casts.v[i]);
  nf_oplist_add (l, u);
  m->eps = e;
  return true;
}

/* Whether U, the user of the mean, is a root of it (no eps): rsqrt, a
   power, or a sqrt whose value is not then added to (eps outside the
   root is nf_match_eps's near miss).  */
static bool
nf_is_root_of_mean (const nf_region *r, nf_value u)
{
  if (nf_op (r, u) == NF_OP_RSQRT || nf_op (r, u) == NF_OP_POW)
    return true;
  if (nf_op (r, u) != NF_OP_SQRT)
    return false;
  nf_value v, w = nf_user_through_casts (r, u, NULL, &v);
  return !(w != NF_NO_VALUE && nf_op (r, w) == NF_OP_ADD);
}

/* The kernels take eps as a float unless the data is double
   (nf_rmsnorm_f32/f16 (..., float eps)): an eps of a wider type (a double
   eps with float data and a double sum) must keep its value through that
   conversion.  A constant must be exact in the kernel's type, anything
   else is rejected (make check-fuzz found 1e-5 as a double parameter
   rounded to float: 0.29 ulp off once eps dominates the mean).  */
static bool
nf_match_eps_fits (const nf_region *r, nf_match *m)
{
  enum nf_elem data = nf_value_type (r, m->input).elem;
  enum nf_elem kt = data == NF_ELEM_F64 ? NF_ELEM_F64 : NF_ELEM_F32;
  if (m->eps == NF_NO_VALUE)
    return true;		/* eps = 0.  */
  enum nf_elem et = nf_value_type (r, m->eps).elem;
  if (et <= kt)
    return true;
  if (nf_op (r, m->eps) == NF_OP_CONST && kt == NF_ELEM_F32)
    {
      double c = nf_const_value (r, m->eps);
      if ((double) (float) c == c)
	return true;
    }
  return nf_match_fail (m, kt == NF_ELEM_F32
			     ? "eps is wider than float, the kernel's eps, "
			       "and not exact in it"
			     : "eps is wider than double, the kernel's eps");
}

/* Step 3: the leaves of the product tree at V: MUL nodes, float casts,
   broadcasts and (in DIVIDE mode) a DIV by Q are expanded when they are
   the ROOT or used once (so they belong to the product), and added to L;
   everything else is a leaf, added to LEAVES.  */
static void
nf_product_leaves (const nf_region *r, nf_value v, nf_value q, bool divide,
		   bool root, nf_oplist *l, nf_oplist *leaves)
{
  enum nf_opcode op = nf_op (r, v);
  bool expand = root || nf_value_single_user (r, v) != NF_NO_VALUE;
  bool cast = op == NF_OP_BROADCAST
	      || (op == NF_OP_CONVERT
		  && nf_elem_is_float (nf_value_type (r, v).elem));
  bool div = op == NF_OP_DIV && divide
	     && nf_strip_casts (r, nf_op_operand (r, v, 1), NULL) == q;

  if (!expand || !(cast || div || op == NF_OP_MUL))
    {
      nf_oplist_add (leaves, v);
      return;
    }
  nf_oplist_add (l, v);
  if (div)
    nf_strip_casts (r, nf_op_operand (r, v, 1), l); /* The casts of q.  */
  nf_product_leaves (r, nf_op_operand (r, v, 0), q, divide, false, l,
		     leaves);
  if (op == NF_OP_MUL)
    nf_product_leaves (r, nf_op_operand (r, v, 1), q, divide, false, l,
		       leaves);
}

/* Whether the LOAD W is a weight indexed like the LOAD X: the same type
   and strides, or, for rows of X (rank 2), one row's worth (rank 1 over
   X's last dimension, same element stride) broadcast over the rows.  */
static bool
nf_weight_like (const nf_region *r, nf_value w, nf_value x)
{
  nf_type wt = nf_value_type (r, w), xt = nf_value_type (r, x);
  if (nf_op (r, x) != NF_OP_LOAD)	/* A computed x: its elements, in order.  */
    return nf_type_equal (wt, xt) && nf_access_stride (r, w) == 1;
  if (nf_access_stride (r, w) != nf_access_stride (r, x))
    return false;
  if (nf_type_equal (wt, xt))
    return nf_access_row_stride (r, w) == nf_access_row_stride (r, x);
  nf_type row = nf_tensor1_type (xt.elem, xt.dims[1]);
  return xt.rank == 2 && nf_type_equal (wt, row);
}

/* Step 3, Gemma's gain: whether the leaf F of the output's product is
   1 + w[i] (through float casts), w a LOAD of another array than XBASE
   and the sum used by the product alone; returns that LOAD (the sum and
   its casts added to L), else NF_NO_VALUE.  */
static nf_value
nf_gain_plus_one (const nf_region *r, nf_value f, nf_value xbase,
		  nf_oplist *l)
{
  nf_oplist ops = { { 0 }, 0 };
  nf_value a = nf_strip_widen (r, f, &ops);
  if (nf_op (r, a) != NF_OP_ADD || nf_value_escapes (r, a)
      || nf_value_single_user (r, a) == NF_NO_VALUE)
    return NF_NO_VALUE;
  /* The 1 may be broadcast (a constant of the loop body).  */
  int one = nf_is_const (r, nf_strip_casts (r, nf_op_operand (r, a, 0), NULL),
			 1.0)
	      ? 0
	      : 1;
  nf_value wv = nf_strip_widen (r, nf_op_operand (r, a, 1 - one), &ops);
  if (!nf_is_const (r, nf_strip_casts (r, nf_op_operand (r, a, one), &ops),
		    1.0)
      || nf_op (r, wv) != NF_OP_LOAD || nf_access_base (r, wv) == xbase)
    return NF_NO_VALUE;
  nf_oplist_add (&ops, a);
  for (int i = 0; i < ops.n; i++)
    if (!nf_oplist_has (l, ops.v[i]))
      nf_oplist_add (l, ops.v[i]);
  return wv;
}

/* Step 3: from SCALE (the value k, or q in DIVIDE mode) up the chain of
   products to the output; check its leaves are x, k and at most one
   weight indexed like X.  */
static bool
nf_match_scaling (const nf_region *r, nf_value scale, bool divide,
		  nf_value x, nf_match *m, nf_oplist *l)
{
  nf_value top = scale, via;
  bool divided = false;
  for (;;)
    {
      nf_value u = nf_user_through_bcast (r, top, NULL, &via);
      bool product = u != NF_NO_VALUE && nf_op (r, u) == NF_OP_MUL;
      bool division = u != NF_NO_VALUE && divide && !divided
		      && nf_op (r, u) == NF_OP_DIV
		      && nf_op_operand (r, u, 1) == via;
      if (!product && !division)
	break;
      divided |= division;
      top = u;
    }
  if (top == scale)
    return nf_match_fail (m, nf_value_n_uses (r, scale) > 1
				 || nf_value_escapes (r, scale)
			       ? "the scale is also used elsewhere"
			       : "the scale is not multiplied into x");
  if (divide && !divided)
    return nf_match_fail (m, "the sqrt is not divided into x");
  /* A final cast to the storage type belongs to the output.  */
  for (nf_value u; (u = nf_value_single_user (r, top)) != NF_NO_VALUE
		   && nf_op (r, u) == NF_OP_CONVERT
		   && nf_elem_is_float (nf_value_type (r, u).elem);)
    top = u;
  /* The output goes to memory or out of the region, nowhere else: an op
     after the product, as in (x * k + b) * w, is not RMSNorm.  */
  for (nf_value u = top + 1; u < nf_region_n_values (r); u++)
    for (int i = 0; i < nf_op_n_operands (r, u); i++)
      if (nf_op_operand (r, u, i) == top && nf_op (r, u) != NF_OP_STORE)
	return nf_match_fail (m, "an operation other than a cast sits "
				 "between the normalisation and the gain");

  nf_oplist leaves = { { 0 }, 0 };
  nf_product_leaves (r, top, scale, divide, true, l, &leaves);
  int n_x = 0, n_scale = 0;
  nf_value w = NF_NO_VALUE, wp;
  nf_value xbase = nf_op (r, x) == NF_OP_LOAD ? nf_access_base (r, x)
					       : NF_NO_VALUE;
  for (int i = 0; i < leaves.n; i++)
    {
      nf_value f = leaves.v[i];
      if (f == scale && !divide)
	n_scale++;
      else if (nf_same_value (r, f, x) && n_x == 0)
	n_x++;
      else if (nf_op (r, f) == NF_OP_LOAD && xbase != NF_NO_VALUE
	       && nf_access_base (r, f) == xbase
	       && !nf_type_equal (nf_value_type (r, f), nf_value_type (r, x)))
	return nf_match_fail (m, "the scaling loop does not cover the "
				 "reduction's range");
      else if (w == NF_NO_VALUE && nf_op (r, f) == NF_OP_LOAD
	       && nf_access_base (r, f) != xbase)
	{
	  if (!nf_weight_like (r, f, x))
	    return nf_match_fail (m, nf_value_type (r, f).rank
					 == nf_value_type (r, x).rank
				       && nf_value_type (r, f).elem
					    == nf_value_type (r, x).elem
				       && !nf_type_equal (nf_value_type (r, f),
							  nf_value_type (r, x))
				     ? "the scaling loop does not cover the "
				       "reduction's range"
				     : "the weight is not indexed like x");
	  w = f;
	}
      else if (w == NF_NO_VALUE
	       && (wp = nf_gain_plus_one (r, f, xbase, l)) != NF_NO_VALUE)
	{
	  if (!nf_weight_like (r, wp, x))
	    return nf_match_fail (m, "the weight is not indexed like x");
	  w = wp;
	  m->gain_plus_one = true;
	}
      else
	return nf_match_fail (m, "a factor other than x, the scale and one "
				 "weight multiplies the output");
    }
  if (n_x != 1)
    return nf_match_fail (m, "the scaled array is not the squared one");
  if (!divide && n_scale != 1)
    return nf_match_fail (m, "the scale is not multiplied into x");
  m->weight = w;
  m->result = top;
  return true;
}

/* MulRedSqrt, last: whether the norm M->result is floored and divided
   into x, y = x / fmax (norm, eps) (or x * (1 / fmax (..))) stored, eps
   a loop-invariant scalar: PyTorch's F.normalize.  On true M stands for
   the stored quotient (M->normalize, M->eps, M->result) and L holds its
   ops; on false M and L are as they were (the norm alone is fused).  */
static bool
nf_match_normalize (const nf_region *r, nf_match *m, nf_oplist *l)
{
  nf_match saved = *m;
  nf_oplist l2 = *l;
  nf_value via, u = nf_user_through_casts (r, m->result, &l2, &via);
  if (u == NF_NO_VALUE || nf_op (r, u) != NF_OP_MAX)
    return false;
  nf_value e = nf_strip_widen (r, nf_other_operand (r, u, via), &l2);
  if (!nf_is_invariant_scalar (r, e)
      || (nf_op (r, e) == NF_OP_CONST
	  && !(isfinite (nf_const_value (r, e)) && nf_const_value (r, e) >= 0)))
    return false;
  nf_oplist_add (&l2, u);
  nf_value scale = u, qvia;
  nf_oplist casts = { { 0 }, 0 };
  nf_value k = nf_user_through_casts (r, u, &casts, &qvia);
  bool divide = !(k != NF_NO_VALUE && nf_op (r, k) == NF_OP_DIV
		  && nf_is_const (r, nf_op_operand (r, k, 0), 1.0)
		  && nf_op_operand (r, k, 1) == qvia);
  if (!divide)
    {
      for (int i = 0; i < casts.n; i++)
	nf_oplist_add (&l2, casts.v[i]);
      scale = k;		/* 1 / fmax (..).  */
      nf_oplist_add (&l2, k);
    }
  m->eps = e;
  if (!nf_match_scaling (r, scale, divide, m->input, m, &l2)
      || m->weight != NF_NO_VALUE || m->gain_plus_one
      || !nf_match_eps_fits (r, m))
    {
      *m = saved;
      return false;
    }
  m->normalize = true;
  m->reason = NULL;
  *l = l2;
  return true;
}

bool
nf_match_mulredsqrt (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };
  nf_value x, x2, via;

  nf_match_init (m, NF_KIND_MULREDSQRT, anchor);
  if (!nf_match_sumsq (r, anchor, m, &l, &x, &x2))
    return false;
  if (nf_value_escapes (r, anchor) || nf_value_n_uses (r, anchor) > 1)
    return nf_match_fail (m, "the sum of squares is also used elsewhere");
  nf_value u = nf_user_through_casts (r, anchor, &l, &via);
  nf_value via2, root = u == NF_NO_VALUE ? NF_NO_VALUE
			: nf_user_through_casts (r, u, NULL, &via2);
  if (root != NF_NO_VALUE && nf_is_product_of_sums (r, u, via)
      && nf_op (r, root) == NF_OP_SQRT)
    return nf_match_fail (m, "the sum of squares is multiplied by another "
			     "sum under the sqrt (sqrt (a) * sqrt (b) "
			     "merged, as -ffast-math does)");
  /* An RMS: the mean under the root.  */
  if (u != NF_NO_VALUE
      && (nf_op (r, u) == NF_OP_DIV || nf_op (r, u) == NF_OP_MUL))
    {
      nf_type xt = nf_value_type (r, x);
      if (!nf_match_mean (r, u, via, xt.dims[xt.rank - 1], m, &l))
	return m->reason ? false
			 : nf_match_fail (m, "the sum of squares is not "
					     "passed to sqrt");
      m->mean = true;
      u = nf_user_through_casts (r, u, &l, &via);
      if (u == NF_NO_VALUE)
	return nf_match_fail (m, "the mean is also used elsewhere");
    }
  if (u == NF_NO_VALUE || nf_op (r, u) != NF_OP_SQRT)
    return nf_match_fail (m, m->mean ? "the mean of the squares is not "
				       "passed to sqrt"
				     : "the sum of squares is not passed to "
				       "sqrt");
  nf_oplist_add (&l, u);
  m->result = u;
  if (nf_op (r, x) != NF_OP_LOAD
      && !nf_match_difference (r, x, x2, m, &l))
    return m->reason ? false
		     : nf_match_fail (m, "the squared value is computed in "
					 "the loop, not read from an array "
					 "(no kernel takes it)");
  if (nf_op (r, x) == NF_OP_LOAD && !m->mean)
    nf_match_normalize (r, m, &l);
  return nf_match_accept (r, m, &l);
}

/* Step 2 of RMSNorm: from U, the user of the sum (read as VIA), the
   mean over D, + eps (or none) and the root, to the scale: *SCALE is
   the value multiplied into x (1 / sqrt, rsqrt, pow (.., -0.5)) or, with
   *DIVIDE, the sqrt divided into it; its ops added to L.  */
static bool
nf_match_scale (const nf_region *r, nf_value u, nf_value via, nf_dim d,
		nf_match *m, nf_oplist *l, nf_value *scale, bool *divide)
{
  if (!nf_match_mean (r, u, via, d, m, l))
    return false;

  /* + eps, or the root of the mean itself: eps = 0, which the kernels
     take as the loop's scale (r = 1 / sqrt (mean + 0)).  */
  u = nf_user_through_casts (r, u, l, &via);
  if (u == NF_NO_VALUE)
    return nf_match_fail (m, "the mean is also used elsewhere");
  if (!nf_is_root_of_mean (r, u))
    {
      if (!nf_match_eps (r, u, via, m, l))
	return false;
      nf_value sum = u;
      u = nf_user_through_casts (r, sum, l, &via);
      if (u == NF_NO_VALUE)
	return nf_match_fail (m, "mean + eps is also used elsewhere");
    }

  /* The scale.  */
  *scale = u;
  *divide = false;
  switch (nf_op (r, u))
    {
    case NF_OP_RSQRT:
      break;
    case NF_OP_POW:
      if (nf_op_operand (r, u, 0) != via
	  || !nf_is_const (r, nf_op_operand (r, u, 1), -0.5))
	return nf_match_fail (m, "mean + eps is raised to a power other "
				 "than -0.5");
      break;
    case NF_OP_SQRT:
      {
	nf_value qvia, k;
	nf_oplist casts = { { 0 }, 0 };
	nf_oplist_add (l, u);
	k = nf_user_through_casts (r, u, &casts, &qvia);
	if (k != NF_NO_VALUE && nf_op (r, k) == NF_OP_DIV
	    && nf_is_const (r, nf_op_operand (r, k, 0), 1.0)
	    && nf_op_operand (r, k, 1) == qvia)
	  {
	    for (int i = 0; i < casts.n; i++)
	      nf_oplist_add (l, casts.v[i]);
	    *scale = k;		/* 1 / sqrt (a).  */
	  }
	else
	  *divide = true;	/* x / sqrt (a) in the scaling.  */
	break;
      }
    default:
      return nf_match_fail (m, "mean + eps is not passed to sqrt");
    }
  return true;
}

/* Step 2 of RMSNorm without eps, as -ffast-math writes x / sqrt (s / n):
   whether U, the user of the sum (read as VIA), is n / s whose root is
   taken, sqrt (n / s), the scale *SCALE (its ops added to L).  */
static bool
nf_match_inverse_mean (const nf_region *r, nf_value u, nf_value via,
		       nf_dim d, nf_oplist *l, nf_value *scale)
{
  nf_oplist ops = { { 0 }, 0 };
  if (nf_op (r, u) != NF_OP_DIV || nf_op_operand (r, u, 1) != via
      || !nf_is_trip_count (r, nf_op_operand (r, u, 0), d, &ops))
    return false;
  nf_value qvia, k = nf_user_through_casts (r, u, &ops, &qvia);
  if (k == NF_NO_VALUE || nf_op (r, k) != NF_OP_SQRT)
    return false;
  for (int i = 0; i < ops.n; i++)
    nf_oplist_add (l, ops.v[i]);
  nf_oplist_add (l, u);
  *scale = k;
  return true;
}

bool
nf_match_rmsnorm (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };
  nf_value x, via;

  nf_match_init (m, NF_KIND_RMSNORM, anchor);
  if (!nf_match_sumsq (r, anchor, m, &l, &x, NULL))
    return false;
  nf_type xt = nf_value_type (r, x);
  nf_dim d = xt.dims[xt.rank - 1];
  if (m->reduce_dims != 1u << (xt.rank - 1))
    return nf_match_fail (m, "the reduction is not over the last dimension");

  /* Mean.  */
  nf_value u = nf_user_through_casts (r, anchor, &l, &via);
  if (u == NF_NO_VALUE)
    return nf_match_fail (m, "the sum of squares is also used elsewhere");
  if (nf_op (r, u) == NF_OP_SQRT)
    return false;		/* MulRedSqrt, not RMSNorm.  */
  nf_value scale = NF_NO_VALUE;
  bool divide = false;
  if (!nf_match_inverse_mean (r, u, via, d, &l, &scale)
      && !nf_match_scale (r, u, via, d, m, &l, &scale, &divide))
    return false;
  nf_oplist_add (&l, scale);
  if (!nf_match_scaling (r, scale, divide, x, m, &l))
    return false;
  if (!nf_match_eps_fits (r, m))
    return false;
  if (!nf_match_array_input (r, m, "the normalised value is computed in the "
				   "loop, not read from an array (no kernel "
				   "takes it)"))
    return false;
  return nf_match_accept (r, m, &l);
}

/* Whether V, or a float cast of it (DEPTH casts deep), is an operand of
   a sqrt: the sum is an L2 norm's even when it has other users (opus's
   stereo_itheta adds its two sums too).  */
static bool
nf_feeds_sqrt (const nf_region *r, nf_value v, int depth)
{
  for (nf_value u = v + 1; u < nf_region_n_values (r); u++)
    for (int i = 0; i < nf_op_n_operands (r, u); i++)
      if (nf_op_operand (r, u, i) == v
	  && (nf_op (r, u) == NF_OP_SQRT
	      || (depth > 0 && nf_op (r, u) == NF_OP_CONVERT
		  && nf_elem_is_float (nf_value_type (r, u).elem)
		  && nf_feeds_sqrt (r, u, depth - 1))))
	return true;
  return false;
}

bool
nf_match_norm (const nf_region *r, nf_value anchor, unsigned kinds,
	       nf_match *m)
{
  bool want_m = kinds & NF_KIND_MULREDSQRT;
  bool want_r = kinds & NF_KIND_RMSNORM;

  /* The core first: where it fails, both matchers would stop at it with
     its reason (or none), and the kind is the one the sum's use shows.
     Most sums of real code stop here (dot products, matmuls).  */
  nf_oplist l = { { 0 }, 0 };
  nf_value x;
  nf_match_init (m, NF_KIND_MULREDSQRT, anchor);
  if (!nf_match_sumsq (r, anchor, m, &l, &x, NULL))
    {
      if (!want_m && !want_r)
	m->reason = NULL;
      if (m->reason && want_r && (!want_m || !nf_feeds_sqrt (r, anchor, 2)))
	m->kind = NF_KIND_RMSNORM;
      return false;
    }

  if (want_m && nf_match_mulredsqrt (r, anchor, m))
    {
      /* The RMS of an RMSNorm without eps: the whole RMSNorm, if it is
	 one, is the better call.  */
      nf_match rm;
      if (!m->mean || !want_r)
	return true;
      if (nf_match_rmsnorm (r, anchor, &rm))
	{
	  nf_match_release (m);
	  *m = rm;
	  return true;
	}
      /* 1 / (sqrt (mean) + eps): fusing the RMS alone would round the
	 scale once more than the loop does (the fuzzer's eps-outside
	 programs lost up to a few ulps on the scaled elements), and the
	 user's near miss is RMSNorm's: report it.  */
      if (!rm.reason || strcmp (rm.reason, NF_WHY_EPS_OUTSIDE) != 0)
	return true;
      nf_match_release (m);
      nf_match_init (m, NF_KIND_RMSNORM, anchor);
      m->reason = rm.reason;
      return false;
    }
  const char *why_m = want_m ? m->reason : NULL;
  if (want_r && nf_match_rmsnorm (r, anchor, m))
    return true;
  const char *why_r = want_r ? m->reason : NULL;
  /* RMSNorm's reason once its matcher got past the core, unless it has
     none (the sum goes straight to sqrt: MulRedSqrt's) or both stopped
     at the mean they share and its root follows it (a sample deviation
     sqrt (s / (n - 1)): MulRedSqrt's).  */
  bool root_of_mean = false;
  if (why_m && why_r && strcmp (why_m, why_r) == 0)
    {
      nf_value via, u = nf_user_through_casts (r, anchor, NULL, &via);
      nf_value v = u == NF_NO_VALUE ? u : nf_user_through_casts (r, u, NULL,
								  &via);
      root_of_mean = v != NF_NO_VALUE && nf_op (r, v) == NF_OP_SQRT
		     && nf_is_root_of_mean (r, v);
    }
  bool rms = why_r && !root_of_mean;
  nf_match_init (m, rms ? NF_KIND_RMSNORM : NF_KIND_MULREDSQRT, anchor);
  m->reason = rms ? why_r : why_m ? why_m : why_r;
  return false;
}
