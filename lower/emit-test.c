/* emit-test: the MHLO, StableHLO, Penguin and AwsNeuronRmsNorm emitters
   on hand-built matches (an RMSNorm, an L2 norm, a scalar expm1 and a
   log (1 + x) loop).  Writes every dump into the directory argv[1] (for
   emit-check.sh, which parses them with mlir-opt and compares them with
   the goldens), checks their key lines, and checks the error paths: f80,
   a non-constant eps for the custom call, a rejected match.  */

#include "emit.h"
#include "call.h"
#include "nf-check.h"
#include "test-regions.h"

#include <string.h>

static const char *dir;

typedef int (*emitter) (FILE *, const nf_match *, int, const char **);

/* Run EMIT on M (region ID) into DIR/BASE.EXT and return the text (static
   storage, overwritten by the next call), or NULL when EMIT failed, with
   its message in *ERR.  */
static const char *
dump (emitter emit, const nf_match *m, int id, const char *base,
      const char *ext, const char **err)
{
  static char text[16384];
  char path[1024];
  snprintf (path, sizeof path, "%s/%s.%s", dir, base, ext);
  FILE *f = fopen (path, "w+");
  CHECK (f != NULL);
  if (!f)
    return NULL;
  *err = NULL;
  int rc = emit (f, m, id, err);
  rewind (f);
  size_t n = fread (text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose (f);
  if (rc != 0)
    {
      CHECK (*err != NULL);
      CHECK (n == 0);		/* Nothing written on failure.  */
      remove (path);
      return NULL;
    }
  CHECK (*err == NULL);
  return text;
}

#define HAS(text, s) CHECK ((text) && strstr ((text), (s)) != NULL)
#define HASNT(text, s) CHECK ((text) && strstr ((text), (s)) == NULL)

/* The llama2.c rmsnorm:  ss = reduce_add (x * x, 0);
   inv = 1 / sqrt (ss / (float) n + eps);  y = x * inv * w;  with eps the
   constant 1e-5 (EPS_CONST) or a parameter.  The scalar inv multiplies
   the vector x with no explicit broadcast.  Fills *M.  */
static nf_region *
build_rms (nf_match *m, bool eps_const)
{
  nf_region *r = nf_region_new ("rmsnorm");
  nf_srcloc loc = { "rms.c", 3, 5 };
  nf_region_set_loc (r, loc);
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  int n = nf_region_add_sym (r, "n", np);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, nf_sym_dim (n));
  nf_value x = nf_param (r, "x", vec, true);
  nf_value w = nf_param (r, "w", vec, true);
  nf_value eps = eps_const ? nf_const (r, f, 1e-5) : nf_param (r, "eps", f,
							     false);
  nf_value xl = nf_load (r, x, vec, 0, 1, 0);
  nf_value wl = nf_load (r, w, vec, 0, 1, 0);
  nf_value zero = nf_const (r, f, 0.0);
  nf_value one = nf_const (r, f, 1.0);
  nf_value sq = nf_binary (r, NF_OP_MUL, xl, xl);
  nf_value ss = nf_reduce (r, sq, zero, NF_OP_ADD, 1u);
  nf_value nf = nf_convert (r, np, NF_ELEM_F32);
  nf_value mean = nf_binary (r, NF_OP_DIV, ss, nf);
  nf_value sum = nf_binary (r, NF_OP_ADD, mean, eps);
  nf_value root = nf_unary (r, NF_OP_SQRT, sum);
  nf_value inv = nf_binary (r, NF_OP_DIV, one, root);
  nf_value xs = nf_binary (r, NF_OP_MUL, xl, inv);
  nf_value y = nf_binary (r, NF_OP_MUL, xs, wl);
  nf_store (r, x, y, 0, 1, 0);
  nf_value ops[] = { sq, ss, nf, mean, sum, root, inv, xs, y };
  memset (m, 0, sizeof *m);
  m->kind = NF_KIND_RMSNORM;
  m->cluster = nf_cluster_new (r, "RMSNorm", ops, 9);
  m->anchor = ss;
  m->input = xl;
  m->weight = wl;
  m->eps = eps;
  m->result = y;
  m->reduce_dims = 1u;
  m->accum = NF_ELEM_F32;
  CHECK (m->cluster != NULL);
  return r;
}

