/* html.c: the page neuronfuse-report writes, one self-contained HTML file.

   Self-contained means no network at all: the style sheet and the one
   small script are inline, the charts are inline SVG (roofline.c), the
   collapsible IR blocks are <details>, and the page uses the browser's
   default fonts.  Everything taken from a report or a source file goes
   through nf_html_escape, so a comment such as  </pre><script>  in the
   excerpt is shown, never run.

   The page, top to bottom:
     1. the inputs and a filter bar (kind, file; the script hides rows and
	region sections whose data-kind / data-file do not match);
     2. the files of the build, its units, and the summary table, one row
	per region (kind, function, file:line, unit, dtype/accumulator,
	action, notes), the copies of one source line grouped (build.c);
     3. the roofline: one precomputed SVG per machine preset, a <select>
	shows one, and under it one sentence per region; then the missed
	candidates with their reasons;
     4. one section per region: the source excerpt with the region's lines
	highlighted, the replacement call, live-ins and live-outs, FLOPs,
	bytes and intensity, and the MHLO / StableHLO / Penguin texts.
   The script also measures each chart once rendered (getBBox) and writes
   the sizes into #render-check, so a headless browser test can see that
   the SVG rendered (testsuite/neuronfuse.report/).

   Limitation: the excerpt comes from the source as it is now, not as it
   was compiled (a changed file shows the wrong lines).  A region in a
   header shows the header's lines (read.c reads each file a unit's
   regions are in).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-report.h"

#include <string.h>

/* Excerpt context: lines shown before and after the region, and the most
   lines of a region shown.  */
#define NF_CONTEXT 2
#define NF_MAX_EXCERPT 80

void
nf_html_escape_n (FILE *f, const char *s, size_t n)
{
  for (size_t i = 0; s && i < n && s[i]; i++)
    switch (s[i])
      {
      case '&':
	fputs ("&amp;", f);
	break;
      case '<':
	fputs ("&lt;", f);
	break;
      case '>':
	fputs ("&gt;", f);
	break;
      case '"':
	fputs ("&quot;", f);
	break;
      case '\'':
	fputs ("&#39;", f);
	break;
      default:
	fputc (s[i], f);
      }
}

void
nf_html_escape (FILE *f, const char *s)
{
  if (s)
    nf_html_escape_n (f, s, strlen (s));
}

void
nf_html_or (FILE *f, const char *s, const char *what)
{
  if (s)
    nf_html_escape (f, s);
  else
    fprintf (f, "<i>%s</i>", what);
}

/* The JSON array A of strings, escaped and joined by SEP; "none" when
   empty, "unknown" when absent.  */
static void
nf_html_list (FILE *f, json_t *a, const char *sep)
{
  if (!a)
    {
      fputs ("<i>unknown</i>", f);
      return;
    }
  if (json_array_size (a) == 0)
    fputs ("<i>none</i>", f);
  for (size_t i = 0; i < json_array_size (a); i++)
    {
      if (i)
	fputs (sep, f);
      nf_html_or (f, json_string_value (json_array_get (a, i)), "?");
    }
}

const char *
nf_file_of (const char *file, const nf_runit *u)
{
  return file ? file : u->source ? u->source : u->path;
}

static const char nf_style[]
  = "body{font-family:sans-serif;margin:1.5em;max-width:76em;color:#222}\n"
    "table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}\n"
    "td ul.notes{font-size:90%;min-width:18em}\n"
    "td.where{overflow-wrap:anywhere;min-width:10em}\n"
    "th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#eee}\n"
    "pre{background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
    "pre.src span.ln{color:#888;user-select:none}\n"
    "pre.src mark{background:#fff3a0;display:inline-block;min-width:100%}\n"
    "section.region{border-top:2px solid #ccc;margin-top:1.5em}\n"
    "tr.group td{background:#f3f6fb}\n"
    "tr.copy td:first-child{padding-left:1.5em}\n"
    ".notes{margin:0;padding-left:1.2em}\n"
    ".warn{color:#a00}\n"
    "svg.roofline{background:#fff;border:1px solid #ccc;font-size:11px}\n"
    "svg .grid{stroke:#e4e4e4}\n"
    "svg .roof{fill:none;stroke:#1f5fbf;stroke-width:2.5}\n"
    "svg .roof2{fill:none;stroke:#999;stroke-width:1.5;"
    "stroke-dasharray:6 4}\n"
    "svg .ridge{stroke:#1f5fbf;stroke-dasharray:3 3}\n"
    "svg .legend{text-anchor:end;fill:#333}\n"
    "svg .axis{font-size:13px}\n"
    "svg .pt circle{fill:#d2462b;stroke:#fff}\n"
    "svg .pt text{fill:#a03010;font-weight:bold}\n";

