/* verify.c: the rewritten text parsed again before it is written (see
   nf_verify_rewrite in nf-clang.h).

   The rewrite adds calls: to libneuronfuse's kernels (nf_nrm2_f32...),
   declared by the `#include <neuronfuse.h>` it also adds, and to math
   functions (expm1, log1p...), declared by the file's <math.h>.  A call
   that does not see its declaration still compiles in C, with a warning
   only under older -std: implicitly declared, returning int, it gives
   wrong results (ggml.c's nf_sumsq_f32, whose include had landed inside
   #if defined(_WIN32)).  Nor is a name followed by `(' always the
   function: the file may define a macro of that name, or skip the
   header by defining its guard.  So the rewritten buffer is parsed
   again by libclang, as an unsaved file in the place of the input, with
   the same compiler arguments (and neuronfuse.h's directories after
   them, searched last), and:

   1. every identifier in the text the edits inserted that names a
      function the rewrite calls (nf_tool's callees, the report's
      callee of each region) must be a reference to that function, not a
      macro expansion nor anything else, whose first declaration is, for
      an nf_* kernel, in a file named neuronfuse.h, and for any other
      function, not the implicit one the call itself would make (clang
      puts an implicit declaration at the call);
   2. the text must have no error.

   A precise reason of 1 (a macro, an implicit declaration) is given
   first; then the unit's first error, which says more than "not a
   reference" when clang could not build the call at all.

   Any failure is a GCC-style error at the input's line of the edit (or
   of the error; at line 1 for an error in a header, which the message
   names) and the rewrite is not written.  The first parse is
   disposed before, so the two are not held at once.  Cost: one more
   parse, only when something was rewritten: for the 9.5 MB of sqlite3.c,
   0.38 s of CPU against 3.65 s for the tool's whole run on it (about
   10%), and no more memory (121 MB at the peak against 119 MB for a
   file that includes it and has one region).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nf-clang.h"

#ifndef NF_INCLUDEDIR
#define NF_INCLUDEDIR "/usr/local/include"
#endif
#ifndef NF_RUNTIME_SRCDIR
#define NF_RUNTIME_SRCDIR "runtime"
#endif

/* The compiler arguments ARGS (N of them) with neuronfuse.h's
   directories appended, searched after the user's (-idirafter): the
   installed header's, then the source tree's, for a build run before
   `make install'.  A new array of *OUT_N entries, NULL when out of
   memory.  */
static const char **
nf_verify_args (const char *const *args, int n, int *out_n)
{
  const char **v = malloc ((n + 4) * sizeof *v);
  if (!v)
    return NULL;
  for (int i = 0; i < n; i++)
    v[i] = args[i];
  v[n] = "-idirafter";
  v[n + 1] = NF_INCLUDEDIR;
  v[n + 2] = "-idirafter";
  v[n + 3] = NF_RUNTIME_SRCDIR;
  *out_n = n + 4;
  return v;
}

/* The input offset of the offset OFF of the rewritten text of T: the
   start of the edit whose text holds it, else OFF less what the edits
   before it added.  */
static size_t
nf_input_offset (const nf_tool *t, size_t off)
{
  ptrdiff_t added = 0;
  for (size_t i = 0; i < nf_edits_count (t->edits); i++)
    {
      size_t b, e, n = strlen (nf_edits_get (t->edits, i, &b, &e));
      size_t ob = b + added;
      if (off < ob)
	break;
      if (off < ob + n)
	return b;
      added += (ptrdiff_t) n - (ptrdiff_t) (e - b);
    }
  return off - added;
}

/* Where LOC of the reparsed unit TU of T is, for a message: the input's
   path and line when it is in the main file (MAIN), mapped back through
   the edits; else the header's.  Writes "PATH:LINE" to BUF (SIZE
   bytes).  */
static void
nf_verify_place (const nf_tool *t, CXFile main, CXSourceLocation loc, char *buf,
		 size_t size)
{
  CXFile f;
  unsigned line, off;
  clang_getSpellingLocation (loc, &f, &line, NULL, &off);
  if (f && clang_File_isEqual (f, main))
    {
      size_t in = nf_input_offset (t, off);
      line = 1;
      for (size_t i = 0; i < in && i < t->len; i++)
	line += t->buf[i] == '\n';
      snprintf (buf, size, "%s:%u", t->input, line);
      return;
    }
  CXString name = clang_getFileName (f);
  snprintf (buf, size, "%s:%u",
	    clang_getCString (name) ? clang_getCString (name) : "?", line);
  clang_disposeString (name);
}

