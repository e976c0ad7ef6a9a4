/* parse.h: load one translation unit with libclang, print its
   diagnostics, and list the macro expansions of the main file.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_PARSE_H
#define NF_PARSE_H

#include <clang-c/Index.h>
#include <stddef.h>

/* Parse PATH with the N_ARGS compiler arguments ARGS into *TU (with the
   preprocessing record, for the macro expansions).  Every diagnostic is
   printed to stderr in the usual file:line:col form.  Returns 0 when the
   unit parsed without an error; otherwise 1 (an error diagnostic, *TU
   still set and the caller's to dispose) or -1 (no unit at all, *TU
   NULL).  */
int nf_parse_file (CXIndex index, const char *path, const char *const *args,
		   int n_args, CXTranslationUnit *tu);

/* A byte range [BEGIN, END) of the main file.  */
typedef struct nf_range
{
  size_t begin, end;
} nf_range;

/* The ranges of the macro expansions written in the main file of TU, in
   a new array (the caller frees it) of *N entries; NULL with *N = 0 when
   there are none or out of memory.  */
nf_range *nf_macro_ranges (CXTranslationUnit tu, size_t *n);

#endif /* NF_PARSE_H */
