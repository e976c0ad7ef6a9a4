/* read.c: load and validate the JSON reports of a build for
   neuronfuse-report, and the source files their excerpts come from.

   A report is what lower/report.c writes (DESIGN.md section 3): version 1
   (no "end_line", no "ir") or 2.  Reading is lenient about content and
   strict about syntax:
     - malformed JSON is an error naming the file and jansson's position:
       "build/a.report.json:12:5: end of file expected near '}'";
     - a root that is not an object, or "regions"/"missed" that are not
       arrays, is "not a neuronfuse report" (an error, not a guess);
     - every other field may be missing or of the wrong type: it is then
       absent (NULL / 0 / negative), and the page says "unknown".
   The source named by "source" is looked up as given (absolute), then
   relative to the report's directory, then to the current directory; a
   source that cannot be read leaves SOURCE_ERROR set and the page shows
   the region without its excerpt.
   Limitations: a directory argument is read one level deep; a newer
   version than 2 is read as if it were 2 (with a warning): extensions are
   compatible by the schema's rule.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-report.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The newest schema this reader knows.  */
#define NF_READ_VERSION 2

/* The string value of KEY in OBJ, or NULL if absent or not a string.  */
static const char *
nf_str (json_t *obj, const char *key)
{
  return json_string_value (json_object_get (obj, key));
}

/* The integer value of KEY in OBJ, or 0.  */
static int
nf_int (json_t *obj, const char *key)
{
  json_t *v = json_object_get (obj, key);
  return json_is_integer (v) ? (int) json_integer_value (v) : 0;
}

/* The number value of KEY in OBJ, or -1 when absent (FLOPs and bytes are
   never negative).  */
static double
nf_num (json_t *obj, const char *key)
{
  json_t *v = json_object_get (obj, key);
  return json_is_number (v) ? json_number_value (v) : -1;
}

/* The array value of KEY in OBJ, or NULL.  */
static json_t *
nf_arr (json_t *obj, const char *key)
{
  json_t *v = json_object_get (obj, key);
  return json_is_array (v) ? v : NULL;
}

/* Read the whole file PATH into a NUL-terminated buffer (caller frees).
   Returns NULL with errno set on failure.  */
static char *
nf_slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc (cap);
  while (buf)
    {
      len += fread (buf + len, 1, cap - len - 1, f);
      if (len < cap - 1)
	break;
      char *nb = realloc (buf, cap * 2);
      if (!nb)
	{
	  free (buf);
	  buf = NULL;
	  errno = ENOMEM;
	  break;
	}
      buf = nb;
      cap *= 2;
    }
  int err = ferror (f) ? EIO : 0;
  fclose (f);
  if (buf && err)
    {
      free (buf);
      errno = err;
      return NULL;
    }
  if (buf)
    buf[len] = '\0';
  return buf;
}

/* Find and read the source of unit U (its "source"), split into lines.
   On failure sets U->source_error.  */
static void
nf_read_source (nf_runit *u)
{
  char cand[3][4096];
  int n = 0;

  if (!u->source)
    {
      u->source_error = strdup ("the report names no source file");
      return;
    }
  if (u->source[0] == '/')
    snprintf (cand[n++], sizeof cand[0], "%s", u->source);
  else
    {
      const char *slash = strrchr (u->path, '/');
      if (slash)
	snprintf (cand[n++], sizeof cand[0], "%.*s/%s", (int) (slash - u->path),
		  u->path, u->source);
      snprintf (cand[n++], sizeof cand[0], "%s", u->source);
    }
  int err = ENOENT;
  for (int i = 0; i < n && !u->source_text; i++)
    {
      u->source_text = nf_slurp (cand[i]);
      if (u->source_text)
	u->source_path = strdup (cand[i]);
      else
	err = errno;
    }
  if (!u->source_text)
    {
      char msg[4400];
      snprintf (msg, sizeof msg, "cannot read the source %s: %s", u->source,
		strerror (err));
      u->source_error = strdup (msg);
      return;
    }
  /* Split into lines without copying: pointers and lengths.  */
  size_t cap = 64;
  u->lines = malloc (cap * sizeof *u->lines);
  u->line_len = malloc (cap * sizeof *u->line_len);
  for (char *p = u->source_text; u->lines && u->line_len && *p;)
    {
      char *nl = strchr (p, '\n');
      size_t len = nl ? (size_t) (nl - p) : strlen (p);
      if (u->n_lines == cap)
	{
	  cap *= 2;
	  const char **l = realloc (u->lines, cap * sizeof *l);
	  size_t *ll = l ? realloc (u->line_len, cap * sizeof *ll) : NULL;
	  if (l)
	    u->lines = l;
	  if (!l || !ll)
	    break;
	  u->line_len = ll;
	}
      u->lines[u->n_lines] = p;
      u->line_len[u->n_lines++] = len;
      p += len + (nl != NULL);
    }
}

