/* record.h: turn the rewriter's decisions into report entries and HLO
   dumps (stdout carries the rewritten source, so nothing goes there).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_RECORD_H
#define NF_RECORD_H

#include "match.h"
#include "nf-clang.h"

/* Record the transformed region DESC of FUNCTION at LINE:COLUMN of the
   input (DESC's kind, callee and the rest are the caller's; the
   location, function and action "rewritten" are set here; DESC->end_line
   is the caller's), attach the texts of MATCH to it and, with
   --dump-hlo, write the dumps of MATCH.  Returns the region's id in the
   report (0 when out of memory).  */
int nf_record_region (nf_tool *t, nf_region_desc *desc, const char *function,
		      unsigned line, unsigned column, const nf_match *match);

/* Record a rejected candidate of KIND in FUNCTION at LINE:COLUMN with
   the human REASON.  */
void nf_record_missed (nf_tool *t, enum nf_kind kind, const char *function,
		       unsigned line, unsigned column, const char *reason);

#endif /* NF_RECORD_H */
