/* The JSON report writer shared by both front ends.

   The report is kept as a jansson object while the unit is compiled and
   written once at the end.  jansson (Debian libjansson-dev) does the
   escaping and the formatting: report text comes from user source
   (function and variable names, file names), so hand-written escaping
   would be a bug farm.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "report.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct nf_report
{
  json_t *root;			/* The whole report object.  */
  json_t *regions;		/* Borrowed from ROOT.  */
  json_t *missed;		/* Borrowed from ROOT.  */
  const char *source;		/* Borrowed from ROOT: default file.  */
};

/* A JSON string for S, or null for NULL.  */
static json_t *
nf_json_str (const char *s)
{
  return s ? json_string (s) : json_null ();
}

static json_t *
nf_json_str_array (const char *const *v, size_t n)
{
  json_t *a = json_array ();
  for (size_t i = 0; a && i < n; i++)
    json_array_append_new (a, nf_json_str (v[i]));
  return a;
}

static json_t *
nf_json_location (const nf_report *report, nf_location loc)
{
  return json_pack ("{s:o, s:i, s:i}", "file",
		    nf_json_str (loc.file ? loc.file : report->source),
		    "line", loc.line, "column", loc.column);
}

nf_report *
nf_report_new (const char *tool, const char *source)
{
  nf_report *r = calloc (1, sizeof *r);
  if (!r)
    return NULL;
  r->root = json_pack ("{s:i, s:o, s:o, s:[], s:[]}", "version",
		       NF_REPORT_VERSION, "tool", nf_json_str (tool), "source",
		       nf_json_str (source), "regions", "missed");
  if (!r->root)
    {
      free (r);
      return NULL;
    }
  r->regions = json_object_get (r->root, "regions");
  r->missed = json_object_get (r->root, "missed");
  r->source = json_string_value (json_object_get (r->root, "source"));
  return r;
}

void
nf_report_free (nf_report *report)
{
  if (!report)
    return;
  json_decref (report->root);
  free (report);
}

int
nf_report_add_region (nf_report *report, const nf_region_desc *d)
{
  int id = (int) json_array_size (report->regions) + 1;
  json_t *dims = json_array ();

  for (size_t i = 0; dims && i < d->n_reduce_dims; i++)
    json_array_append_new (dims, json_integer (d->reduce_dims[i]));
  json_t *obj = json_pack (
    "{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:f, s:o}",
    "id", id, "kind", nf_json_str (d->kind), "function",
    nf_json_str (d->function), "location", nf_json_location (report, d->loc),
    "action", nf_json_str (d->action), "callee", nf_json_str (d->callee),
    "dtype", nf_json_str (d->dtype), "accum_dtype",
    nf_json_str (d->accum_dtype), "live_ins",
    nf_json_str_array (d->live_ins, d->n_live_ins), "live_outs",
    nf_json_str_array (d->live_outs, d->n_live_outs), "reduce_dims", dims,
    "flops", d->flops, "bytes", d->bytes, "notes",
    nf_json_str_array (d->notes, d->n_notes));
  if (!obj || json_array_append_new (report->regions, obj) != 0)
    return 0;
  return id;
}

int
nf_report_add_missed (nf_report *report, const char *kind,
		      const char *function, nf_location loc,
		      const char *reason)
{
  json_t *obj = json_pack ("{s:o, s:o, s:o, s:o}", "kind", nf_json_str (kind),
			   "function", nf_json_str (function), "location",
			   nf_json_location (report, loc), "reason",
			   nf_json_str (reason));
  if (!obj || json_array_append_new (report->missed, obj) != 0)
    return -1;
  return 0;
}

size_t
nf_report_n_regions (const nf_report *report)
{
  return json_array_size (report->regions);
}

size_t
nf_report_n_missed (const nf_report *report)
{
  return json_array_size (report->missed);
}

int
nf_report_write (const nf_report *report, const char *path)
{
  size_t len = strlen (path);
  char *tmp = malloc (len + 32);
  int err = 0;

  if (!tmp)
    return ENOMEM;
  /* Unique per process, in the same directory so rename is atomic.  */
  snprintf (tmp, len + 32, "%s.tmp%ld", path, (long) getpid ());
  FILE *f = fopen (tmp, "w");
  if (!f)
    {
      err = errno;
      free (tmp);
      return err;
    }
  if (json_dumpf (report->root, f, JSON_INDENT (2) | JSON_PRESERVE_ORDER)
	!= 0
      || fputc ('\n', f) == EOF)
    err = errno ? errno : EIO;
  if (fclose (f) != 0 && !err)
    err = errno;
  if (!err && rename (tmp, path) != 0)
    err = errno;
  if (err)
    remove (tmp);
  free (tmp);
  return err;
}
