/* Idiom kind names and the `kinds=` list parser.
   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "kinds.h"

#include <string.h>
#include <strings.h>

static const struct
{
  enum nf_kind kind;
  const char *name;
} nf_kind_table[] = {
  { NF_KIND_RMSNORM, "RMSNorm" },
  { NF_KIND_MULREDSQRT, "MulRedSqrt" },
  { NF_KIND_EXPM1, "Expm1" },
  { NF_KIND_LOG1P, "Log1p" },
  { NF_KIND_ELEMENTWISE, "Elementwise" },
  { NF_KIND_DOT, "Dot" },
  { NF_KIND_SOFTMAX, "Softmax" },
};

#define NF_N_KINDS (sizeof nf_kind_table / sizeof nf_kind_table[0])

const char *
nf_kind_name (enum nf_kind kind)
{
  for (size_t i = 0; i < NF_N_KINDS; i++)
    if (nf_kind_table[i].kind == kind)
      return nf_kind_table[i].name;
  return "?";
}

/* Return the kind named by the LEN bytes at NAME, or 0.  */
static unsigned
nf_kind_lookup (const char *name, size_t len)
{
  if (len == 3 && strncasecmp (name, "all", 3) == 0)
    return NF_KIND_ALL;
  for (size_t i = 0; i < NF_N_KINDS; i++)
    if (strlen (nf_kind_table[i].name) == len
	&& strncasecmp (nf_kind_table[i].name, name, len) == 0)
      return nf_kind_table[i].kind;
  return 0;
}

int
nf_kinds_parse (const char *list, unsigned *mask)
{
  unsigned result = 0;
  const char *p = list;

  if (list == NULL || *list == '\0')
    return -1;
  for (;;)
    {
      size_t len = strcspn (p, ",");
      unsigned k = nf_kind_lookup (p, len);
      if (k == 0)
	return -1;		/* Unknown or empty element.  */
      result |= k;
      if (p[len] == '\0')
	break;
      p += len + 1;
    }
  *mask = result;
  return 0;
}
