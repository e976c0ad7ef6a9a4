/* include.c: where `#include <neuronfuse.h>` goes (see include.h).

   The rule.  The declarations must be seen by every call the rewrite
   adds, on every preprocessor path, and must not disturb what the file
   sets up for its system headers.  So the include goes:

   1. before the first line of code: every call the rewrite adds is in a
      function body, which is code;
   2. outside every conditional (#if, #ifdef, #ifndef ... #endif), so
      that no -D and no platform skips it: ggml.c's last #include before
      its code is <windows.h>, inside #if defined(_WIN32), and an include
      put after it is seen on Windows only.  A conditional one branch of
      which wraps the whole file (only comments outside it, no #else or
      #elif: an include guard around a header-like .c) does not count:
      all the code, the rewritten calls with it, is inside it and is
      skipped with it, so the include goes inside too, and the guard
      stays one that compilers recognise;
   3. at the start of a line between directives: never inside a
      comment, a literal, or a directive continued over several lines (a
      multi-line #define, or a comment spanning lines in a directive);
   4. after every feature-test macro the file defines (_GNU_SOURCE,
      _POSIX_C_SOURCE, _FILE_OFFSET_BITS, __STDC_WANT_...): they must come
      before the first system header, and neuronfuse.h includes one,
      <stddef.h>.  (GCC's and clang's <stddef.h> are freestanding and read
      none of them today; the rule does not rely on that.)

   Among those places it takes the one a person would: right after the
   top-level group (one directive, or a whole #if ... #endif) holding the
   last #include or feature-test #define before the first code, beside
   the file's own includes and before what follows them (a `#pragma GCC
   visibility push (hidden)` after the system headers would otherwise
   hide the kernels' declarations).  Without such a group: after the last
   top-level group before the code; without any: at the start of the file
   (of the guard's body).  When the first code is inside a conditional,
   that conditional's group is not complete before the code, so the
   include goes before it.

     #define _GNU_SOURCE            feature-test macro: before us (4)
     #include <math.h>
     #if defined(_WIN32)
     #include <windows.h>           not here: Windows only (2)
     #endif
				    <- #include <neuronfuse.h>
     #pragma GCC visibility push (hidden)
     float l2 (const float *x, int n) { ... }          first code (1)

   No place is safe when a feature-test macro is defined after that
   point: in the conditional holding the first code, or after the code
   (4 against 1 and 2).  nf_include_position then fails, naming the
   macro, and the tool refuses to rewrite.

   How: one pass over the whole file lists its directives (a `#` that
   begins a line, up to the next newline no backslash escapes), skipping
   comments and literals as the preprocessor's tokenizer does, each with
   its conditional depth and whether code came before it since the
   previous directive.  The guard and the point are found on that list.
   Linear in the file: 26 ms for sqlite3.c (9.5 MB, 12,553 directives).
   Not handled: %: (the digraph of #) and trigraphs (??/ for a
   backslash), which nobody writes; a file whose conditionals this scan
   finds unbalanced is refused.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include.h"

enum nf_dir_kind
{
  NF_DIR_IF,	  /* #if, #ifdef, #ifndef.  */
  NF_DIR_ELSE,	  /* #else, #elif, #elifdef, #elifndef.  */
  NF_DIR_ENDIF,	  /* #endif.  */
  NF_DIR_INCLUDE, /* #include, #include_next, #import.  */
  NF_DIR_FEATURE, /* #define of a feature-test macro.  */
  NF_DIR_OTHER
};

/* One directive of the file.  */
struct nf_dir
{
  size_t begin, end; /* From its `#' to past the newline ending it.  */
  enum nf_dir_kind kind;
  int depth;		 /* Conditionals open around it (for #else and
			    #endif: around their #if).  */
  bool code_before;	 /* Code since the previous directive.  */
  size_t name, name_len; /* A feature-test macro's name.  */
};

/* The directives of a file and where its code is.  */
struct nf_skel
{
  struct nf_dir *v;
  size_t n, cap;
  bool code_after;   /* Code after the last directive.  */
  size_t first_code; /* Offset of the first code, or the length.  */
  size_t bad;	     /* Offset of an unbalanced conditional, or -1.  */
};

static bool
nf_ident_char (char c)
{
  return isalnum ((unsigned char) c) || c == '_' || c == '$';
}