/* Filters, the machine switch and the render check.  No external
   resource; runs at the end of the body, once the DOM is there.  */
static const char nf_script[]
  = "(function () {\n"
    "  var $ = function (s) { return document.querySelectorAll (s); };\n"
    "  var check = document.getElementById ('render-check');\n"
    "  var svgs = $('svg.roofline'), ok = 0;\n"
    "  /* Measure while every chart is shown: hidden ones measure 0.  */\n"
    "  svgs.forEach (function (s) {\n"
    "    var b = s.getBBox ();\n"
    "    s.setAttribute ('data-bbox', Math.round (b.width) + 'x'\n"
    "                    + Math.round (b.height));\n"
    "    if (b.width > 0 && b.height > 0) ok++;\n"
    "  });\n"
    "  check.setAttribute ('data-svg-total', svgs.length);\n"
    "  check.setAttribute ('data-svg-rendered', ok);\n"
    "  check.textContent = 'charts rendered: ' + ok + ' of ' + svgs.length;\n"
    "  function machine () {\n"
    "    var m = document.getElementById ('machine').value;\n"
    "    $('div.roof').forEach (function (d) {\n"
    "      d.style.display = d.getAttribute ('data-machine') === m\n"
    "                        ? '' : 'none';\n"
    "    });\n"
    "  }\n"
    "  function filter () {\n"
    "    var k = document.getElementById ('f-kind').value;\n"
    "    var f = document.getElementById ('f-file').value;\n"
    "    $('[data-file]').forEach (function (e) {\n"
    "      var show = (k === '' || e.getAttribute ('data-kind') === k)\n"
    "                 && (f === '' || e.getAttribute ('data-file') === f);\n"
    "      e.style.display = show ? '' : 'none';\n"
    "    });\n"
    "  }\n"
    "  document.getElementById ('machine').onchange = machine;\n"
    "  document.getElementById ('f-kind').onchange = filter;\n"
    "  document.getElementById ('f-file').onchange = filter;\n"
    "  machine ();\n"
    "})();\n";

/* An <option> for each distinct value of the regions' and candidates'
   kinds (FILES false) or files (FILES true).  Quadratic in the number
   of entries: reports have tens of them.  */
static void
nf_html_options (FILE *f, const nf_rset *set, bool files)
{
  const char *seen[256];
  size_t n = 0;
  for (size_t u = 0; u < set->n_units; u++)
    {
      const nf_runit *un = &set->units[u];
      for (size_t i = 0; i < un->n_regions + un->n_missed; i++)
	{
	  const char *v;
	  if (i < un->n_regions)
	    v = files ? nf_file_of (un->regions[i].file, un)
		      : un->regions[i].kind;
	  else
	    v = files ? nf_file_of (un->missed[i - un->n_regions].file, un)
		      : un->missed[i - un->n_regions].kind;
	  size_t k = 0;
	  while (v && k < n && strcmp (seen[k], v) != 0)
	    k++;
	  if (!v || k < n || n == sizeof seen / sizeof seen[0])
	    continue;
	  seen[n++] = v;
	  fputs ("<option value=\"", f);
	  nf_html_escape (f, v);
	  fputs ("\">", f);
	  nf_html_escape (f, v);
	  fputs ("</option>", f);
	}
    }
}

void
nf_html_filter_attrs (FILE *f, const char *kind, const char *file)
{
  fputs (" data-kind=\"", f);
  nf_html_escape (f, kind);
  fputs ("\" data-file=\"", f);
  nf_html_escape (f, file);
  fputs ("\"", f);
}

void
nf_html_where (FILE *f, const char *file, int line)
{
  nf_html_or (f, file, "?");
  if (line > 0)
    fprintf (f, ":%d", line);
}