/* Fill region R of unit U from the JSON object O.  */
static void
nf_read_region (nf_runit *u, nf_rregion *r, json_t *o)
{
  static const char *const forms[NF_N_FORMS][2]
    = { { "mhlo", "mhlo_error" },
	{ "stablehlo", "stablehlo_error" },
	{ "penguin", "penguin_error" } };
  json_t *loc = json_object_get (o, "location");

  r->unit = u;
  r->id = nf_int (o, "id");
  r->kind = nf_str (o, "kind");
  r->function = nf_str (o, "function");
  r->file = nf_str (loc, "file");
  r->line = nf_int (loc, "line");
  r->column = nf_int (loc, "column");
  r->end_line = nf_int (o, "end_line");
  if (r->end_line < r->line)
    r->end_line = r->line; /* Version 1: the first line only.  */
  r->action = nf_str (o, "action");
  r->callee = nf_str (o, "callee");
  r->dtype = nf_str (o, "dtype");
  r->accum = nf_str (o, "accum_dtype");
  r->live_ins = nf_arr (o, "live_ins");
  r->live_outs = nf_arr (o, "live_outs");
  r->notes = nf_arr (o, "notes");
  json_t *dims = nf_arr (o, "reduce_dims");
  r->scalar = dims && json_array_size (dims) == 0 && r->kind
	      && (strcmp (r->kind, "Expm1") == 0
		  || strcmp (r->kind, "Log1p") == 0);
  r->flops = nf_num (o, "flops");
  r->bytes = nf_num (o, "bytes");
  json_t *ir = json_object_get (o, "ir");
  r->has_ir = json_is_object (ir);
  for (int k = 0; k < NF_N_FORMS; k++)
    {
      r->ir[k] = nf_str (ir, forms[k][0]);
      r->ir_error[k] = nf_str (ir, forms[k][1]);
    }
}

/* Load the report file PATH into a new unit of SET.  Returns 0, or -1
   after printing the error.  */
