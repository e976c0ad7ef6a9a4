/* The idiom kinds neuronfuse knows, named as the Neuron compiler's
   FusionKind tags, and the parser of the `kinds=` list.
   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#ifndef NF_KINDS_H
#define NF_KINDS_H

#ifdef __cplusplus
extern "C" {
#endif

enum nf_kind
{
  NF_KIND_RMSNORM = 1u << 0,
  NF_KIND_MULREDSQRT = 1u << 1,
  NF_KIND_EXPM1 = 1u << 2,
  NF_KIND_LOG1P = 1u << 3,
  NF_KIND_ELEMENTWISE = 1u << 4,
  NF_KIND_DOT = 1u << 5,
  NF_KIND_SOFTMAX = 1u << 6
};

/* Every kind.  */
#define NF_KIND_ALL                                                           \
  (NF_KIND_RMSNORM | NF_KIND_MULREDSQRT | NF_KIND_EXPM1 | NF_KIND_LOG1P      \
   | NF_KIND_ELEMENTWISE | NF_KIND_DOT | NF_KIND_SOFTMAX)

/* The FusionKind name of KIND ("RMSNorm", "MulRedSqrt", "Expm1", "Log1p",
   "Elementwise", "Dot", "Softmax"),
   or "?" for a value that is not exactly one kind.  */
const char *nf_kind_name (enum nf_kind kind);

/* Parse LIST, a comma-separated list of kind names (case-insensitive) or
   "all", into *MASK.  Returns 0 on success; on an empty list, an empty
   element or an unknown name returns -1 and leaves *MASK unchanged.  */
int nf_kinds_parse (const char *list, unsigned *mask);

#ifdef __cplusplus
}
#endif

#endif /* NF_KINDS_H */