static void
nf_html_roofline (FILE *f, const nf_rset *set, const nf_machine *sel)
{
  fputs ("<h2>Roofline</h2>\n<p><label>machine: <select id=\"machine\">", f);
  for (size_t k = 0; k < nf_n_machines; k++)
    {
      fprintf (f, "<option value=\"%s\"%s>", nf_machines[k].key,
	       &nf_machines[k] == sel ? " selected" : "");
      nf_html_escape (f, nf_machines[k].name);
      fputs ("</option>", f);
    }
  fputs ("</select></label> <span id=\"render-check\"></span></p>\n", f);
  for (size_t k = 0; k < nf_n_machines; k++)
    {
      const nf_machine *m = &nf_machines[k];
      fprintf (f, "<div class=\"roof\" data-machine=\"%s\">\n", m->key);
      nf_roof_svg (f, m, set);
      fputs ("<p><small>", f);
      nf_html_escape (f, m->basis);
      fputs ("</small></p>\n<ul>\n", f);
      int n = 0;
      for (size_t u = 0; u < set->n_units; u++)
	for (size_t i = 0; i < set->units[u].n_regions; i++)
	  {
	    const nf_rregion *r = &set->units[u].regions[i];
	    n++;
	    fprintf (f, "<li><a href=\"#region-%d\">#%d</a> ", n, n);
	    nf_html_or (f, r->kind, "unknown");
	    fputs (" in ", f);
	    nf_html_or (f, r->function, "unknown");
	    fputs (": ", f);
	    nf_roof_sentence (f, m, r);
	    fputs (".</li>\n", f);
	  }
      fputs ("</ul>\n</div>\n", f);
    }
}

/* The excerpt of region R: its lines highlighted, NF_CONTEXT lines
   around, or why there is none.  */
static void
nf_html_excerpt (FILE *f, const nf_rregion *r)
{
  const nf_runit *u = r->unit;
  const nf_rtext *t = r->text >= 0 ? &u->extra[r->text] : &u->src;
  if (!t->text)
    {
      fputs ("<p class=\"warn\">No source excerpt: ", f);
      nf_html_escape (f, t->error ? t->error : "out of memory");
      fputs (".</p>\n", f);
      return;
    }
  if (r->file && t->file && strcmp (r->file, t->file) != 0)
    {
      fputs ("<p class=\"warn\">No source excerpt: the region is in ", f);
      nf_html_escape (f, r->file);
      fputs (", which could not be read.</p>\n", f);
      return;
    }
  if (r->line < 1 || (size_t) r->line > t->n_lines)
    {
      fprintf (f, "<p class=\"warn\">No source excerpt: line %d is not in ",
	       r->line);
      nf_html_escape (f, t->path);
      fputs (" (changed since the build?).</p>\n", f);
      return;
    }
  int end = r->end_line;
  bool cut = end - r->line + 1 > NF_MAX_EXCERPT;
  if (cut)
    end = r->line + NF_MAX_EXCERPT - 1;
  int first = r->line - NF_CONTEXT > 1 ? r->line - NF_CONTEXT : 1;
  int last = end + NF_CONTEXT;
  if ((size_t) last > t->n_lines)
    last = (int) t->n_lines;
  fputs ("<p>", f);
  nf_html_escape (f, t->path);
  fprintf (f,
	   ", lines %d&ndash;%d (the region's highlighted):</p>\n"
	   "<pre class=\"src\">",
	   first, last);
  for (int l = first; l <= last; l++)
    {
      bool in = l >= r->line && l <= end;
      fprintf (f, "%s<span class=\"ln\">%5d  </span>", in ? "<mark>" : "", l);
      nf_html_escape_n (f, t->lines[l - 1], t->line_len[l - 1]);
      fputs (in ? "</mark>\n" : "\n", f);
    }
  fputs ("</pre>\n", f);
  if (cut)
    fprintf (f, "<p>(the region continues to line %d)</p>\n", r->end_line);
}

