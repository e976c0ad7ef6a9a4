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
/* Remove the "." components of the path P and the ".." ones with the
   component before them, in place: a header reached from two units as
   "a/../common.h" and "b/../common.h" is one file of the page (GCC
   spells an include by the path it was found through).  Lexical, as a
   symbolic link followed by ".." is not where the text says: builds
   rarely have those in their include paths.  */
static void
nf_normalize_path (char *p)
{
  bool abs = p[0] == '/';
  char *out = p + abs, *in = p + abs;
  size_t kept = 0; /* Components in OUT that ".." may remove.  */
  while (*in)
    {
      char *end = strchr (in, '/');
      size_t n = end ? (size_t) (end - in) : strlen (in);
      if (n == 0 || (n == 1 && in[0] == '.'))
	;
      else if (n == 2 && in[0] == '.' && in[1] == '.' && kept > 0)
	{
	  /* Drop the last kept component of OUT and its '/'.  */
	  out--;
	  while (out > p + abs && out[-1] != '/')
	    out--;
	  kept--;
	}
      else
	{
	  memmove (out, in, n);
	  out += n;
	  *out++ = '/';
	  kept += !(n == 2 && in[0] == '.' && in[1] == '.');
	}
      /* The '/' written after the last component overwrote its NUL:
	 stop here rather than read on.  */
      if (!end)
	break;
      in = end + 1;
    }
  if (out > p + abs)
    out--; /* The last '/'.  */
  *out = '\0';
  if (out == p)
    strcpy (p, abs ? "/" : ".");
}

/* The path at KEY of OBJ, normalized (nf_normalize_path) in the JSON
   itself, which owns the strings the page borrows; NULL when absent.  */
static const char *
nf_path (json_t *obj, const char *key)
{
  const char *file = nf_str (obj, key);
  char *norm = file ? strdup (file) : NULL;
  if (!norm)
    return file;
  nf_normalize_path (norm);
  if (strcmp (norm, file) != 0)
    json_object_set_new (obj, key, json_string (norm));
  free (norm);
  return nf_str (obj, key);
}

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

/* Find and read the source FILE named in the report at REPORT_PATH into
   T, split into lines: a relative FILE relative to the report's
   directory, then as given (to the current directory).  On failure sets
   T->error.  */
static void
nf_read_text (nf_rtext *t, const char *file, const char *report_path)
{
  char cand[3][4096];
  int n = 0;

  t->file = file;
  if (!file)
    {
      t->error = strdup ("the report names no source file");
      return;
    }
  const char *slash = strrchr (report_path, '/');
  if (file[0] != '/' && slash)
    snprintf (cand[n++], sizeof cand[0], "%.*s/%s", (int) (slash - report_path),
	      report_path, file);
  snprintf (cand[n++], sizeof cand[0], "%s", file);
  int err = ENOENT;
  for (int i = 0; i < n && !t->text; i++)
    {
      t->text = nf_slurp (cand[i]);
      if (t->text)
	t->path = strdup (cand[i]);
      else
	err = errno;
    }
  if (!t->text)
    {
      char msg[4400];
      snprintf (msg, sizeof msg, "cannot read the source %s: %s", file,
		strerror (err));
      t->error = strdup (msg);
      return;
    }
  /* Split into lines without copying: pointers and lengths.  */
  size_t cap = 64;
  t->lines = malloc (cap * sizeof *t->lines);
  t->line_len = malloc (cap * sizeof *t->line_len);
  for (char *p = t->text; t->lines && t->line_len && *p;)
    {
      char *nl = strchr (p, '\n');
      size_t len = nl ? (size_t) (nl - p) : strlen (p);
      if (t->n_lines == cap)
	{
	  cap *= 2;
	  const char **l = realloc (t->lines, cap * sizeof *l);
	  size_t *ll = l ? realloc (t->line_len, cap * sizeof *ll) : NULL;
	  if (l)
	    t->lines = l;
	  if (!l || !ll)
	    break;
	  t->line_len = ll;
	}
      t->lines[t->n_lines] = p;
      t->line_len[t->n_lines++] = len;
      p += len + (nl != NULL);
    }
}

static void
nf_free_text (nf_rtext *t)
{
  free (t->path);
  free (t->text);
  free (t->lines);
  free (t->line_len);
  free (t->error);
}

/* Read the sources of U's regions: its own, and each other file a
   region is in (a header's inline function), once.  Out of memory
   leaves a region without its text (TEXT -1, the unit's source, whose
   lines the excerpt then refuses as another file's).  */