/* If a backslash at I ends its line (spaces between are tolerated, as
   GCC and clang do), the offset past the newline; else 0.  */
static size_t
nf_splice (const char *buf, size_t len, size_t i)
{
  size_t k = i + 1;
  while (k < len && (buf[k] == ' ' || buf[k] == '\t'))
    k++;
  if (k < len && buf[k] == '\r')
    k++;
  return k < len && buf[k] == '\n' ? k + 1 : 0;
}

/* Past the block comment starting at I (at its slash), or LEN.  */
static size_t
nf_skip_block (const char *buf, size_t len, size_t i)
{
  for (size_t k = i + 2; k + 1 < len; k++)
    if (buf[k] == '*' && buf[k + 1] == '/')
      return k + 2;
  return len;
}

/* The newline ending the line comment starting at I (a backslash at
   the end of its line continues it), or LEN.  */
static size_t
nf_skip_line_comment (const char *buf, size_t len, size_t i)
{
  size_t k = i + 2, s;
  while (k < len && buf[k] != '\n')
    k = buf[k] == '\\' && (s = nf_splice (buf, len, k)) ? s : k + 1;
  return k;
}

/* Past the string or character literal starting at I (its quote); an
   unterminated one (an apostrophe in the text of #error, or in a
   skipped #if 0 block) ends before the newline, as the preprocessor
   takes it.  */
static size_t
nf_skip_literal (const char *buf, size_t len, size_t i)
{
  char q = buf[i];
  size_t k = i + 1, s;
  while (k < len && buf[k] != q && buf[k] != '\n')
    if (buf[k] == '\\')
      k = (s = nf_splice (buf, len, k)) ? s : k + 2;
    else
      k++;
  if (k > len)
    k = len;
  return k < len && buf[k] == q ? k + 1 : k;
}

/* Past the preprocessing number starting at I, a digit: C23's digit
   separators (1'000) are not character literals.  */
static size_t
nf_skip_number (const char *buf, size_t len, size_t i)
{
  size_t k = i + 1;
  while (k < len)
    if (nf_ident_char (buf[k]) || buf[k] == '.')
      k++;
    else if ((buf[k] == '+' || buf[k] == '-') && buf[k - 1]
	     && strchr ("eEpP", buf[k - 1]))
      k++;
    else if (buf[k] == '\'' && k + 1 < len && nf_ident_char (buf[k + 1]))
      k++;
    else
      break;
  return k;
}

/* Past spaces, tabs, splices and block comments from I, within a
   directive's line.  */
static size_t
nf_skip_hspace (const char *buf, size_t len, size_t i)
{
  size_t s;
  while (i < len)
    if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\f'
	|| buf[i] == '\v')
      i++;
    else if (buf[i] == '\\' && (s = nf_splice (buf, len, i)))
      i = s;
    else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '*')
      i = nf_skip_block (buf, len, i);
    else
      break;
  return i;
}

/* Past the newline ending the directive whose text goes on at I.  */
static size_t
nf_directive_end (const char *buf, size_t len, size_t i)
{
  size_t s;
  while (i < len)
    if (buf[i] == '\n')
      return i + 1;
    else if (buf[i] == '\\' && (s = nf_splice (buf, len, i)))
      i = s;
    else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '*')
      i = nf_skip_block (buf, len, i);
    else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '/')
      i = nf_skip_line_comment (buf, len, i);
    else if (buf[i] == '"' || buf[i] == '\'')
      i = nf_skip_literal (buf, len, i);
    else
      i++;
  return len;
}

/* Whether the N bytes at P name a macro that selects what the system
   headers declare: *_SOURCE (_GNU_SOURCE, _POSIX_C_SOURCE,
   _FORTIFY_SOURCE...), __STDC_WANT_*, and the others below.  */
static bool
nf_feature_macro (const char *p, size_t n)
{
  static const char *const others[]
    = { "_FILE_OFFSET_BITS", "_TIME_BITS",   "_LARGE_FILES",
	"_REENTRANT",	     "_THREAD_SAFE", "_XOPEN_SOURCE_EXTENDED" };
  if (n > 12 && !memcmp (p, "__STDC_WANT_", 12))
    return true;
  if (n > 8 && p[0] == '_' && isupper ((unsigned char) p[1])
      && !memcmp (p + n - 7, "_SOURCE", 7))
    return true;
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (strlen (others[i]) == n && !memcmp (p, others[i], n))
      return true;
  return false;
}

