/* match.h: the idiom matchers.  Each looks at one anchor op of a region
   and returns either a cluster (the fused region) with the facts the
   lowerings need, or the reason it is not the idiom.  Matching is strict
   (DESIGN.md section 4): a region that is not mathematically the idiom
   is never fused.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_MATCH_H
#define NF_MATCH_H

#include "cluster.h"
#include "kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The outcome of one matcher on one anchor.  */
typedef struct nf_match
{
  enum nf_kind kind;
  nf_cluster *cluster;		/* Owned; NULL when rejected.  */
  const char *reason;		/* Static text when rejected, else NULL.  */
  nf_value anchor;		/* The reduce, or the exp/log op.  */
  nf_value input;		/* x: what is squared/normalised, or the
				   argument of expm1/log1p.  */
  nf_value input2;		/* MulRedSqrt of a difference a - b (a
				   distance): b, with a the input; else
				   NF_NO_VALUE.  */
  nf_value weight;		/* RMSNorm gain w, or NF_NO_VALUE.  */
  nf_value eps;			/* RMSNorm eps, or NF_NO_VALUE.  */
  nf_value result;		/* What the fused op computes: y, the norm,
				   expm1 (x), log1p (x).  */
  unsigned reduce_dims;		/* Bit d: dimension d is reduced.  */
  enum nf_elem accum;		/* Element type of the accumulation.  */
  bool input_never_minus_zero;	/* Expm1, Log1p: x is never -0 (an exp,
				   a square, y + c), so expm1 (x) and
				   log1p (x) give the original's zeros:
				   no + 0.0 is needed to keep +0.  */
  bool mean;			/* MulRedSqrt: the root of the mean,
				   sqrt (sum / n) (an RMS, an RMSE).  */
  bool gain_plus_one;		/* RMSNorm: the gain is 1 + w[i] (Gemma's),
				   w the weight.  */
  bool normalize;		/* MulRedSqrt: x / fmax (sqrt (sum), eps)
				   is stored (an L2 normalisation with a
				   floor, eps the floor), the result the
				   stored quotient.  */
  nf_value residual;		/* RMSNorm after the residual add x += r
				   (residual.h): the LOAD of r, else
				   NF_NO_VALUE.  */
  bool plus_zero;		/* Elementwise map: the loop stores
				   expm1 (x) + 0.0 (the scalar rewrite's
				   +0 for x = -0), so the call is to the
				   kernel that gives +0 there (_pz).  */
} nf_match;

/* Each matcher fills *M (freeing nothing it held) and returns true when
   ANCHOR starts the idiom and every guard holds.  On false, M->reason
   says why when ANCHOR looked like a candidate, and is NULL when ANCHOR
   has nothing to do with the idiom.  */

/* sqrt (reduce_add (x * x, 0)): anchored on the REDUCE.  x may be the
   difference a - b of two arrays (M->input2 is b: a distance), the sum
   divided by the trip count under the root (M->mean: an RMS, an RMSE),
   and the norm floored and divided into x, x / fmax (sqrt (sum), eps)
   stored (M->normalize: PyTorch's F.normalize).  */
bool nf_match_mulredsqrt (const nf_region *r, nf_value anchor, nf_match *m);

/* x * (1 / sqrt (reduce_add (x * x, 0) / n + eps)) * w and its variants,
   the gain w or 1 + w (M->gain_plus_one: Gemma's): anchored on the
   REDUCE.  */
bool nf_match_rmsnorm (const nf_region *r, nf_value anchor, nf_match *m);

/* The two above on one sum, among KINDS (a mask of enum nf_kind):
   MulRedSqrt, else RMSNorm.  On false, M->kind and M->reason say what
   to report (reason NULL: nothing): RMSNorm's reason once its matcher
   got past the sum of squares they share, and for a sum breaking a guard
   of that core, the kind its use shows (a sum passed straight to sqrt
   is an L2 norm, anything else RMSNorm).  */
bool nf_match_norm (const nf_region *r, nf_value anchor, unsigned kinds,
		    nf_match *m);

/* sum (a * b) (rank 1) or y[i] = sum_j w[i][j] * x[j] (rank 2, stored):
   anchored on the REDUCE (match-dot.c).  M->input is a or the matrix w,
   M->weight b or the vector x, M->result the sum or the stored value.
   A sum of squares is no candidate (the norms').  */
bool nf_match_dot (const nf_region *r, nf_value anchor, nf_match *m);

/* What a front end found in a loop nest whose inner loop sums a row of
   the matrix w against the vector x and whose outer loop stores each
   sum into y: element kinds of the three arrays, of the product (the
   factors converted to it) and of the sum, which factor the source
   writes first, whether the store converts the sum, the arrays' labels
   and the row length's name (NULL: "w", "x", "y", "n").  */
struct nf_dot_nest_facts
{
  const char *function;
  nf_srcloc loc;
  const char *n_name, *w_label, *x_label, *y_label;
  enum nf_elem welt, xelt, yelt, prod, accum;
  bool w_first, store_converts;
};

/* The region (rank 2) of the nest F describes, matched as Dot into *M;
   NULL with *WHY set when nf_match_dot does not take it (the caller
   frees the region and releases *M).  */
nf_region *nf_dot_nest_region (const struct nf_dot_nest_facts *f,
			       nf_match *m, const char **why);

/* m = reduce_max (x); e = exp (x - m); y = e / reduce_add (e, 0), the
   three loops of a softmax (match-softmax.c has the region IR the front
   ends build): anchored on the max's REDUCE.  M->input is x, M->result
   the stored quotient, M->accum the sum's type.  */
