/* names.cc: name a GIMPLE value after the source, for the report.

   Purpose.  The report's "live_ins" and "live_outs" are read by people
   who know the C source, not GCC's SSA form: "_19" or "s_2(D)" names
   nothing they wrote.  neuronfuse-clang names values by their source
   text; the plugin has only GIMPLE, so it rebuilds C from it.

   Examples (GIMPLE on the left, the name on the right):

     x_3(D)                                   x
     s$w_7 (SRA part, DECL_DEBUG_EXPR s.w)     s.w
     _4 = *_3; _3 = x_1(D) + _2;
       _2 = _1 * 4; _1 = (sizetype) i_9       x[i]
     _13 = s_2(D)->w                          s->w
     _6 = p_1(D) + _5; _5 = _4 * 8;
       _7 = MEM[(float *)_6 + 4B]             p[2 * i + 1]
     _3 = i_1 * 2; _4 = _3 + 1; _5 = *(x + _4 * 4)
                                              x[2 * i + 1]
     _19 = .SQRT (s_8); *norm_4(D) = _19      *norm
     _5 = _4 - 1.0e+0; _4 = expf (x_2(D));
       return _5                              expf (x) - 1.0f

   Steps (nf_source_name):
   1. A value of a user variable (SSA_NAME_VAR named, neither ignored
      nor artificial, no '.' or '$' in its name) is that variable; an SRA
      part is its DECL_DEBUG_EXPR, printed as C.
   2. A load is its reference printed as C: a MEM_REF walks the
      POINTER_PLUS_EXPRs back to the base pointer, dividing each offset
      by the element size (a multiply by a multiple of it, a sum of such,
      a constant) into the index; COMPONENT_REF and ARRAY_REF as written.
      SSA names inside are named recursively (steps 1, 2 and 4).
   3. A value with no variable is named after where it goes: the
      reference a store writes it to, or the variable of a PHI or a
      conversion that takes it.
   4. Failing that, the expression that computes it: operators, calls
      (internal functions by their libm name), constants as C literals;
      conversions are left out (mostly implicit in C); NF_NAME_DEPTH
      definitions deep, then "...".

   Limitations: conversions are never shown, so `(double) x * x` reads
   `x * x`; a TARGET_MEM_REF, a bit-field or a COND_EXPR is not printed
   (its part reads "..."); the name is not the source's spelling (the
   tool prints `1.0`, we print the constant's value) and may be the same
   for two different values: it is for people, never for deciding
   anything.  Nothing here returns a GCC SSA name ("_5", "x_3(D)").

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-plugin.h"

/* A name cut short by its buffer is retried shallower (nf_source_name):
   truncation is expected, not a bug.  */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* How many definitions step 4 expands before writing "...".  */
#define NF_NAME_DEPTH 4

/* Precedences of what the printers write (C's, coarsely): a name, call
   or reference; a unary minus or a dereference; * and /; + and -.  0 is
   "could not print".  */
enum
{
  NF_P_FAIL,
  NF_P_ADD,
  NF_P_MUL,
  NF_P_UNARY,
  NF_P_PRIMARY
};

static int nf_name_value (tree t, int depth, char *buf, size_t size);
static int nf_name_ref (tree ref, int depth, char *buf, size_t size);

/* Print T into BUF of SIZE, in parentheses when what it printed binds
   less tightly than PREC; "..." when it could not be printed.  */
static void
nf_name_operand (tree t, int depth, int prec, char *buf, size_t size)
{
  char tmp[128];
  int p = nf_name_value (t, depth, tmp, sizeof tmp);
  if (p == NF_P_FAIL)
    snprintf (buf, size, "...");
  else if (p < prec)
    snprintf (buf, size, "(%s)", tmp);
  else
    snprintf (buf, size, "%s", tmp);
}

/* The user's name of the declaration VAR in BUF, or NF_P_FAIL for a
   compiler temporary.  An SRA part is printed as its debug expression
   (at DEPTH).  */
