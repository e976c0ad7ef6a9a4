/* loop.h: one loop region of the loop pass (loop.cc), for the passes'
   driver (loop-pass.cc).  Include after the lower/ headers and
   gcc-common.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_H
#define NF_LOOP_H

/* What loop.cc looks for in a loop.  */
enum nf_loop_mode
{
  NF_LOOP_NORM,	      /* A sum of squares: MulRedSqrt, RMSNorm.  */
  NF_LOOP_MAP,	      /* y[i] = expm1 (x[i]) or log1p (x[i]).  */
  NF_LOOP_ELEMENTWISE /* y[i] = any body around them (match-ew.c).  */
};

/* Steps 1-5 of loop.cc for the innermost loop LOOP, looking for MODE,
   with the region starting at
   its guard when GUARDED.  Returns true when the loop is done with (a
   region recorded, or a reason in *REASON and *KIND); sets *CHANGED when
   it rewrote the function and *BUILT when its region could be built.
   CONSUMED collects the loops of fused regions.  */
bool nf_loop_attempt (class loop *loop, bool guarded, enum nf_loop_mode mode,
		      auto_vec<class loop *> &consumed, enum nf_kind *kind,
		      const char **reason, bool *changed, bool *built);

/* nf-loop's last step for LOOP, which no region took (simd.cc): if it
   calls functions with vector clones, make the calls unconditional and
   mark the loop for the vectorizer.  Returns true if it changed LOOP.  */
bool nf_simd_prepare_loop (class loop *loop);

/* nf-scalar's companion step, late: in LOOP (which calls the runtime's
   functions since inlining brought it a helper, as ggml's softplus), a
   float libm expf calls nf_expf, as accurate and const, so that its
   condition can be flattened.  Not under -ffast-math (expf is const
   there).  Returns the number of calls changed.  */
int nf_simd_companions (class loop *loop);

/* Mark LOOP, the fallback of an Elementwise call whose calls
   nf_simd_hoist_loop made unconditional, for the vectorizer, without a
   remark: the short and overlapping runs the call leaves to it.  */
void nf_simd_mark_fallback (class loop *loop);

/* Step 2 of nf_simd_prepare_loop alone: in a loop calling the runtime's
   scalar functions, move the calls under a condition (and the float
   arithmetic on their results) up to where they run on every
   iteration.  Returns the number of calls moved, -1 for no such loop.  */
int nf_simd_hoist_loop (class loop *loop);

/* If-convert LOOP's conditions whose ways are empty blocks (what
   nf_simd_hoist_loop leaves of ELU's select): each PHI of the join
   becomes a COND_EXPR and the blocks one, so that the loop is the two
   blocks the region builder models.  Returns whether it changed LOOP;
   dominance information is valid after.  */
bool nf_simd_flatten_loop (class loop *loop);

/* The most arguments a kernel takes (nf_elementwise's nine).  */
#define NF_LOOP_MAX_ARGS NF_CALL_MAX_ARGS

/* The fused call a match becomes.  */
struct nf_loop_call
{
  enum nf_kind kind;
  nf_call plan;	      /* lower/'s: the callee, the arguments' roles.  */
  const char *callee; /* nf_rmsnorm_f32, nf_nrm2_f64...  */
  bool sumsq;	      /* nf_sumsq_* then sqrt (wider accum).  */
  tree elt;	      /* The data's element type.  */
  tree args[NF_LOOP_MAX_ARGS]; /* At the region's entry.  */
  int nargs;
  tree ret;	       /* Result type, or void.  */
  tree ok;	       /* The overlap test.  */
  nf_value store;      /* The STORE of the idiom's result, or none.  */
  gcall *call;	       /* The call, once nf_loop_outline made it.  */
  auto_vec<tree> outs; /* SSA names used after the region.  */
  char out_name[96];   /* OUTS[0] named after the source, before the
			  rewrite changes its definition (names.cc).  */
};

/* C as the call of PLAN, a kernel of KIND returning nothing, on data of
   type ELT (loop.cc); the caller sets its arguments and test.  */
void nf_loop_call_void (struct nf_loop_call *c, enum nf_kind kind,
			const nf_call *plan, tree elt);

/* Step 4 of loop.cc: replace the region of G (from its start, or its
   first loop's preheader edge, to its exit) by the call C, guarded by
   C->ok, with the original as the fallback.  */