static void
nf_html_region (FILE *f, const nf_rregion *r, int n)
{
  static const char *const names[NF_N_FORMS]
    = { "MHLO", "StableHLO", "Penguin" };
  const char *file = nf_file_of (r->file, r->unit);

  fprintf (f, "<section class=\"region\" id=\"region-%d\" data-id=\"%d\"", n,
	   r->id);
  nf_html_filter_attrs (f, r->kind, file);
  fprintf (f, ">\n<h3>#%d ", n);
  nf_html_or (f, r->kind, "unknown kind");
  fputs (" in ", f);
  nf_html_or (f, r->function, "unknown function");
  fputs (" (", f);
  nf_html_where (f, file, r->line);
  fprintf (f, ", region %d of ", r->id);
  nf_html_escape (f, r->unit->label);
  fputs (")</h3>\n", f);
  nf_html_excerpt (f, r);
  fputs ("<table>\n<tr><th>action</th><td>", f);
  nf_html_or (f, r->action, "unknown");
  fputs ("</td></tr>\n<tr><th>replacement call</th><td><code>", f);
  nf_html_or (f, r->callee, "none");
  fputs ("</code></td></tr>\n<tr><th>live-ins</th><td><code>", f);
  nf_html_list (f, r->live_ins, "</code>, <code>");
  fputs ("</code></td></tr>\n<tr><th>live-outs</th><td><code>", f);
  nf_html_list (f, r->live_outs, "</code>, <code>");
  fputs ("</code></td></tr>\n<tr><th>FLOPs / bytes (per element)</th><td>", f);
  if (nf_roof_placeable (r))
    fprintf (f, "%.4g / %.4g: intensity %.3g FLOP/B", r->flops, r->bytes,
	     r->flops / r->bytes);
  else
    fputs ("<i>unknown</i>", f);
  fputs ("</td></tr>\n<tr><th>on the roofline</th><td><ul class=\"notes\">", f);
  for (size_t k = 0; k < nf_n_machines; k++)
    {
      fputs ("<li>", f);
      nf_roof_sentence (f, &nf_machines[k], r);
      fputs (".</li>", f);
    }
  fputs ("</ul></td></tr>\n</table>\n", f);
  if (!r->has_ir)
    fputs ("<p>The report has no IR texts for this region (a version 1 "
	   "report); the dump-hlo= files have them.</p>\n",
	   f);
  else
    for (int k = 0; k < NF_N_FORMS; k++)
      {
	fprintf (f, "<details><summary>%s</summary>\n", names[k]);
	if (r->ir[k])
	  {
	    fputs ("<pre>", f);
	    nf_html_escape (f, r->ir[k]);
	    fputs ("</pre>", f);
	  }
	else
	  {
	    fputs ("<p>Not expressible: ", f);
	    nf_html_or (f, r->ir_error[k], "no reason given");
	    fputs (".</p>", f);
	  }
	fputs ("</details>\n", f);
      }
  fputs ("</section>\n", f);
}

int
nf_html_page (FILE *f, const nf_rset *set, const nf_machine *m,
	      char *const *inputs, int n_inputs)
{
  size_t nr = 0, nm = 0;
  for (size_t u = 0; u < set->n_units; u++)
    nr += set->units[u].n_regions, nm += set->units[u].n_missed;

  fprintf (f,
	   "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
	   "charset=\"utf-8\">\n<title>neuronfuse report</title>\n"
	   "<style>\n%s</style>\n</head>\n<body>\n"
	   "<h1>neuronfuse: fused regions</h1>\n<p>%zu region%s and %zu "
	   "missed candidate%s in %zu report%s:",
	   nf_style, nr, nr == 1 ? "" : "s", nm, nm == 1 ? "" : "s",
	   set->n_units, set->n_units == 1 ? "" : "s");
  for (int i = 0; i < n_inputs; i++)
    {
      fputs (" <code>", f);
      nf_html_escape (f, inputs[i]);
      fputs ("</code>", f);
    }
  fputs (".</p>\n<p>filter: <label>kind <select id=\"f-kind\">"
	 "<option value=\"\">all</option>",
	 f);
  nf_html_options (f, set, false);
  fputs ("</select></label> <label>file <select id=\"f-file\">"
	 "<option value=\"\">all</option>",
	 f);
  nf_html_options (f, set, true);
  fputs ("</select></label></p>\n", f);
  if (nf_html_files (f, set) != 0 || nf_html_summary (f, set) != 0)
    return -1;
  nf_html_roofline (f, set, m);
  if (nf_html_missed (f, set) != 0)
    return -1;
  fputs ("<h2>Region details</h2>\n", f);
  int n = 0;
  for (size_t u = 0; u < set->n_units; u++)
    for (size_t i = 0; i < set->units[u].n_regions; i++)
      nf_html_region (f, &set->units[u].regions[i], ++n);
  fprintf (f, "<script>\n%s</script>\n</body>\n</html>\n", nf_script);
  return ferror (f) ? -1 : 0;
}
