/* main.c: neuronfuse-clang's command line and driver.

     neuronfuse-clang [--report=FILE] [--dump-hlo=DIR] [--kinds=LIST]
		      [-o OUT.c] IN.c [-- clang-args...]

   Reads IN.c, parses it with libclang (the arguments after `--` are the
   compiler's: -I, -D, -std...), runs the passes that find and rewrite
   the idioms (scalar.c, loop.c) through lower/'s matchers, and writes
   the rewritten source to OUT.c (atomically: a temporary file in
   OUT.c's directory, renamed) or to stdout.  With nothing rewritten the
   output is IN.c's bytes, unchanged.  A rewrite that needs the runtime
   gets `#include <neuronfuse.h>' where include.c's rule puts it; before
   anything is written, the rewritten text is parsed again and every
   call the rewrite added must use its declaration (verify.c).  The
   state the passes share is nf-clang.h's nf_tool (tool.c): nothing
   calls into this file.

   Exit status: 0 on success; 1 when IN.c does not parse (libclang's
   diagnostics are on stderr and no output is written), when the rewrite
   is refused (no safe place for the include, or a call it adds would not
   see its declaration: an "IN.c:LINE:COL: error: ..." on stderr, no
   output) or a file cannot be read or written; 2 on a usage error.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "include.h"
#include "outdir.h"
#include "kinds.h"
#include "nf-clang.h"
#include "nf-config.h"

static const char nf_usage[]
  = "usage: neuronfuse-clang [--report=FILE] [--dump-hlo=DIR] "
    "[--kinds=LIST] [-o OUT.c] IN.c [-- clang-args...]\n";

static const char nf_help[]
  = "Rewrite the numerical idioms of a C file into more accurate or fused "
    "calls.\n\n"
    "  --report=FILE   write the JSON report of the regions rewritten and "
    "missed\n"
    "  --report=DIR/   write it into DIR (created as needed) under the "
    "path of OUT.c\n"
    "                  (else IN.c): one flag for a whole build\n"
    "  --dump-hlo=DIR  write each region as MHLO, StableHLO and Penguin "
    "text into\n"
    "                  the existing directory DIR (DIR/: under the path of "
    "OUT.c,\n"
    "                  else IN.c, as --report=DIR/)\n"
    "  --kinds=LIST    comma list of kinds to enable: RMSNorm, MulRedSqrt, "
    "Expm1,\n"
    "                  Log1p, or all (default)\n"
    "  -o OUT.c        write the rewritten source to OUT.c (default: "
    "stdout)\n"
    "  -- ARGS...      compiler arguments for parsing IN.c (-I, -D, "
    "-std...)\n"
    "  --help, --version\n";

/* The parsed command line.  */
struct nf_cli
{
  const char *report, *dump_dir, *output, *input;
  unsigned kinds;
  const char *const *clang_args;
  int n_clang_args;
};

/* Parse ARGV into *CLI.  Returns -1 to go on, else the exit status
   (after --help or --version: 0; on an error, with the usage printed:
   2).  */
static int
nf_parse_cli (int argc, char **argv, struct nf_cli *cli)
{
  memset (cli, 0, sizeof *cli);
  cli->kinds = NF_KIND_ALL;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (!strcmp (a, "--"))
	{
	  cli->clang_args = (const char *const *) argv + i + 1;
	  cli->n_clang_args = argc - i - 1;
	  break;
	}
      if (!strcmp (a, "--help"))
	{
	  fputs (nf_usage, stdout);
	  fputs (nf_help, stdout);
	  return 0;
	}
      if (!strcmp (a, "--version"))
	{
	  printf ("neuronfuse-clang (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	  printf ("%s\n", CINDEX_VERSION_STRING);
	  return 0;
	}
      if (!strncmp (a, "--report=", 9) && a[9])
	cli->report = a + 9;
      else if (!strncmp (a, "--dump-hlo=", 11) && a[11])
	cli->dump_dir = a + 11;
      else if (!strncmp (a, "--kinds=", 8))
	{
	  if (nf_kinds_parse (a + 8, &cli->kinds) != 0)
	    {
	      fprintf (stderr, "neuronfuse-clang: invalid kinds list '%s'\n",
		       a + 8);
	      fputs (nf_usage, stderr);
	      return 2;
	    }
	}
      else if (!strcmp (a, "-o") && i + 1 < argc)
	cli->output = argv[++i];
      else if (a[0] == '-' && a[1] != '\0')
	{
	  fprintf (stderr, "neuronfuse-clang: unknown option '%s'\n", a);
	  fputs (nf_usage, stderr);
	  return 2;
	}
      else if (cli->input)
	{
	  fprintf (stderr, "neuronfuse-clang: more than one input file\n");
	  fputs (nf_usage, stderr);
	  return 2;
	}
      else
	cli->input = a;
    }
  if (!cli->input)
    {
      fprintf (stderr, "neuronfuse-clang: no input file\n");
      fputs (nf_usage, stderr);
      return 2;
    }
  return -1;
}

