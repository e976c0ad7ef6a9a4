/* rewrite.h: source edits by byte ranges of the original buffer.

   A front end collects edits (replace [BEGIN, END) by TEXT; BEGIN == END
   inserts) in groups, one group per rewritten region: a group whose
   edits overlap an edit already accepted is refused whole, so a region
   is rewritten entirely or not at all.  nf_edits_apply then builds the
   new text back to front from the original buffer: everything outside
   the edits (comments, macros, formatting) is copied byte for byte.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_REWRITE_H
#define NF_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct nf_edits nf_edits;

/* A new, empty edit list for a buffer of LEN bytes.  NULL when out of
   memory.  */
nf_edits *nf_edits_new (size_t len);
void nf_edits_free (nf_edits *e);

/* Start a group.  */
void nf_edits_begin (nf_edits *e);
/* Add to the open group: replace [BEGIN, END) by TEXT (copied).
   Returns 0, or -1 when the range is outside the buffer or out of
   memory (the group is then refused by nf_edits_commit).  */
int nf_edits_add (nf_edits *e, size_t begin, size_t end, const char *text);
/* Mark the open group as refused (a check of the caller failed).  */
void nf_edits_refuse (nf_edits *e);
/* Close the group.  Returns true when it was accepted: its ranges are
   valid and overlap neither each other nor an accepted edit (insertions
   at the boundary of a replacement do not overlap it); false when it was
   refused and dropped.  */
bool nf_edits_commit (nf_edits *e);

/* Number of accepted edits.  */
size_t nf_edits_count (const nf_edits *e);

/* The text of BUF (LEN bytes) with the accepted edits applied, in a new
   NUL-terminated string of *OUT_LEN bytes (the caller frees it), or NULL
   when out of memory.  */
char *nf_edits_apply (const nf_edits *e, const char *buf, size_t len,
		      size_t *out_len);

/* The accepted edit I (0 <= I < nf_edits_count, in the order of their
   positions): replace [*BEGIN, *END) of the original buffer by the text
   returned (owned by E).  */
const char *nf_edits_get (const nf_edits *e, size_t i, size_t *begin,
			  size_t *end);

/* Write LEN bytes of DATA to PATH atomically: a temporary file in PATH's
   directory, then renamed over PATH, so that PATH is never partial.
   Returns 0, or an errno value (and PATH is left as it was).  */
int nf_write_atomic (const char *path, const char *data, size_t len);

#endif /* NF_REWRITE_H */