static void
test_rmsnorm (void)
{
  nf_match m;
  nf_region *r = build_rms (&m, true);
  const char *err, *t;

  t = dump (nf_emit_mhlo, &m, 0, "rmsnorm", "mhlo.mlir", &err);
  HAS (t, "func.func @rmsnorm_region0(%arg0: tensor<?xf32>, "
	  "%arg1: tensor<i32>, %arg2: tensor<?xf32>) -> tensor<?xf32>");
  HAS (t, "\"mhlo.fusion\"(%arg0, %arg1, %arg2)");
  HAS (t, "FusionKind = \"RMSNorm\"");
  HAS (t, "fusion_kind = #mhlo<fusion_kind kCustom>");
  HAS (t, "dimensions = dense<[0]> : tensor<1xi64>");
  HAS (t, "\"mhlo.add\"(%ra");
  HAS (t, "\"mhlo.multiply\"(%b0, %b0)");
  HAS (t, "\"mhlo.convert\"(%b1) : (tensor<i32>) -> tensor<f32>");
  HAS (t, "value = dense<9.999999747e-06> : tensor<f32>");
  /* The scalar inv is broadcast explicitly before x * inv.  */
  HAS (t, "\"mhlo.broadcast_in_dim\"(%v14) {broadcast_dimensions = "
	  "dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<?xf32>");
  HAS (t, "\"mhlo.return\"(%v16) : (tensor<?xf32>) -> ()");
  HASNT (t, "stablehlo");

  t = dump (nf_emit_stablehlo, &m, 0, "rmsnorm", "stablehlo.mlir", &err);
  HAS (t, "func.func private @neuronfuse.rms_norm.impl_0(");
  HAS (t, "\"stablehlo.composite\"(%arg0, %arg1, %arg2) "
	  "{name = \"neuronfuse.rms_norm\", composite_attributes = "
	  "{eps = 9.999999747e-06 : f32, reduce_dims = array<i64: 0>}, "
	  "decomposition = @neuronfuse.rms_norm.impl_0, version = 1 : i32}");
  HAS (t, "dimensions = array<i64: 0>");
  HAS (t, "broadcast_dimensions = array<i64>");
  HAS (t, "\"stablehlo.constant\"() {value = dense<");
  HASNT (t, "mhlo.");

  t = dump (nf_emit_penguin, &m, 0, "rmsnorm", "penguin.txt", &err);
  HAS (t, "# neuronfuse rendering of a Neuron-style NeuronTensorOp; "
	  "not a format the Neuron tools read\n");
  HAS (t, "%r0 = NeuronTensorOp(%x, %n, %w, op=\"RMSNorm\", "
	  "reduce_dims=[0], dtype=f32, accum=f32, eps=9.99999975e-06");
  HAS (t, "  %v8 = multiply(%x, %x) : f32[n]\n");
  HAS (t, "  %v9 = reduce_add(%v8, 0, dims=[0]) : f32\n");
  HAS (t, "  return %v16\n");

  t = dump (nf_emit_rmsnorm_custom_call, &m, 0, "rmsnorm",
	    "custom_call.mlir", &err);
  HAS (t, "\"mhlo.custom_call\"(%x, %w, %eps) {call_target_name = "
	  "\"AwsNeuronRmsNorm\", backend_config = \"0\"}");
  HAS (t, "%eps = \"mhlo.constant\"() {value = dense<9.999999747e-06> "
	  ": tensor<f32>}");

  /* Without a weight: a gain of ones.  */
  nf_match nw = m;
  nw.weight = NF_NO_VALUE;
  t = dump (nf_emit_rmsnorm_custom_call, &nw, 0, "rmsnorm-noweight",
	    "custom_call.mlir", &err);
  HAS (t, "%w = \"mhlo.broadcast_in_dim\"(%one)");
  char path[1024];
  snprintf (path, sizeof path, "%s/rmsnorm-noweight.custom_call.mlir", dir);
  remove (path);

  /* The custom call is RMSNorm only.  */
  nf_match other = m;
  other.kind = NF_KIND_MULREDSQRT;
  CHECK (dump (nf_emit_rmsnorm_custom_call, &other, 0, "x", "mlir", &err)
	 == NULL);

  /* The matcher finds exactly the match these dumps were made from, so
     the goldens are what the plugin will dump for this code.  */
  nf_match found;
  CHECK (nf_match_rmsnorm (r, m.anchor, &found));
  CHECK (found.input == m.input && found.weight == m.weight
	 && found.eps == m.eps && found.result == m.result
	 && found.reduce_dims == m.reduce_dims && found.accum == m.accum);
  CHECK (found.cluster
	 && nf_cluster_size (found.cluster) == nf_cluster_size (m.cluster));
  for (int i = 0; found.cluster && i < nf_cluster_size (m.cluster); i++)
    CHECK (nf_cluster_op (found.cluster, i) == nf_cluster_op (m.cluster, i));
  nf_match_release (&found);
  nf_cluster_free (m.cluster);
  nf_region_free (r);

  /* eps read from a parameter: the Neuron compiler's error.  */
  r = build_rms (&m, false);
  CHECK (dump (nf_emit_rmsnorm_custom_call, &m, 0, "bad", "custom_call.mlir",
	       &err) == NULL);
  CHECK (err && strcmp (err, "RmsNorm: epsilon must be a scalar constant")
		  == 0);
  /* ...which the other forms take as an operand.  */
  t = dump (nf_emit_mhlo, &m, 0, "bad", "mhlo.mlir", &err);
  HAS (t, "\"mhlo.fusion\"(%arg0, %arg1, %arg2, %arg3)");
  t = dump (nf_emit_penguin, &m, 0, "bad", "penguin.txt", &err);
  HAS (t, "eps=%eps,");
  snprintf (path, sizeof path, "%s/bad.mhlo.mlir", dir);
  remove (path);
  snprintf (path, sizeof path, "%s/bad.penguin.txt", dir);
  remove (path);
  nf_cluster_free (m.cluster);
  nf_region_free (r);
}

