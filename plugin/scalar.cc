/* nf-scalar: exp (x) - 1 -> expm1 (x) and log (1 + x) -> log1p (x).

   Purpose.  exp (x) - 1 loses every digit for |x| below the type's
   epsilon (exp (1e-10) - 1 is 1.000000082740371e-10 in double), and
   log (1 + x) likewise; expm1 and log1p were made for exactly this, and
   neither GCC 12 nor LLVM rewrites to them (notes/gcc-internals.md s. 5).
   Loading the plugin is the opt-in to more accurate, not bit-identical,
   results (DESIGN.md s. 4); every rewrite is reported.

   Before and after, as GIMPLE (double shown; long double uses expl/
   expm1l, logl/log1pl; float calls libneuronfuse's nf_expm1f and
   nf_log1pf, see below):

                                         z_4 = x_1(D) + 0.0;
     e_2 = exp (x_1(D));                 e_2 = expm1 (z_4);
     r_3 = e_2 - 1.0e+0;          ==>    r_3 = e_2;

     t_2 = x_1(D) + 1.0e+0;              t_2 = x_1(D) + 1.0e+0;  (dead)
                                         z_4 = x_1(D) + 0.0;
     r_3 = log (t_2);             ==>    r_3 = log1p (z_4);

   Float: glibc's expm1f and log1pf are about 2.7x slower than expf and
   logf, which would make the rewrite cost speed (DESIGN.md section 4);
   nf_expm1f and nf_log1pf are as fast, 0.5 ulp (through double), const,
   and have vector-ABI clones, so loops around them still vectorize
   (mathfn.cc, simd.cc).  Under -ffast-math the _fast ones (1 ulp).

   The "+ 0.0" keeps the sign of a zero result as the original had it
   (exp (-0.0) - 1 is +0.0, expm1 (-0.0) is -0.0).  It is added to the
   argument (expm1 (+0) is +0), so that the call stays a tail call, and
   read back as expm1 (x) + 0.0 by the region builders (loop-ir.cc):
   the region IR, the reports and the dumps are those of the result's
   + 0.0, which 1 - exp (x) (0.0 - expm1 (x)) and a widened result keep
   as they were.  It is not emitted
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
   1b. The tanh quotient (exp (a) - 1) / (exp (a) + 1), one exp or two
      of the same a, becomes t / (t + 2) with t = expm1 (a): one call,
      where rewriting the numerator alone leaves expm1 (a) and exp (a).
      Within 2.5 ulps in float (2.496 measured over 1.4e9 inputs: t's
      0.5 ulp and two roundings, t's error doubled for a < 0), where the
      original's e - 1 cancels near 0.  For a < 0 both round a value
      near -1 (e - 1, or t) and then divide: the same bound, not the
      same result at every input.
      Tried first, in each instance (before FRE the two exps and their
      arguments are separate statements: nf_same_value compares them).
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
   - The tanh quotient is matched here on GIMPLE, not by lower/'s
     nf_match_tanh (which neuronfuse-clang uses for the same shape and
     guards), and has no HLO dump.
   - nf_expm1f is declared const: it sets errno on overflow as expm1f
     does, but GCC does not know, as for its own built-ins under
     -fno-math-errno (README.md).

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

/* Whether FN's replacement can be called and CALL cannot throw;
   otherwise record why not (for KIND, at STMT).  */
