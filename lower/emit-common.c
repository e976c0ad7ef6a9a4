/* emit-common.c: what the MHLO, StableHLO and Penguin emitters share:
   types, literals, symbols, the operand list of a fused op, and the body
   printer of the two HLO dialects (they differ only in the op prefix and
   in the spelling of dimension lists, see nf_hlo_dialect).

   The body printer turns each cluster op into one generic-form op, and
   makes explicit what the region IR leaves implicit, because HLO needs
   equal operand shapes and element types:

     before (region IR)              after (MHLO)
     inv : f32                       %t0 = "mhlo.broadcast_in_dim"(%v7)
     y = x * inv : f32[n]              {broadcast_dimensions = dense<>
                                        : tensor<0xi64>}
                                        : (tensor<f32>) -> tensor<?xf32>
                                     %v8 = "mhlo.multiply"(%b0, %t0)
                                        : (tensor<?xf32>, tensor<?xf32>)
                                        -> tensor<?xf32>

   Steps, per op of the body (region order, a topological order):
   1. name the operands: a member is %v<id>, a constant live-in %c<id>
      (materialised first, see nf_emit_hlo_body), any other live-in
      %<arg_prefix><k> with K its position among the fused op's operands;
   2. coerce each operand to the shape and element type the HLO op wants
      (a convert, then a broadcast_in_dim, each named %t<N>);
   3. print the op with its attributes (reduce: a combiner region and the
      reduced dimensions).

   Limitations: loads, stores and opaque ops inside a cluster have no HLO
   form (the matchers keep memory accesses as live-ins); symbolic
   extents print as `?`, where the real tools would want the dynamic_*
   ops for broadcasts to such shapes; a rank-1 to rank-2 broadcast whose
   extents do not tell the axes apart is mapped as the result of a
   reduction over dimension 1 when it is one, else to the trailing axis.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "emit.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

const nf_hlo_dialect nf_mhlo_dialect = { "mhlo", 1 };
const nf_hlo_dialect nf_stablehlo_dialect = { "stablehlo", 0 };

const char *
nf_emit_op_name (enum nf_opcode op)
{
  switch (op)
    {
    case NF_OP_ADD:
      return "add";
    case NF_OP_SUB:
      return "subtract";
    case NF_OP_MUL:
      return "multiply";
    case NF_OP_DIV:
      return "divide";
    case NF_OP_NEG:
      return "negate";
    case NF_OP_SQRT:
      return "sqrt";
    case NF_OP_RSQRT:
      return "rsqrt";
    case NF_OP_POW:
      return "power";
    case NF_OP_EXP:
      return "exponential";
    case NF_OP_LOG:
      return "log";
    case NF_OP_EXPM1:
      return "exponential_minus_one";
    case NF_OP_LOG1P:
      return "log_plus_one";
    case NF_OP_MIN:
      return "minimum";
    case NF_OP_MAX:
      return "maximum";
    case NF_OP_CONVERT:
      return "convert";
    case NF_OP_CMP:
      return "compare";
    case NF_OP_SELECT:
      return "select";
    case NF_OP_REDUCE:
      return "reduce";
    case NF_OP_BROADCAST:
      return "broadcast_in_dim";
    default:
      return NULL;
    }
}

/* Check that type T has an HLO element type.  Returns 0, or -1 with
   *ERR set.  */
static int
nf_check_elem (nf_type t, const char **err)
{
  if (t.elem == NF_ELEM_F80)
    {
      *err = "long double (f80) has no HLO element type";
      return -1;
    }
  if (t.elem == NF_ELEM_NONE)
    {
      *err = "a value-less op (a store) has no HLO form";
      return -1;
    }
  return 0;
}

