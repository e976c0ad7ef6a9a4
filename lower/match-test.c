/* match-test: every matcher on hand-built graphs: the positive forms and
   one negative per guard, each asserting its reason.  */

#include "match.h"
#include "call.h"
#include "nf-check.h"

#include <math.h>
#include <string.h>

/* Options of the RMSNorm graph builder: each is one variant or one
   broken guard.  */
struct rms_opts
{
  int mean_form;	/* 0: s / n, 1: s * (1 / n), 2: s * 1/8 (n = 8).  */
  int divisor_off;	/* Divide by n - 1 instead.  */
  int eps_first;	/* eps + mean.  */
  int eps_kind;		/* 0: param, 1: const 1e-5, 2: const -1,
			   3: per-element tensor, 4: none, 5: outside.  */
  int scale_form;	/* 0: 1 / sqrt, 1: rsqrt, 2: pow -0.5, 3: x / sqrt,
			   4: pow -1.  */
  int weight;		/* 0: none, 1: x * k * w, 2: w * (k * x),
			   3: weight with stride 2.  */
  int half;		/* f16 storage, f32 accumulation.  */
  int other_x;		/* Scale z, not the squared x.  */
  int bias;		/* (x * k + b) * w.  */
  int relu;		/* fmax (x * k, 0) * w.  */
  int two_arrays;	/* Square x * z.  */
  int add_reduce;	/* Combiner max (2: opaque, as a front end records
			   a loop with an early exit or a side effect).  */
  int init_one;		/* Reduction starts from 1.  */
  int other_range;	/* Scaling loop over m, not n.  */
  int residual;		/* x + z squared and scaled (built twice).  */
  int gemma;		/* Gain 1: 1 + w, 2: w + 1, 3: 2 + w.  */
};

/* The reason of a matcher that sees no candidate (no missed entry).  */
static const char no_candidate[] = "(no candidate)";

struct graph
{
  nf_region *r;
  nf_value anchor, x, w, eps, result;
};

static void
build_rms (struct graph *g, const struct rms_opts *o)
{
  nf_region *r = g->r = nf_region_new ("rmsnorm");
  enum nf_elem st = o->half ? NF_ELEM_F16 : NF_ELEM_F32;
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  int n = o->mean_form == 2 ? -1 : nf_region_add_sym (r, "n", np);
  nf_dim dn = n >= 0 ? nf_sym_dim (n) : nf_const_dim (8);
  nf_type vec = nf_tensor1_type (st, dn);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value zp = nf_param (r, "z", vec, true);
  nf_value wp = nf_param (r, "w", vec, true);
  nf_value ep = nf_param (r, "eps", f, false);
  nf_value x = g->x = nf_load (r, xp, vec, 0, 1, 0);
  if (o->residual)
    x = nf_binary (r, NF_OP_ADD, x, nf_load (r, zp, vec, 0, 1, 0));
  nf_value xw = o->half ? nf_convert (r, x, NF_ELEM_F32) : x;
  nf_value other = o->two_arrays ? nf_load (r, zp, vec, 0, 1, 0) : x;
  nf_value ow = o->half ? nf_convert (r, other, NF_ELEM_F32) : other;
  nf_value sq = nf_binary (r, NF_OP_MUL, xw, ow);
  nf_value ss = g->anchor
    = nf_reduce (r, sq, nf_const (r, f, o->init_one ? 1.0 : 0.0),
		 o->add_reduce == 2   ? NF_OP_OPAQUE
		 : o->add_reduce == 1 ? NF_OP_MAX
				      : NF_OP_ADD,
		 1u);
  nf_value nv = nf_convert (r, np, NF_ELEM_F32);
  if (o->divisor_off)
    nv = nf_binary (r, NF_OP_SUB, nv, nf_const (r, f, 1.0));
  nf_value mean
    = o->mean_form == 0 ? nf_binary (r, NF_OP_DIV, ss, nv)
      : o->mean_form == 1
	? nf_binary (r, NF_OP_MUL, ss,
		     nf_binary (r, NF_OP_DIV, nf_const (r, f, 1.0), nv))
	: nf_binary (r, NF_OP_MUL, ss, nf_const (r, f, 0.125));
  nf_value eps = ep;
  if (o->eps_kind == 1)
    eps = nf_const (r, f, 1e-5);
  else if (o->eps_kind == 2)
    eps = nf_const (r, f, -1);
  else if (o->eps_kind == 3)	/* A float read through a pointer.  */
    eps = nf_load (r, wp, f, 0, 0, 0);
  else if (o->eps_kind == 6)	/* eps[i]: the sum added into elements.  */
    eps = nf_load (r, wp, nf_tensor1_type (NF_ELEM_F32, dn), 0, 1, 0);
  g->eps = eps;
  nf_value a = mean;
  if (o->eps_kind != 4 && o->eps_kind != 5)
    a = o->eps_first ? nf_binary (r, NF_OP_ADD, eps, mean)
		     : nf_binary (r, NF_OP_ADD, mean, eps);
  nf_value k, q = NF_NO_VALUE;
  switch (o->scale_form)
    {
    case 0:
      q = nf_unary (r, NF_OP_SQRT, a);
      if (o->eps_kind == 5)
	q = nf_binary (r, NF_OP_ADD, q, eps);
      k = nf_binary (r, NF_OP_DIV, nf_const (r, f, 1.0), q);
      break;
    case 1:
      k = nf_unary (r, NF_OP_RSQRT, a);
      break;
    case 3:
      k = q = nf_unary (r, NF_OP_SQRT, a);
      break;
    default:
      k = nf_binary (r, NF_OP_POW, a,
		     nf_const (r, f, o->scale_form == 2 ? -0.5 : -1.0));
    }
  nf_type vf = nf_tensor1_type (NF_ELEM_F32, dn);
  nf_value bk = nf_broadcast (r, k, vf);
  nf_type svec = vec;
  if (o->other_range)
    svec.dims[0] = nf_sym_dim (nf_region_add_sym (r, "m", NF_NO_VALUE));
  nf_value xs = o->other_x ? nf_load (r, zp, svec, 0, 1, 0)
		: o->other_range ? nf_load (r, xp, svec, 0, 1, 0) : x;
  if (o->residual)		/* The scaling loop's own x[j] + z[j].  */
    xs = nf_binary (r, NF_OP_ADD, nf_load (r, xp, vec, 0, 1, 0),
		    nf_load (r, zp, vec, 0, 1, 0));
  nf_value xsw = o->half ? nf_convert (r, xs, NF_ELEM_F32) : xs;
  nf_value w = NF_NO_VALUE, ww = NF_NO_VALUE;
  if (o->weight)
    {
      w = nf_load (r, wp, vec, 0, o->weight == 3 ? 2 : 1, 0);
      ww = o->half ? nf_convert (r, w, NF_ELEM_F32) : w;
      if (o->gemma)
	{
	  nf_value c
	    = nf_broadcast (r, nf_const (r, f, o->gemma == 3 ? 2.0 : 1.0), vf);
	  ww = o->gemma == 2 ? nf_binary (r, NF_OP_ADD, ww, c)
			     : nf_binary (r, NF_OP_ADD, c, ww);
	}
    }
  g->w = w;
  nf_value y;
  if (o->scale_form == 3)
    y = nf_binary (r, NF_OP_DIV, xsw, bk);
  else
    y = o->weight == 2 ? nf_binary (r, NF_OP_MUL, bk, xsw)
		       : nf_binary (r, NF_OP_MUL, xsw, bk);
  if (o->bias)
    y = nf_binary (r, NF_OP_ADD, y,
		   nf_load (r, zp, nf_tensor1_type (NF_ELEM_F32, dn), 0, 1, 0));
  if (o->relu)
    y = nf_binary (r, NF_OP_MAX, y, nf_const (r, f, 0.0));
  if (o->weight)
    y = o->weight == 2 ? nf_binary (r, NF_OP_MUL, ww, y)
		       : nf_binary (r, NF_OP_MUL, y, ww);
  if (o->half)
    y = nf_convert (r, y, NF_ELEM_F16);
  g->result = y;
  nf_store (r, zp, y, 0, 1, 0);
}

