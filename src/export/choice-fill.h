/*
 * choice-fill.h - the fill of a launch, which the choice (choice-rule.h)
 * reads for a family whose blocks are few and long (a matrix product: one
 * block a tile of C, thousands of FMAs a thread).  Such a launch keeps
 * its SMs busy only as far as its blocks spread evenly over them: 288
 * tiles of 128 x 256 at 3000 x 3000 put three blocks on some of 132 SMs
 * and two on the rest, so it takes three blocks' time with 73% of the SMs'
 * turns used, where 4096 x 4096's 512 tiles use 97%.  A candidate's share
 * at each size of evidence is scaled by its fill's weight at the size
 * asked over its weight at that size, so that the evidence speaks of its
 * speed per busy SM and the rule of its fill where asked.  The turns are
 * an SM's, not a block slot's: blocks that share an SM share its FMA
 * units, so one left alone on an SM in the last turn runs faster than
 * beside another.
 * Compiled into gputune and copied verbatim into the headers of the
 * families that read it.
 */
#ifndef GPUTUNE_CHOICE_FILL
#define GPUTUNE_CHOICE_FILL

/* The share of the SMs' turns a launch of blocks uses: blocks over the
 * most any of sms SMs runs, times sms; 1 where sms is not known (0). */
static inline double gputune_choice_fill(long blocks, long sms)
{
	if (blocks <= 0 || sms <= 0)
		return 1;
	long turns = (blocks + sms - 1) / sms;
	return (double)blocks / ((double)turns * (double)sms);
}

/* The weight the rule gives a fill: its square root.  Where an SM holds
 * several of a kernel's blocks at once (a 64 x 128 tile's, three), one
 * more of them costs it less than a turn, which the fill counts, and more
 * than nothing, which a count of waves would; the tiles that win a
 * matrix product's mid and small shapes are such.  On an H200 (the run
 * of 37f813f, 30 held-out shapes replayed) the fill taken whole cost the
 * choice 0.04 to 0.12 of cuBLAS at four shapes and gained 0.03 at one;
 * its square root makes the same choices as no fill there, and keeps the
 * fill's sense (docs/studies/gemm-flat-rounds.md). */
static inline double gputune_choice_fill_weight(long blocks, long sms)
{
	double x = gputune_choice_fill(blocks, sms), y = 1;
	for (int i = 0; i < 16; i++) /* Newton's, from 1: x is in [1 / sms, 1] */
		y = 0.5 * (y + x / y);
	return y;
}

/* The share of the outputs a launch computes that lie inside its output:
 * rows x cols in tiles of tr x tc, the last row and column of tiles
 * reaching past it.  Those parts cost a tile's whole time all the same
 * (their loads read zeros, their FMAs run), so a candidate's speed per
 * busy SM turns into useful work only in this share, which differs from
 * tile to tile at one size: 777 rows take 7 tiles of 128 rows (87% of
 * them inside) or 9 of 96 (90%), 661 rows 11 tiles of 64 (94%) or 7 of
 * 96 (98%).  Taken whole, unlike the fill: the work outside is the
 * blocks' own, not a share of an SM they would leave to others.  On an
 * H200, three tuning runs of 1024-8192 with their 30 held-out shapes
 * replayed, it lifted the choice's worst shape by 0 to 0.05 of cuBLAS
 * and moved the median by -0.002 to +0.007
 * (docs/studies/gemm-tiles-of-96-rows.md).  1 where a tile is not known
 * (tr or tc 0). */
static inline double gputune_choice_cover(long rows, long cols, long tr, long tc)
{
	if (rows <= 0 || cols <= 0 || tr <= 0 || tc <= 0)
		return 1;
	return ((double)rows / (double)(((rows + tr - 1) / tr) * tr)) *
	       ((double)cols / (double)(((cols + tc - 1) / tc) * tc));
}

#endif
