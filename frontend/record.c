/* record.c: report entries and HLO dumps (see record.h), as the plugin's
   plugin/record.cc writes them: the same schema, kinds, locations and
   dump file names (<input basename>.<function>.region<ID>.*, or under
   the unit's path for --dump-hlo=DIR/: lower/outdir.h), so that a
   report of either front end reads the same.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "kinds.h"
#include "record.h"

int
nf_record_region (nf_tool *t, nf_region_desc *desc, const char *function,
		  unsigned line, unsigned column, const nf_match *match)
{
  desc->function = function;
  desc->loc = (nf_location){ t->input, (int) line, (int) column };
  desc->action = "rewritten";
  if (desc->callee)
    nf_tool_note_callee (t, desc->callee);
  int id = nf_report_add_region (t->report, desc);
  /* The region's texts, for neuronfuse-report's page.  */
  if (id && match)
    nf_report_add_ir (t->report, id, match);
  if (t->dump_dir && match && id)
    {
      const char *skipped = NULL;
      int err = nf_dump_region (t->dump_dir, t->input, t->unit, function,
				match, id, &skipped);
      if (err && !t->dump_error)
	t->dump_error = err;
    }
  return id;
}

void
nf_record_missed (nf_tool *t, enum nf_kind kind, const char *function,
		  unsigned line, unsigned column, const char *reason)
{
  nf_location loc = { t->input, (int) line, (int) column };
  nf_report_add_missed (t->report, nf_kind_name (kind), function, loc, reason);
}
