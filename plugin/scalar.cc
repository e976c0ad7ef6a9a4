/* nf-scalar: exp (x) - 1 -> expm1 (x) and log (1 + x) -> log1p (x).

   Purpose.  exp (x) - 1 loses every digit for |x| below the type's
   epsilon (exp (1e-10) - 1 is 1.000000082740371e-10 in double), and
   log (1 + x) likewise; expm1 and log1p were made for exactly this, and
   neither GCC 12 nor LLVM rewrites to them (notes/gcc-internals.md s. 5).
   Loading the plugin is the opt-in to more accurate, not bit-identical,
   results (DESIGN.md s. 4); every rewrite is reported.

   Before and after, as GIMPLE (double shown; float and long double use
   expf/expm1f, logf/log1pf, expl/expm1l, logl/log1pl):

     e_2 = exp (x_1(D));                 e_2 = expm1 (x_1(D));
     r_3 = e_2 - 1.0e+0;          ==>    r_3 = e_2 + 0.0;

     t_2 = x_1(D) + 1.0e+0;              t_2 = x_1(D) + 1.0e+0;  (dead)
     r_3 = log (t_2);             ==>    u_4 = log1p (x_1(D));
                                         r_3 = u_4 + 0.0;

   The trailing "+ 0.0" keeps the sign of a zero result as the original
   had it (exp (-0.0) - 1 is +0.0, expm1 (-0.0) is -0.0); it is not emitted
   when signed zeros need not be honoured (-ffast-math), and GCC drops it,
   nor when x is never -0 (an exp, a square: the matcher's
   input_never_minus_zero), as in softplus' log (1 + exp (x)).

   Steps (for every statement of the function):
   1. Expm1: an assignment E - 1, E + -1 or 1 - E (the last becomes
      0.0 - expm1 (x)), where E is the result of exp/expf/expl, possibly
      widened exactly by one float conversion ((double) expf (x) - 1.0).
      The C front end has already turned an integer 1 into 1.0, and
      fold canonicalises -1 + E into E - 1.
   2. Log1p: a call to log/logf/logl whose argument is X + 1 (or 1 + X,
      X - -1), possibly through one widening conversion
      (log ((double) (1.0f + xf)) becomes log1p ((double) xf)).
   3. Guards, each a `missed` reason: the exp result (or the 1 + x) has no
      other use, otherwise both values would be needed; the constant is
      exactly 1; the call cannot throw.
   Steps 1-3 are lower/'s matchers (match-scalar.c), shared with the
   libclang front end: this file builds the region IR of the statements
   around the anchor (to-ir.cc), asks the matcher, and maps its answer
   back to GIMPLE for step 4.
   4. Rewrite in place: the exp call becomes the expm1 call (its virtual
      operands, i.e. errno, stay as they were) and the subtraction
      E + 0.0 (a copy when signed zeros don't matter); the log call
      becomes a log1p call on X.  Debug binds of the old exp value are
      reset.  The dead 1 + x is left to DCE.

   Placement: two instances of this pass.  nf-scalar-early runs right
   after SSA construction, before inlining, so that a call such as
   f (1e-10) of f (x) = exp (x) - 1, inlined and constant-folded later,
   folds expm1 (1e-10) rather than the inaccurate exp (1e-10) - 1; it
   records no missed candidates.  nf-scalar runs after "sincos", once
   forwprop, reassoc and ccp may have exposed more of the idiom, and
   reports the candidates still missed (once each).  Both run outside the
   loop pipeline, which functions without loops never enter.

   Limitations:
   - exp/log only as calls to the built-ins: with -fno-builtin, through a
     function pointer, or as internal functions (.EXP under x87 fast-math)
     they are not recognised.
   - exp (x) - y for a variable y equal to 1 at run time is not rewritten.
   - Only the scalar form; loops over arrays go to the runtime's array
     kernels in the loop pass (issue 4).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"
#include "report.h"
#include "ir.h"
#include "match.h"
#include "nf-plugin.h"
#include "gcc-pass.h"
#include "to-ir.h"

/* Whether missed candidates are recorded: only by the late instance, so
   that a near miss is reported once, after GCC's scalar cleanups had
   their chance to expose the idiom.  */
static bool nf_scalar_report_missed;

/* Record a missed candidate (see nf_record_missed) from the late
   instance only.  */