/* The contents of PATH in a new buffer of *LEN bytes (NUL-terminated),
   or NULL with errno set.  */
static char *
nf_read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc (cap);
  while (buf)
    {
      n += fread (buf + n, 1, cap - n - 1, f);
      if (n < cap - 1)
	break;
      char *bigger = realloc (buf, cap *= 2);
      if (!bigger)
	free (buf);
      buf = bigger;
    }
  int err = ferror (f) ? EIO : 0;
  fclose (f);
  if (buf && err)
    {
      free (buf);
      buf = NULL;
      errno = err;
    }
  if (buf)
    {
      buf[n] = '\0';
      *len = n;
    }
  return buf;
}

/* Whether ARG implies -ffast-math (-Ofast does: a fuzz program built at
   -Ofast found the tool keeping loops the plugin outlines).  */
static bool
nf_arg_fast_math (const char *arg)
{
  return !strcmp (arg, "-ffast-math") || !strcmp (arg, "-Ofast");
}

/* Whether the compiler arguments leave math functions setting errno
   (the last of -fmath-errno, -fno-math-errno, -ffast-math, -Ofast
   wins).  */
static bool
nf_args_math_errno (const struct nf_cli *cli)
{
  bool on = true;
  for (int i = 0; i < cli->n_clang_args; i++)
    if (!strcmp (cli->clang_args[i], "-fmath-errno"))
      on = true;
    else if (!strcmp (cli->clang_args[i], "-fno-math-errno")
	     || nf_arg_fast_math (cli->clang_args[i]))
      on = false;
  return on;
}

/* Whether the compiler arguments honour signed zeros (the last of
   -fsigned-zeros, -fno-signed-zeros, -funsafe-math-optimizations,
   -ffast-math, -Ofast wins).  */
static bool
nf_args_signed_zeros (const struct nf_cli *cli)
{
  bool on = true;
  for (int i = 0; i < cli->n_clang_args; i++)
    if (!strcmp (cli->clang_args[i], "-fsigned-zeros"))
      on = true;
    else if (!strcmp (cli->clang_args[i], "-fno-signed-zeros")
	     || !strcmp (cli->clang_args[i], "-funsafe-math-optimizations")
	     || nf_arg_fast_math (cli->clang_args[i]))
      on = false;
  return on;
}

/* Whether the compiler arguments ask for speed over the last bits (the
   last of -funsafe-math-optimizations, -fno-unsafe-math-optimizations,
   -ffast-math, -Ofast wins), as the plugin's nf_fast_math_p says with
   signed zeros off too.  */
static bool
nf_args_unsafe_math (const struct nf_cli *cli)
{
  bool on = false;
  for (int i = 0; i < cli->n_clang_args; i++)
    if (!strcmp (cli->clang_args[i], "-fno-unsafe-math-optimizations"))
      on = false;
    else if (!strcmp (cli->clang_args[i], "-funsafe-math-optimizations")
	     || nf_arg_fast_math (cli->clang_args[i]))
      on = true;
  return on;
}

/* Whether the compiler arguments give GCC float vectors wider than 16
   bytes, as the plugin's nf_float_vector_bytes finds them: the last of
   -mavx, -mavx2, -mavx512*, -mno-avx and -march= (an AVX target) wins;
   -mprefer-vector-width=128 keeps 16.  Without -m options the target is
   x86-64's SSE2 (16 bytes); -march=native is the host's (AVX or not):
   the tool runs where the code is built.  */
