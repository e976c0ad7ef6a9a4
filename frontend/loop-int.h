/* loop-int.h: the loop pass's own interface between its files: the
   region being built (loop-ir.c, loop-expr.c), the rewrites that spell
   the fused call in C (loop-rewrite.c) and the driver that finds the
   candidates and decides (loop.c).  Not for the other passes: their
   entry is nf_loop_run in nf-clang.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_INT_H
#define NF_LOOP_INT_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "call.h"
#include "ir.h"
#include "match.h"
#include "nf-clang.h"

#define NF_LP_VARS 32  /* Variables a region assigns or reads.  */
#define NF_LP_ARRAYS 8 /* Arrays, and members read, of a region.  */
#define NF_LP_SUMS 4   /* Sums of a region's first loop.  */

/* An array of the region (or a member read, s->eps): a parameter named
   by its source text.  */
struct nf_lp_array
{
  char *text;	  /* The base expression as written (owned), with the
		     index's part from outside the region when it has
		     one: ((x) + (32 * j)).  */
  int64_t offset; /* The element the array starts at: base[offset].  */
  nf_value param;
  CXCursor base;
  CXCursor extra; /* That part of the index (x[32 * j + l]'s 32 * j), or
		     a null cursor.  */
};

/* One loop of the region: for (j = 0; j < bound; j++).  */
struct nf_lp_loop
{
  CXCursor stmt, ivar, bound;
  int sym;
  int64_t extent; /* A constant trip count, or -1.  */
  bool is_signed;
};

/* One region being built.  */
struct nf_lp
{
  nf_tool *t;
  const char *function;
  nf_region *r;
  const char *fail;
  /* Variables: their current value.  */
  CXCursor vdecl[NF_LP_VARS];
  nf_value vval[NF_LP_VARS];
  bool vparam[NF_LP_VARS]; /* Value is the variable at the entry.  */
  int n_vars;
  struct nf_lp_array arrays[NF_LP_ARRAYS];
  int n_arrays;
  struct nf_lp_array leaves[NF_LP_ARRAYS]; /* Members read: s->eps.  */
  int n_leaves;
  struct nf_lp_loop loops[2];
  int n_loops;
  CXCursor *cursors;   /* Value -> expression (params, consts, math
			  calls): nf_lp_cursor.  */
  bool *noted;	       /* A math call's cursor is recorded.  */
  size_t n_cursors;    /* The size of both.  */
  bool oom;	       /* Out of memory (G->fail says so too).  */
  bool map;	       /* An elementwise loop: see nf_lp_scalar_rewrite.  */
  bool acc_f16;	       /* The accumulator is a _Float16.  */
  nf_value conv_floor; /* The first value of the loop body being built.  */
  const nf_vars *vars; /* The function's local variables.  */
  CXCursor fn;	       /* The function.  */
  nf_value reduce;
  CXCursor acc;		 /* The accumulator's variable.  */
  nf_value ret;		 /* A value returned by the region's end.  */
  CXCursor ret_expr;	 /* The expression computing it.  */
  CXCursor body_vars[8]; /* Variables an elementwise loop's body sets.  */
  CXCursor dead[NF_LP_SUMS]; /* The dead sums' variables (loop-body.c).  */
  int n_dead;
  const char *stored;	 /* A value is stored outside the loops: the
			    plugin's reason where the match fails.  */
  CXCursor other_store;	 /* The first scalar store of no value of the
			    region, or a null cursor.  */
  int n_body_vars;
  /* Run-time steps assumed to be 1 (x[i * incx], the plugin's
     nf_lr_array): their variables, which the call's guard tests.  */
  CXCursor unit_steps[2];
  int n_unit_steps;
  bool stop_at_loop; /* The norm's tail ends before a second loop.  */
  /* The index's part from outside the region of the access
     nf_lp_access analysed last (nf_lp_array's), or a null cursor.  */
  CXCursor extra;
};

/* The function being scanned.  */
struct nf_lp_scan
{
  nf_tool *t;
  const char *function;
  CXCursor fn;
  int oom;
  const nf_vars *vars;
  bool summed; /* The last loop tried was a sum's candidate.  */
  CXCursor owner; /* What holds the statement list being scanned (a
		     row loop: loop-rows.c).  */
};