/* Run the RMSNorm matcher on the graph of O; check it matches (REASON
   NULL), sees no candidate (no_candidate) or fails with REASON.  */
static void
check_rms (const struct rms_opts *o, const char *reason, int line)
{
  struct graph g;
  nf_match m;
  build_rms (&g, o);
  bool ok = nf_match_rmsnorm (g.r, g.anchor, &m);
  if (reason == NULL)
    {
      if (!ok)
	fprintf (stderr, "line %d: unexpected reason: %s\n", line,
		 m.reason ? m.reason : "(none)");
      CHECK (ok);
      CHECK (m.cluster != NULL);
      CHECK (m.result == g.result);
      CHECK (m.weight == (o->weight ? g.w : NF_NO_VALUE));
      CHECK (m.gain_plus_one == (o->gemma != 0));
      CHECK (m.input == g.x);
      CHECK (m.accum == NF_ELEM_F32);
      if (m.cluster)
	{
	  /* The output is the fused op's one result; x is an input.  */
	  CHECK (nf_cluster_n_live_outs (m.cluster) == 1);
	  CHECK (nf_cluster_live_out (m.cluster, 0) == g.result);
	  CHECK (nf_cluster_live_in_index (m.cluster, g.x) >= 0);
	  CHECK (!nf_cluster_contains (m.cluster, g.x));
	}
    }
  else if (reason == no_candidate)
    {
      if (ok || m.reason)
	fprintf (stderr, "line %d: want no candidate, got %s \"%s\"\n", line,
		 ok ? "a match" : "reason", m.reason ? m.reason : "(none)");
      CHECK (!ok && m.reason == NULL);
    }
  else
    {
      if (ok || !m.reason || strcmp (m.reason, reason) != 0)
	fprintf (stderr, "line %d: want \"%s\", got %s \"%s\"\n", line,
		 reason, ok ? "a match" : "reason",
		 m.reason ? m.reason : "(none)");
      CHECK (!ok && m.reason && strcmp (m.reason, reason) == 0);
      CHECK (m.cluster == NULL);
      /* Both norm matchers: the sum goes on to a mean, so RMSNorm's
	 (also 1 / (sqrt (mean) + eps), whose RMS alone is not fused:
	 the scale would round once more than the loop's).  */
      nf_match mn;
      bool okn = nf_match_norm (g.r, g.anchor,
				NF_KIND_RMSNORM | NF_KIND_MULREDSQRT, &mn);
      CHECK (!okn && mn.kind == NF_KIND_RMSNORM && mn.reason
	     && strcmp (mn.reason, reason) == 0);
      nf_match_release (&mn);
    }
  nf_match_release (&m);
  nf_region_free (g.r);
}

