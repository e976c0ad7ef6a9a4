/* thread-test-tsan: neuronfuse.runtime/threads.c (the runtime's
   thread-safety test) linked with the runtime built under
   ThreadSanitizer; see testsuite/Makefile.am.  Compiled from here rather
   than from neuronfuse.runtime/ so that its object file stays out of that
   directory, which the distribution copies whole.  */

#include "neuronfuse.runtime/threads.c"
