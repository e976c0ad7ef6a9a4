/* nf-plugin.h: what the plugin's sources share: the parsed arguments, the
   unit's report, and the helpers that turn GIMPLE facts into report
   entries and remarks.  Include after the lower/ headers and before
   nothing else of GCC than gcc-common.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_PLUGIN_H
#define NF_PLUGIN_H

#include "kinds.h"
#include "report.h"
#include "match.h"
#include "gcc-common.h"

/* A broken invariant of the plugin (three tiers: bad input is an
   error (), "not my pattern" a reason, a bug this): an internal compiler
   error that says which invariant, never a plausible missed reason.  */
#define NF_CHECK(cond, msg)                                                   \
  do                                                                          \
    {                                                                         \
      if (!(cond))                                                            \
	internal_error ("neuronfuse: %s (%s:%d)", (msg), __FILE__, __LINE__);  \
    }                                                                         \
  while (0)

enum nf_mode
{
  NF_MODE_REWRITE,		/* Find, rewrite, report (default).  */
  NF_MODE_REPORT		/* Find and report only; change nothing.  */
};

/* The plugin's arguments (-fplugin-arg-neuronfuse-KEY[=VALUE]).  */
struct nf_options
{
  bool disable;			/* disable: register nothing.  */
  bool verbose;			/* verbose: an inform () per decision.  */
  bool dump;			/* dump: the passes' details dumps.  */
  unsigned kinds;		/* kinds=LIST: mask of enum nf_kind.  */
  enum nf_mode mode;		/* mode=rewrite|report.  */
  const char *report_path;	/* report=FILE or DIR/, or NULL.  */
  const char *dump_dir;		/* dump-hlo=DIR or DIR/, or NULL.  */
};

extern struct nf_options nf_opts;

/* The report of this translation unit (NULL when out of memory).  */
extern nf_report *nf_unit_report;

/* Record a transformed region DESC whose location is taken from STMT
   (DESC's kind, callee and remark text are the caller's), emit the
   `optimized:` remark MSG (or a `note:` in mode=report), and with
   dump-hlo=DIR write the dumps of MATCH.  Returns the region's id in the
   report (0 when there is no report).  */
int nf_record_region (dump_user_location_t where, nf_region_desc *desc,
		      const char *msg, const nf_match *match);

/* Emit the `optimized:` remark MSG at WHERE (and an inform under
   verbose) for a change that is no region of the report.  */
void nf_remark_optimized (dump_user_location_t where, const char *msg);

/* Record a rejected candidate of KIND at STMT with REASON, and emit the
   `missed:` remark "KIND: not rewritten: REASON"; once per locus, kind
   and reason (inlined copies of one candidate are one near miss), at
   the user's call site when STMT is in a system header, and not at all
   without a location.  */
void nf_record_missed (dump_user_location_t where, enum nf_kind kind,
		       const char *reason);

/* A readable name for the value T (a variable's name, "_N" for a
   temporary, the constant's text) in BUF of SIZE bytes; returns BUF.  */
const char *nf_value_name (tree t, char *buf, size_t size);

/* names.cc: the value T named after the source, for the report's
   live-ins and live-outs (a variable, a load as C such as x[i] or s->w,
   where the value is stored, or the expression computing it), in BUF of
   SIZE bytes; never a GCC SSA name.  Returns BUF.  */
const char *nf_source_name (tree t, char *buf, size_t size);

/* The array whose element ADDR points to (pointer arithmetic stripped),
   named by nf_source_name.  */
const char *nf_source_array_name (tree addr, char *buf, size_t size);

/* Whether NAME contains a GCC SSA name ("_5", "x_3(D)").  */
bool nf_name_is_ssa (const char *name);

/* The report's dtype name of the floating type TYPE ("f32", "f64",
   "f80", "f128") or "?".  */
const char *nf_dtype_name (tree type);

/* A library function and its accurate replacement: libm's (TO), or,
   for float, libneuronfuse's scalar function RT (RT_FAST under
   -ffast-math), which is as fast as FROM and has vector-ABI clones.  */
struct nf_mathfn
{
  enum built_in_function from, to;
  const char *from_name, *to_name;
  const char *rt, *rt_fast;	/* NULL: TO is the replacement.  */
};

/* Whether the user asked for speed over the last bits (-ffast-math,
   -Ofast: -funsafe-math-optimizations): the runtime's fast f32 entry
   points, within 1 ulp, may stand in for the 0.5-ulp ones.  */
static inline bool
nf_fast_math_p (void)
{
  return flag_unsafe_math_optimizations && !flag_signed_zeros;
}

/* The name of the function the rewrite of FN calls.  */
const char *nf_mathfn_callee (const struct nf_mathfn *fn);

/* The declaration of that function: libm's built-in, or libneuronfuse's
   scalar function declared const, nothrow, leaf and, on x86-64,
   __attribute__ ((simd ("notinbranch"))), so that the vectorizer may
   call its clones; the user's own declaration (neuronfuse.h) if the
   unit has one.  Made before IPA, the simd clones exist.  */
tree nf_mathfn_decl (const struct nf_mathfn *fn);

/* The declaration of libneuronfuse's scalar float function NAME
   (nf_expm1f, nf_expf...), made as nf_mathfn_decl says.  */
tree nf_runtime_fn_decl (const char *name);

/* Make CALL call DECL; a const DECL's call loses its virtual operands
   (scalar.cc).  */
void nf_call_to (gcall *call, tree decl);

/* If CALL (in FUN) is libm's float expf, make it call nf_expf, as
   accurate, const and with vector clones where they exist (CLONES says
   which the remark claims); returns whether it did (scalar.cc).  */
bool nf_expf_to_runtime (function *fun, gcall *call, bool clones);

/* The opcode (NF_OP_EXPM1, NF_OP_LOG1P, NF_OP_EXP) of a call to one of those
   libneuronfuse scalar functions, or NF_OP_COUNT_.  */
enum nf_opcode nf_runtime_call_op (const gimple *call);

/* Whether FNDECL is one of those libneuronfuse scalar functions.  */
bool nf_runtime_fn_p (const_tree fndecl);

/* exp/expf/expl and log/logf/logl with their replacements (mathfn.cc).  */
extern const struct nf_mathfn nf_exp_fns[3];
extern const struct nf_mathfn nf_log_fns[3];

/* If STMT is a one-argument call with a result to one of the three
   functions of FNS, return the call and set *FN; else NULL.  */
gcall *nf_math_call (gimple *stmt, const struct nf_mathfn *fns,
		     const struct nf_mathfn **fn);

opt_pass *make_nf_scalar_pass (void);
opt_pass *make_nf_scalar_early_pass (void);
opt_pass *make_nf_loop_pass (void);
opt_pass *make_nf_loop_early_pass (void);

#endif /* NF_PLUGIN_H */