#define RMS(reason, ...)                                                      \
  do                                                                          \
    {                                                                         \
      struct rms_opts o_ = { __VA_ARGS__ };                                   \
      check_rms (&o_, reason, __LINE__);                                      \
    }                                                                         \
  while (0)

static void
test_rmsnorm (void)
{
  /* Positives: the variants of notes s. 6.  */
  RMS (NULL, .weight = 1);
  RMS (NULL, .weight = 0);
  RMS (NULL, .weight = 2, .eps_first = 1);
  RMS (NULL, .weight = 1, .mean_form = 1);
  RMS (NULL, .weight = 1, .mean_form = 2, .eps_kind = 1);
  RMS (NULL, .weight = 1, .scale_form = 1);
  RMS (NULL, .weight = 1, .scale_form = 2);
  RMS (NULL, .weight = 1, .scale_form = 3);
  RMS (NULL, .weight = 1, .half = 1);
  /* Gemma's gain 1 + w, either way round, and 2 + w (no kernel).  */
  RMS (NULL, .weight = 1, .gemma = 1);
  RMS (NULL, .weight = 2, .gemma = 2, .scale_form = 3);
  RMS ("a factor other than x, the scale and one weight multiplies the "
       "output",
       .weight = 1, .gemma = 3);
  /* Negatives, one per guard.  */
  RMS ("the divisor of the mean is not the reduction's trip count",
       .weight = 1, .divisor_off = 1);
  RMS ("eps is not a finite, non-negative constant", .weight = 1,
       .eps_kind = 2);
  RMS ("eps is not a loop-invariant scalar", .weight = 1, .eps_kind = 3);
  /* sqrt (mean + eps[i]) is a root of elements, not of the sum: as a
     quantizer's sqrtf (sigma2 + x[j] * x[j]), no candidate.  */
  RMS (no_candidate, .weight = 0, .eps_kind = 6);
  /* No eps: the kernel's eps = 0 gives the loop's scale.  */
  RMS (NULL, .weight = 1, .eps_kind = 4);
  RMS ("eps is added outside the sqrt", .weight = 1, .eps_kind = 5);
  RMS ("mean + eps is raised to a power other than -0.5", .weight = 1,
       .scale_form = 4);
  RMS ("the weight is not indexed like x", .weight = 3);
  RMS ("the scaled array is not the squared one", .weight = 0,
       .other_x = 1);
  RMS ("an operation other than a cast sits between the normalisation and "
       "the gain",
       .weight = 1, .bias = 1);
  /* x * z is no square (a dot product): no candidate.  */
  RMS (no_candidate, .weight = 1, .two_arrays = 1);
  RMS ("the normalised value is computed in the loop, not read from an "
       "array (no kernel takes it)",
       .weight = 1, .residual = 1);
  RMS ("the reduction does not add", .weight = 1, .add_reduce = 1);
  RMS ("the reduction does not add", .weight = 1, .add_reduce = 2);
  RMS ("an operation other than a cast sits between the normalisation and "
       "the gain",
       .weight = 1, .relu = 1);
  RMS ("the reduction does not start from 0", .weight = 1, .init_one = 1);
  RMS ("the scaling loop does not cover the reduction's range", .weight = 1,
       .other_range = 1);
}