static bool
nf_can_replace (function *fun, gimple *stmt, gcall *call,
		const struct nf_mathfn *fn, enum nf_kind kind)
{
  if (!fn->rt && !builtin_decl_explicit (fn->to))
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
  tree to = get_identifier (nf_mathfn_callee (fn));
  if (!fn->rt)
    to = DECL_ASSEMBLER_NAME (builtin_decl_explicit (fn->to));
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

/* Make CALL call DECL; a const DECL's call loses its virtual operands
   (the errno that libm's call was assumed to write).  */
void
nf_call_to (gcall *call, tree decl)
{
  gimple_call_set_fndecl (call, decl);
  gimple_call_set_fntype (call, TREE_TYPE (decl));
  if (TREE_READONLY (decl) && gimple_vdef (call))
    {
      unlink_stmt_vdef (call);
      release_ssa_name (gimple_vdef (call));
      gimple_set_vdef (call, NULL_TREE);
      gimple_set_vuse (call, NULL_TREE);
    }
}

/* Make CALL call FN's replacement instead of its current function.
   libneuronfuse's is const: the call loses its virtual operands (the
   errno that libm's call was assumed to write).  */
static void
nf_retarget_call (gcall *call, const struct nf_mathfn *fn)
{
  nf_call_to (call, nf_mathfn_decl (fn));
}

/* Make the argument x of CALL, an expm1 or log1p, x + 0.0 computed just
   before it: the +0 the original gave for x = -0 (exp (-0) - 1, log (1 +
   -0)), with the call's result its own.  */
static void
nf_zero_first (gcall *call)
{
  tree x = gimple_call_arg (call, 0);
  tree type = TREE_TYPE (x);
  tree t = make_ssa_name (type);
  gassign *add = gimple_build_assign (t, PLUS_EXPR, x,
				      build_real (type, dconst0));
  gimple_set_location (add, gimple_location (call));
  gimple_stmt_iterator at = gsi_for_stmt (call);
  gsi_insert_before (&at, add, GSI_SAME_STMT);
  gimple_call_set_arg (call, 0, t);
  update_stmt (call);
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
  char in[96], out[96];		/* Names of the input and the result.  */
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
  e->ins[0] = nf_source_name (in, e->in, sizeof e->in);
  e->outs[0] = nf_source_name (out, e->out, sizeof e->out);
  nf_region_desc_init (&e->d, kind, nf_mathfn_callee (fn),
		       nf_dtype_name (type),
		       nf_dtype_name (type), e->ins, 1, e->outs, 1);
  /* The element type sizes the cost: one operand read, one result
     written, as a tensor op (the tool passes its type alike).  */
  enum nf_elem elem = nf_elem_of (type);
  nf_region_contract (&e->d, e->notes, kind, elem, elem, false, false,
		      flag_errno_math);
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
	    one_minus ? "-" : "", nf_mathfn_callee (fn));
  nf_record_region (stmt, &entry.d, msg, &m);
  nf_match_release (&m);
  nf_expr_fini (&g);
  if (nf_opts.mode == NF_MODE_REPORT)
    return true;

  /* Step 4.  */
  nf_reset_debug_uses (ev);
  if (wide)
    nf_reset_debug_uses (wide);
  nf_retarget_call (call, fn);
  update_stmt (call);
  tree v = wide ? wide : ev;
  tree type = TREE_TYPE (lhs);
  if (HONOR_SIGNED_ZEROS (type) && !zero_kept && !one_minus && !wide)
    {
      /* expm1 (x + 0.0), not expm1 (x) + 0.0: the same value for every
	 x (only -0 changes, to +0, and expm1 (+0) is +0), and the call
	 stays in tail position (a function returning exp (v) - 1 jumps to
	 nf_expm1f).  The region builders read it as expm1 (x) + 0.0.  */
      nf_zero_first (call);
      gimple_assign_set_rhs_from_tree (gsi, v);
    }
  else if (HONOR_SIGNED_ZEROS (type) && !zero_kept)
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
	    fn->from_name, nf_mathfn_callee (fn));
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
  nf_retarget_call (call, fn);
  gimple_call_set_arg (call, 0, x);
  tree type = TREE_TYPE (lhs);
  /* log1p (x + 0.0) rather than log1p (x) + 0.0, as for expm1.  */
  if (HONOR_SIGNED_ZEROS (type) && !zero_kept)
    nf_zero_first (call);
  update_stmt (call);
  return true;
}

/* The exp call of an exp family function whose result E gives T = E + K
   (K = 1 or -1: E + 1, 1 + E, E - -1 for 1; E - 1, E + -1 for -1), or
   NULL; *FN is its family.  */
