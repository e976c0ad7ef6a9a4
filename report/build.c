/* build.c: the parts of neuronfuse-report's page that look at a whole
   build (see nf-report.h).

   A build's reports (report=DIR/ writes one per translation unit)
   repeat themselves: a static inline function of a header is compiled,
   and fused, in every unit that includes it, and GCC's late passes run
   after inlining, so a function with a fused idiom inlined into three
   callers gives three regions at one source line.  A reviewer asks per
   source line, not per copy: what was fused there, in how many copies,
   where.  So the page has

     1. Files: one row per source file (the file a region or candidate
	is located in, a header included; else its unit's source): the
	regions by kind as source lines and copies, the missed
	candidates, and the units that compiled it;
     2. Units: one row per report, with its source and counts (in a
	<details>: a build has hundreds);
     3. Regions: every region, sorted by file, line and kind, the copies
	of one (file, line, kind) under a row naming the line, the
	functions they were inlined into and the units;
     4. Missed candidates: every one, sorted by file and line, with its
	unit.

   Regions keep their numbers in the order of the reports (#1...), the
   numbers the roofline and the region sections use, so a sorted row
   links to its section.

   Limitation: one source file is one name as the reports spell it: the
   same header reached as "a/x.h" and "./a/x.h" is two rows.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-report.h"

#include <stdlib.h>
#include <string.h>

/* A region with its page number.  */
struct nf_ref
{
  const nf_rregion *r;
  int n;
};

/* A missed candidate with its unit.  */
struct nf_mref
{
  const nf_rmissed *m;
  const nf_runit *u;
};

static int
nf_strcmp0 (const char *a, const char *b)
{
  return strcmp (a ? a : "", b ? b : "");
}

/* Order of regions: file, line, kind, then page number.  */
static int
nf_ref_cmp (const void *pa, const void *pb)
{
  const struct nf_ref *a = pa, *b = pb;
  int c = nf_strcmp0 (nf_file_of (a->r->file, a->r->unit),
		      nf_file_of (b->r->file, b->r->unit));
  if (!c)
    c = (a->r->line > b->r->line) - (a->r->line < b->r->line);
  if (!c)
    c = nf_strcmp0 (a->r->kind, b->r->kind);
  return c ? c : a->n - b->n;
}

/* Whether A and B are copies of one source line's region.  */
static bool
nf_same_line (const struct nf_ref *a, const struct nf_ref *b)
{
  return nf_strcmp0 (nf_file_of (a->r->file, a->r->unit),
		     nf_file_of (b->r->file, b->r->unit))
	   == 0
	 && a->r->line == b->r->line
	 && nf_strcmp0 (a->r->kind, b->r->kind) == 0;
}

/* Every region of SET with its number, sorted (nf_ref_cmp); *N set.
   NULL when out of memory (or SET has none: *N is 0 then).  */
static struct nf_ref *
nf_sorted_regions (const nf_rset *set, size_t *n)
{
  size_t total = 0;
  for (size_t u = 0; u < set->n_units; u++)
    total += set->units[u].n_regions;
  *n = total;
  struct nf_ref *v = malloc ((total ? total : 1) * sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t u = 0; u < set->n_units; u++)
    for (size_t i = 0; i < set->units[u].n_regions; i++, k++)
      v[k] = (struct nf_ref){ &set->units[u].regions[i], (int) k + 1 };
  if (total > 1)
    qsort (v, total, sizeof *v, nf_ref_cmp);
  return v;
}

static int
nf_mref_cmp (const void *pa, const void *pb)
{
  const struct nf_mref *a = pa, *b = pb;
  int c
    = nf_strcmp0 (nf_file_of (a->m->file, a->u), nf_file_of (b->m->file, b->u));
  if (!c)
    c = (a->m->line > b->m->line) - (a->m->line < b->m->line);
  if (!c)
    c = nf_strcmp0 (a->m->kind, b->m->kind);
  /* Then in report order: stable whatever qsort does.  */
  return c ? c : (a->m > b->m) - (a->m < b->m);
}

/* Every missed candidate of SET, sorted (nf_mref_cmp); as above.  */
static struct nf_mref *
nf_sorted_missed (const nf_rset *set, size_t *n)
{
  size_t total = 0;
  for (size_t u = 0; u < set->n_units; u++)
    total += set->units[u].n_missed;
  *n = total;
  struct nf_mref *v = malloc ((total ? total : 1) * sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t u = 0; u < set->n_units; u++)
    for (size_t i = 0; i < set->units[u].n_missed; i++)
      v[k++] = (struct nf_mref){ &set->units[u].missed[i], &set->units[u] };
  if (total > 1)
    qsort (v, total, sizeof *v, nf_mref_cmp);
  return v;
}

/* Write ", " before every item but the first of a list.  */
static void
nf_sep (FILE *f, int *first)
{
  if (!*first)
    fputs (", ", f);
  *first = 0;
}

