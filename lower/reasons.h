/* reasons.h: the missed-report reasons both front ends give, spelled
   once.  A reason names the guard that failed; users read them in
   remarks and reports, and tests match them, so keep them stable.  The
   matchers' own reasons stay in their files (one spelling there), and a
   reason only one front end can reach stays in that front end; what a
   region builder of either front end finds, and the coverage checks
   around a call, are here.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_REASONS_H
#define NF_REASONS_H

/* Building a loop region (plugin/loop-ir*.cc, frontend/loop-ir.c).  */
#define NF_WHY_NOT_AFFINE "an array access is not affine in the loop"
/* Dot: a loop nest one step from a matrix-vector product (both front
   ends' nest checks, lower/match-dot.c's matcher).  The matrix's rows a
   constant number of elements apart that is not the row length (a
   sliding window, y[i + j]: a correlation).  */
#define NF_WHY_ROW_STEP                                                        \
  "the rows of the matrix are not one row length apart (a sliding window)"
#define NF_WHY_DOT_INIT "the sum does not start from 0"
#define NF_WHY_DOT_NEST "the nest is no matrix-vector product"
#define NF_WHY_DOT_CARRIED "the sum is carried across rows"
#define NF_WHY_DOT_NOT_ONLY_STORED "the row sums are not only stored"
#define NF_WHY_DOT_STORE_STRIDE "the row sums are not stored contiguously"
#define NF_WHY_DOT_NEST_AFFINE "an address is not affine in the loop nest"
#define NF_WHY_DOT_READ_STRIDE                                                 \
  "the matrix or the vector is not read contiguously"
#define NF_WHY_DOT_BOTH_ROWS "both factors advance with the row"
#define NF_WHY_DOT_NO_ROWS "both factors are the same for every row"
#define NF_WHY_DOT_SOME_ROWS "not every row is computed and stored"
#define NF_WHY_DOT_ROW_LENGTH "the row length changes from row to row"
/* RMSNorm of rows: a row loop around one RMSNorm one step from the rows
   kernel (both front ends' nest checks).  */
#define NF_WHY_ROWS_STEP "the rows are not one row length apart"
#define NF_WHY_ROWS_WEIGHT "the weight is indexed by the row"
#define NF_WHY_ROWS_EPS "eps changes from row to row"
/* Softmax: three loops one step from a softmax (both front ends' loop
   checks; lower/match-softmax.c's matcher has the dataflow's).  */
#define NF_WHY_SOFTMAX_LOOPS "the loops are no softmax"
#define NF_WHY_SOFTMAX_COUNTS                                                  \
  "the three loops do not run over the same elements"
#define NF_WHY_SOFTMAX_SKIPS "the max skips elements of the array"
#define NF_WHY_SOFTMAX_BETWEEN "code between the loops does other work"
#define NF_WHY_SOFTMAX_OTHER_WORK "a loop of the softmax does other work too"
#define NF_WHY_SOFTMAX_USED_AFTER                                              \
  "the max or the sum is used after the loops"
#define NF_WHY_SOFTMAX_NO_DIVIDE                                               \
  "the sum is not used by a loop dividing the exponentials"
/* The loops as loop header copying leaves them (each behind a zero-trip
   guard, the values joined after it): the late pass's view of a softmax
   only inlining showed, or of C++'s std::max through a reference.  */
#define NF_WHY_SOFTMAX_GUARDED                                                 \
  "the loops are guarded against running zero times (after loop header "    \
  "copying), a shape not supported"
#define NF_WHY_SOFTMAX_STORE                                                   \
  "the normalised values are not stored contiguously"
#define NF_WHY_NOT_CONTIGUOUS                                                  \
  "an array access is not contiguous (its step is not the element size)"
/* A statement of a loop region may throw (-fexceptions): the call would
   lose the exception's edge.  */
#define NF_WHY_MAY_THROW "a statement of the region may throw"
#define NF_WHY_LOOP_SHAPE "the loop's shape is not supported"
#define NF_WHY_TRIP_COUNT "the loop's trip count is not computable"
#define NF_WHY_EXITS "the loop has more than one exit"
#define NF_WHY_LOOP_VOLATILE "the loop accesses volatile memory"
#define NF_WHY_ARRAYS "the region accesses too many arrays"
#define NF_WHY_LOOPS "the values flow through more than two loops"
#define NF_WHY_OPERAND "an operand is not a simple value"
#define NF_WHY_UNMODELED "the region computes something the matchers do not model"
#define NF_WHY_CONVERSION "a conversion of the region is not between numbers"
#define NF_WHY_STORED_OUTSIDE "a value of the region is stored outside its loops"
#define NF_WHY_ACCUMULATION "the reduction is not a simple accumulation"
#define NF_WHY_CALL                                                            \
  "the region calls a function other than the math functions it models"
#define NF_WHY_COMPARE                                                         \
  "a comparison of the region is not between floating-point values"
#define NF_WHY_SELECT "a select of the region is not on a comparison"
#define NF_WHY_INPUT_KIND "an input of the region is neither a number nor an array"

/* What the region does besides the call (the coverage checks).  */
#define NF_WHY_INPUT_INSIDE "an input of the region is computed inside it"
#define NF_WHY_OTHER_STORE "the region stores to memory outside the idiom"
#define NF_WHY_USED_AFTER "a value computed in the region is used after it"
#define NF_WHY_LOOP_USED_AFTER "a value computed in the loop is used after it"
#define NF_WHY_VOLATILE "the region accesses volatile memory"
#define NF_WHY_OTHER_SUM                                                       \
  "the loop computes another sum too (no kernel computes several)"
#define NF_WHY_TOO_SHORT "the loop runs too few times for a call to pay"
/* -ffast-math with AVX: GCC's loop is faster than the kernels that sum
   in double (bench/kernels R M issue19 at -O3 -ffast-math -march=native:
   0.4x to 1x).  */
#define NF_WHY_WIDE_VECTORS                                                    \
  "the compiler vectorizes this reassociable loop itself with wide vectors "  \
  "(-ffast-math), faster than the kernel"

#endif /* NF_REASONS_H */
