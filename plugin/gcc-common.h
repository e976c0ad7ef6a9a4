/* gcc-common.h: the one place that knows GCC's plugin headers.

   Every plugin source includes this (after the lower/ headers, which must
   come first because GCC's system.h poisons malloc, strdup and friends)
   and nothing else of GCC.  Differences between GCC versions are absorbed
   here, as #if blocks on BUILDING_GCC_VERSION, so the pass sources have
   none.  The idea is the Linux kernel's scripts/gcc-plugins/gcc-common.h;
   the header list and the shims are our own.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_GCC_COMMON_H
#define NF_GCC_COMMON_H

#include "bversion.h"
#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
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

#if BUILDING_GCC_VERSION < 12000
#error "neuronfuse needs GCC 12 or newer"
#endif

/* GCC 14 renamed last_stmt; keep the old spelling for our sources.  */
#if BUILDING_GCC_VERSION >= 14000
#define last_stmt(x) last_nondebug_stmt (x)
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
