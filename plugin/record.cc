/* record.cc: turn a pass's decisions into remarks and report entries.

   Every decision goes three ways at once, so they never disagree:
   an opt-info remark at the statement (`optimized:` / `missed:`, or
   `note:` in mode=report), an `inform` when the verbose argument is given,
   and an entry in the unit's JSON report.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "nf-plugin.h"

/* The report location of STMT.  */
static nf_location
nf_stmt_location (gimple *stmt)
{
  expanded_location xl = expand_location (gimple_location (stmt));
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

void
nf_record_region (gimple *stmt, nf_region_desc *desc, const char *msg)
{
  bool report_only = nf_opts.mode == NF_MODE_REPORT;

  desc->function = nf_current_function_name ();
  desc->loc = nf_stmt_location (stmt);
  desc->action = report_only ? "reported" : "rewritten";
  if (dump_enabled_p ())
    dump_printf_loc (report_only ? MSG_NOTE : MSG_OPTIMIZED_LOCATIONS, stmt,
		     "%s%s\n", msg,
		     report_only ? " (mode=report: not applied)" : "");
  if (nf_opts.verbose)
    inform (gimple_location (stmt), "neuronfuse: %s%s", msg,
	    report_only ? " (mode=report: not applied)" : "");
  if (nf_unit_report)
    nf_report_add_region (nf_unit_report, desc);
}

void
nf_record_missed (gimple *stmt, enum nf_kind kind, const char *reason)
{
  const char *name = nf_kind_name (kind);

  if (dump_enabled_p ())
    dump_printf_loc (MSG_MISSED_OPTIMIZATION, stmt,
		     "%s: not rewritten: %s\n", name, reason);
  if (nf_opts.verbose)
    inform (gimple_location (stmt), "neuronfuse: %s: not rewritten: %s",
	    name, reason);
  if (nf_unit_report)
    nf_report_add_missed (nf_unit_report, name, nf_current_function_name (),
			  nf_stmt_location (stmt), reason);
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
