/* loop-ir.h: a loop region of GIMPLE as region IR (lower/ir.h): one or
   two innermost counted loops and the straight-line code between and
   after them, with the map back from region values to GIMPLE.  Include
   after the lower/ headers and gcc-common.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_IR_H
#define NF_LOOP_IR_H

#define NF_LR_MAX_LOOPS 2
#define NF_LR_MAX_ARRAYS 8
#define NF_LR_MAX_ABSORBED 4
#define NF_LR_MAX_FINALS 8
#define NF_LR_MAX_ASSUME 4
#define NF_LR_MAX_COPIES 2

/* One loop of a region.  */
struct nf_lr_loop
{
  class loop *loop;
  edge exit;		/* Its single exit.  */
  basic_block body;	/* The block holding its work.  */
  gcond *guard;		/* Its zero-trip guard, or NULL.  */
  edge skip;		/* The edge around it of the guard its
			   count includes, or NULL.  */
  basic_block guard_bb; /* The block of the guard its count
			   includes (its own, or the first loop's),
			   or its preheader.  */
  tree count;		/* Trip count (sizetype), valid at the
			   region's entry.  */
  int sym;		/* Its dimension in the region.  */
};

/* One array the region accesses: the address BASE + OFFSET (bytes) of
   the element its accesses start at (each access is its own array, so
   s->x[j] and s->w[j] are two).  */
struct nf_lr_array
{
  tree base, offset;
  tree elt_type;
  nf_value param;
};

/* The region being built.  */
struct nf_lregion
{
  nf_region *r;
  struct nf_lr_loop loops[NF_LR_MAX_LOOPS];
  int n_loops;
  struct nf_lr_array arrays[NF_LR_MAX_ARRAYS];
  int n_arrays;

  /* Where the region starts: the first loop's guard, or its header.  */
  basic_block start_bb;
  gimple *start_stmt; /* The guard, or NULL: all of START_BB.  */

  /* Where it ends (set by nf_lr_set_exit): after EXIT_AFTER in EXIT_BB,
     or after EXIT_BB's PHIs when EXIT_AFTER is NULL.  */
  basic_block exit_bb;
  gimple *exit_after;
  bitmap blocks; /* Blocks wholly or partly in the region.  */

  nf_value *ssa; /* SSA version -> value (or NF_NO_VALUE).  */
  unsigned n_ssa;
  tree *trees;	  /* Value -> the tree it was built from.  */
  gimple **stmts; /* Value -> its statement (stores, calls).  */
  int cap;

  gimple *absorbed[NF_LR_MAX_ABSORBED]; /* Statements of a REDUCE's
					   update besides its own.  */
  int n_absorbed;
  /* The final value of each reduction, by the name that holds it in its
     loop: outside loop-closed SSA (nf-early-loop) that name is also read
     after the loop, and stands for the REDUCE there only.  */
  struct
  {
    tree name;
    int loop;
    nf_value v;
  } finals[NF_LR_MAX_FINALS];
  int n_finals;
  basic_block cur_bb; /* The block of the statement being built.  */
  /* What the region's fused call assumes and the guard tests at run
     time, each pair equal (sizetype values at the entry): two trip
     counts the builder took as one dimension, a copy's bytes and the
     loop it feeds.  */
  tree assume[NF_LR_MAX_ASSUME][2];
  int n_assume;
  /* Calls of memcpy the builder looked through (a load after one reads
     its source, see nf_lr_load): covered by the fused call when it
     writes the whole destination.  */
  gcall *copies[NF_LR_MAX_COPIES];
  int copy_loop[NF_LR_MAX_COPIES]; /* The loop reading each.  */
  int n_copies;
  bool guarded;	      /* Start at the first loop's guard.  */
  const char *fail; /* Why something could not be built.  */
};

/* Start G at the innermost loop LOOP, which has a floating-point
   reduction: analyse it, build its reductions and everything computed
   from them (a second loop included) in the straight-line code after it.
   The region starts at LOOP's zero-trip guard when GUARDED (its trip
   count then includes the guard), else at its header.  Returns the
   REDUCE value of the sum of products, or NF_NO_VALUE with G->fail set
   (NULL when LOOP is no candidate at all).  */
nf_value nf_lr_build (struct nf_lregion *g, class loop *loop, bool guarded);
/* Start G at the innermost loop LOOP, which stores one array: build
   that store and what it stores.  Returns the STORE, or NF_NO_VALUE with
   G->fail set.  */
nf_value nf_lr_build_map (struct nf_lregion *g, class loop *loop, bool guarded);

void nf_lr_free (struct nf_lregion *g);

/* The tree value V was built from, or NULL_TREE.  */
tree nf_lr_tree (const struct nf_lregion *g, nf_value v);

/* The statement value V was built from (stores, and the definitions of
   SSA values), or NULL.  */
gimple *nf_lr_stmt (const struct nf_lregion *g, nf_value v);

/* The loop of G that contains BB, or NULL.  */
struct nf_lr_loop *nf_lr_loop_of (struct nf_lregion *g, basic_block bb);