static bool
nf_args_wide_vectors (const struct nf_cli *cli)
{
  static const char *const avx_arches[]
    = { "x86-64-v3", "x86-64-v4", "sandybridge", "ivybridge", "haswell",
	"broadwell", "skylake", "cannonlake", "icelake", "cascadelake",
	"cooperlake", "tigerlake", "sapphirerapids", "alderlake",
	"raptorlake", "meteorlake", "graniterapids", "emeraldrapids",
	"rocketlake", "znver", "bdver", "btver2" };
  bool wide = false, narrow = false;
  for (int i = 0; i < cli->n_clang_args; i++)
    {
      const char *a = cli->clang_args[i];
      if (!strcmp (a, "-mavx") || !strncmp (a, "-mavx2", 6)
	  || !strncmp (a, "-mavx512", 8))
	wide = true;
      else if (!strcmp (a, "-mno-avx"))
	wide = false;
      else if (!strcmp (a, "-march=native"))
	{
	  /* The host's: the tool runs where the code is built.  */
#if defined(__x86_64__) || defined(__i386__)
	  wide = __builtin_cpu_supports ("avx");
#else
	  wide = false;
#endif
	}
      else if (!strncmp (a, "-march=", 7))
	{
	  wide = false;
	  for (size_t j = 0; j < sizeof avx_arches / sizeof avx_arches[0]; j++)
	    if (!strncmp (a + 7, avx_arches[j], strlen (avx_arches[j])))
	      wide = true;
	}
      else if (!strcmp (a, "-mprefer-vector-width=128"))
	narrow = true;
      else if (!strncmp (a, "-mprefer-vector-width=", 22))
	narrow = false;
    }
  return wide && !narrow;
}

/* Whether the compiler arguments let a sum be reordered (the last of
   -fassociative-math, -fno-associative-math, -funsafe-math-optimizations,
   -ffast-math, -Ofast wins), as GCC's flag_associative_math says.  */
static bool
nf_args_associative_math (const struct nf_cli *cli)
{
  bool on = false;
  for (int i = 0; i < cli->n_clang_args; i++)
    if (!strcmp (cli->clang_args[i], "-fno-associative-math"))
      on = false;
    else if (!strcmp (cli->clang_args[i], "-fassociative-math")
	     || !strcmp (cli->clang_args[i], "-funsafe-math-optimizations")
	     || nf_arg_fast_math (cli->clang_args[i]))
      on = true;
  return on;
}

/* Add to T's edits the insertion of `#include <neuronfuse.h>' where
   include.c's rule puts it.  Returns 0, or 1 after an error message (no
   safe place, or out of memory).  */
static int
nf_add_include (nf_tool *t)
{
  nf_include_pos pos;
  int r = nf_include_position (t->buf, t->len, &pos);
  if (r == -2)
    {
      fprintf (stderr, "neuronfuse-clang: out of memory\n");
      return 1;
    }
  if (r != 0)
    {
      nf_tool_error (t, pos.where, "%s", pos.reason);
      return 1;
    }
  size_t at = pos.offset;
  nf_edits_begin (t->edits);
  nf_edits_add (t->edits, at, at,
		at == 0 || t->buf[at - 1] == '\n'
		  ? "#include <neuronfuse.h>\n"
		  : "\n#include <neuronfuse.h>\n");
  if (!nf_edits_commit (t->edits))
    {
      nf_tool_error (t, at,
		     "'#include <neuronfuse.h>' would go inside an edit of "
		     "the rewrite");
      return 1;
    }
  return 0;
}

/* Write the N bytes of DATA where CLI says.  Returns 0, or 1 after an
   error message.  */
static int
nf_write_output (const struct nf_cli *cli, const char *data, size_t n)
{
  if (cli->output)
    {
      int err = nf_write_atomic (cli->output, data, n);
      if (err)
	{
	  fprintf (stderr, "neuronfuse-clang: cannot write '%s': %s\n",
		   cli->output, strerror (err));
	  return 1;
	}
      return 0;
    }
  if (fwrite (data, 1, n, stdout) != n || fflush (stdout) != 0)
    {
      fprintf (stderr, "neuronfuse-clang: cannot write the output: %s\n",
	       strerror (errno));
      return 1;
    }
  return 0;
}

