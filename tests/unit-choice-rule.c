/*
 * unit-choice-rule.c - the choice rule's distance and its use of the
 * column alignment, on made-up evidence: which candidate it picks for
 * which shape.  Prints TAP-like lines; exits 1 on any failure.
 */
#include "export/choice.h"
#include "export/choice-fill.h"
#include "export/choice-rule.h"
#include "unit-check.h"

#include <stdio.h>

static int near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* A matrix product's fill on 132 SMs: one block a tile, variant 1's tiles
 * 128 x 256 (an SM holds one), variant 2's 64 x 128 (an SM holds three). */
static double tile_fill(const void *ctx, int v, long rows, long cols, long depth)
{
	(void)ctx;
	(void)depth;
	long bm = v == 1 ? 128 : 64, bn = v == 1 ? 256 : 128;
	return gputune_choice_fill(((rows + bm - 1) / bm) * ((cols + bn - 1) / bn), 132, v == 1 ? 1 : 3, v == 1 ? 256 : 128);
}

/* The cover alone: variant 1's tiles 128 x 128, variant 2's 96 x 128. */
static double tile_cover(const void *ctx, int v, long rows, long cols, long depth)
{
	(void)ctx;
	(void)depth;
	return gputune_choice_cover(rows, cols, v == 1 ? 128 : 96, 128);
}

