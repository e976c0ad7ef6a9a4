/* emit-stablehlo.c: a fused region as a "stablehlo.composite" (the
   `.stablehlo.mlir` dump).

   StableHLO has no fusion op (legalising mhlo.fusion to StableHLO
   fails); its way to name a group of ops is a composite: a named call
   whose decomposition is an ordinary private function.  For RMSNorm:

     module {
       func.func private @neuronfuse.rms_norm.impl_0(%arg0: tensor<?xf32>,
	   ...) -> tensor<?xf32> {
	 %c9 = "stablehlo.constant"() {value = dense<...> : tensor<f32>} ...
	 %v11 = "stablehlo.multiply"(%arg0, %arg0) : ...
	 %v12 = "stablehlo.reduce"(%v11, %c9) ({ ... })
		  {dimensions = array<i64: 0>} : ...
	 ...
	 "func.return"(%v20) : (tensor<?xf32>) -> ()
       }
       func.func @rmsnorm_region0(%arg0: tensor<?xf32>, ...) -> tensor<?xf32> {
	 %r = "stablehlo.composite"(%arg0, ...) {name = "neuronfuse.rms_norm",
		composite_attributes = {eps = ... : f32,
					reduce_dims = array<i64: 0>},
		decomposition = @neuronfuse.rms_norm.impl_0,
		version = 1 : i32} : (...) -> tensor<?xf32>
	 "func.return"(%r) : (tensor<?xf32>) -> ()
       }
     }

   The composite name is "neuronfuse." and the FusionKind in snake case
   (rms_norm, mul_red_sqrt, expm1, log1p).  Its attributes carry eps when
   it is a constant, and the reduced dimensions.  For Expm1 and Log1p the
   decomposition is the single stablehlo.exponential_minus_one or
   log_plus_one op the region computes.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "emit.h"

#include <stdio.h>

int
nf_emit_stablehlo (FILE *f, const nf_match *m, int id, const char **err)
{
  if (nf_emit_hlo_check (m, err))
    return -1;
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  char snake[64], name[96], suffix[32];

  nf_emit_snake (snake, sizeof snake, nf_cluster_kind (c));
  snprintf (name, sizeof name, "neuronfuse.%s", snake);
  snprintf (suffix, sizeof suffix, ".impl_%d", id);

  nf_emit_header_comment (f, m, id);
  fputs ("module {\n  func.func private ", f);
  nf_emit_symbol (f, name, suffix);
  nf_emit_signature (f, m);
  fputs (" {\n", f);
  nf_emit_hlo_body (f, m, &nf_stablehlo_dialect, "arg", "    ");
  fputs ("    \"func.return\"", f);
  nf_emit_results (f, m);
  fputs ("\n  }\n", f);

  char region[32];
  snprintf (region, sizeof region, "_region%d", id);
  fputs ("  func.func ", f);
  nf_emit_symbol (f, nf_region_function (r), region);
  nf_emit_signature (f, m);
  fputs (" {\n", f);
  nf_emit_fused_call (f, m, "stablehlo.composite");
  fputs (" {name = ", f);
  nf_emit_string (f, name);
  fputs (", composite_attributes = {", f);
  const char *sep = "";
  if (m->eps != NF_NO_VALUE && nf_op (r, m->eps) == NF_OP_CONST)
    {
      nf_type te = nf_value_type (r, m->eps);
      fputs ("eps = ", f);
      nf_emit_literal (f, te.elem, nf_const_value (r, m->eps));
      fprintf (f, " : %s", nf_elem_name (te.elem));
      sep = ", ";
    }
  if (m->reduce_dims)
    {
      fprintf (f, "%sreduce_dims = array<i64", sep);
      const char *dsep = ": ";
      for (int d = 0; d < NF_MAX_RANK; d++)
	if (m->reduce_dims & (1u << d))
	  {
	    fprintf (f, "%s%d", dsep, d);
	    dsep = ", ";
	  }
      fputc ('>', f);
    }
  fputs ("}, decomposition = ", f);
  nf_emit_symbol (f, name, suffix);
  fputs (", version = 1 : i32} : ", f);
  nf_emit_op_type (f, m);
  fputc ('\n', f);
  nf_emit_return_r (f, m);
  fputs ("  }\n}\n", f);
  return 0;
}