static int
nf_name_decl (tree var, int depth, char *buf, size_t size)
{
  if (VAR_P (var) && DECL_HAS_DEBUG_EXPR_P (var) && depth > 0)
    return nf_name_ref (DECL_DEBUG_EXPR (var), depth - 1, buf, size);
  if (!DECL_NAME (var))
    return NF_P_FAIL;
  const char *s = IDENTIFIER_POINTER (DECL_NAME (var));
  /* C++'s this is artificial, and a name the user wrote.  */
  bool is_this = strcmp (s, "this") == 0;
  if ((DECL_IGNORED_P (var) || DECL_ARTIFICIAL (var)) && !is_this)
    return NF_P_FAIL;
  if (strpbrk (s, ".$"))
    return NF_P_FAIL; /* D.1234, s.0: gimplifier temporaries.  */
  snprintf (buf, size, "%s", s);
  return NF_P_PRIMARY;
}

/* The C suffix of a libm function or a constant of the floating TYPE.  */
static const char *
nf_name_fsuffix (tree type)
{
  if (!SCALAR_FLOAT_TYPE_P (type))
    return "";
  if (TYPE_PRECISION (type) <= 32)
    return "f";
  return TYPE_PRECISION (type) > 64 ? "l" : "";
}

/* The REAL_CST T as the shortest C literal that reads back as its value
   (as double), with its type's suffix: 1.0f, 0.5, 1e-05.  */
static int
nf_name_real (tree t, char *buf, size_t size)
{
  char dec[64], s[48];
  real_to_decimal (dec, TREE_REAL_CST_PTR (t), sizeof dec, 0, 1);
  double d = strtod (dec, NULL);
  bool narrow = TYPE_PRECISION (TREE_TYPE (t)) <= 32;
  for (int digits = 1; digits <= 17; digits++)
    {
      snprintf (s, sizeof s, "%.*g", digits, d);
      double back = strtod (s, NULL);
      if (narrow ? (float) back == (float) d : back == d)
	break;
    }
  if (!strpbrk (s, ".eEni"))
    strcat (s, ".0"); /* 1 -> 1.0: a floating literal.  */
  const char *sfx = nf_name_fsuffix (TREE_TYPE (t));
  snprintf (buf, size, "%s%s", s, TYPE_PRECISION (TREE_TYPE (t)) > 64 ? "L"
				  : *sfx ? "f" : "");
  return d < 0 ? NF_P_UNARY : NF_P_PRIMARY;
}

/* The byte offset OFF as an index of elements of ESZ bytes (OFF / ESZ)
   in BUF: a constant, a multiply by a multiple of ESZ, a sum or
   difference of such, through conversions.  NF_P_FAIL otherwise.  */
static int
nf_name_index (tree off, HOST_WIDE_INT esz, int depth, char *buf,
	       size_t size)
{
  if (TREE_CODE (off) == INTEGER_CST)
    {
      if (!tree_fits_shwi_p (off) || tree_to_shwi (off) % esz)
	return NF_P_FAIL;
      HOST_WIDE_INT k = tree_to_shwi (off) / esz;
      snprintf (buf, size, HOST_WIDE_INT_PRINT_DEC, k);
      return k < 0 ? NF_P_UNARY : NF_P_PRIMARY;
    }
  if (esz == 1)
    return nf_name_value (off, depth, buf, size);
  if (TREE_CODE (off) != SSA_NAME || depth <= 0)
    return NF_P_FAIL;
  gimple *def = SSA_NAME_DEF_STMT (off);
  if (!is_gimple_assign (def))
    return NF_P_FAIL;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree a = gimple_assign_rhs1 (def);
  if (CONVERT_EXPR_CODE_P (code))
    return nf_name_index (a, esz, depth, buf, size);
  if (get_gimple_rhs_class (code) != GIMPLE_BINARY_RHS)
    return NF_P_FAIL;
  tree b = gimple_assign_rhs2 (def);
  char l[128], r[128];
  if (code == MULT_EXPR && TREE_CODE (b) == INTEGER_CST
      && tree_fits_shwi_p (b) && tree_to_shwi (b) % esz == 0)
    {
      HOST_WIDE_INT k = tree_to_shwi (b) / esz;
      if (k == 1)
	return nf_name_value (a, depth - 1, buf, size);
      nf_name_operand (a, depth - 1, NF_P_MUL, l, sizeof l);
      snprintf (buf, size, HOST_WIDE_INT_PRINT_DEC " * %s", k, l);
      return NF_P_MUL;
    }
  if (code != PLUS_EXPR && code != MINUS_EXPR)
    return NF_P_FAIL;
  int pl = nf_name_index (a, esz, depth - 1, l, sizeof l);
  int pr = nf_name_index (b, esz, depth - 1, r, sizeof r);
  if (pl == NF_P_FAIL || pr == NF_P_FAIL)
    return NF_P_FAIL;
  if (code == PLUS_EXPR && r[0] == '-')
    snprintf (buf, size, "%s - %s", l, r + 1); /* i + -1 reads i - 1.  */
  else
    snprintf (buf, size, pr <= NF_P_ADD && code == MINUS_EXPR ? "%s %c (%s)"
							       : "%s %c %s",
	      l, code == PLUS_EXPR ? '+' : '-', r);
  return NF_P_ADD;
}

