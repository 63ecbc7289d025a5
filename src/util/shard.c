/*
 * shard.c - a share of the work, K of N (shard.h).
 */
#include "config.h"
#include "util/shard.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARD_MAX 65536

int shard_parse(const char *text, struct shard *s, char *err, size_t en)
{
	const char *slash = text ? strchr(text, '/') : NULL;
	long k = -1, n = 0;
	char *head = slash ? xasprintf("%.*s", (int)(slash - text), text) : NULL;
	int bad = !slash || parse_long(head, 0, SHARD_MAX - 1, &k) < 0 || parse_long(slash + 1, 1, SHARD_MAX, &n) < 0;
	free(head);
	if (bad) {
		snprintf(err, en, "'%s' is not K/N (0 <= K < N <= %d) or auto", text ? text : "", SHARD_MAX);
		return -1;
	}
	if (k >= n) {
		snprintf(err, en, "'%s': K must be below N (the shares are 0 to %ld)", text, n - 1);
		return -1;
	}
	s->k = (int)k;
	s->n = (int)n;
	return 0;
}

/* An environment variable as a number from lo to hi: 1 when set and
 * good, 0 when unset, -1 (with err) when set and bad. */
static int env_number(const char *name, long lo, long hi, long *out, char *err, size_t en)
{
	const char *t = getenv(name);
	if (!t)
		return 0;
	if (parse_long(t, lo, hi, out) < 0) {
		snprintf(err, en, "%s is '%s', not an integer from %ld to %ld", name, t, lo, hi);
		return -1;
	}
	return 1;
}

int shard_from_slurm(struct shard *s, char *err, size_t en)
{
	long id = 0, count = 0, min = 0;
	int r = env_number("SLURM_ARRAY_TASK_ID", 0, 1L << 30, &id, err, en);
	if (r > 0) {
		if (env_number("SLURM_ARRAY_TASK_COUNT", 1, SHARD_MAX, &count, err, en) <= 0 ||
		    env_number("SLURM_ARRAY_TASK_MIN", 0, 1L << 30, &min, err, en) < 0) {
			if (!getenv("SLURM_ARRAY_TASK_COUNT"))
				snprintf(err, en, "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
			return -1;
		}
		/* With a step (--array=0-15:4) the ids are not dense: the
		 * share is the id's place among them, which the count and
		 * the step give; Slurm gives the step too. */
		long step = 1;
		if (env_number("SLURM_ARRAY_TASK_STEP", 1, 1L << 30, &step, err, en) < 0)
			return -1;
		long k = (id - min) / step;
		if (id < min || (id - min) % step || k >= count) {
			snprintf(err, en, "SLURM_ARRAY_TASK_ID %ld is not one of the %ld tasks from %ld in steps of %ld", id,
				 count, min, step);
			return -1;
		}
		s->k = (int)k;
		s->n = (int)count;
		return 0;
	}
	if (r < 0)
		return -1;
	r = env_number("SLURM_PROCID", 0, SHARD_MAX - 1, &id, err, en);
	if (r > 0) {
		if (env_number("SLURM_NTASKS", 1, SHARD_MAX, &count, err, en) <= 0) {
			if (!getenv("SLURM_NTASKS"))
				snprintf(err, en, "SLURM_PROCID is set but SLURM_NTASKS is not");
			return -1;
		}
		if (id >= count) {
			snprintf(err, en, "SLURM_PROCID %ld is not below SLURM_NTASKS %ld", id, count);
			return -1;
		}
		s->k = (int)id;
		s->n = (int)count;
		return 0;
	}
	if (r == 0)
		snprintf(err, en, "not in a Slurm job: neither SLURM_ARRAY_TASK_ID nor SLURM_PROCID is set "
			 "(give --shard K/N)");
	return -1;
}

size_t shard_deal(const struct shard *s, const double *weight, size_t n, unsigned char *mine)
{
	if (s->n <= 0) {
		memset(mine, 1, n);
		return n;
	}
	if (!weight) { /* what the least-loaded rule deals equal weights to */
		size_t count = 0;
		for (size_t i = 0; i < n; i++)
			count += mine[i] = i % (size_t)s->n == (size_t)s->k;
		return count;
	}
	size_t *order = xcalloc(n ? n : 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Heaviest first; the earlier item first among equals (a stable
	 * insertion sort: the lists are sizes and variants, short enough). */
	for (size_t i = 1; i < n; i++) {
		size_t x = order[i], j = i;
		while (j > 0 && weight[order[j - 1]] < weight[x]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	double *load = xcalloc((size_t)s->n, sizeof(double));
	size_t count = 0;
	for (size_t t = 0; t < n; t++) {
		int best = 0;
		for (int j = 1; j < s->n; j++)
			if (load[j] < load[best])
				best = j;
		size_t i = order[t];
		load[best] += weight[i];
		mine[i] = best == s->k;
		count += mine[i];
	}
	free(load);
	free(order);
	return count;
}
