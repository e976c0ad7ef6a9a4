/* roofline.c: the machine models and the roofline chart of
   neuronfuse-report.

   A roofline (Williams, Waterman, Patterson, CACM 2009) bounds what a
   kernel can reach on a machine by  min (peak FLOP/s, bandwidth x
   intensity),  intensity = FLOPs / bytes moved.  The ridge point
   peak / bandwidth (FLOP/B) splits memory-bound kernels (left of it) from
   compute-bound ones (right).  Each region's FLOPs and bytes are per
   element, as the report records them (lower/report.h), so their ratio is
   the region's intensity at any size.  Example, RMSNorm f32 with a
   weight: 4 FLOP / 16 B = 0.25 FLOP/B, left of every ridge below:
   memory-bound everywhere.

   The chart is an inline SVG (no script, no font files): log-log axes,
   decades as grid lines, the roof(s) of the machine, and one point per
   region at (intensity, attainable FLOP/s), labelled with the region's
   number on the page.

   Limitations: one level of memory (DRAM or HBM; no cache roofs); the
   host's peak compute is an estimate, not a measurement; the Neuron
   numbers are per chip (two NeuronCore-v2), not per instance.

   Copyright (C) 2026 The neuronfuse developers.  GPL-3.0-or-later.  */

#include "nf-report.h"

#include <math.h>
#include <string.h>

/* The presets.  Sources:
   host: bandwidth = bench/RESULTS.md, `make bench` of 2026-11-29: memcpy
     30.24 GB/s (128 MiB in + 128 MiB out) on the project's machine, a KVM
     guest of an AMD EPYC Zen 5 with 2 vCPUs.  Peak compute is an ESTIMATE,
     not measured: 2 cores x 2 FMA pipes x 16 float lanes (AVX-512) x
     2 FLOP per FMA x 2.1 GHz (the guest's /proc/cpuinfo "cpu MHz",
     2096) = 268.8 GFLOP/s in float.
   trn1: one Trainium chip (two NeuronCore-v2), AWS Neuron documentation,
     https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trainium.html
     : 820 GB/s of device memory (HBM) bandwidth (the page says "GiB/sec";
     the NKI architecture guide, .../nki/arch/trainium_inferentia2_arch.html,
     says 820 GB/s: we use 820e9 B/s), 47.5 FP32 TFLOPS and 190
     BF16/FP16 TFLOPS.  Those peaks are the TensorEngine's (matrix
     multiplies).  Elementwise ops and reductions, what the fused regions
     are, run on the VectorEngine and ScalarEngine:
     https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/neuron-core-v2.html
     gives 2.3 FP32 TFLOPS for the VectorEngine (and 2.9 for the
     ScalarEngine) per NeuronCore-v2, so 2 x 2.3 = 4.6 TFLOPS per chip is
     the roof these regions meet, and the one the ridge point uses.
   inf2: one Inferentia2 chip (two NeuronCore-v2),
     https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/inferentia2.html
     : the same published numbers as Trainium (820 GB/s, 47.5 FP32
     TFLOPS, 190 BF16/FP16 TFLOPS) and the same NeuronCore-v2 engines, so
     its roofs coincide with trn1's; it is a preset of its own so the page
     names the device a reader targets.  */
const nf_machine nf_machines[] = {
  { "host", "this host (AMD EPYC Zen 5 guest, 2 vCPUs)", 30.24e9, 268.8e9,
    "float AVX-512 FMA peak (estimate)", 0, NULL,
    "Bandwidth: memcpy 30.24 GB/s measured by make bench "
    "(bench/RESULTS.md); peak: an estimate, 2 cores x 2 FMA x 16 float "
    "lanes x 2 FLOP x 2.1 GHz = 268.8 GFLOP/s." },
  { "trn1", "AWS Trainium (Trn1), one chip", 820e9, 4.6e12,
    "VectorEngine FP32, 2 x 2.3 TFLOPS", 47.5e12,
    "TensorEngine FP32 (matrix multiplies only)",
    "AWS Neuron docs (Trainium and NeuronCore-v2 architecture pages): "
    "820 GB/s HBM; elementwise ops and reductions run on the VectorEngine, "
    "2.3 FP32 TFLOPS per NeuronCore-v2, two per chip; the 47.5 FP32 "
    "TFLOPS peak is the TensorEngine's." },
  { "inf2", "AWS Inferentia2 (Inf2), one chip", 820e9, 4.6e12,
    "VectorEngine FP32, 2 x 2.3 TFLOPS", 47.5e12,
    "TensorEngine FP32 (matrix multiplies only)",
    "AWS Neuron docs (Inferentia2 and NeuronCore-v2 architecture pages): "
    "the same chip numbers as Trainium, 820 GB/s HBM, two NeuronCore-v2 "
    "with a 2.3 FP32 TFLOPS VectorEngine each; 47.5 FP32 TFLOPS is the "
    "TensorEngine's." },
};
const size_t nf_n_machines = sizeof nf_machines / sizeof nf_machines[0];