bool nf_match_softmax (const nf_region *r, nf_value anchor, nf_match *m);

/* What a front end found in three loops of one trip count n: the first
   takes the max of x from SEED, the second stores e = exp (x2 - max)
   (exp computed in EXP_ELEM: the element type, or a wider one with the
   difference widened and e narrowed back) and sums e (widened to ACCUM)
   from SUM_INIT, the third stores e / sum (or e * (1 / sum) with RECIP)
   back where the second stored e.  SUB_SAME: x2 is the x the max was
   taken of; EXP_KEPT: the second loop stores e to another array (z)
   and the third divides what it reads there, a near miss.  Labels and
   the count's name as in nf_dot_nest_facts (NULL: "x", "y", "n").  */
enum nf_softmax_seed
{
  NF_SOFTMAX_SEED_FIRST, /* x[0], read before the loops.  */
  NF_SOFTMAX_SEED_CONST, /* SEED_VALUE.  */
  NF_SOFTMAX_SEED_OTHER	 /* Anything else (a value of no array).  */
};
struct nf_softmax_facts
{
  const char *function;
  nf_srcloc loc;
  const char *n_name, *x_label, *y_label;
  enum nf_elem elem, exp_elem, accum;
  enum nf_softmax_seed seed;
  double seed_value, sum_init;
  bool sub_same, recip, exp_kept;
};

/* The region (rank 1) the three loops F describes, matched as Softmax
   into *M; NULL with *WHY set when nf_match_softmax does not take it
   (the caller frees the region and releases *M).  */
nf_region *nf_softmax_loops_region (const struct nf_softmax_facts *f,
				    nf_match *m, const char **why);

/* The shortest dot product a call pays for: below it the loop's few
   serial adds beat the call and its setup.  */
#define NF_DOT_MIN_N 32

/* The shortest row a matrix-vector call pays for: shorter rows (a 3x3
   rotation, unrolled by GCC) are the loop's.  */
#define NF_MATVEC_MIN_N 16
/* Under reassociation, the fewest matrix elements a call pays for: twice
   libneuronfuse's split threshold (NF_MATVEC_PAR_MIN, 2^15).  */
#define NF_MATVEC_FAST_MIN_ELEMS (1ul << 16)

/* exp (x) - 1 (or -1 + exp (x), 1 - exp (x)): anchored on the SUB or ADD,
   as a near miss (exp (x) - 2) is only one from there.  */
bool nf_match_expm1 (const nf_region *r, nf_value anchor, nf_match *m);

/* The tanh quotient (exp (a) - 1) / (exp (a) + 1), with one exp or two
   of the same a: anchored on the DIV.  It stands for t / (t + 2) with
   t = expm1 (a), + 0.0 on the numerator where signed zeros matter (the
   original's +0 for a = -0): one call, where rewriting the numerator
   alone would leave expm1 (a) and exp (a).  M->input is a.  Within 2.5
   ulps in float (t's 0.5 ulp and two roundings) where the original's
   e - 1 cancels near 0.  Guards (no reason: the numerator is then an
   Expm1 candidate of its own): nothing else uses the exps or the two
   terms.  */
bool nf_match_tanh (const nf_region *r, nf_value anchor, nf_match *m);

/* log (1 + x) (or log (x + 1)): anchored on the LOG.  */
bool nf_match_log1p (const nf_region *r, nf_value anchor, nf_match *m);

/* y[i] = expm1 (x[i]) or log1p (x[i]) elementwise: anchored on the
   STORE; M->kind says which.  */
bool nf_match_map (const nf_region *r, nf_value store, nf_match *m);

/* y[i] = any expression of x0[i], x1[i], scalars and constants around
   expm1 or log1p (an activation: ELU, SELU, softplus...): anchored on the
   STORE (match-ew.c).  Its cluster is the body's ops; M->input is the
   first array read, M->result the stored value.  */
bool nf_match_elementwise (const nf_region *r, nf_value store, nf_match *m);

/* The call nf_elementwise (y, x0, x1, n, prog, s0, s1, s2, s3) that an
   Elementwise match stands for (runtime/ewprog.h has PROG's format):
   the program's bytes, the LOADs that are x0 and x1 and the scalar
   values that are s0..s3 (each passed as a double).  */
#define NF_EW_PROG_MAX 520
typedef struct nf_ew_call
{
  unsigned char prog[NF_EW_PROG_MAX];
  int len;
  nf_value inputs[2];
  int n_inputs;
  nf_value scalars[4];
  int n_scalars;
} nf_ew_call;

/* The fewest elements for which the call pays: nf_elementwise has a
   fixed cost per call (the lookup of its decoded program, setting up the
   blocks: about 45 ns) that a loop does not have; shorter runs take the
   original loop, which the plugin has GCC vectorize through the clones
   (about 1.15 ns per element at -O2).  Measured on ELU (bench/kernels
   and a loop at each n): the call is 47 ns against the loop's 37 at
   n = 32, 67 against 74 at n = 64.  */
#define NF_EW_MIN_N 64

/* Lower the Elementwise match M, whose result STORE stores, into *OUT,
   with the fast-math transcendentals when FAST.  Returns NULL, or the
   reason no program holds it (too many inputs, values, constants).  */
const char *nf_ew_lower (const nf_region *r, const nf_match *m,
			 nf_value store, bool fast, nf_ew_call *out);

/* Free M's cluster (M itself is the caller's).  */
void nf_match_release (nf_match *m);

#ifdef __cplusplus
}
#endif

#endif /* NF_MATCH_H */
