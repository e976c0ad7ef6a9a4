/* loop-softmax.h: what the three files of the Softmax kind share:
   loop-softmax.c finds the loops (steps 1-3 of its comment),
   loop-softmax-check.c answers the small questions and checks the
   region (steps 4-5), loop-softmax-call.c plans and writes the call
   (steps 6-7).  Not for the other loop kinds: their entry is loop-int.h's
   nf_lp_try_softmax.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_SOFTMAX_H
#define NF_LOOP_SOFTMAX_H

#include "loop-int.h"

/* One loop: for (i = START; i < BOUND; i++).  */
struct nf_sm_loop
{
  CXCursor stmt, body, ivar, bound;
  int64_t start;
  bool header;	  /* The header has that form.  */
  bool is_signed; /* BOUND's type is.  */
};

/* An access base[i + off] of a loop, OK when of that form.  */
struct nf_sm_acc
{
  CXCursor expr, base;
  int64_t off;
  bool ok;
};

/* What the three loops hold.  */
struct nf_sm
{
  struct nf_lp_scan *s;
  CXCursor *stmts; /* The statement list, N of them.  */
  int n, ia, ib, ic;
  struct nf_sm_loop l[3];	/* A, B, C.  */
  CXCursor m, sum, inv;		/* The max, the sum, 1 / sum.  */
  CXCursor x_a;			/* The element A takes the max of.  */
  CXCursor sub, exp_call;	/* B's X2 - m, exp of it.  */
  CXCursor temp;		/* A local holding e, or null.  */
  CXCursor store_b, q, store_c; /* B's store, C's quotient and store.  */
  CXCursor load_c;		/* What C divides.  */
  enum nf_elem elt;
  bool a_other; /* A's body does more than the max.  */
  bool recip;
  struct nf_sm_acc xa, xb, yb, ycl, ycs;
};

/* What a loop body holds: loops, exits, volatile accesses, assignments
   of floating-point variables.  */
struct nf_sm_shape
{
  int loops, exits;
  bool vol, float_set;
};

/* --- loop-softmax-check.c: small questions ----------------------- */

/* The one statement of a compound BODY, or BODY.  */
CXCursor nf_sm_one (CXCursor body);
/* Whether A and B are the same expression of the main file (cursors
   reached by different walks may not compare equal).  */
bool nf_sm_same (CXCursor a, CXCursor b);
/* Whether C (stripped) reads the variable DECL.  */
bool nf_sm_is (CXCursor c, CXCursor decl);
/* Whether DECL is a local, non-volatile variable of a floating type:
   what GIMPLE holds in SSA names.  */
bool nf_sm_local_float (CXCursor decl);
/* References to DECL in the statements of SM's list from FROM on.  */
int nf_sm_refs (const struct nf_sm *sm, CXCursor decl, int from);
/* The first statement of SM's list from FROM on referring to DECL, or
   -1.  */
int nf_sm_holding (const struct nf_sm *sm, CXCursor decl, int from);
/* The statement before BEFORE in SM's list that last sets DECL (its
   declaration or `DECL = E'), E in *VALUE; -1 when another statement
   refers to it first, or none does.  */
int nf_sm_setter (const struct nf_sm *sm, CXCursor decl, int before,
		  CXCursor *value);
/* Where the variable DECL's value before SM's region stops mattering
   (nf_lp_read_outside_range's start).  */
size_t nf_sm_from (const struct nf_sm *sm, CXCursor decl);
/* The location GCC gives SM's loop A (its condition's operator), which
   the plugin's entries and dumps carry.  */
void nf_sm_loc (const struct nf_sm *sm, unsigned *line, unsigned *column);
/* Whether C is a constant (-INFINITY too): its value in *V.  */
bool nf_sm_const (CXCursor c, double *v);
/* What the statement C holds.  */
struct nf_sm_shape nf_sm_shape_of (CXCursor c);
/* Parse the for statement C into L.  Returns L->header.  */
bool nf_sm_header (CXCursor c, struct nf_sm_loop *l);
/* The first element the access A of loop L accesses.  */
int64_t nf_sm_first (const struct nf_sm_acc *a, const struct nf_sm_loop *l);
/* Whether A (of loop LA) and B (of LB) have one base written the same:
   then *D is how many elements A's first is after B's.  */
bool nf_sm_distance (const nf_tool *t, const struct nf_sm_acc *a,
		     const struct nf_sm_loop *la, const struct nf_sm_acc *b,
		     const struct nf_sm_loop *lb, int64_t *d);

/* --- loop-softmax-check.c: steps 4-5 ----------------------------- */

/* Step 4: A's own work, the loops' exits, the code between them, the
   values used after SM's region.  The reason, or NULL.  */
const char *nf_sm_region (const struct nf_sm *sm);
/* Step 5: SM's accesses and trip counts.  The reason, or NULL; *START
   is the element the max starts at (0 or 1), *SUB_SAME whether B's
   x is the max's, *EXP_KEPT whether B stores e apart from C's result.  */
const char *nf_sm_accesses (struct nf_sm *sm, int *start, bool *sub_same,
			    bool *exp_kept);

/* --- loop-softmax-call.c: steps 6-7 ------------------------------ */

/* Steps 4-7 on the loops SM found: the reason, or NULL when the call
   was written and recorded.  */
const char *nf_sm_fuse (struct nf_sm *sm);

#endif /* NF_LOOP_SOFTMAX_H */
