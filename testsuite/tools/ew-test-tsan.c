/* ew-test-tsan: the two-thread test of neuronfuse.runtime/elementwise.c
   (nf_elementwise's cache of decoded programs, published with a
   compare-and-swap and read without a lock) linked with the runtime
   built under ThreadSanitizer; see testsuite/Makefile.am and
   tools/thread-test-tsan.c.  */

#define NF_EW_THREADS_ONLY 1
#define NF_PLUGIN 0 /* nf-test.h: no plugin builds this */
#include "neuronfuse.runtime/elementwise.c"