/* The MEM_REF REF as C: BASE[INDEX] after walking the pointer
   arithmetic back to a base (step 2), or *P.  */
static int
nf_name_mem (tree ref, int depth, char *buf, size_t size)
{
  tree ptr = TREE_OPERAND (ref, 0);
  HOST_WIDE_INT esz = int_size_in_bytes (TREE_TYPE (ref));
  char index[160] = "", term[128], base[128];
  if (esz <= 0)
    return NF_P_FAIL;
  for (int k = 0; k < 4 && TREE_CODE (ptr) == SSA_NAME; k++)
    {
      tree var = SSA_NAME_VAR (ptr);
      if (var && DECL_P (var)
	  && nf_name_decl (var, depth, base, sizeof base) != NF_P_FAIL)
	break;
      gimple *def = SSA_NAME_DEF_STMT (ptr);
      if (!is_gimple_assign (def))
	break;
      enum tree_code code = gimple_assign_rhs_code (def);
      if (CONVERT_EXPR_CODE_P (code)
	  && POINTER_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (def))))
	{
	  ptr = gimple_assign_rhs1 (def);
	  continue;
	}
      if (code != POINTER_PLUS_EXPR
	  || nf_name_index (gimple_assign_rhs2 (def), esz, depth, term,
			    sizeof term) == NF_P_FAIL)
	break;
      size_t len = strlen (index);
      snprintf (index + len, sizeof index - len, "%s%s", len ? " + " : "",
		term);
      ptr = gimple_assign_rhs1 (def);
    }
  tree off = TREE_OPERAND (ref, 1);
  if (!integer_zerop (off))
    {
      if (!tree_fits_shwi_p (off) || tree_to_shwi (off) % esz)
	return NF_P_FAIL;
      HOST_WIDE_INT k = tree_to_shwi (off) / esz;
      size_t len = strlen (index);
      if (!len)
	snprintf (index, sizeof index, HOST_WIDE_INT_PRINT_DEC, k);
      else
	snprintf (index + len, sizeof index - len,
		  k < 0 ? " - " HOST_WIDE_INT_PRINT_DEC
			: " + " HOST_WIDE_INT_PRINT_DEC,
		  k < 0 ? -k : k);
    }
  if (!index[0])
    {
      nf_name_operand (ptr, depth, NF_P_UNARY, base, sizeof base);
      snprintf (buf, size, "*%s", base);
      return NF_P_UNARY;
    }
  nf_name_operand (ptr, depth, NF_P_PRIMARY, base, sizeof base);
  snprintf (buf, size, "%s[%s]", base, index);
  return NF_P_PRIMARY;
}

/* The reference REF (a MEM_REF, COMPONENT_REF, ARRAY_REF or a
   declaration) as C in BUF.  */
