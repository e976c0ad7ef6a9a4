/* Area: runtime, nf_elementwise (the interpreter of runtime/ewprog.h).
   Purpose: every program gives, element for element, the bits of a
   scalar reference interpreter written here (plain C, each instruction
   evaluated per element in float or double, uncontracted; the
   transcendentals by the library's own array kernels on one element,
   whose accuracy the single-function programs check against long
   double); the activation programs the plugin encodes (ELU, SELU float
   and double, softplus, tanh, CELU, a two-input one), every opcode and
   CMP predicate in both types, 400 random programs; NaN, +-Inf, +-0,
   subnormal inputs; lengths around the block sizes; in place (y == x0,
   y == x1); elements past n untouched; errno unchanged; the FAST flag
   (its kernels, within 1 ulp); and that a malformed program aborts with
   the message (each in a child process).  Once per instruction set
   (runtime.exp, isa.h).

   The cache of decoded programs (runtime/elementwise.c keeps one per
   program address, checked against a copy of the program's bytes on
   every call): one buffer rewritten between calls with other valid
   programs (the same address, contents that differ only in a constant,
   an opcode, the flags, or the header), each call giving its program's
   results; scalars and in-place calls that change between calls of one
   cached program (expm1 (x) + s0 with s0 = +0, then -0); 600 programs
   at addresses of their own, more than the cache holds, each called
   again later; and two threads released together into programs nobody
   has called yet, shared ones and their own, and a buffer of each
   rewritten between calls, every result checked.  Built with
   -DNF_EW_THREADS_ONLY, only the thread test runs (for a
   ThreadSanitizer build of the runtime, libnf-tsan).  */
/* { dg-do run } */
/* { dg-options "-pthread" } */

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include "nf-test.h"
#include "isa.h"
#include <errno.h>
#include <ewprog.h>
#include <neuronfuse.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

/* A program being built.  */
struct prog
{
  unsigned char ins[NF_EW_MAX_INSNS + 4][8];
  double consts[NF_EW_MAX_CONSTS];
  unsigned ni, nc, nregs, flags, yt, xt[2];
  unsigned char
    bytes[NF_EW_HEADER + (NF_EW_MAX_INSNS + 4) * 8 + NF_EW_MAX_CONSTS * 8];
};

static void
p_init (struct prog *p, unsigned yt, unsigned x0t, unsigned x1t, unsigned nregs,
	unsigned flags)
{
  memset (p, 0, sizeof *p);
  p->yt = yt, p->xt[0] = x0t, p->xt[1] = x1t;
  p->nregs = nregs, p->flags = flags;
}

/* Append OP of TYPE: r[D] = OP (r[A], r[B], r[C]; AUX).  */
static void
p_ins (struct prog *p, unsigned op, unsigned type, unsigned d, unsigned a,
       unsigned b, unsigned c, unsigned aux)
{
  unsigned char *in = p->ins[p->ni++];
  in[0] = op, in[1] = type, in[2] = d, in[3] = a, in[4] = b, in[5] = c;
  in[6] = aux, in[7] = 0;
}

/* Return the index of a new constant V.  */
static unsigned
p_const (struct prog *p, double v)
{
  p->consts[p->nc] = v;
  return p->nc++;
}

/* Lay P out as ewprog.h says and return the bytes.  */
static const unsigned char *
p_bytes (struct prog *p)
{
  unsigned char *b = p->bytes;
  b[0] = NF_EW_VERSION, b[1] = p->ni, b[2] = p->nregs, b[3] = p->flags;
  b[4] = p->nc, b[5] = p->yt, b[6] = p->xt[0], b[7] = p->xt[1];
  memcpy (b + NF_EW_HEADER, p->ins, p->ni * 8);
  for (unsigned i = 0; i < p->nc; i++)
    {
      uint64_t u;
      memcpy (&u, &p->consts[i], 8);
      for (int k = 0; k < 8; k++)
	b[NF_EW_HEADER + p->ni * 8 + i * 8 + k] = (unsigned char) (u >> 8 * k);
    }
  return b;
}

/* The library's f32 exp on one element: a one-instruction program (its
   accuracy is checked in check_accuracy).  */
static float
lib_expf (float x)
{
  static struct prog p;
  static const unsigned char *b;
  if (!b)
    {
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 1, 0);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_EXP, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
      b = p_bytes (&p);
    }
  float y;
  nf_elementwise (&y, &x, NULL, 1, b, 0, 0, 0, 0);
  return y;
}

/* One register of the reference.  */
union reg
{
  float f;
  double d;
  int b;
};

/* The reference: element I of program P on X0, X1 (NULL if absent) and
   S, stored through *Y (of P's y type).  */
static void
ref_element (const struct prog *p, void *y, const void *x0, const void *x1,
	     size_t i, const double *s)
{
  union reg r[NF_EW_MAX_REGS];
  int fast = p->flags & NF_EW_FLAG_FAST;
  for (unsigned k = 0; k < p->ni; k++)
    {
      const unsigned char *in = p->ins[k];
      unsigned op = in[0], f64 = in[1] == NF_EW_F64, aux = in[6];
      union reg a = r[in[3]], b = r[in[4]], c = r[in[5]], v = { 0 };
      switch (op)
	{
	case NF_EW_LOAD:
	  {
	    const void *x = aux ? x1 : x0;
	    if (f64)
	      v.d = ((const double *) x)[i];
	    else
	      v.f = ((const float *) x)[i];
	    break;
	  }
	case NF_EW_PARAM:
	case NF_EW_CONST:
	  {
	    double w = op == NF_EW_PARAM ? s[aux] : p->consts[aux];
	    if (f64)
	      v.d = w;
	    else
	      v.f = (float) w;
	    break;
	  }
#define BIN(OP, EF, ED)                                                        \
  case OP:                                                                     \
    if (f64)                                                                   \
      {                                                                        \
	double x = a.d, z = b.d;                                               \
	(void) z;                                                              \
	v.d = ED;                                                              \
      }                                                                        \
    else                                                                       \
      {                                                                        \
	float x = a.f, z = b.f;                                                \
	(void) z;                                                              \
	v.f = EF;                                                              \
      }                                                                        \
    break;
	  BIN (NF_EW_ADD, x + z, x + z)
	  BIN (NF_EW_SUB, x - z, x - z)
	  BIN (NF_EW_MUL, x * z, x * z)
	  BIN (NF_EW_DIV, x / z, x / z)
	  BIN (NF_EW_NEG, -x, -x)
	  BIN (NF_EW_ABS, fabsf (x), fabs (x))
	  /* fmin, fmax with the interpreter's choice of zero (ewprog.h
	     allows either; check_minmax checks the rest).  */
	  BIN (NF_EW_MIN, (x < z || z != z) ? x : z, (x < z || z != z) ? x : z)
	  BIN (NF_EW_MAX, (x > z || z != z) ? x : z, (x > z || z != z) ? x : z)
	  BIN (NF_EW_SQRT, sqrtf (x), sqrt (x))
#undef BIN
	case NF_EW_CMP:
	  {
	    int d64 = NF_EW_CMP_TYPE (aux) == NF_EW_F64;
	    double x = d64 ? a.d : a.f, z = d64 ? b.d : b.f;
	    switch (NF_EW_CMP_PRED (aux))
	      {
	      case NF_EW_LT:
		v.b = x < z;
		break;
	      case NF_EW_LE:
		v.b = x <= z;
		break;
	      case NF_EW_GT:
		v.b = x > z;
		break;
	      case NF_EW_GE:
		v.b = x >= z;
		break;
	      case NF_EW_EQ:
		v.b = x == z;
		break;
	      default:
		v.b = x != z;
		break;
	      }
	    break;
	  }
	case NF_EW_SELECT:
	  v = a.b ? b : c;
	  break;
	case NF_EW_CONVERT:
	  if (aux == NF_EW_BOOL)
	    {
	      if (f64)
		v.d = a.b;
	      else
		v.f = (float) a.b;
	    }
	  else if (f64)
	    v.d = aux == NF_EW_F64 ? a.d : (double) a.f;
	  else
	    v.f = aux == NF_EW_F32 ? a.f : (float) a.d;
	  break;
	case NF_EW_EXP:
	  if (f64)
	    v.d = exp (a.d);
	  else
	    v.f = lib_expf (a.f);
	  break;
	case NF_EW_LOG:
	  if (f64)
	    v.d = log (a.d);
	  else
	    v.f = logf (a.f);
	  break;
	case NF_EW_EXPM1:
	  if (f64)
	    nf_expm1_f64 (&v.d, &a.d, 1);
	  else if (fast)
	    nf_expm1_fast_f32 (&v.f, &a.f, 1);
	  else
	    nf_expm1_f32 (&v.f, &a.f, 1);
	  break;
	case NF_EW_LOG1P:
	  if (f64)
	    nf_log1p_f64 (&v.d, &a.d, 1);
	  else if (fast)
	    nf_log1p_fast_f32 (&v.f, &a.f, 1);
	  else
	    nf_log1p_f32 (&v.f, &a.f, 1);
	  break;
	case NF_EW_STORE:
	  if (p->yt == NF_EW_F64)
	    ((double *) y)[0] = a.d;
	  else
	    ((float *) y)[0] = a.f;
	  return;
	}
      r[in[2]] = v;
    }
}