int
nf_emit_hlo_check (const nf_match *m, const char **err)
{
  if (!m || !m->cluster)
    {
      *err = "no fused region (the match was rejected)";
      return -1;
    }
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  if (nf_cluster_n_live_outs (c) == 0)
    {
      *err = "the fused region has no result";
      return -1;
    }
  for (int i = 0; i < nf_cluster_n_live_ins (c); i++)
    if (nf_check_elem (nf_value_type (r, nf_cluster_live_in (c, i)), err))
      return -1;
  for (int i = 0; i < nf_cluster_size (c); i++)
    {
      nf_value v = nf_cluster_op (c, i);
      enum nf_opcode op = nf_op (r, v);
      if (op == NF_OP_LOAD || op == NF_OP_STORE)
	{
	  *err = "a memory access inside a fused region has no HLO form";
	  return -1;
	}
      if (!nf_emit_op_name (op))
	{
	  *err = "an opaque op inside a fused region has no HLO form";
	  return -1;
	}
      if (op == NF_OP_REDUCE)
	{
	  enum nf_opcode comb = nf_reduce_combiner (r, v);
	  if (comb != NF_OP_ADD && comb != NF_OP_MUL && comb != NF_OP_MIN
	      && comb != NF_OP_MAX)
	    {
	      *err = "a reduction with an unknown combiner has no HLO form";
	      return -1;
	    }
	}
      if (nf_check_elem (nf_value_type (r, v), err))
	return -1;
      for (int k = 0; k < nf_op_n_operands (r, v); k++)
	if (nf_check_elem (nf_value_type (r, nf_op_operand (r, v, k)), err))
	  return -1;
    }
  return 0;
}

void
nf_emit_type (FILE *f, nf_type t)
{
  fputs ("tensor<", f);
  for (int i = 0; i < t.rank; i++)
    {
      if (t.dims[i].sym >= 0)
	fputs ("?x", f);
      else
	fprintf (f, "%lldx", (long long) t.dims[i].extent);
    }
  fprintf (f, "%s>", nf_elem_name (t.elem));
}

void
nf_emit_literal (FILE *f, enum nf_elem elem, double v)
{
  switch (elem)
    {
    case NF_ELEM_BOOL:
      fputs (v != 0 ? "true" : "false", f);
      return;
    case NF_ELEM_I32:
    case NF_ELEM_I64:
      fprintf (f, "%lld", (long long) v);
      return;
    default:
      break;
    }
  if (isfinite (v))
    {
      /* Enough digits to round-trip the value in its own type.  */
      if (elem == NF_ELEM_F64 || elem == NF_ELEM_F80)
	fprintf (f, "%.17e", v);
      else
	fprintf (f, "%.9e", (double) (float) v);
      return;
    }
  /* MLIR reads Inf and NaN as the hex bit pattern of the type.  */
  if (elem == NF_ELEM_F16)
    fprintf (f, "0x%04X",
	     isnan (v) ? 0x7E00u : signbit (v) ? 0xFC00u : 0x7C00u);
  else if (elem == NF_ELEM_F32)
    {
      float x = (float) v;
      uint32_t bits;
      memcpy (&bits, &x, sizeof bits);
      fprintf (f, "0x%08lX", (unsigned long) bits);
    }
  else
    {
      uint64_t bits;
      memcpy (&bits, &v, sizeof bits);
      fprintf (f, "0x%016llX", (unsigned long long) bits);
    }
}

void
nf_emit_string (FILE *f, const char *s)
{
  fputc ('"', f);
  for (; *s; s++)
    {
      unsigned char ch = (unsigned char) *s;
      if (ch == '"' || ch == '\\')
	fprintf (f, "\\%c", ch);
      else if (ch < 0x20 || ch >= 0x7f)
	fprintf (f, "\\%02X", ch);
      else
	fputc (ch, f);
    }
  fputc ('"', f);
}

/* Whether S (with SUFFIX appended) is a bare MLIR identifier:
   [A-Za-z_][A-Za-z0-9_$.]*.  */
