/* dump.h: write the HLO/Penguin dumps of one fused region into a
   directory (the dump-hlo=DIR argument of both front ends).

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_DUMP_H
#define NF_DUMP_H

#include "match.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write the dumps of match M, region ID, found in FUNCTION, into DIR: as
   DIR/BASE.FUNCTION.regionID.mhlo.mlir, .stablehlo.mlir, .penguin.txt
   and, for RMSNorm, .custom_call.mlir, BASE the base name of INPUT; or,
   when DIR ends in '/' (dump-hlo=DIR/, a whole build's), as
   DIR/UNIT.FUNCTION.regionID.*, under UNIT's path (outdir.h), its
   directories made.  FUNCTION's characters but [A-Za-z0-9_.-] are
   written '_' (C++ names carry their signature).  Each file is written
   atomically (a temporary file renamed).  A form that cannot express
   the region (long double has no HLO type) is skipped and *SKIPPED set
   to the emitter's reason (else NULL).  Returns 0, or an errno value
   when a file cannot be written.  */
int nf_dump_region (const char *dir, const char *input, const char *unit,
		    const char *function, const nf_match *m, int id,
		    const char **skipped);

/* 0 if DIR can take the dumps, else an errno value: DIR/ is made as
   needed (a build's first unit makes it), a plain DIR must be an
   existing, writable directory.  */
int nf_dump_dir_check (const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* NF_DUMP_H */