static gcall *
nf_exp_plus (tree t, int k, const struct nf_mathfn **fn)
{
  gimple *d = TREE_CODE (t) == SSA_NAME ? SSA_NAME_DEF_STMT (t) : NULL;
  if (!d || !is_gimple_assign (d))
    return NULL;
  enum tree_code code = gimple_assign_rhs_code (d);
  tree a = gimple_assign_rhs1 (d), b = gimple_assign_rhs2 (d);
  REAL_VALUE_TYPE one = k > 0 ? dconst1 : dconstm1;
  REAL_VALUE_TYPE minus = k > 0 ? dconstm1 : dconst1;
  auto is = [] (tree c, const REAL_VALUE_TYPE &v) {
    return c && TREE_CODE (c) == REAL_CST
	   && real_identical (TREE_REAL_CST_PTR (c), &v);
  };
  tree e = NULL_TREE;
  if (code == PLUS_EXPR)
    e = is (b, one) ? a : is (a, one) ? b : NULL_TREE;
  else if (code == MINUS_EXPR)
    e = is (b, minus) ? a : NULL_TREE;
  if (!e || TREE_CODE (e) != SSA_NAME)
    return NULL;
  return nf_math_call (SSA_NAME_DEF_STMT (e), nf_exp_fns, fn);
}

/* Whether the memory states VA and VB (virtual operands) are the same,
   or differ only by exp or log calls, whose one write is errno (as
   expf (2 * x[i]) between two loads of x[i]).  */
static bool
nf_same_memory (tree va, tree vb)
{
  if (va == vb)
    return true;
  for (int dir = 0; dir < 2; dir++)
    {
      tree v = dir ? va : vb, to = dir ? vb : va;
      for (int k = 0; k < 8 && v; k++)
	{
	  if (v == to)
	    return true;
	  gimple *d = TREE_CODE (v) == SSA_NAME ? SSA_NAME_DEF_STMT (v) : NULL;
	  const struct nf_mathfn *fn;
	  if (!d || (!nf_math_call (d, nf_exp_fns, &fn)
		     && !nf_math_call (d, nf_log_fns, &fn)))
	    break;
	  v = gimple_vuse (d);
	}
    }
  return false;
}

/* Whether A and B have the same value: one SSA name, or two statements
   of the same operation on operands of the same value, loads of the
   same memory state included (a[i] * 2 written twice, as before FRE);
   DEPTH levels deep at most.  */
static bool
nf_same_value (tree a, tree b, int depth = 8)
{
  if (operand_equal_p (a, b, 0))
    return true;
  if (depth == 0 || TREE_CODE (a) != TREE_CODE (b)
      || !types_compatible_p (TREE_TYPE (a), TREE_TYPE (b)))
    return false;
  if (TREE_CODE (a) == MEM_REF)
    return nf_same_value (TREE_OPERAND (a, 0), TREE_OPERAND (b, 0), depth - 1)
	   && operand_equal_p (TREE_OPERAND (a, 1), TREE_OPERAND (b, 1), 0);
  if (TREE_CODE (a) == ARRAY_REF)
    return operand_equal_p (TREE_OPERAND (a, 0), TREE_OPERAND (b, 0), 0)
	   && nf_same_value (TREE_OPERAND (a, 1), TREE_OPERAND (b, 1),
			     depth - 1);
  gimple *da = TREE_CODE (a) == SSA_NAME ? SSA_NAME_DEF_STMT (a) : NULL;
  gimple *db = TREE_CODE (b) == SSA_NAME ? SSA_NAME_DEF_STMT (b) : NULL;
  if (!da || !db || !is_gimple_assign (da) || !is_gimple_assign (db)
      || !nf_same_memory (gimple_vuse (da), gimple_vuse (db)) || gimple_vdef (da)
      || gimple_vdef (db) || gimple_has_volatile_ops (da)
      || gimple_has_volatile_ops (db)
      || gimple_assign_rhs_code (da) != gimple_assign_rhs_code (db)
      || gimple_num_ops (da) != gimple_num_ops (db))
    return false;
  for (unsigned i = 1; i < gimple_num_ops (da); i++)
    if (!nf_same_value (gimple_op (da, i), gimple_op (db, i), depth - 1))
      return false;
  return true;
}

