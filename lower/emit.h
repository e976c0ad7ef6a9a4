/* emit.h: the emitters, which print one fused region (the cluster of a
   match) as MHLO, StableHLO or Penguin-style text for review.

   Each emitter writes one self-contained text: an MLIR module that
   `mlir-opt --allow-unregistered-dialect` parses (generic op form,
   inherent attributes in the trailing dictionary), or for Penguin a
   greppable pseudo-IR of the project's own.  For the cluster
     ss = reduce_add (x * x, 0);  norm = sqrt (ss)
   the MHLO text is
     %r = "mhlo.fusion"(%arg0) ({
     ^bb0(%b0: tensor<?xf32>):
       ...
       %v5 = "mhlo.sqrt"(%v4) : (tensor<f32>) -> tensor<f32>
       "mhlo.return"(%v5) : (tensor<f32>) -> ()
     }) {fusion_kind = #mhlo<fusion_kind kCustom>, FusionKind = "MulRedSqrt"}
        : (tensor<?xf32>) -> tensor<f32>

   Constants read by the region (CONST live-ins) are materialised inside
   the fused body as "mhlo.constant" / "stablehlo.constant" ops and are
   not operands of the fused op: its operands are the other live-ins, in
   the cluster's order.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_EMIT_H
#define NF_EMIT_H

#include <stdio.h>

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each writes one self-contained text for the fused region of match M
   (M->cluster non-NULL) numbered ID to F.  Returns 0, or -1 with *ERR
   set to a static message when the region cannot be expressed (then
   nothing has been written).  */

/* An MLIR module with func @<function>_region<ID> holding an
   "mhlo.fusion" of the cluster (FusionKind = the cluster's kind).  */
int nf_emit_mhlo (FILE *f, const nf_match *m, int id, const char **err);

/* An MLIR module with the cluster as a private decomposition function
   @neuronfuse.<kind>.impl_<ID> in stablehlo ops, and a public function
   @<function>_region<ID> calling it through "stablehlo.composite".  */
int nf_emit_stablehlo (FILE *f, const nf_match *m, int id,
		       const char **err);

/* The project's Penguin-style rendering: a comment line, one
   NeuronTensorOp line, then one indented line per body op.  Not a format
   the Neuron tools read.  */
int nf_emit_penguin (FILE *f, const nf_match *m, int id, const char **err);

/* RMSNorm only: an MLIR module with func
   @<function>_region<ID>_custom_call computing the whole op as the
   "AwsNeuronRmsNorm" custom call (x, w, eps).  Fails unless M->eps is a
   scalar constant (or absent, meaning eps = 0); a missing weight becomes
   a broadcast constant 1.0.  */
int nf_emit_rmsnorm_custom_call (FILE *f, const nf_match *m, int id,
				 const char **err);

/* --- Shared by the emitters (emit-common.c) -------------------------- */

/* The two HLO dialects differ in their prefix and in how they spell a
   list of dimensions.  */
typedef struct nf_hlo_dialect
{
  const char *prefix;		/* "mhlo" or "stablehlo".  */
  int dense_dims;		/* Nonzero: dense<[..]> : tensor<Nxi64>;
				   zero: array<i64: ..>.  */
} nf_hlo_dialect;

extern const nf_hlo_dialect nf_mhlo_dialect;
extern const nf_hlo_dialect nf_stablehlo_dialect;

/* The HLO op name of OP without the dialect prefix ("multiply",
   "exponential_minus_one"), or NULL when HLO has no such op.  */
const char *nf_emit_op_name (enum nf_opcode op);

/* Check that the region of M can be printed as HLO: a cluster with at
   least one live-out, only ops with an HLO equivalent, and element
   types HLO has.  Returns 0, or -1 with *ERR set.  */
int nf_emit_hlo_check (const nf_match *m, const char **err);

/* Print type T as an MLIR tensor type ("tensor<?x8xf32>", "tensor<f32>")
   to F.  */
void nf_emit_type (FILE *f, nf_type t);

/* Print V's value as the element of a dense<> of ELEM to F (decimal with
   an exponent, or a hex bit pattern for Inf and NaN).  */
void nf_emit_literal (FILE *f, enum nf_elem elem, double v);

/* Print NAME to F as an MLIR symbol reference (@name, or @"name" with
   escapes when it is not a bare identifier).  SUFFIX (may be NULL) is
   appended inside the symbol.  */
void nf_emit_symbol (FILE *f, const char *name, const char *suffix);

/* Print S to F as an MLIR string literal, quotes included.  */
void nf_emit_string (FILE *f, const char *s);

/* Write to BUF (SIZE bytes) the snake_case form of the CamelCase KIND:
   "RMSNorm" -> "rms_norm", "MulRedSqrt" -> "mul_red_sqrt".  Returns
   BUF.  */
char *nf_emit_snake (char *buf, size_t size, const char *kind);

/* The operands of the fused op: the live-ins of M's cluster that are
   not constants.  Returns their number; with OUT non-NULL stores them
   there (the caller sizes OUT by nf_cluster_n_live_ins).  */
int nf_emit_inputs (const nf_match *m, nf_value *out);

/* Print the function signature part "(%arg0: T0, ...) -> T" (or
   "-> (T0, T1)" for several results) of the fused region of M to F.  */
void nf_emit_signature (FILE *f, const nf_match *m);

/* The opening of the call of the fused op OP in the public function:
   "    %r[:N] = "OP"(%arg0, ..." up to the closing parenthesis of its
   operands (the function's arguments), for M's results and inputs.  */
void nf_emit_fused_call (FILE *f, const nf_match *m, const char *op);

/* Print the types "(T0, T1) -> T" of the fused op of M to F.  */
void nf_emit_op_type (FILE *f, const nf_match *m);

/* Print the body of M's cluster in dialect D to F, each line prefixed
   by INDENT: the constants it reads, then its ops in generic form.
   Operand live-in K is named %<ARG_PREFIX><K>; body values %v<id>.  The
   terminator is the caller's.  Call only after nf_emit_hlo_check.  */
void nf_emit_hlo_body (FILE *f, const nf_match *m, const nf_hlo_dialect *d,
		       const char *arg_prefix, const char *indent);

/* Print the live-outs of M as the operand list and types of a
   terminator: "(%v5, %v7) : (T5, T7) -> ()".  */
void nf_emit_results (FILE *f, const nf_match *m);

/* Print the line "    \"func.return\"(%r) : (T) -> ()" returning the
   result(s) %r (or %r#0, %r#1...) of the fused op of M to F.  */
void nf_emit_return_r (FILE *f, const nf_match *m);

/* Print a "// ..." comment line naming region ID of M and its source
   location to F.  */
void nf_emit_header_comment (FILE *f, const nf_match *m, int id);

#ifdef __cplusplus
}
#endif

#endif /* NF_EMIT_H */