static int
nf_read_report (nf_rset *set, const char *path)
{
  json_error_t e;
  json_t *root = json_load_file (path, JSON_REJECT_DUPLICATES, &e);
  if (!root)
    {
      if (e.line > 0)
	fprintf (stderr, "%s:%d:%d: %s\n", path, e.line, e.column, e.text);
      else
	fprintf (stderr, "%s: %s\n", path, e.text);
      return -1;
    }
  json_t *regions = json_object_get (root, "regions");
  json_t *missed = json_object_get (root, "missed");
  const char *bad
    = !json_is_object (root)		    ? "the top level is not an object"
      : regions && !json_is_array (regions) ? "\"regions\" is not an array"
      : missed && !json_is_array (missed)   ? "\"missed\" is not an array"
					    : NULL;
  if (bad)
    {
      fprintf (stderr, "%s: not a neuronfuse report: %s\n", path, bad);
      json_decref (root);
      return -1;
    }
  nf_runit *units = realloc (set->units, (set->n_units + 1) * sizeof *units);
  if (!units)
    {
      fprintf (stderr, "%s: out of memory\n", path);
      json_decref (root);
      return -1;
    }
  set->units = units;
  /* The array moved: the regions' back pointers follow it.  */
  for (size_t k = 0; k < set->n_units; k++)
    for (size_t i = 0; i < units[k].n_regions; i++)
      units[k].regions[i].unit = &units[k];
  nf_runit *u = &units[set->n_units++];
  memset (u, 0, sizeof *u);
  u->path = strdup (path);
  u->root = root;
  u->version = nf_int (root, "version");
  u->tool = nf_str (root, "tool");
  u->source = nf_str (root, "source");
  if (u->version > NF_READ_VERSION)
    fprintf (stderr,
	     "%s: warning: report version %d is newer than this reader's "
	     "%d; reading the fields it knows\n",
	     path, u->version, NF_READ_VERSION);

  size_t nr = json_array_size (regions), nm = json_array_size (missed);
  u->regions = calloc (nr ? nr : 1, sizeof *u->regions);
  u->missed = calloc (nm ? nm : 1, sizeof *u->missed);
  if (!u->path || !u->regions || !u->missed)
    {
      fprintf (stderr, "%s: out of memory\n", path);
      return -1;
    }
  for (size_t i = 0; i < nr; i++)
    {
      json_t *o = json_array_get (regions, i);
      if (json_is_object (o))
	nf_read_region (u, &u->regions[u->n_regions++], o);
    }
  for (size_t i = 0; i < nm; i++)
    {
      json_t *o = json_array_get (missed, i);
      if (!json_is_object (o))
	continue;
      nf_rmissed *m = &u->missed[u->n_missed++];
      json_t *loc = json_object_get (o, "location");
      m->kind = nf_str (o, "kind");
      m->function = nf_str (o, "function");
      m->file = nf_str (loc, "file");
      m->line = nf_int (loc, "line");
      m->column = nf_int (loc, "column");
      m->reason = nf_str (o, "reason");
    }
  if (u->n_regions)
    nf_read_source (u);
  return 0;
}

static int
nf_cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
nf_rset_add (nf_rset *set, const char *path)
{
  struct stat st;
  if (stat (path, &st) != 0)
    {
      fprintf (stderr, "%s: %s\n", path, strerror (errno));
      return -1;
    }
  if (!S_ISDIR (st.st_mode))
    return nf_read_report (set, path);

  DIR *d = opendir (path);
  if (!d)
    {
      fprintf (stderr, "%s: %s\n", path, strerror (errno));
      return -1;
    }
  char **names = NULL;
  size_t n = 0;
  int rc = 0;
  for (struct dirent *de; (de = readdir (d));)
    {
      size_t len = strlen (de->d_name);
      if (len < 6 || strcmp (de->d_name + len - 5, ".json") != 0)
	continue;
      char **nn = realloc (names, (n + 1) * sizeof *nn);
      size_t plen = strlen (path) + len + 2;
      char *full = nn ? malloc (plen) : NULL;
      if (!full)
	{
	  names = nn ? nn : names;
	  fprintf (stderr, "%s: out of memory\n", path);
	  rc = -1;
	  break;
	}
      names = nn;
      snprintf (full, plen, "%s/%s", path, de->d_name);
      names[n++] = full;
    }
  closedir (d);
  if (rc == 0 && n == 0)
    {
      fprintf (stderr, "%s: no .json reports in this directory\n", path);
      rc = -1;
    }
  qsort (names, n, sizeof *names, nf_cmp_str);
  for (size_t i = 0; i < n; i++)
    {
      if (rc == 0)
	rc = nf_read_report (set, names[i]);
      free (names[i]);
    }
  free (names);
  return rc;
}

void
nf_rset_free (nf_rset *set)
{
  for (size_t i = 0; i < set->n_units; i++)
    {
      nf_runit *u = &set->units[i];
      json_decref (u->root);
      free (u->path);
      free (u->source_path);
      free (u->source_text);
      free (u->lines);
      free (u->line_len);
      free (u->source_error);
      free (u->regions);
      free (u->missed);
    }
  free (set->units);
  set->units = NULL;
  set->n_units = 0;
}
