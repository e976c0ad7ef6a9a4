/* rewrite.c: source edits by byte ranges (see rewrite.h).

   The accepted edits are kept sorted by position; a group is checked
   against them when it is committed.  Two edits overlap when their
   ranges share a byte, or when both insert at the same offset (their
   order would be arbitrary); an insertion at the very start or end of a
   replacement does not overlap it and goes before (at the start) or
   after (at the end) the replaced text.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rewrite.h"

struct nf_edit
{
  size_t begin, end;
  char *text;
};

struct nf_edits
{
  size_t len;	     /* Size of the buffer edited.  */
  struct nf_edit *v; /* Accepted, then the open group.  */
  size_t n, cap;
  size_t group; /* Index of the open group's first edit.  */
  bool group_bad;
};

nf_edits *
nf_edits_new (size_t len)
{
  nf_edits *e = calloc (1, sizeof *e);
  if (e)
    e->len = len;
  return e;
}

void
nf_edits_free (nf_edits *e)
{
  if (!e)
    return;
  for (size_t i = 0; i < e->n; i++)
    free (e->v[i].text);
  free (e->v);
  free (e);
}

void
nf_edits_begin (nf_edits *e)
{
  e->group = e->n;
  e->group_bad = false;
}

int
nf_edits_add (nf_edits *e, size_t begin, size_t end, const char *text)
{
  if (begin > end || end > e->len)
    {
      e->group_bad = true;
      return -1;
    }
  if (e->n == e->cap)
    {
      size_t cap = e->cap ? 2 * e->cap : 16;
      struct nf_edit *v = realloc (e->v, cap * sizeof *v);
      if (!v)
	{
	  e->group_bad = true;
	  return -1;
	}
      e->v = v;
      e->cap = cap;
    }
  char *copy = strdup (text);
  if (!copy)
    {
      e->group_bad = true;
      return -1;
    }
  e->v[e->n++] = (struct nf_edit){ begin, end, copy };
  return 0;
}

void
nf_edits_refuse (nf_edits *e)
{
  e->group_bad = true;
}

/* Whether edits A and B overlap (see the file comment).  */
static bool
nf_edit_overlap (const struct nf_edit *a, const struct nf_edit *b)
{
  if (a->begin == a->end && b->begin == b->end)
    return a->begin == b->begin;
  if (a->begin == a->end)
    return a->begin > b->begin && a->begin < b->end;
  if (b->begin == b->end)
    return b->begin > a->begin && b->begin < a->end;
  return a->begin < b->end && b->begin < a->end;
}

/* qsort order: by begin, insertions before replacements starting at the
   same offset.  */
static int
nf_edit_cmp (const void *pa, const void *pb)
{
  const struct nf_edit *a = pa, *b = pb;
  if (a->begin != b->begin)
    return a->begin < b->begin ? -1 : 1;
  if (a->end != b->end)
    return a->end < b->end ? -1 : 1;
  return 0;
}

bool
nf_edits_commit (nf_edits *e)
{
  bool ok = !e->group_bad;
  for (size_t i = e->group; ok && i < e->n; i++)
    for (size_t j = 0; ok && j < i; j++)
      ok = !nf_edit_overlap (&e->v[i], &e->v[j]);
  if (!ok)
    {
      for (size_t i = e->group; i < e->n; i++)
	free (e->v[i].text);
      e->n = e->group;
      return false;
    }
  qsort (e->v, e->n, sizeof *e->v, nf_edit_cmp);
  e->group = e->n;
  return true;
}

size_t
nf_edits_count (const nf_edits *e)
{
  return e->group;
}

char *
nf_edits_apply (const nf_edits *e, const char *buf, size_t len, size_t *out_len)
{
  size_t n = nf_edits_count (e), size = len;
  for (size_t i = 0; i < n; i++)
    size += strlen (e->v[i].text) - (e->v[i].end - e->v[i].begin);
  char *out = malloc (size + 1);
  if (!out)
    return NULL;
  /* Back to front: each edit's position in OUT is its position in BUF
     plus what the edits before it add, so fill from the end.  */
  size_t src = len, dst = size;
  for (size_t i = n; i-- > 0;)
    {
      const struct nf_edit *ed = &e->v[i];
      size_t keep = src - ed->end, tlen = strlen (ed->text);
      dst -= keep;
      memcpy (out + dst, buf + ed->end, keep);
      dst -= tlen;
      memcpy (out + dst, ed->text, tlen);
      src = ed->begin;
    }
  memcpy (out, buf, src);
  out[size] = '\0';
  *out_len = size;
  return out;
}

const char *
nf_edits_get (const nf_edits *e, size_t i, size_t *begin, size_t *end)
{
  *begin = e->v[i].begin;
  *end = e->v[i].end;
  return e->v[i].text;
}

int
nf_write_atomic (const char *path, const char *data, size_t len)
{
  const char *slash = strrchr (path, '/');
  size_t dirlen = slash ? (size_t) (slash - path) + 1 : 0;
  char *tmp = malloc (dirlen + sizeof ".nf-clang.XXXXXX");
  if (!tmp)
    return ENOMEM;
  memcpy (tmp, path, dirlen);
  strcpy (tmp + dirlen, ".nf-clang.XXXXXX");
  int fd = mkstemp (tmp);
  if (fd < 0)
    {
      int err = errno;
      free (tmp);
      return err;
    }
  int err = 0;
  for (size_t done = 0; done < len && !err;)
    {
      ssize_t w = write (fd, data + done, len - done);
      if (w < 0 && errno != EINTR)
	err = errno;
      else if (w > 0)
	done += (size_t) w;
    }
  /* mkstemp makes the file 0600: give it what a new file would get.  */
  mode_t mask = umask (0);
  umask (mask);
  if (!err && fchmod (fd, 0666 & ~mask) != 0)
    err = errno;
  if (close (fd) != 0 && !err)
    err = errno;
  if (!err && rename (tmp, path) != 0)
    err = errno;
  if (err)
    unlink (tmp);
  free (tmp);
  return err;
}
