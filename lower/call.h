/* call.h: the runtime call a fused region becomes, planned once for both
   front ends.  One more lowering beside the MHLO, StableHLO and Penguin
   emitters: from a region and its match it returns the callee (a row of
   callees.def), its arguments as roles bound to region values, what the
   call's value stands for, the pairs of ranges the run-time overlap test
   must check, the shortest run for which the call pays, or the one
   reason the match cannot be a call.  The front ends turn roles into
   GIMPLE or C text and nothing more: for

     for (i = 0; i < n; i++) y[i] = expm1f (x[i]) + 0.0f;

   the plan is nf_expm1_pz_f32 (Y = the STORE, X = the LOAD, N), one
   overlap pair (the STORE, the LOAD), no value; the plugin builds
   `if (y == x || y + n <= x || x + n <= y) nf_expm1_pz_f32 (y, x, n);
   else <the loop>' in GIMPLE, neuronfuse-clang the same in C.

   Steps of nf_call_plan: 1. the row of callees.def for the kind, the
   element and accumulator types and the variant the match and the flags
   ask for, else the reason no kernel holds them; 2. the arguments of
   the row's form; 3. the overlap pairs (the stored range against each
   range read); 4. the Elementwise program (match.h's nf_ew_lower).
   What the region computes besides the call (other stores, values used
   after it) is the front end's to find where it sees statements the
   region IR does not hold (the plugin, with reasons.h's words);
   nf_call_region_covers finds it in the region IR, and
   nf_call_result_live checks the call's value against the uses.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_CALL_H
#define NF_CALL_H

#include "match.h"
#include "reasons.h"

#ifdef __cplusplus
extern "C"
{
#endif

  /* What an argument of the call is.  */
  enum nf_role
  {
    NF_ROLE_Y,	   /* The address of the first element the STORE VALUE
		      writes.  */
    NF_ROLE_X,	   /* The address of the first element the LOAD VALUE
		      reads; a null pointer when VALUE is NF_NO_VALUE.  */
    NF_ROLE_W,	   /* As X: RMSNorm's gain, null without one.  */
    NF_ROLE_N,	   /* The first loop's trip count, a size_t.  */
    NF_ROLE_EPS,   /* The scalar VALUE (a parameter or constant of the
		      region), converted to ELEM.  */
    NF_ROLE_PROG,  /* The program's bytes (nf_call.ew), a const unsigned
		      char pointer.  */
    NF_ROLE_SCALAR, /* As EPS (0 when VALUE is NF_NO_VALUE).  */
    NF_ROLE_ROWS    /* The rows of the STORE VALUE (its dimension 0, the
		       outer loop's trip count), a size_t.  */
  };

  /* One argument, in the callee's parameter order.  */
  typedef struct nf_call_arg
  {
    enum nf_role role;
    nf_value value;
    enum nf_elem elem; /* Pointers: the pointee (NONE: void); scalars:
			  the type passed.  */
    const char *name;  /* The parameter's name, for reports.  */
  } nf_call_arg;

  /* What the call's value stands for.  */
  enum nf_call_value
  {
    NF_CALL_VOID,   /* Nothing: the call stores (y).  */
    NF_CALL_RESULT, /* The match's result.  */
    NF_CALL_SUMSQ   /* The sum of squares under the match's result
		       (a norm): the front end takes its root.  */
  };

  /* The stored range of STORE and the range LOAD reads must be the same
     elements or disjoint (only disjoint when the call's or the pair's
     DISJOINT is set), each over the elements its type spans (N for a
     vector of the loop, ROWS * N for a matrix).  */
  typedef struct nf_call_overlap
  {
    nf_value store, load;
    bool disjoint; /* This pair only disjoint (rows of y against the one
		      weight row all of them read: y == w is no in-place
		      call).  */
  } nf_call_overlap;

#define NF_CALL_MAX_ARGS 9
#define NF_CALL_MAX_OVERLAPS 8

  typedef struct nf_call
  {
    enum nf_kind kind;
    const char *callee;
    enum nf_call_value value;
    enum nf_elem ret; /* The returned type (NONE: void).  */
    nf_value result;  /* The match's result.  */
    nf_value store;   /* The STORE the call performs, or NF_NO_VALUE.  */
    nf_call_arg args[NF_CALL_MAX_ARGS];
    int nargs;
    nf_call_overlap overlaps[NF_CALL_MAX_OVERLAPS];
    int n_overlaps;
    const char *overlap_reason; /* When an overlap test is known false.  */
    bool disjoint;		/* The overlapping ranges must be disjoint:
				   the kernel does not work in place.  */
    unsigned min_n;	 /* The call pays from this trip count on (0: any);
			    the front end guards n >= min_n.  */
    unsigned long min_elems; /* A matrix: the call pays from ROWS * N of
				this many on (0: any); guarded too.  */
    nf_ew_call ew;	 /* Elementwise: the program.  */
    double flops, bytes; /* Per element of N (of ROWS * N for a matrix),
			    for the report; negative: the report's own
			    estimate.  */
  } nf_call;

  /* What the compilation lets the kernels do.  */
  typedef struct nf_call_flags
  {
    bool fast_math;	   /* -ffast-math: the FAST variants (1 ulp).  */
    bool associative_math; /* The loop's sum may be reordered anyway.  */
    bool wide_vector_math; /* The compiler vectorizes libm calls itself,
			      with vectors wider than 16 bytes (-ffast-math
			      with AVX): faster than some kernels.  */
  } nf_call_flags;

  /* Plan the call for the match M of region R under FLAGS into *C.
     Returns NULL, or the reason no call stands for M.  */
  const char *nf_call_plan (const nf_region *r, const nf_match *m,
			    const nf_call_flags *flags, nf_call *c);

  /* The STORE of M's result (through conversions), or NF_NO_VALUE.  */
  nf_value nf_call_store (const nf_region *r, const nf_match *m);

  /* Whether region R does nothing but M (for a front end whose region IR
     holds every statement of the region): NULL, or the reason: it stores
     besides M's result's store, or a value other than M's result is used
     after it (for a norm, up to M's result: the region ends there).  */
  const char *nf_call_region_covers (const nf_region *r, const nf_match *m);

  /* After nf_call_plan: NULL when whether M's result is used after the
     region (RESULT_LIVE) is what the call C gives (its value, or none),
     else the reason.  */
  const char *nf_call_result_live (const nf_call *c, bool result_live);

  /* The row of callees.def named NAME: whether it exists (the self-call
     test of a front end compiling libneuronfuse itself).  */
  bool nf_callee_known (const char *name);

#ifdef __cplusplus
}
#endif

#endif /* NF_CALL_H */