/* The kind of the directive named by the N bytes at P.  */
static enum nf_dir_kind
nf_dir_kind (const char *p, size_t n)
{
#define NF_IS(s) (n == sizeof s - 1 && !memcmp (p, s, n))
  if (NF_IS ("if") || NF_IS ("ifdef") || NF_IS ("ifndef"))
    return NF_DIR_IF;
  if (NF_IS ("else") || NF_IS ("elif") || NF_IS ("elifdef")
      || NF_IS ("elifndef"))
    return NF_DIR_ELSE;
  if (NF_IS ("endif"))
    return NF_DIR_ENDIF;
  if (NF_IS ("include") || NF_IS ("include_next") || NF_IS ("import"))
    return NF_DIR_INCLUDE;
  if (NF_IS ("define"))
    return NF_DIR_FEATURE; /* Until its macro is known.  */
  return NF_DIR_OTHER;
#undef NF_IS
}

/* Read the directive whose `#' is at I into *D (all but depth and
   code_before).  */
static void
nf_read_directive (const char *buf, size_t len, size_t i, struct nf_dir *d)
{
  size_t k = nf_skip_hspace (buf, len, i + 1), b = k;
  while (k < len && nf_ident_char (buf[k]))
    k++;
  d->begin = i;
  d->kind = nf_dir_kind (buf + b, k - b);
  d->name = d->name_len = 0;
  if (d->kind == NF_DIR_FEATURE)
    {
      k = nf_skip_hspace (buf, len, k);
      b = k;
      while (k < len && nf_ident_char (buf[k]))
	k++;
      if (nf_feature_macro (buf + b, k - b))
	d->name = b, d->name_len = k - b;
      else
	d->kind = NF_DIR_OTHER;
    }
  d->end = nf_directive_end (buf, len, k);
}

/* Append the directive at I of BUF to S, at conditional depth *DEPTH
   (updated); CODE: whether code came before it.  Returns 0, or -1 when
   out of memory.  */
static int
nf_add_directive (struct nf_skel *s, const char *buf, size_t len, size_t i,
		  int *depth, bool code)
{
  if (s->n == s->cap)
    {
      size_t cap = s->cap ? 2 * s->cap : 256;
      struct nf_dir *v = realloc (s->v, cap * sizeof *v);
      if (!v)
	return -1;
      s->v = v;
      s->cap = cap;
    }
  struct nf_dir *d = &s->v[s->n++];
  nf_read_directive (buf, len, i, d);
  d->code_before = code;
  if (d->kind == NF_DIR_IF)
    d->depth = (*depth)++;
  else if (d->kind == NF_DIR_ELSE || d->kind == NF_DIR_ENDIF)
    {
      if (*depth == 0 && s->bad == (size_t) -1)
	s->bad = i;
      d->depth = *depth > 0 ? *depth - 1 : 0;
      if (d->kind == NF_DIR_ENDIF && *depth > 0)
	(*depth)--;
    }
  else
    d->depth = *depth;
  return 0;
}

/* Fill S with the directives of BUF (LEN bytes).  Returns 0, or -1 when
   out of memory.  */
static int
nf_scan (const char *buf, size_t len, struct nf_skel *s)
{
  size_t i = 0, k;
  bool bol = true, code = false; /* At a line's start; code since the
				    last directive.  */
  int depth = 0;
  s->first_code = len;
  s->bad = (size_t) -1;
  while (i < len)
    {
      char c = buf[i];
      if (c == '\n')
	bol = true, i++;
      else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
	i++;
      else if (c == '\\' && (k = nf_splice (buf, len, i)))
	i = k; /* A spliced line does not start a line.  */
      else if (c == '/' && i + 1 < len && buf[i + 1] == '*')
	i = nf_skip_block (buf, len, i); /* A space: BOL stays.  */
      else if (c == '/' && i + 1 < len && buf[i + 1] == '/')
	i = nf_skip_line_comment (buf, len, i);
      else if (c == '#' && bol)
	{
	  if (nf_add_directive (s, buf, len, i, &depth, code) != 0)
	    return -1;
	  i = s->v[s->n - 1].end;
	  code = false;
	}
      else
	{
	  if (s->first_code == len)
	    s->first_code = i;
	  code = true;
	  bol = false;
	  if (c == '"' || c == '\'')
	    i = nf_skip_literal (buf, len, i);
	  else if (isdigit ((unsigned char) c)
		   && (i == 0 || !nf_ident_char (buf[i - 1])))
	    i = nf_skip_number (buf, len, i);
	  else
	    i++;
	}
    }
  s->code_after = code;
  if (depth != 0 && s->bad == (size_t) -1)
    s->bad = len;
  return 0;
}