/* norm = sqrt (reduce_add (x * x, 0)) over a double[16], returned.  */
static void
test_l2norm (void)
{
  nf_region *r = nf_region_new ("l2norm");
  nf_srcloc loc = { "l2.c", 7, 3 };
  nf_region_set_loc (r, loc);
  nf_type vec = nf_tensor1_type (NF_ELEM_F64, nf_const_dim (16));
  nf_value x = nf_param (r, "x", vec, true);
  nf_value xl = nf_load (r, x, vec, 0, 1, 0);
  nf_value zero = nf_const (r, nf_scalar_type (NF_ELEM_F64), 0.0);
  nf_value sq = nf_binary (r, NF_OP_MUL, xl, xl);
  nf_value ss = nf_reduce (r, sq, zero, NF_OP_ADD, 1u);
  nf_value norm = nf_unary (r, NF_OP_SQRT, ss);
  nf_value_set_escapes (r, norm);
  nf_value ops[] = { sq, ss, norm };
  nf_match m = { .kind = NF_KIND_MULREDSQRT, .anchor = ss, .input = xl,
		 .weight = NF_NO_VALUE, .eps = NF_NO_VALUE, .result = norm,
		 .reduce_dims = 1u, .accum = NF_ELEM_F64 };
  m.cluster = nf_cluster_new (r, "MulRedSqrt", ops, 3);
  CHECK (m.cluster != NULL);
  const char *err, *t;

  t = dump (nf_emit_mhlo, &m, 1, "l2norm", "mhlo.mlir", &err);
  HAS (t, "func.func @l2norm_region1(%arg0: tensor<16xf64>) -> "
	  "tensor<f64>");
  HAS (t, "FusionKind = \"MulRedSqrt\"");
  HAS (t, "dimensions = dense<[0]> : tensor<1xi64>} : (tensor<16xf64>, "
	  "tensor<f64>) -> tensor<f64>");
  HAS (t, "\"mhlo.sqrt\"(%v4) : (tensor<f64>) -> tensor<f64>");

  t = dump (nf_emit_stablehlo, &m, 1, "l2norm", "stablehlo.mlir", &err);
  HAS (t, "name = \"neuronfuse.mul_red_sqrt\", composite_attributes = "
	  "{reduce_dims = array<i64: 0>}");
  HAS (t, "\"stablehlo.reduce\"(%v3, %c2)");

  t = dump (nf_emit_penguin, &m, 1, "l2norm", "penguin.txt", &err);
  HAS (t, "%r1 = NeuronTensorOp(%x, op=\"MulRedSqrt\", reduce_dims=[0], "
	  "dtype=f64, accum=f64, function=\"l2norm\", loc=\"l2.c:7:3\")");
  HAS (t, "  %v5 = sqrt(%v4) : f64\n");

  /* No custom call for an L2 norm.  */
  CHECK (dump (nf_emit_rmsnorm_custom_call, &m, 1, "l2norm",
	       "custom_call.mlir", &err) == NULL);
  nf_cluster_free (m.cluster);
  nf_region_free (r);
}