const nf_machine *
nf_machine_find (const char *key)
{
  for (size_t i = 0; i < nf_n_machines; i++)
    if (strcmp (nf_machines[i].key, key) == 0)
      return &nf_machines[i];
  return NULL;
}

bool
nf_roof_placeable (const nf_rregion *r)
{
  return r->flops > 0 && r->bytes > 0;
}

/* The chart's geometry: the plot area in SVG units, and the decades it
   spans.  */
enum
{
  W = 640,
  H = 400,
  X0 = 78,
  X1 = 610,
  Y0 = 24,
  Y1 = 340
};
#define XMIN_EXP (-2) /* Intensity from 0.01 ...  */
#define XMAX_EXP 3    /* ... to 1000 FLOP/B.  */

/* The span of the vertical axis for M, in GFLOP/s exponents.  */
static void
nf_roof_yrange (const nf_machine *m, int *lo, int *hi)
{
  double top = m->peak2 > m->peak ? m->peak2 : m->peak;
  *hi = (int) ceil (log10 (top * 2 / 1e9));
  *lo = *hi - 6;
}

static double
nf_px (double ai)
{
  double t = (log10 (ai) - XMIN_EXP) / (XMAX_EXP - XMIN_EXP);
  return X0 + t * (X1 - X0);
}

static double
nf_py (double gflops, int lo, int hi)
{
  double t = (log10 (gflops) - lo) / (double) (hi - lo);
  return Y1 - t * (Y1 - Y0);
}

/* A power of ten 10^E as a short label: 0.01, 1, 1000, 1e+06.  */
static void
nf_decade (char *buf, size_t size, int e)
{
  if (e >= -3 && e <= 4)
    snprintf (buf, size, "%g", pow (10, e));
  else
    snprintf (buf, size, "1e%d", e);
}

/* The roof at PEAK FLOP/s for M: the bandwidth slope up to the ridge,
   then flat.  CLASS styles it.  */
static void
nf_roof_line (FILE *f, const nf_machine *m, double peak, const char *cls,
	      int lo, int hi)
{
  double xs = pow (10, XMIN_EXP), xe = pow (10, XMAX_EXP);
  double ridge = peak / m->bandwidth;
  double ys = xs * m->bandwidth / 1e9;
  if (ys < pow (10, lo))
    {
      /* The slope enters the chart through its floor.  */
      ys = pow (10, lo);
      xs = ys * 1e9 / m->bandwidth;
    }
  fprintf (
    f, "<polyline class=\"%s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
    cls, nf_px (xs), nf_py (ys, lo, hi), nf_px (ridge),
    nf_py (peak / 1e9, lo, hi), nf_px (xe), nf_py (peak / 1e9, lo, hi));
}