static void
nf_scalar_missed (gimple *stmt, enum nf_kind kind, const char *reason)
{
  if (nf_scalar_report_missed)
    nf_record_missed (stmt, kind, reason);
}

/* Whether the built-in TO can be called and CALL cannot throw; otherwise
   record why not (for KIND, at STMT).  */
static bool
nf_can_replace (function *fun, gimple *stmt, gcall *call,
		const struct nf_mathfn *fn, enum nf_kind kind)
{
  if (!builtin_decl_explicit (fn->to))
    {
      nf_scalar_missed (stmt, kind, "the replacement function is not "
				    "available in this language mode");
      return false;
    }
  if (stmt_can_throw_internal (fun, call))
    {
      nf_scalar_missed (stmt, kind, "the call may throw an exception");
      return false;
    }
  /* A function of this unit named as the replacement (a fallback expm1
     written exp (x) - 1, as GSL's gsl_expm1 is where libm lacks one)
     would be called instead of libm's: by itself, forever, or, inlined
     elsewhere, as the same inaccurate code.  */
  tree to = DECL_ASSEMBLER_NAME (builtin_decl_explicit (fn->to));
  symtab_node *own = symtab_node::get_for_asmname (to);
  if (own && own->definition)
    {
      nf_scalar_missed (stmt, kind,
			"the unit defines the function the rewrite would "
			"call");
      return false;
    }
  return true;
}

/* Make CALL call the built-in TO instead of its current function.  */
static void
nf_retarget_call (gcall *call, enum built_in_function to)
{
  tree decl = builtin_decl_explicit (to);
  gimple_call_set_fndecl (call, decl);
  gimple_call_set_fntype (call, TREE_TYPE (decl));
}

/* Reset the debug binds that use NAME, whose value is about to change.  */
static void
nf_reset_debug_uses (tree name)
{
  imm_use_iterator it;
  gimple *use;

  FOR_EACH_IMM_USE_STMT (use, it, name)
    if (is_gimple_debug (use) && gimple_debug_bind_p (use))
      {
	gimple_debug_bind_reset_value (use);
	update_stmt (use);
      }
}

/* A report entry of a scalar region, with the storage its strings need.  */
struct nf_scalar_entry
{
  nf_region_desc d;
  char in[64], out[64];		/* Names of the input and the result.  */
  const char *ins[1], *outs[1];
  const char *notes[NF_REGION_MAX_NOTES];
};

/* Fill E for a region of KIND that replaces FN, computing OUT (of TYPE)
   from IN; its cost and notes are lower/'s nf_region_contract.  */
static void
nf_scalar_entry_init (struct nf_scalar_entry *e, enum nf_kind kind,
		      const struct nf_mathfn *fn, tree type, tree in, tree out)
{
  memset (e, 0, sizeof *e);
  e->ins[0] = nf_value_name (in, e->in, sizeof e->in);
  e->outs[0] = nf_value_name (out, e->out, sizeof e->out);
  nf_region_desc_init (&e->d, kind, fn->to_name, nf_dtype_name (type),
		       nf_dtype_name (type), e->ins, 1, e->outs, 1);
  nf_region_contract (&e->d, e->notes, kind, NF_ELEM_NONE, NF_ELEM_NONE,
		      false, false, flag_errno_math);
}

/* The built-in of FNS that CALL calls, or NULL.  */
static const struct nf_mathfn *
nf_which_fn (gcall *call, const struct nf_mathfn *fns)
{
  const struct nf_mathfn *fn = NULL;
  return nf_math_call (call, fns, &fn) ? fn : NULL;
}

/* Step 1: if the assignment at GSI is an Expm1 candidate, rewrite it or
   record why not.  Returns true if it rewrote (or reported) a region.  */
