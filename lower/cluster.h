/* cluster.h: FusionCluster, the kind-agnostic region builder.

   As in the Neuron compiler's NeuronOpFusion: a matcher picks the ops of
   an idiom and hands them over with a kind tag; the cluster knows nothing
   about idioms.  It keeps the ops in an ordered set (region order, which
   is a topological order) with an O(1) membership set, computes
   live-ins (values defined outside the cluster, or region parameters,
   used inside) and live-outs (values defined inside and used outside, or
   escaping the region), and describes the fused op the lowerings print:
   operands = live-ins, results = live-outs, body = the ops, kind = tag.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_CLUSTER_H
#define NF_CLUSTER_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nf_cluster nf_cluster;

/* A new cluster of R (which must outlive it) tagged KIND (copied, e.g.
   "RMSNorm") holding the N ops of OPS, in any order and possibly
   repeated.  PARAM and CONST ops are never members: they are always
   inputs.  Returns NULL when out of memory or when an op is not R's.  */
nf_cluster *nf_cluster_new (const nf_region *r, const char *kind,
			    const nf_value *ops, int n);
void nf_cluster_free (nf_cluster *c);

const nf_region *nf_cluster_region (const nf_cluster *c);
const char *nf_cluster_kind (const nf_cluster *c);

/* The body: member ops in region order.  */
int nf_cluster_size (const nf_cluster *c);
nf_value nf_cluster_op (const nf_cluster *c, int i);
bool nf_cluster_contains (const nf_cluster *c, nf_value v);
/* The first member with opcode OP, or NF_NO_VALUE.  */
nf_value nf_cluster_find_op (const nf_cluster *c, enum nf_opcode op);

/* Live-ins in order of first use by the body; live-outs in region order.  */
int nf_cluster_n_live_ins (const nf_cluster *c);
nf_value nf_cluster_live_in (const nf_cluster *c, int i);
int nf_cluster_n_live_outs (const nf_cluster *c);
nf_value nf_cluster_live_out (const nf_cluster *c, int i);

/* Index of V among the live-ins (live-outs), or -1.  */
int nf_cluster_live_in_index (const nf_cluster *c, nf_value v);
int nf_cluster_live_out_index (const nf_cluster *c, nf_value v);

/* "Update inputs": every live-in of C that EARLIER (a cluster of the same
   region, fused before C) produces is rewired to EARLIER's result: the
   live-in then reads result K of EARLIER.  Returns the number of inputs
   rewired.  */
int nf_cluster_update_inputs (nf_cluster *c, const nf_cluster *earlier);

/* Where live-in I comes from: NULL if from the region itself, else the
   earlier cluster (and *RESULT its live-out index).  */
const nf_cluster *nf_cluster_input_source (const nf_cluster *c, int i,
					   int *result);

#ifdef __cplusplus
}
#endif

#endif /* NF_CLUSTER_H */
