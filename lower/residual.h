/* residual.h: the residual add before an RMSNorm (a transformer block's
   x += r, then the RMSNorm of x), as one call of nf_add_rmsnorm_*
   (match-residual.c).  A front end that has made an RMSNorm call finds
   the loop before it, builds that loop's region and asks
   nf_match_residual_loop whether it is the add; then
   nf_add_rmsnorm_region gives the region of both, matched, for the
   plan (nf_call_plan), the report and the dumps.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_RESIDUAL_H
#define NF_RESIDUAL_H

#include "rows.h"

#ifdef __cplusplus
extern "C"
{
#endif

  /* Whether STORE, the one store of a one-loop region of R, is the
     residual add x[i] = x[i] + r[i] (either order) of float or double
     arrays x and r, both from their first element: *X is the array
     stored (its PARAM), *RES the other.  False when it is not.  */
  bool nf_match_residual_loop (const nf_region *r, nf_value store,
			       nf_value *x, nf_value *res);

  /* The region of the residual add x += r (R_LABEL: r's name, NULL:
     "r") then the RMSNorm F describes (its rank 1: F's rows are
     ignored), matched into *M (M->residual set); NULL with *WHY set when
     the matcher does not take it (the caller frees the region and
     releases *M).  */
  nf_region *nf_add_rmsnorm_region (const struct nf_rmsnorm_rows_facts *f,
				    const char *r_label, nf_match *m,
				    const char **why);

#ifdef __cplusplus
}
#endif

#endif /* NF_RESIDUAL_H */