static void
test_expm1 (void)
{
  nf_match m;
  nf_region *r = nf_test_expm1 (&m, NF_ELEM_F32);
  const char *err, *t;

  t = dump (nf_emit_mhlo, &m, 2, "expm1", "mhlo.mlir", &err);
  HAS (t, "func.func @elu_region2(%arg0: tensor<f32>) -> tensor<f32>");
  HAS (t, "\"mhlo.exponential_minus_one\"(%b0) : (tensor<f32>) -> "
	  "tensor<f32>");
  HAS (t, "FusionKind = \"Expm1\"");
  t = dump (nf_emit_stablehlo, &m, 2, "expm1", "stablehlo.mlir", &err);
  HAS (t, "\"stablehlo.exponential_minus_one\"(%arg0)");
  HAS (t, "name = \"neuronfuse.expm1\", composite_attributes = {}");
  t = dump (nf_emit_penguin, &m, 2, "expm1", "penguin.txt", &err);
  HAS (t, "%r2 = NeuronTensorOp(%x, op=\"Expm1\", dtype=f32, accum=f32, ");
  HAS (t, "  %v1 = exponential_minus_one(%x) : f32\n");
  nf_cluster_free (m.cluster);
  nf_region_free (r);

  /* long double has no HLO type; the Penguin rendering shows it.  */
  r = nf_test_expm1 (&m, NF_ELEM_F80);
  CHECK (dump (nf_emit_mhlo, &m, 9, "f80", "mhlo.mlir", &err) == NULL);
  CHECK (err && strcmp (err, "long double (f80) has no HLO element type")
		  == 0);
  CHECK (dump (nf_emit_stablehlo, &m, 9, "f80", "stablehlo.mlir", &err)
	 == NULL);
  CHECK (err && strstr (err, "f80"));
  t = dump (nf_emit_penguin, &m, 9, "f80", "penguin.txt", &err);
  HAS (t, "dtype=f80");
  char path[1024];
  snprintf (path, sizeof path, "%s/f80.penguin.txt", dir);
  remove (path);
  nf_cluster_free (m.cluster);

  /* A rejected match has nothing to print.  */
  m.cluster = NULL;
  CHECK (dump (nf_emit_mhlo, &m, 9, "none", "mhlo.mlir", &err) == NULL);
  CHECK (dump (nf_emit_penguin, &m, 9, "none", "penguin.txt", &err) == NULL);
  nf_region_free (r);
}

/* y[i] = log (1 + x[i]) over double[n], as matched: the long form.  The
   HLO dumps show the fused op (log_plus_one), the Penguin one the ops
   that were fused.  */