/* Where a region is in the source, as the driver found it: what the
   rewrites replace or insert before.  */
struct nf_lp_span
{
  CXCursor *stmts;	  /* The statement list holding it.  */
  int n;		  /* Its length.  */
  int first, last;	  /* The region's first and last statements.  */
  size_t begin, end;	  /* Its text [BEGIN, END) (a return stays
			     out of it).  */
  unsigned line, column;  /* The first loop's location (the report's).  */
  const char *used_after; /* An elementwise loop: why it cannot be
			     replaced (a value it computes is used after
			     it, or it is inside a macro expansion), or
			     NULL.  */
};

/* --- loop-ir.c: the region's variables, arrays, loops and statements */

/* Start G, a region of the function S is scanning: an elementwise
   loop's when MAP.  Returns false when out of memory.  */
bool nf_lp_start (struct nf_lp *g, const struct nf_lp_scan *s, bool map);
/* Free G's region and texts.  */
void nf_lp_finish (struct nf_lp *g);
/* Note that G is out of memory.  Returns NF_NO_VALUE.  */
nf_value nf_lp_oom (struct nf_lp *g);
/* Note WHY as G's failure, unless it has one.  Returns NF_NO_VALUE.  */
nf_value nf_lp_fail (struct nf_lp *g, const char *why);
/* Note that V stands for the expression C (FIRST: unless V has a
   cursor noted so already).  Returns V.  */
nf_value nf_lp_note (struct nf_lp *g, nf_value v, CXCursor c, bool first);
/* The expression V stands for (a null cursor when none is noted), and
   whether it was noted with FIRST.  */
CXCursor nf_lp_cursor (const struct nf_lp *g, nf_value v);
bool nf_lp_noted_first (const struct nf_lp *g, nf_value v);
/* Whether A and B declare the same entity.  */
bool nf_lp_same_decl (CXCursor a, CXCursor b);
/* The variable C (stripped) refers to, or a null cursor.  */
CXCursor nf_lp_var_of (CXCursor c);
/* Whether C accumulates into a variable (see loop-ir.c).  Sets *LHS to
   acc's expression and *E.  */
bool nf_lp_accumulation (CXCursor c, CXCursor *lhs, CXCursor *e);
/* The index of DECL among G's variables, or -1.  */
int nf_lp_find_var (const struct nf_lp *g, CXCursor decl);
/* Let the variable DECL hold V from here; PARAM when V is its value at
   the region's entry.  */
void nf_lp_set_var (struct nf_lp *g, CXCursor decl, nf_value v, bool param);
/* The source text of [B, E) of T's buffer in a new string ("" for a
   range outside it), or NULL when out of memory.  */
char *nf_lp_text (const nf_tool *t, size_t b, size_t e);
/* Whether the cursors A and B of T's main file have the same text.  */
bool nf_lp_same_text (const nf_tool *t, CXCursor a, CXCursor b);
/* The dimension of loop K.  */
nf_dim nf_lp_dim (const struct nf_lp *g, int k);
/* Whether C (stripped) is loop K's induction variable.  */
bool nf_lp_is_ivar (const struct nf_lp *g, CXCursor c, int k);
/* The value of the variable DECL read at C.  */
nf_value nf_lp_read (struct nf_lp *g, CXCursor decl, CXCursor c);
/* Analyse the for statement C as G's next loop.  Returns its body, or a
   null cursor (G->fail set).  */
CXCursor nf_lp_loop (struct nf_lp *g, CXCursor c);

/* The scalar statement C (a store to memory too).  Returns false when C
   is none.  */
bool nf_lp_scalar_stmt (struct nf_lp *g, CXCursor c);
/* The last loop's body BODY: a[j] = E.  Returns the STORE.  */
nf_value nf_lp_store (struct nf_lp *g, CXCursor body);

/* References to DECL in a cursor visited with nf_lp_count_refs that
   start in [AFTER, BEFORE) (BEFORE 0: no upper bound); N counts them.  */
struct nf_lp_refs
{
  CXCursor decl;
  size_t after;
  int n;
  size_t before; /* 0: no upper bound.  */
};
enum CXChildVisitResult nf_lp_count_refs (CXCursor c, CXCursor parent,
					  CXClientData data);
