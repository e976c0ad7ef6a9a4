/* nf-report-lines REPORT.json: check a neuronfuse report's structure and
   print one line per entry, for the testsuite to match:

     region ID KIND FUNCTION FILE:LINE:COLUMN ACTION CALLEE DTYPE \
       accum=ACCUM_DTYPE flops=F bytes=B notes=N end=END_LINE
     missed KIND FUNCTION FILE:LINE:COLUMN REASON

   Exits 1 with a message naming the file and position on malformed JSON,
   2 when a required field is missing or of the wrong type, and 3 when a
   region breaks what every report promises its reader (issue 20): a
   live-in or live-out named with a GCC SSA name ("_5", "x_3(D)") instead
   of the source, or FLOPs or bytes not above 0 (the page's roofline
   would say "unknown").  Every test that reads a report checks both.  */

#include <jansson.h>
#include <stdio.h>
#include <string.h>

static const char *path;

static int
bad (const char *what)
{
  fprintf (stderr, "%s: %s\n", path, what);
  return 2;
}

/* Whether NAME holds a GCC SSA name: "_" and a digit not inside an
   identifier, or "(D)" (the regexp (^|[^A-Za-z0-9_])_[0-9]+|\(D\)).  */
static int
ssa_name_p (const char *name)
{
  for (const char *p = name; *p; p++)
    if (p[0] == '_' && p[1] >= '0' && p[1] <= '9'
	&& (p == name
	    || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9')
		 || (p[-1] >= 'a' && p[-1] <= 'z')
		 || (p[-1] >= 'A' && p[-1] <= 'Z'))))
      return 1;
  return strstr (name, "(D)") != NULL;
}

/* Check region E's live names and cost; 0, or a message on stderr and
   3.  */
static int
check_promises (json_t *e)
{
  static const char *const lives[] = { "live_ins", "live_outs" };
  size_t i;
  json_t *v;
  long long id = (long long) json_integer_value (json_object_get (e, "id"));
  for (size_t k = 0; k < 2; k++)
    json_array_foreach (json_object_get (e, lives[k]), i, v)
      if (!json_is_string (v) || ssa_name_p (json_string_value (v)))
	{
	  fprintf (stderr, "%s: region %lld: %s[%zu] is no source name: %s\n",
		   path, id, lives[k], i,
		   json_is_string (v) ? json_string_value (v) : "(not a string)");
	  return 3;
	}
  if (!(json_number_value (json_object_get (e, "flops")) > 0)
      || !(json_number_value (json_object_get (e, "bytes")) > 0))
    {
      fprintf (stderr, "%s: region %lld: flops and bytes must be above 0\n",
	       path, id);
      return 3;
    }
  return 0;
}

static const char *
str (json_t *obj, const char *key)
{
  const char *s = json_string_value (json_object_get (obj, key));
  return s ? s : "-";
}

static int
print_location (json_t *obj)
{
  json_t *loc = json_object_get (obj, "location");
  if (!json_is_object (loc) || !json_is_string (json_object_get (loc, "file"))
      || !json_is_integer (json_object_get (loc, "line"))
      || !json_is_integer (json_object_get (loc, "column")))
    return -1;
  const char *file = str (loc, "file");
  const char *base = strrchr (file, '/');
  printf (" %s:%lld:%lld", base ? base + 1 : file,
	  (long long) json_integer_value (json_object_get (loc, "line")),
	  (long long) json_integer_value (json_object_get (loc, "column")));
  return 0;
}

int
main (int argc, char **argv)
{
  json_error_t err;
  size_t i;
  json_t *e;

  if (argc != 2)
    {
      fprintf (stderr, "usage: nf-report-lines REPORT.json\n");
      return 2;
    }
  path = argv[1];
  json_t *root = json_load_file (path, 0, &err);
  if (!root)
    {
      fprintf (stderr, "%s:%d:%d: %s\n", path, err.line, err.column,
	       err.text);
      return 1;
    }
  if (!json_is_integer (json_object_get (root, "version"))
      || !json_is_string (json_object_get (root, "tool"))
      || !json_is_string (json_object_get (root, "source")))
    return bad ("missing version, tool or source");
  json_t *regions = json_object_get (root, "regions");
  json_t *missed = json_object_get (root, "missed");
  if (!json_is_array (regions) || !json_is_array (missed))
    return bad ("regions and missed must be arrays");

  static const char *const arrays[]
    = { "live_ins", "live_outs", "reduce_dims", "notes" };
  json_array_foreach (regions, i, e)
    {
      if (!json_is_integer (json_object_get (e, "id")))
	return bad ("region without an integer id");
      for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
	if (!json_is_array (json_object_get (e, arrays[k])))
	  return bad ("region without one of its arrays");
      if (!json_is_number (json_object_get (e, "flops"))
	  || !json_is_number (json_object_get (e, "bytes")))
	return bad ("region without flops or bytes");
      int rc = check_promises (e);
      if (rc)
	return rc;
      printf ("region %lld %s %s",
	      (long long) json_integer_value (json_object_get (e, "id")),
	      str (e, "kind"), str (e, "function"));
      if (print_location (e) != 0)
	return bad ("region with a malformed location");
      printf (" %s %s %s", str (e, "action"), str (e, "callee"),
	      str (e, "dtype"));
      /* What the front ends must agree on beyond the position (the
	 parity of neuronfuse.clang): the accumulator, the cost, the
	 notes' count and the last line.  */
      json_t *end = json_object_get (e, "end_line");
      printf (" accum=%s flops=%g bytes=%g notes=%zu end=%lld\n",
	      str (e, "accum_dtype"),
	      json_number_value (json_object_get (e, "flops")),
	      json_number_value (json_object_get (e, "bytes")),
	      json_array_size (json_object_get (e, "notes")),
	      json_is_integer (end) ? (long long) json_integer_value (end) : -1LL);
    }
  json_array_foreach (missed, i, e)
    {
      printf ("missed %s %s", str (e, "kind"), str (e, "function"));
      if (print_location (e) != 0)
	return bad ("missed entry with a malformed location");
      printf (" %s\n", str (e, "reason"));
    }
  json_decref (root);
  return 0;
}
