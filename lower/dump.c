/* dump.c: the HLO/Penguin dumps of a region into a directory (see
   dump.h).  Files are written to a temporary name and renamed, like the
   report, so parallel builds never leave half a dump.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "dump.h"
#include "emit.h"
#include "outdir.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*nf_emitter) (FILE *, const nf_match *, int, const char **);

/* Write one form with EMIT to PATH.  Returns 0, -1 when the emitter
   cannot express M (*SKIPPED set), or an errno value.  */
static int
nf_dump_one (const char *path, nf_emitter emit, const nf_match *m, int id,
	     const char **skipped)
{
  char tmp[4096];
  const char *err = NULL;
  int rc = 0;

  if (snprintf (tmp, sizeof tmp, "%s.tmp%ld", path, (long) getpid ())
      >= (int) sizeof tmp)
    return ENAMETOOLONG;
  FILE *f = fopen (tmp, "w");
  if (!f)
    return errno;
  if (emit (f, m, id, &err) != 0)
    {
      *skipped = err;
      rc = -1;
    }
  if (fclose (f) != 0 && rc == 0)
    rc = errno ? errno : EIO;
  if (rc == 0 && rename (tmp, path) != 0)
    rc = errno;
  if (rc != 0)
    remove (tmp);
  return rc;
}

/* Write to BUF (SIZE bytes) the stem of the dumps of FUNCTION's regions
   (see nf_dump_region): IN_DIR, UNIT's path in the directory, else
   INPUT's base name; then "." and FUNCTION.  Returns false when it does
   not fit.  */
static bool
nf_dump_stem (const char *input, const char *unit, bool in_dir,
	      const char *function, char *buf, size_t size)
{
  const char *slash = strrchr (input, '/');
  size_t n;

  if (!in_dir)
    snprintf (buf, size, "%s", slash ? slash + 1 : input);
  else if (!nf_outdir_unit (unit, buf, size))
    return false;
  n = strlen (buf);
  if (snprintf (buf + n, size - n, ".%s", function) >= (int) (size - n))
    return false;
  for (char *p = buf + (in_dir ? n : 0); *p; p++)
    if (!isalnum ((unsigned char) *p) && *p != '_' && *p != '.' && *p != '-')
      *p = '_';
  return true;
}

int
nf_dump_region (const char *dir, const char *input, const char *unit,
		const char *function, const nf_match *m, int id,
		const char **skipped)
{
  static const struct
  {
    const char *suffix;
    nf_emitter emit;
    bool rmsnorm_only;
  } forms[] = {
    { "mhlo.mlir", nf_emit_mhlo, false },
    { "stablehlo.mlir", nf_emit_stablehlo, false },
    { "penguin.txt", nf_emit_penguin, false },
    { "custom_call.mlir", nf_emit_rmsnorm_custom_call, true },
  };
  char path[4096], stem[1024];
  bool in_dir = nf_outdir_arg_p (dir);

  *skipped = NULL;
  if (!nf_dump_stem (input, unit, in_dir, function, stem, sizeof stem))
    return ENAMETOOLONG;
  if (in_dir)
    {
      int rc = nf_outdir_prepare (dir, stem);
      if (rc)
	return rc;
    }
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
    {
      if (forms[i].rmsnorm_only && m->kind != NF_KIND_RMSNORM)
	continue;
      if (snprintf (path, sizeof path, "%s/%s.region%d.%s", dir, stem, id,
		    forms[i].suffix)
	  >= (int) sizeof path)
	return ENAMETOOLONG;
      int rc = nf_dump_one (path, forms[i].emit, m, id, skipped);
      if (rc > 0)
	return rc;
    }
  return 0;
}

int
nf_dump_dir_check (const char *dir)
{
  struct stat st;
  if (nf_outdir_arg_p (dir))
    return nf_outdir_prepare (dir, "");
  if (stat (dir, &st) != 0)
    return errno;
  if (!S_ISDIR (st.st_mode))
    return ENOTDIR;
  if (access (dir, W_OK | X_OK) != 0)
    return errno;
  return 0;
}