static bool
nf_try_expm1 (function *fun, gimple_stmt_iterator *gsi)
{
  gimple *stmt = gsi_stmt (*gsi);
  tree lhs = gimple_assign_lhs (stmt);
  struct nf_expr_region g;
  nf_match m;

  /* Steps 1 and 3: the shape and the guards are lower/'s matcher's.  */
  if (!nf_expr_init (&g))
    return false;
  nf_value anchor = nf_expr_expm1 (&g, stmt);
  if (anchor == NF_NO_VALUE || !nf_match_expm1 (g.r, anchor, &m))
    {
      if (anchor != NF_NO_VALUE && m.reason)
	nf_scalar_missed (stmt, NF_KIND_EXPM1, m.reason);
      nf_expr_fini (&g);
      return false;
    }
  /* The GIMPLE the match stands for.  */
  nf_value expv = nf_cluster_find_op (m.cluster, NF_OP_EXP);
  nf_value widev = nf_cluster_find_op (m.cluster, NF_OP_CONVERT);
  tree ev = nf_expr_tree (&g, expv);
  tree wide = widev != NF_NO_VALUE ? nf_expr_tree (&g, widev) : NULL_TREE;
  gcall *call = nf_as_call (SSA_NAME_DEF_STMT (ev));
  const struct nf_mathfn *fn = nf_which_fn (call, nf_exp_fns);
  bool one_minus = nf_op (g.r, anchor) == NF_OP_SUB
		   && nf_cluster_contains (m.cluster,
					   nf_op_operand (g.r, anchor, 1));
  tree x = nf_expr_tree (&g, m.input);
  bool zero_kept = m.input_never_minus_zero;
  gcc_assert (call && fn && x);
  if (!nf_can_replace (fun, stmt, call, fn, NF_KIND_EXPM1))
    {
      nf_match_release (&m);
      nf_expr_fini (&g);
      return false;
    }

  struct nf_scalar_entry entry;
  char msg[128];
  nf_scalar_entry_init (&entry, NF_KIND_EXPM1, fn, TREE_TYPE (ev), x, lhs);
  snprintf (msg, sizeof msg, "Expm1: replaced %s%s (x)%s by %s%s (x)",
	    one_minus ? "1 - " : "", fn->from_name, one_minus ? "" : " - 1",
	    one_minus ? "-" : "", fn->to_name);
  nf_record_region (stmt, &entry.d, msg, &m);
  nf_match_release (&m);
  nf_expr_fini (&g);
  if (nf_opts.mode == NF_MODE_REPORT)
    return true;

  /* Step 4.  */
  nf_reset_debug_uses (ev);
  if (wide)
    nf_reset_debug_uses (wide);
  nf_retarget_call (call, fn->to);
  update_stmt (call);
  tree v = wide ? wide : ev;
  tree type = TREE_TYPE (lhs);
  if (HONOR_SIGNED_ZEROS (type) && !zero_kept)
    {
      tree zero = build_real (type, dconst0);
      if (one_minus)
	gimple_assign_set_rhs_with_ops (gsi, MINUS_EXPR, zero, v);
      else
	gimple_assign_set_rhs_with_ops (gsi, PLUS_EXPR, v, zero);
    }
  else if (one_minus)
    gimple_assign_set_rhs_with_ops (gsi, NEGATE_EXPR, v);
  else
    gimple_assign_set_rhs_from_tree (gsi, v);
  update_stmt (gsi_stmt (*gsi));
  return true;
}

/* Step 2: if the statement at GSI is a Log1p candidate, rewrite it or
   record why not.  Returns true if it rewrote (or reported) a region.  */
