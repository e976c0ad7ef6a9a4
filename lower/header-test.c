/* Every lower/ header compiles on its own as strict C11 (the plugin
   includes them before GCC's poisoning headers).  */
#include "reasons.h"
#include "call.h"
#include "kinds.h"
#include "report.h"
#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "emit.h"
#include "dump.h"
#include "rows.h"
#include "kinds.h"
#include "report.h"
#include "ir.h"
#include "cluster.h"
#include "match.h"
#include "emit.h"
#include "dump.h"
#include "call.h"
#include "reasons.h"

int
main (void)
{
  unsigned mask = 0;
  if (nf_kinds_parse ("Expm1,log1p", &mask) != 0
      || mask != (NF_KIND_EXPM1 | NF_KIND_LOG1P))
    return 1;
  if (nf_kinds_parse ("Expm1,,Log1p", &mask) == 0
      || nf_kinds_parse ("", &mask) == 0
      || nf_kinds_parse ("sqrt", &mask) == 0)
    return 1;
  return 0;
}