/* Rewrite the parsed unit of T and write the results; the unit is
   disposed of before the rewritten text is parsed in INDEX to verify it.
   Returns the exit status.  */
static int
nf_rewrite_unit (nf_tool *t, const struct nf_cli *cli, CXIndex index)
{
  t->macros = nf_macro_ranges (t->tu, &t->n_macros);
  t->report = nf_report_new ("neuronfuse-clang", t->input);
  t->edits = nf_edits_new (t->len);
  if (!t->report || !t->edits || nf_scalar_run (t) != 0 || nf_loop_run (t) != 0)
    {
      fprintf (stderr, "neuronfuse-clang: out of memory\n");
      return 1;
    }
  if (t->needs_runtime && nf_add_include (t) != 0)
    return 1;
  if (t->dump_error)
    {
      fprintf (stderr, "neuronfuse-clang: cannot write dumps in '%s': %s\n",
	       t->dump_dir, strerror (t->dump_error));
      return 1;
    }
  int status;
  if (nf_edits_count (t->edits) == 0)
    status = nf_write_output (cli, t->buf, t->len);
  else
    {
      size_t n;
      char *out = nf_edits_apply (t->edits, t->buf, t->len, &n);
      if (!out)
	{
	  fprintf (stderr, "neuronfuse-clang: out of memory\n");
	  return 1;
	}
      clang_disposeTranslationUnit (t->tu);
      t->tu = NULL;
      status = nf_verify_rewrite (t, index, cli->clang_args, cli->n_clang_args,
				  out, n);
      if (status < 0)
	fprintf (stderr, "neuronfuse-clang: out of memory\n");
      if (status == 0)
	status = nf_write_output (cli, out, n);
      else
	status = 1;
      free (out);
    }
  if (status == 0 && cli->report)
    {
      char *path = NULL;
      int err = nf_outdir_write_report (t->report, cli->report, t->unit,
					&path);
      if (err)
	{
	  fprintf (stderr, "neuronfuse-clang: cannot write report '%s': %s\n",
		   path ? path : cli->report, strerror (err));
	  status = 1;
	}
      free (path);
    }
  return status;
}

int
main (int argc, char **argv)
{
  struct nf_cli cli;
  int status = nf_parse_cli (argc, argv, &cli);
  if (status >= 0)
    return status;

  nf_tool t = { 0 };
  t.input = cli.input;
  t.dump_dir = cli.dump_dir;
  t.unit = cli.output ? cli.output : cli.input;
  t.kinds = cli.kinds;
  t.math_errno = nf_args_math_errno (&cli);
  t.signed_zeros = nf_args_signed_zeros (&cli);
  t.associative_math = nf_args_associative_math (&cli);
  t.fast_math = nf_args_unsafe_math (&cli) && !t.signed_zeros;
  t.narrow_math = nf_args_unsafe_math (&cli) && !t.math_errno;
  t.ew_vectorizer = nf_args_unsafe_math (&cli) && nf_args_wide_vectors (&cli);
  char *buf = NULL;
  CXIndex index = NULL;
  status = 1;

  if (cli.dump_dir)
    {
      int err = nf_dump_dir_check (cli.dump_dir);
      if (err)
	{
	  fprintf (stderr, "neuronfuse-clang: --dump-hlo=%s: %s\n",
		   cli.dump_dir, strerror (err));
	  goto out;
	}
    }
  buf = nf_read_file (cli.input, &t.len);
  if (!buf)
    {
      fprintf (stderr, "neuronfuse-clang: cannot read '%s': %s\n", cli.input,
	       strerror (errno));
      goto out;
    }
  t.buf = buf;
  index = clang_createIndex (/*excludeDeclarationsFromPCH=*/0,
			     /*displayDiagnostics=*/0);
  if (nf_parse_file (index, cli.input, cli.clang_args, cli.n_clang_args, &t.tu)
      != 0)
    goto out_tu;
  status = nf_rewrite_unit (&t, &cli, index);

out_tu:
  if (t.tu)
    clang_disposeTranslationUnit (t.tu);
  clang_disposeIndex (index);
out:
  nf_edits_free (t.edits);
  nf_report_free (t.report);
  free (t.macros);
  for (size_t i = 0; i < t.n_callees; i++)
    free (t.callees[i]);
  free (t.callees);
  free (buf);
  return status;
}