static void
nf_read_sources (nf_runit *u)
{
  nf_read_text (&u->src, u->source, u->path);
  for (size_t i = 0; i < u->n_regions; i++)
    {
      nf_rregion *r = &u->regions[i];
      r->text = -1;
      if (!r->file || (u->source && strcmp (r->file, u->source) == 0))
	continue;
      size_t k = 0;
      while (k < u->n_extra && strcmp (u->extra[k].file, r->file) != 0)
	k++;
      if (k == u->n_extra)
	{
	  nf_rtext *e = realloc (u->extra, (k + 1) * sizeof *e);
	  if (!e)
	    continue;
	  u->extra = e;
	  memset (&e[k], 0, sizeof e[k]);
	  nf_read_text (&e[k], r->file, u->path);
	  u->n_extra++;
	}
      r->text = (int) k;
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
  r->file = nf_path (loc, "file");
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

/* Whether NAME ends with SUFFIX.  */
static bool
nf_ends_with (const char *name, const char *suffix)
{
  size_t n = strlen (name), k = strlen (suffix);
  return n > k && strcmp (name + n - k, suffix) == 0;
}

/* The unit's label for the report PATH found in the directory DIR (NULL
   for a report named by itself): PATH inside DIR, without the report's
   suffix.  */
static char *
nf_unit_label (const char *path, const char *dir)
{
  size_t dn = dir ? strlen (dir) : 0;
  if (dir && strncmp (path, dir, dn) == 0 && path[dn] == '/')
    path += dn + 1;
  size_t n = strlen (path);
  if (nf_ends_with (path, NF_REPORT_SUFFIX))
    n -= strlen (NF_REPORT_SUFFIX);
  else if (nf_ends_with (path, ".json"))
    n -= strlen (".json");
  return strndup (path, n);
}

/* Load the report file PATH (found in the directory DIR, or NULL) into a
   new unit of SET.  Returns 0, or -1 after printing the error.  */
static int
nf_read_report (nf_rset *set, const char *path, const char *dir)
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
  u->label = nf_unit_label (path, dir);
  u->root = root;
  u->version = nf_int (root, "version");
  u->tool = nf_str (root, "tool");
  u->source = nf_path (root, "source");
  if (u->version > NF_READ_VERSION)
    fprintf (stderr,
	     "%s: warning: report version %d is newer than this reader's "
	     "%d; reading the fields it knows\n",
	     path, u->version, NF_READ_VERSION);

  size_t nr = json_array_size (regions), nm = json_array_size (missed);
  u->regions = calloc (nr ? nr : 1, sizeof *u->regions);
  u->missed = calloc (nm ? nm : 1, sizeof *u->missed);
  if (!u->path || !u->label || !u->regions || !u->missed)
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
      m->file = nf_path (loc, "file");
      m->line = nf_int (loc, "line");
      m->column = nf_int (loc, "column");
      m->reason = nf_str (o, "reason");
    }
  if (u->n_regions)
    nf_read_sources (u);
  return 0;
}

static int
nf_cmp_str (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* A growing list of paths.  */
struct nf_paths
{
  char **v;
  size_t n;
};

/* Add DIR/NAME to P.  Returns 0 or -1 (out of memory).  */
static int
nf_paths_add (struct nf_paths *p, const char *dir, const char *name)
{
  char **nv = realloc (p->v, (p->n + 1) * sizeof *nv);
  size_t len = strlen (dir) + strlen (name) + 2;
  char *full = nv ? malloc (len) : NULL;
  if (nv)
    p->v = nv;
  if (!full)
    return -1;
  snprintf (full, len, "%s/%s", dir, name);
  p->v[p->n++] = full;
  return 0;
}

/* Collect the reports of directory DIR into P: at the top (DEPTH 0)
   every *.json file, as a directory of reports named by hand holds;
   below it, in the directories report=DIR/ makes after the objects'
   paths, the *.neuronfuse.json files only (a build tree's other JSON,
   compile_commands.json or package.json, is not a report).  Symbolic
   links to directories are not followed.  Returns 0, or -1 after
   printing why.  */
static int
nf_collect (const char *dir, int depth, struct nf_paths *p)
{
  DIR *d = opendir (dir);
  if (!d)
    {
      fprintf (stderr, "%s: %s\n", dir, strerror (errno));
      return -1;
    }
  int rc = 0;
  for (struct dirent *de; rc == 0 && (de = readdir (d));)
    {
      const char *name = de->d_name;
      struct stat st;
      if (name[0] == '.')
	continue;
      if (nf_ends_with (name, depth == 0 ? ".json" : NF_REPORT_SUFFIX))
	{
	  rc = nf_paths_add (p, dir, name);
	  if (rc != 0)
	    fprintf (stderr, "%s: out of memory\n", dir);
	}
      else if (depth < 32)
	{
	  size_t len = strlen (dir) + strlen (name) + 2;
	  char *sub = malloc (len);
	  if (!sub)
	    {
	      fprintf (stderr, "%s: out of memory\n", dir);
	      rc = -1;
	    }
	  else
	    {
	      snprintf (sub, len, "%s/%s", dir, name);
	      if (lstat (sub, &st) == 0 && S_ISDIR (st.st_mode))
		rc = nf_collect (sub, depth + 1, p);
	      free (sub);
	    }
	}
    }
  closedir (d);
  return rc;
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
    return nf_read_report (set, path, NULL);

  struct nf_paths p = { NULL, 0 };
  int rc = nf_collect (path, 0, &p);
  if (rc == 0 && p.n == 0)
    {
      fprintf (stderr, "%s: no .json reports in this directory\n", path);
      rc = -1;
    }
  if (p.n > 1)
    qsort (p.v, p.n, sizeof *p.v, nf_cmp_str);
  for (size_t i = 0; i < p.n; i++)
    {
      if (rc == 0)
	rc = nf_read_report (set, p.v[i], path);
      free (p.v[i]);
    }
  free (p.v);
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
      free (u->label);
      nf_free_text (&u->src);
      for (size_t k = 0; k < u->n_extra; k++)
	nf_free_text (&u->extra[k]);
      free (u->extra);
      free (u->regions);
      free (u->missed);
    }
  free (set->units);
  set->units = NULL;
  set->n_units = 0;
}