/* Inputs: specials first, then values of every magnitude.  */
#define NX 1800
#define GUARD 8
static float xf0[NX + 2 * GUARD], xf1[NX + 2 * GUARD];
static double xd0[NX + 2 * GUARD], xd1[NX + 2 * GUARD];
static unsigned char ybuf[(NX + 2 * GUARD) * 8], want[(NX + 2 * GUARD) * 8];

static uint64_t seed = 0x2545f4914f6cdd1dull;

static uint64_t
rnd64 (void)
{
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return seed;
}

/* A random double: mostly in [-8, 8), sometimes of any exponent.  */
static double
rnd_value (void)
{
  uint64_t r = rnd64 ();
  if (r % 8 == 0)
    return ldexp ((double) (r >> 11) * 0x1p-53 - 0.5, (int) (r % 300) - 150);
  return (double) (r >> 11) * 0x1p-49 - 8;
}

static void
fill_inputs (void)
{
  static const double sp[]
    = { NAN,	  -NAN,	     INFINITY, -INFINITY, 0.0,	     -0.0,
	0x1p-149, -0x1p-149, 0x1p-130, -0x1p-127, 0x1p-1074, -0x1p-1030,
	FLT_MAX,  -FLT_MAX,  DBL_MAX,  -DBL_MAX,  1.0,	     -1.0,
	0.5,	  -0.5,	     88.8,     -88.8,	  89.0,	     -104.0,
	-110.0,	  710.0,     -746.0,   20.0,	  20.5,	     -0x1p-30,
	0x1p-30,  1e-10,     -0.99999, 2.0,	  -2.0,	     1e30 };
  for (size_t i = 0; i < NX + 2 * GUARD; i++)
    {
      size_t j = i % 97; /* Specials recur, so every block has some.  */
      double a = j < NF_N (sp) ? sp[j] : rnd_value ();
      double b = (j + 5) % 97 < NF_N (sp) ? sp[(j + 5) % 97] : rnd_value ();
      xd0[i] = a, xd1[i] = b, xf0[i] = (float) a, xf1[i] = (float) b;
    }
}

/* Whether the results A and B (of 4 or 8 bytes SIZE) agree: the same
   bits, or both NaN.  */
static int
same (const void *a, const void *b, size_t size)
{
  if (memcmp (a, b, size) == 0)
    return 1;
  if (size == 4)
    {
      float u, v;
      memcpy (&u, a, 4), memcpy (&v, b, 4);
      return isnan (u) && isnan (v);
    }
  double u, v;
  memcpy (&u, a, 8), memcpy (&v, b, 8);
  return isnan (u) && isnan (v);
}

static int failed_programs;
static long runs, elements; /* Counted for the log.  */

/* Run P on N elements from offset OFF, out of place (Y in ybuf), with y
   = x0 (INPLACE 1) or y = x1 (2), and compare with the reference;
   report under NAME.  */
static void
run_one (struct prog *p, const char *name, size_t n, size_t off, int inplace,
	 const double *s)
{
  const unsigned char *b = p_bytes (p);
  size_t ys = p->yt == NF_EW_F64 ? 8 : 4;
  size_t xs[2]
    = { p->xt[0] == NF_EW_F64 ? 8 : 4, p->xt[1] == NF_EW_F64 ? 8 : 4 };
  void *xin[2] = { p->xt[0] == NF_EW_F64 ? (void *) xd0 : (void *) xf0,
		   p->xt[1] == NF_EW_F64 ? (void *) xd1 : (void *) xf1 };
  /* The inputs, copied (in place overwrites them).  */
  static unsigned char xc[2][(NX + 2 * GUARD) * 8];
  const void *x[2] = { NULL, NULL };
  for (int k = 0; k < 2; k++)
    if (p->xt[k] != NF_EW_NONE)
      {
	memcpy (xc[k], xin[k], (NX + 2 * GUARD) * xs[k]);
	x[k] = xc[k] + (GUARD + off) * xs[k];
      }
  for (size_t i = 0; i < n; i++)
    ref_element (p, want + i * ys, x[0], x[1], i, s);
  void *y = ybuf + (GUARD + off) * ys;
  if (inplace)
    {
      y = (void *) x[inplace - 1];
      if (!y || xs[inplace - 1] != ys)
	return;
    }
  else
    memset (ybuf, 0x5a, sizeof ybuf);
  unsigned char *ybase = (unsigned char *) y - (GUARD + off) * ys;
  unsigned char before[GUARD * 8], after[GUARD * 8];
  memcpy (before, (unsigned char *) y - GUARD * ys, GUARD * ys);
  (void) ybase;
  memcpy (after, (unsigned char *) y + n * ys, GUARD * ys);
  errno = 4321;
  nf_elementwise (y, x[0], x[1], n, b, s[0], s[1], s[2], s[3]);
  runs++, elements += (long) n;
  int ok = errno == 4321;
  ok &= memcmp (before, (unsigned char *) y - GUARD * ys, GUARD * ys) == 0;
  ok &= memcmp (after, (unsigned char *) y + n * ys, GUARD * ys) == 0;
  size_t bad = n;
  for (size_t i = 0; i < n && bad == n; i++)
    if (!same ((unsigned char *) y + i * ys, want + i * ys, ys))
      bad = i;
  if (!ok || bad < n)
    {
      if (failed_programs++ < 20)
	{
	  fprintf (stderr, "%s: n %zu off %zu inplace %d: %s", name, n, off,
		   inplace, !ok ? "errno or guard changed" : "");
	  if (bad < n)
	    {
	      double g = ys == 8 ? ((double *) y)[bad] : ((float *) y)[bad];
	      double w
		= ys == 8 ? ((double *) want)[bad] : ((float *) want)[bad];
	      double in0 = !x[0]	? 0
			   : xs[0] == 8 ? ((const double *) x[0])[bad]
					: ((const float *) x[0])[bad];
	      fprintf (stderr, "[%zu] x0 %a: got %a, want %a", bad, in0, g, w);
	    }
	  fprintf (stderr, "\n");
	}
      CHECK (!"nf_elementwise differs from the reference");
    }
}

/* The lengths: around 16 (the vector tails), 256 and 512 (blocks).  */
static const size_t lens[]
  = { 0, 1, 3, 15, 16, 17, 255, 256, 257, 511, 512, 513, 773, 1541 };

/* P on every length at offset 0 and 1, out of place and in place.  */
static void
run_all (struct prog *p, const char *name, const double *s)
{
  for (size_t l = 0; l < NF_N (lens); l++)
    for (size_t off = 0; off < 2; off++)
      for (int inplace = 0; inplace < 3; inplace++)
	run_one (p, name, lens[l], off, inplace, s);
}

static const double s_default[4] = { 1.5, -0.25, 0.0, 3.0 };

