/* report-test: the JSON report writer round-trips through jansson's
   reader: names with quotes, backslashes, newlines and UTF-8 survive,
   NULL strings become null, ids count from 1, a failed write returns the
   errno and leaves no file behind.  Version 2: "end_line" defaults to the
   region's line, and nf_report_add_ir attaches the three texts, or null
   with the emitter's reason (long double has no HLO type).  Every kind's
   cost from nf_region_contract is above 0 in FLOPs and in bytes, a
   scalar Expm1/Log1p included (issue 20: the page said "unknown").  */

#include "report.h"

#include "nf-check.h"
#include "test-regions.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *
str_at (json_t *root, const char *path1, size_t i, const char *key)
{
  return json_string_value (
    json_object_get (json_array_get (json_object_get (root, path1), i), key));
}

/* nf_region_contract gives every kind, element type and variant FLOPs
   and bytes above 0; a scalar Expm1 reads x and writes its result.  */
static void
check_costs (void)
{
  static const enum nf_kind kinds[]
    = { NF_KIND_RMSNORM, NF_KIND_MULREDSQRT, NF_KIND_EXPM1, NF_KIND_LOG1P,
	NF_KIND_ELEMENTWISE, NF_KIND_DOT, NF_KIND_SOFTMAX };
  static const enum nf_elem elems[]
    = { NF_ELEM_F16, NF_ELEM_F32, NF_ELEM_F64, NF_ELEM_F80 };
  const char *notes[NF_REGION_MAX_NOTES];
  nf_region_desc d;

  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++)
      for (int v = 0; v < 4; v++)
	{
	  nf_region_desc_init (&d, kinds[k], "f", "f32", "f32", NULL, 0, NULL,
			       0);
	  nf_region_contract (&d, notes, kinds[k], elems[e], elems[e], v & 1,
			      v & 2, true);
	  CHECK (d.flops > 0 && d.bytes > 0);
	  CHECK (d.n_notes >= 1 && d.n_notes <= NF_REGION_MAX_NOTES);
	}
  /* Scalar (MAP false): the operand and the result, 2 elements.  */
  nf_region_contract (&d, notes, NF_KIND_EXPM1, NF_ELEM_F32, NF_ELEM_F32,
		      false, false, true);
  CHECK (d.bytes == 8 && d.flops == 20);
  nf_region_contract (&d, notes, NF_KIND_LOG1P, NF_ELEM_F64, NF_ELEM_F64,
		      false, false, false);
  CHECK (d.bytes == 16);
}

