/* match-softmax.c: the Softmax matcher, anchored on the max reduction:
   the three loops of llama2.c's softmax (and ggml's, PyTorch's
   reference), the Neuron compiler's SubExp fusion (x - max, exp) inside.

     m = reduce_max (x, seed)                   loop 1
     e = exp (x - broadcast (m));  t = e;       loop 2 (t: y, or x itself)
     s = reduce_add (e, 0)
     y = t / broadcast (s)  |  t * broadcast (1 / s)    loop 3
       => Softmax (x) = y

   The region IR a front end builds for it is the dataflow, memory
   forwarded: loop 1's LOAD of x reduced with MAX from the seed (x[0] as
   a rank-0 LOAD of x's first element, -inf, or the lowest finite number
   of the type: the same result for every input, runtime/neuronfuse.h);
   loop 2's LOAD of the same elements, the SUB of the broadcast max, the
   EXP and its ADD reduction from 0 (of the exp, or of a conversion of it
   to a wider accumulator); loop 3's read of t is the exp loop 2 stored
   there (the front end forwards it, having checked that nothing else
   writes t in between), divided by the sum and stored to t: the one
   STORE of the region, which overwrites every element loop 2 stored.
   So the dump is the graph a Neuron compiler sees: reduce_max, the
   SubExp pair, reduce_add, divide.

   Steps: 1. the anchor is a MAX reduction of a contiguous array from an
   allowed seed; 2. its one use is subtracted from the same elements and
   the difference's one use is exp (through float conversions: expf of
   a float, exp of it widened and narrowed back); 3. the exp's uses are
   its sum from 0 and the division, nothing else (a store of it is a
   third array: not the call's); 4. the division by the sum (or the
   product with its reciprocal, -Ofast's form) is stored, once.

   nf_softmax_loops_region builds that region from what a front end
   found in the three loops (struct nf_softmax_facts), so that the
   plugin's and neuronfuse-clang's regions, dumps and reasons agree.

   Limitations: no row loop (one call per row); no scale inside (a
   temperature x / T before the max is not one); the exps kept in a
   third array are not the call's.  The SubExp pair is shown as its two
   ops, not as a nested fusion.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "reasons.h"

/* Whether SEED may start the max of the LOAD X: x[0] (a rank-0 LOAD of
   X's first element), -inf, or the lowest finite value of X's type.  */
static bool
nf_softmax_seed_ok (const nf_region *r, nf_value seed, nf_value x)
{
  seed = nf_strip_widen (r, seed, NULL);
  if (nf_op (r, seed) == NF_OP_LOAD)
    return nf_value_type (r, seed).rank == 0
	   && nf_access_base (r, seed) == nf_access_base (r, x)
	   && nf_access_offset (r, seed) == nf_access_offset (r, x);
  if (nf_op (r, seed) != NF_OP_CONST)
    return false;
  double c = nf_const_value (r, seed);
  enum nf_elem e = nf_value_type (r, x).elem;
  return c == -INFINITY || (e == NF_ELEM_F32 && c == -FLT_MAX)
	 || (e == NF_ELEM_F64 && c == -DBL_MAX);
}

/* The single user of V through float conversions and broadcasts (added
   to L), or NF_NO_VALUE; *VIA the value it reads.  */
static nf_value
nf_softmax_user (const nf_region *r, nf_value v, nf_oplist *l, nf_value *via)
{
  nf_value u = nf_user_through_casts (r, v, l, via);
  while (nf_op (r, u) == NF_OP_BROADCAST)
    {
      nf_oplist_add (l, u);
      *via = u;
      u = nf_user_through_casts (r, u, l, via);
    }
  return u;
}

/* Step 3: the users of the exp E: its sum from 0 (*SUM) and the
   division (*DIV), with the conversions between added to L; NULL, or
   the reason.  */
