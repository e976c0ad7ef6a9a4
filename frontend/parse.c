/* parse.c: the translation unit and its diagnostics (see parse.h).

   Diagnostics are printed as libclang formats them by default
   ("file:line:col: error: ..."), one per line, errors and warnings
   alike; only errors make the unit unusable: a rewrite of code the
   compiler rejects would be a guess.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdio.h>
#include <stdlib.h>

#include "parse.h"

/* Print every diagnostic of TU to stderr.  Returns the number of errors
   (and fatal errors) among them.  */
static unsigned
nf_print_diagnostics (CXTranslationUnit tu)
{
  unsigned errors = 0, n = clang_getNumDiagnostics (tu);
  for (unsigned i = 0; i < n; i++)
    {
      CXDiagnostic d = clang_getDiagnostic (tu, i);
      enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity (d);
      if (sev >= CXDiagnostic_Error)
	errors++;
      if (sev != CXDiagnostic_Ignored)
	{
	  CXString s = clang_formatDiagnostic (
	    d, clang_defaultDiagnosticDisplayOptions ());
	  fprintf (stderr, "%s\n", clang_getCString (s));
	  clang_disposeString (s);
	}
      clang_disposeDiagnostic (d);
    }
  return errors;
}

int
nf_parse_file (CXIndex index, const char *path, const char *const *args,
	       int n_args, CXTranslationUnit *tu)
{
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord
		   | CXTranslationUnit_KeepGoing;
  enum CXErrorCode err = clang_parseTranslationUnit2 (index, path, args, n_args,
						      /*unsaved_files=*/NULL,
						      /*num=*/0, flags, tu);
  if (err != CXError_Success)
    {
      *tu = NULL;
      fprintf (stderr,
	       "neuronfuse-clang: %s: cannot parse (libclang error "
	       "%d)\n",
	       path, (int) err);
      return -1;
    }
  return nf_print_diagnostics (*tu) ? 1 : 0;
}

struct nf_macro_acc
{
  nf_range *v;
  size_t n, cap;
  int oom;
};

static enum CXChildVisitResult
nf_macro_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_macro_acc *acc = data;
  (void) parent;
  if (clang_getCursorKind (c) != CXCursor_MacroExpansion
      || !clang_Location_isFromMainFile (clang_getCursorLocation (c)))
    return CXChildVisit_Continue;
  CXSourceRange ext = clang_getCursorExtent (c);
  unsigned b, e;
  clang_getExpansionLocation (clang_getRangeStart (ext), NULL, NULL, NULL, &b);
  clang_getExpansionLocation (clang_getRangeEnd (ext), NULL, NULL, NULL, &e);
  if (acc->n == acc->cap)
    {
      size_t cap = acc->cap ? 2 * acc->cap : 64;
      nf_range *v = realloc (acc->v, cap * sizeof *v);
      if (!v)
	{
	  acc->oom = 1;
	  return CXChildVisit_Break;
	}
      acc->v = v;
      acc->cap = cap;
    }
  acc->v[acc->n++] = (nf_range){ b, e > b ? e : b + 1 };
  return CXChildVisit_Continue;
}

nf_range *
nf_macro_ranges (CXTranslationUnit tu, size_t *n)
{
  struct nf_macro_acc acc = { NULL, 0, 0, 0 };
  clang_visitChildren (clang_getTranslationUnitCursor (tu), nf_macro_visit,
		       &acc);
  if (acc.oom || !acc.n)
    {
      free (acc.v);
      *n = 0;
      return NULL;
    }
  *n = acc.n;
  return acc.v;
}
