/* call.c: the runtime call of a match (call.h has the design).

   The kernels are callees.def's rows; a plan is the row the match asks
   for and its form's arguments:

     Expm1, Log1p   y[i] = f (x[i])         Y, X, N;  y against x
     MulRedSqrt     sqrt (sum (x[i]^2))     X, N;     a value
     RMSNorm        y = x * r * w           Y, X, W, N, EPS;  y against
						every range read
     RMSNorm rows   the same per row (rank 2)  Y, X, W, ROWS, N, EPS;
						y (ROWS * N) against x, the
						same or disjoint; against w
						(N) disjoint
     RMSNorm after  x += r, then the same  Y, X, R, W, N, EPS; y against
     a residual add (residual.h)              x and w as RMSNorm's; x
						against r disjoint
     Elementwise    y[i] = prog (x0, x1)    Y, X0, X1, N, PROG, S0..S3;
						y against each input
     Dot (rank 2)   y[i] = sum_j w[i][j] x[j]  Y, W, X, ROWS, N; y
						disjoint from w and from x
     Dot (rank 1)   sum_i a[i] b[i]         X, X, N;  a value
     Softmax        y = softmax (x)         Y, X, N;  y against x

   Limitations: one sum per call, one stored array; a norm whose
   accumulator no row lists is refused (a float sum of _Float16 squares
   is a row, nf_nrm2_f16; a double sum of them is not).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "call.h"

#include <string.h>

/* callees.def's VARIANT.  */
enum nf_variant
{
  NF_VARIANT_PLAIN,
  NF_VARIANT_PZ,
  NF_VARIANT_FAST,
  NF_VARIANT_EXACT,
  NF_VARIANT_SUMSQ,
  NF_VARIANT_ROWS,
  NF_VARIANT_DIST,
  NF_VARIANT_RMS,
  NF_VARIANT_NORMALIZE,
  NF_VARIANT_GAIN1P,
  NF_VARIANT_ADD
};

/* One row of callees.def.  */
struct nf_callee
{
  const char *name;
  enum nf_kind kind;
  enum nf_elem elem, accum, ret;
  enum nf_variant variant;
};

