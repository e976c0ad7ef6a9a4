/* tool.c: the services of nf_tool (nf-clang.h) that the passes, the
   verifier and the driver share: whether a range of the input touches a
   macro expansion, the list of callees the rewrite added, the
   "IN.c:LINE:COL: error: " message of a refused rewrite, and the walk
   over the functions defined in the main file that each pass makes
   (nf_tool_each_function).  Here and not
   in main.c, so that the passes depend on the tool's state only, never
   on the driver.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "nf-clang.h"

bool
nf_tool_in_macro (const nf_tool *t, size_t begin, size_t end)
{
  for (size_t i = 0; i < t->n_macros; i++)
    if (t->macros[i].begin < (end > begin ? end : begin + 1)
	&& begin < t->macros[i].end)
      return true;
  return false;
}

void
nf_tool_note_callee (nf_tool *t, const char *name)
{
  for (size_t i = 0; i < t->n_callees; i++)
    if (!strcmp (t->callees[i], name))
      return;
  char **v = realloc (t->callees, (t->n_callees + 1) * sizeof *v);
  char *copy = v ? strdup (name) : NULL;
  if (v)
    t->callees = v;
  if (!copy)
    {
      t->callees_oom = true;
      return;
    }
  t->callees[t->n_callees++] = copy;
}

void
nf_tool_error (const nf_tool *t, size_t off, const char *fmt, ...)
{
  unsigned line = 1, column = 1;
  for (size_t i = 0; i < off && i < t->len; i++)
    if (t->buf[i] == '\n')
      line++, column = 1;
    else
      column++;
  fprintf (stderr, "%s:%u:%u: error: ", t->input, line, column);
  va_list ap;
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputs (" (nothing written)\n", stderr);
}

/* The walk of nf_tool_each_function.  */
struct nf_tool_walk
{
  nf_tool *t;
  nf_tool_skip_fn *skip;
  nf_tool_function_fn *work;
  void *data;
  int status; /* -1 once out of memory.  */
};

static enum CXChildVisitResult
nf_tool_function_visit (CXCursor c, CXCursor parent, CXClientData data)
{
  struct nf_tool_walk *w = data;
  (void) parent;
  if (clang_getCursorKind (c) != CXCursor_FunctionDecl
      || !clang_isCursorDefinition (c)
      || !clang_Location_isFromMainFile (
	clang_getRangeStart (clang_getCursorExtent (c)))
      || (w->skip && w->skip (w->t, c)))
    return CXChildVisit_Continue;
  CXString name = clang_getCursorSpelling (c);
  nf_vars vars = { NULL, 0, 0 };
  if (nf_vars_collect (c, &vars) != 0
      || w->work (w->t, c, clang_getCString (name), &vars, w->data) != 0)
    w->status = -1;
  nf_vars_free (&vars);
  clang_disposeString (name);
  return w->status ? CXChildVisit_Break : CXChildVisit_Continue;
}

int
nf_tool_each_function (nf_tool *t, nf_tool_skip_fn *skip,
		       nf_tool_function_fn *work, void *data)
{
  struct nf_tool_walk w = { t, skip, work, data, 0 };
  clang_visitChildren (clang_getTranslationUnitCursor (t->tu),
		       nf_tool_function_visit, &w);
  return w.status;
}
