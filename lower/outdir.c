/* outdir.c: a unit's files in a build-wide output directory (see
   outdir.h).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "outdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool
nf_outdir_arg_p (const char *arg)
{
  size_t n = strlen (arg);
  return n > 0 && arg[n - 1] == '/';
}

/* Whether PATH is an existing directory.  */
static bool
nf_outdir_is_dir (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

/* UNIT relative to the current directory when it is absolute and under
   it, else UNIT.  */
static const char *
nf_outdir_strip_cwd (const char *unit)
{
  char cwd[4096];
  if (unit[0] != '/' || !getcwd (cwd, sizeof cwd))
    return unit;
  size_t n = strlen (cwd);
  if (n > 1 && strncmp (unit, cwd, n) == 0 && unit[n] == '/')
    return unit + n + 1;
  return unit;
}

bool
nf_outdir_unit (const char *unit, char *buf, size_t size)
{
  const char *p = nf_outdir_strip_cwd (unit ? unit : "");
  size_t len = 0;

  /* Component by component: "", "." dropped, ".." renamed.  */
  while (*p)
    {
      const char *end = strchr (p, '/');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      const char *c = p;
      if (n == 2 && c[0] == '.' && c[1] == '.')
	c = "__";
      if (n > 0 && !(n == 1 && c[0] == '.'))
	{
	  if (len + n + 2 > size)
	    return false;
	  if (len > 0)
	    buf[len++] = '/';
	  memcpy (buf + len, c, n);
	  len += n;
	}
      p += n + (end != NULL);
    }
  if (len == 0)
    {
      if (size < sizeof "stdin")
	return false;
      strcpy (buf, "stdin");
      return true;
    }
  buf[len] = '\0';
  return true;
}

/* mkdir PATH unless it is a directory already (made by another unit of
   a parallel build a moment ago, say).  */
static int
nf_outdir_mkdir (const char *path)
{
  struct stat st;
  if (mkdir (path, 0777) == 0)
    return 0;
  int err = errno;
  if (err == EEXIST && stat (path, &st) == 0)
    return S_ISDIR (st.st_mode) ? 0 : ENOTDIR;
  return err;
}

int
nf_outdir_prepare (const char *dir, const char *rel)
{
  size_t dn = strlen (dir), rn = strlen (rel);
  char *path = malloc (dn + rn + 2);
  int err = 0;

  if (!path)
    return ENOMEM;
  memcpy (path, dir, dn + 1);
  /* DIR itself, each of its components (mkdir -p).  */
  for (size_t i = 1; i <= dn && !err; i++)
    if (i == dn || path[i] == '/')
      {
	char c = path[i];
	path[i] = '\0';
	if (i == dn || path[i - 1] != '/')
	  err = nf_outdir_mkdir (path);
	path[i] = c;
      }
  /* Then REL's directories.  */
  while (dn > 1 && path[dn - 1] == '/')
    path[--dn] = '\0';
  for (size_t i = 0; i < rn && !err; i++)
    if (rel[i] == '/')
      {
	snprintf (path + dn, rn + 2, "/%.*s", (int) i, rel);
	err = nf_outdir_mkdir (path);
      }
  free (path);
  return err;
}

char *
nf_outdir_path (const char *dir, const char *unit, const char *suffix, int *err)
{
  char rel[4096];
  if (!nf_outdir_unit (unit, rel, sizeof rel))
    {
      *err = ENAMETOOLONG;
      return NULL;
    }
  *err = nf_outdir_prepare (dir, rel);
  if (*err)
    return NULL;
  size_t dn = strlen (dir);
  while (dn > 1 && dir[dn - 1] == '/')
    dn--;
  size_t len = dn + strlen (rel) + strlen (suffix) + 2;
  char *path = malloc (len);
  if (!path)
    {
      *err = ENOMEM;
      return NULL;
    }
  snprintf (path, len, "%.*s/%s%s", (int) dn, dir, rel, suffix);
  return path;
}

int
nf_outdir_write_report (const nf_report *report, const char *arg,
			const char *unit, char **path)
{
  int err = 0;
  if (nf_outdir_arg_p (arg) || nf_outdir_is_dir (arg))
    *path = nf_outdir_path (arg, unit, NF_OUTDIR_REPORT_SUFFIX, &err);
  else if (!(*path = strdup (arg)))
    err = ENOMEM;
  return err ? err : nf_report_write (report, *path);
}
