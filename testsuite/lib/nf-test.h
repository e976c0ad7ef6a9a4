/* nf-test.h: checks shared by the tests.  Every run test is built twice
   by the testsuite: with the plugin (NF_PLUGIN=1) and without (0).  */

#ifndef NF_TEST_H
#define NF_TEST_H

#include "nf-check.h"
#include "nf-ulps.h"

#include <float.h>
#include <math.h>
#include <string.h>

#ifndef NF_PLUGIN
#error "build through the testsuite: it defines NF_PLUGIN to 0 or 1"
#endif

/* 1 in the parity suite's build of a test neuronfuse-clang rewrote
   where the plugin also fuses inlined copies (neuronfuse.clang's
   nf_clang_as_written): what only inlining fuses is not fused there.  */
#ifndef NF_AS_WRITTEN
#define NF_AS_WRITTEN 0
#endif

/* Check one result of a rewritten expression.  GOT: what the test's
   function returned; ORIG: the original expression evaluated through a
   function pointer (which the plugin cannot see); REF: the exact value;
   ULPS: one of NF_ULPS_*; BOUND: the accuracy promised by the rewrite.
   With the plugin: GOT is within BOUND ulps of REF, or no worse than ORIG,
   and agrees with ORIG on NaN, infinities and the sign of zero.  Without:
   GOT is ORIG, bit for bit (fast-math may inline differently: then within
   4 ulps of 1 in absolute terms).  */
#define NF_CHECK_REWRITE(ULPS, got, orig, ref, bound, x)                      \
  do                                                                          \
    {                                                                         \
      __typeof__ (orig) g_ = (got), o_ = (orig);                              \
      long double eg_ = ULPS (g_, ref), eo_ = ULPS (o_, ref);                 \
      if (NF_PLUGIN)                                                          \
	{                                                                     \
	  if (!(eg_ <= (bound) || eg_ <= eo_))                                \
	    fprintf (stderr, "x=%La: got %La (%Lg ulp), orig %La (%Lg ulp)\n",\
		     (long double) (x), (long double) g_, eg_,                \
		     (long double) o_, eo_);                                  \
	  CHECK (eg_ <= (bound) || eg_ <= eo_);                               \
	  CHECK (!!isnan (g_) == !!isnan (o_));                               \
	  CHECK (!isinf (o_) || g_ == o_);                                    \
	  if (NF_SIGNED_ZEROS && o_ == 0 && g_ == 0)                          \
	    CHECK (!!signbit (g_) == !!signbit (o_));                         \
	}                                                                     \
      else if (NF_EXACT_ORIG)                                                 \
	CHECK (memcmp (&g_, &o_, sizeof g_) == 0 || (isnan (g_) && isnan (o_)));\
      else                                                                    \
	CHECK (fabsl ((long double) g_ - o_)                                  \
	       <= ldexpl (fmaxl (fabsl (o_), 1), -(int) (sizeof g_ * 4) + 2)); \
    }                                                                         \
  while (0)

#ifdef __FAST_MATH__
#define NF_SIGNED_ZEROS 0
#define NF_EXACT_ORIG 0
#define NF_SPECIALS 0 /* -ffinite-math-only: no NaN or Inf inputs.  */
#else
#define NF_SIGNED_ZEROS 1
#define NF_EXACT_ORIG 1
#define NF_SPECIALS 1
#endif

#define NF_N(a) (sizeof (a) / sizeof (a)[0])

#endif /* NF_TEST_H */
