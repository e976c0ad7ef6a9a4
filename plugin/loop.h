/* loop.h: one loop region of the loop pass (loop.cc), for the passes'
   driver (loop-pass.cc).  Include after the lower/ headers and
   gcc-common.h.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_LOOP_H
#define NF_LOOP_H

/* Steps 1-5 of loop.cc for the innermost loop LOOP (MAP: an elementwise
   expm1/log1p loop, else a sum of squares), with the region starting at
   its guard when GUARDED.  Returns true when the loop is done with (a
   region recorded, or a reason in *REASON and *KIND); sets *CHANGED when
   it rewrote the function and *BUILT when its region could be built.
   CONSUMED collects the loops of fused regions.  */
bool nf_loop_attempt (class loop *loop, bool guarded, bool map,
		      auto_vec<class loop *> &consumed, enum nf_kind *kind,
		      const char **reason, bool *changed, bool *built);

/* nf-loop's last step for LOOP, which no region took (simd.cc): if it
   calls functions with vector clones, make the calls unconditional and
   mark the loop for the vectorizer.  Returns true if it changed LOOP.  */
bool nf_simd_prepare_loop (class loop *loop);

#endif /* NF_LOOP_H */
