/* ew-test: the Elementwise matcher and its program (match-ew.c) on
   hand-built graphs.  Each program is decoded by a small evaluator
   written here from runtime/ewprog.h's text (in double, for the
   bookkeeping: registers, operands, constants, scalar slots) and its
   result compared with the graph evaluated directly; then one negative
   per guard, each asserting its reason.  */

#include "match.h"
#include "ewprog.h"
#include "nf-check.h"

#include <math.h>
#include <string.h>

/* Evaluate PROG (LEN bytes) on element values X0, X1 and scalars S,
   checking the layout as it goes; returns y or NAN on a layout error.  */
static double
eval_prog (const unsigned char *p, int len, double x0, double x1,
	   const double *s)
{
  if (len < NF_EW_HEADER || p[0] != NF_EW_VERSION || p[1] == 0
      || p[1] > NF_EW_MAX_INSNS || p[2] == 0 || p[2] > NF_EW_MAX_REGS
      || p[4] > NF_EW_MAX_CONSTS
      || len != NF_EW_HEADER + NF_EW_INSN * p[1] + 8 * p[4])
    return NAN;
  double reg[NF_EW_MAX_REGS];
  bool set[NF_EW_MAX_REGS] = { false };
  const unsigned char *k = p + NF_EW_HEADER + NF_EW_INSN * p[1];
  for (int i = 0; i < p[1]; i++)
    {
      const unsigned char *q = p + NF_EW_HEADER + NF_EW_INSN * i;
      int op = q[0], d = q[2], a = q[3], b = q[4], c = q[5], aux = q[6];
      if (d >= p[2] || a >= p[2] || b >= p[2] || c >= p[2])
	return NAN;
      double A = reg[a], B = reg[b], C = reg[c], r = 0;
      bool f32 = q[1] == NF_EW_F32;
      switch (op)
	{
	case NF_EW_LOAD: r = aux == 0 ? x0 : x1; break;
	case NF_EW_PARAM: r = s[aux]; break;
	case NF_EW_CONST:
	  {
	    uint64_t bits = 0;
	    for (int j = 7; j >= 0; j--)
	      bits = bits << 8 | k[8 * aux + j];
	    memcpy (&r, &bits, sizeof r);
	    break;
	  }
	case NF_EW_ADD: r = A + B; break;
	case NF_EW_SUB: r = A - B; break;
	case NF_EW_MUL: r = A * B; break;
	case NF_EW_DIV: r = A / B; break;
	case NF_EW_NEG: r = -A; break;
	case NF_EW_MIN: r = fmin (A, B); break;
	case NF_EW_MAX: r = fmax (A, B); break;
	case NF_EW_EXPM1: r = expm1 (A); break;
	case NF_EW_LOG1P: r = log1p (A); break;
	case NF_EW_EXP: r = exp (A); break;
	case NF_EW_CMP:
	  switch (NF_EW_CMP_PRED (aux))
	    {
	    case NF_EW_LT: r = A < B; break;
	    case NF_EW_LE: r = A <= B; break;
	    case NF_EW_GT: r = A > B; break;
	    case NF_EW_GE: r = A >= B; break;
	    case NF_EW_EQ: r = A == B; break;
	    default: r = A != B; break;
	    }
	  break;
	case NF_EW_SELECT: r = A != 0 ? B : C; break;
	case NF_EW_CONVERT: r = A; break;
	case NF_EW_STORE:
	  return i == p[1] - 1 && set[a] ? A : NAN;
	default:
	  return NAN;
	}
      /* Every operand read was written before.  */
      if ((op >= NF_EW_ADD && !set[a])
	  || ((op == NF_EW_ADD || op == NF_EW_SUB || op == NF_EW_MUL
	       || op == NF_EW_DIV || op == NF_EW_MIN || op == NF_EW_MAX
	       || op == NF_EW_CMP || op == NF_EW_SELECT)
	      && !set[b])
	  || (op == NF_EW_SELECT && !set[c]))
	return NAN;
      reg[d] = f32 ? (float) r : r;
      set[d] = true;
    }
  return NAN; /* No STORE.  */
}

/* ELU: y = x > 0 ? x : alpha * (expm1 (x) + 0), as the plugin builds it
   (broadcasts of one constant twice, the select last).  */
