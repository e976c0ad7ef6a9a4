/* match-scalar.c: the Expm1 and Log1p matchers.

     e = exp (x);  r = e - 1      (or e + -1, or 1 - e)   => Expm1 (x)
     t = x + 1;    r = log (t)    (or 1 + x, or x - -1)   => Log1p (x)

   with at most widening float casts between the exp and the subtraction
   (double r = expf (x) - 1.0) or between the sum and the log
   (log ((double) (1.0f + xf))).  Guards: the exp result (or the sum) has
   no other use, else both values would be needed.  Candidates are the
   idiom's forms only, with the constant exactly 1: exp (x) - 2,
   exp (a) - exp (b), a sigmoid's 1 + exp (-x) or log (v + 1e-12) are no
   near miss (on real code such entries were noise), so get no entry.
   The tanh quotient (exp (a) - 1) / (exp (a) + 1) is one Expm1 whose
   lowering is t / (t + 2), t = expm1 (a) (nf_match_tanh).
   The reasons are the remarks users read: keep them stable.
   Works on scalars and on whole arrays alike (an elementwise loop is one
   op on a tensor).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "match-util.h"

#include <math.h>

/* Whether V is never -0: an exp (at least +0), a square, |y|, y + c or
   y - c with c a non-zero constant (an exact zero sum is +0 when
   rounding to nearest), a positive constant, or such a value widened or
   narrowed.  Then exp (V) - 1 and expm1 (V), log (1 + V) and log1p (V)
   have the same zeros.  */
static bool
nf_never_minus_zero (const nf_region *r, nf_value v)
{
  switch (nf_op (r, v))
    {
    case NF_OP_EXP:
      return true;
    case NF_OP_CONST:
      return !(nf_const_value (r, v) == 0 && signbit (nf_const_value (r, v)));
    case NF_OP_CONVERT:
      return nf_elem_is_float (nf_value_type (r, nf_op_operand (r, v, 0)).elem)
	     && nf_never_minus_zero (r, nf_op_operand (r, v, 0));
    case NF_OP_MUL:
      return nf_same_value (r, nf_op_operand (r, v, 0),
			    nf_op_operand (r, v, 1));
    case NF_OP_ADD:
    case NF_OP_SUB:
      {
	nf_value c = nf_op_operand (r, v, 1);
	return nf_op (r, c) == NF_OP_CONST && nf_const_value (r, c) != 0;
      }
    default:
      return false;
    }
}

/* Accept the Expm1 match M of the ops L, whose exp is EXP and result
   RESULT: its input is exp's argument, its accumulator exp's type.  */
static bool
nf_expm1_accept (const nf_region *r, nf_match *m, const nf_oplist *l,
		 nf_value exp, nf_value result)
{
  m->input = nf_op_operand (r, exp, 0);
  m->input_never_minus_zero = nf_never_minus_zero (r, m->input);
  m->result = result;
  m->accum = nf_value_type (r, exp).elem;
  return nf_match_accept (r, m, l);
}

bool
nf_match_expm1 (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };
  enum nf_opcode code = nf_op (r, anchor);

  nf_match_init (m, NF_KIND_EXPM1, anchor);
  if ((code != NF_OP_SUB && code != NF_OP_ADD)
      || !nf_elem_is_float (nf_value_type (r, anchor).elem))
    return false;

  /* Which operand is exp, possibly widened.  */
  nf_value c = NF_NO_VALUE, call = NF_NO_VALUE;
  for (int i = 0; i < 2 && call == NF_NO_VALUE; i++)
    {
      nf_oplist casts = { { 0 }, 0 };
      nf_value v = nf_strip_widen (r, nf_op_operand (r, anchor, i), &casts);
      if (nf_op (r, v) == NF_OP_EXP)
	{
	  call = v;
	  c = nf_op_operand (r, anchor, 1 - i);
	  for (int k = 0; k < casts.n; k++)
	    nf_oplist_add (&l, casts.v[k]);
	}
    }
  if (call == NF_NO_VALUE)
    return false;

  /* exp (x) - 1, exp (x) + -1 or 1 - exp (x).  Anything else is no
     attempt at expm1 and no near miss of it (issue 15: on real code
     those were noise): exp (x) - 2, exp (a) - exp (b), a sigmoid's
     1 + exp (-x).  */
  bool ok = (code == NF_OP_SUB && nf_is_const (r, c, 1.0))
	    || (code == NF_OP_ADD && nf_is_const (r, c, -1.0));
  if (!ok)
    return false;
  bool single = nf_value_single_user (r, call) != NF_NO_VALUE;
  for (int k = 0; single && k < l.n; k++)
    single = nf_value_single_user (r, l.v[k]) != NF_NO_VALUE;
  if (!single)
    return nf_match_fail (m, "the result of exp is also used elsewhere");

  nf_oplist_add (&l, call);
  nf_oplist_add (&l, anchor);
  return nf_expm1_accept (r, m, &l, call, anchor);
}