static int
nf_name_ref (tree ref, int depth, char *buf, size_t size)
{
  char base[160], idx[128];
  switch (TREE_CODE (ref))
    {
    case MEM_REF:
      return nf_name_mem (ref, depth, buf, size);
    case COMPONENT_REF:
      {
	tree obj = TREE_OPERAND (ref, 0), field = TREE_OPERAND (ref, 1);
	if (!DECL_NAME (field))
	  return NF_P_FAIL;
	const char *f = IDENTIFIER_POINTER (DECL_NAME (field));
	if (TREE_CODE (obj) == MEM_REF && integer_zerop (TREE_OPERAND (obj, 1)))
	  {
	    nf_name_operand (TREE_OPERAND (obj, 0), depth, NF_P_PRIMARY, base,
			     sizeof base);
	    snprintf (buf, size, "%s->%s", base, f);
	  }
	else if (nf_name_ref (obj, depth, base, sizeof base) == NF_P_PRIMARY)
	  snprintf (buf, size, "%s.%s", base, f);
	else
	  return NF_P_FAIL;
	return NF_P_PRIMARY;
      }
    case ARRAY_REF:
      {
	int p = nf_name_ref (TREE_OPERAND (ref, 0), depth, base, sizeof base);
	if (p == NF_P_FAIL)
	  return NF_P_FAIL;
	nf_name_operand (TREE_OPERAND (ref, 1), depth, NF_P_ADD, idx,
			 sizeof idx);
	snprintf (buf, size, p < NF_P_PRIMARY ? "(%s)[%s]" : "%s[%s]", base,
		  idx);
	return NF_P_PRIMARY;
      }
    case VAR_DECL:
    case PARM_DECL:
    case RESULT_DECL:
      return nf_name_decl (ref, depth, buf, size);
    default:
      return NF_P_FAIL;
    }
}

/* The C operator of the binary CODE and its precedence, or NULL.  */
static const char *
nf_name_binop (enum tree_code code, int *prec)
{
  *prec = NF_P_ADD;
  switch (code)
    {
    case PLUS_EXPR:
    case POINTER_PLUS_EXPR:
      return "+";
    case MINUS_EXPR:
      return "-";
    default:
      break;
    }
  *prec = NF_P_MUL;
  switch (code)
    {
    case MULT_EXPR:
      return "*";
    case RDIV_EXPR:
    case TRUNC_DIV_EXPR:
    case EXACT_DIV_EXPR:
      return "/";
    default:
      return NULL;
    }
}

/* The call G as C: its function's name (an internal function by its
   libm name, .SQRT on float as sqrtf) and its arguments.  */
static int
nf_name_call (gimple *g, int depth, char *buf, size_t size)
{
  char fn[64], arg[128];
  tree type = gimple_call_lhs (g) ? TREE_TYPE (gimple_call_lhs (g))
				  : void_type_node;
  if (gimple_call_internal_p (g))
    {
      const char *s = internal_fn_name (gimple_call_internal_fn (g));
      size_t i = 0;
      for (; s[i] && i + 4 < sizeof fn; i++)
	fn[i] = TOLOWER (s[i]);
      fn[i] = '\0';
      strcat (fn, nf_name_fsuffix (type));
    }
  else if (tree decl = gimple_call_fndecl (g))
    {
      const char *s = IDENTIFIER_POINTER (DECL_NAME (decl));
      if (startswith (s, "__builtin_"))
	s += strlen ("__builtin_");
      snprintf (fn, sizeof fn, "%s", s);
    }
  else
    return NF_P_FAIL;
  size_t len = snprintf (buf, size, "%s (", fn);
  for (unsigned i = 0; i < gimple_call_num_args (g) && len < size; i++)
    {
      nf_name_operand (gimple_call_arg (g, i), depth, NF_P_ADD, arg,
		       sizeof arg);
      len += snprintf (buf + len, size - len, "%s%s", i ? ", " : "", arg);
    }
  if (len < size)
    snprintf (buf + len, size - len, ")");
  return NF_P_PRIMARY;
}