/* Whether T's rewrite calls a function named NAME.  */
static bool
nf_is_callee (const nf_tool *t, const char *name)
{
  for (size_t i = 0; i < t->n_callees; i++)
    if (!strcmp (t->callees[i], name))
      return true;
  return false;
}

/* Whether PATH's last component is neuronfuse.h.  */
static bool
nf_is_runtime_header (const char *path)
{
  const char *slash = path ? strrchr (path, '/') : NULL;
  return path && !strcmp (slash ? slash + 1 : path, "neuronfuse.h");
}

/* The first call that fails rule 1.  */
struct nf_verify_fail
{
  bool found;
  bool vague; /* Only "not a reference": an error of the unit, if
		 any, says more.  */
  size_t in;  /* The input offset of the edit.  */
  char msg[1400];
};

/* Check the identifier NAME at offset OFF of the rewritten text, which
   annotates to the cursor C of TU (rule 1 of the file's comment).
   Returns NULL, or what would go wrong with the call (in WHY, SIZE
   bytes), to follow "the call of 'NAME' the rewrite adds here "; sets
   *VAGUE when all it can say is that NAME is not a reference to the
   function (an expression clang could not build: its error says why).  */
static const char *
nf_verify_call (const nf_tool *t, CXFile main, CXCursor c, const char *name,
		unsigned off, char *why, size_t size, bool *vague)
{
  char place[1024];
  enum CXCursorKind k = clang_getCursorKind (c);
  if (k == CXCursor_MacroExpansion)
    {
      CXCursor def = clang_getCursorReferenced (c);
      nf_verify_place (t, main, clang_getCursorLocation (def), place,
		       sizeof place);
      snprintf (why, size,
		"would not call it: '%s' is a macro here, defined at %s", name,
		place);
      return why;
    }
  CXCursor ref = clang_getCursorReferenced (c);
  CXString rs = clang_getCursorSpelling (ref);
  bool same = k == CXCursor_DeclRefExpr
	      && clang_getCursorKind (ref) == CXCursor_FunctionDecl
	      && !strcmp (clang_getCString (rs), name);
  clang_disposeString (rs);
  if (!same)
    {
      *vague = true;
      snprintf (why, size,
		"would not call it: '%s' there is not a reference to the "
		"function",
		name);
      return why;
    }
  CXCursor first = clang_getCanonicalCursor (ref);
  CXSourceLocation loc = clang_getCursorLocation (first);
  CXFile f;
  unsigned at;
  clang_getSpellingLocation (loc, &f, NULL, NULL, &at);
  bool kernel = !strncmp (name, "nf_", 3);
  if (f && clang_File_isEqual (f, main) && at == off)
    {
      snprintf (why, size,
		"would be declared implicitly: no declaration of it is in "
		"scope%s",
		kernel ? " after '#include <neuronfuse.h>'" : "");
      return why;
    }
  CXString fname = clang_getFileName (f);
  bool runtime = nf_is_runtime_header (clang_getCString (fname));
  clang_disposeString (fname);
  if (kernel && !runtime)
    {
      nf_verify_place (t, main, loc, place, sizeof place);
      snprintf (why, size,
		"would not use its declaration in <neuronfuse.h>: it is "
		"first declared at %s",
		place);
      return why;
    }
  return NULL;
}

/* Check the calls in the text [OB, OE) of the rewritten unit TU, which
   the edit at input offset IN inserted, and fill *FAIL for the first
   one that fails.  Returns 0, or -1 when out of memory.  */