/* sqrt (reduce_add (x * x, 0)) in double, with float data widened.  */
static void
test_mulredsqrt (void)
{
  for (int variant = 0; variant < 9; variant++)
    {
      nf_region *r = nf_region_new ("l2");
      nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I64), false);
      nf_type vec = nf_tensor1_type (NF_ELEM_F32,
				     nf_sym_dim (nf_region_add_sym (r, "n",
								    np)));
      nf_value x = nf_load (r, nf_param (r, "x", vec, true), vec, 0, 1, 0);
      nf_value xv = x;
      if (variant == 6)		/* A distance: x - y.  */
	xv = nf_binary (r, NF_OP_SUB, x,
			nf_load (r, nf_param (r, "y", vec, true), vec, 0, 1, 0));
      nf_value xd = nf_convert (r, xv, NF_ELEM_F64);
      nf_value sq = variant == 1
		      ? nf_binary (r, NF_OP_POW, xd,
				   nf_const (r, nf_scalar_type (NF_ELEM_F64),
					     2.0))
		      : nf_binary (r, NF_OP_MUL, xd, xd);
      nf_value ss = nf_reduce (r, sq,
			       nf_const (r, nf_scalar_type (NF_ELEM_F64),
					 variant == 7 ? 1e-12 : 0),
			       NF_OP_ADD, 1u);
      nf_value other = NF_NO_VALUE;
      if (variant == 8)		/* A second sum, of y * y.  */
	{
	  nf_value y = nf_convert (r, nf_load (r, nf_param (r, "y", vec, true),
					       vec, 0, 1, 0),
				   NF_ELEM_F64);
	  other = nf_reduce (r, nf_binary (r, NF_OP_MUL, y, y),
			     nf_const (r, nf_scalar_type (NF_ELEM_F64), 0),
			     NF_OP_ADD, 1u);
	}
      nf_value root
	= variant == 2 || variant == 5
	    ? nf_binary (r, NF_OP_DIV, ss, nf_convert (r, np, NF_ELEM_F64))
	  : variant == 8
	    ? nf_unary (r, NF_OP_SQRT, nf_binary (r, NF_OP_MUL, ss, other))
	    : nf_unary (r, NF_OP_SQRT, ss);
      if (variant == 2)		/* sqrt (s / n): a root, not of the sum.  */
	root = nf_unary (r, NF_OP_SQRT, root);
      if (variant == 3)
	nf_value_set_escapes (r, ss);
      if (variant == 4)
	nf_value_set_escapes (r, sq);
      if (variant == 7)		/* stereo_itheta also adds its sums.  */
	nf_value_set_escapes (r, nf_binary (r, NF_OP_ADD, ss, ss));
      nf_value_set_escapes (r, root);
      nf_match m;
      bool ok = nf_match_mulredsqrt (r, ss, &m);
      switch (variant)
	{
	case 0:
	case 1:
	  CHECK (ok && m.result == root && m.input == x);
	  CHECK (m.accum == NF_ELEM_F64 && m.reduce_dims == 1u);
	  CHECK (ok && nf_cluster_contains (m.cluster, xd));
	  CHECK (ok && nf_cluster_n_live_outs (m.cluster) == 1);
	  break;
	case 2:			/* An RMS.  */
	  CHECK (ok && m.mean && m.result == root && m.input == x);
	  CHECK (ok && m.input2 == NF_NO_VALUE);
	  break;
	case 3:
	  CHECK (!ok && m.reason
		 && strcmp (m.reason, "the sum of squares is also used "
				      "elsewhere")
		      == 0);
	  break;
	case 4:
	  CHECK (!ok && m.reason
		 && strcmp (m.reason, "the square x * x is also used "
				      "elsewhere")
		      == 0);
	  break;
	case 5:			/* s / n returned: no norm, no candidate.  */
	  CHECK (!ok && m.reason == NULL);
	  break;
	case 6:			/* A distance.  */
	  CHECK (ok && !m.mean && m.input == x && m.result == root);
	  CHECK (ok && nf_op (r, m.input2) == NF_OP_LOAD
		 && nf_cluster_contains (m.cluster, nf_op_operand (r, xd, 0)));
	  break;
	case 8:			/* sqrt (na * nb): a fast-math cosine.  */
	  {
	    nf_match mn;
	    CHECK (!nf_match_norm (r, ss, NF_KIND_RMSNORM
					      | NF_KIND_MULREDSQRT, &mn));
	    CHECK (mn.kind == NF_KIND_MULREDSQRT && mn.reason
		   && strstr (mn.reason, "multiplied by another sum under "
					 "the sqrt"));
	  }
	  break;
	case 7:			/* sqrt (eps + sum): opus's stereo_itheta.  */
	  {
	    nf_match mn;
	    CHECK (!nf_match_norm (r, ss, NF_KIND_RMSNORM
					      | NF_KIND_MULREDSQRT, &mn));
	    /* The sum goes straight to sqrt: an L2 norm's near miss.  */
	    CHECK (mn.kind == NF_KIND_MULREDSQRT && mn.reason
		   && strcmp (mn.reason, "the reduction does not start "
					 "from 0") == 0);
	    /* One kind enabled: that kind's entry; none: no entry.  */
	    CHECK (!nf_match_norm (r, ss, NF_KIND_RMSNORM, &mn)
		   && mn.kind == NF_KIND_RMSNORM && mn.reason);
	    CHECK (!nf_match_norm (r, ss, NF_KIND_MULREDSQRT, &mn)
		   && mn.kind == NF_KIND_MULREDSQRT && mn.reason);
	    CHECK (!nf_match_norm (r, ss, NF_KIND_EXPM1, &mn) && !mn.reason);
	  }
	  break;
	}
      /* The L2 norm is no RMSNorm, and says nothing about it.  */
      nf_match m2;
      if (variant == 0)
	CHECK (!nf_match_rmsnorm (r, ss, &m2) && m2.reason == NULL);
      nf_match_release (&m);
      nf_region_free (r);
    }
}

