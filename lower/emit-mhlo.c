/* emit-mhlo.c: a fused region as an "mhlo.fusion" (the `.mhlo.mlir`
   dump), and the whole-op AwsNeuronRmsNorm custom call.

   The fused op's operands are the region's live-ins (constants are
   materialised inside the body), its results the live-outs, its body
   the cluster in generic mhlo ops, and FusionKind the only
   discriminator, as the Neuron compiler's fusion pass builds it.  For
   the L2 norm  norm = sqrt (reduce_add (x * x, 0)):

     module {
       func.func @l2norm_region1(%arg0: tensor<?xf64>) -> tensor<f64> {
	 %r = "mhlo.fusion"(%arg0) ({
	 ^bb0(%b0: tensor<?xf64>):
	   %c4 = "mhlo.constant"() {value = dense<0.0...e+00> : tensor<f64>} ...
	   %v5 = "mhlo.multiply"(%b0, %b0) : ...
	   %v6 = "mhlo.reduce"(%v5, %c4) ({ ... "mhlo.add" ... })
		   {dimensions = dense<[0]> : tensor<1xi64>} : ...
	   %v7 = "mhlo.sqrt"(%v6) : (tensor<f64>) -> tensor<f64>
	   "mhlo.return"(%v7) : (tensor<f64>) -> ()
	 }) {fusion_kind = #mhlo<fusion_kind kCustom>, FusionKind = "MulRedSqrt"}
	     : (tensor<?xf64>) -> tensor<f64>
	 "func.return"(%r) : (tensor<f64>) -> ()
       }
     }

   The custom call form replaces the whole RMSNorm by one op, as
   torch-neuronx lowers it: operands (x, w, eps) with eps an f32 scalar
   constant, backend_config the decimal index of the normalised (last)
   dimension.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "emit.h"

#include <stdio.h>
#include <stdlib.h>

int
nf_emit_mhlo (FILE *f, const nf_match *m, int id, const char **err)
{
  if (nf_emit_hlo_check (m, err))
    return -1;
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n_in = nf_emit_inputs (m, NULL);
  char suffix[32];
  nf_value *ins = malloc ((size_t) (n_in + 1) * sizeof *ins);
  if (!ins)
    {
      *err = "out of memory";
      return -1;
    }
  nf_emit_inputs (m, ins);

  nf_emit_header_comment (f, m, id);
  snprintf (suffix, sizeof suffix, "_region%d", id);
  fputs ("module {\n  func.func ", f);
  nf_emit_symbol (f, nf_region_function (r), suffix);
  nf_emit_signature (f, m);
  fputs (" {\n", f);
  nf_emit_fused_call (f, m, "mhlo.fusion");
  fputs (" ({\n    ^bb0", f);
  if (n_in)
    {
      fputc ('(', f);
      for (int k = 0; k < n_in; k++)
	{
	  fprintf (f, "%s%%b%d: ", k ? ", " : "", k);
	  nf_emit_type (f, nf_value_type (r, ins[k]));
	}
      fputc (')', f);
    }
  free (ins);
  fputs (":\n", f);
  nf_emit_hlo_body (f, m, &nf_mhlo_dialect, "b", "      ");
  fputs ("      \"mhlo.return\"", f);
  nf_emit_results (f, m);
  /* XLA's own kind for a fusion of elementwise ops is kLoop.  */
  fprintf (f, "\n    }) {fusion_kind = #mhlo<fusion_kind %s>, FusionKind = ",
	   m->kind == NF_KIND_ELEMENTWISE ? "kLoop" : "kCustom");
  nf_emit_string (f, nf_cluster_kind (c));
  fputs ("} : ", f);
  nf_emit_op_type (f, m);
  fputc ('\n', f);
  nf_emit_return_r (f, m);
  fputs ("  }\n}\n", f);
  return 0;
}

