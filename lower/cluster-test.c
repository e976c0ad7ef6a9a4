/* cluster-test: FusionCluster on hand-built region graphs: live-ins and
   live-outs of an RMSNorm-shaped cluster, a value both used inside and
   exported, PARAM/CONST never members, and two clusters in sequence
   joined by "update inputs".  */

#include "cluster.h"
#include "nf-check.h"

#include <string.h>

/* The llama2.c rmsnorm as a graph:
     ss = reduce_add (x * x, 0);  inv = 1 / sqrt (ss / (float) n + eps);
     y = (x * inv) * w;  store y.
   Fills the values the tests look at.  */
struct rms
{
  nf_region *r;
  nf_value x, w, eps, nparam, xl, wl, zero, one, sq, ss, nf, mean, sum,
    root, inv, binv, xs, y, st;
};

static void
build_rms (struct rms *g)
{
  nf_region *r = g->r = nf_region_new ("rmsnorm");
  nf_srcloc loc = { "rms.c", 3, 5 };
  nf_region_set_loc (r, loc);
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  g->nparam = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  int n = nf_region_add_sym (r, "n", g->nparam);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, nf_sym_dim (n));
  g->x = nf_param (r, "x", vec, true);
  g->w = nf_param (r, "w", vec, true);
  g->eps = nf_param (r, "eps", f, false);
  g->xl = nf_load (r, g->x, vec, 0, 1, 0);
  g->wl = nf_load (r, g->w, vec, 0, 1, 0);
  g->zero = nf_const (r, f, 0.0);
  g->one = nf_const (r, f, 1.0);
  g->sq = nf_binary (r, NF_OP_MUL, g->xl, g->xl);
  g->ss = nf_reduce (r, g->sq, g->zero, NF_OP_ADD, 1u);
  g->nf = nf_convert (r, g->nparam, NF_ELEM_F32);
  g->mean = nf_binary (r, NF_OP_DIV, g->ss, g->nf);
  g->sum = nf_binary (r, NF_OP_ADD, g->mean, g->eps);
  g->root = nf_unary (r, NF_OP_SQRT, g->sum);
  g->inv = nf_binary (r, NF_OP_DIV, g->one, g->root);
  g->binv = nf_broadcast (r, g->inv, vec);
  g->xs = nf_binary (r, NF_OP_MUL, g->xl, g->binv);
  g->y = nf_binary (r, NF_OP_MUL, g->xs, g->wl);
  g->st = nf_store (r, g->x, g->y, 0, 1, 0);
}

static void
test_ir (void)
{
  struct rms g;
  build_rms (&g);
  CHECK (g.st == nf_region_n_values (g.r) - 1);
  CHECK (nf_op (g.r, g.ss) == NF_OP_REDUCE);
  CHECK (nf_reduce_combiner (g.r, g.ss) == NF_OP_ADD);
  CHECK (nf_value_type (g.r, g.ss).rank == 0);
  CHECK (nf_value_type (g.r, g.sq).rank == 1);
  CHECK (nf_value_type (g.r, g.nf).elem == NF_ELEM_F32);
  CHECK (nf_value_n_uses (g.r, g.xl) == 3);	/* x * x and x * inv.  */
  CHECK (nf_value_single_user (g.r, g.sq) == g.ss);
  CHECK (nf_value_single_user (g.r, g.xl) == NF_NO_VALUE);
  CHECK (nf_value_loc (g.r, g.y).line == 3);
  CHECK (strcmp (nf_region_sym_name (g.r, 0), "n") == 0);
  CHECK (nf_region_sym_value (g.r, 0) == g.nparam);
  CHECK (strcmp (nf_value_label (g.r, g.x), "x") == 0);
  /* x * x is one user of x, used twice.  */
  nf_region *t = nf_region_new ("square");
  nf_type v1 = nf_tensor1_type (NF_ELEM_F32, nf_const_dim (8));
  nf_value l = nf_load (t, nf_param (t, "a", v1, true), v1, 0, 1, 0);
  nf_value m = nf_binary (t, NF_OP_MUL, l, l);
  CHECK (nf_value_single_user (t, l) == m);
  CHECK (nf_value_n_uses (t, l) == 2);
  nf_value_set_escapes (t, m);
  CHECK (nf_value_single_user (t, m) == NF_NO_VALUE);
  nf_region_free (t);
  /* A bad operand fails the build instead of corrupting the graph.  */
  CHECK (nf_binary (g.r, NF_OP_ADD, g.y, 1000) == NF_NO_VALUE);
  nf_region_free (g.r);
}

