/* main.c: neuronfuse-report, one HTML page for the JSON reports of a
   build.

     neuronfuse-report [-o OUT.html] [--machine=host|trn1|inf2]
		       REPORT.json|DIR ...

   reads every report named (a directory: its *.json files), and writes
   the page (read.c reads, html.c writes, roofline.c draws) to OUT.html,
   or to stdout without -o; the file is written to a temporary name and
   renamed, so a failed run leaves no half page.  --machine picks the
   roofline shown first (all presets are in the page; default host).
   Exit status: 0 written, 1 an input was unreadable or malformed (the
   message names FILE:LINE:COL), 2 a bad command line (with the usage).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-report.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
nf_usage (FILE *f)
{
  fputs ("usage: neuronfuse-report [-o OUT.html] [--machine=host|trn1|inf2] "
	 "REPORT.json|DIR ...\n"
	 "Write one self-contained HTML page for neuronfuse's JSON reports:\n"
	 "the regions, the missed candidates, the source excerpts, the IR\n"
	 "texts and a roofline of every region.\n",
	 f);
}

/* Write the page for SET to PATH (atomically), or to stdout when PATH is
   NULL.  Returns 0, or 1 after printing the error.  */
static int
nf_write (const char *path, const nf_rset *set, const nf_machine *m,
	  char *const *inputs, int n_inputs)
{
  if (!path)
    return nf_html_page (stdout, set, m, inputs, n_inputs) == 0
	       && fflush (stdout) == 0
	     ? 0
	     : 1;
  size_t len = strlen (path) + 32;
  char *tmp = malloc (len);
  if (!tmp)
    {
      fprintf (stderr, "neuronfuse-report: out of memory\n");
      return 1;
    }
  snprintf (tmp, len, "%s.tmp%ld", path, (long) getpid ());
  FILE *f = fopen (tmp, "w");
  int err = f ? 0 : errno;
  if (f && nf_html_page (f, set, m, inputs, n_inputs) != 0)
    err = errno ? errno : EIO;
  if (f && fclose (f) != 0 && !err)
    err = errno;
  if (!err && rename (tmp, path) != 0)
    err = errno;
  if (err)
    {
      fprintf (stderr, "neuronfuse-report: cannot write %s: %s\n", path,
	       strerror (err));
      remove (tmp);
    }
  free (tmp);
  return err ? 1 : 0;
}

int
main (int argc, char **argv)
{
  static const struct option opts[]
    = { { "output", required_argument, NULL, 'o' },
	{ "machine", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 } };
  const char *out = NULL;
  const nf_machine *m = &nf_machines[0];
  int c;

  while ((c = getopt_long (argc, argv, "o:h", opts, NULL)) != -1)
    switch (c)
      {
      case 'o':
	out = optarg;
	break;
      case 'm':
	m = nf_machine_find (optarg);
	if (!m)
	  {
	    fprintf (stderr,
		     "neuronfuse-report: unknown machine '%s' (host, trn1 or "
		     "inf2)\n",
		     optarg);
	    nf_usage (stderr);
	    return 2;
	  }
	break;
      case 'h':
	nf_usage (stdout);
	return 0;
      default:
	nf_usage (stderr);
	return 2;
      }
  if (optind == argc)
    {
      fprintf (stderr, "neuronfuse-report: no report given\n");
      nf_usage (stderr);
      return 2;
    }

  nf_rset set = { NULL, 0 };
  int rc = 0;
  for (int i = optind; i < argc && rc == 0; i++)
    if (nf_rset_add (&set, argv[i]) != 0)
      rc = 1;
  if (rc == 0)
    rc = nf_write (out, &set, m, argv + optind, argc - optind);
  nf_rset_free (&set);
  return rc;
}