/* Expm1/Log1p on scalars; FORM picks the variant.  */
static const char *
scalar_case (int form, bool *ok_out)
{
  nf_region *r = nf_region_new ("f");
  nf_type d = nf_scalar_type (NF_ELEM_F64), f = nf_scalar_type (NF_ELEM_F32);
  nf_value x = nf_param (r, "x", d, false);
  nf_value xf = nf_param (r, "xf", f, false);
  nf_value y = nf_param (r, "y", d, false);
  nf_value e = nf_unary (r, NF_OP_EXP, x), anchor = NF_NO_VALUE;
  nf_match m;
  bool ok = false;
  switch (form)
    {
    case 0: /* exp (x) - 1 */
      anchor = nf_binary (r, NF_OP_SUB, e, nf_const (r, d, 1));
      break;
    case 1: /* exp (x) + -1 */
      anchor = nf_binary (r, NF_OP_ADD, nf_const (r, d, -1), e);
      break;
    case 2: /* 1 - exp (x) */
      anchor = nf_binary (r, NF_OP_SUB, nf_const (r, d, 1), e);
      break;
    case 3: /* (double) expf (xf) - 1 */
      anchor = nf_binary (r, NF_OP_SUB,
			  nf_convert (r, nf_unary (r, NF_OP_EXP, xf),
				      NF_ELEM_F64),
			  nf_const (r, d, 1));
      break;
    case 4: /* exp (x) - 2 */
      anchor = nf_binary (r, NF_OP_SUB, e, nf_const (r, d, 2));
      break;
    case 5: /* exp (x) - y */
      anchor = nf_binary (r, NF_OP_SUB, e, y);
      break;
    case 6: /* (exp (x) - 1) * exp (x) */
      anchor = nf_binary (r, NF_OP_SUB, e, nf_const (r, d, 1));
      nf_binary (r, NF_OP_MUL, anchor, e);
      break;
    case 7: /* exp (x) + y: not a candidate */
      anchor = nf_binary (r, NF_OP_ADD, e, y);
      break;
    }
  if (form < 8)
    {
      ok = nf_match_expm1 (r, anchor, &m);
      if (ok)
	CHECK (m.result == anchor
	       && (m.input == x || (form == 3 && m.input == xf)));
    }
  else
    {
      nf_value sum;
      switch (form)
	{
	case 8: /* log (1 + x) */
	  sum = nf_binary (r, NF_OP_ADD, nf_const (r, d, 1), x);
	  break;
	case 9: /* log (x - -1) */
	  sum = nf_binary (r, NF_OP_SUB, x, nf_const (r, d, -1));
	  break;
	case 10: /* log ((double) (xf + 1)) */
	  sum = nf_convert (r, nf_binary (r, NF_OP_ADD, xf,
					  nf_const (r, f, 1)),
			    NF_ELEM_F64);
	  break;
	case 11: /* log (2 + x) */
	  sum = nf_binary (r, NF_OP_ADD, nf_const (r, d, 2), x);
	  break;
	case 12: /* t = 1 + x; log (t) * t */
	  sum = nf_binary (r, NF_OP_ADD, x, nf_const (r, d, 1));
	  nf_value_set_escapes (r, sum);
	  break;
	default: /* log (x + y): not a candidate */
	  sum = nf_binary (r, NF_OP_ADD, x, y);
	}
      anchor = nf_unary (r, NF_OP_LOG, sum);
      ok = nf_match_log1p (r, anchor, &m);
      if (ok)
	CHECK (m.result == anchor && (m.input == x || m.input == xf));
    }
  static char reason[128];
  snprintf (reason, sizeof reason, "%s", m.reason ? m.reason : "");
  nf_match_release (&m);
  nf_region_free (r);
  *ok_out = ok;
  return reason;
}

static void
test_scalar (void)
{
  static const struct
  {
    int form;
    bool ok;
    const char *reason;
  } cases[] = {
    { 0, true, "" },
    { 1, true, "" },
    { 2, true, "" },
    { 3, true, "" },
    { 4, false, "" },		/* exp (x) - 2: no near miss.  */
    { 5, false, "" },		/* exp (x) - y: none either.  */
    { 6, false, "the result of exp is also used elsewhere" },
    { 7, false, "" },
    { 8, true, "" },
    { 9, true, "" },
    { 10, true, "" },
    { 11, false, "" },		/* log (x + 2): no near miss.  */
    { 12, false, "the argument 1 + x of log is also used elsewhere" },
    { 13, false, "" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      bool ok;
      const char *reason = scalar_case (cases[i].form, &ok);
      if (ok != cases[i].ok || strcmp (reason, cases[i].reason) != 0)
	fprintf (stderr, "scalar form %d: %d \"%s\"\n", cases[i].form, ok,
		 reason);
      CHECK (ok == cases[i].ok);
      CHECK (strcmp (reason, cases[i].reason) == 0);
    }
}

/* RMSNorm over rows: x is rows x n, reduced over dimension 1, scaled by a
   weight of n broadcast over the rows.  REDUCE_DIM 0 reduces the wrong
   dimension; WSTRIDE 2 is a weight not indexed like x.  */
static void
test_rows (unsigned reduce_mask, int wstride, const char *reason)
{
  nf_region *r = nf_region_new ("rmsnorm_rows");
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_value rp = nf_param (r, "rows", nf_scalar_type (NF_ELEM_I32), false);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_dim rows = nf_sym_dim (nf_region_add_sym (r, "rows", rp));
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, "n", np));
  nf_type mat = nf_tensor2_type (NF_ELEM_F32, rows, n);
  nf_type row = nf_tensor1_type (NF_ELEM_F32, n);
  nf_value xp = nf_param (r, "x", mat, true);
  nf_value wp = nf_param (r, "w", row, true);
  nf_value x = nf_load (r, xp, mat, 0, 1, 4096);
  nf_value w = nf_load (r, wp, row, 0, wstride, 0);
  nf_value ss = nf_reduce (r, nf_binary (r, NF_OP_MUL, x, x),
			   nf_const (r, f, 0), NF_OP_ADD, reduce_mask);
  nf_value mean
    = nf_binary (r, NF_OP_DIV, ss,
		 nf_convert (r, reduce_mask == 2u ? np : rp, NF_ELEM_F32));
  nf_value k = nf_unary (r, NF_OP_RSQRT,
			 nf_binary (r, NF_OP_ADD, mean, nf_const (r, f, 1e-6)));
  nf_value y = nf_binary (r, NF_OP_MUL,
			  nf_binary (r, NF_OP_MUL, x, nf_broadcast (r, k, mat)),
			  nf_broadcast (r, w, mat));
  nf_store (r, xp, y, 0, 1, 4096);
  nf_match m;
  bool ok = nf_match_rmsnorm (r, ss, &m);
  if (!reason)
    {
      CHECK (ok && m.result == y && m.weight == w && m.input == x);
      CHECK (ok && m.reduce_dims == 2u);
    }
  else
    {
      if (ok || !m.reason || strcmp (m.reason, reason))
	fprintf (stderr, "rows: want \"%s\", got \"%s\"\n", reason,
		 m.reason ? m.reason : "(match)");
      CHECK (!ok && m.reason && strcmp (m.reason, reason) == 0);
    }
  nf_match_release (&m);
  nf_region_free (r);
}

