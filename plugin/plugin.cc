/* neuronfuse.so: a GCC plugin that finds numerical idioms and fuses them.

   Usage: gcc -fplugin=neuronfuse.so [-fplugin-arg-neuronfuse-KEY[=VALUE]]...

   Arguments (DESIGN.md section 3):
     report=FILE        write the unit's JSON report to FILE
     report=DIR/        write it into DIR (created as needed), named after
                        the unit's output as -fsave-optimization-record
                        names its files (lower/outdir.h): one CFLAGS line
                        for a whole build, safe under make -j
     dump-hlo=DIR       write each region as MHLO, StableHLO and Penguin
                        text into the existing directory DIR
     dump-hlo=DIR/      the same, named after the unit's output as report=
                        DIR/ names reports
     kinds=LIST         comma list of kinds to enable (RMSNorm, MulRedSqrt,
                        Expm1, Log1p, Elementwise, Dot, or all); default
                        all
     mode=rewrite       find, rewrite and report (default)
     mode=report        find and report only: the code is left unchanged
     disable            load but do nothing
     verbose            a note for every decision, without -fopt-info
     dump               the details dumps of the passes (FILE.NNNt.nf-loop,
                        FILE.NNNt.nf-early-loop, FILE.NNNt.nf-scalar)
     help               print this list

   Passes:
     nf-early-loop    after "profile_estimate", before IPA, and
     nf-loop          after "ldist": RMSNorm and L2-norm loops -> calls to
                      libneuronfuse (loop.cc, loop-ir.cc).
     nf-scalar-early  after "ssa", before inlining, and
     nf-scalar        after "sincos": exp (x) - 1 -> expm1 (x),
                      log (1 + x) -> log1p (x) (scalar.cc).  Outside the
                      loop pipeline, which functions without loops skip.

   plugin_init has the shape of the Linux kernel's plugins: version check,
   arguments with GCC's own error spellings (and return 1 on a bad one),
   plugin info with help, callbacks, pass registration.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "dump.h"
#include "outdir.h"
#include "nf-plugin.h"

NF_VISIBLE int plugin_is_GPL_compatible;

struct nf_options nf_opts = { false, false, false, NF_KIND_ALL,
			      NF_MODE_REWRITE, NULL, NULL };
nf_report *nf_unit_report;

static const char nf_help[]
  = "neuronfuse: fuse RMSNorm, sqrt(sum x^2), exp(x)-1 and log(1+x) idioms\n"
    "  -fplugin-arg-neuronfuse-report=FILE   write a JSON report to FILE\n"
    "  -fplugin-arg-neuronfuse-report=DIR/   write it into DIR, named after "
    "the output\n"
    "                                        (one flag for a whole build)\n"
    "  -fplugin-arg-neuronfuse-dump-hlo=DIR  write each region's MHLO, "
    "StableHLO and\n"
    "                                        Penguin text into DIR (DIR/: "
    "named after\n"
    "                                        the output, as report=DIR/)\n"
    "  -fplugin-arg-neuronfuse-kinds=LIST    kinds to enable: RMSNorm,"
    "MulRedSqrt,Expm1,Log1p,\n"
    "                                        Elementwise,Dot or all\n"
    "  -fplugin-arg-neuronfuse-mode=rewrite|report\n"
    "                                        report: find and report, "
    "change nothing\n"
    "  -fplugin-arg-neuronfuse-disable       do nothing\n"
    "  -fplugin-arg-neuronfuse-verbose       a note for every decision\n"
    "  -fplugin-arg-neuronfuse-dump          write the passes' details dumps "
    "(as\n"
    "                                        -fdump-tree-nf-loop-details "
    "would)\n"
    "  -fplugin-arg-neuronfuse-help          print this help\n"
    "  Remarks: -fopt-info (optimized), -fopt-info-missed (missed).\n";

static struct plugin_info nf_plugin_info = { "0.1.0", nf_help };

/* Pass placement.  After "sincos" (instance 1): the last scalar cleanup
   before the loop group, so the exp/log calls and their operands are in
   their final SSA form (ccp/forwprop/reassoc have run, cdce has already
   decided about errno wrappers), and it runs for every function, with or
   without loops.  */
static struct register_pass_info nf_scalar_pass_info
  = { NULL, "sincos", 1, PASS_POS_INSERT_AFTER };

