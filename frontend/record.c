/* record.c: report entries and HLO dumps (see record.h), as the plugin's
   plugin/record.cc writes them: the same schema, kinds, locations and
   dump file names (<input basename>.<function>.region<ID>.*), so that a
   report of either front end reads the same.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "kinds.h"
#include "record.h"

/* The dump files' stem: the input's base name and the function's, with
   anything but [A-Za-z0-9_.-] as '_'.  */
static void
nf_dump_stem (const nf_tool *t, const char *function, char *buf, size_t size)
{
  const char *slash = strrchr (t->input, '/');
  snprintf (buf, size, "%s.%s", slash ? slash + 1 : t->input, function);
  for (char *p = buf; *p; p++)
    if (!isalnum ((unsigned char) *p) && *p != '_' && *p != '.' && *p != '-')
      *p = '_';
}

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
      char stem[256];
      const char *skipped = NULL;
      nf_dump_stem (t, function, stem, sizeof stem);
      int err = nf_dump_region (t->dump_dir, stem, match, id, &skipped);
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
