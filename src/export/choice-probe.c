/*
 * choice-probe.c - the extra sizes a tuning run measures for the choice
 * at untuned sizes (see choice.h).
 */
#include "export/choice.h"
#include "export/choice-rule.h"
#include "util/util.h"

/* A shape of probe: its (row, col) position in the requested range,
 * whether its columns take its rows' alignment class, and whether it is an
 * anchor (measured with every variant; the tables list anchors first). */
struct probe_shape {
	double at[2];
	int own_cols, anchor;
};

/* The value nearest to target (at least step) that is an odd multiple of
 * step: its alignment is exactly step's. */
static long odd_multiple(double target, long step)
{
	long m = (long)(target / (double)step + 0.5);
	if (m < 1)
		m = 1;
	if (m % 2 == 0)
		m += target >= (double)(m * step) ? 1 : -1;
	return (m < 1 ? 1 : m) * step;
}

/* A dimension near target whose d * esize has exactly the alignment
 * align (align 32: an odd multiple of 32 bytes, the generic aligned case;
 * sizes of larger powers of two are what users tune). */
static long with_alignment(double target, long align, size_t esize)
{
	long step = align / (long)esize;
	return odd_multiple(target, step < 1 ? 1 : step);
}

/* lo * (hi / lo)^t: exp(t ln ratio) by its series (no libm: t ln ratio
 * is a few units at most). */
static double log_position(long lo, double ln_ratio, double t)
{
	double x = ln_ratio * t, term = 1, sum = 1;
	for (int k = 1; k < 60; k++) {
		term *= x / k;
		sum += term;
	}
	return (double)lo * sum;
}

/*
 * A matrix product's probes: its row class is K's alignment, its odd line
 * N's (choice-rule.h), and what else decides its winner is how its tiles
 * fill the SMs (which the rule computes) and K against M N (a long K over
 * few tiles is split-K's).  So for each class of K, five shapes measured
 * with the candidates: a mid cube-like one of even N, one of few tiles (M
 * and N at the small end) with K at the large end, a tall one (M near the
 * large end, N near the small) of even N, and two of odd N, one wide and
 * one of about a third of the mid shape's M N.  The rule reads the sizes
 * nearest in shape: with one shape of odd N, at 1908 x 4871 for 1024-8192,
 * a held-out 909x2081x2328 took its 64 x 128 tile from there at 0.86 of
 * cuBLAS, where the header's 96 x 64 ran at 0.92; and no shape had M
 * well above N, as 2504x688x2060 or 5762x799x4318 do.  With the two
 * more, a cold run's header took that shape to 0.92 and its worst of 30
 * held-out shapes from 0.86 to 0.90; at 40 shapes of another seed, 6
 * were below 0.90 where 7 had been
 * (docs/studies/gemm-probes-a-tall-shape-and-a-second-of-odd-n.md).  A
 * shape that no search visits costs a second or two (its candidates are
 * compiled).
 * None is an anchor by default: a search of its own at each would cost
 * more than the requested sizes' (a matrix product's variant takes a
 * tenth of a second or more to measure at these sizes).  The requested
 * sizes' fastest, though, are the kernels of sizes whose tiles divide
 * them (powers of two), and at shapes of few tiles, or small ones off the
 * powers, the space holds kernels 1.4 to 1.6 times faster than any of
 * them (H200, docs/studies/gemm-stages-cold-run-and-candidates.md).  With
 * search_probes, the shapes of few tiles and, for each class of K, a small
 * shape (M and N near the small end, K a little above) are anchors: each
 * gets a search of its own (of the tuner's probe budget), whose fastest
 * join the candidates.  And so does the mid shape of K's widest class,
 * with the requested sizes' budget (PROBE_WIDE): its tiles fill the SMs in
 * about two turns of the squares' fastest (128 x 256 tiles), and kernels
 * of smaller tiles win there by more than the squares' fastest lose (on
 * an H200, 41.9 TFLOP/s searched at 3000^3 against 39.1 for the best of
 * the candidates of the squares and the other probes), so a run that
 * searches only powers of two has no candidate of that kind without it
 * (docs/studies/gemm-a-searched-mid-shape.md).
 */
static size_t gemm_probes(long lo, long hi, size_t esize, const long *classes, int nclass, int search_probes,
			  struct dims *out, int *anchor, size_t max)
{
	/* (M, N, K) positions between lo (0) and hi (1), log scale; N odd or
	 * of an even class in turn; whether an anchor with search_probes,
	 * whether probed only then, and whether that of the widest class of K
	 * is an anchor of the requested sizes' budget then. */
	static const struct { double at[3]; int odd_n, searched, only_searched, wide; } shapes[] = {
		{ { 0.5, 0.5, 0.5 }, 0, 0, 0, 1 }, { { 0.3, 0.75, 0.4 }, 1, 0, 0, 0 }, { { 0.0, 0.1, 1.0 }, 0, 1, 0, 0 },
		{ { 0.03, 0.0, 0.15 }, 0, 1, 1, 0 }, { { 0.8, 0.1, 0.35 }, 0, 0, 0, 0 }, { { 0.1, 0.4, 0.3 }, 1, 0, 0, 0 },
	};
	const double ln_ratio = gputune_choice_ln((double)hi / (double)lo);
	size_t n = 0;
	/* The anchors first (the tuner's order: pass 0), then the rest. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
			if (shapes[s].only_searched && !search_probes)
				continue;
			for (int c = 0; c < nclass && n < max; c++) {
				/* The widest class of K is the last. */
				const int wide = search_probes && shapes[s].wide && c == nclass - 1;
				const int anchored = search_probes && (shapes[s].searched || wide);
				if (anchored != !pass)
					continue;
				long even = classes[1 + (c + (int)s) % (nclass - 1)];
				out[n].rows = with_alignment(log_position(lo, ln_ratio, shapes[s].at[0]), even, esize);
				out[n].cols = with_alignment(log_position(lo, ln_ratio, shapes[s].at[1]),
							     shapes[s].odd_n ? classes[0] : even, esize);
				out[n].depth = with_alignment(log_position(lo, ln_ratio, shapes[s].at[2]), classes[c], esize);
				anchor[n++] = wide ? PROBE_WIDE : anchored;
			}
		}
	}
	return n;
}

