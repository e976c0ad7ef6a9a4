/* dump.h: write the HLO/Penguin dumps of one fused region into a
   directory (the dump-hlo=DIR argument of both front ends).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_DUMP_H
#define NF_DUMP_H

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write the dumps of match M, region ID, as DIR/STEM.regionID.mhlo.mlir,
   .stablehlo.mlir, .penguin.txt and, for RMSNorm, .custom_call.mlir; each
   atomically (a temporary file renamed).  A form that cannot express the
   region (long double has no HLO type) is skipped and *SKIPPED set to the
   emitter's reason (else NULL).  Returns 0, or an errno value when a file
   cannot be written.  */
int nf_dump_region (const char *dir, const char *stem, const nf_match *m,
		    int id, const char **skipped);

/* 0 if DIR is an existing, writable directory, else an errno value.  */
int nf_dump_dir_check (const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* NF_DUMP_H */
