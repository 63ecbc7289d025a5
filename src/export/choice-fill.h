/*
 * choice-fill.h - the fill of a launch, which the choice (choice-rule.h)
 * reads for a family whose blocks are few and long (a matrix product: one
 * block a tile of C, thousands of FMAs a thread).  Such a launch keeps
 * its SMs busy only as far as its blocks spread evenly over them and
 * fill each SM's room for blocks (gputune_choice_fill).  A candidate's
 * share at each size of evidence is scaled by its fill at the size asked
 * over its fill at that size, so that the evidence speaks of its speed
 * per busy SM and the rule of its fill where asked.
 * Compiled into gputune and copied verbatim into the headers of the
 * families that read it.
 */
#ifndef GPUTUNE_CHOICE_FILL
#define GPUTUNE_CHOICE_FILL

/* The square root of x in [0, 1], by Newton's method from 1. */
static inline double gputune_choice_sqrt(double x)
{
	double y = 1;
	if (x <= 0)
		return 0;
	for (int i = 0; i < 16; i++)
		y = 0.5 * (y + x / y);
	return y;
}

/*
 * The share of the SMs' work a launch of blocks of threads threads does on
 * sms SMs that hold per_sm of its blocks at once (its occupancy: registers,
 * threads, shared memory): blocks over per_sm x sms times the time of the
 * SM that runs the most of them, counted in turns of per_sm blocks
 * together.  An SM keeps its FMA units busy with about eight warps (two a
 * scheduler); a turn of c blocks of w warps (a block's threads over 32,
 * rounded up) runs at min(1, c w / 8)^0.5 of that
 * rate, so a last turn of c < per_sm blocks takes c / per_sm of a full
 * turn where its warps keep the SM busy, and more where they are too few:
 * one block of four warps, alone on an SM, runs at 0.71 of the SM's rate.
 * Replayed over four runs' held-out tables (443 shapes), 41 below 0.90 of
 * cuBLAS, where a last turn taking (c / per_sm)^0.75 of one left 49
 * (docs/studies/gemm-the-fill-of-an-sm-s-blocks.md).  With per_sm 1 (or
 * unknown, 0) a turn is one block: 288 tiles of 128 x 256 at 3000 x 3000
 * put three blocks on some of 132 SMs and two on the rest, 73% of their
 * turns used, where 4096 x 4096's 512 tiles use 97%.  threads 0: eight
 * warps.  1 where sms is not known (0).
 */
static inline double gputune_choice_fill(long blocks, long sms, long per_sm, long threads)
{
	if (blocks <= 0 || sms <= 0)
		return 1;
	if (per_sm < 1)
		per_sm = 1;
	long warps = threads > 0 ? (threads + 31) / 32 : 8;
	long most = (blocks + sms - 1) / sms; /* the blocks of the busiest SM */
	double turns = (double)(most / per_sm);
	long rest = most % per_sm;
	if (rest) {
		/* A turn of c blocks runs at min(1, c warps / 8)^0.5 of an SM's rate. */
		double full = (double)(per_sm * warps) / 8, part = (double)(rest * warps) / 8;
		full = full < 1 ? gputune_choice_sqrt(full) : 1;
		part = part < 1 ? gputune_choice_sqrt(part) : 1;
		turns += (double)rest / (double)per_sm * full / part;
	}
	return (double)blocks / ((double)per_sm * (double)sms * turns);
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