/* The array parameter PARAM stands for, or NULL.  */
const struct nf_lr_array *nf_lr_array_of (const struct nf_lregion *g,
					  nf_value param);

/* End the region after the GIMPLE that defines value V (for a STORE:
   after its loop and the code that joins its guard) and compute its
   blocks.  Returns false with G->fail set when the region so cut is not
   single-entry single-exit.  */
bool nf_lr_set_exit (struct nf_lregion *g, nf_value v);

/* Whether STMT is in the region (after nf_lr_set_exit).  */
bool nf_lr_contains (const struct nf_lregion *g, gimple *stmt);

/* The opcode of a call to the math function FN and its number of
   arguments in *NARGS, or NF_OP_COUNT_ when FN is not modelled.  */
enum nf_opcode nf_lr_math_op (combined_fn fn, int *nargs);

/* The same for the call STMT, which may also be to one of
   libneuronfuse's scalar functions (nf_expm1f...) that the scalar
   rewrite calls.  */
enum nf_opcode nf_lr_call_op (const gimple *stmt, int *nargs);

/* T as a tree valid at the region's entry: T itself when it is defined
   before the region, else rebuilt from its pure definitions in it.
   NULL_TREE when that is impossible.  */
tree nf_lr_at_entry (const struct nf_lregion *g, tree t);

/* The run-time test, valid at the region's entry, of everything G
   assumed (G->assume); boolean_true_node when nothing, NULL_TREE when
   a side cannot be computed there.  */
tree nf_lr_assumptions (const struct nf_lregion *g);

/* Whether STMT is a copy G looked through (G->copies).  */
bool nf_lr_copy_p (const struct nf_lregion *g, gimple *stmt);

/* Whether the copy COPY (one of G->copies) writes the array PARAM from
   its first element: then a call that writes all of PARAM covers it.  */
bool nf_lr_copy_covered (const struct nf_lregion *g, gimple *copy,
			 nf_value param);

/* --- The builder's own, shared by loop-ir.cc (the driver),
   loop-shape.cc (loops and arrays), loop-value.cc (reductions and
   statements) and loop-extent.cc (the region's cut).  --- */

/* Record the first failure REASON of G; returns NF_NO_VALUE.  */
nf_value nf_lr_fail (struct nf_lregion *g, const char *reason);

/* Record that V was built from the tree T (defined by STMT, or NULL);
   returns V.  The first tree of a value stays its tree.  */
nf_value nf_lr_note (struct nf_lregion *g, nf_value v, tree t, gimple *stmt);

/* The zero-trip guard of LOOP: the condition that ends the nearest
   block before its preheader, with the edge *SKIP around the loop and
   *ENTER_TRUE saying which way enters it; NULL when the loop is entered
   unconditionally.  */
gcond *nf_lr_find_guard (class loop *loop, edge *skip, bool *enter_true);

/* Add LOOP to G's loops (step 1).  Returns its index, or -1 with
   G->fail set.  */
int nf_lr_add_loop (struct nf_lregion *g, class loop *loop);

/* The dimension of loop K of G.  */
nf_dim nf_lr_dim (const struct nf_lregion *g, int k);

/* The LOAD of STMT, a load in loop K of G; NF_NO_VALUE with G->fail
   set when it cannot be built.  */
nf_value nf_lr_load (struct nf_lregion *g, int k, gimple *stmt);

/* The STORE STMT in loop K of G (step 3); NF_NO_VALUE with G->fail set
   when it cannot be built.  */
nf_value nf_lr_store (struct nf_lregion *g, int k, gimple *stmt);

/* The REDUCE of loop K's header PHI, whose final value T leaves the loop
   on its exit edge (step 2); NF_NO_VALUE with G->fail set when T is no
   reduction.  */
nf_value nf_lr_reduction (struct nf_lregion *g, int k, tree t);

/* The value of T, an SSA name or a constant, built with its operands
   (step 3); NF_NO_VALUE with G->fail set when it cannot be.  */
nf_value nf_lr_value (struct nf_lregion *g, tree t);

/* Whether the SSA name T is X + 0.0 (+0, the scalar rewrite's zero),
   used once; sets *X.  */
bool nf_lr_zero_added (tree t, tree *x);

/* Whether STMT comes before G's start.  */
bool nf_lr_before_start (const struct nf_lregion *g, gimple *stmt);

/* Whether BB has no statement but labels, debug binds and its jump.  */
bool nf_lr_empty_bb (basic_block bb);

/* Whether the load STMT in G's scalar code reads what it would read at
   the region's entry.  */
bool nf_lr_hoistable_load (const struct nf_lregion *g, gimple *stmt);

/* The base and byte offset an access of loop K of G through the pointer
   PTR (used by STMT) has, as dr_analyze_innermost gives them.  */
bool nf_lr_pointer_address (const struct nf_lregion *g, int k, tree ptr,
			    gimple *stmt, tree *base, tree *offset);

#endif /* NF_LOOP_IR_H */
