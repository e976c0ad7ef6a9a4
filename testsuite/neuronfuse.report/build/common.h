/* A header every unit of the build includes: its static inline function
   is fused once per unit, two copies of one source line.  */
#include <math.h>
static inline float act_m1 (float x) { return expf (x) - 1.0f; }
