/* ir.h: the region IR, a small SSA dataflow graph of one candidate region.

   A front end (the GCC plugin, neuronfuse-clang) fills one nf_region per
   candidate: a loop or loop nest plus the scalar code around it, seen at
   the level of whole arrays, as a graph compiler would: a loop that loads
   x[i] for i < n is one LOAD whose value is a tensor<n x f32>; the
   elementwise code in the loop is elementwise ops on such tensors; a
   reduction PHI is a REDUCE; a store loop is a STORE.  Matchers (match.h)
   find idioms in it, FusionCluster (cluster.h) cuts fused regions out of
   it, and the emitters print them as MHLO, StableHLO and Penguin text.

   Every op defines exactly one value, identified by a dense integer id in
   definition order (so ids are a topological order); STORE defines a
   value of element type NONE.  Ids are valid for the region's lifetime.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_IR_H
#define NF_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nf_region nf_region;

/* A broken invariant of lower/ or of a front end's use of it (a value id
   out of range, an access query on an op that is no LOAD or STORE): not
   the user's input and not "not my pattern", but a bug.  NF_ASSERT
   prints "neuronfuse: internal error: MSG (FILE:LINE)" and aborts, so
   that a builder's bug never reads as a plausible missed reason (inside
   GCC the abort is an internal compiler error).  */
#define NF_ASSERT(cond, msg)                                                  \
  ((cond) ? (void) 0 : nf_internal_error (msg, __FILE__, __LINE__))
void nf_internal_error (const char *msg, const char *file, int line)
  __attribute__ ((__noreturn__));

/* A value (= the op defining it).  Negative means "none".  */
typedef int nf_value;
#define NF_NO_VALUE (-1)

enum nf_elem
{
  NF_ELEM_NONE,			/* No value (STORE).  */
  NF_ELEM_BOOL,
  NF_ELEM_I32,
  NF_ELEM_I64,
  NF_ELEM_F16,
  NF_ELEM_F32,
  NF_ELEM_F64,
  NF_ELEM_F80
};

/* One dimension: a symbolic trip count (SYM >= 0, see nf_region_add_sym)
   or a constant extent (SYM < 0, EXTENT).  */
typedef struct nf_dim
{
  int sym;
  int64_t extent;
} nf_dim;

#define NF_MAX_RANK 2

/* A scalar (RANK 0) or a 1-D/2-D tensor of ELEM.  */
typedef struct nf_type
{
  enum nf_elem elem;
  int rank;
  nf_dim dims[NF_MAX_RANK];
} nf_type;

enum nf_opcode
{
  NF_OP_PARAM,			/* Region input: a scalar or an array base.  */
  NF_OP_CONST,			/* A floating or integer constant.  */
  NF_OP_LOAD,			/* Array elements base[offset + stride*i].  */
  NF_OP_STORE,			/* Its operand to base[offset + stride*i].  */
  NF_OP_CONVERT,		/* To the op's type.  */
  NF_OP_ADD,
  NF_OP_SUB,
  NF_OP_MUL,
  NF_OP_DIV,
  NF_OP_NEG,
  NF_OP_SQRT,
  NF_OP_RSQRT,
  NF_OP_POW,
  NF_OP_EXP,
  NF_OP_LOG,
  NF_OP_EXPM1,
  NF_OP_LOG1P,
  NF_OP_MIN,
  NF_OP_MAX,
  NF_OP_CMP,			/* Predicate in the op's cmp attribute.  */
  NF_OP_SELECT,			/* cond ? a : b.  */
  NF_OP_REDUCE,			/* (input, init) over dims, with combiner.  */
  NF_OP_BROADCAST,		/* Scalar or lower rank to the op's type.  */
  NF_OP_OPAQUE,			/* Anything else: blocks fusion across it.  */
  NF_OP_COUNT_
};

enum nf_cmp
{
  NF_CMP_LT,
  NF_CMP_LE,
  NF_CMP_GT,
  NF_CMP_GE,
  NF_CMP_EQ,
  NF_CMP_NE
};

/* A source position (FILE is borrowed from the caller and must outlive
   the region; NULL when unknown).  */
typedef struct nf_srcloc
{
  const char *file;
  int line, column;
} nf_srcloc;