static int
nf_bare_ident (const char *s, const char *suffix)
{
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (int pass = 0; pass < 2; pass++, s = suffix ? suffix : "")
    for (; *s; s++)
      if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')
	    || (*s >= '0' && *s <= '9') || *s == '_' || *s == '$'
	    || *s == '.'))
	return 0;
  return 1;
}

void
nf_emit_symbol (FILE *f, const char *name, const char *suffix)
{
  fputc ('@', f);
  if (nf_bare_ident (name, suffix))
    fprintf (f, "%s%s", name, suffix ? suffix : "");
  else
    {
      size_t n = strlen (name) + (suffix ? strlen (suffix) : 0) + 1;
      char buf[256];
      if (n > sizeof buf)
	n = sizeof buf;
      snprintf (buf, n, "%s%s", name, suffix ? suffix : "");
      nf_emit_string (f, buf);
    }
}

char *
nf_emit_snake (char *buf, size_t size, const char *kind)
{
  size_t o = 0;
  for (size_t i = 0; kind[i] && o + 2 < size; i++)
    {
      char ch = kind[i];
      int upper = ch >= 'A' && ch <= 'Z';
      if (upper && i > 0)
	{
	  char prev = kind[i - 1], next = kind[i + 1];
	  int prev_upper = prev >= 'A' && prev <= 'Z';
	  int next_lower = next >= 'a' && next <= 'z';
	  /* A word starts at "aB", "1B", and at the last capital of an
	     acronym followed by a lower-case letter ("RMSNorm").  */
	  if (!prev_upper || next_lower)
	    buf[o++] = '_';
	}
      buf[o++] = upper ? (char) (ch - 'A' + 'a') : ch;
    }
  buf[o] = '\0';
  return buf;
}

int
nf_emit_inputs (const nf_match *m, nf_value *out)
{
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n = 0;
  for (int i = 0; i < nf_cluster_n_live_ins (c); i++)
    {
      nf_value v = nf_cluster_live_in (c, i);
      if (nf_op (r, v) == NF_OP_CONST)
	continue;
      if (out)
	out[n] = v;
      n++;
    }
  return n;
}

/* Print the live-out types of M to F: "T" for one, "(T0, T1)" for
   several.  */
static void
nf_emit_result_types (FILE *f, const nf_match *m)
{
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n = nf_cluster_n_live_outs (c);
  if (n > 1)
    fputc ('(', f);
  for (int i = 0; i < n; i++)
    {
      if (i)
	fputs (", ", f);
      nf_emit_type (f, nf_value_type (r, nf_cluster_live_out (c, i)));
    }
  if (n > 1)
    fputc (')', f);
}

/* "(T0, T1) -> R" of M's non-constant inputs and its results, with the
   inputs named "%argK: " when NAMED (a signature) or not (an op's type).  */
static void
nf_emit_input_types (FILE *f, const nf_match *m, bool named)
{
  const nf_region *r = nf_cluster_region (m->cluster);
  int k = 0;
  fputc ('(', f);
  for (int i = 0; i < nf_cluster_n_live_ins (m->cluster); i++)
    {
      nf_value v = nf_cluster_live_in (m->cluster, i);
      if (nf_op (r, v) == NF_OP_CONST)
	continue;
      if (k)
	fputs (", ", f);
      if (named)
	fprintf (f, "%%arg%d: ", k);
      nf_emit_type (f, nf_value_type (r, v));
      k++;
    }
  fputs (") -> ", f);
  nf_emit_result_types (f, m);
}

void
nf_emit_signature (FILE *f, const nf_match *m)
{
  nf_emit_input_types (f, m, true);
}

void
nf_emit_fused_call (FILE *f, const nf_match *m, const char *op)
{
  int n_in = nf_emit_inputs (m, NULL);
  int n_out = nf_cluster_n_live_outs (m->cluster);
  fputs ("    %r", f);
  if (n_out > 1)
    fprintf (f, ":%d", n_out);
  fprintf (f, " = \"%s\"(", op);
  for (int k = 0; k < n_in; k++)
    fprintf (f, "%s%%arg%d", k ? ", " : "", k);
  fputc (')', f);
}

