/* gcc-common.h: the one place that knows GCC's plugin headers.

   Every plugin source includes this (after the lower/ headers, which must
   come first because GCC's system.h poisons malloc, strdup and friends)
   and nothing else of GCC.  Differences between GCC versions are absorbed
   here, as #if blocks on GCCPLUGIN_VERSION_MAJOR (plugin-version.h), so
   the pass sources have none.  GCC 11 and 12 are built and tested; each
   shim says which GCC changed what.  The idea is the Linux kernel's scripts/gcc-plugins/gcc-common.h;
   the header list and the shims are our own.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_GCC_COMMON_H
#define NF_GCC_COMMON_H

#include "bversion.h"
#include "gcc-plugin.h"
/* GCCPLUGIN_VERSION_MAJOR, and gcc_version for plugin.cc's version check.
   The header has no include guard and defines static data, unused in
   every source but plugin.cc: hence here, once, without the warning.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "plugin-version.h"
#pragma GCC diagnostic pop
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "tree-ssa.h"
#include "gimple-iterator.h"
#include "gimple-pretty-print.h"
#include "tree-pretty-print.h"
#include "diagnostic-core.h"
#include "dumpfile.h"
#include "fold-const.h"
#include "stringpool.h"
#include "builtins.h"
#include "context.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "langhooks.h"
#include "real.h"
#include "intl.h"
#include "cfgloop.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "tree-ssa-loop.h"
#include "tree-scalar-evolution.h"
#include "tree-data-ref.h"
#include "tree-into-ssa.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "cgraph.h"
#include "tree-vectorizer.h"
#include "internal-fn.h"
#include "opts.h"
#include "toplev.h"
#include "tree-ssa-loop-manip.h"
#include "tree-ssa-loop-ivopts.h"
#include "attribs.h"
#include "target.h"

#if GCCPLUGIN_VERSION_MAJOR < 11
#error "neuronfuse needs GCC 11 or newer"
#endif

/* GCC 14 renamed last_stmt; keep the old spelling for our sources.  */
#if GCCPLUGIN_VERSION_MAJOR >= 14
#define last_stmt(x) last_nondebug_stmt (x)
#endif

/* GCC 12 replaced the FOR_EACH_LOOP_FN (FN, LOOP, FLAGS) macro by a
   range, `for (auto loop : loops_list (FN, FLAGS))'.  GCC 11 has the
   macro only: our own loops_list takes the loops into a vector when it
   is made, as GCC 12's does, but keeps pointers where GCC 12's keeps
   numbers and skips the loops removed meanwhile: a body must not remove
   loops (ours copy them into a vector of their own first).  */
#if GCCPLUGIN_VERSION_MAJOR < 12
class loops_list
{
public:
  loops_list (function *fn, unsigned flags)
  {
    class loop *loop;
    FOR_EACH_LOOP_FN (fn, loop, flags)
      m_loops.safe_push (loop);
  }
  class loop *const *begin () const { return m_loops.begin (); }
  class loop *const *end () const { return m_loops.end (); }

private:
  auto_vec<class loop *> m_loops; /* the loops, in the iterator's order */
};

/* GCC 12's system.h gained startswith (STR, PREFIX); GCC 11 has none.  */
static inline bool
startswith (const char *str, const char *prefix)
{
  return strncmp (str, prefix, strlen (prefix)) == 0;
}
#endif

/* Exported entry points of the plugin.  */
#define NF_VISIBLE __attribute__ ((visibility ("default")))

/* STMT as a call, or NULL: the one checked downcast the passes need.  */
static inline gcall *
nf_as_call (gimple *stmt)
{
  return dyn_cast<gcall *> (stmt);
}

/* The size in bytes of the vectors GCC's vectorizer prefers for float
   (16 for SSE, 32 for AVX, 64 with AVX-512 preferred), 0 without.  */
static inline unsigned
nf_float_vector_bytes (void)
{
  machine_mode m = targetm.vectorize.preferred_simd_mode (SFmode);
  if (!VECTOR_MODE_P (m) || !GET_MODE_SIZE (m).is_constant ())
    return 0;
  return GET_MODE_SIZE (m).to_constant ();
}

/* Whether GCC vectorizes libm calls itself through vectors wider than
   SSE's (-ffast-math with AVX): faster then than the Elementwise
   programs and the softmax kernel (nf_call_flags.wide_vector_math).  */
static inline bool
nf_wide_vector_math_p (void)
{
  return flag_unsafe_math_optimizations && nf_float_vector_bytes () > 16;
}

/* The name of the main input file, for the report.  */
static inline const char *
nf_main_input_filename (void)
{
  return main_input_filename ? main_input_filename : "<stdin>";
}

/* The unit's dump base name, which names its files in report=DIR/ and
   dump-hlo=DIR/ as it names -fsave-optimization-record's: the output's
   directory and stem and the source's suffix since GCC 11's -dumpbase
   rework ("obj/a/util.c" for -c src/a/util.c -o obj/a/util.o).  */
static inline const char *
nf_unit_dump_base (void)
{
  return dump_base_name ? dump_base_name : nf_main_input_filename ();
}

#endif /* NF_GCC_COMMON_H */