static const char *
nf_softmax_exp_users (const nf_region *r, nf_value e, nf_oplist *l,
		      nf_value *sum, nf_value *div)
{
  *sum = *div = NF_NO_VALUE;
  for (nf_value u = e + 1; u < nf_region_n_values (r); u++)
    {
      bool uses = false;
      for (int i = 0; i < nf_op_n_operands (r, u); i++)
	uses |= nf_op_operand (r, u, i) == e;
      if (!uses)
	continue;
      nf_value w = u, via = e;
      while (nf_op (r, w) == NF_OP_CONVERT)
	{
	  nf_oplist_add (l, w);
	  via = w;
	  w = nf_value_single_user (r, w);
	}
      enum nf_opcode op = nf_op (r, w);
      if (op == NF_OP_STORE)
	return "the exponentials are stored apart from the result";
      if (op == NF_OP_REDUCE && *sum == NF_NO_VALUE
	       && nf_reduce_combiner (r, w) == NF_OP_ADD
	       && nf_op_operand (r, w, 0) == via)
	*sum = w;
      else if ((op == NF_OP_DIV || op == NF_OP_MUL) && *div == NF_NO_VALUE
	       && nf_op_operand (r, w, 0) == via)
	*div = w;
      else
	return "the exponentials are used for something else too";
    }
  if (*sum == NF_NO_VALUE)
    return "the exponentials are not summed";
  if (*div == NF_NO_VALUE)
    return "the exponentials are not divided by their sum";
  if (!nf_is_const (r, nf_op_operand (r, *sum, 1), 0.0))
    return "the sum of the exponentials does not start from 0";
  return NULL;
}

/* Step 4: the division DIV of the exp by the sum SUM, stored (*Y).  */
static const char *
nf_softmax_divided (const nf_region *r, nf_value sum, nf_value div,
		    nf_oplist *l, nf_value *y)
{
  /* The divisor: the sum broadcast, or 1 / sum broadcast for a product
     (-Ofast's reciprocal).  */
  nf_value by = nf_strip_casts (r, nf_op_operand (r, div, 1), l);
  if (nf_op (r, div) == NF_OP_MUL)
    {
      if (nf_op (r, by) != NF_OP_DIV
	  || !nf_is_const (r, nf_op_operand (r, by, 0), 1.0))
	return "the exponentials are not divided by their sum";
      nf_oplist_add (l, by);
      by = nf_strip_casts (r, nf_op_operand (r, by, 1), l);
    }
  if (by != sum)
    return "the exponentials are not divided by their sum";
  nf_oplist_add (l, div);
  nf_value via = div;
  nf_value u = nf_user_through_casts (r, div, l, &via);
  if (nf_op (r, u) != NF_OP_STORE || nf_value_escapes (r, via)
      || nf_access_stride (r, u) != 1)
    return "the normalised values are not stored contiguously";
  *y = u;
  return NULL;
}

bool
nf_match_softmax (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_match_init (m, NF_KIND_SOFTMAX, anchor);
  if (nf_op (r, anchor) != NF_OP_REDUCE
      || nf_reduce_combiner (r, anchor) != NF_OP_MAX
      || nf_value_type (r, anchor).rank != 0)
    return false;
  nf_oplist l = { .n = 0 };
  /* Step 1.  */
  nf_value x = nf_op_operand (r, anchor, 0);
  if (nf_op (r, x) != NF_OP_LOAD || nf_access_stride (r, x) != 1
      || !nf_elem_is_float (nf_value_type (r, x).elem))
    return false;
  /* Step 2.  */
  nf_value via = anchor;
  nf_value sub = nf_softmax_user (r, anchor, &l, &via);
  if (nf_op (r, sub) != NF_OP_SUB || nf_op_operand (r, sub, 1) != via)
    return false; /* A max for something else.  */
  if (!nf_same_access (r, nf_strip_widen (r, nf_op_operand (r, sub, 0), &l),
		       x))
    return nf_match_fail (m, "the max is subtracted from other values");
  nf_oplist_add (&l, anchor);
  nf_oplist_add (&l, sub);
  nf_value e = nf_softmax_user (r, sub, &l, &via);
  if (nf_op (r, e) != NF_OP_EXP)
    return false; /* x - max for something else.  */
  if (!nf_softmax_seed_ok (r, nf_op_operand (r, anchor, 1), x))
    return nf_match_fail (m, "the max is seeded with a value other than "
			     "the first element, -infinity or the lowest "
			     "number");
  nf_oplist_add (&l, e);
  /* Through the narrowing of exp's result back to x's type.  */
  while (nf_value_single_user (r, e) != NF_NO_VALUE
	 && nf_op (r, nf_value_single_user (r, e)) == NF_OP_CONVERT)
    {
      e = nf_value_single_user (r, e);
      nf_oplist_add (&l, e);
    }
  /* Steps 3 and 4.  */
  nf_value sum, div, y;
  const char *why = nf_softmax_exp_users (r, e, &l, &sum, &div);
  if (!why)
    {
      nf_oplist_add (&l, sum);
      why = nf_softmax_divided (r, sum, div, &l, &y);
    }
  if (why)
    return nf_match_fail (m, why);
  m->input = x;
  m->result = nf_op_operand (r, y, 0);
  m->accum = nf_value_type (r, sum).elem;
  m->reduce_dims = 1u;
  return nf_match_accept (r, m, &l);
}