/* The activations the plugin encodes.  */
static void
check_activations (void)
{
  struct prog p;
  for (unsigned fl = 0; fl <= NF_EW_FLAG_FAST; fl++)
    {
      /* ELU: x > 0 ? x : alpha * (expm1 (x) + 0), alpha = s0.  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 6, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, 0.0));
      p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	     NF_EW_CMP_AUX (NF_EW_GT, NF_EW_F32));
      p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 3, 0, 0, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 3, 3, 1, 0, 0);
      p_ins (&p, NF_EW_PARAM, NF_EW_F32, 4, 0, 0, 0, 0);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 3, 4, 3, 0, 0);
      p_ins (&p, NF_EW_SELECT, NF_EW_F32, 5, 2, 0, 3, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 5, 0, 0, 0);
      run_all (&p, fl ? "elu fast" : "elu", s_default);

      /* SELU, darknet's float form: (float) (x >= 0) * 1.0507f * x
	 + (float) (x < 0) * 1.0507f * 1.6732f * expm1 (x).  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 8, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, 0.0));
      p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	     NF_EW_CMP_AUX (NF_EW_GE, NF_EW_F32));
      p_ins (&p, NF_EW_CONVERT, NF_EW_F32, 3, 2, 0, 0, NF_EW_BOOL);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 4, 0, 0, 0,
	     p_const (&p, (double) 1.0507f));
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 3, 3, 4, 0, 0);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 3, 3, 0, 0, 0);
      p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	     NF_EW_CMP_AUX (NF_EW_LT, NF_EW_F32));
      p_ins (&p, NF_EW_CONVERT, NF_EW_F32, 5, 2, 0, 0, NF_EW_BOOL);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 5, 5, 4, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 6, 0, 0, 0,
	     p_const (&p, (double) 1.6732f));
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 5, 5, 6, 0, 0);
      p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 7, 0, 0, 0, 0);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 5, 5, 7, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 3, 3, 5, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 3, 0, 0, 0);
      run_all (&p, fl ? "selu fast" : "selu", s_default);

      /* softplus with a threshold: x > 20 ? x : log1p (exp (x)).  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 4, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, 20.0));
      p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	     NF_EW_CMP_AUX (NF_EW_GT, NF_EW_F32));
      p_ins (&p, NF_EW_EXP, NF_EW_F32, 3, 0, 0, 0, 0);
      p_ins (&p, NF_EW_LOG1P, NF_EW_F32, 3, 3, 0, 0, 0);
      p_ins (&p, NF_EW_SELECT, NF_EW_F32, 1, 2, 0, 3, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 1, 0, 0, 0);
      run_all (&p, fl ? "softplus fast" : "softplus", s_default);

      /* tanh by expm1: t = expm1 (2 x), t / (t + 2).  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 3, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, 2.0));
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 0, 1, 0, 0, 0);
      p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 2, 0, 1, 0, 0);
      p_ins (&p, NF_EW_DIV, NF_EW_F32, 0, 0, 2, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
      run_all (&p, fl ? "tanh fast" : "tanh", s_default);

      /* CELU: max (0, x) + min (0, alpha * (expm1 (x / alpha) + 0)).  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 5, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, 0.0));
      p_ins (&p, NF_EW_PARAM, NF_EW_F32, 2, 0, 0, 0, 0);
      p_ins (&p, NF_EW_MAX, NF_EW_F32, 3, 1, 0, 0, 0);
      p_ins (&p, NF_EW_DIV, NF_EW_F32, 4, 0, 2, 0, 0);
      p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 4, 4, 0, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 4, 1, 4, 0, 0);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 4, 2, 4, 0, 0);
      p_ins (&p, NF_EW_MIN, NF_EW_F32, 4, 1, 4, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 0, 3, 4, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
      run_all (&p, fl ? "celu fast" : "celu", s_default);
      static const double s_half[4] = { 0.5, 0, 0, 0 };
      run_all (&p, fl ? "celu fast 0.5" : "celu 0.5", s_half);

      /* Two inputs: x0 * x1 + expm1 (x0).  */
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_F32, 3, fl);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 1, 0, 0, 0, 1);
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 1, 0, 1, 0, 0);
      p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 2, 0, 0, 0, 0);
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 0, 1, 2, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
      run_all (&p, fl ? "x0*x1+expm1 fast" : "x0*x1+expm1", s_default);
    }

  /* darknet's SELU in double on float data: x widened, (x >= 0) * 1.0507
   * x + (x < 0) * 1.0507 * 1.6732 * expm1 (x) in double, narrowed.  */
  p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 7, 0);
  p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_CONVERT, NF_EW_F64, 0, 0, 0, 0, NF_EW_F32);
  p_ins (&p, NF_EW_CONST, NF_EW_F64, 1, 0, 0, 0, p_const (&p, 0.0));
  p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	 NF_EW_CMP_AUX (NF_EW_GE, NF_EW_F64));
  p_ins (&p, NF_EW_CONVERT, NF_EW_F64, 3, 2, 0, 0, NF_EW_BOOL);
  p_ins (&p, NF_EW_CONST, NF_EW_F64, 4, 0, 0, 0, p_const (&p, 1.0507));
  p_ins (&p, NF_EW_MUL, NF_EW_F64, 3, 3, 4, 0, 0);
  p_ins (&p, NF_EW_MUL, NF_EW_F64, 3, 3, 0, 0, 0);
  p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
	 NF_EW_CMP_AUX (NF_EW_LT, NF_EW_F64));
  p_ins (&p, NF_EW_CONVERT, NF_EW_F64, 5, 2, 0, 0, NF_EW_BOOL);
  p_ins (&p, NF_EW_MUL, NF_EW_F64, 5, 5, 4, 0, 0);
  p_ins (&p, NF_EW_CONST, NF_EW_F64, 6, 0, 0, 0, p_const (&p, 1.6732));
  p_ins (&p, NF_EW_MUL, NF_EW_F64, 5, 5, 6, 0, 0);
  p_ins (&p, NF_EW_EXPM1, NF_EW_F64, 6, 0, 0, 0, 0);
  p_ins (&p, NF_EW_MUL, NF_EW_F64, 5, 5, 6, 0, 0);
  p_ins (&p, NF_EW_ADD, NF_EW_F64, 3, 3, 5, 0, 0);
  p_ins (&p, NF_EW_CONVERT, NF_EW_F32, 3, 3, 0, 0, NF_EW_F64);
  p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 3, 0, 0, 0);
  run_all (&p, "selu f64", s_default);

  /* f64 in and out: log (exp (x)) + log1p (|x|) + expm1 (x) + 0, and a
     float log of a narrowed x, widened back.  */
  p_init (&p, NF_EW_F64, NF_EW_F64, NF_EW_NONE, 4, 0);
  p_ins (&p, NF_EW_LOAD, NF_EW_F64, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_EXP, NF_EW_F64, 1, 0, 0, 0, 0);
  p_ins (&p, NF_EW_LOG, NF_EW_F64, 1, 1, 0, 0, 0);
  p_ins (&p, NF_EW_ABS, NF_EW_F64, 2, 0, 0, 0, 0);
  p_ins (&p, NF_EW_LOG1P, NF_EW_F64, 2, 2, 0, 0, 0);
  p_ins (&p, NF_EW_ADD, NF_EW_F64, 1, 1, 2, 0, 0);
  p_ins (&p, NF_EW_EXPM1, NF_EW_F64, 2, 0, 0, 0, 0);
  p_ins (&p, NF_EW_CONST, NF_EW_F64, 3, 0, 0, 0, p_const (&p, 0.0));
  p_ins (&p, NF_EW_ADD, NF_EW_F64, 2, 3, 2, 0, 0);
  p_ins (&p, NF_EW_ADD, NF_EW_F64, 1, 1, 2, 0, 0);
  p_ins (&p, NF_EW_CONVERT, NF_EW_F32, 2, 0, 0, 0, NF_EW_F64);
  p_ins (&p, NF_EW_LOG, NF_EW_F32, 2, 2, 0, 0, 0);
  p_ins (&p, NF_EW_CONVERT, NF_EW_F64, 2, 2, 0, 0, NF_EW_F32);
  p_ins (&p, NF_EW_ADD, NF_EW_F64, 1, 1, 2, 0, 0);
  p_ins (&p, NF_EW_STORE, NF_EW_F64, 0, 1, 0, 0, 0);
  run_all (&p, "f64 logs", s_default);

  /* y = x, y = a constant, y = s1: no step at all.  */
  p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 1, 0);
  p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
  run_all (&p, "copy", s_default);
  p_init (&p, NF_EW_F64, NF_EW_NONE, NF_EW_NONE, 1, 0);
  p_ins (&p, NF_EW_CONST, NF_EW_F64, 0, 0, 0, 0, p_const (&p, -0.0));
  p_ins (&p, NF_EW_STORE, NF_EW_F64, 0, 0, 0, 0, 0);
  run_all (&p, "const", s_default);
  p_init (&p, NF_EW_F32, NF_EW_NONE, NF_EW_F64, 2, 0);
  p_ins (&p, NF_EW_PARAM, NF_EW_F32, 1, 0, 0, 0, 1);
  p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 1, 0, 0, 0);
  run_all (&p, "param", s_default);

  /* expm1 (x) - 0 and + -0 keep -0: not the _pz kernel.  */
  p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 2, 0);
  p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_EXPM1, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_CONST, NF_EW_F32, 1, 0, 0, 0, p_const (&p, -0.0));
  p_ins (&p, NF_EW_ADD, NF_EW_F32, 0, 1, 0, 0, 0);
  p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
  run_all (&p, "expm1 + -0", s_default);
  p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 2, 0);
  p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_LOG1P, NF_EW_F32, 0, 0, 0, 0, 0);
  p_ins (&p, NF_EW_PARAM, NF_EW_F32, 1, 0, 0, 0, 2); /* s2 = +0 */
  p_ins (&p, NF_EW_ADD, NF_EW_F32, 0, 0, 1, 0, 0);
  p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
  run_all (&p, "log1p + s2", s_default);
}

