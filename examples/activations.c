/* activations.c: activation and finance formulas as people write them,
   with the exp (x) - 1 and log (1 + x) that lose every digit near 0.
   `make example` builds it with the plugin and shows what it rewrote.  */

#include <math.h>
#include <stdio.h>

/* ELU: x for x >= 0, alpha * (e^x - 1) below.  */
static float
elu (float x, float alpha)
{
  return x >= 0 ? x : alpha * (expf (x) - 1.0f);
}

/* Softplus: log (1 + e^x), smooth ReLU.  */
static double
softplus (double x)
{
  return log (1.0 + exp (x));
}

/* Compound growth over YEARS at yearly RATE: (1 + rate)^years - 1.  */
static double
growth (double rate, double years)
{
  return exp (years * log (1 + rate)) - 1;
}

int
main (void)
{
  volatile float xf = -1e-8f;
  volatile double x = -40.0, rate = 1e-9, years = 30.0;

  /* Correct: -9.99999994e-09 (xf is the float nearest -1e-8),
     4.2483542552915889e-18 and 3.0000000435e-08.  Without the plugin
     gcc -O2 prints 0, 0 and 3.0000002926e-08.  */
  printf ("elu (-1e-8)          = %.8e\n", elu (xf, 1.0f));
  printf ("softplus (-40)       = %.17g\n", softplus (x));
  printf ("growth (1e-9, 30 y)  = %.11g\n", growth (rate, years));
  return 0;
}