/* The index of the #endif closing the #if S->v[IF], or S->n.  Sets
   the flag BRANCHES points to when an #else or #elif of it comes
   first.  */
static size_t
nf_matching_endif (const struct nf_skel *s, size_t iff, bool *branches)
{
  *branches = false;
  for (size_t k = iff + 1; k < s->n; k++)
    if (s->v[k].depth == s->v[iff].depth && s->v[k].kind == NF_DIR_ENDIF)
      return k;
    else if (s->v[k].depth == s->v[iff].depth && s->v[k].kind == NF_DIR_ELSE)
      *branches = true;
  return s->n;
}

/* The line of offset OFF in BUF.  */
static unsigned
nf_line_of (const char *buf, size_t off)
{
  unsigned line = 1;
  for (size_t i = 0; i < off; i++)
    line += buf[i] == '\n';
  return line;
}

/* The include's offset in the file S describes (rules 1-3): peel the
   conditionals that wrap the whole file, then walk the top-level groups
   before the first code.  */
static size_t
nf_point (const struct nf_skel *s)
{
  size_t lo = 0, hi = s->n, at = 0;
  int base = 0;
  for (;;)
    {
      bool branches;
      if (lo >= hi || s->v[lo].kind != NF_DIR_IF || s->v[lo].code_before
	  || (hi == s->n ? s->code_after : s->v[hi].code_before))
	break;
      size_t end = nf_matching_endif (s, lo, &branches);
      if (end != hi - 1 || branches)
	break;
      at = s->v[lo].end; /* Inside the guard.  */
      lo++, hi--, base++;
    }
  size_t last_group = at, wanted = (size_t) -1;
  bool holds = false; /* The open group holds an include or a
			 feature-test macro.  */
  for (size_t k = lo; k < hi && !s->v[k].code_before; k++)
    {
      const struct nf_dir *d = &s->v[k];
      holds |= d->kind == NF_DIR_INCLUDE || d->kind == NF_DIR_FEATURE;
      /* A group ends at a top-level directive other than #if and #else
	 (the #endif of a top-level conditional is at the top level).  */
      if (d->depth == base && d->kind != NF_DIR_IF && d->kind != NF_DIR_ELSE)
	{
	  last_group = d->end;
	  if (holds)
	    wanted = last_group;
	  holds = false;
	}
    }
  return wanted != (size_t) -1 ? wanted : last_group;
}

int
nf_include_position (const char *buf, size_t len, nf_include_pos *pos)
{
  struct nf_skel s = { NULL, 0, 0, false, 0, 0 };
  int status = 0;
  if (nf_scan (buf, len, &s) != 0)
    {
      status = -2;
      goto out;
    }
  if (s.bad != (size_t) -1)
    {
      pos->where = s.bad;
      snprintf (pos->reason, sizeof pos->reason,
		"cannot follow the conditionals of the file here (an "
		"unbalanced #if or #endif): no safe place for "
		"'#include <neuronfuse.h>'");
      status = -1;
      goto out;
    }
  pos->offset = nf_point (&s);
  /* Rule 4: no feature-test macro after the point.  */
  for (size_t k = 0; k < s.n; k++)
    if (s.v[k].kind == NF_DIR_FEATURE && s.v[k].begin >= pos->offset)
      {
	pos->where = s.v[k].name;
	snprintf (pos->reason, sizeof pos->reason,
		  "no safe place for '#include <neuronfuse.h>': it must "
		  "follow the feature-test macro '%.*s' defined here, and "
		  "precede the first line of code (line %u) outside every "
		  "conditional",
		  (int) s.v[k].name_len, buf + s.v[k].name,
		  nf_line_of (buf, s.first_code));
	status = -1;
	break;
      }
out:
  free (s.v);
  return status;
}