/* Every opcode in both types, every CMP predicate of both types into
   SELECTs of all three types, CONVERT in every direction: one program
   each, r0 = x0 and r1 = x1.  */
static void
check_every_op (void)
{
  struct prog p;
  for (unsigned t = NF_EW_F32; t <= NF_EW_F64; t++)
    {
      static const unsigned bin[]
	= { NF_EW_ADD, NF_EW_SUB, NF_EW_MUL, NF_EW_DIV, NF_EW_MIN, NF_EW_MAX };
      static const unsigned un[]
	= { NF_EW_NEG,	 NF_EW_ABS, NF_EW_SQRT, NF_EW_EXP,
	    NF_EW_EXPM1, NF_EW_LOG, NF_EW_LOG1P };
      char name[64];
      for (size_t i = 0; i < NF_N (bin); i++)
	{
	  p_init (&p, t, t, t, 3, 0);
	  p_ins (&p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
	  p_ins (&p, NF_EW_LOAD, t, 1, 0, 0, 0, 1);
	  p_ins (&p, bin[i], t, 2, 0, 1, 0, 0);
	  p_ins (&p, NF_EW_STORE, t, 0, 2, 0, 0, 0);
	  snprintf (name, sizeof name, "op %u type %u", bin[i], t);
	  run_all (&p, name, s_default);
	}
      for (size_t i = 0; i < NF_N (un); i++)
	for (unsigned fl = 0; fl <= NF_EW_FLAG_FAST; fl++)
	  {
	    p_init (&p, t, t, NF_EW_NONE, 1, fl);
	    p_ins (&p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
	    p_ins (&p, un[i], t, 0, 0, 0, 0, 0);
	    p_ins (&p, NF_EW_STORE, t, 0, 0, 0, 0, 0);
	    snprintf (name, sizeof name, "op %u type %u flags %u", un[i], t,
		      fl);
	    run_all (&p, name, s_default);
	  }
      for (unsigned pred = NF_EW_LT; pred <= NF_EW_NE; pred++)
	for (unsigned st = NF_EW_F32; st <= NF_EW_BOOL; st++)
	  {
	    /* r2 = x0 PRED x1; y = r2 ? (st) x0 : (st) x1 (bool: through
	       a select of bools and a convert).  */
	    unsigned yt = st == NF_EW_BOOL ? t : st;
	    p_init (&p, yt, t, t, 6, 0);
	    p_ins (&p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
	    p_ins (&p, NF_EW_LOAD, t, 1, 0, 0, 0, 1);
	    p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0,
		   NF_EW_CMP_AUX (pred, t));
	    if (st == NF_EW_BOOL)
	      {
		p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 3, 1, 0, 0,
		       NF_EW_CMP_AUX (NF_EW_LT, t));
		p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 4, 0, 0, 0,
		       NF_EW_CMP_AUX (NF_EW_EQ, t));
		p_ins (&p, NF_EW_SELECT, NF_EW_BOOL, 5, 2, 3, 4, 0);
		p_ins (&p, NF_EW_CONVERT, t, 5, 5, 0, 0, NF_EW_BOOL);
	      }
	    else
	      {
		p_ins (&p, NF_EW_CONVERT, st, 3, 0, 0, 0, t);
		p_ins (&p, NF_EW_CONVERT, st, 4, 1, 0, 0, t);
		p_ins (&p, NF_EW_SELECT, st, 5, 2, 3, 4, 0);
	      }
	    p_ins (&p, NF_EW_STORE, yt, 0, 5, 0, 0, 0);
	    snprintf (name, sizeof name, "cmp %u type %u select %u", pred, t,
		      st);
	    run_all (&p, name, s_default);
	    /* And the bool itself, converted: 0 or 1.  */
	    p_init (&p, t, t, t, 3, 0);
	    p_ins (&p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
	    p_ins (&p, NF_EW_LOAD, t, 1, 0, 0, 0, 1);
	    p_ins (&p, NF_EW_CMP, NF_EW_BOOL, 2, 1, 0, 0,
		   NF_EW_CMP_AUX (pred, t));
	    p_ins (&p, NF_EW_CONVERT, t, 2, 2, 0, 0, NF_EW_BOOL);
	    p_ins (&p, NF_EW_STORE, t, 0, 2, 0, 0, 0);
	    run_all (&p, name, s_default);
	  }
    }
}

/* MIN and MAX are fmin and fmax, signed zeros aside (either may come);
   spot checks of the NaN cases the reference shares with the code.  */
static void
check_minmax (void)
{
  float a[6] = { NAN, 1, NAN, -0.0f, 0.0f, -INFINITY };
  float b[6] = { 2, NAN, NAN, 0.0f, -0.0f, INFINITY };
  for (unsigned op = NF_EW_MIN; op <= NF_EW_MAX; op++)
    {
      struct prog p;
      float y[6];
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_F32, 2, 0);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 1, 0, 0, 0, 1);
      p_ins (&p, op, NF_EW_F32, 0, 0, 1, 0, 0);
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 0, 0, 0, 0);
      nf_elementwise (y, a, b, 6, p_bytes (&p), 0, 0, 0, 0);
      for (int i = 0; i < 6; i++)
	{
	  float w = op == NF_EW_MIN ? fminf (a[i], b[i]) : fmaxf (a[i], b[i]);
	  CHECK ((isnan (w) && isnan (y[i])) || y[i] == w);
	}
    }
}

/* The transcendentals against long double: f32 expm1, log1p and exp
   within 0.5 ulp + 2^-20 (fast expm1 and log1p within 1 ulp), f64 expm1
   and log1p within 1 ulp, f32 log and f64 exp and log bit for bit libm's
   functions; over 2^16 float bit patterns and 10^4 doubles.  */
