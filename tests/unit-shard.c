/*
 * unit-shard.c - the deal of --shard (src/util/shard.c): for lists of
 * sizes' weights and counts of shares, every item goes to exactly one
 * share, the deal is the same every time, the heaviest items spread
 * first, equal weights go round-robin, and no share is loaded more than
 * the lightest plus the heaviest item (the bound of the least-loaded
 * rule).  And the Slurm variables: what `--shard auto` reads.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/shard.h"
#include "unit-check.h"

#include <stdlib.h>
#include <string.h>

static void deal_case(const char *what, const double *w, size_t n, int nshards)
{
	unsigned char *mine = calloc(n + 1, 1), *again = calloc(n + 1, 1);
	int *owner = calloc(n + 1, sizeof(int));
	double *load = calloc((size_t)nshards, sizeof(double)), heaviest = 0;
	int twice = 0, same = 1;
	size_t counted = 0;
	for (size_t i = 0; i < n; i++)
		owner[i] = -1;
	for (int k = 0; k < nshards; k++) {
		struct shard s = { k, nshards };
		counted += shard_deal(&s, w, n, mine);
		shard_deal(&s, w, n, again);
		same &= !memcmp(mine, again, n);
		for (size_t i = 0; i < n; i++)
			if (mine[i]) {
				twice |= owner[i] >= 0;
				owner[i] = k;
				load[k] += w ? w[i] : 1;
			}
	}
	int all = counted == n;
	for (size_t i = 0; i < n; i++) {
		all &= owner[i] >= 0;
		if ((w ? w[i] : 1) > heaviest)
			heaviest = w ? w[i] : 1;
	}
	double lo = load[0], hi = load[0];
	for (int k = 1; k < nshards; k++) {
		lo = load[k] < lo ? load[k] : lo;
		hi = load[k] > hi ? load[k] : hi;
	}
	char detail[160];
	snprintf(detail, sizeof(detail), "%zu items to %d shares: counted %zu, twice %d, loads %g to %g", n, nshards,
		 counted, twice, lo, hi);
	check(all && !twice, what, detail);
	check(same, "the same deal again", NULL);
	check(n == 0 || hi - lo <= heaviest, "no share above the lightest by more than the heaviest item", detail);
	free(mine);
	free(again);
	free(owner);
	free(load);
}

/* Sets the environment to the NULL-terminated NAME=VALUE list. */
static void slurm_env(const char *const *vars)
{
	static const char *const names[] = { "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
					      "SLURM_ARRAY_TASK_STEP", "SLURM_PROCID", "SLURM_NTASKS", NULL };
	for (int i = 0; names[i]; i++)
		unsetenv(names[i]);
	for (int i = 0; vars[i]; i += 2)
		setenv(vars[i], vars[i + 1], 1);
}

static void slurm_case(const char *what, const char *const *vars, int k, int n)
{
	slurm_env(vars);
	struct shard s = { -1, -1 };
	char err[200] = "";
	int r = shard_from_slurm(&s, err, sizeof(err));
	char detail[300];
	snprintf(detail, sizeof(detail), "got %d: %d/%d (%s)", r, s.k, s.n, err);
	check(k < 0 ? r < 0 && *err : r == 0 && s.k == k && s.n == n, what, detail);
}

int main(void)
{
	static const double sizes[] = { 1024.0 * 1024, 8192.0 * 8192, 4096.0 * 4096, 3000.0 * 3000, 1025.0 * 1025,
					2048.0 * 2048, 8192.0 * 8192, 17, 6000.0 * 100 };
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	for (int shards = 1; shards <= 12; shards++)
		deal_case("sizes: each dealt once", sizes, n, shards);
	deal_case("no sizes", sizes, 0, 3);
	deal_case("equal weights: each dealt once", NULL, 1000, 7);

	/* The two largest go to different shares, the third to the first. */
	unsigned char m0[9], m1[9];
	shard_deal(&(struct shard){ 0, 2 }, sizes, n, m0);
	shard_deal(&(struct shard){ 1, 2 }, sizes, n, m1);
	check(m0[1] && m1[6], "the two largest sizes go to shares 0 and 1, in order", NULL);
	unsigned char r[10];
	shard_deal(&(struct shard){ 2, 3 }, NULL, 10, r);
	check(!r[0] && !r[1] && r[2] && r[5] && r[8] && !r[9], "equal weights: share 2 of 3 takes 2, 5, 8", NULL);
	unsigned char every[4];
	check(shard_deal(&(struct shard){ 0, 0 }, NULL, 4, every) == 4 && every[3], "no sharing: every item", NULL);

	char err[200];
	struct shard s;
	check(shard_parse("3/8", &s, err, sizeof(err)) == 0 && s.k == 3 && s.n == 8, "3/8 parses", err);
	static const char *const bad[] = { "8/8", "1", "/3", "1/", "-1/3", "0/0", "a/b", "1/3x", "0/65537", "", NULL };
	for (int i = 0; bad[i]; i++) {
		char what[64];
		snprintf(what, sizeof(what), "'%s' is refused", bad[i]);
		check(shard_parse(bad[i], &s, err, sizeof(err)) < 0 && strstr(err, bad[i]), what, err);
	}

	slurm_case("an array task", (const char *const[]){ "SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_COUNT", "4",
						  "SLURM_ARRAY_TASK_MIN", "0", NULL }, 2, 4);
	slurm_case("an array from 1", (const char *const[]){ "SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4",
						    "SLURM_ARRAY_TASK_MIN", "1", NULL }, 3, 4);
	slurm_case("an array in steps", (const char *const[]){ "SLURM_ARRAY_TASK_ID", "12", "SLURM_ARRAY_TASK_COUNT", "4",
						      "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_STEP", "4", NULL }, 3, 4);
	slurm_case("an array id off its steps", (const char *const[]){ "SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT",
							      "4", "SLURM_ARRAY_TASK_STEP", "4", NULL }, -1, 0);
	slurm_case("an array without its count", (const char *const[]){ "SLURM_ARRAY_TASK_ID", "1", NULL }, -1, 0);
	slurm_case("a step's tasks", (const char *const[]){ "SLURM_PROCID", "5", "SLURM_NTASKS", "8", NULL }, 5, 8);
	slurm_case("the array before the step", (const char *const[]){ "SLURM_PROCID", "0", "SLURM_NTASKS", "1",
								"SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "2", NULL }, 1, 2);
	slurm_case("a task beyond the tasks", (const char *const[]){ "SLURM_PROCID", "8", "SLURM_NTASKS", "8", NULL }, -1, 0);
	slurm_case("a count that is not a number", (const char *const[]){ "SLURM_PROCID", "1", "SLURM_NTASKS", "x", NULL }, -1, 0);
	slurm_case("no Slurm", (const char *const[]){ NULL }, -1, 0);
	return unit_done();
}