/* The tanh quotient (exp (a) - 1) / (exp (a) + 1); FORM picks the
   variant.  Returns whether it matched (with a as the input).  */
static bool
tanh_case (int form)
{
  nf_region *r = nf_region_new ("f");
  nf_type d = nf_scalar_type (NF_ELEM_F64);
  nf_value x = nf_param (r, "x", d, false), y = nf_param (r, "y", d, false);
  nf_value one = nf_const (r, d, 1), a = x, a2 = x;
  if (form == 2) /* exp (2 * x) written twice */
    {
      a = nf_binary (r, NF_OP_MUL, x, nf_const (r, d, 2));
      a2 = nf_binary (r, NF_OP_MUL, x, nf_const (r, d, 2));
    }
  else if (form == 3) /* exp (x), exp (y) */
    a2 = y;
  nf_value e1 = nf_unary (r, NF_OP_EXP, a);
  nf_value e2 = form == 0 || form >= 4 ? e1 : nf_unary (r, NF_OP_EXP, a2);
  nf_value num = nf_binary (r, NF_OP_SUB, e1,
			    form == 5 ? nf_const (r, d, 2) : one);
  nf_value den = nf_binary (r, NF_OP_ADD, e2, one);
  nf_value q = nf_binary (r, NF_OP_DIV, num, den);
  if (form == 4) /* e used after the quotient too */
    nf_value_set_escapes (r, e1);
  nf_match m;
  bool ok = nf_match_tanh (r, q, &m);
  CHECK (ok ? m.input == a && m.result == q && !m.reason : !m.reason);
  nf_match_release (&m);
  nf_region_free (r);
  return ok;
}

static void
test_tanh (void)
{
  /* One exp, two of x, two of 2 * x built twice; exps of x and y, the
     exp used elsewhere, exp (x) - 2 are no quotient.  */
  static const bool want[] = { true, true, true, false, false, false };
  for (int i = 0; i < 6; i++)
    CHECK (tanh_case (i) == want[i]);
}

/* Dot on a matrix-vector region: w (d x n, rows one after another unless
   WSTRIDE says otherwise) times x broadcast over the rows, reduced over
   REDUCE_MASK from INIT, stored; REASON is the expected rejection or
   NULL for a match.  BOTH_ROWS makes x a second matrix.  */
static void
test_dot_case (unsigned reduce_mask, int wstride, double init, bool both_rows,
	       const char *reason)
{
  nf_region *r = nf_region_new ("matvec");
  nf_dim d = nf_sym_dim (nf_region_add_sym (r, "d", NF_NO_VALUE));
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, "n", NF_NO_VALUE));
  nf_type mat = nf_tensor2_type (NF_ELEM_F32, d, n);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, n);
  nf_type out = nf_tensor1_type (NF_ELEM_F32, reduce_mask == 2u ? d : n);
  nf_value wp = nf_param (r, "w", mat, true);
  nf_value xp = nf_param (r, "x", both_rows ? mat : vec, true);
  nf_value yp = nf_param (r, "y", out, true);
  nf_value w = nf_load (r, wp, mat, 0, wstride, NF_ROWS_DENSE);
  nf_value x = both_rows ? nf_load (r, xp, mat, 0, 1, NF_ROWS_DENSE)
			 : nf_broadcast (r, nf_load (r, xp, vec, 0, 1, 0), mat);
  nf_value s = nf_reduce (r, nf_binary (r, NF_OP_MUL, w, x),
			  nf_const (r, nf_scalar_type (NF_ELEM_F32), init),
			  NF_OP_ADD, reduce_mask);
  nf_store (r, yp, s, 0, 1, 0);
  nf_match m;
  bool ok = nf_match_dot (r, s, &m);
  if (!reason)
    CHECK (ok && m.result == s && m.input == w && m.reduce_dims == 2u);
  else
    {
      if (ok || !m.reason || strcmp (m.reason, reason))
	fprintf (stderr, "dot: want \"%s\", got \"%s\"\n", reason,
		 m.reason ? m.reason : "(match)");
      CHECK (!ok && m.reason && strcmp (m.reason, reason) == 0);
    }
  nf_match_release (&m);
  nf_region_free (r);
}

