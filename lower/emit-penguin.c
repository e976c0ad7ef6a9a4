/* emit-penguin.c: a fused region in the project's Penguin-style
   rendering (the `.penguin.txt` dump).

   Neuron's internal "Penguin" IR has no public text format, so this is
   our own greppable pseudo-IR, labelled as such on its first line: one
   NeuronTensorOp line whose sources are the region's live-ins (constants
   are printed inline where they are used), with the kind and the facts
   of the match as attributes, then one indented line per body op as it
   was matched (Expm1 and Log1p keep their long form here, unlike the
   HLO dumps), then the results.  For RMSNorm:

     # neuronfuse rendering of a Neuron-style NeuronTensorOp; not a ...
     %r0 = NeuronTensorOp(%x, %n, %w, op="RMSNorm", reduce_dims=[0],
	   dtype=f32, accum=f32, eps=9.99999975e-06, function="rmsnorm",
	   loc="rms.c:3:5")				(one line)
       %v8 = multiply(%x, %x) : f32[n]
       %v9 = reduce_add(%v8, 0, dims=[0]) : f32
       ...
       %v16 = multiply(%v15, %w) : f32[n]
       return %v16

   Names: a parameter (or a unit-stride load of one from offset 0) is
   %<its name>, anything else %v<id>.  The format is stable: tests and
   reviewers grep it.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "emit.h"

#include <stdio.h>

/* Print the name of V (an operand in the region of C) to F.  */
static void
nf_penguin_name (FILE *f, const nf_cluster *c, nf_value v)
{
  const nf_region *r = nf_cluster_region (c);
  enum nf_opcode op = nf_op (r, v);
  if (!nf_cluster_contains (c, v))
    {
      if (op == NF_OP_PARAM)
	{
	  fprintf (f, "%%%s", nf_value_label (r, v));
	  return;
	}
      if (op == NF_OP_LOAD && nf_access_offset (r, v) == 0
	  && nf_access_stride (r, v) == 1
	  && nf_op (r, nf_access_base (r, v)) == NF_OP_PARAM)
	{
	  fprintf (f, "%%%s", nf_value_label (r, nf_access_base (r, v)));
	  return;
	}
      if (op == NF_OP_CONST)
	{
	  enum nf_elem e = nf_value_type (r, v).elem;
	  double x = nf_const_value (r, v);
	  if (!nf_elem_is_float (e))
	    fprintf (f, "%lld", (long long) x);
	  else if (e == NF_ELEM_F16 || e == NF_ELEM_F32)
	    fprintf (f, "%.9g", (double) (float) x);
	  else
	    fprintf (f, "%.17g", x);
	  return;
	}
    }
  fprintf (f, "%%v%d", v);
}

/* Print type T of region R as "f32", "f32[n]", "f64[n,8]" to F.  */
static void
nf_penguin_type (FILE *f, const nf_region *r, nf_type t)
{
  fputs (nf_elem_name (t.elem), f);
  for (int i = 0; i < t.rank; i++)
    {
      fputc (i ? ',' : '[', f);
      if (t.dims[i].sym >= 0)
	fputs (nf_region_sym_name (r, t.dims[i].sym), f);
      else
	fprintf (f, "%lld", (long long) t.dims[i].extent);
    }
  if (t.rank)
    fputc (']', f);
}

/* Print the dimension list of MASK as "[0, 1]" to F.  */
static void
nf_penguin_dims (FILE *f, unsigned mask)
{
  const char *sep = "";
  fputc ('[', f);
  for (int d = 0; d < NF_MAX_RANK; d++)
    if (mask & (1u << d))
      {
	fprintf (f, "%s%d", sep, d);
	sep = ", ";
      }
  fputc (']', f);
}

static const char *const nf_penguin_cmp[] = { "LT", "LE", "GT", "GE", "EQ",
					      "NE" };

