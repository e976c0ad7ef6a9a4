/* heapshift.c: move a program's later heap blocks by HEAPSHIFT bytes.

     gcc -O2 -shared -fPIC bench/llama2/heapshift.c -o heapshift.so
     LD_PRELOAD=./heapshift.so HEAPSHIFT=32 ./run model.bin ...

   Its constructor makes one allocation of 1024 + HEAPSHIFT - 8 bytes
   before main (a chunk of 1024 + HEAPSHIFT bytes off the top of the
   heap, too big for any free list at start-up), so that the program's
   small calloc/malloc blocks land HEAPSHIFT bytes (mod 64) further on.
   Issue 16 item 4: libgomp's constructor, loaded with libneuronfuse, does
   the same by accident (32 bytes), which puts run.c's activation vectors
   off 64-byte alignment; this undoes or reproduces that in either build.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <stdlib.h>

__attribute__ ((constructor)) static void
shift (void)
{
  const char *e = getenv ("HEAPSHIFT");
  if (e)
    {
      void *volatile p = malloc (1024 + atoi (e) - 8);
      (void) p;
    }
}
