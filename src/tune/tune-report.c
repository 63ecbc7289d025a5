/*
 * tune-report.c - the table a tuning run ends with, read back from the
 * database so that it shows what is stored (also for sizes a resumed run
 * skipped): per size, the winner, its time and bandwidth, its share of the
 * ceiling, its speed-up over the family's classic kernels (the first
 * nreport of them, one column each, named after them), and how many
 * variants were right, wrong or failed.
 */
#include "tune/tune.h"
#include "db/db.h"
#include "util/table.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Latest 'ok' median of the classic point at this size, or 0. */
static double classic_ms(sqlite3 *db, const struct family *f, const struct tune_report_key *k,
			 const struct dims *d, int i)
{
	int v[MAX_PARAMS] = {0};
	if (family_classic_point(f, i, v) < 0)
		return 0;
	/* Stored names are canonical: every parameter, in table order. */
	char *params = family_point_name(f, v);
	sqlite3_stmt *st = db_prepare(db,
		"SELECT m.median_ms FROM measurement m JOIN run r ON r.id = m.run_id"
		" JOIN variant v ON v.id = m.variant_id WHERE r.device_id = ?1 AND r.timing_mode = ?2"
		" AND v.family_id = ?3 AND v.dtype = ?4 AND v.params = ?5 AND m.rows = ?6 AND m.cols = ?7 AND m.depth = ?8"
		" AND m.status = 'ok' ORDER BY m.id DESC LIMIT 1");
	if (!st) {
		free(params);
		return 0;
	}
	sqlite3_bind_int64(st, 1, k->device_id);
	sqlite3_bind_text(st, 2, k->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, k->family_id);
	sqlite3_bind_text(st, 4, k->dtype, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, params, -1, SQLITE_TRANSIENT);
	free(params);
	sqlite3_bind_int64(st, 6, d->rows);
	sqlite3_bind_int64(st, 7, d->cols);
	sqlite3_bind_int64(st, 8, d->depth);
	double ms = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
	sqlite3_finalize(st);
	return ms;
}

/* Counts of the latest result of each variant at this size, by status. */
static void status_counts(sqlite3 *db, const struct tune_report_key *k, const struct dims *d,
			  long *ok, long *wrong, long *failed)
{
	*ok = *wrong = *failed = 0;
	sqlite3_stmt *st = db_prepare(db,
		"WITH latest AS (SELECT m.status, row_number() OVER (PARTITION BY m.variant_id"
		" ORDER BY m.id DESC) AS rn FROM measurement m JOIN run r ON r.id = m.run_id"
		" JOIN variant v ON v.id = m.variant_id WHERE r.device_id = ?1 AND r.timing_mode = ?2"
		" AND v.family_id = ?3 AND v.dtype = ?4 AND m.rows = ?5 AND m.cols = ?6 AND m.depth = ?7)"
		" SELECT status, count(*) FROM latest WHERE rn = 1 GROUP BY status");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, k->device_id);
	sqlite3_bind_text(st, 2, k->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, k->family_id);
	sqlite3_bind_text(st, 4, k->dtype, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, d->rows);
	sqlite3_bind_int64(st, 6, d->cols);
	sqlite3_bind_int64(st, 7, d->depth);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		long n = sqlite3_column_int64(st, 1);
		if (!strcmp(s, "ok"))
			*ok += n;
		else if (!strcmp(s, "wrong"))
			*wrong += n;
		else
			*failed += n;
	}
	sqlite3_finalize(st);
}

#define MAX_REPORTED 8
/* The figures' unit in their names: bandwidth, or arithmetic. */
static const struct table_col head_cols[] = {
	{ "size", 0 }, { "dtype", 0 }, { "winner", 0 }, { "median_us", 1 }, { "gbps", 1 },
	{ "pct_ceiling", 1 }, { "ceiling_gbps", 1 },
};
static const struct table_col head_cols_flops[ARRAY_SIZE(head_cols)] = {
	{ "size", 0 }, { "dtype", 0 }, { "winner", 0 }, { "median_us", 1 }, { "gflops", 1 },
	{ "pct_ceiling", 1 }, { "ceiling_gflops", 1 },
};
static const struct table_col tail_cols[] = { { "ok", 1 }, { "wrong", 1 }, { "failed", 1 } };