static bool
nf_try_log1p (function *fun, gimple_stmt_iterator *gsi)
{
  const struct nf_mathfn *fn;
  gcall *call = nf_math_call (gsi_stmt (*gsi), nf_log_fns, &fn);
  struct nf_expr_region g;
  nf_match m;

  if (!call || !nf_expr_init (&g))
    return false;
  nf_value anchor = nf_expr_log1p (&g, call);
  if (anchor == NF_NO_VALUE || !nf_match_log1p (g.r, anchor, &m))
    {
      if (anchor != NF_NO_VALUE && m.reason)
	nf_scalar_missed (call, NF_KIND_LOG1P, m.reason);
      nf_expr_fini (&g);
      return false;
    }
  /* The GIMPLE the match stands for: the sum, and the conversion of it
     (log ((double) (1.0f + xf))) if any.  */
  tree arg = gimple_call_arg (call, 0);
  nf_value sumv = nf_op (g.r, nf_op_operand (g.r, anchor, 0)) == NF_OP_CONVERT
		    ? nf_op_operand (g.r, nf_op_operand (g.r, anchor, 0), 0)
		    : nf_op_operand (g.r, anchor, 0);
  tree sum = nf_expr_tree (&g, sumv);
  tree narrow = sum != arg ? sum : NULL_TREE;
  tree x = nf_expr_tree (&g, m.input);
  bool zero_kept = m.input_never_minus_zero;
  gimple *sum_def = SSA_NAME_DEF_STMT (sum);
  gcc_assert (x && sum);
  if (!nf_can_replace (fun, call, call, fn, NF_KIND_LOG1P))
    {
      nf_match_release (&m);
      nf_expr_fini (&g);
      return false;
    }

  tree lhs = gimple_call_lhs (call);
  struct nf_scalar_entry entry;
  char msg[128];
  nf_scalar_entry_init (&entry, NF_KIND_LOG1P, fn, TREE_TYPE (lhs), x, lhs);
  snprintf (msg, sizeof msg, "Log1p: replaced %s (1 + x) by %s (x)",
	    fn->from_name, fn->to_name);
  /* C++'s std::log (float) is an inline wrapper in <cmath>: once inlined,
     the call's location is the header's; the sum is the user's.  */
  nf_record_region (in_system_header_at (gimple_location (call)) ? sum_def
								   : call,
		    &entry.d, msg, &m);
  nf_match_release (&m);
  nf_expr_fini (&g);
  if (nf_opts.mode == NF_MODE_REPORT)
    return true;

  /* Step 4.  With a widening conversion, convert X instead of 1 + X.  */
  if (narrow)
    {
      gimple *conv = SSA_NAME_DEF_STMT (arg);
      gimple_assign_set_rhs1 (conv, x);
      update_stmt (conv);
      x = arg;
    }
  nf_retarget_call (call, fn->to);
  gimple_call_set_arg (call, 0, x);
  tree type = TREE_TYPE (lhs);
  if (HONOR_SIGNED_ZEROS (type) && !zero_kept)
    {
      tree tmp = make_ssa_name (type);
      gimple_call_set_lhs (call, tmp);
      gassign *fix
	= gimple_build_assign (lhs, PLUS_EXPR, tmp, build_real (type, dconst0));
      gimple_set_location (fix, gimple_location (call));
      gsi_insert_after (gsi, fix, GSI_SAME_STMT);
    }
  update_stmt (call);
  return true;
}

/* Run steps 1-4 over FUN.  */
static unsigned int
nf_scalar_run (function *fun)
{
  basic_block bb;
  bool changed = false;

  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if ((nf_opts.kinds & NF_KIND_EXPM1) && is_gimple_assign (stmt))
	  changed |= nf_try_expm1 (fun, &gsi);
	else if ((nf_opts.kinds & NF_KIND_LOG1P) && is_gimple_call (stmt))
	  changed |= nf_try_log1p (fun, &gsi);
      }
  /* Calls were retargeted: the call graph edges follow the callee.  */
  return changed && nf_opts.mode == NF_MODE_REWRITE
	   ? TODO_update_ssa | TODO_rebuild_cgraph_edges
	   : 0;
}

static bool
nf_scalar_gate (function *)
{
  return (nf_opts.kinds & (NF_KIND_EXPM1 | NF_KIND_LOG1P)) != 0;
}

static unsigned int
nf_scalar_execute (function *fun)
{
  nf_scalar_report_missed = true;
  return nf_scalar_run (fun);
}

/* The early instance runs before inlining and IPA constant propagation:
   once f (x) = exp (x) - 1 is inlined into a caller with a constant
   argument, ccp folds exp (1e-10) - 1 to the inaccurate constant before
   the late instance could see it.  Rewritten first, GCC folds expm1
   (1e-10) instead, exactly (MPFR).  Same gate as the late pass's
   pipeline: not at -O0 or -Og.  Not in mode=report, which changes
   nothing and so leaves every candidate to the late instance: each is
   reported once.  */
static bool
nf_scalar_early_gate (function *fun)
{
  return optimize && !optimize_debug && nf_opts.mode == NF_MODE_REWRITE
	 && nf_scalar_gate (fun);
}

static unsigned int
nf_scalar_early_execute (function *fun)
{
  nf_scalar_report_missed = false;
  return nf_scalar_run (fun);
}

NF_GIMPLE_PASS (nf_scalar, "nf-scalar", 0)
NF_GIMPLE_PASS (nf_scalar_early, "nf-scalar-early", 0)