#define NF_CALLEE(name, kind, elem, accum, variant, ret, c_ret, c_params)      \
  { #name,	     NF_KIND_##kind, NF_ELEM_##elem,                           \
    NF_ELEM_##accum, NF_ELEM_##ret,  NF_VARIANT_##variant },
static const struct nf_callee nf_callees[] = {
#include "callees.def"
};
#undef NF_CALLEE

#define NF_N_CALLEES ((int) (sizeof nf_callees / sizeof nf_callees[0]))

/* The row for KIND, ELEM and ACCUM (NONE in a row: any) of VARIANT, or
   NULL.  */
static const struct nf_callee *
nf_callee_find (enum nf_kind kind, enum nf_elem elem, enum nf_elem accum,
		enum nf_variant variant)
{
  for (int i = 0; i < NF_N_CALLEES; i++)
    {
      const struct nf_callee *k = &nf_callees[i];
      if (k->kind == kind && k->variant == variant
	  && (k->elem == NF_ELEM_NONE || k->elem == elem)
	  && (k->accum == NF_ELEM_NONE || k->accum == accum))
	return k;
    }
  return NULL;
}

/* Whether any row of KIND takes ELEM data.  */
static bool
nf_callee_takes (enum nf_kind kind, enum nf_elem elem)
{
  for (int i = 0; i < NF_N_CALLEES; i++)
    if (nf_callees[i].kind == kind
	&& (nf_callees[i].elem == NF_ELEM_NONE || nf_callees[i].elem == elem))
      return true;
  return false;
}

bool
nf_callee_known (const char *name)
{
  for (int i = 0; i < NF_N_CALLEES; i++)
    if (strcmp (nf_callees[i].name, name) == 0)
      return true;
  return false;
}

/* Append the argument ROLE, VALUE, ELEM, NAME to C.  */
static void
nf_call_arg_add (nf_call *c, enum nf_role role, nf_value value,
		 enum nf_elem elem, const char *name)
{
  NF_ASSERT (c->nargs < NF_CALL_MAX_ARGS, "a call has too many arguments");
  nf_call_arg *a = &c->args[c->nargs++];
  a->role = role;
  a->value = value;
  a->elem = elem;
  a->name = name;
}

/* Append the overlap pair of C's store and LOAD; false when there are
   too many.  */
static bool
nf_call_overlap_add (nf_call *c, nf_value load)
{
  if (c->n_overlaps == NF_CALL_MAX_OVERLAPS)
    return false;
  c->overlaps[c->n_overlaps].store = c->store;
  c->overlaps[c->n_overlaps].load = load;
  c->n_overlaps++;
  return true;
}

/* Take the row K for C.  */
static void
nf_call_take (nf_call *c, const struct nf_callee *k)
{
  c->callee = k->name;
  c->ret = k->ret;
}

nf_value
nf_call_store (const nf_region *r, const nf_match *m)
{
  if (m->result == NF_NO_VALUE)
    return NF_NO_VALUE;
  for (nf_value s = m->result + 1; s < nf_region_n_values (r); s++)
    if (nf_op (r, s) == NF_OP_STORE)
      {
	nf_value v = nf_op_operand (r, s, 0);
	while (nf_op (r, v) == NF_OP_CONVERT && v != m->result)
	  v = nf_op_operand (r, v, 0);
	if (v == m->result)
	  return s;
      }
  return NF_NO_VALUE;
}

/* Expm1, Log1p over arrays: the _pz kernel where the loop keeps
   + 0.0 (M->plus_zero), the fast f32 one under -ffast-math.  */
static const char *
nf_call_plan_map (const nf_region *r, const nf_match *m, const nf_call_flags *f,
		  nf_call *c)
{
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  NF_ASSERT (c->store != NF_NO_VALUE, "a map's match has no store");
  enum nf_variant v = m->plus_zero ? NF_VARIANT_PZ : NF_VARIANT_PLAIN;
  const struct nf_callee *k = NULL;
  if (v == NF_VARIANT_PLAIN && f->fast_math)
    k = nf_callee_find (m->kind, elem, elem, NF_VARIANT_FAST);
  if (!k)
    k = nf_callee_find (m->kind, elem, elem, v);
  if (!k)
    return "no array kernel for this element type";
  nf_call_take (c, k);
  nf_call_arg_add (c, NF_ROLE_Y, c->store, elem, "y");
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "x");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_overlap_add (c, m->input);
  c->overlap_reason = "the output partially overlaps the input";
  return NULL;
}

/* MulRedSqrt of a difference or of a mean: the distance or the RMS of
   a and b (B null for the RMS of a), the row of the data and
   accumulator types (a long double sum has none).  */
static const char *
nf_call_plan_dist (const nf_region *r, const nf_match *m, nf_call *c)
{
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const struct nf_callee *k
    = nf_callee_find (NF_KIND_MULREDSQRT, elem, m->accum,
		      m->mean ? NF_VARIANT_RMS : NF_VARIANT_DIST);
  if (!k)
    return m->mean ? "no fused RMS for these element and sum types"
		   : "no fused distance for these element and sum types";
  nf_call_take (c, k);
  c->value = NF_CALL_RESULT;
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "a");
  nf_call_arg_add (c, NF_ROLE_X, m->input2, elem, "b");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  /* Per element: a difference, a square and the sum; a and b read.  */
  double esz = elem == NF_ELEM_F32 ? 4.0 : 8.0;
  c->flops = m->input2 != NF_NO_VALUE ? 3 : 2;
  c->bytes = (m->input2 != NF_NO_VALUE ? 2 : 1) * esz;
  return NULL;
}

/* MulRedSqrt's norm floored and divided into x, stored: y against x
   (in place is the kernel's).  */
static const char *
nf_call_plan_normalize (const nf_region *r, const nf_match *m, nf_call *c)
{
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const struct nf_callee *k = nf_callee_find (NF_KIND_MULREDSQRT, elem,
					      m->accum, NF_VARIANT_NORMALIZE);
  if (!k)
    return "no fused L2 normalisation for this element type";
  NF_ASSERT (c->store != NF_NO_VALUE, "a normalisation has no store");
  if (nf_value_type (r, nf_op_operand (r, c->store, 0)).elem != elem)
    return "the arrays have different element types";
  nf_call_take (c, k);
  nf_call_arg_add (c, NF_ROLE_Y, c->store, elem, "y");
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "x");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_arg_add (c, NF_ROLE_EPS, m->eps, elem, "eps");
  nf_call_overlap_add (c, m->input);
  c->overlap_reason = "the output partially overlaps the input";
  /* Per element: the square and the sum, the quotient; x read twice, y
     written.  */
  c->flops = 3;
  c->bytes = 3 * (elem == NF_ELEM_F32 ? 4.0 : 8.0);
  return NULL;
}

