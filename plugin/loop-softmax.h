/* loop-softmax.h: what plugin/loop-softmax.cc (steps 4-7: the
   accesses, the facts, the call) and loop-softmax-shape.cc (steps 1-3:
   the three loops' shapes) share.  Internal to the Softmax kind.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_SOFTMAX_H
#define NF_LOOP_SOFTMAX_H

/* What the three loops hold.  */
struct nf_softmax_loops
{
  class loop *a, *b, *c;
  tree m_phi;		 /* A's max (the header PHI's result).  */
  gimple *load_a;	 /* The element A takes the max of.  */
  tree seed;		 /* m's value on entry.  */
  gimple *sub;		 /* B's element minus the max.  */
  gimple *exp_call;	 /* exp of it.  */
  gimple *store_b;	 /* B's store of the exp.  */
  tree sum_phi;		 /* B's sum.  */
  tree sum_init;
  gimple *load_c, *store_c; /* C's read and store of the quotient.  */
  bool recip;		 /* C multiplies by 1 / sum.  */
  tree elt;		 /* The element type.  */
  tree xa, xb, yb, yc_l, yc_s; /* The accesses' first addresses.  */
  tree na, nb, nc;	 /* The body counts (sizetype).  */
  bitmap blocks;		 /* The region's blocks.  */
  /* After loop header copying (the late pass): each loop behind its
     zero-trip guard, the max and the sum joined with their initial
     values after it.  The region then starts at A's guard START (in
     START_BB) and ends at EXIT_BB, and GUARD_OK says that every guard
     enters its loop.  */
  bool guarded;
  gimple *start;
  basic_block start_bb, exit_bb;
  tree guard_ok;
};

/* Steps 1-3 (loop-softmax-shape.cc).  */
bool nf_sm_max_loop (struct nf_softmax_loops *l);
bool nf_sm_exp_loop (struct nf_softmax_loops *l, const char **why);
const char *nf_sm_divide_loop (struct nf_softmax_loops *l);

/* T through SSA copies, mode-keeping conversions and one-argument
   PHIs.  */
tree nf_sm_strip (tree t);
/* Whether LOOP does anything with an effect besides ALLOWED[0..N):
   the reason, or NULL.  */
const char *nf_sm_loop_effects (class loop *loop, gimple *const *allowed,
				int n);
/* The straight path from FROM's exit to TO's preheader into BLOCKS:
   NULL, or the reason it is not one.  */
const char *nf_sm_between (class loop *from, class loop *to, bitmap blocks);
/* Whether every SSA name of T is defined in or before block ENTRY.  */
bool nf_sm_at_entry (basic_block entry, tree t);

#endif /* NF_LOOP_SOFTMAX_H */