/* Name of OP ("add", "reduce"...), for dumps and reasons.  */
const char *nf_opcode_name (enum nf_opcode op);

/* Name of ELEM as the report and MLIR spell it ("f32", "i64"...).  */
const char *nf_elem_name (enum nf_elem elem);

/* Whether ELEM is a floating type.  */
bool nf_elem_is_float (enum nf_elem elem);

/* A scalar type of ELEM, and a tensor of ELEM over dims D0 (, D1).  */
nf_type nf_scalar_type (enum nf_elem elem);
nf_type nf_tensor1_type (enum nf_elem elem, nf_dim d0);
nf_type nf_tensor2_type (enum nf_elem elem, nf_dim d0, nf_dim d1);
nf_dim nf_sym_dim (int sym);
nf_dim nf_const_dim (int64_t extent);
bool nf_type_equal (nf_type a, nf_type b);

/* --- Building -------------------------------------------------------- */

/* A new, empty region of FUNCTION (copied).  NULL when out of memory.  */
nf_region *nf_region_new (const char *function);
void nf_region_free (nf_region *r);

/* A symbolic size NAME (copied), e.g. a trip count "n"; returns its id.
   DEFINED_BY is the scalar value holding it at run time, or NF_NO_VALUE.  */
int nf_region_add_sym (nf_region *r, const char *name, nf_value defined_by);

/* Where the next ops come from (until changed).  */
void nf_region_set_loc (nf_region *r, nf_srcloc loc);

/* Each returns the new value, or NF_NO_VALUE when out of memory.  NAME
   strings are copied.  */
nf_value nf_param (nf_region *r, const char *name, nf_type type,
		   bool is_array);
nf_value nf_const (nf_region *r, nf_type type, double v);
/* Elements base[OFFSET + STRIDE * i] (elements, not bytes) for every index
   of TYPE (rank 1: i < dims[0]; rank 2: row-major, row stride ROW_STRIDE,
   or NF_ROWS_DENSE: each row starts where the one before it ends, at
   i * dims[1] * STRIDE, as w[i * n + j] for a symbolic n).  */
#define NF_ROWS_DENSE INT64_MIN
nf_value nf_load (nf_region *r, nf_value base, nf_type type, int64_t offset,
		  int64_t stride, int64_t row_stride);
nf_value nf_store (nf_region *r, nf_value base, nf_value v, int64_t offset,
		   int64_t stride, int64_t row_stride);
nf_value nf_unary (nf_region *r, enum nf_opcode op, nf_value a);
nf_value nf_binary (nf_region *r, enum nf_opcode op, nf_value a, nf_value b);
nf_value nf_convert (nf_region *r, nf_value a, enum nf_elem to);
nf_value nf_cmp (nf_region *r, enum nf_cmp pred, nf_value a, nf_value b);
nf_value nf_select (nf_region *r, nf_value c, nf_value a, nf_value b);
/* Reduce INPUT over the dimensions in DIMS_MASK (bit d = dimension d)
   with COMBINER (NF_OP_ADD, MUL, MIN, MAX or OPAQUE for an unknown body),
   starting from INIT.  */
nf_value nf_reduce (nf_region *r, nf_value input, nf_value init,
		    enum nf_opcode combiner, unsigned dims_mask);
nf_value nf_broadcast (nf_region *r, nf_value a, nf_type to);
nf_value nf_opaque (nf_region *r, const char *what, nf_type type,
		    const nf_value *operands, int n_operands);

/* Hash-consed construction, for the front ends' IR builders: the same
   scalar op on the same operands is one value (the two arms of a cdce
   diamond meet in one SQRT; a variable read twice is one value).
   Tensors are never merged: the matchers expect each conversion of a
   load in a loop to be used once.  An operand NF_NO_VALUE gives
   NF_NO_VALUE.  nf_find_scalar_op returns the existing value of opcode
   OP, type TYPE and operands OPS[0..N-1], or NF_NO_VALUE.
   nf_cse_binary first broadcasts a scalar operand to the other's tensor
   type.  */
nf_value nf_find_scalar_op (const nf_region *r, enum nf_opcode op,
			    nf_type type, const nf_value *ops, int n);
