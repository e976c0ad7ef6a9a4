/* The per-translation-unit report: the regions a front end transformed
   and the candidates it rejected, written as JSON (schema: DESIGN.md
   section 3).  The plugin and neuronfuse-clang write the same schema.
   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_REPORT_H
#define NF_REPORT_H

#include <stddef.h>

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the report schema; bumped only by compatible extensions.
   Version 2 adds to each region "end_line" (the last source line of the
   region) and "ir" (its MHLO, StableHLO and Penguin texts); readers
   accept version 1 reports, which lack both.  */
#define NF_REPORT_VERSION 2

typedef struct nf_report nf_report;

/* A source position; FILE may be NULL (written as the report's source).  */
typedef struct nf_location
{
  const char *file;
  int line;
  int column;
} nf_location;

/* One transformed region.  Strings are copied by nf_report_add_region;
   NULL strings are written as null, and the arrays may be NULL when their
   count is 0.  */
typedef struct nf_region_desc
{
  const char *kind;		/* FusionKind name, e.g. "Expm1".  */
  const char *function;		/* Enclosing function.  */
  nf_location loc;		/* Where the region starts.  */
  const char *action;		/* "outlined", "rewritten" or "reported".  */
  const char *callee;		/* Function the region now calls.  */
  const char *dtype;		/* Element type: "f32", "f64", "f80"...  */
  const char *accum_dtype;	/* Type the result is computed in.  */
  const char *const *live_ins;
  size_t n_live_ins;
  const char *const *live_outs;
  size_t n_live_outs;
  const int *reduce_dims;
  size_t n_reduce_dims;
  double flops;			/* Per evaluation of the region.  */
  double bytes;			/* Memory traffic per evaluation.  */
  const char *const *notes;	/* Accuracy changes and the like.  */
  size_t n_notes;
  int end_line;			/* Last source line of the region (a
				   loop's last statement); 0 or less
				   than LOC.line: LOC.line.  */
} nf_region_desc;

/* Start D for a region of KIND that now calls CALLEE on DTYPE data,
   computed in ACCUM_DTYPE, reading the N_INS values named INS and
   writing the N_OUTS named OUTS (arrays the caller keeps alive until the
   region is added); every other field zero, for the caller to set.  The
   one fill of these fields for both front ends' loop and scalar
   regions.  */
void nf_region_desc_init (nf_region_desc *d, enum nf_kind kind,
			  const char *callee, const char *dtype,
			  const char *accum_dtype, const char *const *ins,
			  size_t n_ins, const char *const *outs,
			  size_t n_outs);

/* The most notes nf_region_contract gives a region.  */
#define NF_REGION_MAX_NOTES 2

/* Fill what both front ends say alike about a fused region of KIND on
   ELEM data: D->flops and D->bytes per element, both > 0 for every kind
   (the cost model of the report's roofline: the region as the Neuron
   compiler would see it, a tensor op; a scalar Expm1 reads its operand
   and writes its result, 2 elements) and D->notes, the changes the floating-point
   contract allows (DESIGN.md section 4), pointing into NOTES (room for
   NF_REGION_MAX_NOTES, kept alive by the caller until the region is
   added).  ACCUM is the type the original loop summed in (NF_ELEM_F16
   for a _Float16 accumulator; unused for elementwise regions), WEIGHTED
   whether an RMSNorm has a weight, MAP whether an Expm1/Log1p region is
   a loop over arrays (else one scalar call), MATH_ERRNO whether the code
   was compiled with -fmath-errno.  Returns D->n_notes.  */
size_t nf_region_contract (nf_region_desc *d, const char **notes,
			   enum nf_kind kind, enum nf_elem elem,
			   enum nf_elem accum, bool weighted, bool map,
			   bool math_errno);

/* A new, empty report for SOURCE (the main input file) written by TOOL
   ("neuronfuse-gcc-plugin", "neuronfuse-clang").  Returns NULL when out
   of memory.  */
nf_report *nf_report_new (const char *tool, const char *source);

/* Free REPORT and everything it holds; NULL is allowed.  */
void nf_report_free (nf_report *report);

/* Append the region DESC to REPORT.  Returns the region's id (1, 2, ... in
   order of addition), or 0 when out of memory.  */
int nf_report_add_region (nf_report *report, const nf_region_desc *desc);

/* Attach to region ID of REPORT (a value nf_report_add_region returned)
   the texts of match M as its "ir" object: {"mhlo": TEXT, "stablehlo":
   TEXT, "penguin": TEXT}, the emitters of emit.h printed into memory.  A
   form the emitter cannot express is null, with its reason in
   "<form>_error" (e.g. "mhlo_error").  Returns 0, or -1 when ID is not a
   region of REPORT or memory runs out.  */
int nf_report_add_ir (nf_report *report, int id, const nf_match *m);

/* Append a rejected candidate of KIND in FUNCTION at LOC, with the human
   REASON.  Returns 0, or -1 when out of memory.  */
int nf_report_add_missed (nf_report *report, const char *kind,
			  const char *function, nf_location loc,
			  const char *reason);

/* Number of regions and of missed candidates recorded so far.  */
size_t nf_report_n_regions (const nf_report *report);
size_t nf_report_n_missed (const nf_report *report);

/* Write REPORT as JSON to PATH, atomically: to a temporary file beside it,
   then renamed over PATH, so parallel builds never see a partial report.
   Returns 0, or an errno value (and PATH is left as it was).  */
int nf_report_write (const nf_report *report, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* NF_REPORT_H */