bool
nf_match_log1p (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };

  nf_match_init (m, NF_KIND_LOG1P, anchor);
  if (nf_op (r, anchor) != NF_OP_LOG)
    return false;
  nf_value arg = nf_op_operand (r, anchor, 0);
  nf_value sum = nf_strip_widen (r, arg, &l);
  enum nf_opcode code = nf_op (r, sum);
  bool binary = code == NF_OP_ADD || code == NF_OP_SUB;
  nf_value a = binary ? nf_op_operand (r, sum, 0) : NF_NO_VALUE;
  nf_value b = binary ? nf_op_operand (r, sum, 1) : NF_NO_VALUE;
  nf_value x = NF_NO_VALUE;
  if (code == NF_OP_ADD)
    x = nf_is_const (r, b, 1.0) ? a : nf_is_const (r, a, 1.0) ? b : x;
  else if (code == NF_OP_SUB)
    x = nf_is_const (r, b, -1.0) ? a : x;
  /* log (x + c) with c other than 1 is no near miss either: most are
     log (v + eps), which guards a log of 0.  */
  if (x == NF_NO_VALUE)
    return false;
  bool single = nf_value_single_user (r, sum) != NF_NO_VALUE;
  for (int k = 0; single && k < l.n; k++)
    single = nf_value_single_user (r, l.v[k]) != NF_NO_VALUE;
  if (!single)
    return nf_match_fail (m, "the argument 1 + x of log is also used "
			     "elsewhere");

  nf_oplist_add (&l, sum);
  nf_oplist_add (&l, anchor);
  m->input = x;
  m->input_never_minus_zero = nf_never_minus_zero (r, x);
  m->result = anchor;
  m->accum = nf_value_type (r, anchor).elem;
  return nf_match_accept (r, m, &l);
}

/* The EXP whose result E gives V = E + K (K = 1 or -1), in the
   canonical form nf_canonical_binary leaves (E + 1, E - 1: 1 + E and
   E - -1 are E + 1 there), or NF_NO_VALUE.  No conversion between: the
   plugin's GIMPLE has the exp and the sum in one type.  */
static nf_value
nf_exp_plus (const nf_region *r, nf_value v, int k)
{
  enum nf_opcode code = nf_op (r, v);
  if ((k > 0 && code != NF_OP_ADD) || (k < 0 && code != NF_OP_SUB)
      || !nf_is_const (r, nf_op_operand (r, v, 1), 1.0))
    return NF_NO_VALUE;
  nf_value e = nf_op_operand (r, v, 0);
  return nf_op (r, e) == NF_OP_EXP ? e : NF_NO_VALUE;
}

/* Whether V has N uses, all inside the region.  */
static bool
nf_uses_exactly (const nf_region *r, nf_value v, int n)
{
  return nf_value_n_uses (r, v) == n && !nf_value_escapes (r, v);
}

