/* test-regions.h: regions the unit tests of lower/ build by hand, as the
   matchers leave them (one definition for emit-test and report-test).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_TEST_REGIONS_H
#define NF_TEST_REGIONS_H

#include <string.h>

#include "match.h"
#include "nf-check.h"

/* A scalar expm1 (x) of ELEM, as the matcher leaves it once exp (x) - 1
   is recognised: one EXPM1 op on a parameter, in function "elu" at
   act.c:12:10.  Fills *M; returns the region to free.  */
static inline nf_region *
nf_test_expm1 (nf_match *m, enum nf_elem elem)
{
  nf_region *r = nf_region_new ("elu");
  nf_srcloc loc = { "act.c", 12, 10 };
  nf_region_set_loc (r, loc);
  nf_value x = nf_param (r, "x", nf_scalar_type (elem), false);
  nf_value e = nf_unary (r, NF_OP_EXPM1, x);
  nf_value_set_escapes (r, e);
  memset (m, 0, sizeof *m);
  m->kind = NF_KIND_EXPM1;
  m->cluster = nf_cluster_new (r, "Expm1", &e, 1);
  m->anchor = e;
  m->input = x;
  m->weight = m->eps = NF_NO_VALUE;
  m->result = e;
  m->accum = elem;
  CHECK (m->cluster != NULL);
  return r;
}

#endif /* NF_TEST_REGIONS_H */