/* The expression of the definition G (step 4) in BUF.  */
static int
nf_name_def (gimple *g, int depth, char *buf, size_t size)
{
  char a[128], b[128];
  if (is_gimple_call (g))
    return nf_name_call (g, depth, buf, size);
  if (gimple_code (g) == GIMPLE_PHI)
    {
      /* cdce's diamond: .SQRT (s) and sqrtf (s) joined read sqrtf (s).
	 A constant arm is a case folded away (sqrt (0.0) where the loop
	 ran no time): the others name the value.  */
      int p = NF_P_FAIL;
      for (unsigned i = 0; i < gimple_phi_num_args (g); i++)
	{
	  tree arg = gimple_phi_arg_def (g, i);
	  if (CONSTANT_CLASS_P (arg))
	    continue;
	  int q = nf_name_value (arg, depth, b, sizeof b);
	  if (q == NF_P_FAIL || (p != NF_P_FAIL && strcmp (a, b) != 0))
	    return NF_P_FAIL;
	  memcpy (a, b, sizeof a);
	  p = q;
	}
      if (p != NF_P_FAIL)
	snprintf (buf, size, "%s", a);
      return p;
    }
  if (!is_gimple_assign (g))
    return NF_P_FAIL;
  enum tree_code code = gimple_assign_rhs_code (g);
  tree x = gimple_assign_rhs1 (g);
  switch (get_gimple_rhs_class (code))
    {
    case GIMPLE_SINGLE_RHS:
      return nf_name_value (x, depth, buf, size);
    case GIMPLE_UNARY_RHS:
      if (CONVERT_EXPR_CODE_P (code) || code == FLOAT_EXPR
	  || code == FIX_TRUNC_EXPR || code == PAREN_EXPR)
	return nf_name_value (x, depth, buf, size);
      if (code == NEGATE_EXPR)
	{
	  nf_name_operand (x, depth, NF_P_UNARY, a, sizeof a);
	  snprintf (buf, size, "-%s", a);
	  return NF_P_UNARY;
	}
      if (code == ABS_EXPR)
	{
	  nf_name_operand (x, depth, NF_P_ADD, a, sizeof a);
	  snprintf (buf, size, "%sabs%s (%s)",
		    SCALAR_FLOAT_TYPE_P (TREE_TYPE (x)) ? "f" : "",
		    nf_name_fsuffix (TREE_TYPE (x)), a);
	  return NF_P_PRIMARY;
	}
      return NF_P_FAIL;
    case GIMPLE_BINARY_RHS:
      {
	int prec;
	const char *op = nf_name_binop (code, &prec);
	if (!op)
	  return NF_P_FAIL;
	tree y = gimple_assign_rhs2 (g);
	/* The scalar rewrite's x + 0.0 (scalar.cc: the sign of a zero) is
	   x in the source.  */
	if (code == PLUS_EXPR && TREE_CODE (y) == REAL_CST
	    && real_equal (TREE_REAL_CST_PTR (y), &dconst0))
	  return nf_name_value (x, depth, buf, size);
	/* GIMPLE puts a constant factor second; C code writes 2 * i.  */
	if (code == MULT_EXPR && CONSTANT_CLASS_P (y) && !CONSTANT_CLASS_P (x))
	  std::swap (x, y);
	nf_name_operand (x, depth, prec, a, sizeof a);
	/* The right operand of - or / binds tighter: a - (b + c).  */
	nf_name_operand (y, depth, prec + 1, b, sizeof b);
	snprintf (buf, size, "%s %s %s", a, op, b);
	return prec;
      }
    default:
      return NF_P_FAIL;
    }
}

/* What one nf_source_name may still print: loads cost no depth, so a
   pointer chased around a loop's PHI would otherwise never end.  */
static int nf_name_budget;

/* The value T as C in BUF (steps 1, 2 and 4); returns its precedence.  */
static int
nf_name_value (tree t, int depth, char *buf, size_t size)
{
  if (--nf_name_budget < 0)
    return NF_P_FAIL;
  switch (TREE_CODE (t))
    {
    case SSA_NAME:
      {
	tree var = SSA_NAME_VAR (t);
	int p;
	if (var && DECL_P (var)
	    && (p = nf_name_decl (var, depth, buf, size)) != NF_P_FAIL)
	  return p;
	if (SSA_NAME_IS_DEFAULT_DEF (t))
	  return NF_P_FAIL;
	gimple *def = SSA_NAME_DEF_STMT (t);
	/* A conversion costs no depth, (sizetype) i is i; nor does a load,
	   a leaf of the source's expression (x[i], s->w).  */
	if (is_gimple_assign (def)
	    && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def)))
	  return nf_name_value (gimple_assign_rhs1 (def), depth, buf, size);
	if (gimple_assign_load_p (def))
	  return nf_name_ref (gimple_assign_rhs1 (def), MAX (depth, 2), buf,
			      size);
	if (depth <= 0)
	  {
	    snprintf (buf, size, "...");
	    return NF_P_PRIMARY;
	  }
	return nf_name_def (def, depth - 1, buf, size);
      }
    case INTEGER_CST:
      if (!tree_fits_shwi_p (t))
	return NF_P_FAIL;
      snprintf (buf, size, HOST_WIDE_INT_PRINT_DEC, tree_to_shwi (t));
      return tree_int_cst_sgn (t) < 0 ? NF_P_UNARY : NF_P_PRIMARY;
    case REAL_CST:
      return nf_name_real (t, buf, size);
    case ADDR_EXPR:
      {
	char r[160];
	tree ref = TREE_OPERAND (t, 0);
	/* &a[0] is the array a, as C's decay writes it.  */
	if (TREE_CODE (ref) == ARRAY_REF && integer_zerop (TREE_OPERAND (ref, 1)))
	  return nf_name_ref (TREE_OPERAND (ref, 0), depth, buf, size);
	if (nf_name_ref (ref, depth, r, sizeof r) == NF_P_FAIL)
	  return NF_P_FAIL;
	snprintf (buf, size, "&%s", r);
	return NF_P_UNARY;
      }
    default:
      return nf_name_ref (t, depth, buf, size);
    }
}