static int
nf_verify_text (const nf_tool *t, CXTranslationUnit tu, CXFile main, size_t ob,
		size_t oe, size_t in, struct nf_verify_fail *fail)
{
  CXSourceRange r = clang_getRange (clang_getLocationForOffset (tu, main, ob),
				    clang_getLocationForOffset (tu, main, oe));
  CXToken *toks;
  unsigned n;
  clang_tokenize (tu, r, &toks, &n);
  if (n == 0)
    return 0;
  CXCursor *cs = malloc (n * sizeof *cs);
  if (!cs)
    {
      clang_disposeTokens (tu, toks, n);
      return -1;
    }
  clang_annotateTokens (tu, toks, n, cs);
  for (unsigned i = 0; i < n && !fail->found; i++)
    {
      unsigned off;
      clang_getSpellingLocation (clang_getTokenLocation (tu, toks[i]), NULL,
				 NULL, NULL, &off);
      if (clang_getTokenKind (toks[i]) != CXToken_Identifier || off < ob
	  || off >= oe)
	continue;
      CXString s = clang_getTokenSpelling (tu, toks[i]);
      const char *name = clang_getCString (s);
      char why[1200];
      if (nf_is_callee (t, name)
	  && nf_verify_call (t, main, cs[i], name, off, why, sizeof why,
			     &fail->vague))
	{
	  fail->found = true;
	  fail->in = in;
	  snprintf (fail->msg, sizeof fail->msg,
		    "the call of '%s' the rewrite adds here %s", name, why);
	}
      clang_disposeString (s);
    }
  free (cs);
  clang_disposeTokens (tu, toks, n);
  return 0;
}

/* Report the first error of TU, the rewritten unit, if any (rule 2).
   Returns 0 when there is none, else 1.  */
static int
nf_verify_diagnostics (const nf_tool *t, CXTranslationUnit tu, CXFile main)
{
  for (unsigned i = 0, n = clang_getNumDiagnostics (tu); i < n; i++)
    {
      CXDiagnostic d = clang_getDiagnostic (tu, i);
      bool error = clang_getDiagnosticSeverity (d) >= CXDiagnostic_Error;
      if (error)
	{
	  CXSourceLocation loc = clang_getDiagnosticLocation (d);
	  CXString msg = clang_getDiagnosticSpelling (d);
	  CXFile f;
	  unsigned off;
	  clang_getSpellingLocation (loc, &f, NULL, NULL, &off);
	  if (f && clang_File_isEqual (f, main))
	    nf_tool_error (t, nf_input_offset (t, off),
			   "the rewritten source does not compile: %s",
			   clang_getCString (msg));
	  else
	    {
	      char place[1024];
	      nf_verify_place (t, main, loc, place, sizeof place);
	      nf_tool_error (t, 0,
			     "the rewritten source does not compile: %s: %s",
			     place, clang_getCString (msg));
	    }
	  clang_disposeString (msg);
	}
      clang_disposeDiagnostic (d);
      if (error)
	return 1;
    }
  return 0;
}

int
nf_verify_rewrite (nf_tool *t, CXIndex index, const char *const *args,
		   int n_args, const char *out, size_t out_len)
{
  if (t->callees_oom)
    return -1;
  int n;
  const char **v = nf_verify_args (args, n_args, &n);
  if (!v)
    return -1;
  struct CXUnsavedFile unsaved = { t->input, out, (unsigned long) out_len };
  CXTranslationUnit tu;
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord
		   | CXTranslationUnit_KeepGoing;
  enum CXErrorCode err = clang_parseTranslationUnit2 (
    index, t->input, v, n, &unsaved, /*num_unsaved_files=*/1, flags, &tu);
  free (v);
  if (err != CXError_Success)
    {
      nf_tool_error (t, 0,
		     "cannot parse the rewritten source (libclang error %d)",
		     (int) err);
      return 1;
    }
  CXFile main = clang_getFile (tu, t->input);
  int status = main ? 0 : 1;
  if (!main)
    nf_tool_error (t, 0, "cannot find the rewritten source in its parse");
  ptrdiff_t added = 0;
  struct nf_verify_fail fail = { false, false, 0, "" };
  for (size_t i = 0; i < nf_edits_count (t->edits) && !status && !fail.found;
       i++)
    {
      size_t b, e, len = strlen (nf_edits_get (t->edits, i, &b, &e));
      if (len)
	status
	  = nf_verify_text (t, tu, main, b + added, b + added + len, b, &fail);
      added += (ptrdiff_t) len - (ptrdiff_t) (e - b);
    }
  /* A precise reason first, then the unit's first error, then a vague
     reason.  */
  bool precise = fail.found && !fail.vague;
  if (!status && !precise)
    status = nf_verify_diagnostics (t, tu, main);
  if (!status && fail.found)
    {
      nf_tool_error (t, fail.in, "%s", fail.msg);
      status = 1;
    }
  clang_disposeTranslationUnit (tu);
  return status;
}