/* Whether unit U has a region or a candidate located in FILE.  */
static bool
nf_unit_touches (const nf_runit *u, const char *file)
{
  for (size_t i = 0; i < u->n_regions; i++)
    if (nf_strcmp0 (nf_file_of (u->regions[i].file, u), file) == 0)
      return true;
  for (size_t i = 0; i < u->n_missed; i++)
    if (nf_strcmp0 (nf_file_of (u->missed[i].file, u), file) == 0)
      return true;
  return false;
}

/* The row of FILE in the files table: its regions R[0..NR) (sorted, so
   one kind's lines are together) and its NM missed candidates.  */
static void
nf_file_row (FILE *f, const nf_rset *set, const char *file,
	     const struct nf_ref *r, size_t nr, size_t nm)
{
  /* No filter attributes: the table is the overview of every file.  */
  fputs ("<tr class=\"file\"><td class=\"where\">", f);
  nf_html_or (f, file, "?");
  fputs ("</td><td>", f);
  int first = 1;
  /* Per kind: the source lines and, when more, the copies.  Kinds come
     in runs within a line, not over the file: count each kind once.  */
  for (size_t i = 0; i < nr; i++)
    {
      bool seen = false;
      for (size_t j = 0; j < i && !seen; j++)
	seen = nf_strcmp0 (r[j].r->kind, r[i].r->kind) == 0;
      if (seen)
	continue;
      size_t lines = 0, copies = 0;
      for (size_t j = i; j < nr; j++)
	if (nf_strcmp0 (r[j].r->kind, r[i].r->kind) == 0)
	  {
	    copies++;
	    bool again = false;
	    for (size_t k = i; k < j && !again; k++)
	      again = nf_same_line (&r[k], &r[j]);
	    lines += !again;
	  }
      nf_sep (f, &first);
      nf_html_or (f, r[i].r->kind, "unknown");
      fprintf (f, " %zu line%s", lines, lines == 1 ? "" : "s");
      if (copies > lines)
	fprintf (f, " (%zu copies)", copies);
    }
  if (first)
    fputs ("<i>none</i>", f);
  fprintf (f, "</td><td>%zu</td><td>", nm);
  size_t nu = 0;
  for (size_t u = 0; u < set->n_units; u++)
    nu += nf_unit_touches (&set->units[u], file);
  fprintf (f, "<details><summary>%zu</summary>", nu);
  first = 1;
  for (size_t u = 0; u < set->n_units; u++)
    if (nf_unit_touches (&set->units[u], file))
      {
	nf_sep (f, &first);
	nf_html_escape (f, set->units[u].label);
      }
  fputs ("</details></td></tr>\n", f);
}

/* The table of units.  */
static void
nf_html_units (FILE *f, const nf_rset *set)
{
  fprintf (f,
	   "<details id=\"units\"><summary>%zu unit%s (one report "
	   "each)</summary>\n<table>\n<tr><th>unit</th><th>source</th>"
	   "<th>tool</th><th>regions</th><th>missed</th></tr>\n",
	   set->n_units, set->n_units == 1 ? "" : "s");
  for (size_t u = 0; u < set->n_units; u++)
    {
      const nf_runit *un = &set->units[u];
      fputs ("<tr class=\"unit\"><td>", f);
      nf_html_escape (f, un->label);
      fputs ("</td><td>", f);
      nf_html_or (f, un->source, "unknown");
      fputs ("</td><td>", f);
      nf_html_or (f, un->tool, "unknown");
      fprintf (f, "</td><td>%zu</td><td>%zu</td></tr>\n", un->n_regions,
	       un->n_missed);
    }
  fputs ("</table>\n</details>\n", f);
}

int
nf_html_files (FILE *f, const nf_rset *set)
{
  size_t nr, nm;
  struct nf_ref *r = nf_sorted_regions (set, &nr);
  struct nf_mref *m = nf_sorted_missed (set, &nm);
  if (!r || !m)
    {
      free (r);
      free (m);
      return -1;
    }
  fputs ("<h2>Files</h2>\n<table id=\"files\">\n<tr><th>source file</th>"
	 "<th>regions by kind: source lines (copies)</th><th>missed</th>"
	 "<th>units</th></tr>\n",
	 f);
  /* Merge the two sorted lists file by file.  */
  size_t i = 0, j = 0;
  while (i < nr || j < nm)
    {
      const char *fr = i < nr ? nf_file_of (r[i].r->file, r[i].r->unit) : NULL;
      const char *fm = j < nm ? nf_file_of (m[j].m->file, m[j].u) : NULL;
      const char *file = !fm || (fr && nf_strcmp0 (fr, fm) <= 0) ? fr : fm;
      size_t i0 = i, j0 = j;
      while (i < nr
	     && nf_strcmp0 (nf_file_of (r[i].r->file, r[i].r->unit), file) == 0)
	i++;
      while (j < nm
	     && nf_strcmp0 (nf_file_of (m[j].m->file, m[j].u), file) == 0)
	j++;
      nf_file_row (f, set, file, r + i0, i - i0, j - j0);
    }
  fputs ("</table>\n", f);
  if (nr + nm == 0)
    fputs ("<p>No region and no missed candidate in any file.</p>\n", f);
  nf_html_units (f, set);
  free (r);
  free (m);
  return 0;
}