static void
check_accuracy (void)
{
  enum
  {
    NF = 65536,
    ND = 10000
  };
  static float xf[NF], yf[NF];
  static double xd[ND], yd[ND];
  size_t nf = 0;
  for (uint32_t i = 0; i < NF; i++)
    {
      uint32_t bits = i * 65537u;
      float x;
      memcpy (&x, &bits, sizeof x);
      xf[nf++] = x;
    }
  for (size_t i = 0; i < ND; i++)
    xd[i] = i % 2 ? rnd_value () : ldexp (rnd_value (), (int) (i % 40) - 20);
  static const unsigned ops[]
    = { NF_EW_EXP, NF_EW_EXPM1, NF_EW_LOG, NF_EW_LOG1P };
  for (size_t o = 0; o < NF_N (ops); o++)
    for (unsigned fl = 0; fl <= NF_EW_FLAG_FAST; fl++)
      for (unsigned t = NF_EW_F32; t <= NF_EW_F64; t++)
	{
	  struct prog p;
	  unsigned op = ops[o];
	  p_init (&p, t, t, NF_EW_NONE, 1, fl);
	  p_ins (&p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
	  p_ins (&p, op, t, 0, 0, 0, 0, 0);
	  p_ins (&p, NF_EW_STORE, t, 0, 0, 0, 0, 0);
	  long double worst = 0, bound;
	  errno = 77;
	  if (t == NF_EW_F32)
	    {
	      nf_elementwise (yf, xf, NULL, nf, p_bytes (&p), 0, 0, 0, 0);
	      CHECK (errno == 77);
	      bound = fl && (op == NF_EW_EXPM1 || op == NF_EW_LOG1P)
			? 1
			: 0.5L + 0x1p-20L;
	      for (size_t i = 0; i < nf; i++)
		{
		  long double x = xf[i], r;
		  if (op == NF_EW_LOG)
		    {
		      float w = logf (xf[i]);
		      CHECK (same (&w, &yf[i], 4));
		      continue;
		    }
		  r = op == NF_EW_EXP	  ? expl (x)
		      : op == NF_EW_EXPM1 ? expm1l (x)
					  : log1pl (x);
		  float rr = (float) r;
		  if (isnan (rr) || isinf (rr) || rr == 0)
		    {
		      CHECK ((isnan (rr) && isnan (yf[i])) || yf[i] == rr);
		      if (rr == 0 && yf[i] == 0)
			CHECK (!!signbit (rr) == !!signbit (yf[i]));
		      continue;
		    }
		  long double e = NF_ULPS_F (yf[i], r);
		  if (e > worst)
		    worst = e;
		  if (e > bound)
		    fprintf (stderr, "op %u f32 flags %u: x %a: %a, %Lg ulp\n",
			     op, fl, xf[i], yf[i], e);
		}
	    }
	  else
	    {
	      nf_elementwise (yd, xd, NULL, ND, p_bytes (&p), 0, 0, 0, 0);
	      CHECK (errno == 77);
	      bound = 1;
	      for (size_t i = 0; i < ND; i++)
		{
		  if (op == NF_EW_LOG || op == NF_EW_EXP)
		    {
		      double w = op == NF_EW_LOG ? log (xd[i]) : exp (xd[i]);
		      CHECK (same (&w, &yd[i], 8));
		      continue;
		    }
		  long double x = xd[i];
		  long double r = op == NF_EW_EXPM1 ? expm1l (x) : log1pl (x);
		  double rr = (double) r;
		  if (isnan (rr) || isinf (rr) || rr == 0)
		    {
		      CHECK ((isnan (rr) && isnan (yd[i])) || yd[i] == rr);
		      continue;
		    }
		  long double e = NF_ULPS_D (yd[i], r);
		  if (e > worst)
		    worst = e;
		  if (e > bound)
		    fprintf (stderr, "op %u f64: x %a: %a, %Lg ulp\n", op,
			     xd[i], yd[i], e);
		}
	    }
	  CHECK (worst <= bound);
	}
}

/* Random programs: up to 40 instructions of every kind over up to 12
   registers, registers reused at random (the interpreter renames
   them), both types, one or two inputs, the FAST flag.  */
static void
check_random (void)
{
  static const double pool[] = { 0.0,  -0.0, 1.0,    -1.0, 0.5,	     2.0,
				 20.0, 1e30, -1e-30, NAN,  INFINITY, 3.25 };
  for (int prog_i = 0; prog_i < 400; prog_i++)
    {
      struct prog p;
      unsigned yt = rnd64 () % 2, x0t = rnd64 () % 2;
      unsigned x1t = rnd64 () % 3 == 0 ? NF_EW_NONE : rnd64 () % 2;
      unsigned nregs = 2 + rnd64 () % (NF_EW_MAX_REGS - 1);
      p_init (&p, yt, x0t, x1t, nregs, rnd64 () % 2);
      unsigned rt[NF_EW_MAX_REGS];
      for (unsigned r = 0; r < nregs; r++)
	rt[r] = NF_EW_NONE;
      unsigned len = 1 + rnd64 () % 40;
      while (p.ni < len)
	{
	  unsigned op = NF_EW_LOAD + rnd64 () % (NF_EW_STORE - NF_EW_LOAD);
	  unsigned t = rnd64 () % 2, d = rnd64 () % nregs;
	  /* Registers of type T (and BOOL), one at random.  */
	  unsigned of_t[NF_EW_MAX_REGS], nt = 0, of_b[NF_EW_MAX_REGS], nb = 0;
	  for (unsigned r = 0; r < nregs; r++)
	    {
	      if (rt[r] == t)
		of_t[nt++] = r;
	      if (rt[r] == NF_EW_BOOL)
		of_b[nb++] = r;
	    }
#define PICK_T (of_t[rnd64 () % nt])
	  if (op != NF_EW_LOAD && op != NF_EW_PARAM && op != NF_EW_CONST
	      && nt == 0)
	    op = NF_EW_LOAD + rnd64 () % 3;
	  if ((op == NF_EW_SELECT || (op == NF_EW_CONVERT && rnd64 () % 2))
	      && nb == 0)
	    op = NF_EW_CMP;
	  switch (op)
	    {
	    case NF_EW_LOAD:
	      {
		unsigned k = x1t != NF_EW_NONE ? rnd64 () % 2 : 0;
		t = k ? x1t : x0t;
		p_ins (&p, op, t, d, 0, 0, 0, k);
		break;
	      }
	    case NF_EW_PARAM:
	      p_ins (&p, op, t, d, 0, 0, 0, rnd64 () % 4);
	      break;
	    case NF_EW_CONST:
	      if (p.nc == NF_EW_MAX_CONSTS)
		continue;
	      p_ins (&p, op, t, d, 0, 0, 0,
		     p_const (&p, pool[rnd64 () % NF_N (pool)]));
	      break;
	    case NF_EW_ADD:
	    case NF_EW_SUB:
	    case NF_EW_MUL:
	    case NF_EW_DIV:
	    case NF_EW_MIN:
	    case NF_EW_MAX:
	      {
		unsigned a = PICK_T, b = PICK_T;
		p_ins (&p, op, t, d, a, b, 0, 0);
		break;
	      }
	    case NF_EW_CMP:
	      {
		unsigned a = PICK_T, b = PICK_T;
		p_ins (&p, op, NF_EW_BOOL, d, a, b, 0,
		       NF_EW_CMP_AUX (rnd64 () % 6, t));
		t = NF_EW_BOOL;
		break;
	      }
	    case NF_EW_SELECT:
	      {
		unsigned c = of_b[rnd64 () % nb];
		if (rnd64 () % 4 == 0)
		  {
		    unsigned a = of_b[rnd64 () % nb], b = of_b[rnd64 () % nb];
		    p_ins (&p, op, NF_EW_BOOL, d, c, a, b, 0);
		    t = NF_EW_BOOL;
		  }
		else
		  {
		    unsigned a = PICK_T, b = PICK_T;
		    p_ins (&p, op, t, d, c, a, b, 0);
		  }
		break;
	      }
	    case NF_EW_CONVERT:
	      {
		/* From a bool, or from the other float type.  */
		unsigned from_r
		  = nb && rnd64 () % 2 ? of_b[rnd64 () % nb] : PICK_T;
		unsigned to = rnd64 () % 2;
		p_ins (&p, op, to, d, from_r, 0, 0, rt[from_r]);
		t = to;
		break;
	      }
	    default: /* NEG ABS SQRT EXP EXPM1 LOG LOG1P.  */
	      {
		unsigned a = PICK_T;
		/* Mostly the transcendentals of small arguments.  */
		p_ins (&p, op, t, d, a, 0, 0, 0);
		break;
	      }
	    }
#undef PICK_T
	  rt[d] = t;
	}
      /* The stored value: a register of y's type, converted if need be.  */
      unsigned sr = nregs;
      for (unsigned r = 0; r < nregs; r++)
	if (rt[r] == yt && (sr == nregs || rnd64 () % 2))
	  sr = r;
      if (sr == nregs)
	{
	  unsigned from_r = 0;
	  while (rt[from_r] == NF_EW_NONE)
	    from_r++;
	  p_ins (&p, NF_EW_CONVERT, yt, 0, from_r, 0, 0, rt[from_r]);
	  sr = 0;
	}
      p_ins (&p, NF_EW_STORE, yt, 0, sr, 0, 0, 0);
      double s[4];
      for (int k = 0; k < 4; k++)
	s[k] = rnd64 () % 3 ? pool[rnd64 () % NF_N (pool)] : rnd_value ();
      char name[32];
      snprintf (name, sizeof name, "random %d", prog_i);
      static const size_t rl[] = { 1, 17, 256, 300, 773 };
      for (size_t l = 0; l < NF_N (rl); l++)
	for (int inplace = 0; inplace < 3; inplace++)
	  run_one (&p, name, rl[l], l % 2, inplace, s);
    }
}

/* A malformed program: P's bytes with byte AT set to V (AT < 0: as
   built), run on N elements in a child, must abort with the message.  */
static void
expect_abort (struct prog *p, int at, unsigned v, const char *what, size_t n)
{
  unsigned char b[sizeof p->bytes];
  memcpy (b, p_bytes (p), sizeof b);
  if (at >= 0)
    b[at] = (unsigned char) v;
  int fd[2];
  CHECK (pipe (fd) == 0);
  fflush (stdout), fflush (stderr); /* Not written again by the child.  */
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fd[1], 2);
      close (fd[0]);
      float x[4] = { 1, 2, 3, 4 }, y[4];
      nf_elementwise (y, x, x, n, b, 0, 0, 0, 0);
      _exit (0);
    }
  close (fd[1]);
  char msg[512];
  size_t got = 0;
  ssize_t r;
  while ((r = read (fd[0], msg + got, sizeof msg - 1 - got)) > 0)
    got += (size_t) r;
  msg[got] = 0;
  close (fd[0]);
  int st;
  CHECK (waitpid (pid, &st, 0) == pid);
  static const char want_msg[]
    = "libneuronfuse: internal error: bad elementwise program (";
  int ok = WIFSIGNALED (st) && WTERMSIG (st) == SIGABRT
	   && strncmp (msg, want_msg, sizeof want_msg - 1) == 0;
  if (!ok)
    fprintf (stderr, "%s: status %#x, stderr \"%s\"\n", what, st, msg);
  CHECK (ok);
}

