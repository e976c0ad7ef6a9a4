/* call-test: the call lowering (call.c) on hand-built regions, and
   callees.def against the runtime's prototypes.

   Every row of callees.def must be the function neuronfuse.h declares,
   with the same type: checked at compile time, so that a kernel renamed
   or retyped in runtime/ breaks this test's build rather than the
   programs the plugin compiles.  Then each kind's plan: the callee the
   element types, accumulator and flags select, the arguments' roles and
   values, the overlap pairs, the guards, and one negative per reason
   nf_call_plan and nf_call_result_live give.  */

#include "call.h"
#include "rows.h"
#include "residual.h"
#include "neuronfuse.h"
#include "nf-check.h"

#include <string.h>

/* The rows against neuronfuse.h.  */
#define NF_CALLEE(name, kind, elem, accum, variant, ret, c_ret, c_params)      \
  _Static_assert(                                                              \
    __builtin_types_compatible_p (__typeof__ (name), c_ret c_params),          \
    #name " in callees.def is not neuronfuse.h's");
#ifndef __FLT16_MAX__
#define NF_CALLEE_F16(...)
#endif
#include "callees.def"
#undef NF_CALLEE

/* sqrt (sum (x[i] * x[i])) of ELEM data summed in ACCUM.  */
static nf_region *
build_nrm2 (enum nf_elem elem, enum nf_elem accum, nf_value *anchor)
{
  nf_region *r = nf_region_new ("nrm2");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I64), false);
  nf_type vec
    = nf_tensor1_type (elem, nf_sym_dim (nf_region_add_sym (r, "n", np)));
  nf_value x = nf_load (r, nf_param (r, "x", vec, true), vec, 0, 1, 0);
  nf_value xa = accum != elem ? nf_convert (r, x, accum) : x;
  nf_value ss
    = nf_reduce (r, nf_binary (r, NF_OP_MUL, xa, xa),
		 nf_const (r, nf_scalar_type (accum), 0), NF_OP_ADD, 1u);
  nf_value_set_escapes (r, nf_unary (r, NF_OP_SQRT, ss));
  *anchor = ss;
  return r;
}