void
nf_emit_op_type (FILE *f, const nf_match *m)
{
  nf_emit_input_types (f, m, false);
}

void
nf_emit_results (FILE *f, const nf_match *m)
{
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n = nf_cluster_n_live_outs (c);
  fputc ('(', f);
  for (int i = 0; i < n; i++)
    fprintf (f, "%s%%v%d", i ? ", " : "", nf_cluster_live_out (c, i));
  fputs (") : (", f);
  for (int i = 0; i < n; i++)
    {
      if (i)
	fputs (", ", f);
      nf_emit_type (f, nf_value_type (r, nf_cluster_live_out (c, i)));
    }
  fputs (") -> ()", f);
}

void
nf_emit_return_r (FILE *f, const nf_match *m)
{
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  int n = nf_cluster_n_live_outs (c);
  fputs ("    \"func.return\"(", f);
  if (n == 1)
    fputs ("%r", f);
  else
    for (int k = 0; k < n; k++)
      fprintf (f, "%s%%r#%d", k ? ", " : "", k);
  fputs (") : (", f);
  for (int k = 0; k < n; k++)
    {
      if (k)
	fputs (", ", f);
      nf_emit_type (f, nf_value_type (r, nf_cluster_live_out (c, k)));
    }
  fputs (") -> ()\n", f);
}

void
nf_emit_header_comment (FILE *f, const nf_match *m, int id)
{
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  nf_value at = m->anchor >= 0 ? m->anchor : nf_cluster_op (c, 0);
  nf_srcloc loc = nf_value_loc (r, at);
  fprintf (f, "// neuronfuse region %d: %s in %s", id, nf_cluster_kind (c),
	   nf_region_function (r));
  if (loc.file)
    fprintf (f, " at %s:%d:%d", loc.file, loc.line, loc.column);
  fputc ('\n', f);
}

/* --- The HLO body printer -------------------------------------------- */

struct nf_hlo_printer
{
  FILE *f;
  const nf_match *m;
  const nf_region *r;
  const nf_cluster *c;
  const nf_hlo_dialect *d;
  const char *arg_prefix;
  const char *indent;
  int tmp;			/* Next %t<N>.  */
};

#define NF_NAME_SIZE 48

/* Write to BUF the SSA name of V as P prints it (step 1).  */
static void
nf_hlo_name (const struct nf_hlo_printer *p, nf_value v, char *buf)
{
  if (nf_cluster_contains (p->c, v))
    {
      snprintf (buf, NF_NAME_SIZE, "%%v%d", v);
      return;
    }
  if (nf_op (p->r, v) == NF_OP_CONST)
    {
      snprintf (buf, NF_NAME_SIZE, "%%c%d", v);
      return;
    }
  int k = 0;
  for (int i = 0; i < nf_cluster_n_live_ins (p->c); i++)
    {
      nf_value in = nf_cluster_live_in (p->c, i);
      if (in == v)
	break;
      k += nf_op (p->r, in) != NF_OP_CONST;
    }
  snprintf (buf, NF_NAME_SIZE, "%%%s%d", p->arg_prefix, k);
}

/* Print the dimension list DIMS (N of them) in P's dialect.  */
static void
nf_hlo_dims (const struct nf_hlo_printer *p, const int *dims, int n)
{
  if (p->d->dense_dims)
    {
      fputs ("dense<", p->f);
      if (n)
	fputc ('[', p->f);
      for (int i = 0; i < n; i++)
	fprintf (p->f, "%s%d", i ? ", " : "", dims[i]);
      if (n)
	fputc (']', p->f);
      fprintf (p->f, "> : tensor<%dxi64>", n);
    }
  else
    {
      fputs ("array<i64", p->f);
      for (int i = 0; i < n; i++)
	fprintf (p->f, "%s%d", i ? ", " : ": ", dims[i]);
      fputc ('>', p->f);
    }
}

