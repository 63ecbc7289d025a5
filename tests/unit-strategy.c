/*
 * unit-strategy.c - the search strategies on a synthetic space: every
 * strategy proposes only valid points, never one twice, covers the whole
 * space when asked for all of it, repeats itself for the same seed and
 * observations, learns from points it did not propose, and the guided
 * ones find the peak of a smooth landscape with a small share of it.
 * Prints one "ok"/"not ok" line per check; exits 1 on a failure.
 */
#include "../src/families/strategy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP 4
/* A 8 x 8 x 6 x 5 grid less the points with a + b > 12 (a constraint):
 * the landscape peaks at (5, 4, 2, 3). */
static int pts[8 * 8 * 6 * 5][NP];
static size_t npts;

static double figure(size_t i)
{
	const int *v = pts[i];
	double d = pow(v[0] - 5, 2) + pow(v[1] - 4, 2) + 2 * pow(v[2] - 2, 2) + pow(v[3] - 3, 2);
	return 1000.0 / (1.0 + 0.3 * d);
}

static int failures;
static void check(int cond, const char *what, const char *kind)
{
	printf("%s - %s: %s\n", cond ? "ok" : "not ok", kind, what);
	failures += !cond;
}

/* Runs kind for budget points with seed; the order proposed into order
 * (budget entries); returns the best figure found.  pre: a point observed
 * before the search starts (SIZE_MAX: none). */
static double run(int kind, size_t budget, uint64_t seed, size_t *order, size_t pre, int *repeat, int *invalid)
{
	struct strategy *s = strategy_new(kind, &pts[0][0], NP, NP, npts, budget, seed);
	unsigned char *seen = calloc(npts, 1);
	size_t done = 0, batch[7];
	double best = 0;
	*repeat = *invalid = 0;
	if (pre != (size_t)-1) {
		strategy_observe(s, pre, figure(pre));
		seen[pre] = 1;
	}
	while (done < budget) {
		size_t k = strategy_propose(s, batch, budget - done < 7 ? budget - done : 7);
		if (!k)
			break;
		for (size_t j = 0; j < k; j++) {
			size_t i = batch[j];
			if (i >= npts) {
				(*invalid)++;
				continue;
			}
			*repeat += seen[i];
			seen[i] = 1;
			order[done++] = i;
			/* A failed variant now and then: figure 0. */
			double f = i % 17 == 0 ? 0 : figure(i);
			strategy_observe(s, i, f);
			if (f > best)
				best = f;
		}
	}
	free(seen);
	strategy_free(s);
	return best;
}

