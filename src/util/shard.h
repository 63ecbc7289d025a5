/*
 * shard.h - a share of the work, K of N: which items of a list one
 * process of several takes, decided from the list alone, so that every
 * process of a fleet (any machine, any GPUs) deals the same way and the
 * shares together are the list, each item once.
 */
#ifndef GPUTUNE_SHARD_H
#define GPUTUNE_SHARD_H

#include <stddef.h>

/* K of N; n 0 when the work is not shared. */
struct shard {
	int k, n;
};

/*
 * Parses "K/N" (0 <= K < N <= 65536) into *s.  0, or -1 with what is
 * wrong in err (size en).
 */
int shard_parse(const char *text, struct shard *s, char *err, size_t en);

/*
 * --shard auto: K and N from the environment of a Slurm job: an array's
 * SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN, so --array=1-4 deals as
 * 0-3 does) and SLURM_ARRAY_TASK_COUNT, else a step's SLURM_PROCID and
 * SLURM_NTASKS.  0, or -1 with what is missing or wrong in err.
 */
int shard_from_slurm(struct shard *s, char *err, size_t en);

/*
 * Deals n items of the given weights (NULL: all equal) to s->n shares,
 * the heaviest first, each to the share with the least weight so far (the
 * lower index on a tie; equal weights deal round-robin in order).
 * mine[i] is set to 1 for the items of share s->k, else 0.  Returns how
 * many are mine.  Without sharing (s->n 0), every item is.
 */
size_t shard_deal(const struct shard *s, const double *weight, size_t n, unsigned char *mine);

#endif