/* The number of uses of NAME other than debug binds.  */
static int
nf_real_uses (tree name)
{
  int n = 0;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, name)
    n += !is_gimple_debug (USE_STMT (use));
  return n;
}

/* Whether A comes before B in their (common) block.  */
static bool
nf_stmt_before (gimple *a, gimple *b)
{
  if (gimple_bb (a) != gimple_bb (b))
    return false;
  for (gimple_stmt_iterator gsi = gsi_for_stmt (a); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (gsi_stmt (gsi) == b)
      return true;
  return false;
}

/* Step 1b: the tanh quotient Q = (exp (a) - 1) / (exp (a) + 1) at GSI
   (tanh (a / 2) as people write it, with one exp or two of the same a)
   becomes t / (t + 2) with t = expm1 (a): exp (a) computed once, and
   accurate where exp (a) - 1 cancels.  Returns true if it rewrote (or
   reported) the quotient; its numerator then goes in TAKEN, so that
   mode=report does not report it a second time as an Expm1.  */
static bool
nf_try_tanh (function *fun, gimple_stmt_iterator *gsi,
	     hash_set<gimple *> *taken)
{
  gimple *q = gsi_stmt (*gsi);
  if (!is_gimple_assign (q) || gimple_assign_rhs_code (q) != RDIV_EXPR
      || !SCALAR_FLOAT_TYPE_P (TREE_TYPE (gimple_assign_lhs (q))))
    return false;
  tree num = gimple_assign_rhs1 (q), den = gimple_assign_rhs2 (q);
  const struct nf_mathfn *fn, *fn2;
  gcall *c1 = nf_exp_plus (num, -1, &fn);
  gcall *c2 = nf_exp_plus (den, 1, &fn2);
  if (!c1 || !c2 || fn != fn2
      || !nf_same_value (gimple_call_arg (c1, 0), gimple_call_arg (c2, 0)))
    return false;
  tree e1 = gimple_call_lhs (c1), e2 = gimple_call_lhs (c2);
  gimple *nd = SSA_NAME_DEF_STMT (num), *dd = SSA_NAME_DEF_STMT (den);
  /* Nothing else uses the exps or the two terms; the divisor can be
     computed from t where it is.  */
  if (nf_real_uses (num) != 1 || nf_real_uses (den) != 1
      || nf_real_uses (e1) != (e1 == e2 ? 2 : 1)
      || (e1 != e2 && nf_real_uses (e2) != 1)
      || gimple_bb (nd) != gimple_bb (q) || gimple_bb (dd) != gimple_bb (q)
      || gimple_bb (c1) != gimple_bb (q) || gimple_bb (c2) != gimple_bb (q)
      || !nf_stmt_before (c1, dd))
    return false;
  taken->add (nd);
  if (!nf_can_replace (fun, q, c1, fn, NF_KIND_EXPM1))
    return true;

  tree a = gimple_call_arg (c1, 0), lhs = gimple_assign_lhs (q);
  tree type = TREE_TYPE (e1);
  struct nf_scalar_entry entry;
  char msg[160];
  nf_scalar_entry_init (&entry, NF_KIND_EXPM1, fn, type, a, lhs);
  snprintf (msg, sizeof msg,
	    "Expm1: replaced (%s (x) - 1) / (%s (x) + 1) by t / (t + 2), "
	    "t = %s (x)",
	    fn->from_name, fn->from_name, nf_mathfn_callee (fn));
  nf_record_region (q, &entry.d, msg, NULL);
  if (nf_opts.mode == NF_MODE_REPORT)
    return true;

  /* t = expm1 (a) in E1's name; the second exp, if any, goes.  */
  nf_reset_debug_uses (e1);
  nf_retarget_call (c1, fn);
  update_stmt (c1);
  if (e2 != e1)
    {
      nf_reset_debug_uses (e2);
      gimple_stmt_iterator g2 = gsi_for_stmt (c2);
      unlink_stmt_vdef (c2);
      gsi_remove (&g2, true);
      release_defs (c2);
    }
  /* The numerator keeps the original's +0 for a = -0 (1 - 1).  */
  gimple_stmt_iterator gn = gsi_for_stmt (nd);
  if (HONOR_SIGNED_ZEROS (type))
    gimple_assign_set_rhs_with_ops (&gn, PLUS_EXPR, e1,
				    build_real (type, dconst0));
  else
    gimple_assign_set_rhs_from_tree (&gn, e1);
  update_stmt (gsi_stmt (gn));
  gimple_stmt_iterator gd = gsi_for_stmt (dd);
  REAL_VALUE_TYPE two;
  real_from_integer (&two, TYPE_MODE (type), 2, SIGNED);
  gimple_assign_set_rhs_with_ops (&gd, PLUS_EXPR, e1, build_real (type, two));
  update_stmt (gsi_stmt (gd));
  return true;
}

/* Step 5, early instance: a float expf left in a loop that now calls
   libneuronfuse's nf_expm1f or nf_log1pf (softplus' log1p (expf (x)))
   would keep the loop scalar (libm's expf has no clones outside
   -ffast-math): it calls nf_expf instead, no less accurate (0.5 ulp +
   2^-29 against glibc's 0.502) and with vector clones, declared here
   before IPA.  Returns true if it changed FUN.  */
static bool
nf_scalar_companions (function *fun)
{
  basic_block bb;
  auto_bitmap loops;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi)) && bb->loop_father
	  && bb->loop_father->num != 0
	  && nf_runtime_call_op (gsi_stmt (gsi)) != NF_OP_COUNT_)
	bitmap_set_bit (loops, bb->loop_father->num);
  if (bitmap_empty_p (loops))
    return false;
  bool changed = false;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = nf_as_call (gsi_stmt (gsi));
	if (call && bb->loop_father
	    && bitmap_bit_p (loops, bb->loop_father->num))
	  changed |= nf_expf_to_runtime (fun, call, true);
      }
  return changed;
}