bool
nf_match_tanh (const nf_region *r, nf_value anchor, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };

  nf_match_init (m, NF_KIND_EXPM1, anchor);
  if (nf_op (r, anchor) != NF_OP_DIV
      || !nf_elem_is_float (nf_value_type (r, anchor).elem))
    return false;
  nf_value num = nf_op_operand (r, anchor, 0);
  nf_value den = nf_op_operand (r, anchor, 1);
  nf_value e1 = nf_exp_plus (r, num, -1), e2 = nf_exp_plus (r, den, 1);
  if (e1 == NF_NO_VALUE || e2 == NF_NO_VALUE
      || !nf_type_equal (nf_value_type (r, e1), nf_value_type (r, e2)))
    return false;
  /* One exp, or two of the same argument (as written, before a
     compiler's value numbering merges them).  */
  nf_value a1 = nf_op_operand (r, e1, 0), a2 = nf_op_operand (r, e2, 0);
  if (e1 != e2 && !nf_same_value (r, a1, a2))
    return false;
  /* Nothing else reads the exps or the two terms, else exp (a) would
     still be needed: no near miss either (the numerator alone is then
     the Expm1 candidate, with its own reason).  */
  if (!nf_uses_exactly (r, num, 1) || !nf_uses_exactly (r, den, 1)
      || !nf_uses_exactly (r, e1, e1 == e2 ? 2 : 1)
      || (e1 != e2 && !nf_uses_exactly (r, e2, 1)))
    return false;
  nf_oplist_add (&l, e1);
  if (e2 != e1)
    nf_oplist_add (&l, e2);
  nf_oplist_add (&l, num);
  nf_oplist_add (&l, den);
  nf_oplist_add (&l, anchor);
  return nf_expm1_accept (r, m, &l, e1, anchor);
}

/* The elementwise loop y[i] = expm1 (x[i]) (or log1p): a STORE of an
   EXPM1 or LOG1P of a LOAD, with float casts between (y[i] = (float)
   expm1 ((double) x[i])).  What an Expm1 or Log1p rewrite leaves in a
   loop, to be one call to the array kernel.  Guards: the result is
   stored in the argument's type (the kernels' contract), computed in at
   least that precision, and used by the store only.  */
bool
nf_match_map (const nf_region *r, nf_value store, nf_match *m)
{
  nf_oplist l = { { 0 }, 0 };

  nf_match_init (m, NF_KIND_EXPM1, store);
  if (nf_op (r, store) != NF_OP_STORE)
    return false;
  nf_value v = nf_op_operand (r, store, 0);
  nf_value op = nf_strip_casts (r, v, &l);
  enum nf_opcode code = nf_op (r, op);
  /* The scalar rewrite's expm1 (x) + 0.0, which keeps exp (x) - 1's +0
     for x = -0 where signed zeros are honoured: the _pz kernels give
     the same +0, so the add is part of the region.  */
  nf_value top = NF_NO_VALUE; /* expm1 (x) + 0.0, when that is stored.  */
  nf_value a = code == NF_OP_ADD ? nf_strip_casts (r, nf_op_operand (r, op, 0),
						   &l)
				 : NF_NO_VALUE;
  if (a != NF_NO_VALUE
      && (nf_op (r, a) == NF_OP_EXPM1 || nf_op (r, a) == NF_OP_LOG1P)
      && nf_is_const (r, nf_strip_casts (r, nf_op_operand (r, op, 1), NULL),
		      0.0))
    {
      if (nf_value_escapes (r, a) || nf_value_single_user (r, a) == NF_NO_VALUE)
	return nf_match_fail (m, "the result is also used elsewhere");
      nf_oplist_add (&l, op);
      m->plus_zero = true;
      top = op;
      op = a;
      code = nf_op (r, op);
    }
  if (code != NF_OP_EXPM1 && code != NF_OP_LOG1P)
    return false;
  m->kind = code == NF_OP_EXPM1 ? NF_KIND_EXPM1 : NF_KIND_LOG1P;
  nf_value x = nf_strip_widen (r, nf_op_operand (r, op, 0), &l);
  enum nf_elem ex = nf_value_type (r, x).elem;
  if (nf_op (r, x) != NF_OP_LOAD || nf_value_type (r, x).rank != 1)
    return nf_match_fail (m, "the argument is not an array element");
  if (nf_value_type (r, v).elem != ex)
    return nf_match_fail (m, "the result is stored in another type than "
			     "the argument's");
  if (nf_value_type (r, op).elem < ex)
    return nf_match_fail (m, "the function is evaluated in a narrower type "
			     "than the data");
  for (nf_value u = op; u != v; u = nf_value_single_user (r, u))
    if (u == NF_NO_VALUE || nf_value_escapes (r, u))
      return nf_match_fail (m, "the result is also used elsewhere");
  if (nf_value_single_user (r, v) != store || nf_value_escapes (r, v))
    return nf_match_fail (m, "the result is also used elsewhere");
  nf_oplist_add (&l, op);
  m->input = x;
  m->result = top != NF_NO_VALUE ? top : op;
  m->accum = nf_value_type (r, op).elem;
  return nf_match_accept (r, m, &l);
}
