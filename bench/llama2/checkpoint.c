/* checkpoint.c: a random-weights checkpoint in llama2.c's run.c format
   (version 0, shared classifier), stories15M's shape: dim 288, hidden
   768, 6 layers, 6 heads, 6 KV heads, vocab 32000, seq_len 256.  Weights
   uniform from a fixed LCG, scaled by 1/sqrt (fan-in); RMSNorm weights in
   [0.5, 1.5).  With run.c's own tokenizer.bin (vocab 32000) and -t 0 it
   generates 256 tokens, the same in every build.

   Usage: checkpoint OUT.bin      (60 MB)

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long lcg = 0x853c49e6748fea9bull;

/* Return a uniform float in [-1, 1).  */
static float
uniform (void)
{
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return (float) ((lcg >> 11) * 0x1p-53 * 2 - 1);
}

/* Write N floats OFF + SCALE * uniform () to F.  */
static void
put (FILE *f, long n, float scale, float off)
{
  for (long i = 0; i < n; i++)
    {
      float v = off + scale * uniform ();
      fwrite (&v, sizeof v, 1, f);
    }
}

int
main (int argc, char **argv)
{
  int dim = 288, hidden = 768, layers = 6, heads = 6, kv_heads = 6;
  int vocab = 32000, seq = 256;
  int config[7] = { dim, hidden, layers, heads, kv_heads, vocab, seq };
  long d = dim, h = hidden, l = layers, kv = (long) kv_heads * (dim / heads);
  float sd = 1 / sqrtf (dim), sh = 1 / sqrtf (hidden);
  if (argc != 2)
    {
      fprintf (stderr, "usage: checkpoint OUT.bin\n");
      return 2;
    }
  FILE *f = fopen (argv[1], "wb");
  if (!f)
    {
      perror (argv[1]);
      return 1;
    }
  fwrite (config, sizeof config, 1, f);
  put (f, vocab * d, 1, 0);	    /* token_embedding_table (and wcls) */
  put (f, l * d, 0.5f, 1);	    /* rms_att_weight */
  put (f, l * d * d, sd, 0);	    /* wq */
  put (f, l * d * kv, sd, 0);	    /* wk */
  put (f, l * d * kv, sd, 0);	    /* wv */
  put (f, l * d * d, sd, 0);	    /* wo */
  put (f, l * d, 0.5f, 1);	    /* rms_ffn_weight */
  put (f, l * h * d, sd, 0);	    /* w1 */
  put (f, l * d * h, sh, 0);	    /* w2 */
  put (f, l * h * d, sd, 0);	    /* w3 */
  put (f, d, 0.5f, 1);		    /* rms_final_weight */
  put (f, seq * (d / heads) / 2, 1, 0); /* freq_cis_real (unused) */
  put (f, seq * (d / heads) / 2, 1, 0); /* freq_cis_imag (unused) */
  if (fclose (f))
    {
      perror (argv[1]);
      return 1;
    }
  return 0;
}