static void
check_bad_programs (void)
{
  struct prog p;
  /* A valid base: y = x0 * x0 + s0 (instructions at 8, 16, 24, 32).  */
#define BASE()                                                                 \
  do                                                                           \
    {                                                                          \
      p_init (&p, NF_EW_F32, NF_EW_F32, NF_EW_NONE, 3, 0);                     \
      p_ins (&p, NF_EW_LOAD, NF_EW_F32, 0, 0, 0, 0, 0);                        \
      p_ins (&p, NF_EW_MUL, NF_EW_F32, 1, 0, 0, 0, 0);                         \
      p_ins (&p, NF_EW_PARAM, NF_EW_F32, 2, 0, 0, 0, 0);                       \
      p_ins (&p, NF_EW_ADD, NF_EW_F32, 1, 1, 2, 0, 0);                         \
      p_ins (&p, NF_EW_STORE, NF_EW_F32, 0, 1, 0, 0, 0);                       \
    }                                                                          \
  while (0)
  static const struct
  {
    int at;
    unsigned v;
    const char *what;
  } cases[] = {
    { 0, 2, "version" },
    { 1, 0, "no instructions" },
    { 1, NF_EW_MAX_INSNS + 1, "too many instructions" },
    { 1, 4, "the last is not a STORE" },
    { 2, 0, "no registers" },
    { 2, NF_EW_MAX_REGS + 1, "too many registers" },
    { 2, 2, "register past the count" },
    { 3, 2, "unknown flag" },
    { 4, NF_EW_MAX_CONSTS + 1, "too many constants" },
    { 5, NF_EW_BOOL, "y of type BOOL" },
    { 6, 7, "x0 of type 7" },
    { 6, NF_EW_NONE, "LOAD of an absent x0" },
    { 7, NF_EW_BOOL, "x1 of type BOOL" },
    { 8, 0, "opcode 0" },
    { 8, NF_EW_OP_COUNT_, "opcode past the last" },
    { 8, NF_EW_STORE, "STORE before the end" },
    { 14, 2, "LOAD of x2" },
    { 14, 1, "LOAD of x1, absent" },
    { 15, 1, "byte 7" },
    { 9, NF_EW_F64, "LOAD of the wrong type" },
    { 17, NF_EW_F64, "MUL of type F64 on floats" },
    { 19, 1, "read before written" },
    { 21, 1, "unused operand" },
    { 25, NF_EW_BOOL, "PARAM of type BOOL" },
    { 30, 4, "PARAM s4" },
    { 33, NF_EW_F64, "ADD of type F64 on floats" },
    { 41, NF_EW_F64, "STORE of the wrong type" },
  };
  for (size_t i = 0; i < NF_N (cases); i++)
    {
      BASE ();
      expect_abort (&p, cases[i].at, cases[i].v, cases[i].what, 4);
    }
  /* Instructions of their own.  */
  struct
  {
    unsigned char ins[8];
    const char *what;
  } bad_ins[] = {
    { { NF_EW_CONST, NF_EW_F32, 2, 0, 0, 0, 0, 0 }, "CONST with none" },
    { { NF_EW_CMP, NF_EW_BOOL, 2, 0, 0, 0, 6, 0 }, "CMP predicate 6" },
    { { NF_EW_CMP, NF_EW_BOOL, 2, 0, 0, 0, 0x20, 0 }, "CMP of BOOLs" },
    { { NF_EW_CMP, NF_EW_F32, 2, 0, 0, 0, 0, 0 }, "CMP into a float" },
    { { NF_EW_CMP, NF_EW_BOOL, 2, 0, 0, 0, 0x10, 0 }, "CMP of F64 floats" },
    { { NF_EW_SELECT, NF_EW_F32, 2, 0, 0, 0, 0, 0 }, "SELECT on a float" },
    { { NF_EW_CONVERT, NF_EW_BOOL, 2, 0, 0, 0, NF_EW_F32, 0 },
      "CONVERT to BOOL" },
    { { NF_EW_CONVERT, NF_EW_F64, 2, 0, 0, 0, NF_EW_F64, 0 },
      "CONVERT from the wrong type" },
    { { NF_EW_CONVERT, NF_EW_F64, 2, 0, 0, 0, 9, 0 }, "CONVERT from 9" },
    { { NF_EW_EXP, NF_EW_BOOL, 2, 0, 0, 0, 0, 0 }, "EXP of type BOOL" },
    { { NF_EW_SQRT, NF_EW_F64, 2, 0, 0, 0, 0, 0 }, "SQRT of the wrong type" },
    { { NF_EW_NEG, NF_EW_F32, 2, 0, 1, 0, 0, 0 }, "NEG with a b" },
    { { NF_EW_ADD, NF_EW_F32, 2, 0, 0, 1, 0, 0 }, "ADD with a c" },
    { { NF_EW_ADD, NF_EW_F32, 3, 0, 0, 0, 0, 0 }, "destination r3 of 3" },
  };
  for (size_t i = 0; i < NF_N (bad_ins); i++)
    {
      BASE ();
      memcpy (p.ins[2], bad_ins[i].ins, 8);
      p.ins[3][4] = 0; /* ADD r1 = r1 + r0: r2 need not be a float.  */
      expect_abort (&p, -1, 0, bad_ins[i].what, 4);
    }
  /* A STORE of a BOOL (r2 = r0 < r0, stored).  */
  BASE ();
  static const unsigned char cmp[8]
    = { NF_EW_CMP, NF_EW_BOOL, 2, 0, 0, 0, NF_EW_CMP_AUX (NF_EW_LT, NF_EW_F32),
	0 };
  memcpy (p.ins[2], cmp, 8);
  p.ins[3][4] = 0, p.ins[4][3] = 2;
  expect_abort (&p, -1, 0, "STORE of a BOOL", 4);
  /* Two STOREs.  */
  BASE ();
  p.ins[3][0] = NF_EW_STORE, p.ins[3][2] = 0, p.ins[3][4] = 0;
  expect_abort (&p, -1, 0, "two STOREs", 4);
  /* The base itself runs (the cases above are not failing for another
     reason).  */
  BASE ();
  float x[3] = { 1, 2, -3 }, y[3];
  nf_elementwise (y, x, NULL, 3, p_bytes (&p), 0.5, 0, 0, 0);
  CHECK (y[0] == 1.5f && y[1] == 4.5f && y[2] == 9.5f);
  /* n == 0 still checks the program.  */
  BASE ();
  p.ins[1][0] = 0;
  expect_abort (&p, -1, 0, "opcode 0, n == 0", 0);
#undef BASE
}