/* Plan the norm of ELEM in ACCUM; check its callee (NULL: REASON).  */
static void
check_nrm2 (enum nf_elem elem, enum nf_elem accum, bool assoc,
	    const char *callee, enum nf_call_value value, const char *reason)
{
  nf_value anchor;
  nf_region *r = build_nrm2 (elem, accum, &anchor);
  nf_match m;
  CHECK (nf_match_mulredsqrt (r, anchor, &m));
  nf_call_flags f = { false, assoc };
  nf_call c;
  const char *why = nf_call_plan (r, &m, &f, &c);
  if (callee)
    {
      CHECK (why == NULL && c.callee && strcmp (c.callee, callee) == 0);
      CHECK (c.value == value && c.nargs == 2 && c.n_overlaps == 0);
      CHECK (c.args[0].role == NF_ROLE_X && c.args[0].value == m.input
	     && c.args[0].elem == elem && c.args[1].role == NF_ROLE_N);
      CHECK (nf_callee_known (callee));
      /* The norm must be used; no store, nothing else live.  */
      CHECK (nf_call_result_live (&c, true) == NULL);
      CHECK (strcmp (nf_call_result_live (&c, false),
		     "the norm is not used after the loop")
	     == 0);
      CHECK (nf_call_region_covers (r, &m) == NULL);
    }
  else
    CHECK (why && strcmp (why, reason) == 0);
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_nrm2 (void)
{
  check_nrm2 (NF_ELEM_F32, NF_ELEM_F32, false, "nf_nrm2_f32", NF_CALL_RESULT,
	      NULL);
  check_nrm2 (NF_ELEM_F64, NF_ELEM_F64, false, "nf_nrm2_f64", NF_CALL_RESULT,
	      NULL);
  /* Floats in double: exact unless the sum may be reordered.  */
  check_nrm2 (NF_ELEM_F32, NF_ELEM_F64, false, "nf_nrm2d_f32", NF_CALL_RESULT,
	      NULL);
  check_nrm2 (NF_ELEM_F32, NF_ELEM_F64, true, "nf_sumsq_f32", NF_CALL_SUMSQ,
	      NULL);
  check_nrm2 (NF_ELEM_F64, NF_ELEM_F80, false, "nf_sumsq_f64", NF_CALL_SUMSQ,
	      NULL);
  /* Halves summed in float: the product of two halves is exact.  */
  check_nrm2 (NF_ELEM_F16, NF_ELEM_F32, false, "nf_nrm2_f16", NF_CALL_RESULT,
	      NULL);
  check_nrm2 (NF_ELEM_F16, NF_ELEM_F64, false, NULL, NF_CALL_VOID,
	      "no fused L2 norm for this accumulator type");
  check_nrm2 (NF_ELEM_F32, NF_ELEM_F80, false, NULL, NF_CALL_VOID,
	      "no fused L2 norm for this accumulator type");
  check_nrm2 (NF_ELEM_F80, NF_ELEM_F80, false, NULL, NF_CALL_VOID,
	      "no fused L2 norm for this element type");
}

/* y[i] = expm1 (x[i]) (+ 0.0 when PZ) of ELEM.  */
static void
check_map (enum nf_elem elem, bool pz, bool fast, const char *callee,
	   const char *reason)
{
  nf_region *r = nf_region_new ("map");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_type vec
    = nf_tensor1_type (elem, nf_sym_dim (nf_region_add_sym (r, "n", np)));
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value x = nf_load (r, nf_param (r, "x", vec, true), vec, 0, 1, 0);
  nf_value e = nf_unary (r, NF_OP_EXPM1, x);
  if (pz)
    e = nf_binary (r, NF_OP_ADD, e, nf_const (r, nf_scalar_type (elem), 0));
  nf_value st = nf_store (r, yp, e, 0, 1, 0);
  nf_match m;
  CHECK (nf_match_map (r, st, &m));
  nf_call_flags f = { fast, fast };
  nf_call c;
  const char *why = nf_call_plan (r, &m, &f, &c);
  if (callee)
    {
      CHECK (why == NULL && strcmp (c.callee, callee) == 0);
      CHECK (c.value == NF_CALL_VOID && c.ret == NF_ELEM_NONE);
      CHECK (c.store == st && c.nargs == 3 && c.args[0].role == NF_ROLE_Y
	     && c.args[0].value == st && c.args[1].role == NF_ROLE_X
	     && c.args[1].value == x && c.args[2].role == NF_ROLE_N);
      CHECK (c.n_overlaps == 1 && c.overlaps[0].store == st
	     && c.overlaps[0].load == x && c.overlap_reason && c.min_n == 0);
      CHECK (strcmp (nf_call_result_live (&c, true), NF_WHY_LOOP_USED_AFTER)
	     == 0);
      CHECK (nf_call_result_live (&c, false) == NULL);
    }
  else
    CHECK (why && strcmp (why, reason) == 0);
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_map (void)
{
  check_map (NF_ELEM_F32, false, false, "nf_expm1_f32", NULL);
  check_map (NF_ELEM_F32, true, false, "nf_expm1_pz_f32", NULL);
  check_map (NF_ELEM_F32, false, true, "nf_expm1_fast_f32", NULL);
  check_map (NF_ELEM_F64, false, true, "nf_expm1_f64", NULL);
  check_map (NF_ELEM_F64, true, false, "nf_expm1_pz_f64", NULL);
  check_map (NF_ELEM_F80, false, false, NULL,
	     "no array kernel for this element type");
}

/* o[i] = x[i] * (1 / sqrt (sum (x^2) / n + eps)) * w[i] of ELEM (f16:
   summed in float), the weight of WTYPE; EXTRA stores x elsewhere too.  */
static void
check_rmsnorm (enum nf_elem elem, enum nf_elem wtype, bool extra,
	       const char *callee)
{
  nf_region *r = nf_region_new ("rmsnorm");
  enum nf_elem acc = elem == NF_ELEM_F16 ? NF_ELEM_F32 : elem;
  nf_type s = nf_scalar_type (acc);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_dim dn = nf_sym_dim (nf_region_add_sym (r, "n", np));
  nf_type vec = nf_tensor1_type (elem, dn), wvec = nf_tensor1_type (wtype, dn);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value op = nf_param (r, "o", vec, true);
  nf_value wp = nf_param (r, "w", wvec, true);
  nf_value ep = nf_param (r, "eps", s, false);
  nf_value x = nf_load (r, xp, vec, 0, 1, 0);
  nf_value xa = acc != elem ? nf_convert (r, x, acc) : x;
  nf_value ss = nf_reduce (r, nf_binary (r, NF_OP_MUL, xa, xa),
			   nf_const (r, s, 0), NF_OP_ADD, 1u);
  nf_value mean = nf_binary (r, NF_OP_DIV, ss, nf_convert (r, np, acc));
  nf_value k
    = nf_binary (r, NF_OP_DIV, nf_const (r, s, 1),
		 nf_unary (r, NF_OP_SQRT, nf_binary (r, NF_OP_ADD, mean, ep)));
  nf_value bk = nf_broadcast (r, k, nf_tensor1_type (acc, dn));
  nf_value w = nf_load (r, wp, wvec, 0, 1, 0);
  nf_value wa = wtype != acc ? nf_convert (r, w, acc) : w;
  /* The scaling loop's own widening of x, as a builder makes it.  */
  nf_value xs = acc != elem ? nf_convert (r, x, acc) : x;
  nf_value y = nf_binary (r, NF_OP_MUL, nf_binary (r, NF_OP_MUL, xs, bk), wa);
  if (acc != elem)
    y = nf_convert (r, y, elem);
  nf_value st = nf_store (r, op, y, 0, 1, 0);
  if (extra)
    nf_store (r, nf_param (r, "z", vec, true), x, 0, 1, 0);
  nf_match m;
  bool matched = nf_match_rmsnorm (r, ss, &m);
  if (!matched)
    fprintf (stderr, "rmsnorm %d %d: %s\n", elem, extra, m.reason);
  CHECK (matched);
  nf_call_flags f = { false, false };
  nf_call c;
  CHECK (nf_call_plan (r, &m, &f, &c) == NULL);
  CHECK (strcmp (c.callee, callee) == 0);
  {
    CHECK (c.nargs == 5 && c.args[0].value == st && c.args[1].value == x
	   && c.args[2].role == NF_ROLE_W && c.args[2].value == w
	   && c.args[3].role == NF_ROLE_N && c.args[4].role == NF_ROLE_EPS
	   && c.args[4].value == ep);
    /* y against each of the two loads.  */
    CHECK (c.n_overlaps == 2 && c.overlaps[0].store == st
	   && c.overlaps[0].load == x && c.overlaps[1].load == w);
    const char *cov = nf_call_region_covers (r, &m);
    CHECK (extra ? cov && strcmp (cov, NF_WHY_OTHER_STORE) == 0 : cov == NULL);
    CHECK (strcmp (nf_call_result_live (&c, true), NF_WHY_USED_AFTER) == 0);
  }
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_rmsnorm (void)
{
  check_rmsnorm (NF_ELEM_F32, NF_ELEM_F32, false, "nf_rmsnorm_f32");
  check_rmsnorm (NF_ELEM_F32, NF_ELEM_F32, true, "nf_rmsnorm_f32");
  check_rmsnorm (NF_ELEM_F64, NF_ELEM_F64, false, "nf_rmsnorm_f64");
  check_rmsnorm (NF_ELEM_F16, NF_ELEM_F16, false, "nf_rmsnorm_f16");
}

/* Rows of ELEM summed in ACCUM, with a weight or without, as a front
   end's row loop becomes (rows.h): the rows kernel CALLEE with Y, X, W,
   ROWS, N, EPS; y against x in place or disjoint, against the one
   weight row disjoint.  */
static void
check_rmsnorm_rows (enum nf_elem elem, enum nf_elem accum, bool weight,
		    const char *callee)
{
  struct nf_rmsnorm_rows_facts f;
  memset (&f, 0, sizeof f);
  f.function = "rows";
  f.elem = elem;
  f.accum = accum;
  f.eps_elem = elem == NF_ELEM_F64 ? NF_ELEM_F64 : NF_ELEM_F32;
  f.weight = weight;
  f.eps_const = true;
  f.eps_value = 1.0 / 1024;
  nf_match m;
  const char *why;
  nf_region *r = nf_rmsnorm_rows_region (&f, &m, &why);
  if (!r)
    fprintf (stderr, "rows %d: %s\n", elem, why);
  CHECK (r != NULL);
  CHECK (nf_value_type (r, m.input).rank == 2);
  nf_call_flags fl = { false, false };
  nf_call c;
  CHECK (nf_call_plan (r, &m, &fl, &c) == NULL);
  CHECK (strcmp (c.callee, callee) == 0);
  static const enum nf_role roles[6]
    = { NF_ROLE_Y, NF_ROLE_X, NF_ROLE_W, NF_ROLE_ROWS, NF_ROLE_N,
	NF_ROLE_EPS };
  CHECK (c.nargs == 6);
  for (int i = 0; i < 6; i++)
    CHECK (c.args[i].role == roles[i]);
  CHECK (c.args[0].value == c.store && c.args[1].value == m.input
	 && c.args[2].value == m.weight && !c.disjoint);
  CHECK (c.n_overlaps == (weight ? 2 : 1) && c.overlaps[0].load == m.input
	 && !c.overlaps[0].disjoint);
  if (weight)
    CHECK (c.overlaps[1].load == m.weight && c.overlaps[1].disjoint);
  CHECK (nf_call_region_covers (r, &m) == NULL);
  CHECK (nf_call_result_live (&c, false) == NULL);
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_rmsnorm_rows (void)
{
  check_rmsnorm_rows (NF_ELEM_F32, NF_ELEM_F32, true, "nf_rmsnorm_rows_f32");
  check_rmsnorm_rows (NF_ELEM_F32, NF_ELEM_F64, true, "nf_rmsnorm_rows_f32");
  check_rmsnorm_rows (NF_ELEM_F64, NF_ELEM_F64, false, "nf_rmsnorm_rows_f64");
  check_rmsnorm_rows (NF_ELEM_F16, NF_ELEM_F32, true, "nf_rmsnorm_rows_f16");
}

/* The residual add x += r then the RMSNorm of x (residual.h): the add
   loop's own region is the add, not a copy or another array's sum; the
   region of both plans CALLEE with Y, X, R, W, N, EPS, y against x and
   w as RMSNorm's, x apart from r, y free to hold r.  */
static void
check_add_rmsnorm (enum nf_elem elem, bool weight, const char *callee)
{
  /* The add loop: x[i] = r[i] + x[i], and three that are not adds.  */
  for (int k = 0; k < 4; k++)
    {
      nf_region *a = nf_region_new ("add");
      nf_value np = nf_param (a, "n", nf_scalar_type (NF_ELEM_I64), false);
      nf_type vec = nf_tensor1_type (elem, nf_sym_dim (nf_region_add_sym (a, "n",
								      np)));
      nf_value xp = nf_param (a, "x", vec, true);
      nf_value rp = nf_param (a, "r", vec, true);
      nf_value x = nf_load (a, xp, vec, k == 2 ? 1 : 0, 1, 0);
      nf_value rv = nf_load (a, k == 3 ? xp : rp, vec, 0, 1, 0);
      nf_value v = nf_binary (a, k == 1 ? NF_OP_MUL : NF_OP_ADD, rv, x);
      nf_value st = nf_store (a, xp, v, 0, 1, 0);
      nf_value gx, gr;
      bool is_add = nf_match_residual_loop (a, st, &gx, &gr);
      CHECK (is_add == (k == 0));
      if (is_add)
	CHECK (gx == xp && gr == rp);
      nf_region_free (a);
    }

  struct nf_rmsnorm_rows_facts f;
  memset (&f, 0, sizeof f);
  f.function = "block";
  f.elem = elem;
  f.accum = elem;
  f.eps_elem = elem;
  f.weight = weight;
  f.eps_const = true;
  f.eps_value = 1e-5;
  nf_match m;
  const char *why;
  nf_region *r = nf_add_rmsnorm_region (&f, "r", &m, &why);
  if (!r)
    fprintf (stderr, "add_rmsnorm %d: %s\n", elem, why);
  CHECK (r != NULL && m.residual != NF_NO_VALUE);
  nf_call_flags fl = { false, false };
  nf_call c;
  CHECK (nf_call_plan (r, &m, &fl, &c) == NULL);
  CHECK (strcmp (c.callee, callee) == 0);
  static const enum nf_role roles[6]
    = { NF_ROLE_Y, NF_ROLE_X, NF_ROLE_X, NF_ROLE_W, NF_ROLE_N, NF_ROLE_EPS };
  CHECK (c.nargs == 6);
  for (int i = 0; i < 6; i++)
    CHECK (c.args[i].role == roles[i]);
  CHECK (c.args[1].value == m.input && c.args[2].value == m.residual
	 && c.args[3].value == m.weight);
  /* y against the loads of x (twice) and w, the same or apart; x's store
     against r apart; none of y against r.  */
  int xr = 0, yr = 0;
  for (int i = 0; i < c.n_overlaps; i++)
    {
      if (c.overlaps[i].load == m.residual && c.overlaps[i].store == c.store)
	yr++;
      else if (c.overlaps[i].load == m.residual)
	xr += c.overlaps[i].disjoint;
      else
	CHECK (c.overlaps[i].store == c.store && !c.overlaps[i].disjoint);
    }
  CHECK (xr == 1 && yr == 0);
  CHECK (c.flops == (weight ? 5 : 4));
  /* No kernel adds before Gemma's gain or rows.  */
  m.gain_plus_one = true;
  CHECK (nf_call_plan (r, &m, &fl, &c) != NULL);
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_add_rmsnorm (void)
{
  check_add_rmsnorm (NF_ELEM_F32, true, "nf_add_rmsnorm_f32");
  check_add_rmsnorm (NF_ELEM_F64, false, "nf_add_rmsnorm_f64");
}

/* y[i] = expm1 (x[i]) * alpha: nf_elementwise with one scalar.  */
static void
test_elementwise (void)
{
  nf_region *r = nf_region_new ("ew");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32,
				 nf_sym_dim (nf_region_add_sym (r, "n", np)));
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value x = nf_load (r, nf_param (r, "x", vec, true), vec, 0, 1, 0);
  nf_value al = nf_param (r, "alpha", nf_scalar_type (NF_ELEM_F32), false);
  nf_value v = nf_binary (r, NF_OP_MUL, nf_unary (r, NF_OP_EXPM1, x), al);
  nf_value st = nf_store (r, yp, v, 0, 1, 0);
  nf_match m;
  CHECK (nf_match_elementwise (r, st, &m));
  nf_call_flags f = { false, false };
  nf_call c;
  CHECK (nf_call_plan (r, &m, &f, &c) == NULL);
  CHECK (strcmp (c.callee, "nf_elementwise") == 0 && c.nargs == 9);
  static const enum nf_role roles[9]
    = { NF_ROLE_Y,	NF_ROLE_X,	NF_ROLE_X,
	NF_ROLE_N,	NF_ROLE_PROG,	NF_ROLE_SCALAR,
	NF_ROLE_SCALAR, NF_ROLE_SCALAR, NF_ROLE_SCALAR };
  for (int i = 0; i < 9; i++)
    CHECK (c.args[i].role == roles[i]);
  CHECK (c.args[0].value == st && c.args[1].value == x
	 && c.args[2].value == NF_NO_VALUE && c.args[5].value == al
	 && c.args[6].value == NF_NO_VALUE && c.args[5].elem == NF_ELEM_F64);
  CHECK (c.n_overlaps == 1 && c.overlaps[0].load == x);
  CHECK (c.min_n == NF_EW_MIN_N && c.ew.len > 0);
  /* expm1 20 flops, the multiply one; x read and y written.  */
  CHECK (c.flops == 21 && c.bytes == 8);
  nf_match_release (&m);
  nf_region_free (r);
}

int
main (void)
{
  test_nrm2 ();
  test_map ();
  test_rmsnorm ();
  test_rmsnorm_rows ();
  test_add_rmsnorm ();
  test_elementwise ();
  CHECK (!nf_callee_known ("nf_rmsnorm_f80"));
  NF_DONE ();
}
