/*
 * strategy-study.c - how well each search strategy does on a space that
 * was measured in full: for every size of a database where (nearly) every
 * variant of a family and type was measured, it replays each strategy
 * against the recorded figures, with budgets of 5%, 10% and 25% of the
 * space, for 21 seeds, and prints the share of the true best each found
 * (the median over seeds per size, then the median and the worst size).
 * The figures are the recorded ones, so this measures the search alone,
 * not the timing noise a live run adds.
 *
 * usage: strategy-study DB [FAMILY [DTYPE]]   (default transpose f32)
 */
#define _POSIX_C_SOURCE 200809L
#include "../src/families/strategy.h"
#include "../src/util/util.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 16
#define SEEDS 21
#define BATCH 16

struct space {
	long rows, cols, depth;
	size_t n;
	int (*v)[MAXP];
	double *gbps; /* 0: not ok */
	int nparams;
	double best;
};

/* Splits "a=1,b=2" into value texts; maps each to an id per position. */
static char *vals[MAXP][64];
static int nvals[MAXP];
static int value_id(int k, const char *text, size_t len)
{
	for (int i = 0; i < nvals[k]; i++)
		if (strlen(vals[k][i]) == len && !strncmp(vals[k][i], text, len))
			return i;
	if (nvals[k] == 64)
		return 63;
	vals[k][nvals[k]] = strndup(text, len);
	return nvals[k]++;
}

static int parse(const char *params, int *v)
{
	int k = 0;
	for (const char *p = params; *p && k < MAXP; k++) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		if (!eq)
			break;
		if (!end)
			end = p + strlen(p);
		v[k] = value_id(k, eq + 1, (size_t)(end - eq - 1));
		p = *end ? end + 1 : end;
	}
	return k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The best figure kind finds in sp with budget measurements. */
static double replay(const struct space *sp, int kind, size_t budget, uint64_t seed)
{
	struct strategy *s = strategy_new(kind, &sp->v[0][0], MAXP, sp->nparams, sp->n, budget, seed);
	size_t done = 0, batch[BATCH];
	double best = 0;
	while (done < budget) {
		size_t want = budget - done < BATCH ? budget - done : BATCH;
		size_t k = strategy_propose(s, batch, want);
		if (!k)
			break;
		for (size_t j = 0; j < k; j++) {
			strategy_observe(s, batch[j], sp->gbps[batch[j]]);
			best = fmax(best, sp->gbps[batch[j]]);
		}
		done += k;
	}
	strategy_free(s);
	return best / sp->best;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: strategy-study DB [FAMILY [DTYPE]]\n");
		return 2;
	}
	const char *fam = argc > 2 ? argv[2] : "transpose", *dt = argc > 3 ? argv[3] : "f32";
	sqlite3 *db;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "strategy-study: cannot open %s\n", argv[1]);
		return 1;
	}
	/* The latest measurement of each variant at each size. */
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db,
		"WITH latest AS (SELECT m.*, row_number() OVER (PARTITION BY m.variant_id, m.rows, m.cols, m.depth"
		" ORDER BY m.id DESC) rn FROM measurement m)"
		" SELECT l.rows, l.cols, v.params, l.status, coalesce(l.gbps, 0), l.depth FROM latest l"
		" JOIN variant v ON v.id = l.variant_id JOIN family f ON f.id = v.family_id"
		" WHERE l.rn = 1 AND f.name = ?1 AND v.dtype = ?2 ORDER BY l.rows, l.cols, l.depth, v.params",
		-1, &st, NULL);
	sqlite3_bind_text(st, 1, fam, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, dt, -1, SQLITE_STATIC);
	struct space *sp = NULL;
	size_t nsp = 0, most = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long r = (long)sqlite3_column_int64(st, 0), c = (long)sqlite3_column_int64(st, 1);
		long d = (long)sqlite3_column_int64(st, 5);
		if (!nsp || sp[nsp - 1].rows != r || sp[nsp - 1].cols != c || sp[nsp - 1].depth != d) {
			sp = xrealloc(sp, (nsp + 1) * sizeof(*sp));
			memset(&sp[nsp], 0, sizeof(*sp));
			sp[nsp].rows = r;
			sp[nsp].cols = c;
			sp[nsp].depth = d;
			nsp++;
		}
		struct space *x = &sp[nsp - 1];
		x->v = xrealloc(x->v, (x->n + 1) * sizeof(*x->v));
		x->gbps = xrealloc(x->gbps, (x->n + 1) * sizeof(double));
		memset(x->v[x->n], 0, sizeof(x->v[x->n]));
		x->nparams = parse((const char *)sqlite3_column_text(st, 2), x->v[x->n]);
		int ok = !strcmp((const char *)sqlite3_column_text(st, 3), "ok");
		x->gbps[x->n] = ok ? sqlite3_column_double(st, 4) : 0;
		x->best = fmax(x->best, x->gbps[x->n]);
		x->n++;
		most = x->n > most ? x->n : most;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* Only the sizes measured in full. */
	size_t full = 0;
	for (size_t i = 0; i < nsp; i++)
		if (sp[i].n * 100 >= most * 95 && sp[i].best > 0)
			sp[full++] = sp[i];
	if (!full) {
		fprintf(stderr, "strategy-study: no size of %s %s was measured in full\n", fam, dt);
		return 1;
	}
	printf("%s %s: %zu sizes measured in full (%zu variants each); share of each size's best found, "
	       "median over %d seeds per size\n\n", fam, dt, full, most, SEEDS);
	printf("| strategy | budget | median over sizes | worst size | runs within 1%% of the best |\n");
	printf("|---|---|---|---|---|\n");
	static const int pct[] = { 5, 10, 25 };
	for (int kind = STRATEGY_RANDOM; kind <= STRATEGY_GENETIC; kind++)
		for (int b = 0; b < 3; b++) {
			double *per = xcalloc(full, sizeof(double)), seeds[SEEDS];
			int near = 0;
			for (size_t i = 0; i < full; i++) {
				size_t budget = (sp[i].n * (size_t)pct[b] + 99) / 100;
				for (int k = 0; k < SEEDS; k++) {
					seeds[k] = replay(&sp[i], kind, budget, (uint64_t)k + 1);
					near += seeds[k] >= 0.99;
				}
				per[i] = median(seeds, SEEDS);
			}
			double worst = 1;
			for (size_t i = 0; i < full; i++)
				worst = fmin(worst, per[i]);
			printf("| %s | %d%% | %.3f | %.3f | %.0f%% |\n", strategy_name(kind), pct[b],
			       median(per, (int)full), worst, 100.0 * near / (double)(full * SEEDS));
			free(per);
		}
	return 0;
}