/* Step 3: where the SSA name T goes, in BUF; NF_P_FAIL when none of
   its uses names it.  */
static int
nf_name_dest (tree t, int depth, char *buf, size_t size)
{
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, t)
    {
      gimple *u = USE_STMT (use);
      tree lhs = NULL_TREE;
      if (gimple_code (u) == GIMPLE_PHI)
	lhs = gimple_phi_result (u);
      else if (is_gimple_assign (u) && gimple_assign_rhs1 (u) == t
	       && (gimple_assign_single_p (u)
		   || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (u))))
	lhs = gimple_assign_lhs (u);
      if (!lhs)
	continue;
      if (TREE_CODE (lhs) != SSA_NAME)
	{
	  if (nf_name_ref (lhs, depth, buf, size) != NF_P_FAIL)
	    return NF_P_PRIMARY;
	  continue;
	}
      tree var = SSA_NAME_VAR (lhs);
      if (var && DECL_P (var)
	  && nf_name_decl (var, depth, buf, size) != NF_P_FAIL)
	return NF_P_PRIMARY;
    }
  return NF_P_FAIL;
}

/* Steps 1-4 for T at DEPTH in BUF; false when none names it.  */
static bool
nf_source_name_1 (tree t, int depth, char *buf, size_t size)
{
  if (TREE_CODE (t) != SSA_NAME)
    return nf_name_value (t, depth, buf, size) != NF_P_FAIL;
  tree var = SSA_NAME_VAR (t);
  if (var && DECL_P (var)
      && nf_name_decl (var, depth, buf, size) != NF_P_FAIL)
    return true;
  gimple *def = SSA_NAME_DEF_STMT (t);
  if (gimple_assign_single_p (def)
      && (REFERENCE_CLASS_P (gimple_assign_rhs1 (def))
	  || DECL_P (gimple_assign_rhs1 (def)))
      && nf_name_value (t, depth, buf, size) != NF_P_FAIL)
    return true;
  if (nf_name_dest (t, depth, buf, size) != NF_P_FAIL)
    return true;
  return nf_name_value (t, depth, buf, size) != NF_P_FAIL;
}

const char *
nf_source_name (tree t, char *buf, size_t size)
{
  /* The deepest expression that fits in BUF.  */
  for (int depth = NF_NAME_DEPTH; depth >= 1; depth--)
    {
      nf_name_budget = 200;
      if (nf_source_name_1 (t, depth, buf, size) && strlen (buf) + 1 < size)
	return buf;
    }
  snprintf (buf, size, "(value)");
  return buf;
}

const char *
nf_source_array_name (tree addr, char *buf, size_t size)
{
  tree t = addr;
  STRIP_NOPS (t);
  while (TREE_CODE (t) == POINTER_PLUS_EXPR)
    {
      t = TREE_OPERAND (t, 0);
      STRIP_NOPS (t);
    }
  /* &buf (a whole array) is the array buf.  */
  if (TREE_CODE (t) == ADDR_EXPR && DECL_P (TREE_OPERAND (t, 0)))
    t = TREE_OPERAND (t, 0);
  return nf_source_name (t, buf, size);
}

bool
nf_name_is_ssa (const char *name)
{
  for (const char *p = name; *p; p++)
    if (*p == '_' && ISDIGIT (p[1])
	&& (p == name || !(ISALNUM (p[-1]) || p[-1] == '_')))
      return true;
  return strstr (name, "(D)") != NULL;
}