static void
test_log1p (void)
{
  nf_region *r = nf_region_new ("softplus");
  nf_srcloc loc = { "act.c", 20, 14 };
  nf_region_set_loc (r, loc);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I64), false);
  int n = nf_region_add_sym (r, "n", np);
  nf_type vec = nf_tensor1_type (NF_ELEM_F64, nf_sym_dim (n));
  nf_value x = nf_param (r, "x", vec, true);
  nf_value y = nf_param (r, "y", vec, true);
  nf_value xl = nf_load (r, x, vec, 0, 1, 0);
  nf_value one = nf_const (r, nf_scalar_type (NF_ELEM_F64), 1.0);
  nf_value s = nf_binary (r, NF_OP_ADD, one, xl);
  nf_value l = nf_unary (r, NF_OP_LOG, s);
  nf_store (r, y, l, 0, 1, 0);
  nf_value ops[] = { s, l };
  nf_match m = { .kind = NF_KIND_LOG1P, .anchor = l, .input = xl,
		 .weight = NF_NO_VALUE, .eps = NF_NO_VALUE, .result = l,
		 .accum = NF_ELEM_F64 };
  m.cluster = nf_cluster_new (r, "Log1p", ops, 2);
  CHECK (m.cluster != NULL);
  const char *err, *t;

  t = dump (nf_emit_mhlo, &m, 3, "log1p", "mhlo.mlir", &err);
  HAS (t, "func.func @softplus_region3(%arg0: tensor<?xf64>) -> "
	  "tensor<?xf64>");
  HAS (t, "%v6 = \"mhlo.log_plus_one\"(%b0) : (tensor<?xf64>) -> "
	  "tensor<?xf64>");
  HASNT (t, "\"mhlo.log\"(");
  t = dump (nf_emit_stablehlo, &m, 3, "log1p", "stablehlo.mlir", &err);
  HAS (t, "\"stablehlo.log_plus_one\"(%arg0)");
  HAS (t, "name = \"neuronfuse.log1p\"");
  t = dump (nf_emit_penguin, &m, 3, "log1p", "penguin.txt", &err);
  HAS (t, "  %v5 = add(1, %x) : f64[n]\n  %v6 = log(%v5) : f64[n]\n");
  nf_cluster_free (m.cluster);
  nf_region_free (r);
}

static void
test_helpers (void)
{
  char buf[32];
  CHECK (strcmp (nf_emit_snake (buf, sizeof buf, "RMSNorm"), "rms_norm")
	 == 0);
  CHECK (strcmp (nf_emit_snake (buf, sizeof buf, "MulRedSqrt"),
		 "mul_red_sqrt") == 0);
  CHECK (strcmp (nf_emit_snake (buf, sizeof buf, "Expm1"), "expm1") == 0);
  CHECK (strcmp (nf_emit_snake (buf, sizeof buf, "Log1p"), "log1p") == 0);
}

/* (double) expf (x) - 1.0, matched by the real matcher: the dump runs
   expm1 in float and widens after, as the rewritten code does.  */
static void
test_expm1_widened (void)
{
  nf_region *r = nf_region_new ("q");
  nf_value x = nf_param (r, "x", nf_scalar_type (NF_ELEM_F32), false);
  nf_value e = nf_convert (r, nf_unary (r, NF_OP_EXP, x), NF_ELEM_F64);
  nf_value y = nf_binary (r, NF_OP_SUB, e,
			  nf_const (r, nf_scalar_type (NF_ELEM_F64), 1.0));
  nf_value_set_escapes (r, y);
  nf_match m;
  CHECK (nf_match_expm1 (r, y, &m));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  const char *err = NULL;
  CHECK (f && m.cluster && nf_emit_stablehlo (f, &m, 9, &err) == 0);
  if (f)
    fclose (f);
  HAS (text, "\"stablehlo.exponential_minus_one\"(%arg0) : (tensor<f32>) "
	     "-> tensor<f32>");
  HAS (text, "\"stablehlo.convert\"(%c");
  free (text);
  nf_match_release (&m);
  nf_region_free (r);
}

/* llama2.c's matmul as a front end builds its nest: w a d x n matrix
   read row by row, x broadcast over the rows, the row sums stored to
   xout; matched by nf_match_dot and planned as nf_matvec_f32.  */