/* The cache: one buffer, rewritten between calls with programs whose
   bytes differ a little (a constant, an opcode, the flags) or a lot (the
   header, the types), each one's results; then back to the first ones,
   which the cache may still hold.  */
static struct prog rewritten; /* Its bytes: the one address.  */

/* Build into P: y = x0 OP c, of type T, flags FL.  */
static void
build_op_const (struct prog *p, unsigned t, unsigned op, double c,
		unsigned fl)
{
  p_init (p, t, t, NF_EW_NONE, 2, fl);
  p_ins (p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
  p_ins (p, NF_EW_CONST, t, 1, 0, 0, 0, p_const (p, c));
  p_ins (p, op, t, 1, 0, 1, 0, 0);
  p_ins (p, NF_EW_STORE, t, 0, 1, 0, 0, 0);
}

/* Build into P: ELU of type T, x > 0 ? x : s0 * (expm1 (x) + 0).  */
static void
build_elu (struct prog *p, unsigned t, unsigned fl)
{
  p_init (p, t, t, NF_EW_NONE, 6, fl);
  p_ins (p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
  p_ins (p, NF_EW_CONST, t, 1, 0, 0, 0, p_const (p, 0.0));
  p_ins (p, NF_EW_CMP, NF_EW_BOOL, 2, 0, 1, 0, NF_EW_CMP_AUX (NF_EW_GT, t));
  p_ins (p, NF_EW_EXPM1, t, 3, 0, 0, 0, 0);
  p_ins (p, NF_EW_ADD, t, 3, 3, 1, 0, 0);
  p_ins (p, NF_EW_PARAM, t, 4, 0, 0, 0, 0);
  p_ins (p, NF_EW_MUL, t, 3, 4, 3, 0, 0);
  p_ins (p, NF_EW_SELECT, t, 5, 2, 0, 3, 0);
  p_ins (p, NF_EW_STORE, t, 0, 5, 0, 0, 0);
}

/* Build into P: y = expm1 (x0) + s0 of type T (the _pz fusion must not
   take a PARAM's value of one call for every call).  */
static void
build_expm1_plus_param (struct prog *p, unsigned t)
{
  p_init (p, t, t, NF_EW_NONE, 2, 0);
  p_ins (p, NF_EW_LOAD, t, 0, 0, 0, 0, 0);
  p_ins (p, NF_EW_EXPM1, t, 0, 0, 0, 0, 0);
  p_ins (p, NF_EW_PARAM, t, 1, 0, 0, 0, 0);
  p_ins (p, NF_EW_ADD, t, 0, 0, 1, 0, 0);
  p_ins (p, NF_EW_STORE, t, 0, 0, 0, 0, 0);
}

/* Run P (its bytes where they are) on a few lengths, out of place and
   in place.  */
static void
run_some (struct prog *p, const char *name, const double *s)
{
  static const size_t rl[] = { 1, 17, 32, 256, 300 };
  for (size_t l = 0; l < NF_N (rl); l++)
    for (int inplace = 0; inplace < 2; inplace++)
      run_one (p, name, rl[l], l % 2, inplace, s);
}

static void
check_cache_rewrite (void)
{
  struct prog *p = &rewritten;
  const unsigned char *at = p->bytes;
  for (int round = 0; round < 3; round++)
    for (int v = 0; v < 9; v++)
      {
	switch (v)
	  {
	  case 0:
	    build_op_const (p, NF_EW_F32, NF_EW_ADD, 1.5, 0);
	    break;
	  case 1: /* Only the constant differs.  */
	    build_op_const (p, NF_EW_F32, NF_EW_ADD, 2.5, 0);
	    break;
	  case 2: /* Only the opcode.  */
	    build_op_const (p, NF_EW_F32, NF_EW_SUB, 2.5, 0);
	    break;
	  case 3: /* Only the flags.  */
	    build_op_const (p, NF_EW_F32, NF_EW_SUB, 2.5, NF_EW_FLAG_FAST);
	    break;
	  case 4: /* Only the types.  */
	    build_op_const (p, NF_EW_F64, NF_EW_SUB, 2.5, 0);
	    break;
	  case 5: /* Another length.  */
	    build_elu (p, NF_EW_F32, 0);
	    break;
	  case 6:
	    build_elu (p, NF_EW_F64, 0);
	    break;
	  case 7: /* The constant of ELU's comparison: x > 1.  */
	    build_elu (p, NF_EW_F32, 0);
	    p->consts[0] = 1.0;
	    break;
	  default:
	    build_expm1_plus_param (p, NF_EW_F32);
	    break;
	  }
	char name[48];
	snprintf (name, sizeof name, "rewritten buffer, program %d", v);
	run_some (p, name, s_default);
	CHECK (p_bytes (p) == at);
      }

  /* One cached program, the scalar it adds changing between calls:
     expm1 (-0) + +0 is +0, expm1 (-0) + -0 is -0.  */
  for (unsigned t = 0; t < 2; t++)
    {
      struct prog q;
      build_expm1_plus_param (&q, t);
      static const double sv[][4]
	= { { 0.0, 0, 0, 0 }, { -0.0, 0, 0, 0 }, { 1.0, 0, 0, 0 },
	    { 0.0, 0, 0, 0 }, { -0.0, 0, 0, 0 } };
      for (size_t k = 0; k < NF_N (sv); k++)
	run_some (&q, "expm1 (x) + s0, s0 changing", sv[k]);
      double mz = -0.0;
      float xz = -0.0f, yz = 1;
      double xzd = -0.0, yzd = 1;
      const unsigned char *b = p_bytes (&q);
      if (t == NF_EW_F32)
	{
	  nf_elementwise (&yz, &xz, NULL, 1, b, 0.0, 0, 0, 0);
	  CHECK (yz == 0 && !signbit (yz));
	  nf_elementwise (&yz, &xz, NULL, 1, b, mz, 0, 0, 0);
	  CHECK (yz == 0 && signbit (yz));
	}
      else
	{
	  nf_elementwise (&yzd, &xzd, NULL, 1, b, 0.0, 0, 0, 0);
	  CHECK (yzd == 0 && !signbit (yzd));
	  nf_elementwise (&yzd, &xzd, NULL, 1, b, mz, 0, 0, 0);
	  CHECK (yzd == 0 && signbit (yzd));
	}
    }
}

/* The cache: more programs than it holds (it has 128 places), each at an
   address of its own, each called twice, the second time after all the
   others.  */
#define MANY 600
static void
check_cache_many (void)
{
  static const unsigned ops[]
    = { NF_EW_ADD, NF_EW_SUB, NF_EW_MUL, NF_EW_DIV, NF_EW_MIN, NF_EW_MAX };
  struct prog *ps = calloc (MANY, sizeof *ps);
  CHECK (ps != NULL);
  if (!ps)
    return;
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < MANY; i++)
      {
	int k = round ? MANY - 1 - i : i;
	struct prog *p = &ps[k];
	if (!round)
	  {
	    if (k % 7 == 6)
	      build_elu (p, k % 2, 0);
	    else
	      build_op_const (p, k % 2, ops[k % NF_N (ops)], 1.0 + k / 64.0, 0);
	    if (k % 7 == 6)
	      p->consts[0] = k / 256.0; /* Each ELU its own threshold.  */
	  }
	char name[48];
	snprintf (name, sizeof name, "program %d of %d", k, MANY);
	run_one (p, name, round ? 257 : 17, k % 2, round, s_default);
	run_one (p, name, round ? 32 : 300, 0, 0, s_default);
      }
  free (ps);
}

/* The cache from two threads at once: each runs the shared programs (ELU
   and a two-input f64 one), programs of its own, and a buffer of its own
   rewritten between two programs, over lengths of every path, all of
   them new to the cache when the threads are released together; every
   result must be the reference's.  */
#define TH 2
#define TH_OWN 24
#define TH_ROUNDS 40
#define TH_N 300

/* A program and its expected results on TH_N elements.  */
struct tprog
{
  struct prog p;
  const void *x0, *x1;
  double s[4];
  size_t ysize;
  unsigned char want[TH_N * 8];
};

struct tjob
{
  int id;
  struct tprog own[TH_OWN], alt[2];
  unsigned char rw[sizeof ((struct prog *) 0)->bytes]; /* Rewritten.  */
  unsigned char y[(TH_N + 1) * 8];
  long calls, bad;
};

static struct tprog shared[2];
static struct tjob jobs[TH];
static pthread_barrier_t th_start;

/* Set T's inputs for its types and its expected results.  */
static void
tprog_expect (struct tprog *t, const double *s)
{
  struct prog *p = &t->p;
  t->x0 = p->xt[0] == NF_EW_F64 ? (const void *) xd0 : (const void *) xf0;
  t->x1 = p->xt[1] == NF_EW_NONE ? NULL
	  : p->xt[1] == NF_EW_F64 ? (const void *) xd1
				  : (const void *) xf1;
  memcpy (t->s, s, sizeof t->s);
  t->ysize = p->yt == NF_EW_F64 ? 8 : 4;
  for (size_t i = 0; i < TH_N; i++)
    ref_element (p, t->want + i * t->ysize, t->x0, t->x1, i, s);
  p_bytes (p);
}

/* Call T's program (its bytes at B) on N elements into J's y; count a
   result that is not the expected one, or a store past N.  */
static void
tcall (struct tjob *j, const struct tprog *t, const unsigned char *b,
       size_t n)
{
  memset (j->y, 0x5a, sizeof j->y);
  nf_elementwise (j->y, t->x0, t->x1, n, b, t->s[0], t->s[1], t->s[2],
		  t->s[3]);
  j->calls++;
  for (size_t i = 0; i < n; i++)
    if (!same (j->y + i * t->ysize, t->want + i * t->ysize, t->ysize))
      {
	j->bad++;
	return;
      }
  for (size_t i = n * t->ysize; i < sizeof j->y; i++)
    if (j->y[i] != 0x5a)
      {
	j->bad++;
	return;
      }
}

static void *
thread_main (void *arg)
{
  struct tjob *j = arg;
  static const size_t tl[] = { 1, 16, 17, 64, 255, 256, 257, 300 };
  pthread_barrier_wait (&th_start);
  for (int r = 0; r < TH_ROUNDS; r++)
    for (int k = 0; k < 2 + TH_OWN + 1; k++)
      {
	size_t n = tl[(size_t) (r + k + j->id) % NF_N (tl)];
	if (k < 2)
	  tcall (j, &shared[k], shared[k].p.bytes, n);
	else if (k < 2 + TH_OWN)
	  tcall (j, &j->own[k - 2], j->own[k - 2].p.bytes, n);
	else
	  {
	    const struct tprog *t = &j->alt[r % 2];
	    memcpy (j->rw, t->p.bytes, sizeof j->rw);
	    tcall (j, t, j->rw, n);
	  }
      }
  return NULL;
}

static void
check_cache_threads (void)
{
  /* Shared: ELU f32 (s0 = alpha), y = x0 * x1 + s1 in f64.  */
  build_elu (&shared[0].p, NF_EW_F32, 0);
  tprog_expect (&shared[0], s_default);
  struct prog *p = &shared[1].p;
  p_init (p, NF_EW_F64, NF_EW_F64, NF_EW_F64, 3, 0);
  p_ins (p, NF_EW_LOAD, NF_EW_F64, 0, 0, 0, 0, 0);
  p_ins (p, NF_EW_LOAD, NF_EW_F64, 1, 0, 0, 0, 1);
  p_ins (p, NF_EW_MUL, NF_EW_F64, 0, 0, 1, 0, 0);
  p_ins (p, NF_EW_PARAM, NF_EW_F64, 2, 0, 0, 0, 1);
  p_ins (p, NF_EW_ADD, NF_EW_F64, 0, 0, 2, 0, 0);
  p_ins (p, NF_EW_STORE, NF_EW_F64, 0, 0, 0, 0, 0);
  tprog_expect (&shared[1], s_default);
  static const unsigned ops[] = { NF_EW_ADD, NF_EW_SUB, NF_EW_MUL, NF_EW_DIV };
  for (int t = 0; t < TH; t++)
    {
      struct tjob *j = &jobs[t];
      j->id = t, j->calls = j->bad = 0;
      for (int k = 0; k < TH_OWN; k++)
	{
	  if (k % 4 == 3)
	    {
	      build_elu (&j->own[k].p, k % 2, 0);
	      j->own[k].p.consts[0] = t + k / 32.0;
	    }
	  else
	    build_op_const (&j->own[k].p, k % 2, ops[k % 4], t * 100 + k + 0.5,
			    0);
	  tprog_expect (&j->own[k], s_default);
	}
      /* Two programs of one length, different bytes, in one buffer.  */
      build_op_const (&j->alt[0].p, NF_EW_F32, NF_EW_MUL, 3.0 + t, 0);
      tprog_expect (&j->alt[0], s_default);
      build_op_const (&j->alt[1].p, NF_EW_F32, NF_EW_ADD, 3.0 + t, 0);
      tprog_expect (&j->alt[1], s_default);
    }
  pthread_t tid[TH];
  CHECK (pthread_barrier_init (&th_start, NULL, TH) == 0);
  for (int t = 0; t < TH; t++)
    CHECK (pthread_create (&tid[t], NULL, thread_main, &jobs[t]) == 0);
  for (int t = 0; t < TH; t++)
    CHECK (pthread_join (tid[t], NULL) == 0);
  pthread_barrier_destroy (&th_start);
  for (int t = 0; t < TH; t++)
    {
      if (jobs[t].bad)
	fprintf (stderr, "thread %d: %ld of %ld calls wrong\n", t, jobs[t].bad,
		 jobs[t].calls);
      CHECK (jobs[t].bad == 0);
      CHECK (jobs[t].calls == TH_ROUNDS * (2 + TH_OWN + 1));
    }
  printf ("%d threads: %ld calls each, shared and own programs\n", TH,
	  jobs[0].calls);
}

int
main (void)
{
  nf_check_isa ();
  fill_inputs ();
  /* First: the threads into a cache nobody has filled.  */
  check_cache_threads ();
#ifdef NF_EW_THREADS_ONLY
  (void) check_accuracy, (void) check_minmax, (void) check_activations;
  (void) check_every_op, (void) check_random, (void) check_cache_rewrite;
  (void) check_cache_many, (void) check_bad_programs;
#else
  check_accuracy ();
  check_minmax ();
  check_activations ();
  check_every_op ();
  check_random ();
  check_cache_rewrite ();
  check_cache_many ();
  check_bad_programs ();
#endif
  printf ("%ld runs of %ld elements in all against the reference\n", runs,
	  elements);
  NF_DONE ();
}
