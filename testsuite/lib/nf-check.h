/* nf-check.h: CHECK and NF_DONE, the assertions of every test program
   (the plugin's, the runtime's and lower/'s unit tests).  */

#ifndef NF_CHECK_H
#define NF_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int nf_failures;

/* CHECK (E): report the failing expression and count it; the test ends
   with NF_DONE (), which aborts if anything failed.  */
#define CHECK(e)                                                              \
  do                                                                          \
    {                                                                         \
      if (!(e))                                                               \
	{                                                                     \
	  fprintf (stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,   \
		   #e);                                                       \
	  nf_failures++;                                                      \
	}                                                                     \
    }                                                                         \
  while (0)

#define NF_DONE()                                                             \
  do                                                                          \
    {                                                                         \
      if (nf_failures)                                                        \
	abort ();                                                             \
      return 0;                                                               \
    }                                                                         \
  while (0)

#endif /* NF_CHECK_H */
