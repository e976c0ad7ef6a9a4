/* The JSON report writer shared by both front ends.

   The report is kept as a jansson object while the unit is compiled and
   written once at the end.  jansson (Debian libjansson-dev) does the
   escaping and the formatting: report text comes from user source
   (function and variable names, file names), so hand-written escaping
   would be a bug farm.

   Schema version 2 (compatible: fields added, none changed) gives each
   region "end_line" and, through nf_report_add_ir, "ir": the region's
   MHLO, StableHLO and Penguin texts, the same the dump-hlo= files hold,
   so that neuronfuse-report can show a region from the report alone.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "report.h"

#include "emit.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The signature of the emitters of emit.h.  */
typedef int (*nf_emitter_fn) (FILE *, const nf_match *, int, const char **);

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

void
nf_region_desc_init (nf_region_desc *d, enum nf_kind kind,
		     const char *callee, const char *dtype,
		     const char *accum_dtype, const char *const *ins,
		     size_t n_ins, const char *const *outs, size_t n_outs)
{
  memset (d, 0, sizeof *d);
  d->kind = nf_kind_name (kind);
  d->callee = callee;
  d->dtype = dtype;
  d->accum_dtype = accum_dtype;
  d->live_ins = ins;
  d->n_live_ins = n_ins;
  d->live_outs = outs;
  d->n_live_outs = n_outs;
}

size_t
nf_region_contract (nf_region_desc *d, const char **notes, enum nf_kind kind,
		    enum nf_elem elem, enum nf_elem accum, bool weighted,
		    bool map, bool math_errno)
{
  /* Bytes of one element; long double is 16 in memory on x86-64.  */
  double esz = elem == NF_ELEM_F16   ? 2
	       : elem == NF_ELEM_F32 ? 4
	       : elem == NF_ELEM_F80 ? 16
				     : 8;
  size_t n = 0;

  if (kind == NF_KIND_ELEMENTWISE)
    {
      /* The caller counts the program's ops; x read and y written.  */
      d->flops = 20;
      d->bytes = 2 * esz;
      notes[n++] = "the loop body runs as one elementwise program of "
		   "libneuronfuse: its arithmetic in the loop's order and "
		   "types, expm1 and log1p the array kernels' (the scalar "
		   "rewrite's accuracy), not bit-identical; every operation "
		   "runs on every element before a select picks, so a "
		   "discarded element may raise a flag the loop did not";
      if (math_errno)
	notes[n++] = "errno: the program never sets errno";
      d->notes = notes;
      d->n_notes = n;
      return n;
    }
  if (kind == NF_KIND_EXPM1 || kind == NF_KIND_LOG1P)
    {
      /* A transcendental per element: about 20 flops in the kernels;
	 x read and y written.  A scalar region is costed as the Neuron
	 compiler sees it, a tensor op of one element: the same counts
	 (in registers on the host, it is one call's latency; the report's
	 page says so).  */
      d->flops = 20;
      d->bytes = 2 * esz;
      if (map)
	{
	  notes[n++] = "the loop's calls of the scalar function (after the "
		       "rewrite reported at the statement) become one call of "
		       "the array kernel: same accuracy contract, not "
		       "bit-identical";
	  if (math_errno)
	    notes[n++] = "errno: the array kernel never sets errno";
	}
      else
	{
	  if (kind == NF_KIND_EXPM1)
	    {
	      notes[n++] = "more accurate, not bit-identical: expm1 stays "
			   "accurate (about 1 ulp) where exp (x) - 1 loses "
			   "all digits for |x| near 0";
	      if (math_errno)
		notes[n++] = "errno: where exp (x) underflowed (x < about -745 "
			     "in double, -104 in float) and set ERANGE, expm1 "
			     "(x) returns -1 and leaves errno alone";
	    }
	  else
	    notes[n++] = "more accurate, not bit-identical: log1p stays "
			 "accurate (about 1 ulp) where log (1 + x) loses all "
			 "digits for |x| near 0";
	}
    }
  else if (kind == NF_KIND_SOFTMAX)
    {
      /* Per element: the max, x - max, exp, the sum, the division; x read
	 twice and y written.  */
      d->flops = 24;
      d->bytes = 3 * esz;
      notes[n++] = "more accurate, not bit-identical: the fused kernel "
		   "computes each exp and the sum in double and rounds each "
		   "result once (within 1 ulp), where the loop rounded the "
		   "exp, the sum and the quotient";
      if (math_errno)
	notes[n++] = "errno: the fused kernel never sets errno (the loop's "
		     "expf sets ERANGE where an exp underflows)";
    }
  else if (kind == NF_KIND_DOT)
    {
      /* Per element of the matrix (or of the vectors): a multiply and an
	 add, the element read once.  */
      d->flops = 2;
      d->bytes = esz;
      notes[n++] = elem == NF_ELEM_F64
		     ? "more accurate, not bit-identical: the fused kernel "
		       "sums the products with compensation (twice double's "
		       "precision), in its own order"
		     : "more accurate, not bit-identical: the fused kernel "
		       "sums the exact products in double, in its own order, "
		       "and rounds each sum once";
    }
  else
    {
      /* Per element: x*x and the sum, then x*scale (and *w); the fused
	 kernels read x twice.  */
      if (kind == NF_KIND_RMSNORM)
	{
	  d->flops = weighted ? 4 : 3;
	  d->bytes = esz * (weighted ? 4 : 3);
	}
      else
	{
	  d->flops = 2;
	  d->bytes = esz;
	}
      if (accum == NF_ELEM_F16)
	notes[n++] = "the loop accumulated in _Float16, which overflows once "
		     "the sum of squares passes 65504 (RMS(x) > 4 at n = "
		     "4096); the fused kernel sums in double";
      else if (elem == NF_ELEM_F64 && accum == NF_ELEM_F64)
	notes[n++] = "more accurate, not bit-identical: the fused kernel sums "
		     "the squares in long double with compensation, where the "
		     "loop summed in double";
      else if (accum == NF_ELEM_F32)
	notes[n++] = "more accurate, not bit-identical: the fused kernel sums "
		     "the squares in double, where the loop summed in float";
      else
	notes[n++] = "not bit-identical: the fused kernel sums in at least "
		     "the loop's precision, in a different order";
      if (kind == NF_KIND_RMSNORM)
	notes[n++] = "the fused kernel computes the scale 1/sqrt(mean + eps) "
		     "in double";
    }
  d->notes = notes;
  d->n_notes = n;
  return n;
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
  /* Version 2: the region's last line, for the excerpt in
     neuronfuse-report's page.  */
  if (obj)
    json_object_set_new (obj, "end_line",
			 json_integer (d->end_line > d->loc.line
					 ? d->end_line
					 : d->loc.line));
  if (!obj || json_array_append_new (report->regions, obj) != 0)
    return 0;
  return id;
}