/* MulRedSqrt: the row of the data and accumulator types.  A wider
   accumulator than the data is either summed exactly (nf_nrm2d_f32: a
   float loop's double sum of exact squares, which a reordered sum does
   not always match, 0.597 ulp against the loop's 0.403: make
   check-fuzz-long) or, where the loop's sum may be reordered anyway,
   the fast sum whose root the caller takes.  */
static const char *
nf_call_plan_nrm2 (const nf_region *r, const nf_match *m,
		   const nf_call_flags *f, nf_call *c)
{
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  if (!nf_callee_takes (NF_KIND_MULREDSQRT, elem))
    return "no fused L2 norm for this element type";
  if ((m->normalize || m->mean || m->input2 != NF_NO_VALUE)
      && f->wide_vector_math)
    return NF_WHY_WIDE_VECTORS;
  if (m->normalize)
    return nf_call_plan_normalize (r, m, c);
  if (m->mean || m->input2 != NF_NO_VALUE)
    return nf_call_plan_dist (r, m, c);
  const struct nf_callee *k
    = nf_callee_find (NF_KIND_MULREDSQRT, elem, m->accum, NF_VARIANT_PLAIN);
  enum nf_variant first
    = f->associative_math ? NF_VARIANT_SUMSQ : NF_VARIANT_EXACT;
  enum nf_variant second
    = f->associative_math ? NF_VARIANT_EXACT : NF_VARIANT_SUMSQ;
  if (!k)
    k = nf_callee_find (NF_KIND_MULREDSQRT, elem, m->accum, first);
  if (!k)
    k = nf_callee_find (NF_KIND_MULREDSQRT, elem, m->accum, second);
  if (!k)
    return "no fused L2 norm for this accumulator type";
  nf_call_take (c, k);
  c->value = k->variant == NF_VARIANT_SUMSQ ? NF_CALL_SUMSQ : NF_CALL_RESULT;
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "x");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  return NULL;
}

/* RMSNorm: y, x and w of one element type; y against every range the
   region reads.  Rank 2 (rows of x reduced over the last dimension, one
   weight row for all, as a row loop around the idiom): the rows kernel,
   which also takes ROWS; y over its ROWS * N elements is x exactly (in
   place, row by row) or disjoint from it, and disjoint from the N of w
   (a weight inside y would change under the rows after it).  */