static void
test_rmsnorm_cluster (void)
{
  struct rms g;
  build_rms (&g);
  nf_value ops[] = { g.y,   g.sq,  g.ss,   g.mean, g.sum, g.root,
		     g.inv, g.binv, g.xs,  g.nf,   g.one, g.sq };
  nf_cluster *c = nf_cluster_new (g.r, "RMSNorm", ops, 12);
  CHECK (c != NULL);
  CHECK (strcmp (nf_cluster_kind (c), "RMSNorm") == 0);
  /* CONST "one" is not a member; the repeated sq counts once.  */
  CHECK (nf_cluster_size (c) == 10);
  CHECK (!nf_cluster_contains (c, g.one));
  /* Body in region order.  */
  for (int i = 1; i < nf_cluster_size (c); i++)
    CHECK (nf_cluster_op (c, i - 1) < nf_cluster_op (c, i));
  /* Live-ins in order of first use: x, 0, n, eps, 1, w.  */
  nf_value want_in[] = { g.xl, g.zero, g.nparam, g.eps, g.one, g.wl };
  CHECK (nf_cluster_n_live_ins (c) == 6);
  for (int i = 0; i < 6; i++)
    CHECK (nf_cluster_live_in (c, i) == want_in[i]);
  /* The only live-out is y, read by the store.  */
  CHECK (nf_cluster_n_live_outs (c) == 1);
  CHECK (nf_cluster_live_out (c, 0) == g.y);
  CHECK (nf_cluster_live_out_index (c, g.y) == 0);
  CHECK (nf_cluster_live_in_index (c, g.wl) == 5);
  nf_cluster_free (c);
  nf_region_free (g.r);
}

/* ss is returned by the function too: a value used inside (by the mean)
   and exported is a live-out.  And a member read by a non-member op is a
   live-out as well.  */
static void
test_used_inside_and_exported (void)
{
  struct rms g;
  build_rms (&g);
  nf_value_set_escapes (g.r, g.ss);
  nf_value ops[] = { g.sq, g.ss, g.nf, g.mean, g.sum, g.root, g.inv };
  nf_cluster *c = nf_cluster_new (g.r, "RMSNorm", ops, 7);
  CHECK (c != NULL);
  /* ss escapes; inv is read by the broadcast outside.  */
  CHECK (nf_cluster_n_live_outs (c) == 2);
  CHECK (nf_cluster_live_out (c, 0) == g.ss);
  CHECK (nf_cluster_live_out (c, 1) == g.inv);
  nf_cluster_free (c);
  nf_region_free (g.r);
}

/* Two clusters in sequence: an L2 norm (MulRedSqrt) and a normalisation
   z = x / norm that reads it; "update inputs" rewires the second's input
   to the first's result.  */
static void
test_two_clusters (void)
{
  nf_region *r = nf_region_new ("l2normalize");
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I64), false);
  int n = nf_region_add_sym (r, "n", np);
  nf_type vec = nf_tensor1_type (NF_ELEM_F64, nf_sym_dim (n));
  nf_value x = nf_param (r, "x", vec, true);
  nf_value z = nf_param (r, "z", vec, true);
  nf_value xl = nf_load (r, x, vec, 0, 1, 0);
  nf_value zero = nf_const (r, nf_scalar_type (NF_ELEM_F64), 0.0);
  nf_value sq = nf_binary (r, NF_OP_MUL, xl, xl);
  nf_value ss = nf_reduce (r, sq, zero, NF_OP_ADD, 1u);
  nf_value norm = nf_unary (r, NF_OP_SQRT, ss);
  nf_value bn = nf_broadcast (r, norm, vec);
  nf_value q = nf_binary (r, NF_OP_DIV, xl, bn);
  nf_store (r, z, q, 0, 1, 0);

  nf_value a_ops[] = { sq, ss, norm };
  nf_value b_ops[] = { bn, q };
  nf_cluster *a = nf_cluster_new (r, "MulRedSqrt", a_ops, 3);
  nf_cluster *b = nf_cluster_new (r, "Div", b_ops, 2);
  CHECK (a && b);
  CHECK (nf_cluster_n_live_outs (a) == 1 && nf_cluster_live_out (a, 0) == norm);
  CHECK (nf_cluster_n_live_ins (b) == 2);
  CHECK (nf_cluster_live_in (b, 0) == norm);
  CHECK (nf_cluster_live_in (b, 1) == xl);
  int k = -2;
  CHECK (nf_cluster_input_source (b, 0, &k) == NULL);
  CHECK (nf_cluster_update_inputs (b, a) == 1);
  CHECK (nf_cluster_input_source (b, 0, &k) == a && k == 0);
  CHECK (nf_cluster_input_source (b, 1, &k) == NULL);
  CHECK (nf_cluster_update_inputs (b, b) == 0);
  nf_cluster_free (a);
  nf_cluster_free (b);
  nf_region_free (r);
}

int
main (void)
{
  test_ir ();
  test_rmsnorm_cluster ();
  test_used_inside_and_exported ();
  test_two_clusters ();
  NF_DONE ();
}