/* The mask of dimensions a reduction removed on the way to V, following
   elementwise ops back through operands of V's rank; 0 when V does not
   come from a reduction.  */
static unsigned
nf_reduced_from (const nf_region *r, nf_value v)
{
  for (int steps = 0; steps < 16 && v >= 0; steps++)
    {
      enum nf_opcode op = nf_op (r, v);
      if (op == NF_OP_REDUCE)
	return nf_reduce_dims (r, v);
      if (op == NF_OP_PARAM || op == NF_OP_CONST || op == NF_OP_LOAD
	  || op == NF_OP_BROADCAST || op == NF_OP_OPAQUE)
	return 0;
      int rank = nf_value_type (r, v).rank;
      nf_value next = NF_NO_VALUE;
      for (int i = 0; i < nf_op_n_operands (r, v) && next < 0; i++)
	{
	  nf_value o = nf_op_operand (r, v, i);
	  if (nf_value_type (r, o).rank == rank)
	    next = o;
	}
      v = next;
    }
  return 0;
}

/* Fill DIMS with the result dimension each dimension of FROM (the type
   of ORIGIN) maps to when broadcast to TO; returns FROM's rank.  */
static int
nf_broadcast_map (const nf_region *r, nf_value origin, nf_type from,
		  nf_type to, int *dims)
{
  if (from.rank == to.rank || from.rank == 0)
    {
      for (int i = 0; i < from.rank; i++)
	dims[i] = i;
      return from.rank;
    }
  /* Rank 1 to rank 2.  */
  nf_dim d = from.dims[0];
  int eq0 = d.sym == to.dims[0].sym
	    && (d.sym >= 0 || d.extent == to.dims[0].extent);
  int eq1 = d.sym == to.dims[1].sym
	    && (d.sym >= 0 || d.extent == to.dims[1].extent);
  if (eq0 && !eq1)
    dims[0] = 0;
  else if (eq1 && !eq0)
    dims[0] = 1;
  else
    dims[0] = nf_reduced_from (r, origin) == 2u ? 0 : 1;
  return 1;
}

/* Coerce the value named NAME (a copy of ORIGIN, of type FROM) to TO
   (step 2): print a convert when the element types differ and a
   broadcast_in_dim when the ranks do, and write the final name to
   OUT.  */
static void
nf_hlo_coerce (struct nf_hlo_printer *p, const char *name, nf_value origin,
	       nf_type from, nf_type to, char *out)
{
  snprintf (out, NF_NAME_SIZE, "%s", name);
  if (from.elem != to.elem)
    {
      nf_type t = from;
      t.elem = to.elem;
      char cur[NF_NAME_SIZE];
      snprintf (cur, sizeof cur, "%s", out);
      snprintf (out, NF_NAME_SIZE, "%%t%d", p->tmp++);
      fprintf (p->f, "%s%s = \"%s.convert\"(%s) : (", p->indent, out,
	       p->d->prefix, cur);
      nf_emit_type (p->f, from);
      fputs (") -> ", p->f);
      nf_emit_type (p->f, t);
      fputc ('\n', p->f);
      from = t;
    }
  if (from.rank != to.rank)
    {
      int dims[NF_MAX_RANK];
      int n = nf_broadcast_map (p->r, origin, from, to, dims);
      char cur[NF_NAME_SIZE];
      snprintf (cur, sizeof cur, "%s", out);
      snprintf (out, NF_NAME_SIZE, "%%t%d", p->tmp++);
      fprintf (p->f, "%s%s = \"%s.broadcast_in_dim\"(%s) "
	       "{broadcast_dimensions = ", p->indent, out, p->d->prefix, cur);
      nf_hlo_dims (p, dims, n);
      fputs ("} : (", p->f);
      nf_emit_type (p->f, from);
      fputs (") -> ", p->f);
      nf_emit_type (p->f, to);
      fputc ('\n', p->f);
    }
}