nf_region *
nf_softmax_loops_region (const struct nf_softmax_facts *f, nf_match *m,
			 const char **why)
{
  nf_region *r = nf_region_new (f->function);
  *why = NULL;
  memset (m, 0, sizeof *m);
  if (!r)
    return *why = "out of memory", NULL;
  nf_region_set_loc (r, f->loc);
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, f->n_name ? f->n_name : "n",
					    NF_NO_VALUE));
  nf_type vec = nf_tensor1_type (f->elem, n);
  nf_type one = nf_scalar_type (f->elem);
  nf_value xp = nf_param (r, f->x_label ? f->x_label : "x", vec, true);
  /* In place, y is x (one parameter: the dump's one argument).  */
  bool in_place = f->y_label && f->x_label && strcmp (f->y_label,
						      f->x_label) == 0;
  nf_value yp
    = in_place ? xp : nf_param (r, f->y_label ? f->y_label : "y", vec, true);
  nf_value seed;
  if (f->seed == NF_SOFTMAX_SEED_FIRST)
    seed = nf_load (r, xp, one, 0, 1, 0);
  else if (f->seed == NF_SOFTMAX_SEED_CONST)
    seed = nf_const (r, one, f->seed_value);
  else
    seed = nf_param (r, "seed", one, false);
  nf_value x1 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value mx = nf_reduce (r, x1, seed, NF_OP_MAX, 1u);
  nf_value x2 = f->sub_same ? nf_load (r, xp, vec, 0, 1, 0)
			    : nf_load (r, nf_param (r, "x2", vec, true), vec,
				       0, 1, 0);
  nf_value d = nf_binary (r, NF_OP_SUB, x2, nf_broadcast (r, mx, vec));
  if (f->exp_elem != f->elem)
    d = nf_convert (r, d, f->exp_elem);
  nf_value e = nf_unary (r, NF_OP_EXP, d);
  if (f->exp_elem != f->elem)
    e = nf_convert (r, e, f->elem);
  if (f->exp_kept)
    nf_store (r, nf_param (r, "z", vec, true), e, 0, 1, 0);
  nf_value se = f->accum != f->elem ? nf_convert (r, e, f->accum) : e;
  nf_value s = nf_reduce (r, se, nf_const (r, nf_scalar_type (f->accum),
					   f->sum_init),
			  NF_OP_ADD, 1u);
  /* The third loop reads what the second stored: e, forwarded.  */
  nf_value by = f->accum != f->elem ? nf_convert (r, s, f->elem) : s;
  if (f->recip)
    by = nf_binary (r, NF_OP_DIV, nf_const (r, one, 1.0), by);
  nf_value q = nf_binary (r, f->recip ? NF_OP_MUL : NF_OP_DIV, e,
			  nf_broadcast (r, by, vec));
  nf_store (r, yp, q, 0, 1, 0);
  if (mx == NF_NO_VALUE || q == NF_NO_VALUE || !nf_match_softmax (r, mx, m))
    {
      *why = m->reason ? m->reason : NF_WHY_SOFTMAX_LOOPS;
      nf_match_release (m);
      nf_region_free (r);
      return NULL;
    }
  return r;
}