static const char *
nf_call_plan_rmsnorm (const nf_region *r, const nf_match *m,
		      const nf_call_flags *f, nf_call *c)
{
  if (m->gain_plus_one && f->wide_vector_math)
    return NF_WHY_WIDE_VECTORS;
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  int rank = nf_value_type (r, m->input).rank;
  bool rows = rank == 2;
  bool add = m->residual != NF_NO_VALUE;
  const struct nf_callee *k
    = nf_callee_find (NF_KIND_RMSNORM, elem, m->accum,
		      add		 ? NF_VARIANT_ADD
		      : m->gain_plus_one ? NF_VARIANT_GAIN1P
		      : rows		 ? NF_VARIANT_ROWS
					 : NF_VARIANT_PLAIN);
  if (add && (rows || m->gain_plus_one))
    return "no fused residual add before this RMSNorm";
  if (m->gain_plus_one && rows)
    return "no fused RMSNorm of rows with the gain 1 + w";
  if (!k)
    return m->gain_plus_one ? "no fused RMSNorm with the gain 1 + w for "
			      "this element type"
	   : rows ? "no fused RMSNorm of rows for this element type"
		  : "no fused RMSNorm for this element type";
  nf_value store = c->store;
  if (store == NF_NO_VALUE
      || nf_value_type (r, nf_op_operand (r, store, 0)).rank != rank)
    return "the normalised values are not stored";
  nf_value stored = nf_op_operand (r, store, 0);
  if (nf_value_type (r, stored).elem != elem
      || (m->weight != NF_NO_VALUE
	  && nf_value_type (r, m->weight).elem != elem))
    return "the arrays have different element types";
  if (rows && m->weight != NF_NO_VALUE
      && nf_value_type (r, m->weight).rank != 1)
    return NF_WHY_ROWS_WEIGHT;
  nf_call_take (c, k);
  nf_call_arg_add (c, NF_ROLE_Y, store, elem, "y");
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "x");
  if (add)
    nf_call_arg_add (c, NF_ROLE_X, m->residual, elem, "r");
  nf_call_arg_add (c, NF_ROLE_W, m->weight, elem, "w");
  if (rows)
    nf_call_arg_add (c, NF_ROLE_ROWS, NF_NO_VALUE, NF_ELEM_I64, "rows");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_arg_add (c, NF_ROLE_EPS, m->eps,
		   elem == NF_ELEM_F64 ? NF_ELEM_F64 : NF_ELEM_F32, "eps");
  for (nf_value ld = 0; ld < nf_region_n_values (r); ld++)
    if (nf_op (r, ld) == NF_OP_LOAD && ld != m->residual)
      {
	if (!nf_call_overlap_add (c, ld))
	  return NF_WHY_ARRAYS;
	c->overlaps[c->n_overlaps - 1].disjoint
	  = rows && nf_value_type (r, ld).rank != rank;
      }
  /* The residual add: x is written while r is read, so the two are
     apart; y may hold r (the kernel has read all of r before it writes
     y, as the loops had).  */
  for (nf_value st = 0; add && st < nf_region_n_values (r); st++)
    if (nf_op (r, st) == NF_OP_STORE && st != store)
      {
	if (c->n_overlaps == NF_CALL_MAX_OVERLAPS)
	  return NF_WHY_ARRAYS;
	c->overlaps[c->n_overlaps].store = st;
	c->overlaps[c->n_overlaps].load = m->residual;
	c->overlaps[c->n_overlaps].disjoint = true;
	c->n_overlaps++;
      }
  c->overlap_reason = "the output partially overlaps an input";
  if (add)
    {
      /* Per element: the add, the square and the sum, the scaling (and
	 the gain); x and r read and x written, then x (and w) read and
	 y written.  */
      bool weighted = m->weight != NF_NO_VALUE;
      c->flops = weighted ? 5 : 4;
      c->bytes = (weighted ? 6 : 5) * (elem == NF_ELEM_F32 ? 4.0 : 8.0);
    }
  return NULL;
}

/* Dot: a matrix-vector product (rank 2: one sum per row, stored) or a
   dot product (rank 1: its value).  A _Float16 matrix goes with a float
   vector and float sums; other rows take one element type throughout.
   A dot product of a sum the compiler may reorder anyway is GCC's own
   to vectorize (its float lanes beat a call summing in double for the
   short vectors such loops run over).  */
