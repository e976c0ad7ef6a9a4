/* rows.h: the rank-2 region of a row loop around an RMSNorm, built from
   what a front end found in the nest (match-rows.c), so that both front
   ends hand nf_match_rmsnorm and nf_call_plan the same region.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_ROWS_H
#define NF_ROWS_H

#include "match.h"

#ifdef __cplusplus
extern "C"
{
#endif

  /* A loop over ROWS rows of N contiguous elements of x (row r at
     x + r * n) whose body normalises row r into y + r * n: elements of
     ELEM summed in ACCUM, mean plus eps (a constant EPS_VALUE, else the
     scalar EPS_NAME, of EPS_ELEM), one weight row w for all rows (or
     none).  Labels and the count's name NULL: "x", "y", "w", "n".  */
  struct nf_rmsnorm_rows_facts
  {
    const char *function;
    nf_srcloc loc;
    const char *n_name, *x_label, *y_label, *w_label, *eps_name;
    enum nf_elem elem, accum, eps_elem;
    bool weight, eps_const;
    double eps_value;
  };

  /* The RMSNorm of F in region R over the array XP (of type XT: rank 2
     for rows, rank 1 for one vector) into YP, with the weight WP (of
     type WT, when F has one), the count NP and EPS: loads, sum,
     scaling, store.  Returns the sum of squares (the matchers'
     anchor).  */
  nf_value nf_rmsnorm_rows_body (nf_region *r,
				 const struct nf_rmsnorm_rows_facts *f,
				 nf_value xp, nf_value yp, nf_value wp,
				 nf_value np, nf_value eps, nf_type xt,
				 nf_type wt);

  /* The region (rank 2) F describes, matched as RMSNorm into *M; NULL
     with *WHY set when nf_match_rmsnorm does not take it (the caller
     frees the region and releases *M).  */
  nf_region *nf_rmsnorm_rows_region (const struct nf_rmsnorm_rows_facts *f,
				     nf_match *m, const char **why);

#ifdef __cplusplus
}
#endif

#endif /* NF_ROWS_H */
