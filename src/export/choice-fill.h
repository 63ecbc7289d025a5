/*
 * choice-fill.h - the fill of a launch, which the choice (choice-rule.h)
 * reads for a family whose blocks are few and long (a matrix product: one
 * block a tile of C, thousands of FMAs a thread).  Such a launch keeps
 * its SMs busy only as far as its blocks spread evenly over them: 288
 * tiles of 128 x 256 at 3000 x 3000 put three blocks on some of 132 SMs
 * and two on the rest, so it takes three blocks' time with 73% of the SMs'
 * turns used, where 4096 x 4096's 512 tiles use 97%.  A candidate's share
 * at each size of evidence is scaled by its fill at the size asked over
 * its fill at that size, so that the evidence speaks of its speed per busy
 * SM and the rule of its fill where asked.  The turns are an SM's, not a
 * block slot's: blocks that share an SM share its FMA units, so one left
 * alone on an SM in the last turn runs faster than beside another.
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

#endif