static void
test_elu (void)
{
  nf_region *r = nf_region_new ("elu");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32,
				 nf_sym_dim (nf_region_add_sym (r, "n", np)));
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value x = nf_load (r, xp, vec, 0, 1, 0);
  nf_value e = nf_unary (r, NF_OP_EXPM1, x);
  nf_value z = nf_const (r, nf_scalar_type (NF_ELEM_F32), 0);
  nf_value e0 = nf_cse_binary (r, NF_OP_ADD, e, z);
  nf_value al = nf_param (r, "alpha", nf_scalar_type (NF_ELEM_F32), false);
  nf_value neg = nf_cse_binary (r, NF_OP_MUL, e0, al);
  nf_value c = nf_cse_cmp (r, NF_CMP_GT, x, z);
  nf_value sel = nf_cse_select (r, c, x, neg);
  nf_value st = nf_store (r, yp, sel, 0, 1, 0);
  nf_match m;
  CHECK (nf_match_elementwise (r, st, &m));
  CHECK (m.kind == NF_KIND_ELEMENTWISE && m.input == x && m.result == sel);
  nf_ew_call ew;
  CHECK (nf_ew_lower (r, &m, st, false, &ew) == NULL);
  CHECK (ew.n_inputs == 1 && ew.inputs[0] == x);
  CHECK (ew.n_scalars == 1 && ew.scalars[0] == al);
  CHECK (ew.prog[3] == 0 && ew.prog[5] == NF_EW_F32 && ew.prog[6] == NF_EW_F32
	 && ew.prog[7] == NF_EW_NONE);
  static const double xs[] = { -3, -0.5, 0, 0.25, 7 };
  double s[4] = { 0.75, 0, 0, 0 };
  for (int i = 0; i < 5; i++)
    {
      float v = (float) xs[i];
      float want = v > 0 ? v : 0.75f * ((float) expm1 (v) + 0.0f);
      CHECK (eval_prog (ew.prog, ew.len, v, 0, s) == want);
    }
  /* Fast: the flag only.  */
  nf_ew_call fast;
  CHECK (nf_ew_lower (r, &m, st, true, &fast) == NULL);
  CHECK (fast.prog[3] == NF_EW_FLAG_FAST && fast.len == ew.len
	 && memcmp (fast.prog + 4, ew.prog + 4, ew.len - 4) == 0);
  nf_match_release (&m);
  nf_region_free (r);
}

/* A body whose first value stays live to the end and two inputs:
   y = x0 + log1p (x1 * x1 + ... ) * x0, in double from float data.  */
static void
test_live_and_two_inputs (void)
{
  nf_region *r = nf_region_new ("f");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_dim d = nf_sym_dim (nf_region_add_sym (r, "n", np));
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, d);
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value ap = nf_param (r, "a", vec, true);
  nf_value bp = nf_param (r, "b", vec, true);
  nf_value a = nf_convert (r, nf_load (r, ap, vec, 0, 1, 0), NF_ELEM_F64);
  nf_value b = nf_convert (r, nf_load (r, bp, vec, 0, 1, 0), NF_ELEM_F64);
  nf_value t = nf_binary (r, NF_OP_MUL, b, b);
  for (int i = 0; i < 6; i++)
    t = nf_cse_binary (r, NF_OP_ADD, t,
		       nf_const (r, nf_scalar_type (NF_ELEM_F64), i + 0.5));
  nf_value l = nf_unary (r, NF_OP_LOG1P, t);
  nf_value v = nf_binary (r, NF_OP_ADD, a, nf_binary (r, NF_OP_MUL, l, a));
  nf_value st = nf_store (r, yp, nf_convert (r, v, NF_ELEM_F32), 0, 1, 0);
  nf_match m;
  CHECK (nf_match_elementwise (r, st, &m));
  nf_ew_call ew;
  CHECK (nf_ew_lower (r, &m, st, false, &ew) == NULL);
  CHECK (ew.n_inputs == 2 && ew.n_scalars == 0);
  CHECK (ew.prog[2] <= 4); /* Registers are reused.  */
  double s[4] = { 0 };
  static const float as[] = { -2, 0.5f, 3 }, bs[] = { 1, -0.25f, 4 };
  for (int i = 0; i < 3; i++)
    {
      double tt = (double) bs[i] * bs[i];
      for (int j = 0; j < 6; j++)
	tt += j + 0.5;
      float want = (float) (as[i] + log1p (tt) * as[i]);
      CHECK ((float) eval_prog (ew.prog, ew.len, as[i], bs[i], s) == want);
    }
  nf_match_release (&m);
  nf_region_free (r);
}