/* Whether the function FN may read the value the variable DECL has
   after the statement STMT: a reference outside STMT, but those inside
   a for loop (not holding STMT) that first sets DECL = E, E not reading
   it (opus's function-wide i, reused by the next loop).  References
   before STMT count where they may run after it: in a loop around it,
   or in a function with a goto.  */
bool nf_lp_read_outside (CXCursor fn, CXCursor decl, CXCursor stmt);
/* The same for the statements spanning [BEGIN, END) of the main file
   (a region of several statements).  */
bool nf_lp_read_outside_range (CXCursor fn, CXCursor decl, size_t begin,
			       size_t end);
/* The end of statement C including its `;`.  */
size_t nf_lp_stmt_end (const nf_tool *t, CXCursor c);

/* --- loop-body.c: the first loop's body ----------------------------- */

/* The first loop's body BODY, acc += E or a compound of temporaries
   and sums, after the statement PREV.  Returns the region's REDUCE
   (G->reduce, G->acc); NF_NO_VALUE when there is none (G->fail may say
   why).  */
nf_value nf_lp_reduction (struct nf_lp *g, CXCursor body, CXCursor prev);

/* --- loop-access.c: the arrays and members ------------------------- */

/* The array parameter for the pointer expression BASE from its element
   OFFSET on, accessed in loop K with elements of ELEM.  */
nf_value nf_lp_array (struct nf_lp *g, CXCursor base, int64_t offset, int k,
		      enum nf_elem elem);
/* The base of the access C of loop K (base[j + c], *(base + j + c),
   ...), its constant element offset c in *OFF; a null cursor when C is
   none (G fails when C is one that is not affine).  */
CXCursor nf_lp_access (struct nf_lp *g, CXCursor c, int k, int64_t *off);
/* Whether an expression has side effects (calls, ++, assignments): a
   visitor that sets *DATA, a bool.  */
enum CXChildVisitResult nf_lp_effect_visit (CXCursor c, CXCursor parent,
					    CXClientData data);
/* The number read by the member access C (s->eps).  */
nf_value nf_lp_member (struct nf_lp *g, CXCursor c);

/* --- loop-expr.c: expressions ---------------------------------------- */

/* The value of the expression C, in loop K (or the scalar code, -1).  */
nf_value nf_lp_expr (struct nf_lp *g, CXCursor c, int k);
/* A OP B, and OP A, hash-consed.  */
nf_value nf_lp_binary (struct nf_lp *g, enum nf_opcode op, nf_value a,
		       nf_value b);
nf_value nf_lp_unary (struct nf_lp *g, enum nf_opcode op, nf_value a);
/* A converted to the element type TO.  */
nf_value nf_lp_convert (struct nf_lp *g, nf_value a, enum nf_elem to);
/* The constant C of ELEM for the expression CUR.  */
nf_value nf_lp_const (struct nf_lp *g, enum nf_elem elem, double c,
		      CXCursor cur);
/* Whether a fabs of G is used: one no square folded away (the plugin
   does not model fabs).  */
bool nf_lp_fabs_used (const struct nf_lp *g);
/* The opcode of the math function CALL calls, and its number of
   arguments; NF_OP_COUNT_ for other calls.  */
enum nf_opcode nf_lp_math (CXCursor call, int *nargs);

/* --- loop-rewrite.c: the fused calls in C ---------------------------- */

/* A string built on the heap by nf_lp_str_add: S (NULL until something
   is added) holds LEN bytes and a NUL.  OOM says that an addition ran
   out of memory (S is then freed and NULL).  */
