/* match-util.h: helpers shared by the matchers (internal to lower/).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_MATCH_UTIL_H
#define NF_MATCH_UTIL_H

#include "match.h"

/* A growable list of member ops for the cluster being matched.  */
typedef struct nf_oplist
{
  nf_value v[64];
  int n;
} nf_oplist;

/* Append V to L (ignored past capacity: matchers bail out long before).  */
void nf_oplist_add (nf_oplist *l, nf_value v);

/* V with widening float CONVERTs looked through (the "known casts"),
   adding each convert to L when L is non-NULL.  */
nf_value nf_strip_widen (const nf_region *r, nf_value v, nf_oplist *l);

/* V with any float CONVERTs and BROADCASTs looked through, adding each
   to L when L is non-NULL.  */
nf_value nf_strip_casts (const nf_region *r, nf_value v, nf_oplist *l);

/* The single user of V looked through float CONVERTs (each added to L),
   or NF_NO_VALUE; *VIA is set to the last value on the way (V or the
   last convert), which the user reads.  */
nf_value nf_user_through_casts (const nf_region *r, nf_value v,
				nf_oplist *l, nf_value *via);

/* Whether V is a CONST equal to C.  */
bool nf_is_const (const nf_region *r, nf_value v, double c);

/* Whether A and B read the same array elements: the same value, or two
   LOADs of the same base, offset, strides and type.  */
bool nf_same_access (const nf_region *r, nf_value a, nf_value b);

/* Whether A and B compute the same elements: nf_same_access, or the
   same elementwise op of the same type on operands that are the same
   values in turn (x[i] - y[i] built twice, as a front end that does not
   merge tensors builds (x[i] - y[i]) * (x[i] - y[i])).  Reductions,
   opaque ops and anything with a side effect are only the same as
   themselves.  */
bool nf_same_value (const nf_region *r, nf_value a, nf_value b);

/* Start *M as a rejection of KIND at ANCHOR with no reason yet.  */
void nf_match_init (nf_match *m, enum nf_kind kind, nf_value anchor);

/* Reject *M with REASON; returns false for the matcher to return.  */
bool nf_match_fail (nf_match *m, const char *reason);

/* Accept *M: build its cluster of the ops in L; returns true, or false
   with a reason when out of memory.  */
bool nf_match_accept (const nf_region *r, nf_match *m, const nf_oplist *l);

#endif /* NF_MATCH_UTIL_H */
