/* include.h: where `#include <neuronfuse.h>` goes in a C file (the rule
   is in include.c's header).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_INCLUDE_H
#define NF_INCLUDE_H

#include <stddef.h>

/* The include's position in a buffer, or why there is none.  */
typedef struct nf_include_pos
{
  size_t offset;    /* The insertion point: a line start, or the end.  */
  size_t where;	    /* On failure: the offset REASON is about.  */
  char reason[256]; /* On failure: why, for "FILE:LINE:COL: error: ".  */
} nf_include_pos;

/* Find where `#include <neuronfuse.h>` goes in BUF (LEN bytes).
   Returns 0 with POS->offset set; or -1 when no position is safe, with
   POS->where and POS->reason set; or -2 when out of memory.  */
int nf_include_position (const char *buf, size_t len, nf_include_pos *pos);

#endif /* NF_INCLUDE_H */
