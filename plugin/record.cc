/* record.cc: turn a pass's decisions into remarks and report entries.

   Every decision goes three ways at once, so they never disagree:
   an opt-info remark at the statement (`optimized:` / `missed:`, or
   `note:` in mode=report), an `inform` when the verbose argument is given,
   and an entry in the unit's JSON report, with the region's MHLO,
   StableHLO and Penguin texts (its "ir").

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "match.h"
#include "dump.h"
#include "nf-plugin.h"

void
nf_remark_optimized (dump_user_location_t where, const char *msg)
{
  if (dump_enabled_p ())
    dump_printf_loc (MSG_OPTIMIZED_LOCATIONS, where, "%s\n", msg);
  if (nf_opts.verbose)
    inform (where.get_location_t (), "neuronfuse: %s", msg);
}

/* The report location of WHERE.  */
static nf_location
nf_stmt_location (dump_user_location_t where)
{
  expanded_location xl = expand_location (where.get_location_t ());
  nf_location loc = { xl.file, xl.line, xl.column };
  return loc;
}

static const char *
nf_current_function_name (void)
{
  return current_function_decl
	   ? lang_hooks.decl_printable_name (current_function_decl, 2)
	   : "?";
}

/* Write the dumps of MATCH, region ID, for STMT.  An unwritable file is
   an error of the compilation; a form that cannot express the region is
   a note under verbose.  */
static void
nf_dump (location_t where, const nf_match *match, int id)
{
  const char *skipped = NULL;
  int err = nf_dump_region (nf_opts.dump_dir, nf_main_input_filename (),
			    nf_unit_dump_base (), nf_current_function_name (),
			    match, id, &skipped);
  if (err)
    error_at (where,
	      "cannot write neuronfuse dump in %qs: %s", nf_opts.dump_dir,
	      xstrerror (err));
  else if (skipped && nf_opts.verbose)
    inform (where, "neuronfuse: no HLO dump: %s", skipped);
}

int
nf_record_region (dump_user_location_t where, nf_region_desc *desc,
		  const char *msg, const nf_match *match)
{
  bool report_only = nf_opts.mode == NF_MODE_REPORT;
  int id = 0;

  desc->function = nf_current_function_name ();
  desc->loc = nf_stmt_location (where);
  desc->action = report_only ? "reported"
		 : desc->action ? desc->action : "rewritten";
  if (dump_enabled_p ())
    dump_printf_loc (report_only ? MSG_NOTE : MSG_OPTIMIZED_LOCATIONS, where,
		     "%s%s\n", msg,
		     report_only ? " (mode=report: not applied)" : "");
  if (nf_opts.verbose)
    inform (where.get_location_t (), "neuronfuse: %s%s", msg,
	    report_only ? " (mode=report: not applied)" : "");
  if (nf_unit_report)
    id = nf_report_add_region (nf_unit_report, desc);
  /* The texts of the region go in the report too (neuronfuse-report shows
     them); out of memory there only loses them.  */
  if (id && match)
    nf_report_add_ir (nf_unit_report, id, match);
  if (nf_opts.dump_dir && match)
    nf_dump (where.get_location_t (), match, id ? id : 1);
  return id;
}

/* The missed candidates recorded in this unit, by locus, kind and
   reason: the copies of one candidate that inlining makes are one near
   miss, reported once.  */
struct nf_missed_seen
{
  location_t locus;
  enum nf_kind kind;
  const char *reason;
};
static struct nf_missed_seen *nf_missed;
static unsigned nf_n_missed, nf_cap_missed;

/* Whether KIND's REASON at LOCUS was recorded before; remembers it.  */
static bool
nf_missed_again (location_t locus, enum nf_kind kind, const char *reason)
{
  for (unsigned i = 0; i < nf_n_missed; i++)
    if (nf_missed[i].locus == locus && nf_missed[i].kind == kind
	&& strcmp (nf_missed[i].reason, reason) == 0)
      return true;
  if (nf_n_missed == nf_cap_missed)
    {
      nf_cap_missed = nf_cap_missed ? 2 * nf_cap_missed : 16;
      nf_missed = XRESIZEVEC (struct nf_missed_seen, nf_missed, nf_cap_missed);
    }
  nf_missed[nf_n_missed].locus = locus;
  nf_missed[nf_n_missed].kind = kind;
  nf_missed[nf_n_missed++].reason = reason;
  return false;
}

/* Where a missed candidate at LOC is shown: LOC itself in the user's
   code; inside a system header (std::inner_product's loop, from
   <bits/stl_numeric.h>), the user's call it was inlined from (the
   outermost inlined block's call site outside system headers); else
   UNKNOWN_LOCATION.  */
static location_t
nf_user_location (location_t loc)
{
  if (LOCATION_LOCUS (loc) == UNKNOWN_LOCATION || !in_system_header_at (loc))
    return loc;
  for (tree b = LOCATION_BLOCK (loc); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b)
	&& LOCATION_LOCUS (BLOCK_SOURCE_LOCATION (b)) != UNKNOWN_LOCATION
	&& !in_system_header_at (BLOCK_SOURCE_LOCATION (b)))
      return BLOCK_SOURCE_LOCATION (b);
  return UNKNOWN_LOCATION;
}

void
nf_record_missed (dump_user_location_t at, enum nf_kind kind,
		  const char *reason)
{
  const char *name = nf_kind_name (kind);
  location_t loc = nf_user_location (at.get_location_t ());
  location_t locus = LOCATION_LOCUS (loc);

  /* A near miss nobody can find (no location: a statement GCC made, a
     system header's loop never called from user code) is no entry; the
     details dump still has it.  */
  if (locus == UNKNOWN_LOCATION || nf_missed_again (locus, kind, reason))
    return;
  dump_user_location_t where = dump_user_location_t::from_location_t (loc);

  if (dump_enabled_p ())
    dump_printf_loc (MSG_MISSED_OPTIMIZATION, where,
		     "%s: not rewritten: %s\n", name, reason);
  if (nf_opts.verbose)
    inform (where.get_location_t (), "neuronfuse: %s: not rewritten: %s",
	    name, reason);
  if (nf_unit_report)
    nf_report_add_missed (nf_unit_report, name, nf_current_function_name (),
			  nf_stmt_location (where), reason);
}

const char *
nf_value_name (tree t, char *buf, size_t size)
{
  if (TREE_CODE (t) == SSA_NAME)
    {
      tree var = SSA_NAME_VAR (t);
      if (var && DECL_P (var) && DECL_NAME (var))
	snprintf (buf, size, "%s", IDENTIFIER_POINTER (DECL_NAME (var)));
      else
	snprintf (buf, size, "_%u", SSA_NAME_VERSION (t));
    }
  else if (DECL_P (t) && DECL_NAME (t))
    snprintf (buf, size, "%s", IDENTIFIER_POINTER (DECL_NAME (t)));
  else
    {
      char *s = print_generic_expr_to_str (t);
      snprintf (buf, size, "%s", s);
      free (s);
    }
  return buf;
}

const char *
nf_dtype_name (tree type)
{
  if (!SCALAR_FLOAT_TYPE_P (type))
    return "?";
  switch (TYPE_PRECISION (type))
    {
    case 16:
      return "f16";
    case 32:
      return "f32";
    case 64:
      return "f64";
    case 80:
      return "f80";
    case 128:
      return "f128";
    default:
      return "?";
    }
}
