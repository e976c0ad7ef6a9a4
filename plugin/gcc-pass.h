/* gcc-pass.h: generate the C++ class of a GIMPLE pass from two C functions.

   A pass source defines

     static bool NAME_gate (function *);
     static unsigned int NAME_execute (function *);

   and then writes NF_GIMPLE_PASS (NAME, "dump-name", TODO_FLAGS) to get
   `opt_pass *make_NAME_pass (void)`.  The pass reports under
   OPTGROUP_LOOP, so -fopt-info and -fopt-info-loop show its remarks (the
   kernel's generator hard-codes OPTGROUP_NONE, which hides them).  This is
   the only C++ a pass source needs.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_GCC_PASS_H
#define NF_GCC_PASS_H

#include "gcc-common.h"

#define NF_GIMPLE_PASS(NAME, DUMP_NAME, TODO_FINISH)                          \
  namespace                                                                   \
  {                                                                           \
  const pass_data NAME##_pass_data = {                                        \
    GIMPLE_PASS,		/* type */                                    \
    DUMP_NAME,			/* name */                                    \
    OPTGROUP_LOOP,		/* optinfo_flags */                           \
    TV_NONE,			/* tv_id */                                   \
    PROP_cfg | PROP_ssa,	/* properties_required */                     \
    0,				/* properties_provided */                     \
    0,				/* properties_destroyed */                    \
    0,				/* todo_flags_start */                        \
    (TODO_FINISH),		/* todo_flags_finish */                       \
  };                                                                          \
  class NAME##_pass : public gimple_opt_pass                                  \
  {                                                                           \
  public:                                                                     \
    NAME##_pass () : gimple_opt_pass (NAME##_pass_data, g) {}                 \
    bool gate (function *fun) final override { return NAME##_gate (fun); }   \
    unsigned int execute (function *fun) final override                       \
    {                                                                         \
      return NAME##_execute (fun);                                            \
    }                                                                         \
    opt_pass *clone () final override { return new NAME##_pass (); }         \
  };                                                                          \
  }                                                                           \
  opt_pass *make_##NAME##_pass (void) { return new NAME##_pass (); }

#endif /* NF_GCC_PASS_H */