/* A sum of squares is no Dot candidate at all (the norms'), nor a sum
   scaled by a scalar.  */
static void
test_dot_not_candidates (void)
{
  nf_region *r = nf_region_new ("sq");
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, "n", NF_NO_VALUE));
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, n);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value c = nf_param (r, "c", nf_scalar_type (NF_ELEM_F32), false);
  nf_value x = nf_load (r, xp, vec, 0, 1, 0);
  nf_value zero = nf_const (r, nf_scalar_type (NF_ELEM_F32), 0);
  nf_value sq = nf_reduce (r, nf_binary (r, NF_OP_MUL, x, x), zero,
			   NF_OP_ADD, 1u);
  nf_value sc = nf_reduce (r, nf_cse_binary (r, NF_OP_MUL, x, c), zero,
			   NF_OP_ADD, 1u);
  nf_match m;
  CHECK (!nf_match_dot (r, sq, &m) && m.reason == NULL);
  nf_match_release (&m);
  CHECK (!nf_match_dot (r, sc, &m) && m.reason == NULL);
  nf_match_release (&m);
  nf_region_free (r);
}

static void
test_dot (void)
{
  test_dot_case (2u, 1, 0, false, NULL);
  test_dot_case (1u, 1, 0, false,
		 "the sum runs down the columns (a transposed matrix)");
  test_dot_case (2u, 3, 0, false,
		 "the matrix's inner index is not contiguous (a column-major "
		 "or strided matrix)");
  test_dot_case (2u, 1, 1.0, false, "the sum does not start from 0");
  test_dot_case (2u, 1, 0, true, "both factors advance with the row");
  test_dot_not_candidates ();
}

/* llama2.c's in-place softmax as a front end builds it; FORM 0: as
   written, 1: the reciprocal product (-Ofast), 2: seeded with 0, 3: the
   sum from 1, 4: the exps stored to another array than the result.  */
static void
test_softmax_case (int form, const char *reason)
{
  nf_region *r = nf_region_new ("softmax");
  nf_dim n = nf_sym_dim (nf_region_add_sym (r, "n", NF_NO_VALUE));
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, n);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value zp = nf_param (r, "z", vec, true);
  nf_value seed = form == 2 ? nf_const (r, f, 0.0) : nf_load (r, xp, f, 0, 1, 0);
  nf_value x1 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value m = nf_reduce (r, x1, seed, NF_OP_MAX, 1u);
  nf_value x2 = nf_load (r, xp, vec, 0, 1, 0);
  nf_value e = nf_unary (r, NF_OP_EXP,
			 nf_binary (r, NF_OP_SUB, x2, nf_broadcast (r, m, vec)));
  if (form == 4)
    nf_store (r, zp, e, 0, 1, 0);
  nf_value s = nf_reduce (r, e, nf_const (r, f, form == 3 ? 1.0 : 0.0),
			  NF_OP_ADD, 1u);
  nf_value x3 = e; /* Loop 3 reads what loop 2 stored: forwarded.  */
  nf_value q;
  if (form == 1)
    q = nf_binary (r, NF_OP_MUL, x3,
		   nf_broadcast (r, nf_binary (r, NF_OP_DIV, nf_const (r, f, 1),
					       s), vec));
  else
    q = nf_binary (r, NF_OP_DIV, x3, nf_broadcast (r, s, vec));
  nf_store (r, xp, q, 0, 1, 0);
  nf_match m1;
  bool ok = nf_match_softmax (r, m, &m1);
  if (!reason)
    {
      CHECK (ok && m1.input == x1 && m1.result == q
	     && m1.accum == NF_ELEM_F32);
      nf_call c;
      nf_call_flags fl = { false, false };
      CHECK (ok && nf_call_plan (r, &m1, &fl, &c) == NULL
	     && strcmp (c.callee, "nf_softmax_f32") == 0 && c.nargs == 3
	     && c.n_overlaps == 1 && !c.disjoint);
    }
  else
    {
      if (ok || !m1.reason || strcmp (m1.reason, reason))
	fprintf (stderr, "softmax %d: want \"%s\", got \"%s\"\n", form,
		 reason, m1.reason ? m1.reason : "(match)");
      CHECK (!ok && m1.reason && strcmp (m1.reason, reason) == 0);
    }
  nf_match_release (&m1);
  nf_region_free (r);
}

static void
test_softmax (void)
{
  test_softmax_case (0, NULL);
  test_softmax_case (1, NULL);
  test_softmax_case (2, "the max is seeded with a value other than the "
			"first element, -infinity or the lowest number");
  test_softmax_case (3, "the sum of the exponentials does not start from 0");
  test_softmax_case (4, "the exponentials are stored apart from the result");
}

/* The three loops' facts, as the front ends hand them over: llama2.c's
   in place, a double sum of float exps out of place, exp in double,
   and each near miss with the matcher's reason.  */
