/* mathfn.cc: the math built-ins the scalar idioms start from, and their
   accurate replacements (expf -> expm1f, logf -> log1pf...), shared by
   the region IR builder (to-ir.cc) and the rewrite (scalar.cc).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "match.h"
#include "nf-plugin.h"

const struct nf_mathfn nf_exp_fns[] = {
  { BUILT_IN_EXPF, BUILT_IN_EXPM1F, "expf", "expm1f" },
  { BUILT_IN_EXP, BUILT_IN_EXPM1, "exp", "expm1" },
  { BUILT_IN_EXPL, BUILT_IN_EXPM1L, "expl", "expm1l" },
};

const struct nf_mathfn nf_log_fns[] = {
  { BUILT_IN_LOGF, BUILT_IN_LOG1PF, "logf", "log1pf" },
  { BUILT_IN_LOG, BUILT_IN_LOG1P, "log", "log1p" },
  { BUILT_IN_LOGL, BUILT_IN_LOG1PL, "logl", "log1pl" },
};

/* If STMT is a one-argument call with a result to one of the three
   functions of FNS, return the call and set *FN; else NULL.  */
gcall *
nf_math_call (gimple *stmt, const struct nf_mathfn *fns,
	       const struct nf_mathfn **fn)
{
  gcall *call = nf_as_call (stmt);

  if (!call || !gimple_call_lhs (call) || gimple_call_num_args (call) != 1)
    return NULL;
  for (int i = 0; i < 3; i++)
    if (gimple_call_builtin_p (call, fns[i].from))
      {
	*fn = &fns[i];
	return call;
      }
  return NULL;
}