/* The text EMIT prints for region ID of M, as a JSON string; null when
   the emitter cannot express the region (*ERR then says why) or memory
   runs out.  Cost: one in-memory stream per form.  */
static json_t *
nf_report_emit (nf_emitter_fn emit, const nf_match *m, int id,
		const char **err)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  json_t *text = NULL;

  *err = NULL;
  if (!f)
    {
      *err = "out of memory";
      return json_null ();
    }
  int rc = emit (f, m, id, err);
  if (fclose (f) == 0 && rc == 0)
    text = json_stringn (buf, len);
  else if (!*err)
    *err = "out of memory";
  free (buf);
  return text ? text : json_null ();
}

int
nf_report_add_ir (nf_report *report, int id, const nf_match *m)
{
  static const struct
  {
    const char *name;		/* Key in "ir".  */
    const char *err_key;	/* Key of the reason it is null.  */
    nf_emitter_fn emit;
  } forms[] = { { "mhlo", "mhlo_error", nf_emit_mhlo },
		{ "stablehlo", "stablehlo_error", nf_emit_stablehlo },
		{ "penguin", "penguin_error", nf_emit_penguin } };
  json_t *region = json_array_get (report->regions, (size_t) id - 1);
  json_t *ir = json_object ();

  if (id < 1 || !region || !ir)
    {
      json_decref (ir);
      return -1;
    }
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
    {
      const char *err;
      json_object_set_new (ir, forms[i].name,
			   nf_report_emit (forms[i].emit, m, id, &err));
      if (err)
	json_object_set_new (ir, forms[i].err_key, json_string (err));
    }
  return json_object_set_new (region, "ir", ir) == 0 ? 0 : -1;
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