int
main (void)
{
  check_costs ();
  const char *odd = "f\"o\\o\n\xc3\xa9";	/* f"o\o<newline>é */
  nf_report *r = nf_report_new ("test-tool", "dir/odd \"name\".c");
  CHECK (r != NULL);

  const char *ins[] = { "x", odd };
  const char *notes[] = { "a note" };
  const int dims[] = { 0, 1 };
  nf_region_desc d = { 0 };
  d.kind = "Expm1";
  d.function = odd;
  d.loc.file = NULL;		/* Written as the report's source.  */
  d.loc.line = 7;
  d.loc.column = 3;
  d.action = "rewritten";
  d.callee = NULL;
  d.dtype = "f64";
  d.live_ins = ins;
  d.n_live_ins = 2;
  d.reduce_dims = dims;
  d.n_reduce_dims = 2;
  d.flops = 2.5;
  d.notes = notes;
  d.n_notes = 1;
  CHECK (nf_report_add_region (r, &d) == 1);
  d.end_line = 11;
  CHECK (nf_report_add_region (r, &d) == 2);
  nf_match m32, m80;
  nf_region *r32 = nf_test_expm1 (&m32, NF_ELEM_F32);
  nf_region *r80 = nf_test_expm1 (&m80, NF_ELEM_F80);
  CHECK (nf_report_add_ir (r, 1, &m32) == 0);
  CHECK (nf_report_add_ir (r, 2, &m80) == 0);
  CHECK (nf_report_add_ir (r, 3, &m32) == -1);	/* No region 3.  */
  CHECK (nf_report_add_ir (r, 0, &m32) == -1);
  nf_cluster_free (m32.cluster);
  nf_cluster_free (m80.cluster);
  nf_region_free (r32);
  nf_region_free (r80);
  nf_location loc = { "other.c", 9, 1 };
  CHECK (nf_report_add_missed (r, "Log1p", "g", loc, "a reason") == 0);
  CHECK (nf_report_n_regions (r) == 2 && nf_report_n_missed (r) == 1);

  char path[] = "report-test.json";
  CHECK (nf_report_write (r, path) == 0);
  json_error_t err;
  json_t *root = json_load_file (path, 0, &err);
  CHECK (root != NULL);
  if (root)
    {
      CHECK (json_integer_value (json_object_get (root, "version"))
	     == NF_REPORT_VERSION);
      CHECK (strcmp (json_string_value (json_object_get (root, "source")),
		     "dir/odd \"name\".c")
	     == 0);
      CHECK (strcmp (str_at (root, "regions", 0, "function"), odd) == 0);
      CHECK (json_is_null (json_object_get (
	json_array_get (json_object_get (root, "regions"), 0), "callee")));
      json_t *reg1 = json_array_get (json_object_get (root, "regions"), 1);
      CHECK (json_integer_value (json_object_get (reg1, "id")) == 2);
      CHECK (json_real_value (json_object_get (reg1, "flops")) == 2.5);
      CHECK (json_array_size (json_object_get (reg1, "reduce_dims")) == 2);
      CHECK (strcmp (json_string_value (json_array_get (
		       json_object_get (reg1, "live_ins"), 1)),
		     odd)
	     == 0);
      json_t *l = json_object_get (reg1, "location");
      CHECK (strcmp (json_string_value (json_object_get (l, "file")),
		     "dir/odd \"name\".c")
	     == 0);
      CHECK (json_integer_value (json_object_get (l, "line")) == 7);
      json_t *reg0 = json_array_get (json_object_get (root, "regions"), 0);
      CHECK (json_integer_value (json_object_get (reg0, "end_line")) == 7);
      CHECK (json_integer_value (json_object_get (reg1, "end_line")) == 11);
      json_t *ir0 = json_object_get (reg0, "ir");
      const char *mhlo = json_string_value (json_object_get (ir0, "mhlo"));
      CHECK (mhlo && strstr (mhlo, "FusionKind = \"Expm1\""));
      CHECK (json_string_value (json_object_get (ir0, "stablehlo")));
      CHECK (json_string_value (json_object_get (ir0, "penguin")));
      CHECK (!json_object_get (ir0, "mhlo_error"));
      json_t *ir1 = json_object_get (reg1, "ir");
      CHECK (json_is_null (json_object_get (ir1, "mhlo")));
      const char *why
	= json_string_value (json_object_get (ir1, "mhlo_error"));
      CHECK (why && strstr (why, "f80"));
      const char *pg = json_string_value (json_object_get (ir1, "penguin"));
      CHECK (pg && strstr (pg, "dtype=f80"));
      CHECK (strcmp (str_at (root, "missed", 0, "reason"), "a reason") == 0);
      json_decref (root);
    }
  unlink (path);

  /* A directory that does not exist: the errno comes back.  */
  CHECK (nf_report_write (r, "no-such-dir/r.json") == ENOENT);

  /* The rename fails (the target is a directory): the errno comes back
     and the temporary file is removed.  */
  char tmp[64];
  mkdir ("report-test.d", 0755);
  CHECK (nf_report_write (r, "report-test.d") == EISDIR);
  snprintf (tmp, sizeof tmp, "report-test.d.tmp%ld", (long) getpid ());
  CHECK (access (tmp, F_OK) != 0);
  rmdir ("report-test.d");

  nf_report_free (r);
  nf_report_free (NULL);
  NF_DONE ();
}
