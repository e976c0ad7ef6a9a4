/* nf-mpfr.h: correctly rounded references from MPFR.  */

#ifndef NF_MPFR_H
#define NF_MPFR_H

#include <mpfr.h>

/* F (X) computed with 200 bits and rounded once to PREC bits, returned as
   a long double (exact for PREC <= 64).  F is an MPFR function such as
   mpfr_expm1.  */
static long double
nf_mpfr_ref (int (*f) (mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), long double x,
	     int prec)
{
  mpfr_t m;
  mpfr_init2 (m, 200);
  mpfr_set_ld (m, x, MPFR_RNDN);
  f (m, m, MPFR_RNDN);
  mpfr_prec_round (m, prec, MPFR_RNDN);
  long double r = mpfr_get_ld (m, MPFR_RNDN);
  mpfr_clear (m);
  return r;
}

#endif /* NF_MPFR_H */
