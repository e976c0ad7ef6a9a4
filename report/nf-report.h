/* nf-report.h: neuronfuse-report's own types, shared by its four files:
   the reports as read (read.c), the machine models and the roofline
   (roofline.c), and the page (html.c).  Not installed.
   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_REPORT_TOOL_H
#define NF_REPORT_TOOL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The forms of a region's "ir" object, in the order the page shows them.  */
enum nf_form
{
  NF_FORM_MHLO,
  NF_FORM_STABLEHLO,
  NF_FORM_PENGUIN,
  NF_N_FORMS
};

struct nf_runit;

/* A source file of the page, read and split into lines.  */
typedef struct nf_rtext
{
  const char *file;   /* As the report names it.  */
  char *path;	      /* Where it was read, or NULL.  */
  char *text;	      /* Its contents (NUL-terminated), or NULL.  */
  const char **lines; /* Pointers into TEXT.  */
  size_t *line_len;
  size_t n_lines;
  char *error; /* Why there is no text, or NULL.  */
} nf_rtext;

/* One region of a report.  Strings are borrowed from the unit's JSON and
   are NULL where the report has no such field (or not a string).  */
typedef struct nf_rregion
{
  struct nf_runit *unit;
  int id; /* The report's "id" (0 if absent).  */
  const char *kind, *function, *file, *action, *callee, *dtype, *accum;
  int line, column, end_line;		/* 0 when unknown.  */
  json_t *live_ins, *live_outs, *notes; /* Arrays, or NULL.  */
  bool scalar; /* An Expm1/Log1p of one value (no reduce_dims): one call.  */
  double flops, bytes;			/* Negative when absent.  */
  const char *ir[NF_N_FORMS];		/* Texts; NULL when absent or null.  */
  const char *ir_error[NF_N_FORMS];	/* The emitter's reason, or NULL.  */
  bool has_ir;				/* The report has an "ir" object.  */
  int text; /* Its source: -1 the unit's (SRC), else UNIT->EXTRA[TEXT]
	       (a header's, say).  */
} nf_rregion;

/* One missed candidate.  */
typedef struct nf_rmissed
{
  const char *kind, *function, *file, *reason;
  int line, column;
} nf_rmissed;

/* One report file (one translation unit).  */
typedef struct nf_runit
{
  char *path;		     /* The report's path, as found.  */
  char *label;		     /* The unit's name on the page: the path
				in the directory named, without the
				report's suffix ("celt/bands.c" for
				out/celt/bands.c.neuronfuse.json).  */
  json_t *root;		     /* Owns every borrowed string.  */
  int version;		     /* "version", 0 if absent.  */
  const char *tool, *source; /* NULL if absent.  */
  nf_rtext src;		     /* The unit's source.  */
  nf_rtext *extra;	     /* Other files its regions are in.  */
  size_t n_extra;
  nf_rregion *regions;
  size_t n_regions;
  nf_rmissed *missed;
  size_t n_missed;
} nf_runit;

/* Every report the command line named.  */
typedef struct nf_rset
{
  nf_runit *units;
  size_t n_units;
} nf_rset;

/* The suffix of the reports report=DIR/ writes (lower/outdir.h's
   NF_OUTDIR_REPORT_SUFFIX: report/ includes nothing of lower/).  */
#define NF_REPORT_SUFFIX ".neuronfuse.json"

/* read.c.  Add the report at PATH, or the reports of the directory PATH
   (its *.json files and, in its subdirectories at any depth, the
   *.neuronfuse.json files report=DIR/ writes; sorted by path), to SET.  Returns 0, or -1 after
   printing "PATH:LINE:COL: message" (malformed JSON) or "PATH: message"
   (unreadable, not a neuronfuse report) to stderr.  */
int nf_rset_add (nf_rset *set, const char *path);

/* Free everything SET holds (not SET itself).  */
void nf_rset_free (nf_rset *set);

/* A machine model of the roofline: peak compute and memory bandwidth.  */
typedef struct nf_machine
{
  const char *key;	 /* --machine= value: "host", "trn1"...  */
  const char *name;	 /* Shown on the page.  */
  double bandwidth;	 /* Bytes per second.  */
  double peak;		 /* FLOP/s of the roof the ridge uses.  */
  const char *peak_what; /* What PEAK is, for the legend.  */
  double peak2;		 /* A higher roof to draw, or 0.  */
  const char *peak2_what;
  const char *basis; /* One sentence: where the numbers come
			from, shown under the chart.  */
} nf_machine;

/* roofline.c.  The compiled-in presets, and their number.  */
extern const nf_machine nf_machines[];
extern const size_t nf_n_machines;

/* The preset named KEY, or NULL.  */
const nf_machine *nf_machine_find (const char *key);

/* Whether region R can be placed: FLOPs and bytes both known, bytes > 0.  */
bool nf_roof_placeable (const nf_rregion *r);

/* Write to F the inline SVG roofline of machine M with every placeable
   region of SET as a point labelled by its page number (the index in
   SET order, from 1).  */
void nf_roof_svg (FILE *f, const nf_machine *m, const nf_rset *set);

/* Write to F the sentence (HTML, escaped) why region R is memory- or
   compute-bound on M, or why it is not placed.  */
void nf_roof_sentence (FILE *f, const nf_machine *m, const nf_rregion *r);

/* html.c.  Write S to F with &, <, >, " and ' escaped; NULL writes
   nothing.  */
void nf_html_escape (FILE *f, const char *s);
void nf_html_escape_n (FILE *f, const char *s, size_t n);

/* S escaped, or the placeholder WHAT (HTML) when S is NULL.  */
void nf_html_or (FILE *f, const char *s, const char *what);

/* FILE:LINE, escaped.  */
void nf_html_where (FILE *f, const char *file, int line);

/* The data-kind and data-file attributes of an entry, for the filter.  */
void nf_html_filter_attrs (FILE *f, const char *kind, const char *file);

/* The file a region or candidate is in (FILE, else its unit U's
   source), for the filter and the per-file summary.  */
const char *nf_file_of (const char *file, const nf_runit *u);

/* build.c: the parts of the page for a whole build.  The summary per
   source file (regions by kind, the lines they come from, the copies,
   the missed candidates, the units that compiled the file) and the
   units with their counts; the table of regions, the copies of one
   source line (inlined into several functions, or compiled in several
   units from a header) grouped under that line; the table of missed
   candidates in source order.  Regions are numbered in SET order
   (#1...), as the roofline and the sections are.  Each returns 0, or
   -1 when out of memory.  */
int nf_html_files (FILE *f, const nf_rset *set);
int nf_html_summary (FILE *f, const nf_rset *set);
int nf_html_missed (FILE *f, const nf_rset *set);

/* Write the page for SET to F, the roofline of machine M selected (all
   presets are in the page).  INPUTS are the command line's report
   arguments, shown at the top.  Returns 0, or -1 on a write error.  */
int nf_html_page (FILE *f, const nf_rset *set, const nf_machine *m,
		  char *const *inputs, int n_inputs);

#endif /* NF_REPORT_TOOL_H */