/* Name operand I of V, coerced to type TO, into OUT.  */
static void
nf_hlo_operand (struct nf_hlo_printer *p, nf_value v, int i, nf_type to,
		char *out)
{
  nf_value o = nf_op_operand (p->r, v, i);
  char name[NF_NAME_SIZE];
  nf_hlo_name (p, o, name);
  nf_hlo_coerce (p, name, o, nf_value_type (p->r, o), to, out);
}

/* Print "(T, T...) -> RES" for N operands all of type T.  */
static void
nf_hlo_same_types (FILE *f, int n, nf_type t, nf_type res)
{
  fputc ('(', f);
  for (int i = 0; i < n; i++)
    {
      if (i)
	fputs (", ", f);
      nf_emit_type (f, t);
    }
  fputs (") -> ", f);
  nf_emit_type (f, res);
}

/* Print the constant live-in V as %c<V> (materialised in the body).  */
static void
nf_hlo_constant (struct nf_hlo_printer *p, nf_value v)
{
  nf_type t = nf_value_type (p->r, v), s = nf_scalar_type (t.elem);
  int dynamic = 0;
  for (int i = 0; i < t.rank; i++)
    dynamic |= t.dims[i].sym >= 0;
  /* A dense splat needs a static shape: broadcast a scalar otherwise.  */
  nf_type lit = dynamic ? s : t;
  fprintf (p->f, "%s%%c%d%s = \"%s.constant\"() {value = dense<", p->indent,
	   v, dynamic ? "s" : "", p->d->prefix);
  nf_emit_literal (p->f, t.elem, nf_const_value (p->r, v));
  fputs ("> : ", p->f);
  nf_emit_type (p->f, lit);
  fputs ("} : () -> ", p->f);
  nf_emit_type (p->f, lit);
  fputc ('\n', p->f);
  if (dynamic)
    {
      fprintf (p->f, "%s%%c%d = \"%s.broadcast_in_dim\"(%%c%ds) "
	       "{broadcast_dimensions = ", p->indent, v, p->d->prefix, v);
      nf_hlo_dims (p, NULL, 0);
      fputs ("} : (", p->f);
      nf_emit_type (p->f, s);
      fputs (") -> ", p->f);
      nf_emit_type (p->f, t);
      fputc ('\n', p->f);
    }
}

static const char *const nf_cmp_dirs[] = { "LT", "LE", "GT", "GE", "EQ",
					   "NE" };

/* Print the REDUCE op V (step 3).  */
static void
nf_hlo_reduce (struct nf_hlo_printer *p, nf_value v)
{
  nf_type in = nf_value_type (p->r, nf_op_operand (p->r, v, 0));
  nf_type s = nf_scalar_type (in.elem), t = nf_value_type (p->r, v);
  char a[NF_NAME_SIZE], init[NF_NAME_SIZE];
  nf_hlo_operand (p, v, 0, in, a);
  nf_hlo_operand (p, v, 1, s, init);
  int dims[NF_MAX_RANK], n = 0;
  unsigned mask = nf_reduce_dims (p->r, v);
  for (int d = 0; d < in.rank; d++)
    if (mask & (1u << d))
      dims[n++] = d;
  int k = p->tmp++;
  fprintf (p->f, "%s%%v%d = \"%s.reduce\"(%s, %s) ({\n", p->indent, v,
	   p->d->prefix, a, init);
  fprintf (p->f, "%s^bb0(%%ra%d: ", p->indent, k);
  nf_emit_type (p->f, s);
  fprintf (p->f, ", %%rb%d: ", k);
  nf_emit_type (p->f, s);
  fprintf (p->f, "):\n%s  %%t%d = \"%s.%s\"(%%ra%d, %%rb%d) : ", p->indent, k,
	   p->d->prefix, nf_emit_op_name (nf_reduce_combiner (p->r, v)), k, k);
  nf_hlo_same_types (p->f, 2, s, s);
  fprintf (p->f, "\n%s  \"%s.return\"(%%t%d) : (", p->indent, p->d->prefix,
	   k);
  nf_emit_type (p->f, s);
  fprintf (p->f, ") -> ()\n%s}) {dimensions = ", p->indent);
  nf_hlo_dims (p, dims, n);
  fputs ("} : (", p->f);
  nf_emit_type (p->f, in);
  fputs (", ", p->f);
  nf_emit_type (p->f, s);
  fputs (") -> ", p->f);
  nf_emit_type (p->f, t);
  fputc ('\n', p->f);
}

