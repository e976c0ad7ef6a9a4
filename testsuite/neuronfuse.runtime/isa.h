/* isa.h: runtime.exp builds every runtime test once per instruction set
   with -DNF_ISA_<isa> and NEURONFUSE_ISA=<isa> in the environment;
   nf_check_isa () asserts the library really runs that one, so a test
   can't pass on the generic kernels while claiming to test AVX-512.  */

#include <neuronfuse.h>
#include <string.h>

#if defined NF_ISA_generic
#define NF_ISA_WANT "generic"
#elif defined NF_ISA_avx2
#define NF_ISA_WANT "avx2"
#elif defined NF_ISA_avx512
#define NF_ISA_WANT "avx512"
#endif

static void
nf_check_isa (void)
{
#ifdef NF_ISA_WANT
  if (strcmp (nf_runtime_isa (), NF_ISA_WANT) != 0)
    {
      fprintf (stderr, "kernels run %s, not %s\n", nf_runtime_isa (),
	       NF_ISA_WANT);
      abort ();
    }
#endif
}