static void
test_softmax_facts_case (int form, const char *reason)
{
  struct nf_softmax_facts f = { 0 };
  f.function = "softmax";
  f.x_label = "x";
  f.y_label = form == 1 ? "y" : "x";
  f.elem = f.exp_elem = f.accum = NF_ELEM_F32;
  f.seed = NF_SOFTMAX_SEED_FIRST;
  f.sub_same = true;
  if (form == 1)
    f.accum = f.exp_elem = NF_ELEM_F64, f.recip = true;
  if (form == 2)
    f.seed = NF_SOFTMAX_SEED_CONST, f.seed_value = -INFINITY;
  if (form == 3)
    f.seed = NF_SOFTMAX_SEED_CONST, f.seed_value = 0.0;
  if (form == 4)
    f.seed = NF_SOFTMAX_SEED_OTHER;
  if (form == 5)
    f.sub_same = false;
  if (form == 6)
    f.sum_init = 1.0;
  if (form == 7)
    f.exp_kept = true;
  nf_match m;
  const char *why;
  nf_region *r = nf_softmax_loops_region (&f, &m, &why);
  if ((r == NULL) != (reason != NULL)
      || (reason && strcmp (why, reason) != 0))
    fprintf (stderr, "softmax facts %d: want \"%s\", got \"%s\"\n", form,
	     reason ? reason : "(match)", r ? "(match)" : why);
  CHECK ((r == NULL) == (reason != NULL));
  if (r)
    {
      nf_call c;
      nf_call_flags fl = { false, false };
      CHECK (nf_call_plan (r, &m, &fl, &c) == NULL
	     && strcmp (c.callee, "nf_softmax_f32") == 0 && c.nargs == 3);
      CHECK (m.accum == f.accum);
      nf_match_release (&m);
      nf_region_free (r);
    }
  else
    CHECK (strcmp (why, reason) == 0);
}

static void
test_softmax_facts (void)
{
  test_softmax_facts_case (0, NULL);
  test_softmax_facts_case (1, NULL);
  test_softmax_facts_case (2, NULL);
  const char *seed = "the max is seeded with a value other than the first "
		     "element, -infinity or the lowest number";
  test_softmax_facts_case (3, seed);
  test_softmax_facts_case (4, seed);
  test_softmax_facts_case (5, "the max is subtracted from other values");
  test_softmax_facts_case (6,
			   "the sum of the exponentials does not start from 0");
  test_softmax_facts_case (7,
			   "the exponentials are stored apart from the result");
}

/* x / fmax (sqrt (reduce_add (x * x, 0)), eps) stored: the norm floored
   and divided into x (FORM 0), multiplied as 1 / fmax (FORM 1), with a
   weight too (2: the norm alone, no kernel normalises with a gain), the
   floor a load (3: the norm alone), fmin instead (4: the norm alone).  */
static void
test_normalize (int form)
{
  nf_region *r = nf_region_new ("normalize");
  nf_type f = nf_scalar_type (NF_ELEM_F32);
  nf_value np = nf_param (r, "n", nf_scalar_type (NF_ELEM_I32), false);
  nf_dim dn = nf_sym_dim (nf_region_add_sym (r, "n", np));
  nf_type vec = nf_tensor1_type (NF_ELEM_F32, dn);
  nf_value xp = nf_param (r, "x", vec, true);
  nf_value yp = nf_param (r, "y", vec, true);
  nf_value wp = nf_param (r, "w", vec, true);
  nf_value x = nf_load (r, xp, vec, 0, 1, 0);
  nf_value ss = nf_reduce (r, nf_binary (r, NF_OP_MUL, x, x),
			   nf_const (r, f, 0.0), NF_OP_ADD, 1u);
  nf_value norm = nf_unary (r, NF_OP_SQRT, ss);
  nf_value eps = form == 3 ? nf_load (r, wp, f, 0, 0, 0)
			   : nf_param (r, "eps", f, false);
  nf_value d = nf_binary (r, form == 4 ? NF_OP_MIN : NF_OP_MAX, norm, eps);
  nf_value y;
  if (form == 1)
    y = nf_binary (r, NF_OP_MUL, x,
		   nf_broadcast (r, nf_binary (r, NF_OP_DIV,
					       nf_const (r, f, 1.0), d),
				 vec));
  else
    y = nf_binary (r, NF_OP_DIV, x, nf_broadcast (r, d, vec));
  if (form == 2)
    y = nf_binary (r, NF_OP_MUL, y, nf_load (r, wp, vec, 0, 1, 0));
  nf_store (r, yp, y, 0, 1, 0);
  nf_match m;
  bool ok = nf_match_mulredsqrt (r, ss, &m);
  CHECK (ok);
  if (form <= 1)
    CHECK (ok && m.normalize && m.eps == eps && m.result == y
	   && m.input == x && nf_cluster_contains (m.cluster, d));
  else
    CHECK (ok && !m.normalize && m.result == norm
	   && !nf_cluster_contains (m.cluster, d));
  nf_match_release (&m);
  nf_region_free (r);
}

int
main (void)
{
  for (int form = 0; form <= 4; form++)
    test_normalize (form);
  test_rows (2u, 1, NULL);
  test_rows (1u, 1, "the reduction is not over the last dimension");
  test_rows (2u, 2, "the weight is not indexed like x");
  test_rmsnorm ();
  test_mulredsqrt ();
  test_scalar ();
  test_tanh ();
  test_dot ();
  test_softmax ();
  test_softmax_facts ();
  NF_DONE ();
}