struct nf_lp_str
{
  char *s;
  size_t len, cap;
  bool oom;
};
/* Append FMT... to B, growing it as needed.  */
void nf_lp_str_add (struct nf_lp_str *b, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* Append to B G's tests that its run-time steps are 1 (loop-access.c),
   "(s) == 1" each, joined by " && " (after one unless B is empty).  */
void nf_lp_add_unit_steps (struct nf_lp_str *b, const struct nf_lp *g);
/* B's text ("" when nothing was added).  */
const char *nf_lp_str_get (const struct nf_lp_str *b);
/* The start of the #pragma lines right before the statement at BEGIN
   of T's buffer (#pragma omp parallel for, #pragma GCC ivdep), or
   BEGIN: a call inserted before the statement goes before them, which
   belong to it.  */
size_t nf_lp_pragmas_before (const nf_tool *t, size_t begin);
/* Whether [FROM, TO) of T's buffer (the pragma lines before a loop)
   holds an OpenMP pragma.  Then the call is for builds without OpenMP
   only (NF_LP_OMP_OPEN before the call, NF_LP_OMP_CLOSE after its
   else): under -fopenmp the program's team runs the loop, and the
   library's threads would compete with libgomp's (which spin after
   each region): llama2.c's matmul rewritten ran 130-155 tok/s under
   -fopenmp against the plain loop's 154-200.  */
bool nf_lp_omp_pragma (const nf_tool *t, size_t from, size_t to);
#define NF_LP_OMP_IF "#ifndef _OPENMP /* neuronfuse: OpenMP runs the loop */\n"
#define NF_LP_OMP_ENDIF "#endif\n"
#define NF_LP_OMP_OPEN NF_LP_OMP_IF "  "
#define NF_LP_OMP_CLOSE NF_LP_OMP_ENDIF "  "
/* Record in the report the loop region of match M, rewritten into a
   call of CALLEE on ELEM data the loop summed in ACCUM (WEIGHTED and MAP
   as for nf_region_contract): live-ins INS (N_INS of them), the one
   live-out OUT, reducing dimension REDUCE_DIM, from LINE:COLUMN to
   END_LINE (0: LINE); FLOPS and BYTES when FLOPS >= 0, else the
   contract's.  */
void nf_lp_record (struct nf_lp_scan *s, const nf_match *m, const char *callee,
		   enum nf_elem elem, enum nf_elem accum, bool weighted,
		   bool map, const char *const *ins, size_t n_ins,
		   const char *out, int reduce_dim, unsigned end_line,
		   unsigned line, unsigned column, double flops, double bytes);
/* Whether C is a declaration of one to eight variables, each of which
   OK takes (loop.c).  */
bool nf_lp_each_decl (CXCursor c, bool (*ok) (CXCursor var));
/* Append to B the run-time test under which the call C of G on COUNT
   elements is the code's (loop-rewrite.c).  */
void nf_lp_add_guard (struct nf_lp_str *b, const struct nf_lp *g,
		      const nf_call *c, const char *count);
/* The elementwise loop SPAN's one statement of G: why a value it
   computes is used after it, or NULL with its text range in SPAN
   (loop.c).  */
const char *nf_lp_loop_leaves (const struct nf_lp_scan *s,
			       const struct nf_lp *g, struct nf_lp_span *span);
/* Build into G an elementwise loop's body BODY: the STORE, or
   NF_NO_VALUE (loop.c).  */
nf_value nf_lp_map_body (struct nf_lp *g, CXCursor body);
/* The location the dumps give the loop LOOP in *LINE and *COLUMN (set
   to its own before): the plugin's, GCC's loop location, the
   condition's operator (loop-rows.c).  */
void nf_lp_rows_dump_loc (const nf_tool *t, CXCursor loop, unsigned *line,
			  unsigned *column);
/* The region of the RMSNorm M of G written out as lower/ builds it, for
   the plan and the report: the rows of a row loop (rows.h), or, with
   R_LABEL (r's name), the residual add before it (residual.h); arrays
   named LABELS (y, x, w: WEIGHT says whether there is one), located at
   LINE:COLUMN; its plan in *PLAN and match in *RM (the caller releases
   both).  NULL with *WHY the reason no call stands for it
   (loop-rows.c).  */
nf_region *nf_lp_rmsnorm_plan (const struct nf_lp_scan *s,
			       const struct nf_lp *g, const nf_match *m,
			       bool weight, const char *const labels[3],
			       const char *r_label, unsigned line,
			       unsigned column, nf_match *rm, nf_call *plan,
			       const char **why);
/* loop-residual.c: the residual add loop right before the RMSNorm SPAN
   of G (match M, plan C, its rewrite REP on COUNT elements) and the
   RMSNorm as one call of nf_add_rmsnorm_*: true when rewritten and
   recorded (the RMSNorm's own region is the caller's to record).  */
bool nf_lp_residual_rewrite (struct nf_lp_scan *s, const struct nf_lp *g,
			     const nf_match *m, const nf_call *c,
			     const struct nf_lp_span *span, const char *rep,
			     const char *count);
/* Loop L's bound as written, and its trip count as a size_t, in *BOUND
   and *COUNT (new strings: the caller frees them).  Returns false when
   out of memory.  */
bool nf_lp_count_text (const nf_tool *t, const struct nf_lp_loop *l,
		       char **bound, char **count);

/* The C text of the base of the array value P of G, and the element
   the array starts at.  */
const char *nf_lp_array_text (const struct nf_lp *g, nf_value p);
int64_t nf_lp_array_offset (const struct nf_lp *g, nf_value p);
/* The MulRedSqrt M of G, whose loop is SPAN's first statement: the loop
   goes and the norm's call in the next statement becomes the kernel's.
   Returns NULL (SPAN->last set to that statement), or the reason it is
   not rewritten.  */
const char *nf_lp_mulredsqrt_rewrite (struct nf_lp_scan *s, struct nf_lp *g,
				      const nf_match *m,
				      struct nf_lp_span *span);
/* The RMSNorm M of G: SPAN's text becomes the call behind the overlap
   test, with the original as the fallback.  Returns NULL, or the reason
   it is not rewritten.  */
const char *nf_lp_rmsnorm_rewrite (struct nf_lp_scan *s, struct nf_lp *g,
				   const nf_match *m,
				   const struct nf_lp_span *span);
/* The elementwise loop of G, SPAN's one statement, matched as M (an
   Expm1 or Log1p map, or an Elementwise program): the call lower/ plans
   inserted before it.  Returns NULL, or the reason it is not
   rewritten.  */
const char *nf_lp_loop_rewrite (struct nf_lp_scan *s, struct nf_lp *g,
				const nf_match *m,
				const struct nf_lp_span *span);

/* Note that S ran out of memory.  Returns the reason that says so.  */
const char *nf_lp_rewrite_oom (struct nf_lp_scan *s);
/* Append to B the argument A of the call C of G, COUNT its trip count.
   Returns false when it has no text here.  */
bool nf_lp_add_arg (struct nf_lp_str *b, const nf_tool *t,
		    const struct nf_lp *g, const nf_call *c,
		    const nf_call_arg *a, const char *count);

/* --- loop-rows.c: a row loop around an RMSNorm ---------------------- */

/* The RMSNorm M of G, planned as the call C on COUNT elements (its
   loop's bound BOUND), whose SPAN would become the per-row text REP:
   when SPAN is the body of a row loop, the row loop as one call of the
   rows kernel (recorded, the edit made: returns 1), or its near miss
   recorded at the row loop (returns 0, as for no row loop: the caller
   makes the per-row rewrite).  */
int nf_lp_rows_rewrite (struct nf_lp_scan *s, const struct nf_lp *g,
			const nf_match *m, const nf_call *c,
			const struct nf_lp_span *span, const char *rep,
			const char *bound, const char *count);

/* --- loop.c: the driver --------------------------------------------- */

/* The line and column of C's start (its expansion's), for the report.  */
void nf_lp_loc (CXCursor c, unsigned *line, unsigned *column);

/* --- loop-dot.c: the matrix-vector nests ---------------------------- */

/* The loop STMTS[I] of the N statements of the body of the loop OUTER,
   as the row of a matrix-vector product: rewritten (OUTER becomes the
   call behind its guard) or reported missed.  Returns whether it was
   either (the norm and map attempts then leave the loop alone).  */
bool nf_lp_try_dot (struct nf_lp_scan *s, CXCursor outer, CXCursor *stmts,
		    int n, int i);

/* --- loop-softmax.c: the three loops of a softmax ------------------ */

/* The loop STMTS[I] of a list of N statements as the max loop of a
   softmax: with the exp-and-sum and the divide loops after it, rewritten
   (the call behind its guard before it, the loops its fallback) or
   reported missed.  Returns the number of statements the rewritten
   region took from STMTS[I] on (0: none; the other kinds then try the
   loop).  */
int nf_lp_try_softmax (struct nf_lp_scan *s, CXCursor *stmts, int n, int i);

#endif /* NF_LOOP_INT_H */