void
nf_roof_svg (FILE *f, const nf_machine *m, const nf_rset *set)
{
  int lo, hi;
  char buf[32];

  nf_roof_yrange (m, &lo, &hi);
  fprintf (f,
	   "<svg class=\"roofline\" data-machine=\"%s\" "
	   "xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
	   "width=\"%d\" height=\"%d\" role=\"img\">\n<title>Roofline of ",
	   m->key, W, H, W, H);
  nf_html_escape (f, m->name);
  fputs ("</title>\n", f);
  /* Grid and axis labels, one line per decade.  */
  for (int e = XMIN_EXP; e <= XMAX_EXP; e++)
    {
      double x = nf_px (pow (10, e));
      nf_decade (buf, sizeof buf, e);
      fprintf (f,
	       "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
	       "y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\" "
	       "text-anchor=\"middle\">%s</text>\n",
	       x, Y0, x, Y1, x, Y1 + 16, buf);
    }
  for (int e = lo; e <= hi; e++)
    {
      double y = nf_py (pow (10, e), lo, hi);
      nf_decade (buf, sizeof buf, e);
      fprintf (f,
	       "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
	       "y2=\"%.1f\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" "
	       "text-anchor=\"end\">%s</text>\n",
	       X0, y, X1, y, X0 - 6, y + 4, buf);
    }
  fprintf (f,
	   "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
	   "arithmetic intensity (FLOP/byte)</text>\n"
	   "<text class=\"axis\" transform=\"translate(16 %d) rotate(-90)\" "
	   "text-anchor=\"middle\">attainable GFLOP/s</text>\n",
	   (X0 + X1) / 2, H - 18, (Y0 + Y1) / 2);
  /* The roofs, and the ridge point of the one that binds.  */
  if (m->peak2 > 0)
    {
      nf_roof_line (f, m, m->peak2, "roof2", lo, hi);
      fprintf (f, "<text class=\"legend\" x=\"%d\" y=\"%.1f\">", X1 - 4,
	       nf_py (m->peak2 / 1e9, lo, hi) - 5);
      nf_html_escape (f, m->peak2_what);
      fputs ("</text>\n", f);
    }
  nf_roof_line (f, m, m->peak, "roof", lo, hi);
  double ridge = m->peak / m->bandwidth;
  fprintf (f,
	   "<line class=\"ridge\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	   "y2=\"%d\"/>\n<text class=\"legend\" x=\"%d\" y=\"%.1f\">",
	   nf_px (ridge), nf_py (m->peak / 1e9, lo, hi), nf_px (ridge), Y1,
	   X1 - 4, nf_py (m->peak / 1e9, lo, hi) + 14);
  nf_html_escape (f, m->peak_what);
  fprintf (f, ", ridge %.3g FLOP/B</text>\n", ridge);
  fprintf (f,
	   "<text class=\"bw\" x=\"%d\" y=\"%d\">memory bandwidth %.4g "
	   "GB/s</text>\n",
	   X0 + 8, Y0 + 14, m->bandwidth / 1e9);
  /* One point per placeable region.  */
  int n = 0;
  for (size_t u = 0; u < set->n_units; u++)
    for (size_t i = 0; i < set->units[u].n_regions; i++)
      {
	const nf_rregion *r = &set->units[u].regions[i];
	n++;
	if (!nf_roof_placeable (r))
	  continue;
	double ai = r->flops / r->bytes;
	double perf = fmin (m->peak, ai * m->bandwidth) / 1e9;
	double cx = fmin (fmax (nf_px (ai), X0), X1);
	double cy = nf_py (perf, lo, hi);
	fprintf (f, "<g class=\"pt\" data-region=\"%d\" data-kind=\"", n);
	nf_html_escape (f, r->kind);
	fprintf (f, "\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>#%d ",
		 cx, cy, n);
	nf_html_escape (f, r->kind);
	fputs (" in ", f);
	nf_html_escape (f, r->function);
	fprintf (f,
		 ": %.3g FLOP/B, at most %.4g GFLOP/s</title></circle>"
		 "<text x=\"%.1f\" y=\"%.1f\">#%d</text></g>\n",
		 ai, perf, cx + 7, cy - 6 - 10 * (n % 3), n);
      }
  fputs ("</svg>\n", f);
}

void
nf_roof_sentence (FILE *f, const nf_machine *m, const nf_rregion *r)
{
  if (!nf_roof_placeable (r))
    {
      fputs ("not placed: the report gives no FLOP and byte counts for it", f);
      return;
    }
  double ai = r->flops / r->bytes;
  double ridge = m->peak / m->bandwidth;
  bool memory = ai < ridge;
  fprintf (f, "%s-bound on ", memory ? "memory" : "compute");
  nf_html_escape (f, m->name);
  fprintf (f,
	   ": its intensity %.3g FLOP/B is %s the ridge point %.3g FLOP/B, "
	   "so it reaches at most %.4g GFLOP/s (%s)",
	   ai, memory ? "below" : "at or above", ridge,
	   fmin (m->peak, ai * m->bandwidth) / 1e9,
	   memory ? "bandwidth x intensity: moving fewer bytes helps, faster "
		    "arithmetic does not"
		  : "the compute peak: fewer or cheaper operations help");
  /* The cost is that of the region as a tensor op (its operand read, its
     result written); in the host program it is one call on a value in
     registers.  */
  if (r->scalar)
    fputs ("; as written it is one scalar call on a value in registers, "
	   "so on the host it is latency-bound: the point is the op as a "
	   "Neuron tensor op would run it",
	   f);
}