/* The loop pass after "ldist": inside the loop pipeline (loops, loop-
   closed SSA and SCEV are ready), before the vectorizer and before
   "recip" turns 1 / sqrtf into .RSQRT; it runs at -O1 and -Os too.  */
static struct register_pass_info nf_loop_pass_info
  = { NULL, "ldist", 1, PASS_POS_INSERT_AFTER };

/* The loop pass's early instance at the end of the early local
   optimizations, before IPA: each function as its source wrote it
   (ccp, forwprop, FRE, early VRP, DSE and DCE have cleaned it up; no
   loop header copying, jump threading of loop guards, PRE or cdce yet),
   before inlining copies it into callers (loop.cc says why).  After
   the branch probabilities are estimated, so the blocks it adds get
   counts from its own probabilities, as in the late instance.  */
static struct register_pass_info nf_loop_early_pass_info
  = { NULL, "profile_estimate", 1, PASS_POS_INSERT_AFTER };

/* And an early instance right after SSA construction, before inlining:
   see nf_scalar_early_gate in scalar.cc for why.  */
static struct register_pass_info nf_scalar_early_pass_info
  = { NULL, "ssa", 1, PASS_POS_INSERT_AFTER };

/* PLUGIN_START_UNIT: a new, empty report (the main input file's name is
   known only from here on).  */
static void
nf_start_unit (void *, void *)
{
  nf_report_free (nf_unit_report);
  nf_unit_report
    = nf_report_new ("neuronfuse-gcc-plugin", nf_main_input_filename ());
}

/* PLUGIN_FINISH: write the unit's report (into a build's directory:
   under the unit's dump base name).  An unwritable path is an error of
   the compilation, like an unwritable -o.  */
static void
nf_finish (void *, void *)
{
  if (nf_opts.report_path && nf_unit_report)
    {
      char *path = NULL;
      int err = nf_outdir_write_report (nf_unit_report, nf_opts.report_path,
					nf_unit_dump_base (), &path);
      if (err)
	error ("cannot write neuronfuse report %qs: %s",
	       path ? path : nf_opts.report_path, xstrerror (err));
      free (path);
    }
  nf_report_free (nf_unit_report);
  nf_unit_report = NULL;
}

/* Whether argument ARG, a flag, wrongly came with a value; reports the
   error as GCC does for its own options.  */
static bool
nf_flag_has_value (const char *name, const struct plugin_argument *arg)
{
  if (!arg->value)
    return false;
  error (G_ ("invalid option argument %<-fplugin-arg-%s-%s=%s%>"), name,
	 arg->key, arg->value);
  return true;
}

/* Whether argument ARG needs a value and has none.  */
static bool
nf_value_missing (const char *name, const struct plugin_argument *arg)
{
  if (arg->value && *arg->value)
    return false;
  error (G_ ("no value supplied for option %<-fplugin-arg-%s-%s%>"), name,
	 arg->key);
  return true;
}

/* Parse the plugin's arguments into nf_opts.  Returns false after
   reporting the first bad one.  */
static bool
nf_parse_args (const char *name, int argc, struct plugin_argument *argv)
{
  for (int i = 0; i < argc; i++)
    {
      const struct plugin_argument *arg = &argv[i];
      const char *key = arg->key;

      if (strcmp (key, "disable") == 0 || strcmp (key, "verbose") == 0
	  || strcmp (key, "help") == 0 || strcmp (key, "dump") == 0)
	{
	  if (nf_flag_has_value (name, arg))
	    return false;
	  if (strcmp (key, "dump") == 0)
	    nf_opts.dump = true;
	  else if (key[0] == 'd')
	    nf_opts.disable = true;
	  else if (key[0] == 'v')
	    nf_opts.verbose = true;
	  else
	    fputs (nf_help, stderr);
	}
      else if (strcmp (key, "report") == 0)
	{
	  if (nf_value_missing (name, arg))
	    return false;
	  nf_opts.report_path = arg->value;
	}
      else if (strcmp (key, "dump-hlo") == 0)
	{
	  if (nf_value_missing (name, arg))
	    return false;
	  int err = nf_dump_dir_check (arg->value);
	  if (err)
	    {
	      error (G_ ("invalid option argument %<-fplugin-arg-%s-%s=%s%>: "
			 "%s"),
		     name, key, arg->value, xstrerror (err));
	      return false;
	    }
	  nf_opts.dump_dir = arg->value;
	}
      else if (strcmp (key, "kinds") == 0)
	{
	  if (nf_value_missing (name, arg))
	    return false;
	  if (nf_kinds_parse (arg->value, &nf_opts.kinds) != 0)
	    {
	      error (G_ ("invalid option argument %<-fplugin-arg-%s-%s=%s%>"),
		     name, key, arg->value);
	      inform (UNKNOWN_LOCATION, "valid kinds are %<RMSNorm%>, "
		      "%<MulRedSqrt%>, %<Expm1%>, %<Log1p%>, %<Elementwise%>, "
		      "%<Dot%> and %<all%>");
	      return false;
	    }
	}
      else if (strcmp (key, "mode") == 0)
	{
	  if (nf_value_missing (name, arg))
	    return false;
	  if (strcmp (arg->value, "rewrite") == 0)
	    nf_opts.mode = NF_MODE_REWRITE;
	  else if (strcmp (arg->value, "report") == 0)
	    nf_opts.mode = NF_MODE_REPORT;
	  else
	    {
	      error (G_ ("invalid option argument %<-fplugin-arg-%s-%s=%s%>"),
		     name, key, arg->value);
	      inform (UNKNOWN_LOCATION,
		      "valid modes are %<rewrite%> and %<report%>");
	      return false;
	    }
	}
      else
	{
	  error (G_ ("unknown option %<-fplugin-arg-%s-%s%>"), name, key);
	  return false;
	}
    }
  return true;
}