void nf_loop_outline (struct nf_lregion *g, struct nf_loop_call *c,
		      location_t loc);

/* loop-dot.cc: the innermost loop INNER as the row loop of a matrix-
   vector product nest: fused (true, *REASON NULL, *CHANGED set in
   mode=rewrite), or a near miss of the nest (true, *REASON), or no such
   nest (false).  CONSUMED collects INNER when fused.  */
bool nf_loop_dot_attempt (class loop *inner, auto_vec<class loop *> &consumed,
			  const char **reason, bool *changed);

/* The times the body of LOOP runs from its preheader (its single exit
   tested at the end of the body with an empty latch after it, a loop of
   one block included, or tested in the header), a sizetype tree;
   NULL_TREE with *WHY set (loop-dot.cc).  */
tree nf_loop_body_count (class loop *loop, const char **why);

/* Whether an SSA name defined in OUTER is used after it, other than by
   a loop-closed PHI nothing reads (loop-dot.cc).  */
bool nf_loop_used_after (class loop *outer);

/* loop-rows.cc: loop.cc made the per-row call CALL for a region whose
   sum was of ACCUM and whose test was the overlap test only (PLAIN):
   noted for nf_loop_rows_attempt, in this pass and the next.  */
void nf_loop_rows_note (gcall *call, enum nf_elem accum, bool plain);

/* Whether S is a call of a per-row RMSNorm kernel (nf_rmsnorm_f32...).  */
bool nf_loop_rows_callee_p (gimple *s);

/* loop-rows.cc: the row loop around the per-row RMSNorm call CALL (one
   loop.cc made) as one call of the rows kernel: fused (true, *REASON
   NULL, *CHANGED set in mode=rewrite), a near miss (true, *REASON), or
   no row loop, or tried before (false).  */
bool nf_loop_rows_attempt (gcall *call, const char **reason, bool *changed);

/* The base name of the address T (a parameter, through pointer
   arithmetic) in BUF, for the report (loop-rows.cc).  */
const char *nf_loop_label (tree t, char *buf, size_t size);
/* The pure assignment D (no load, no side effect) rebuilt as a tree of
   what OPERAND (called with DATA and DEPTH + 1) gives for each of its
   operands (NULL_TREE: cannot); NULL_TREE when D is no such assignment,
   an operand has nothing, or DEPTH passes 8 (loop-rows.cc).  */
tree nf_loop_rebuild (gimple *d, tree (*operand) (tree, void *, int),
		      void *data, int depth);
/* Whether the per-row RMSNorm call CALL is one loop.cc made with the
   overlap test only (nf_loop_rows_note); its sum's type in *ACCUM.  */
bool nf_loop_rows_plain_p (gimple *call, enum nf_elem *accum);
/* loop-residual.cc: the residual add loop right before the RMSNorm call
   CALL (one loop.cc made) and the call, as one call of
   nf_add_rmsnorm_*: true when fused (*CHANGED set).  */
bool nf_loop_residual_attempt (gcall *call, bool *changed);
/* Whether S may be the RMSNorm call of nf_loop_residual_attempt: one of
   the kernel, or of a function of this unit returning nothing.  */
bool nf_loop_residual_call_p (gimple *s);
/* Whether BB is in (a copy of) the fallback of a region fused before:
   a block dominating it ends in a condition whose other way calls a
   kernel (loop-pass.cc); STRICT: and whose way to BB dominates it (not
   a block after the call and the fallback meet).  */
bool nf_loop_bb_in_fallback (basic_block bb, bool strict);
/* Record the near miss REASON of CALL's row loop.  */
void nf_loop_rows_missed (gcall *call, const char *reason);

/* The run-time test that COUNT elements of ESZ bytes from P and from Q
   are the same elements or disjoint (loop.cc).  */
tree nf_loop_disjoint (tree p, tree q, tree count, HOST_WIDE_INT esz);

/* loop-softmax.cc: the innermost loop A as the max loop of a three-loop
   softmax: fused (true, *REASON NULL, *CHANGED set in mode=rewrite),
   a near miss (true, *REASON), or no softmax (false).  CONSUMED collects
   the three loops when fused; *LOCUS is where the region is reported.  */
bool nf_loop_softmax_attempt (class loop *a, auto_vec<class loop *> &consumed,
			      const char **reason, bool *changed);

#endif /* NF_LOOP_H */
