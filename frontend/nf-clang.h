/* nf-clang.h: the state one run of neuronfuse-clang shares between its
   passes: the options, the input buffer, the translation unit, the edits
   and the report.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_CLANG_H
#define NF_CLANG_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "parse.h"
#include "report.h"
#include "rewrite.h"

typedef struct nf_tool
{
  /* Options.  */
  const char *input;	/* IN.c as given.  */
  const char *dump_dir; /* --dump-hlo=DIR or DIR/, or NULL.  */
  const char *unit;	/* Its name in a build's directory (report=DIR/,
			   dump-hlo=DIR/): OUT.c, else IN.c.  */
  unsigned kinds;	/* --kinds=LIST: mask of enum nf_kind.  */
  bool signed_zeros;	/* No -fno-signed-zeros/-ffast-math there.  */
  bool fast_math;	/* -funsafe-math-optimizations without signed
			   zeros (-ffast-math, -Ofast): the fast f32
			   kernels (1 ulp) may be called.  */
  bool associative_math; /* -fassociative-math (-ffast-math, -Ofast):
			    the compiler may reorder a sum.  */
  bool math_errno;	/* No -fno-math-errno/-ffast-math in the
			   clang arguments.  */
  bool narrow_math;	/* -funsafe-math-optimizations without
			   math errno (-ffast-math, -Ofast): GCC folds
			   (float) exp ((double) xf) into expf (xf).  */
  bool ew_vectorizer;	/* -funsafe-math-optimizations with vectors
			   wider than 16 bytes (-mavx2...): GCC vectorizes
			   an activation faster than a program, so no
			   Elementwise (the plugin's nf_loop_ew_pays).  */

  /* The input.  */
  const char *buf; /* Its bytes, as read.  */
  size_t len;
  CXTranslationUnit tu;
  nf_range *macros; /* Macro expansions in the main file.  */
  size_t n_macros;

  /* Results.  */
  nf_edits *edits;
  nf_report *report;
  bool needs_runtime; /* A call into libneuronfuse was emitted:
			 add #include <neuronfuse.h>.  */
  char **callees;     /* The functions the rewrite calls (each region's
			 callee), for nf_verify_rewrite.  */
  size_t n_callees;
  bool callees_oom; /* One of them could not be noted.  */
  int dump_error;   /* errno of the first failed dump, or 0.  */
} nf_tool;

/* --- tool.c: what the passes and the driver share ---------------- */

/* Whether [BEGIN, END) overlaps a macro expansion of the main file (an
   empty range: the byte at BEGIN).  */
bool nf_tool_in_macro (const nf_tool *t, size_t begin, size_t end);

/* Note that the rewrite calls the function NAME (copied), for
   nf_verify_rewrite; out of memory sets T->callees_oom.  */
void nf_tool_note_callee (nf_tool *t, const char *name);

/* Print "IN.c:LINE:COL: error: ", for the input offset OFF of T, then
   the message FMT... and " (nothing written)", to stderr.  */
void nf_tool_error (const nf_tool *t, size_t off, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

struct nf_vars;

/* What a pass does with the function FN of T, named NAME, whose local
   variables are VARS (ast.h); DATA is the pass's.  Returns 0, or -1
   when out of memory.  */
typedef int nf_tool_function_fn (nf_tool *t, CXCursor fn, const char *name,
				 const struct nf_vars *vars, void *data);
/* Whether a pass leaves the function FN of T alone.  */
typedef bool nf_tool_skip_fn (const nf_tool *t, CXCursor fn);

/* Call WORK for each function defined in the main file of T's unit, in
   the order of the source, but those SKIP (when not NULL) says to leave
   alone.  Returns 0, or -1 when out of memory (the walk stops there).

   Each pass makes its own walk, the scalar pass's first, then the loop
   pass's (main.c), not one walk running both on each function as the
   plugin's pass manager does: the report lists the regions, numbers
   them and numbers their dumps in the order they are recorded, so one
   walk would change those of every file with regions of both passes in
   different functions.  The edits would be the same (a function's
   scalar edits come before its loop edits either way, and the edits of
   two functions never overlap).  */
int nf_tool_each_function (nf_tool *t, nf_tool_skip_fn *skip,
			   nf_tool_function_fn *work, void *data);

/* The reason of a candidate the tool cannot rewrite because the code
   it would replace or name is written by a macro (the plugin, which sees
   expanded code, has no such limit).  */
#define NF_CLANG_WHY_MACRO "the code is inside a macro expansion"

/* --- The passes, and the check of their output ------------------ */

/* Parse OUT (OUT_LEN bytes), the rewritten text of T's input, again in
   INDEX with the N_ARGS compiler arguments ARGS, and check that each
   call the edits added to a function of T->callees uses that function's
   declaration (a kernel's in neuronfuse.h; no macro, no implicit
   declaration) and that the text has no error (verify.c).  Returns 0;
   1 after an nf_tool_error (the rewrite must not be written); -1 when
   out of memory.  */
int nf_verify_rewrite (nf_tool *t, CXIndex index, const char *const *args,
		       int n_args, const char *out, size_t out_len);

/* Find, rewrite and record the scalar idioms (Expm1, Log1p) of every
   function defined in the main file (scalar.c).  Returns 0, or -1 when
   out of memory.  */
int nf_scalar_run (nf_tool *t);

/* Find, rewrite and record the loop idioms (RMSNorm, MulRedSqrt, the
   elementwise loops) of every function defined in the main file
   (loop.c).  Returns 0, or -1
   when out of memory.  */
int nf_loop_run (nf_tool *t);

#endif /* NF_CLANG_H */
