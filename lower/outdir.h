/* outdir.h: where one translation unit's files go in an output directory
   shared by a whole build (report=DIR/ and dump-hlo=DIR/ of both front
   ends).

   A build compiles many units, often in parallel (make -j), each in a
   process of its own, all with the same CFLAGS.  So one argument must
   give each unit files of its own: they are named after the unit as
   GCC's -fsave-optimization-record names its records, by the dump base
   name (the output's directory and stem and the source's suffix:
   "obj/a/util.c" for gcc -c src/a/util.c -o obj/a/util.o,
   "prog-main.c" for gcc main.c util.c -o prog), and placed under DIR
   with that relative path: DIR/obj/a/util.c.neuronfuse.json.  The
   directories are created as needed (another unit creating the same
   one at the same time is fine), and every file is written to a
   temporary name and renamed, so a reader never sees half a file.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_OUTDIR_H
#define NF_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

#ifdef __cplusplus
extern "C"
{
#endif

/* The suffix of a unit's report in an output directory.  */
#define NF_OUTDIR_REPORT_SUFFIX ".neuronfuse.json"

/* Whether ARG, the value of report= or dump-hlo=, names a directory for
   the whole build: it ends in '/'.  (report= takes an existing directory
   without the '/' too, as no file can be written there; dump-hlo=DIR
   without it keeps its flat names, DIR/SOURCE.FUNCTION.regionN..., as
   before directories for a build existed.)  */
bool nf_outdir_arg_p (const char *arg);

/* Write to BUF (SIZE bytes) UNIT as a relative path that stays inside
   the output directory: an absolute UNIT under the current directory
   relative to it, else without its leading '/'; "." components dropped,
   ".." ones as "__"; an empty UNIT as "stdin".  Returns false when it
   does not fit.  */
bool nf_outdir_unit (const char *unit, char *buf, size_t size);

/* Create DIR and the directories of the relative path REL in it (all but
   REL's last component), like mkdir -p.  Returns 0 or an errno value.  */
int nf_outdir_prepare (const char *dir, const char *rel);

/* Write REPORT where report=ARG says: into the directory ARG (ending in
   '/', or an existing directory) as DIR/REL NF_OUTDIR_REPORT_SUFFIX, REL
   UNIT's path (nf_outdir_unit), its directories made; else to the file
   ARG.  *PATH is set to the malloc'd path written or tried, for the
   caller's message (NULL when it could not be made).  Returns 0 or an
   errno value.  */
int nf_outdir_write_report (const nf_report *report, const char *arg,
			    const char *unit, char **path);

#ifdef __cplusplus
}
#endif

#endif /* NF_OUTDIR_H */
