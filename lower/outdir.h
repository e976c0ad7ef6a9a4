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

  /* Whether PATH is an existing directory.  */
  bool nf_outdir_is_dir (const char *path);

  /* Write to BUF (SIZE bytes) UNIT as a relative path that stays inside
     the output directory: an absolute UNIT under the current directory
     relative to it, else without its leading '/'; "." components dropped,
     ".." ones as "__"; an empty UNIT as "stdin".  Returns false when it
     does not fit.  */
  bool nf_outdir_unit (const char *unit, char *buf, size_t size);

  /* Create DIR and the directories of the relative path REL in it (all but
     REL's last component), like mkdir -p.  Returns 0 or an errno value.  */
  int nf_outdir_prepare (const char *dir, const char *rel);

  /* The malloc'd path DIR/REL SUFFIX of UNIT's file (REL from
     nf_outdir_unit), its directories created.  Returns NULL with *ERR set
     to an errno value on failure.  */
  char *nf_outdir_path (const char *dir, const char *unit, const char *suffix,
			int *err);

  /* Write to BUF (SIZE bytes) the stem of the HLO dumps of FUNCTION's
     regions: with IN_DIR (dump-hlo=DIR/), UNIT's path in the directory
     (nf_outdir_unit), else UNIT's base name, then "." and FUNCTION with
     anything but [A-Za-z0-9_.-] as '_' (C++ names carry their
     signature).  Returns false when it does not fit.  */
  bool nf_outdir_stem (const char *unit, bool in_dir, const char *function,
		       char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* NF_OUTDIR_H */