/* The row naming the source line of the copies R[0..N), N > 1.  */
static void
nf_group_row (FILE *f, const struct nf_ref *r, size_t n)
{
  const char *file = nf_file_of (r[0].r->file, r[0].r->unit);
  fputs ("<tr class=\"group\"", f);
  nf_html_filter_attrs (f, r[0].r->kind, file);
  fputs ("><td colspan=\"8\"><b>", f);
  nf_html_where (f, file, r[0].r->line);
  fputs ("</b>: ", f);
  nf_html_or (f, r[0].r->kind, "unknown");
  fprintf (f, ", %zu copies, in ", n);
  int first = 1;
  for (size_t i = 0; i < n; i++)
    {
      bool seen = false;
      for (size_t k = 0; k < i && !seen; k++)
	seen = nf_strcmp0 (r[k].r->function, r[i].r->function) == 0;
      if (seen)
	continue;
      nf_sep (f, &first);
      nf_html_or (f, r[i].r->function, "unknown");
    }
  fputs (" (units: ", f);
  first = 1;
  for (size_t i = 0; i < n; i++)
    {
      bool seen = false;
      for (size_t k = 0; k < i && !seen; k++)
	seen = r[k].r->unit == r[i].r->unit;
      if (seen)
	continue;
      nf_sep (f, &first);
      nf_html_escape (f, r[i].r->unit->label);
    }
  fputs (")</td></tr>\n", f);
}

/* One region's row; COPY when it is under a group row.  */
static void
nf_region_row (FILE *f, const struct nf_ref *ref, bool copy)
{
  const nf_rregion *r = ref->r;
  const char *file = nf_file_of (r->file, r->unit);
  fprintf (f, "<tr class=\"row%s\"", copy ? " copy" : "");
  nf_html_filter_attrs (f, r->kind, file);
  fprintf (f, "><td><a href=\"#region-%d\">#%d</a></td><td>", ref->n, ref->n);
  nf_html_or (f, r->kind, "unknown");
  fputs ("</td><td>", f);
  nf_html_or (f, r->function, "unknown");
  fputs ("</td><td class=\"where\">", f);
  nf_html_where (f, file, r->line);
  fputs ("</td><td>", f);
  nf_html_escape (f, r->unit->label);
  fputs ("</td><td>", f);
  nf_html_or (f, r->dtype, "?");
  fputs (" / ", f);
  nf_html_or (f, r->accum, "?");
  fputs ("</td><td>", f);
  nf_html_or (f, r->action, "unknown");
  fputs ("</td><td><ul class=\"notes\">", f);
  for (size_t k = 0; k < json_array_size (r->notes); k++)
    {
      fputs ("<li>", f);
      nf_html_or (f, json_string_value (json_array_get (r->notes, k)), "?");
      fputs ("</li>", f);
    }
  fputs ("</ul></td></tr>\n", f);
}

int
nf_html_summary (FILE *f, const nf_rset *set)
{
  size_t n;
  struct nf_ref *r = nf_sorted_regions (set, &n);
  if (!r)
    return -1;
  fputs ("<h2>Regions</h2>\n<table id=\"regions\">\n<tr><th>#</th>"
	 "<th>kind</th><th>function</th><th>where</th><th>unit</th>"
	 "<th>dtype / accumulator</th><th>action</th><th>notes</th></tr>\n",
	 f);
  for (size_t i = 0; i < n;)
    {
      size_t g = i + 1;
      while (g < n && nf_same_line (&r[i], &r[g]))
	g++;
      if (g - i > 1)
	nf_group_row (f, r + i, g - i);
      for (size_t k = i; k < g; k++)
	nf_region_row (f, &r[k], g - i > 1);
      i = g;
    }
  fputs ("</table>\n", f);
  if (n == 0)
    fputs ("<p>No region was transformed.</p>\n", f);
  free (r);
  return 0;
}

int
nf_html_missed (FILE *f, const nf_rset *set)
{
  size_t n;
  struct nf_mref *m = nf_sorted_missed (set, &n);
  if (!m)
    return -1;
  fputs ("<h2>Missed candidates</h2>\n<table id=\"missed\">\n"
	 "<tr><th>kind</th><th>function</th><th>where</th><th>unit</th>"
	 "<th>reason</th></tr>\n",
	 f);
  for (size_t i = 0; i < n; i++)
    {
      const nf_rmissed *c = m[i].m;
      const char *file = nf_file_of (c->file, m[i].u);
      fputs ("<tr class=\"row\"", f);
      nf_html_filter_attrs (f, c->kind, file);
      fputs ("><td>", f);
      nf_html_or (f, c->kind, "unknown");
      fputs ("</td><td>", f);
      nf_html_or (f, c->function, "unknown");
      fputs ("</td><td class=\"where\">", f);
      nf_html_where (f, file, c->line);
      fputs ("</td><td>", f);
      nf_html_escape (f, m[i].u->label);
      fputs ("</td><td>", f);
      nf_html_or (f, c->reason, "no reason given");
      fputs ("</td></tr>\n", f);
    }
  fputs ("</table>\n", f);
  if (n == 0)
    fputs ("<p>No missed candidates.</p>\n", f);
  free (m);
  return 0;
}
