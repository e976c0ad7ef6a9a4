/* mathfn.cc: the math built-ins the scalar idioms start from, and their
   accurate replacements (expf -> nf_expm1f, exp -> expm1, logf ->
   nf_log1pf...), shared by the region IR builder (to-ir.cc), the loop
   pass (loop-ir.cc) and the rewrite (scalar.cc).

   Why float goes to libneuronfuse: glibc's expm1f and log1pf are about
   2.7x slower than expf and logf (DESIGN.md section 4: never slower);
   nf_expm1f and nf_log1pf are as fast and as accurate (0.5 ulp through
   double).  They are declared here as the runtime's neuronfuse.h
   declares them, simd ("notinbranch") on x86-64: the IPA pass
   "simdclone" then makes their clone declarations (_ZGVbN4v_nf_expm1f
   ...), which the library defines, and GCC's vectorizer can call them
   for any loop body around the idiom (gcc-internals.md section 9).
   That needs the declaration before IPA: nf-scalar-early makes it.
   double and long double keep libm's expm1/log1p (as fast as exp/log).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "match.h"
#include "nf-plugin.h"

const struct nf_mathfn nf_exp_fns[] = {
  { BUILT_IN_EXPF, BUILT_IN_EXPM1F, "expf", "expm1f", "nf_expm1f",
    "nf_expm1f_fast" },
  { BUILT_IN_EXP, BUILT_IN_EXPM1, "exp", "expm1", NULL, NULL },
  { BUILT_IN_EXPL, BUILT_IN_EXPM1L, "expl", "expm1l", NULL, NULL },
};

const struct nf_mathfn nf_log_fns[] = {
  { BUILT_IN_LOGF, BUILT_IN_LOG1PF, "logf", "log1pf", "nf_log1pf",
    "nf_log1pf_fast" },
  { BUILT_IN_LOG, BUILT_IN_LOG1P, "log", "log1p", NULL, NULL },
  { BUILT_IN_LOGL, BUILT_IN_LOG1PL, "logl", "log1pl", NULL, NULL },
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

const char *
nf_mathfn_callee (const struct nf_mathfn *fn)
{
  if (!fn->rt)
    return fn->to_name;
  return nf_fast_math_p () ? fn->rt_fast : fn->rt;
}

tree
nf_runtime_fn_decl (const char *name)
{
  tree id = get_identifier (name);
  if (symtab_node *s = symtab_node::get_for_asmname (id))
    if (TREE_CODE (s->decl) == FUNCTION_DECL)
      return s->decl;
  tree fntype
    = build_function_type_list (float_type_node, float_type_node, NULL_TREE);
  tree decl = build_fn_decl (name, fntype);
  /* As neuronfuse.h declares it: no memory read or written (errno is
     set on overflow as expm1f does, but, as for GCC's own built-ins
     under -fno-math-errno, not modelled: README.md), no exception, no
     call back into the unit.  */
  TREE_READONLY (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  tree attrs = tree_cons (get_identifier ("leaf"), NULL_TREE, NULL_TREE);
  /* What the C front end's handle_simd_attribute makes of simd
     ("notinbranch"): the vector-ABI names exist for x86-64 only.  */
#ifdef __x86_64__
  if (TARGET_64BIT)
    {
      tree clause = build_omp_clause (UNKNOWN_LOCATION, OMP_CLAUSE_NOTINBRANCH);
      attrs = tree_cons (get_identifier ("omp declare simd"),
			 build_tree_list (NULL_TREE, clause), attrs);
    }
#endif
  DECL_ATTRIBUTES (decl) = attrs;
  /* In the symbol table from now on, so found again above.  */
  cgraph_node::get_create (decl);
  return decl;
}

tree
nf_mathfn_decl (const struct nf_mathfn *fn)
{
  if (!fn->rt)
    return builtin_decl_explicit (fn->to);
  return nf_runtime_fn_decl (nf_mathfn_callee (fn));
}

/* libneuronfuse's scalar functions the rewrites call, as the region IR
   models them.  */
static const struct nf_runtime_fn_entry
{
  const char *name;
  enum nf_opcode op;
} nf_runtime_fns[] = {
  { "nf_expm1f", NF_OP_EXPM1 }, { "nf_expm1f_fast", NF_OP_EXPM1 },
  { "nf_log1pf", NF_OP_LOG1P }, { "nf_log1pf_fast", NF_OP_LOG1P },
  { "nf_expf", NF_OP_EXP },
};

/* The entry of nf_runtime_fns that FNDECL is, or NULL.  */
static const struct nf_runtime_fn_entry *
nf_runtime_fn_lookup (const_tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL || !DECL_NAME (fndecl)
      || !DECL_EXTERNAL (fndecl))
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (const auto &f : nf_runtime_fns)
    if (!strcmp (name, f.name))
      return &f;
  return NULL;
}

enum nf_opcode
nf_runtime_call_op (const gimple *stmt)
{
  const gcall *call = dyn_cast<const gcall *> (stmt);
  if (!call || gimple_call_num_args (call) != 1)
    return NF_OP_COUNT_;
  const struct nf_runtime_fn_entry *f
    = nf_runtime_fn_lookup (gimple_call_fndecl (call));
  return f ? f->op : NF_OP_COUNT_;
}

bool
nf_runtime_fn_p (const_tree fndecl)
{
  return nf_runtime_fn_lookup (fndecl) != NULL;
}