/* Print body op V (steps 1 to 3).  */
static void
nf_hlo_op (struct nf_hlo_printer *p, nf_value v)
{
  enum nf_opcode op = nf_op (p->r, v);
  nf_type t = nf_value_type (p->r, v);
  const char *name = nf_emit_op_name (op);
  char a[NF_NAME_SIZE], b[NF_NAME_SIZE], c[NF_NAME_SIZE];
  FILE *f = p->f;

  switch (op)
    {
    case NF_OP_REDUCE:
      nf_hlo_reduce (p, v);
      return;
    case NF_OP_CONVERT:
      {
	/* The IR's convert keeps the rank; broadcast first if not.  */
	nf_type from = nf_value_type (p->r, nf_op_operand (p->r, v, 0));
	nf_type mid = t;
	mid.elem = from.elem;
	nf_hlo_operand (p, v, 0, mid, a);
	fprintf (f, "%s%%v%d = \"%s.convert\"(%s) : ", p->indent, v,
		 p->d->prefix, a);
	nf_hlo_same_types (f, 1, mid, t);
	fputc ('\n', f);
	return;
      }
    case NF_OP_BROADCAST:
      {
	nf_value o = nf_op_operand (p->r, v, 0);
	nf_type mid = nf_value_type (p->r, o);
	mid.elem = t.elem;
	nf_hlo_operand (p, v, 0, mid, a);
	int dims[NF_MAX_RANK];
	int n = nf_broadcast_map (p->r, o, mid, t, dims);
	fprintf (f, "%s%%v%d = \"%s.broadcast_in_dim\"(%s) "
		 "{broadcast_dimensions = ", p->indent, v, p->d->prefix, a);
	nf_hlo_dims (p, dims, n);
	fputs ("} : ", f);
	nf_hlo_same_types (f, 1, mid, t);
	fputc ('\n', f);
	return;
      }
    case NF_OP_CMP:
      {
	nf_type ta = nf_value_type (p->r, nf_op_operand (p->r, v, 0));
	nf_type tb = nf_value_type (p->r, nf_op_operand (p->r, v, 1));
	nf_type ot = tb.rank > ta.rank ? tb : ta;
	nf_hlo_operand (p, v, 0, ot, a);
	nf_hlo_operand (p, v, 1, ot, b);
	fprintf (f, "%s%%v%d = \"%s.compare\"(%s, %s) {comparison_direction "
		 "= #%s<comparison_direction %s>} : ", p->indent, v,
		 p->d->prefix, a, b, p->d->prefix,
		 nf_cmp_dirs[nf_cmp_pred (p->r, v)]);
	nf_hlo_same_types (f, 2, ot, t);
	fputc ('\n', f);
	return;
      }
    case NF_OP_SELECT:
      {
	nf_type ct = t;
	ct.elem = NF_ELEM_BOOL;
	nf_hlo_operand (p, v, 0, ct, c);
	nf_hlo_operand (p, v, 1, t, a);
	nf_hlo_operand (p, v, 2, t, b);
	fprintf (f, "%s%%v%d = \"%s.select\"(%s, %s, %s) : (", p->indent, v,
		 p->d->prefix, c, a, b);
	nf_emit_type (f, ct);
	fputs (", ", f);
	nf_emit_type (f, t);
	fputs (", ", f);
	nf_emit_type (f, t);
	fputs (") -> ", f);
	nf_emit_type (f, t);
	fputc ('\n', f);
	return;
      }
    default:
      break;
    }
  /* Elementwise unary and binary ops, on operands of the result type.  */
  int n = nf_op_n_operands (p->r, v);
  nf_hlo_operand (p, v, 0, t, a);
  if (n > 1)
    nf_hlo_operand (p, v, 1, t, b);
  fprintf (f, "%s%%v%d = \"%s.%s\"(%s%s%s) : ", p->indent, v, p->d->prefix,
	   name, a, n > 1 ? ", " : "", n > 1 ? b : "");
  nf_hlo_same_types (f, n, t, t);
  fputc ('\n', f);
}