nf_value nf_cse_unary (nf_region *r, enum nf_opcode op, nf_value a);
nf_value nf_cse_binary (nf_region *r, enum nf_opcode op, nf_value a,
			nf_value b);
nf_value nf_cse_convert (nf_region *r, nf_value a, enum nf_elem to);

/* A comparison and a select with scalar operands broadcast to the
   tensor operand's type, as nf_cse_binary does; never merged (they are
   elementwise code of loop bodies).  */
nf_value nf_cse_cmp (nf_region *r, enum nf_cmp pred, nf_value a, nf_value b);
nf_value nf_cse_select (nf_region *r, nf_value c, nf_value a, nf_value b);

/* Put the operands of the binary op *OP (A, B) in GCC's canonical form,
   as GIMPLE has them: a constant is the second operand of an addition, a
   multiplication, a fmax or a fmin (1 + x -> x + 1; fmax's NaN rule is
   symmetric), and the addition or subtraction of a
   negative constant is the subtraction or addition of its negation
   (x + -1 -> x - 1, with a new constant).  Each is exact in IEEE
   arithmetic.  The plugin gets this form from GCC; the libclang front end
   builds through it, so that both hand the matchers the same ops and
   their dumps agree.  */
void nf_canonical_binary (nf_region *r, enum nf_opcode *op, nf_value *a,
			  nf_value *b);

/* --- Reading --------------------------------------------------------- */

/* Every reader takes a value of the region or NF_NO_VALUE, which reads as
   an OPAQUE op with no operands (so that "the single user, if any" can be
   tested without a branch); any other id is a broken invariant
   (NF_ASSERT).  So are an operand index outside V's operands (for
   NF_NO_VALUE nf_op_operand reads NF_NO_VALUE), a symbol id outside the
   region's, and an attribute query on an op of another opcode: the
   access readers (nf_access_*) take LOADs and STOREs only,
   nf_param_is_array PARAMs, nf_const_value CONSTs, nf_cmp_pred CMPs and
   nf_reduce_* REDUCEs.  */

const char *nf_region_function (const nf_region *r);
int nf_region_n_values (const nf_region *r);
int nf_region_n_syms (const nf_region *r);
const char *nf_region_sym_name (const nf_region *r, int sym);
nf_value nf_region_sym_value (const nf_region *r, int sym);

enum nf_opcode nf_op (const nf_region *r, nf_value v);
nf_type nf_value_type (const nf_region *r, nf_value v);
int nf_op_n_operands (const nf_region *r, nf_value v);
nf_value nf_op_operand (const nf_region *r, nf_value v, int i);
nf_srcloc nf_value_loc (const nf_region *r, nf_value v);
/* PARAM and OPAQUE: the name; others NULL.  */
const char *nf_value_label (const nf_region *r, nf_value v);
bool nf_param_is_array (const nf_region *r, nf_value v);
double nf_const_value (const nf_region *r, nf_value v);
/* LOAD/STORE: the array parameter and the affine index.  */
nf_value nf_access_base (const nf_region *r, nf_value v);
int64_t nf_access_offset (const nf_region *r, nf_value v);
int64_t nf_access_stride (const nf_region *r, nf_value v);
int64_t nf_access_row_stride (const nf_region *r, nf_value v);
enum nf_cmp nf_cmp_pred (const nf_region *r, nf_value v);
enum nf_opcode nf_reduce_combiner (const nf_region *r, nf_value v);
unsigned nf_reduce_dims (const nf_region *r, nf_value v);

/* Number of uses of V as an operand of other ops of the region.  */
int nf_value_n_uses (const nf_region *r, nf_value v);
/* The single user of V, or NF_NO_VALUE when V has zero or several.  */
nf_value nf_value_single_user (const nf_region *r, nf_value v);

/* Mark V as used after the region (e.g. a norm returned by the
   function): it counts as a use by no op, which makes it a live-out of
   any cluster defining it.  NF_NO_VALUE (a failed build) is ignored.  */
void nf_value_set_escapes (nf_region *r, nf_value v);
bool nf_value_escapes (const nf_region *r, nf_value v);

/* Print R to F, one value per line ("%3 = mul %1, %2 : tensor<n x f32>"),
   for the plugin's details dump and for debugging.  */
void nf_region_print (const nf_region *r, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* NF_IR_H */