size_t choice_probe_sizes(int shape, const struct dims *req, size_t nreq, size_t esize, int search_probes,
			  struct dims *out, int *anchor, size_t max)
{
	if (nreq == 0)
		return 0;
	long lo = req[0].rows, hi = req[0].rows;
	for (size_t i = 0; i < nreq; i++) {
		long a = shape == 1 || req[i].rows < req[i].cols ? req[i].rows : req[i].cols;
		long b = shape == 1 || req[i].rows > req[i].cols ? req[i].rows : req[i].cols;
		if (shape == 3) {
			a = req[i].depth < a ? req[i].depth : a;
			b = req[i].depth > b ? req[i].depth : b;
		}
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	/* At least a factor of four of range, never below 64. */
	if (lo > hi / 4)
		lo = hi / 4;
	if (lo < 64)
		lo = 64;
	if (hi < lo * 4)
		hi = lo * 4;
	/* Shapes as (row, col) positions between lo (0) and hi (1), log scale;
	 * the first two, the mid and the small square, are the anchors: a
	 * small matrix stays in L2, where other variants win than at the mid
	 * size (f16 near 1025 x 1025 on an H100: 81 to 91% of the ceiling with
	 * the candidates of the mid sizes, 92 to 93% with every variant).
	 * Their column alignments take turns over the classes, except where
	 * own_cols is set: a large matrix whose columns align as its rows do
	 * (rows and columns both odd is a quarter of all sizes for 2-byte
	 * types, and the turns give it no large shape). */
	static const struct probe_shape shapes[] = {
		{ { 0.5, 0.5 }, 0, 1 }, { { 0.0, 0.0 }, 0, 1 }, { { 0.95, 0.9 }, 0, 0 }, { { 0.9, 0.12 }, 0, 0 },
		{ { 0.12, 0.9 }, 0, 0 }, { { 0.75, 0.3 }, 0, 0 }, { { 0.3, 0.75 }, 0, 0 }, { { 0.85, 0.8 }, 1, 0 },
	};
	/* Vectors: a mid length (the anchor), a short and a long one (at 3/4
	 * of the range on a log scale: the longest lengths are the costliest
	 * to prepare, and a vector has no shape to learn beyond its length). */
	static const struct probe_shape lengths[] = { { { 0.5, 0 }, 0, 1 }, { { 0.1, 0 }, 0, 0 }, { { 0.75, 0 }, 0, 0 } };
	const struct probe_shape *shape_at = shape == 1 ? lengths : shapes;
	size_t nshapes = shape == 1 ? ARRAY_SIZE(lengths) : ARRAY_SIZE(shapes);
	long classes[6];
	int nclass = 0;
	for (long a = (long)esize; a <= 32; a *= 2)
		classes[nclass++] = a;
	if (shape == 3)
		return gemm_probes(lo, hi, esize, classes, nclass, search_probes, out, anchor, max);
	/* A vector's row class is all of its shape: a class the requested
	 * lengths already have needs no probe (matrices of one class still
	 * differ in aspect, so they are probed whatever was asked). */
	int covered[6] = { 0 };
	for (int c = 0; c < nclass; c++)
		for (size_t i = 0; shape == 1 && i < nreq; i++)
			covered[c] |= gputune_choice_align(req[i].rows, (long)esize) == classes[c];
	const double ln_ratio = gputune_choice_ln((double)hi / (double)lo);
	size_t n = 0;
	/* Every class's anchors first, then the other shapes: the tuner takes
	 * the candidates it measures at the other shapes from the requested
	 * sizes and all the anchors. */
	for (size_t s = 0; s < nshapes; s++) {
		double dim[2];
		for (int d = 0; d < 2; d++)
			dim[d] = log_position(lo, ln_ratio, shape_at[s].at[d]);
		for (int c = 0; c < nclass && n < max; c++) {
			if (covered[c])
				continue;
			/* Odd columns (one element's alignment) at every other
			 * shape, from small to large: the rule's evidence at odd
			 * columns is the row class's sizes of odd columns alone;
			 * the even classes take turns at the rest. */
			long colclass = classes[1 + (c + (int)s / 2) % (nclass - 1)];
			if (s % 2)
				colclass = classes[0];
			if (shape_at[s].own_cols)
				colclass = classes[c];
			out[n].rows = with_alignment(dim[0], classes[c], esize);
			out[n].cols = shape == 1 ? 1 : with_alignment(dim[1], colclass, esize);
			out[n].depth = 1;
			anchor[n] = shape_at[s].anchor;
			n++;
		}
	}
	return n;
}