int main(void)
{
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++)
			for (int c = 0; c < 6; c++)
				for (int d = 0; d < 5; d++)
					if (a + b <= 12) {
						int v[NP] = { a, b, c, d };
						memcpy(pts[npts++], v, sizeof(v));
					}
	double peak = 0;
	for (size_t i = 0; i < npts; i++)
		peak = fmax(peak, i % 17 ? figure(i) : 0);
	size_t *o1 = malloc(npts * sizeof(size_t)), *o2 = malloc(npts * sizeof(size_t));
	for (int kind = STRATEGY_EXHAUSTIVE; kind <= STRATEGY_GENETIC; kind++) {
		const char *name = strategy_name(kind);
		int rep, inv, rep2, inv2;
		run(kind, npts, 7, o1, (size_t)-1, &rep, &inv);
		check(rep == 0 && inv == 0, "asked for the whole space: no point twice, none outside it", name);
		size_t *hit = calloc(npts, sizeof(size_t));
		for (size_t i = 0; i < npts; i++)
			hit[o1[i]]++;
		int all = 1;
		for (size_t i = 0; i < npts; i++)
			all &= hit[i] == 1;
		free(hit);
		check(all, "asked for the whole space: every point once", name);
		size_t b = npts / 10;
		run(kind, b, 11, o1, (size_t)-1, &rep, &inv);
		run(kind, b, 11, o2, (size_t)-1, &rep2, &inv2);
		check(!memcmp(o1, o2, b * sizeof(size_t)), "the same seed proposes the same points", name);
		if (kind != STRATEGY_EXHAUSTIVE) {
			run(kind, b, 12, o2, (size_t)-1, &rep2, &inv2);
			check(memcmp(o1, o2, b * sizeof(size_t)) != 0, "another seed proposes other points", name);
		}
		/* A point measured before the search is never proposed again. */
		run(kind, npts - 1, 5, o1, 42, &rep, &inv);
		int again = 0;
		for (size_t i = 0; i < npts - 1; i++)
			again |= o1[i] == 42;
		check(!again && rep == 0, "a point measured before (a resumed run) is not proposed again", name);
		if (kind == STRATEGY_ANNEAL || kind == STRATEGY_GENETIC) {
			/* With 10% of the space, the median over 11 seeds is within
			 * 2% of the peak (random search: 0.77 in the median). */
			double got[11];
			for (int seed = 0; seed < 11; seed++)
				got[seed] = run(kind, npts / 10, (uint64_t)seed, o1, (size_t)-1, &rep, &inv) / peak;
			for (int i = 0; i < 11; i++)
				for (int j = i + 1; j < 11; j++)
					if (got[j] < got[i]) {
						double t = got[i];
						got[i] = got[j];
						got[j] = t;
					}
			char what[120];
			snprintf(what, sizeof(what), "finds the peak with 10%% of the space (median %.3f of the peak)", got[5]);
			check(got[5] >= 0.98, what, name);
		}
	}
	/* What strategy_predictable promises: the first picks, proposed at
	 * once ahead of time, are those a search observing figures between
	 * its picks makes (the tuner prefetches the compiles of them). */
	for (int kind = STRATEGY_EXHAUSTIVE; kind <= STRATEGY_GENETIC; kind++) {
		struct strategy *ahead = strategy_new(kind, &pts[0][0], NP, NP, npts, npts / 10, 21);
		strategy_observe(ahead, 7, 1.0);
		size_t n = strategy_predictable(ahead);
		if (n > 40)
			n = 40;
		size_t want[40], got = strategy_propose(ahead, want, n);
		struct strategy *live = strategy_new(kind, &pts[0][0], NP, NP, npts, npts / 10, 21);
		strategy_observe(live, 7, figure(7));
		int same = got == n;
		for (size_t j = 0; j < got; j++) {
			size_t i;
			same &= strategy_propose(live, &i, 1) == 1 && i == want[j];
			strategy_observe(live, i, figure(i));
		}
		const char *name = strategy_name(kind);
		if (kind == STRATEGY_ANNEAL)
			check(n == 0, "no pick is predictable (chains start from what is measured)", name);
		else
			check(same && n >= 20, "its predictable picks are the picks a search observing between them makes",
			      name);
		strategy_free(ahead);
		strategy_free(live);
	}
	/* The neighbour tables are shared by strategies over the same points
	 * (a run searches the same space at every size): one alive beside
	 * another, or one over other points in between, proposes what a
	 * strategy alone would. */
	{
		size_t alone[30], beside[30], after[30];
		struct strategy *a = strategy_new(STRATEGY_GENETIC, &pts[0][0], NP, NP, npts, 60, 9);
		for (size_t j = 0; j < 30; j++) {
			strategy_propose(a, &alone[j], 1);
			strategy_observe(a, alone[j], figure(alone[j]));
		}
		struct strategy *b = strategy_new(STRATEGY_GENETIC, &pts[0][0], NP, NP, npts, 60, 9);
		struct strategy *other = strategy_new(STRATEGY_ANNEAL, &pts[0][0], NP, NP, npts - 10, 60, 9);
		for (size_t j = 0; j < 30; j++) {
			strategy_propose(b, &beside[j], 1);
			strategy_observe(b, beside[j], figure(beside[j]));
		}
		strategy_free(a);
		strategy_free(b);
		struct strategy *c = strategy_new(STRATEGY_GENETIC, &pts[0][0], NP, NP, npts, 60, 9);
		size_t o;
		strategy_propose(other, &o, 1);
		strategy_free(other);
		for (size_t j = 0; j < 30; j++) {
			strategy_propose(c, &after[j], 1);
			strategy_observe(c, after[j], figure(after[j]));
		}
		strategy_free(c);
		check(!memcmp(alone, beside, sizeof(alone)) && !memcmp(alone, after, sizeof(alone)) && o < npts - 10,
		      "strategies sharing the neighbour tables, or over other points between, propose alike", "genetic");
	}
	/* A parameter added last, held at one value by every point, is left
	 * out: the search draws as it did over the points without it. */
	{
		static int wide[8 * 8 * 6 * 5][NP + 1];
		for (size_t i = 0; i < npts; i++) {
			memcpy(wide[i], pts[i], sizeof(pts[i]));
			wide[i][NP] = 0;
		}
		int seen = strategy_search_params(&wide[0][0], NP + 1, NP + 1, npts, NP);
		size_t before[40], after[40];
		struct strategy *a = strategy_new(STRATEGY_GENETIC, &pts[0][0], NP, NP, npts, 80, 5);
		struct strategy *b = strategy_new(STRATEGY_GENETIC, &wide[0][0], NP + 1, seen, npts, 80, 5);
		for (size_t j = 0; j < 40; j++) {
			strategy_propose(a, &before[j], 1);
			strategy_observe(a, before[j], figure(before[j]));
			strategy_propose(b, &after[j], 1);
			strategy_observe(b, after[j], figure(after[j]));
		}
		strategy_free(a);
		strategy_free(b);
		check(seen == NP && !memcmp(before, after, sizeof(before)),
		      "a late parameter at one value is left out, and the search draws as without it", "genetic");
		wide[7][NP] = 1;
		check(strategy_search_params(&wide[0][0], NP + 1, NP + 1, npts, NP) == NP + 1,
		      "a late parameter of two values is searched", "all");
		wide[7][NP] = 0;
		check(strategy_search_params(&wide[0][0], NP + 1, NP + 1, npts, NP + 1) == NP + 1,
		      "a parameter not late is searched at one value too", "all");
	}
	check(strategy_parse("anneal") == STRATEGY_ANNEAL && strategy_parse("hill") < 0, "names parse", "all");
	free(o1);
	free(o2);
	return failures ? 1 : 0;
}