bool
nf_expf_to_runtime (function *fun, gcall *call, bool clones)
{
  if (!gimple_call_builtin_p (call, BUILT_IN_EXPF) || !gimple_call_lhs (call)
      || stmt_can_throw_internal (fun, call))
    return false;
  tree decl = nf_runtime_fn_decl ("nf_expf");
  if (symtab_node *own = symtab_node::get (decl))
    if (own->definition)
      return false;
  nf_call_to (call, decl);
  update_stmt (call);
  nf_remark_optimized (call, clones ? "Elementwise: expf in a loop calling "
				      "libneuronfuse replaced by nf_expf (0.5 "
				      "ulp, vector clones)"
				    : "Elementwise: expf in a loop calling "
				      "libneuronfuse replaced by nf_expf (0.5 "
				      "ulp)");
  return true;
}

/* Run steps 1-4 over FUN.  */
static unsigned int
nf_scalar_run (function *fun)
{
  basic_block bb;
  bool changed = false;

  /* The tanh quotients first: their exp (a) - 1 is theirs.  */
  hash_set<gimple *> taken;
  if (nf_opts.kinds & NF_KIND_EXPM1)
    FOR_EACH_BB_FN (bb, fun)
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	changed |= nf_try_tanh (fun, &gsi, &taken);
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (taken.contains (stmt))
	  continue;
	if ((nf_opts.kinds & NF_KIND_EXPM1) && is_gimple_assign (stmt))
	  changed |= nf_try_expm1 (fun, &gsi);
	else if ((nf_opts.kinds & NF_KIND_LOG1P) && is_gimple_call (stmt))
	  changed |= nf_try_log1p (fun, &gsi);
      }
  if (!nf_scalar_report_missed && !nf_fast_math_p ()
      && (nf_opts.kinds & (NF_KIND_EXPM1 | NF_KIND_LOG1P)))
    changed |= nf_scalar_companions (fun);
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