/* For an Expm1 or Log1p match whose cluster is still the long form
   (exp (x) - 1, log (1 + x)), the opcode of the fused op, else
   NF_OP_COUNT_: the HLO text shows what the fused op computes, the
   Penguin text keeps the original body for review.  */
static enum nf_opcode
nf_hlo_canonical (const nf_match *m)
{
  enum nf_opcode op;
  if (m->kind == NF_KIND_EXPM1)
    op = NF_OP_EXPM1;
  else if (m->kind == NF_KIND_LOG1P)
    op = NF_OP_LOG1P;
  else
    return NF_OP_COUNT_;
  const nf_cluster *c = m->cluster;
  const nf_region *r = nf_cluster_region (c);
  if (nf_cluster_size (c) == 1 && nf_op (r, nf_cluster_op (c, 0)) == op)
    return NF_OP_COUNT_;
  if (nf_cluster_live_in_index (c, m->input) < 0
      || nf_cluster_n_live_outs (c) != 1
      || nf_cluster_live_out (c, 0) != m->result)
    return NF_OP_COUNT_;
  return op;
}

void
nf_emit_hlo_body (FILE *f, const nf_match *m, const nf_hlo_dialect *d,
		  const char *arg_prefix, const char *indent)
{
  struct nf_hlo_printer p = { f, m, nf_cluster_region (m->cluster),
			      m->cluster, d, arg_prefix, indent, 0 };
  enum nf_opcode canon = nf_hlo_canonical (m);
  if (canon != NF_OP_COUNT_)
    {
      /* The op runs in the type of the exp or log it replaces (M->accum):
	 (double) expf (x) - 1 is (double) expm1f (x), not expm1 of a
	 widened x; log ((double) (1.0f + xf)) is log1p ((double) xf).  */
      nf_type res = nf_value_type (p.r, m->result), t = res;
      t.elem = m->accum;
      char name[NF_NAME_SIZE], a[NF_NAME_SIZE];
      nf_hlo_name (&p, m->input, name);
      nf_hlo_coerce (&p, name, m->input, nf_value_type (p.r, m->input), t,
		     a);
      if (t.elem == res.elem)
	fprintf (f, "%s%%v%d = ", indent, m->result);
      else
	fprintf (f, "%s%%c%d = ", indent, m->result);
      fprintf (f, "\"%s.%s\"(%s) : ", d->prefix, nf_emit_op_name (canon), a);
      nf_hlo_same_types (f, 1, t, t);
      fputc ('\n', f);
      if (t.elem != res.elem)
	{
	  fprintf (f, "%s%%v%d = \"%s.convert\"(%%c%d) : ", indent, m->result,
		   d->prefix, m->result);
	  nf_hlo_same_types (f, 1, t, res);
	  fputc ('\n', f);
	}
      return;
    }
  for (int i = 0; i < nf_cluster_n_live_ins (p.c); i++)
    {
      nf_value v = nf_cluster_live_in (p.c, i);
      if (nf_op (p.r, v) == NF_OP_CONST)
	nf_hlo_constant (&p, v);
    }
  for (int i = 0; i < nf_cluster_size (p.c); i++)
    nf_hlo_op (&p, nf_cluster_op (p.c, i));
}