static void
test_matvec (void)
{
  nf_region *r = nf_region_new ("matmul");
  nf_srcloc loc = { "run.c", 20, 5 };
  nf_region_set_loc (r, loc);
  int d = nf_region_add_sym (r, "d", NF_NO_VALUE);
  int n = nf_region_add_sym (r, "n", NF_NO_VALUE);
  nf_type mat = nf_tensor2_type (NF_ELEM_F32, nf_sym_dim (d), nf_sym_dim (n));
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, nf_sym_dim (n));
  nf_type out = nf_tensor1_type (NF_ELEM_F32, nf_sym_dim (d));
  nf_value w = nf_param (r, "w", mat, true);
  nf_value x = nf_param (r, "x", vec, true);
  nf_value y = nf_param (r, "xout", out, true);
  nf_value wl = nf_load (r, w, mat, 0, 1, NF_ROWS_DENSE);
  nf_value xl = nf_load (r, x, vec, 0, 1, 0);
  nf_value xb = nf_broadcast (r, xl, mat);
  nf_value p = nf_binary (r, NF_OP_MUL, wl, xb);
  nf_value zero = nf_const (r, nf_scalar_type (NF_ELEM_F32), 0.0);
  nf_value s = nf_reduce (r, p, zero, NF_OP_ADD, 2u);
  nf_value st = nf_store (r, y, s, 0, 1, 0);
  nf_match m;
  CHECK (nf_match_dot (r, s, &m));
  CHECK (m.input == wl && m.weight == xl && m.result == s);
  nf_call c;
  nf_call_flags fl = { false, false };
  CHECK (nf_call_plan (r, &m, &fl, &c) == NULL);
  CHECK (strcmp (c.callee, "nf_matvec_f32") == 0);
  CHECK (c.nargs == 5 && c.args[0].value == st && c.args[3].role == NF_ROLE_ROWS);
  CHECK (c.disjoint && c.n_overlaps == 2);
  const char *err, *t;
  t = dump (nf_emit_mhlo, &m, 1, "matvec", "mhlo.mlir", &err);
  HAS (t, "FusionKind = \"Dot\"");
  t = dump (nf_emit_stablehlo, &m, 1, "matvec", "stablehlo.mlir", &err);
  HAS (t, "name = \"neuronfuse.dot\"");
  t = dump (nf_emit_penguin, &m, 1, "matvec", "penguin.txt", &err);
  HAS (t, "op=\"Dot\"");
  nf_match_release (&m);
  nf_region_free (r);
}

/* llama2.c's in-place softmax, matched by nf_match_softmax: the max
   reduce, the SubExp pair (x - max, exp), the sum and the division.  */
static void
test_softmax (void)
{
  nf_region *r = nf_region_new ("softmax");
  nf_srcloc loc = { "run.c", 40, 5 };
  nf_region_set_loc (r, loc);
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, "size", NF_NO_VALUE));
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, n);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value seed = nf_load (r, xp, f, 0, 1, 0);
  nf_value x1 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value m = nf_reduce (r, x1, seed, NF_OP_MAX, 1u);
  nf_value x2 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value e = nf_unary (r, NF_OP_EXP,
			 nf_binary (r, NF_OP_SUB, x2, nf_broadcast (r, m, vec)));
  nf_value s = nf_reduce (r, e, nf_const (r, f, 0.0), NF_OP_ADD, 1u);
  nf_value q = nf_binary (r, NF_OP_DIV, e, nf_broadcast (r, s, vec));
  nf_store (r, xp, q, 0, 1, 0);
  nf_match mt;
  CHECK (nf_match_softmax (r, m, &mt));
  const char *err, *t;
  t = dump (nf_emit_mhlo, &mt, 1, "softmax", "mhlo.mlir", &err);
  HAS (t, "FusionKind = \"Softmax\"");
  HAS (t, "\"mhlo.exponential\"");
  t = dump (nf_emit_stablehlo, &mt, 1, "softmax", "stablehlo.mlir", &err);
  HAS (t, "name = \"neuronfuse.softmax\"");
  t = dump (nf_emit_penguin, &mt, 1, "softmax", "penguin.txt", &err);
  HAS (t, "op=\"Softmax\"");
  nf_match_release (&mt);
  nf_region_free (r);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: emit-test DIR\n");
      return 2;
    }
  dir = argv[1];
  test_helpers ();
  test_rmsnorm ();
  test_l2norm ();
  test_expm1 ();
  test_log1p ();
  test_expm1_widened ();
  test_matvec ();
  test_softmax ();
  NF_DONE ();
}