static const char *
nf_call_plan_dot (const nf_region *r, const nf_match *m,
		  const nf_call_flags *f, nf_call *c)
{
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  enum nf_elem velem = nf_value_type (r, m->weight).elem;
  bool rows = nf_value_type (r, m->input).rank == 2;
  const struct nf_callee *k
    = nf_callee_find (NF_KIND_DOT, elem, m->accum,
		      rows ? NF_VARIANT_ROWS : NF_VARIANT_PLAIN);
  if (!k)
    return rows ? "no matrix-vector kernel for this element type"
		: "no dot-product kernel for these element and sum types";
  enum nf_elem want = elem == NF_ELEM_F16 ? NF_ELEM_F32 : elem;
  if (velem != want
      || (rows && nf_value_type (r, m->result).elem != want))
    return "the arrays have element types no kernel takes together";
  nf_call_take (c, k);
  if (!rows)
    {
      if (f->associative_math)
	return "the compiler vectorizes this reassociable sum itself";
      c->value = NF_CALL_RESULT;
      nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "a");
      nf_call_arg_add (c, NF_ROLE_X, m->weight, velem, "b");
      nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
      c->min_n = NF_DOT_MIN_N;
      c->flops = 2;
      c->bytes = 2 * (elem == NF_ELEM_F32 ? 4.0 : 8.0);
      return NULL;
    }
  NF_ASSERT (c->store != NF_NO_VALUE, "a matrix-vector match has no store");
  nf_call_arg_add (c, NF_ROLE_Y, c->store, want, "y");
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "w");
  nf_call_arg_add (c, NF_ROLE_X, m->weight, velem, "x");
  nf_call_arg_add (c, NF_ROLE_ROWS, NF_NO_VALUE, NF_ELEM_I64, "d");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_overlap_add (c, m->input);
  nf_call_overlap_add (c, m->weight);
  c->disjoint = true;
  c->overlap_reason = "the output overlaps the matrix or the vector";
  c->min_n = NF_MATVEC_MIN_N;
  /* Where GCC vectorizes the reassociable loop itself (-Ofast), its loop
     runs a small matrix faster than one thread of the kernel, which
     converts every element to double (bench/RESULTS.md: a 128 x 128
     product at -Ofast -march=native, 974 ns against the call's 1766):
     the call pays once the rows are split over two threads.  */
  if (f->associative_math)
    c->min_elems = NF_MATVEC_FAST_MIN_ELEMS;
  /* Per matrix element: a multiply and an add; the matrix read once
     (the vector and the output are a row's and a column's worth).  */
  c->flops = 2;
  c->bytes = elem == NF_ELEM_F16 ? 2 : elem == NF_ELEM_F32 ? 4 : 8;
  return NULL;
}

/* Softmax: y and x of one element type, y against x (in place is the
   kernel's).  The kernel sums in double whatever the loop's accumulator
   (a float or a double sum of float exps).  Not where GCC vectorizes
   the loops itself with wide vectors (-ffast-math with AVX): its 4-ulp
   libmvec expf over 8 or 16 lanes beats the kernel's double exp from a
   few hundred elements on (bench/plugin/softmax.c at -Ofast
   -march=native: 0.47x at 4096 elements, 0.89x at 1024; with -mavx2
   0.75x at 4096).  */
static const char *
nf_call_plan_softmax (const nf_region *r, const nf_match *m,
		      const nf_call_flags *f, nf_call *c)
{
  if (f->wide_vector_math)
    return "the compiler vectorizes this softmax itself with wide vectors "
	   "(-ffast-math), faster than the kernel";
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  const struct nf_callee *k
    = nf_callee_find (NF_KIND_SOFTMAX, elem, m->accum, NF_VARIANT_PLAIN);
  if (!k)
    return "no softmax kernel for this element type";
  NF_ASSERT (c->store != NF_NO_VALUE, "a softmax match has no store");
  if (nf_value_type (r, m->result).elem != elem)
    return "the arrays have different element types";
  nf_call_take (c, k);
  nf_call_arg_add (c, NF_ROLE_Y, c->store, elem, "y");
  nf_call_arg_add (c, NF_ROLE_X, m->input, elem, "x");
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_overlap_add (c, m->input);
  c->overlap_reason = "the output partially overlaps the input";
  /* Per element: the max, the subtraction, an exp (about 20), the sum
     and the division; x read twice, y written.  */
  c->flops = 24;
  c->bytes = 3 * (elem == NF_ELEM_F32 ? 4.0 : 8.0);
  return NULL;
}

/* Elementwise: nf_elementwise with the program lower/ writes; y
   against each input; short runs are the loop's (NF_EW_MIN_N).  */