/* One negative per guard.  */
static void
test_misses (void)
{
  for (int kind = 0; kind < 5; kind++)
    {
      nf_region *r = nf_region_new ("g");
      nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
      nf_dim d = nf_sym_dim (nf_region_add_sym (r, "n", np));
      nf_type vec = nf_tensor1_type (NF_ELEM_F32, d);
      nf_value yp = nf_param (r, "y", vec, true);
      nf_value v = NF_NO_VALUE;
      const char *want = NULL;
      if (kind == 0)
	{
	  /* Three arrays.  */
	  nf_value s = NF_NO_VALUE;
	  for (int i = 0; i < 3; i++)
	    {
	      nf_value p = nf_param (r, "x", vec, true);
	      nf_value l = nf_load (r, p, vec, 0, 1, 0);
	      s = s == NF_NO_VALUE ? l : nf_binary (r, NF_OP_ADD, s, l);
	    }
	  v = nf_unary (r, NF_OP_EXPM1, s);
	  want = "the loop body reads more than two arrays";
	}
      else
	{
	  nf_value xp = nf_param (r, "x", vec, true);
	  nf_value x = nf_load (r, xp, vec, 0, kind == 1 ? 2 : 1, 0);
	  v = nf_unary (r, NF_OP_EXPM1, x);
	  if (kind == 1)
	    want = "the loop reads an array element other than the one it "
		   "stores";
	  else if (kind == 2)
	    {
	      nf_value k = nf_param (r, "k", nf_scalar_type (NF_ELEM_I32),
				     false);
	      v = nf_cse_binary (r, NF_OP_MUL, v,
				 nf_convert (r, k, NF_ELEM_F32));
	      want = "the loop body converts an integer or another type than "
		     "float and double";
	    }
	  else if (kind == 3)
	    {
	      nf_value_set_escapes (r, v);
	      v = nf_binary (r, NF_OP_MUL, v, x);
	      want = "a value computed in the loop is used after it";
	    }
	  else
	    {
	      /* Too many live values: 14 loads of other offsets kept to the
		 end.  */
	      nf_value s = v;
	      nf_value ls[14];
	      for (int i = 0; i < 14; i++)
		ls[i] = nf_unary (r, NF_OP_EXPM1,
				  nf_load (r, xp, vec, 0, 1, 0));
	      for (int i = 0; i < 14; i++)
		s = nf_binary (r, NF_OP_ADD, s, ls[i]);
	      v = s;
	      want = "the loop body keeps too many values live for an "
		     "elementwise program";
	    }
	}
      nf_value st = nf_store (r, yp, v, 0, 1, 0);
      nf_match m;
      bool ok = nf_match_elementwise (r, st, &m);
      const char *why = m.reason;
      nf_ew_call ew;
      if (ok)
	why = nf_ew_lower (r, &m, st, false, &ew);
      if (!why || strcmp (why, want) != 0)
	{
	  fprintf (stderr, "guard %d: got \"%s\", want \"%s\"\n", kind,
		   why ? why : "(accepted)", want);
	  CHECK (0);
	}
      nf_match_release (&m);
      nf_region_free (r);
    }
  /* No idiom: not a candidate, no reason.  */
  nf_region *r = nf_region_new ("h");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32,
				 nf_sym_dim (nf_region_add_sym (r, "n", np)));
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value x = nf_load (r, nf_param (r, "x", vec, true), vec, 0, 1, 0);
  nf_value st = nf_store (r, yp, nf_unary (r, NF_OP_EXP, x), 0, 1, 0);
  nf_match m;
  CHECK (!nf_match_elementwise (r, st, &m) && m.reason == NULL);
  nf_region_free (r);
}

int
main (void)
{
  test_elu ();
  test_live_and_two_inputs ();
  test_misses ();
  NF_DONE ();
}
