/* cluster.c: FusionCluster (see cluster.h).

   Membership is a bitset over the region's dense value ids rather than a
   hash set: ids are small consecutive integers, so a bit per value gives
   the same O(1) test with no hashing and no collisions.

   Live sets, computed once at construction (the region is not changed
   while clusters of it exist):
   - live-in: an operand of a member that is not a member (PARAM and CONST
     are never members, so region parameters are always live-ins);
   - live-out: a member used by a non-member op, or escaping the region.
     A member both used inside and exported is a live-out too: the fused
     op returns it (the Neuron pass's case of a value "used inside and
     exported").

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "cluster.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct nf_input
{
  nf_value v;
  const nf_cluster *source;	/* Earlier cluster producing it, or NULL.  */
  int result;			/* Its live-out index there.  */
};

struct nf_cluster
{
  const nf_region *region;
  char *kind;
  unsigned char *member;	/* Bitset over value ids.  */
  nf_value *body;
  int n_body;
  struct nf_input *ins;
  int n_ins;
  nf_value *outs;
  int n_outs;
};

static bool
nf_bit (const unsigned char *set, nf_value v)
{
  return (set[v / CHAR_BIT] >> (v % CHAR_BIT)) & 1;
}

static void
nf_set_bit (unsigned char *set, nf_value v)
{
  set[v / CHAR_BIT] |= (unsigned char) (1u << (v % CHAR_BIT));
}

bool
nf_cluster_contains (const nf_cluster *c, nf_value v)
{
  return v >= 0 && v < nf_region_n_values (c->region)
	 && nf_bit (c->member, v);
}

nf_value
nf_cluster_find_op (const nf_cluster *c, enum nf_opcode op)
{
  for (int i = 0; i < nf_cluster_size (c); i++)
    if (nf_op (c->region, nf_cluster_op (c, i)) == op)
      return nf_cluster_op (c, i);
  return NF_NO_VALUE;
}

/* Compute the body, live-ins and live-outs from the membership set.
   Returns false when out of memory.  */
static bool
nf_cluster_compute (nf_cluster *c)
{
  const nf_region *r = c->region;
  int n = nf_region_n_values (r);
  unsigned char *seen = calloc ((size_t) n / CHAR_BIT + 1, 1);

  c->body = malloc ((n + 1) * sizeof *c->body);	/* + 1: never malloc (0).  */
  c->ins = malloc ((n + 1) * sizeof *c->ins);
  c->outs = malloc ((n + 1) * sizeof *c->outs);
  if (!seen || !c->body || !c->ins || !c->outs)
    {
      free (seen);
      return false;
    }
  for (nf_value v = 0; v < n; v++)
    {
      bool in_c = nf_bit (c->member, v);
      if (in_c)
	c->body[c->n_body++] = v;
      for (int i = 0; i < nf_op_n_operands (r, v); i++)
	{
	  nf_value o = nf_op_operand (r, v, i);
	  if (in_c && !nf_bit (c->member, o) && !nf_bit (seen, o))
	    {
	      nf_set_bit (seen, o);
	      c->ins[c->n_ins].v = o;
	      c->ins[c->n_ins].source = NULL;
	      c->ins[c->n_ins].result = -1;
	      c->n_ins++;
	    }
	}
    }
  /* Live-outs: members with a use outside, or escaping.  */
  memset (seen, 0, (size_t) n / CHAR_BIT + 1);
  for (nf_value u = 0; u < n; u++)
    if (!nf_bit (c->member, u))
      for (int i = 0; i < nf_op_n_operands (r, u); i++)
	{
	  nf_value o = nf_op_operand (r, u, i);
	  if (nf_bit (c->member, o))
	    nf_set_bit (seen, o);
	}
  for (int i = 0; i < c->n_body; i++)
    {
      nf_value v = c->body[i];
      if (nf_bit (seen, v) || nf_value_escapes (r, v))
	c->outs[c->n_outs++] = v;
    }
  free (seen);
  return true;
}

nf_cluster *
nf_cluster_new (const nf_region *r, const char *kind, const nf_value *ops,
		int n)
{
  int nv = nf_region_n_values (r);
  nf_cluster *c = calloc (1, sizeof *c);
  if (!c)
    return NULL;
  c->region = r;
  c->kind = strdup (kind);
  c->member = calloc ((size_t) nv / CHAR_BIT + 1, 1);
  if (!c->kind || !c->member)
    goto err;
  for (int i = 0; i < n; i++)
    {
      if (ops[i] < 0 || ops[i] >= nv)
	goto err;
      enum nf_opcode op = nf_op (r, ops[i]);
      if (op != NF_OP_PARAM && op != NF_OP_CONST)
	nf_set_bit (c->member, ops[i]);
    }
  if (!nf_cluster_compute (c))
    goto err;
  return c;

err:
  nf_cluster_free (c);
  return NULL;
}

void
nf_cluster_free (nf_cluster *c)
{
  if (!c)
    return;
  free (c->kind);
  free (c->member);
  free (c->body);
  free (c->ins);
  free (c->outs);
  free (c);
}

const nf_region *
nf_cluster_region (const nf_cluster *c)
{
  return c->region;
}

const char *
nf_cluster_kind (const nf_cluster *c)
{
  return c->kind;
}

int
nf_cluster_size (const nf_cluster *c)
{
  return c->n_body;
}

nf_value
nf_cluster_op (const nf_cluster *c, int i)
{
  return i >= 0 && i < c->n_body ? c->body[i] : NF_NO_VALUE;
}

int
nf_cluster_n_live_ins (const nf_cluster *c)
{
  return c->n_ins;
}

nf_value
nf_cluster_live_in (const nf_cluster *c, int i)
{
  return i >= 0 && i < c->n_ins ? c->ins[i].v : NF_NO_VALUE;
}

int
nf_cluster_n_live_outs (const nf_cluster *c)
{
  return c->n_outs;
}

nf_value
nf_cluster_live_out (const nf_cluster *c, int i)
{
  return i >= 0 && i < c->n_outs ? c->outs[i] : NF_NO_VALUE;
}

int
nf_cluster_live_in_index (const nf_cluster *c, nf_value v)
{
  for (int i = 0; i < c->n_ins; i++)
    if (c->ins[i].v == v)
      return i;
  return -1;
}

int
nf_cluster_live_out_index (const nf_cluster *c, nf_value v)
{
  for (int i = 0; i < c->n_outs; i++)
    if (c->outs[i] == v)
      return i;
  return -1;
}

int
nf_cluster_update_inputs (nf_cluster *c, const nf_cluster *earlier)
{
  int n = 0;
  if (earlier == c || earlier->region != c->region)
    return 0;
  for (int i = 0; i < c->n_ins; i++)
    {
      int k = nf_cluster_live_out_index (earlier, c->ins[i].v);
      if (k >= 0)
	{
	  c->ins[i].source = earlier;
	  c->ins[i].result = k;
	  n++;
	}
    }
  return n;
}

const nf_cluster *
nf_cluster_input_source (const nf_cluster *c, int i, int *result)
{
  if (i < 0 || i >= c->n_ins)
    return NULL;
  if (result)
    *result = c->ins[i].result;
  return c->ins[i].source;
}