/* GCC applies each -fopt-info option to the passes registered so far,
   and hands a pass registered later only the last one's flags: with
   -fopt-info-optimized -fopt-info-missed, GCC's own passes report both
   but ours, registered after the options were read, only `missed:'.
   Applying every -fopt-info-... option again, in order, now that our
   passes exist gives them all of them (GCC's passes see each twice,
   which changes nothing: the flags are or-ed, the file the same).  */
static void
nf_reapply_opt_info (void)
{
  unsigned n = 0;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    n += save_decoded_options[i].opt_index == OPT_fopt_info_
	 || (save_decoded_options[i].opt_index == OPT_fopt_info
	     && save_decoded_options[i].value);
  if (n < 2)
    return;
  /* A plain -fopt-info is -fopt-info- with nothing after the dash.  */
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    if (save_decoded_options[i].opt_index == OPT_fopt_info_)
      opt_info_switch_p (save_decoded_options[i].arg);
    else if (save_decoded_options[i].opt_index == OPT_fopt_info
	     && save_decoded_options[i].value)
      opt_info_switch_p ("");
}

NF_VISIBLE int
plugin_init (struct plugin_name_args *plugin_info,
	     struct plugin_gcc_version *version)
{
  const char *name = plugin_info->base_name;

  if (!plugin_default_version_check (version, &gcc_version))
    {
      error (G_ ("incompatible gcc/plugin versions: neuronfuse was built "
		 "for GCC %s"),
	     gcc_version.basever);
      return 1;
    }
  if (!nf_parse_args (name, plugin_info->argc, plugin_info->argv))
    return 1;

  register_callback (name, PLUGIN_INFO, NULL, &nf_plugin_info);
  if (nf_opts.disable)
    {
      if (nf_opts.verbose)
	inform (UNKNOWN_LOCATION, "neuronfuse: disabled");
      return 0;
    }

  register_callback (name, PLUGIN_START_UNIT, nf_start_unit, NULL);
  register_callback (name, PLUGIN_FINISH, nf_finish, NULL);

  nf_scalar_early_pass_info.pass = make_nf_scalar_early_pass ();
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &nf_scalar_early_pass_info);
  nf_loop_early_pass_info.pass = make_nf_loop_early_pass ();
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &nf_loop_early_pass_info);
  nf_loop_pass_info.pass = make_nf_loop_pass ();
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &nf_loop_pass_info);
  nf_scalar_pass_info.pass = make_nf_scalar_pass ();
  register_callback (name, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &nf_scalar_pass_info);

  nf_reapply_opt_info ();

  /* -fdump-tree-nf-loop-details is rejected before plugins load (GCC
     parses -fdump-* first), so the dumps are switched on from here, now
     that the passes are registered.  */
  if (nf_opts.dump)
    {
      g->get_dumps ()->dump_switch_p ("tree-nf-early-loop-details");
      g->get_dumps ()->dump_switch_p ("tree-nf-loop-details");
      g->get_dumps ()->dump_switch_p ("tree-nf-scalar-details");
    }
  return 0;
}