int tune_report(sqlite3 *db, const struct family *f, const struct tune_report_key *k,
		const struct dims *sizes, size_t nsizes, int format)
{
	/* Columns: the head, "vs_NAME" per reported classic, the tail. */
	int nc = f->nreport < MAX_REPORTED ? f->nreport : MAX_REPORTED;
	for (int i = 0; i < nc; i++)
		if (!f->classics || !f->classics[i])
			nc = i;
	struct table_col cols_def[ARRAY_SIZE(head_cols) + MAX_REPORTED + ARRAY_SIZE(tail_cols)];
	char names[MAX_REPORTED][48];
	size_t ncols = 0;
	const struct table_col *head = f->metric == METRIC_FLOPS ? head_cols_flops : head_cols;
	for (size_t i = 0; i < ARRAY_SIZE(head_cols); i++)
		cols_def[ncols++] = head[i];
	for (int i = 0; i < nc; i++) {
		snprintf(names[i], sizeof(names[i]), "vs_%.*s", (int)strcspn(f->classics[i], ":"), f->classics[i]);
		cols_def[ncols].name = names[i];
		cols_def[ncols++].numeric = 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tail_cols); i++)
		cols_def[ncols++] = tail_cols[i];
	struct table t;
	table_init(&t, cols_def, (int)ncols);
	sqlite3_stmt *st = db_prepare(db,
		"SELECT v.params, m.median_ms, m.gbps, m.fraction FROM winner w"
		" JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id"
		" WHERE w.device_id = ?1 AND w.family_id = ?2 AND w.dtype = ?3 AND w.rows = ?4"
		" AND w.cols = ?5 AND w.depth = ?7 AND w.timing_mode = ?6");
	if (!st) {
		table_free(&t);
		return -1;
	}
	for (size_t i = 0; i < nsizes; i++) {
		const struct dims *d = &sizes[i];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, k->device_id);
		sqlite3_bind_int64(st, 2, k->family_id);
		sqlite3_bind_text(st, 3, k->dtype, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, d->rows);
		sqlite3_bind_int64(st, 5, d->cols);
		sqlite3_bind_int64(st, 7, d->depth);
		sqlite3_bind_text(st, 6, k->mode, -1, SQLITE_STATIC);
		char size[48], med[32] = "", gbps[32] = "", pct[32] = "", ceil[32] = "", vs[MAX_REPORTED][32],
		     ok[16], wrong[16], failed[16];
		char *params = NULL;
		memset(vs, 0, sizeof(vs));
		family_size_text(f, d, size, sizeof(size));
		if (sqlite3_step(st) == SQLITE_ROW) {
			params = xstrdup((const char *)sqlite3_column_text(st, 0));
			double ms = sqlite3_column_double(st, 1), g = sqlite3_column_double(st, 2);
			double fr = sqlite3_column_double(st, 3);
			snprintf(med, sizeof(med), "%.2f", ms * 1e3);
			snprintf(gbps, sizeof(gbps), "%.0f", g);
			snprintf(pct, sizeof(pct), "%.1f", fr * 100);
			if (fr > 0)
				snprintf(ceil, sizeof(ceil), "%.0f", g / fr);
			for (int c = 0; c < nc; c++) {
				double cm = classic_ms(db, f, k, d, c);
				if (cm > 0)
					snprintf(vs[c], sizeof(vs[c]), "%.2f", cm / ms);
			}
		}
		long nok, nwrong, nfailed;
		status_counts(db, k, d, &nok, &nwrong, &nfailed);
		snprintf(ok, sizeof(ok), "%ld", nok);
		snprintf(wrong, sizeof(wrong), "%ld", nwrong);
		snprintf(failed, sizeof(failed), "%ld", nfailed);
		const char *cells[ARRAY_SIZE(head_cols) + MAX_REPORTED + ARRAY_SIZE(tail_cols)] = {
			size, k->dtype, params ? params : "(none correct)", med, gbps, pct, ceil };
		size_t n = ARRAY_SIZE(head_cols);
		for (int c = 0; c < nc; c++)
			cells[n++] = vs[c];
		cells[n++] = ok;
		cells[n++] = wrong;
		cells[n++] = failed;
		table_add(&t, cells);
		free(params);
	}
	sqlite3_finalize(st);
	table_print(&t, format, stdout);
	table_free(&t);
	return 0;
}