/* Print the body line of op V of cluster C to F.  */
static void
nf_penguin_op (FILE *f, const nf_cluster *c, nf_value v)
{
  const nf_region *r = nf_cluster_region (c);
  enum nf_opcode op = nf_op (r, v);
  const char *name = nf_emit_op_name (op);
  int n = nf_op_n_operands (r, v);

  fputs ("  ", f);
  if (op != NF_OP_STORE)
    fprintf (f, "%%v%d = ", v);
  if (op == NF_OP_REDUCE)
    {
      const char *comb = nf_emit_op_name (nf_reduce_combiner (r, v));
      fprintf (f, "reduce_%s", comb ? comb : "opaque");
    }
  else if (op == NF_OP_OPAQUE)
    fprintf (f, "opaque<%s>", nf_value_label (r, v));
  else if (op == NF_OP_BROADCAST)
    fputs ("broadcast", f);
  else
    fputs (name ? name : nf_opcode_name (op), f);
  fputc ('(', f);
  if (op == NF_OP_LOAD || op == NF_OP_STORE)
    {
      nf_penguin_name (f, c, nf_access_base (r, v));
      fputs (", ", f);
    }
  for (int i = 0; i < n; i++)
    {
      if (i)
	fputs (", ", f);
      nf_penguin_name (f, c, nf_op_operand (r, v, i));
    }
  if (op == NF_OP_REDUCE)
    {
      fputs (", dims=", f);
      nf_penguin_dims (f, nf_reduce_dims (r, v));
    }
  else if (op == NF_OP_CMP)
    fprintf (f, ", dir=%s", nf_penguin_cmp[nf_cmp_pred (r, v)]);
  else if (op == NF_OP_LOAD || op == NF_OP_STORE)
    fprintf (f, "%soffset=%lld, stride=%lld", op == NF_OP_STORE ? ", " : "",
	     (long long) nf_access_offset (r, v),
	     (long long) nf_access_stride (r, v));
  fputc (')', f);
  if (op != NF_OP_STORE)
    {
      fputs (" : ", f);
      nf_penguin_type (f, r, nf_value_type (r, v));
    }
  fputc ('\n', f);
}

int
nf_emit_penguin (FILE *f, const nf_match *m, int id, const char **err)
{
  if (!m || !m->cluster)
    {
      *err = "no fused region (the match was rejected)";
      return -1;
    }
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n_out = nf_cluster_n_live_outs (c);
  if (n_out == 0)
    {
      *err = "the fused region has no result";
      return -1;
    }

  fputs ("# neuronfuse rendering of a Neuron-style NeuronTensorOp; "
	 "not a format the Neuron tools read\n", f);
  fprintf (f, "%%r%d = NeuronTensorOp(", id);
  for (int i = 0; i < nf_cluster_n_live_ins (c); i++)
    {
      nf_value v = nf_cluster_live_in (c, i);
      if (nf_op (r, v) == NF_OP_CONST)
	continue;
      nf_penguin_name (f, c, v);
      fputs (", ", f);
    }
  fputs ("op=", f);
  nf_emit_string (f, nf_cluster_kind (c));
  if (m->reduce_dims)
    {
      fputs (", reduce_dims=", f);
      nf_penguin_dims (f, m->reduce_dims);
    }
  fprintf (f, ", dtype=%s",
	   nf_elem_name (nf_value_type (r, nf_cluster_live_out (c, 0)).elem));
  if (m->accum != NF_ELEM_NONE)
    fprintf (f, ", accum=%s", nf_elem_name (m->accum));
  if (m->eps != NF_NO_VALUE)
    {
      fputs (", eps=", f);
      nf_penguin_name (f, c, m->eps);
    }
  if (n_out > 1)
    fprintf (f, ", results=%d", n_out);
  fputs (", function=", f);
  nf_emit_string (f, nf_region_function (r));
  nf_value at = m->anchor >= 0 ? m->anchor : nf_cluster_op (c, 0);
  nf_srcloc loc = nf_value_loc (r, at);
  if (loc.file)
    {
      char buf[512];
      snprintf (buf, sizeof buf, "%s:%d:%d", loc.file, loc.line, loc.column);
      fputs (", loc=", f);
      nf_emit_string (f, buf);
    }
  fputs (")\n", f);
  for (int i = 0; i < nf_cluster_size (c); i++)
    nf_penguin_op (f, c, nf_cluster_op (c, i));
  fputs ("  return", f);
  for (int i = 0; i < n_out; i++)
    {
      fputs (i ? ", " : " ", f);
      nf_penguin_name (f, c, nf_cluster_live_out (c, i));
    }
  fputc ('\n', f);
  return 0;
}