static const char *
nf_call_plan_ew (const nf_region *r, const nf_match *m, const nf_call_flags *f,
		 nf_call *c)
{
  NF_ASSERT (c->store != NF_NO_VALUE, "an Elementwise match has no store");
  const char *why = nf_ew_lower (r, m, c->store, f->fast_math, &c->ew);
  if (why)
    return why;
  const struct nf_callee *k = nf_callee_find (NF_KIND_ELEMENTWISE, NF_ELEM_NONE,
					      NF_ELEM_NONE, NF_VARIANT_PLAIN);
  NF_ASSERT (k, "callees.def has no nf_elementwise");
  nf_call_take (c, k);
  static const char *const xnames[2] = { "x0", "x1" };
  static const char *const snames[4] = { "s0", "s1", "s2", "s3" };
  nf_call_arg_add (c, NF_ROLE_Y, c->store, NF_ELEM_NONE, "y");
  for (int i = 0; i < 2; i++)
    {
      nf_value x = i < c->ew.n_inputs ? c->ew.inputs[i] : NF_NO_VALUE;
      nf_call_arg_add (c, NF_ROLE_X, x, NF_ELEM_NONE, xnames[i]);
      if (x != NF_NO_VALUE)
	nf_call_overlap_add (c, x);
    }
  nf_call_arg_add (c, NF_ROLE_N, NF_NO_VALUE, NF_ELEM_I64, "n");
  nf_call_arg_add (c, NF_ROLE_PROG, NF_NO_VALUE, NF_ELEM_NONE, "prog");
  for (int i = 0; i < 4; i++)
    nf_call_arg_add (c, NF_ROLE_SCALAR,
		     i < c->ew.n_scalars ? c->ew.scalars[i] : NF_NO_VALUE,
		     NF_ELEM_F64, snames[i]);
  c->overlap_reason = "the output partially overlaps the input";
  c->min_n = NF_EW_MIN_N;
  /* Per element: an expm1 or log1p about 20 flops, other ops one; each
     array read once, y written.  */
  enum nf_elem elem = nf_value_type (r, m->input).elem;
  c->flops = 0;
  for (int i = 0; i < nf_cluster_size (m->cluster); i++)
    {
      enum nf_opcode op = nf_op (r, nf_cluster_op (m->cluster, i));
      c->flops += op == NF_OP_EXPM1 || op == NF_OP_LOG1P || op == NF_OP_EXP
		      || op == NF_OP_LOG
		    ? 20
		  : op == NF_OP_BROADCAST ? 0
					  : 1;
    }
  c->bytes = (1 + c->ew.n_inputs) * (elem == NF_ELEM_F32 ? 4.0 : 8.0);
  return NULL;
}

const char *
nf_call_plan (const nf_region *r, const nf_match *m, const nf_call_flags *flags,
	      nf_call *c)
{
  memset (c, 0, sizeof *c);
  c->kind = m->kind;
  c->result = m->result;
  c->store = nf_call_store (r, m);
  c->ret = NF_ELEM_NONE;
  c->value = NF_CALL_VOID;
  c->flops = c->bytes = -1;
  switch (m->kind)
    {
    case NF_KIND_EXPM1:
    case NF_KIND_LOG1P:
      return nf_call_plan_map (r, m, flags, c);
    case NF_KIND_MULREDSQRT:
      return nf_call_plan_nrm2 (r, m, flags, c);
    case NF_KIND_RMSNORM:
      return nf_call_plan_rmsnorm (r, m, flags, c);
    case NF_KIND_ELEMENTWISE:
      return nf_call_plan_ew (r, m, flags, c);
    case NF_KIND_DOT:
      return nf_call_plan_dot (r, m, flags, c);
    case NF_KIND_SOFTMAX:
      return nf_call_plan_softmax (r, m, flags, c);
    default:
      NF_ASSERT (false, "a match of a kind with no runtime call");
      return "no runtime call for this kind";
    }
}

const char *
nf_call_region_covers (const nf_region *r, const nf_match *m)
{
  /* A norm's region ends at the norm: what comes after it (a loop
     using it) stays.  */
  nf_value store = nf_call_store (r, m);
  nf_value upto = m->kind == NF_KIND_MULREDSQRT && !m->normalize
		    ? m->result
		    : nf_region_n_values (r) - 1;
  for (nf_value v = 0; v <= upto; v++)
    if (nf_op (r, v) == NF_OP_STORE && v != store)
      return NF_WHY_OTHER_STORE;
  for (nf_value v = 0; v <= upto; v++)
    if (nf_value_escapes (r, v) && v != m->result)
      return NF_WHY_USED_AFTER;
  return NULL;
}

const char *
nf_call_result_live (const nf_call *c, bool result_live)
{
  if (c->value == NF_CALL_VOID && result_live)
    return c->kind == NF_KIND_RMSNORM ? NF_WHY_USED_AFTER
				      : NF_WHY_LOOP_USED_AFTER;
  if (c->value != NF_CALL_VOID && !result_live)
    return "the norm is not used after the loop";
  return NULL;
}