int
nf_emit_rmsnorm_custom_call (FILE *f, const nf_match *m, int id,
			     const char **err)
{
  if (!m || !m->cluster)
    {
      *err = "no fused region (the match was rejected)";
      return -1;
    }
  if (m->kind != NF_KIND_RMSNORM)
    {
      *err = "AwsNeuronRmsNorm: the region is not an RMSNorm";
      return -1;
    }
  const nf_region *r = nf_cluster_region (m->cluster);
  double eps = 0.0;
  if (m->eps != NF_NO_VALUE)
    {
      if (nf_op (r, m->eps) != NF_OP_CONST
	  || nf_value_type (r, m->eps).rank != 0)
	{
	  *err = "RmsNorm: epsilon must be a scalar constant";
	  return -1;
	}
      eps = nf_const_value (r, m->eps);
    }
  nf_type tx = nf_value_type (r, m->input);
  nf_type ty = nf_value_type (r, m->result);
  if (tx.elem == NF_ELEM_F80 || ty.elem == NF_ELEM_F80
      || (m->weight != NF_NO_VALUE
	  && nf_value_type (r, m->weight).elem == NF_ELEM_F80))
    {
      *err = "long double (f80) has no HLO element type";
      return -1;
    }
  if (tx.rank == 0 || m->reduce_dims != 1u << (tx.rank - 1))
    {
      *err = "RmsNorm: only the last dimension can be normalised";
      return -1;
    }
  /* The weight has the extent of the normalised dimension.  */
  nf_type tw = nf_tensor1_type (tx.elem, tx.dims[tx.rank - 1]);
  if (m->weight != NF_NO_VALUE)
    tw = nf_value_type (r, m->weight);
  char suffix[48];

  nf_emit_header_comment (f, m, id);
  snprintf (suffix, sizeof suffix, "_region%d_custom_call", id);
  fputs ("module {\n  func.func ", f);
  nf_emit_symbol (f, nf_region_function (r), suffix);
  fputs ("(%x: ", f);
  nf_emit_type (f, tx);
  if (m->weight != NF_NO_VALUE)
    {
      fputs (", %w: ", f);
      nf_emit_type (f, tw);
    }
  fputs (") -> ", f);
  nf_emit_type (f, ty);
  fputs (" {\n", f);
  if (m->weight == NF_NO_VALUE)
    {
      /* No gain: y = x / rms (x), i.e. a gain of ones.  */
      nf_type one = nf_scalar_type (tx.elem);
      fputs ("    %one = \"mhlo.constant\"() {value = dense<", f);
      nf_emit_literal (f, tx.elem, 1.0);
      fputs ("> : ", f);
      nf_emit_type (f, one);
      fputs ("} : () -> ", f);
      nf_emit_type (f, one);
      fputs ("\n    %w = \"mhlo.broadcast_in_dim\"(%one) "
	     "{broadcast_dimensions = dense<> : tensor<0xi64>} : (", f);
      nf_emit_type (f, one);
      fputs (") -> ", f);
      nf_emit_type (f, tw);
      fputc ('\n', f);
    }
  const char *gain = "%w";
  if (m->gain_plus_one)
    {
      /* Gemma's gain 1 + w, computed before the call.  */
      nf_type one = nf_scalar_type (tw.elem);
      fputs ("    %one = \"mhlo.constant\"() {value = dense<", f);
      nf_emit_literal (f, tw.elem, 1.0);
      fputs ("> : ", f);
      nf_emit_type (f, one);
      fputs ("} : () -> ", f);
      nf_emit_type (f, one);
      fputs ("\n    %ones = \"mhlo.broadcast_in_dim\"(%one) "
	     "{broadcast_dimensions = dense<> : tensor<0xi64>} : (", f);
      nf_emit_type (f, one);
      fputs (") -> ", f);
      nf_emit_type (f, tw);
      fputs ("\n    %g = \"mhlo.add\"(%w, %ones) : (", f);
      nf_emit_type (f, tw);
      fputs (", ", f);
      nf_emit_type (f, tw);
      fputs (") -> ", f);
      nf_emit_type (f, tw);
      fputc ('\n', f);
      gain = "%g";
    }
  fputs ("    %eps = \"mhlo.constant\"() {value = dense<", f);
  nf_emit_literal (f, NF_ELEM_F32, eps);
  fputs ("> : tensor<f32>} : () -> tensor<f32>\n", f);
  fprintf (f, "    %%y = \"mhlo.custom_call\"(%%x, %s, %%eps) "
	   "{call_target_name = \"AwsNeuronRmsNorm\", "
	   "backend_config = \"%d\"} : (", gain, tx.rank - 1);
  nf_emit_type (f, tx);
  fputs (", ", f);
  nf_emit_type (f, tw);
  fputs (", tensor<f32>) -> ", f);
  nf_emit_type (f, ty);
  fputs ("\n    \"func.return\"(%y) : (", f);
  nf_emit_type (f, ty);
  fputs (") -> ()\n  }\n}\n", f);
  return 0;
}