int main(void)
{
	const long f32 = 4;
	/* Distance: zero for the same shape; the area and half the aspect;
	 * 0.5 per halving or doubling of the column alignment, capped at 16
	 * bytes, and 3 more across the line between odd columns and even. */
	check(near(gputune_choice_distance(1000, 3000, 1, 1000, 3000, 1, f32), 0), "a shape is at distance 0 of itself",
	      NULL);
	check(near(gputune_choice_distance(2000, 2000, 1, 1000, 1000, 1, f32), 2 * 0.69314718055994530942),
	      "four times the area is ln 4 away", NULL);
	check(near(gputune_choice_distance(1024, 1028, 1, 1024, 1024, 1, f32),
		   gputune_choice_distance(1024, 1024, 1, 1024, 1028, 1, f32)),
	      "the distance is symmetric", NULL);
	double d16 = gputune_choice_distance(1000, 1028, 1, 1000, 1024, 1, f32); /* 16- and 32-byte columns */
	double d8 = gputune_choice_distance(1000, 1026, 1, 1000, 1024, 1, f32);  /* 8- and 32-byte columns */
	double d4 = gputune_choice_distance(1000, 1025, 1, 1000, 1024, 1, f32);  /* odd and 32-byte columns */
	double d48 = gputune_choice_distance(1000, 1025, 1, 1000, 1026, 1, f32); /* odd and 8-byte columns */
	check(d16 < 0.01, "16- and 32-byte aligned columns count as one class (no load is wider)", NULL);
	check(d8 > 0.5 && d8 < 0.51, "8- and 32-byte aligned columns: one doubling apart, 0.5", NULL);
	check(d4 > 4 && d4 < 4.01, "odd and 32-byte aligned columns: two doublings and the odd line, 4", NULL);
	check(d48 > 3.5 && d48 < 3.51, "odd and 8-byte aligned columns: one doubling and the odd line, 3.5", NULL);
	check(gputune_choice_distance(1000, 1001, 1, 1000, 1003, 1, 2) < 0.01 &&
		      gputune_choice_distance(1000, 1001, 1, 1000, 1002, 1, 2) > 3.5,
	      "2-byte elements: odd columns are one element's alignment, across the line from even ones", NULL);
	check(gputune_choice_align(1000, f32) == 32 && gputune_choice_align(1001, f32) == 4 &&
		      gputune_choice_align(1001, 2) == 2,
	      "alignment classes: the largest power of two dividing the bytes, capped at 32", NULL);

	/* Evidence: three sizes of odd rows; variant 10 wins where the
	 * columns are odd too, variant 20 where they are 32-byte aligned. */
	long rows[] = { 3001, 5001, 4001 }, cols[] = { 3001, 3000, 6000 };
	int winner[] = { 10, 20, 20 }, cand[] = { 10, 20 };
	float share[] = { 1.0f, 0.80f, /* 3001x3001 */ 0.85f, 1.0f, /* 5001x3000 */ 0.86f, 1.0f /* 4001x6000 */ };
	int how;
	int v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 7001, 5001, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_CLASS,
	      "odd columns follow the size of odd columns, though the others are nearer in shape", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 7001, 5004, 1, &how);
	check(v == 20, "16-byte aligned columns follow the 32-byte aligned sizes", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 5001, 3000, 1, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_EXACT, "a measured size answers with its winner", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 4000, 4000, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_WORST, "rows of an unmeasured alignment: the best worst case (0.85 over 0.80)",
	      NULL);
	/* Many sizes of even columns near in shape do not outvote one of odd
	 * columns farther off: for odd columns it alone is the evidence (with
	 * the +3 of the odd line alone, the five would score 20 first:
	 * 0.30 + 0.69 x 0.85 against 0.69 + 0.30 x 0.3). */
	long nrows[] = { 3001, 9001, 9001, 9001, 9001, 9001 }, ncols[] = { 3001, 1000, 1002, 1004, 1008, 1016 };
	int nwinner[] = { 10, 20, 20, 20, 20, 20 };
	float nshare[] = { 1.0f, 0.85f, 0.3f, 1.0f, 0.3f, 1.0f, 0.3f, 1.0f, 0.3f, 1.0f, 0.3f, 1.0f };
	v = gputune_choice_rule(6, nrows, ncols, NULL, nwinner, 2, cand, nshare, f32, 9001, 1001, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_CLASS,
	      "odd columns: the row class's sizes of odd columns alone are the evidence, however many others", NULL);
	v = gputune_choice_rule(6, nrows, ncols, NULL, nwinner, 2, cand, nshare, f32, 9001, 1006, 1, &how);
	check(v == 20, "even columns: the sizes of even columns alone", NULL);
	v = gputune_choice_rule(5, nrows + 1, ncols + 1, NULL, nwinner + 1, 2, cand, nshare + 2, f32, 3001, 3001, 1, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_CLASS, "odd columns with none measured: the row class's others", NULL);
	/* A matrix product's sizes across the odd line stay evidence at the
	 * penalty alone: the same sizes as products of one odd K, and the five
	 * of even N outvote the one of odd N. */
	long ndepths[] = { 2049, 2049, 2049, 2049, 2049, 2049 };
	v = gputune_choice_rule(6, nrows, ncols, ndepths, nwinner, 2, cand, nshare, f32, 9001, 1001, 2049, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_CLASS,
	      "matrix products of odd N: the sizes of even N are evidence too, at the odd line's penalty", NULL);
	/* A size where a candidate was not measured (share -1: a search's or a
	 * sample's size) is no evidence, however near: 7001x5003, measured for
	 * 20 alone, would outvote 3001x3001 at 7001x5001 if it counted; it
	 * still answers at itself; and it takes no part in a worst case. */
	long prows[] = { 3001, 5001, 4001, 7001 }, pcols[] = { 3001, 3000, 6000, 5003 };
	int pwinner[] = { 10, 20, 20, 20 };
	float pshare[] = { 1.0f, 0.80f, 0.85f, 1.0f, 0.86f, 1.0f, -1.0f, 1.0f };
	v = gputune_choice_rule(4, prows, pcols, NULL, pwinner, 2, cand, pshare, f32, 7001, 5001, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_CLASS, "a size where a candidate was not measured is no evidence", NULL);
	pshare[6] = 0.5f;
	v = gputune_choice_rule(4, prows, pcols, NULL, pwinner, 2, cand, pshare, f32, 7001, 5001, 1, &how);
	check(v == 20, "... and the same size measured for both is (the check above can fail)", NULL);
	pshare[6] = -1.0f;
	v = gputune_choice_rule(4, prows, pcols, NULL, pwinner, 2, cand, pshare, f32, 7001, 5003, 1, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_EXACT, "such a size answers at itself", NULL);
	v = gputune_choice_rule(1, prows + 3, pcols + 3, NULL, pwinner + 3, 2, cand, pshare + 6, f32, 7001, 5001, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_WORST,
	      "with no other size at all: the first candidate (the model's best worst case, choice.c)", NULL);
	/* 7001x5003 measured for 10 alone: counted, 20's worst case would be -1. */
	float wshare[] = { 0.86f, 1.0f, 1.0f, -1.0f };
	int wwinner[] = { 20, 10 };
	v = gputune_choice_rule(2, prows + 2, pcols + 2, NULL, wwinner, 2, cand, wshare, f32, 4000, 4000, 1, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_WORST, "rows of an unmeasured alignment: the best worst case, skipping it",
	      NULL);
	/* The ranking: at 7001x5001 (odd columns) variant 10 then 20; asked
	 * for more than there are, both; at a measured size its winner alone;
	 * without candidates the nearest size's winner alone. */
	int out[GPUTUNE_CHOICE_MAX_RANK] = { -1, -1, -1 };
	int nr = gputune_choice_rank(3, rows, cols, NULL, winner, 2, cand, share, NULL, NULL, NULL, f32, 7001, 5001, 1, 99, out, &how);
	check(nr == 2 && out[0] == 10 && out[1] == 20 && how == GPUTUNE_CHOICE_CLASS,
	      "the ranking: the choice first, then the next best score", NULL);
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 2, cand, share, NULL, NULL, NULL, f32, 7001, 5004, 1, 1, out, &how);
	check(nr == 1 && out[0] == 20, "a ranking of one is the choice", NULL);
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 2, cand, share, NULL, NULL, NULL, f32, 5001, 3000, 1, 4, out, &how);
	check(nr == 1 && out[0] == 20 && how == GPUTUNE_CHOICE_EXACT, "a measured size ranks its winner alone", NULL);
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 0, cand, share, NULL, NULL, NULL, f32, 3003, 3003, 1, 4, out, &how);
	check(nr == 1 && out[0] == 10 && how == GPUTUNE_CHOICE_NEAREST, "without candidates, the nearest winner alone",
	      NULL);
	/* The spread: four candidates at the sizes above, 11 and 12 on the
	 * path of 10 (paths[] indexed by variant), 20 on another.  At
	 * 7001x5001 by score alone 10, 11, 12, 20; with paths 10, then 20,
	 * the best of another path, then 11 and 12 by score. */
	int cand4[] = { 10, 11, 12, 20 };
	float share4[] = { 1.0f, 0.99f, 0.98f, 0.80f, 0.85f, 0.84f, 0.83f, 1.0f, 0.86f, 0.85f, 0.84f, 1.0f };
	unsigned paths[21] = { 0 };
	paths[10] = paths[11] = paths[12] = 2;
	paths[20] = 5;
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 4, cand4, share4, NULL, NULL, NULL, f32, 7001, 5001, 1, 4, out, &how);
	check(nr == 4 && out[0] == 10 && out[1] == 11 && out[2] == 12 && out[3] == 20,
	      "without paths, the ranking follows the score", NULL);
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 4, cand4, share4, paths, NULL, NULL, f32, 7001, 5001, 1, 4, out, &how);
	check(nr == 4 && out[0] == 10 && out[1] == 20 && out[2] == 11 && out[3] == 12,
	      "with paths, the best of another path second, the rest by score", NULL);
	paths[20] = 2;
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 4, cand4, share4, paths, NULL, NULL, f32, 7001, 5001, 1, 4, out, &how);
	check(nr == 4 && out[1] == 11 && out[3] == 20, "all on one path: by score", NULL);
	nr = gputune_choice_rank(3, rows, cols, NULL, winner, 4, cand4, share4, paths, NULL, NULL, f32, 7001, 5001, 1, 1, out, &how);
	check(nr == 1 && out[0] == 10, "the choice does not depend on the paths", NULL);
	check(gputune_choice_rank(0, rows, cols, NULL, winner, 2, cand, share, NULL, NULL, NULL, f32, 1, 1, 1, 4, out, &how) == 0 &&
		      gputune_choice_rank(3, rows, cols, NULL, winner, 2, cand, share, NULL, NULL, NULL, f32, 1, 1, 1, 0, out, &how) == 0,
	      "nothing measured, or none asked: an empty ranking", NULL);
	/* The fill: a matrix product's blocks, one per tile of C (variant 1:
	 * 128 x 256, variant 2: 64 x 128), over 132 SMs.  Measured at 2048^3
	 * and 4096^3, where both fill the SMs evenly (128 and 512 tiles of
	 * variant 1), variant 1 is faster; at 3000^3 its 288 tiles leave 27%
	 * of the SMs' turns idle, variant 2's 1,128 tiles 5%, so variant 2
	 * wins there with the fill, variant 1 without. */
	{
		long grows[] = { 2048, 4096 }, gcols[] = { 2048, 4096 }, gdepth[] = { 2048, 4096 };
		int gwin[] = { 1, 1 }, gcand[] = { 1, 2 };
		float gshare[] = { 1.0f, 0.85f, 1.0f, 0.88f };
		const long W = 256; /* threads a block: eight warps, enough alone to keep an SM busy */
		check(gputune_choice_fill(288, 132, 1, W) > 0.727 && gputune_choice_fill(288, 132, 1, W) < 0.728 &&
			      gputune_choice_fill(512, 132, 1, W) > 0.969 && gputune_choice_fill(5, 0, 3, W) == 1 &&
			      gputune_choice_fill(288, 132, 0, W) == gputune_choice_fill(288, 132, 1, W),
		      "the fill, an SM holding one block: blocks over the SMs' turns (288 tiles on 132 SMs: 73%)", NULL);
		check(gputune_choice_fill(126, 132, 3, 128) > 0.6749 && gputune_choice_fill(126, 132, 3, 128) < 0.6750 &&
			      gputune_choice_fill(360, 132, 3, 128) > 0.9090 && gputune_choice_fill(360, 132, 3, 128) < 0.9091 &&
			      gputune_choice_fill(396, 132, 3, 128) == 1 &&
			      gputune_choice_fill(528, 132, 3, 128) > 0.9061 && gputune_choice_fill(528, 132, 3, 128) < 0.9062 &&
			      gputune_choice_fill(126, 132, 3, 256) > 0.9545 && gputune_choice_fill(126, 132, 3, 256) < 0.9546,
		      "the fill, an SM holding three blocks of four warps: a last turn of c blocks runs at "
		      "min(1, 4 c / 8)^0.5 of the SM's rate (126 blocks: 0.675; 360: 0.909; 528: 0.906); "
		      "of eight warps, one block keeps the SM busy (126 blocks: 0.955)", NULL);
		nr = gputune_choice_rank(2, grows, gcols, gdepth, gwin, 2, gcand, gshare, NULL, NULL, NULL, f32, 3000,
					 3000, 3000, 1, out, &how);
		check(nr == 1 && out[0] == 1, "without the fill, the faster variant where measured", NULL);
		nr = gputune_choice_rank(2, grows, gcols, gdepth, gwin, 2, gcand, gshare, NULL, tile_fill, NULL, f32,
					 3000, 3000, 3000, 1, out, &how);
		check(nr == 1 && out[0] == 2 && how == GPUTUNE_CHOICE_CLASS,
		      "with the fill, the variant whose tiles fill the SMs at 3000^3", NULL);
		nr = gputune_choice_rank(2, grows, gcols, gdepth, gwin, 2, gcand, gshare, NULL, tile_fill, NULL, f32,
					 8192, 8192, 8192, 1, out, &how);
		check(nr == 1 && out[0] == 1, "with the fill, the faster variant where both fill the SMs (8192^3)", NULL);
	}
	/* The cover: variant 1's tiles of 128 x 128, variant 2's of 96 x 128,
	 * measured at 1536^3 (a whole number of either), variant 1 the faster.
	 * 777 rows take 7 tiles of 128 (87% of them inside) or 9 of 96
	 * (90%): variant 2 wins there with the cover; at 768 rows, 6 and 8
	 * whole tiles, variant 1. */
	{
		long crows[] = { 1536 }, ccols[] = { 1536 }, cdepth[] = { 1536 };
		int cwin[] = { 1 }, ccand[] = { 1, 2 };
		float cshare[] = { 1.0f, 0.98f };
		check(gputune_choice_cover(777, 1536, 128, 128) > 0.8671 && gputune_choice_cover(777, 1536, 128, 128) < 0.8672 &&
			      gputune_choice_cover(777, 1536, 96, 128) > 0.8993 &&
			      gputune_choice_cover(777, 1536, 96, 128) < 0.8994 &&
			      gputune_choice_cover(661, 1433, 64, 128) > 0.8759 &&
			      gputune_choice_cover(661, 1433, 64, 128) < 0.8760 && gputune_choice_cover(768, 1536, 96, 128) == 1 &&
			      gputune_choice_cover(777, 1536, 0, 128) == 1,
		      "the cover: the share of the tiles inside the output (777 rows: 87% in tiles of 128, 90% in 96)",
		      NULL);
		nr = gputune_choice_rank(1, crows, ccols, cdepth, cwin, 2, ccand, cshare, NULL, tile_cover, NULL, f32, 777,
					 1536, 1536, 1, out, &how);
		check(nr == 1 && out[0] == 2, "with the cover, the tiles of 96 rows at 777 rows", NULL);
		nr = gputune_choice_rank(1, crows, ccols, cdepth, cwin, 2, ccand, cshare, NULL, tile_cover, NULL, f32, 768,
					 1536, 1536, 1, out, &how);
		check(nr == 1 && out[0] == 1, "with the cover, the faster variant where both tiles fit (768 rows)", NULL);
	}
	/* A matrix product's probes for gemm --sizes 1024-8192 (f32): five
	 * shapes of each of K's four classes, none an anchor, within the
	 * range; each class has two of odd N (one of them M N under half the
	 * mid one's), one of few tiles with a long K (M N at most an
	 * eighth of K squared) and one tall (M at least four times N). */
	{
		struct dims cube[] = { { 1024, 1024, 1024 }, { 2048, 2048, 2048 }, { 4096, 4096, 4096 },
				       { 8192, 8192, 8192 } };
		struct dims probe[64];
		int anchor[64];
		size_t n = choice_probe_sizes(3, cube, 4, 4, 0, probe, anchor, 64);
		int classes_ok = n == 20, in_range = 1, anchors = 0;
		for (long c = 4; c <= 32; c *= 2) {
			int odd_n = 0, small_odd_n = 0, long_k = 0, tall = 0, count = 0;
			for (size_t i = 0; i < n; i++) {
				if (gputune_choice_align(probe[i].depth, 4) != c)
					continue;
				count++;
				int odd = gputune_choice_align(probe[i].cols, 4) == 4;
				odd_n += odd;
				small_odd_n |= odd && (double)probe[i].rows * probe[i].cols < 1024.0 * 8192.0 / 2; /* the mid one's M N: lo hi */
				long_k |= (double)probe[i].rows * probe[i].cols * 8 <= (double)probe[i].depth * probe[i].depth;
				tall |= probe[i].rows >= 4 * probe[i].cols;
			}
			classes_ok &= count == 5 && odd_n == 2 && small_odd_n && long_k && tall;
		}
		for (size_t i = 0; i < n; i++) {
			anchors += anchor[i];
			in_range &= probe[i].rows >= 1000 && probe[i].cols >= 1000 && probe[i].depth >= 1000 &&
				    probe[i].rows <= 8200 && probe[i].cols <= 8200 && probe[i].depth <= 8200;
		}
		check(classes_ok && in_range && anchors == 0,
		      "matrix products: 20 probes, 5 of each K class (two of odd N, one small; one of a long K over few tiles; one tall)",
		      NULL);
		for (size_t i = 0; i < n; i++)
			printf("# probe %ldx%ldx%ld\n", probe[i].rows, probe[i].cols, probe[i].depth);
		/* Searched probes (--probe-search): the 20 the same, and a small
		 * shape of each class of K; the 4 of few tiles, the 4 small ones
		 * and the mid shape of 32-byte K (that one with the requested
		 * sizes' budget) are anchors, listed first. */
		struct dims sp[64];
		int sa[64];
		size_t ns = choice_probe_sizes(3, cube, 4, 4, 1, sp, sa, 64);
		int same = ns == 24, first = 1, small = 0, nanchor = 0, wide = 0;
		for (size_t i = 0; i < ns && same; i++) {
			nanchor += sa[i] != 0;
			first &= (sa[i] != 0) == (i < 9);
			small += sa[i] && sp[i].rows < 1200 && sp[i].cols < 1200 && sp[i].depth < 1600;
			wide += sa[i] == PROBE_WIDE && gputune_choice_align(sp[i].depth, 4) == 32 && sp[i].rows > 2000 &&
				sp[i].cols > 2000 && sp[i].depth > 2000;
			int found = 0;
			for (size_t j = 0; j < n; j++)
				found |= sp[i].rows == probe[j].rows && sp[i].cols == probe[j].cols &&
					 sp[i].depth == probe[j].depth && anchor[j] == 0;
			same &= found == !(sa[i] && sp[i].depth < 1600);
		}
		check(same && first && nanchor == 9 && small == 4 && wide == 1,
		      "searched probes: the 20 and a small shape of each K class; the 8 of few tiles or small and the mid one of 32-byte K first, anchors, that one searched wide",
		      NULL);
		for (size_t i = 0; i < ns; i++)
			printf("# searched probe %ldx%ldx%ld%s\n", sp[i].rows, sp[i].cols, sp[i].depth,
			       sa[i] == PROBE_WIDE ? " (anchor, the requested sizes' budget)" : sa[i] ? " (anchor)" : "");
	}
	/* The extra sizes a run measures for the rule: for --sizes 1024-8192,
	 * eight shapes of each row class, the anchors (the mid and the small
	 * square of each) first, and for every class a large one whose
	 * columns align as its rows (rows and columns both odd, for the
	 * 2-byte class). */
	struct dims req[] = { { 1024, 1024, 1 }, { 2048, 2048, 1 }, { 4096, 4096, 1 }, { 8192, 8192, 1 } };
	for (long esize = 2; esize <= 8; esize *= 2) {
		struct dims probe[64];
		int anchor[64];
		size_t n = choice_probe_sizes(2, req, 4, (size_t)esize, 0, probe, anchor, 64);
		long nclass = esize == 2 ? 5 : esize == 4 ? 4 : 3;
		char what[128];
		snprintf(what, sizeof(what), "%ld-byte elements: 8 shapes of each of %ld row classes", esize, nclass);
		check(n == (size_t)(8 * nclass), what, NULL);
		int anchors_first = 1, classes_exact = 1;
		for (size_t i = 0; i < n; i++) {
			anchors_first &= anchor[i] == (i < (size_t)(2 * nclass));
			classes_exact &= gputune_choice_align(probe[i].rows, esize) == esize << (i % (size_t)nclass);
		}
		snprintf(what, sizeof(what), "%ld-byte elements: the anchors first, rows of each class in turn", esize);
		check(anchors_first && classes_exact, what, NULL);
		int own_large = 1;
		for (long c = 0; c < nclass; c++) {
			int found = 0;
			for (size_t i = 0; i < n; i++)
				found |= gputune_choice_align(probe[i].rows, esize) == esize << c &&
					 gputune_choice_align(probe[i].cols, esize) == esize << c &&
					 probe[i].rows >= 4096 && probe[i].cols >= 4096;
			own_large &= found;
		}
		snprintf(what, sizeof(what),
			 "%ld-byte elements: each class has a shape of at least 4096x4096 with columns aligned alike", esize);
		check(own_large, what, NULL);
		/* Odd columns are their own evidence (the rule), so every row
		 * class has at least three shapes of them, one under 2 Mi
		 * elements and one over 8 Mi, and shapes of every even column
		 * class. */
		int odd_spread = 1, even_all = 1;
		for (long c = 0; c < nclass; c++) {
			int odd = 0, small = 0, large = 0, even[6] = { 0 };
			for (size_t i = 0; i < n; i++) {
				if (gputune_choice_align(probe[i].rows, esize) != esize << c)
					continue;
				long a = gputune_choice_align(probe[i].cols, esize);
				long elems = probe[i].rows * probe[i].cols;
				if (a == esize) {
					odd++;
					small |= elems < 2L << 20;
					large |= elems > 8L << 20;
				}
				for (long k = 1; k < nclass; k++)
					even[k] |= a == esize << k;
			}
			odd_spread &= odd >= 3 && small && large;
			for (long k = 1; k < nclass; k++)
				even_all &= even[k];
		}
		snprintf(what, sizeof(what), "%ld-byte elements: odd columns at 3 shapes of each row class, small to large",
			 esize);
		check(odd_spread, what, NULL);
		snprintf(what, sizeof(what), "%ld-byte elements: every even column class in each row class", esize);
		check(even_all, what, NULL);
	}

	return unit_done();
}
