/*
 * cmd-query.c - `gputune query`: what is tuned, per device, kernel,
 * element type and size; from the user's database and the shipped
 * results (the user's own results win).
 */
#include "export/choice.h"
#include "export/choice-rule.h"
#include "cli/cmd.h"
#include "compile/render.h"
#include "db/db.h"
#include "families/family.h"
#include "gpu/nvml.h"
#include "db/results.h"
#include "util/sizes.h"
#include "util/table.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_option options[] = {
	{ "device", "NAME|UUID|INDEX", "one device: name substring (any case), UUID, or index from `gputune db devices`", 0, 0 },
	{ "kernel", "FAMILY", "one kernel family (`gputune help` lists them)", 0, 0 },
	{ "dtype", "TYPE", "one element type (f32, f64, f16, i32)", 0, 0 },
	{ "size", "N|RxC|MxNxK", "one size (N is a vector length for 1-D families, N x N for matrices, N x N x N for 3-D ones); when it was not measured, the variant exported headers choose there", 0, 0 },
	{ "mode", "MODE", "timing mode: flushed or hot (default: both)", 0, 0 },
	{ "all", NULL, "every measured variant with its status and the GPU's clocks (MHz), temperature (C), power (W) and clock limits while its size was timed (your database only)", 0, 0 },
	{ "no-shipped", NULL, "leave out the results shipped with gputune", 0, 0 },
	OPT_DB,
	OPT_FORMAT,
	OPT_END
};

static const struct table_col winner_cols[] = {
	{ "device", 0 }, { "uuid", 0 }, { "kernel", 0 }, { "dtype", 0 }, { "size", 0 }, { "mode", 0 },
	{ "params", 0 }, { "median_us", 1 }, { "gbps", 1 }, { "pct_ceiling", 1 }, { "source", 0 }, { "note", 0 },
};
/* The same for a reader: the UUID's first group (the rest is in CSV and
 * JSON), and the parameters, the widest column, last, so that the rest
 * fits about 110 columns and a narrow terminal wraps only them. */
static const struct table_col winner_cols_text[ARRAY_SIZE(winner_cols)] = {
	{ "device", 0 }, { "gpu", 0 }, { "kernel", 0 }, { "dtype", 0 }, { "size", 0 }, { "mode", 0 },
	{ "median_us", 1 }, { "gbps", 1 }, { "pct_ceiling", 1 }, { "source", 0 }, { "note", 0 }, { "params", 0 },
};

/* A winner row, cells in winner_cols' order, added as the table's columns
 * have them. */
static void add_winner_cells(struct table *t, const char **cells)
{
	if (t->cols != winner_cols_text) {
		table_add(t, cells);
		return;
	}
	char gpu[16];
	snprintf(gpu, sizeof(gpu), "%.12s", cells[1]);
	const char *text[] = { cells[0], gpu, cells[2], cells[3], cells[4], cells[5],
			       cells[7], cells[8], cells[9], cells[10], cells[11], cells[6] };
	table_add(t, text);
}

static const struct table_col all_cols[] = {
	{ "device", 0 }, { "kernel", 0 }, { "dtype", 0 }, { "size", 0 }, { "mode", 0 }, { "params", 0 },
	{ "status", 0 }, { "median_us", 1 }, { "gbps", 1 }, { "pct_ceiling", 1 }, { "reason", 0 },
	{ "sm_mhz", 0 }, { "mem_mhz", 0 }, { "temp_c", 0 }, { "power_w", 0 }, { "clock_limits", 0 },
};

/* "a" when a == b, else "a-b": a reading at the start and end of a size. */
static void span_text(char *buf, size_t n, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL) {
		buf[0] = 0;
		return;
	}
	long a = lround(sqlite3_column_double(st, col)), b = lround(sqlite3_column_double(st, col + 1));
	if (a == b)
		snprintf(buf, n, "%ld", a);
	else
		snprintf(buf, n, "%ld-%ld", a, b);
}

static void add_winner(struct table *t, const struct result *r, const char *note)
{
	char size[48], med[32], gbps[32], pct[32];
	family_size_text(family_find(r->family), &(struct dims){ r->rows, r->cols, r->depth }, size, sizeof(size));
	snprintf(med, sizeof(med), "%.2f", r->median_ms * 1e3);
	snprintf(gbps, sizeof(gbps), "%.0f", r->gbps);
	snprintf(pct, sizeof(pct), "%.1f", r->fraction * 100);
	const char *cells[] = { r->device, r->uuid, r->family, r->dtype, size, r->mode, r->params,
				med, gbps, pct, r->shipped ? "shipped" : "user", note };
	add_winner_cells(t, cells);
}

/* --all: every variant's latest result from the user's database. */
static int query_all(const char *path, const struct result_filter *flt, int format)
{
	sqlite3 *db = NULL;
	if (db_open(path, 0, &db) < 0)
		return EXIT_FAIL;
	sqlite3_stmt *st = db_prepare(db,
		"WITH latest AS (SELECT m.*, r.timing_mode, r.device_id, row_number() OVER"
		" (PARTITION BY r.device_id, r.timing_mode, m.variant_id, m.rows, m.cols, m.depth ORDER BY m.id DESC) rn"
		" FROM measurement m JOIN run r ON r.id = m.run_id)"
		" SELECT d.name, d.uuid, d.id, f.name, v.dtype, l.rows, l.cols, l.timing_mode, v.params, l.status,"
		" l.median_ms, l.gbps, l.fraction, l.reason, c.sm_mhz_start, c.sm_mhz_end, c.mem_mhz_start,"
		" c.mem_mhz_end, c.temp_c_start, c.temp_c_end, c.power_w_start, c.power_w_end, c.throttle_reasons,"
		" l.depth"
		" FROM latest l JOIN device d ON d.id = l.device_id"
		" JOIN variant v ON v.id = l.variant_id JOIN family f ON f.id = v.family_id"
		" LEFT JOIN run_condition c ON c.run_id = l.run_id AND c.dtype = v.dtype AND c.rows = l.rows"
		" AND c.cols = l.cols AND c.depth = l.depth WHERE l.rn = 1"
		" AND (?1 IS NULL OR f.name = ?1) AND (?2 IS NULL OR v.dtype = ?2) AND (?3 IS NULL OR l.timing_mode = ?3)"
		" ORDER BY d.name, f.name, v.dtype, l.rows * l.cols * l.depth, l.rows, l.cols, l.gbps DESC");
	if (!st) {
		db_close(db);
		return EXIT_FAIL;
	}
	results_bind_filter(st, flt);
	struct table t;
	table_init(&t, all_cols, (int)ARRAY_SIZE(all_cols));
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *uuid = (const char *)sqlite3_column_text(st, 1);
		if (flt->device && !results_device_matches(flt->device, sqlite3_column_int64(st, 2), uuid, name))
			continue;
		char size[48], med[32] = "", gbps[32] = "", pct[32] = "";
		struct dims d = { (long)sqlite3_column_int64(st, 5), (long)sqlite3_column_int64(st, 6),
				  (long)sqlite3_column_int64(st, 23) };
		family_size_text(family_find((const char *)sqlite3_column_text(st, 3)), &d, size, sizeof(size));
		if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
			snprintf(med, sizeof(med), "%.2f", sqlite3_column_double(st, 10) * 1e3);
			snprintf(gbps, sizeof(gbps), "%.0f", sqlite3_column_double(st, 11));
			snprintf(pct, sizeof(pct), "%.1f", sqlite3_column_double(st, 12) * 100);
		}
		const char *reason = (const char *)sqlite3_column_text(st, 13);
		/* The conditions its size was timed under, start-end. */
		char sm[24], mem[24], temp[24], pw[24], limits[160] = "";
		span_text(sm, sizeof(sm), st, 14);
		span_text(mem, sizeof(mem), st, 16);
		span_text(temp, sizeof(temp), st, 18);
		span_text(pw, sizeof(pw), st, 20);
		if (sqlite3_column_type(st, 22) != SQLITE_NULL)
			nvml_reasons_text((unsigned long long)sqlite3_column_int64(st, 22), limits, sizeof(limits));
		const char *cells[] = { name, (const char *)sqlite3_column_text(st, 3),
					(const char *)sqlite3_column_text(st, 4), size,
					(const char *)sqlite3_column_text(st, 7), (const char *)sqlite3_column_text(st, 8),
					(const char *)sqlite3_column_text(st, 9), med, gbps, pct, reason ? reason : "",
					sm, mem, temp, pw, limits };
		table_add(&t, cells);
	}
	sqlite3_finalize(st);
	db_close(db);
	table_print(&t, format, stdout);
	table_free(&t);
	return EXIT_OK;
}

static int exec_query(struct args *a)
{
	int format = args_format(a);
	if (format < 0)
		return EXIT_USAGE;
	struct result_filter flt = { args_get(a, "device"), args_get(a, "kernel"), args_get(a, "dtype"),
				     args_get(a, "mode"), args_has(a, "no-shipped") };
	if (flt.family) {
		const struct family *f = cmd_family_arg(a->cmd, "kernel", flt.family);
		if (!f)
			return EXIT_USAGE;
		flt.family = family_store_name(f);
	}
	if (flt.dtype && !dtype_find(flt.dtype))
		return cmd_usage_error(a->cmd, "query: unknown dtype '%s' (f32, f64, f16, i32)", flt.dtype);
	if (flt.mode && strcmp(flt.mode, "flushed") && strcmp(flt.mode, "hot"))
		return cmd_usage_error(a->cmd, "query: unknown mode '%s' (flushed or hot)", flt.mode);
	/* --size as a vector length, a matrix and a matrix product: each
	 * group reads it by its family's shape (a shape it does not parse as
	 * gets a size of 0 rows, which no group of that shape answers). */
	struct dims *size = NULL, *by_shape[4] = { NULL, NULL, NULL, NULL };
	if (args_get(a, "size")) {
		char err[200];
		int any = 0;
		for (int shape = SHAPE_1D; shape <= SHAPE_3D; shape++) {
			size_t n = 0;
			if (sizes_parse(shape, args_get(a, "size"), &by_shape[shape], &n, err, sizeof(err)) < 0 || n != 1) {
				free(by_shape[shape]);
				by_shape[shape] = xcalloc(1, sizeof(struct dims));
			} else {
				any = 1;
			}
		}
		if (!any) {
			for (int shape = SHAPE_1D; shape <= SHAPE_3D; shape++)
				free(by_shape[shape]);
			return cmd_usage_error(a->cmd, "query: bad --size '%s' (one size, N, RxC or MxNxK)",
					       args_get(a, "size"));
		}
		size = by_shape[SHAPE_2D];
	}
	char *path = db_path_from(args_get(a, "db"));
	int rc = EXIT_OK;
	if (args_has(a, "all")) {
		rc = query_all(path, &flt, format);
		free(path);
		for (int shape = SHAPE_1D; shape <= SHAPE_3D; shape++)
			free(by_shape[shape]);
		return rc;
	}
	struct choice_set cs;
	if (choice_load(path, &flt, templates_dir_from(NULL), &cs) < 0) {
		free(path);
		for (int shape = SHAPE_1D; shape <= SHAPE_3D; shape++)
			free(by_shape[shape]);
		return EXIT_FAIL;
	}
	free(path);
	struct table t;
	table_init(&t, format == FMT_TABLE ? winner_cols_text : winner_cols, (int)ARRAY_SIZE(winner_cols));
	for (size_t i = 0; i < cs.winners.n && !size; i++)
		add_winner(&t, &cs.winners.r[i], "");
	/* With --size: one answer per group, by the rule exported headers use. */
	for (size_t k = 0; size && k < cs.ngroups; k++) {
		const struct choice_group *g = &cs.g[k];
		const struct family *fam = family_find(g->key->family);
		const struct dims *sz2 = by_shape[fam ? fam->shape : SHAPE_2D];
		if (sz2->rows == 0)
			continue;
		int how;
		int v = choice_pick(g, dtype_find(g->key->dtype) ? dtype_find(g->key->dtype)->size : 4, sz2, &how);
		if (how == GPUTUNE_CHOICE_EXACT) {
			for (int i = 0; i < g->n; i++)
				if (g->rows[i] == sz2->rows && g->cols[i] == sz2->cols && g->depth[i] == sz2->depth)
					add_winner(&t, g->entry[i], "");
			continue;
		}
		const struct result *r = g->key;
		char sz[48], note[200];
		family_size_text(fam, sz2, sz, sizeof(sz));
		snprintf(note, sizeof(note), "untuned: %s (%d measured sizes, %d candidates)", choice_how_text(how),
			 g->n, g->ncand);
		const char *cells[] = { r->device, r->uuid, r->family, r->dtype, sz, r->mode, g->names[v],
					"", "", "", r->shipped ? "shipped" : "user", note };
		add_winner_cells(&t, cells);
	}
	if (t.rows == 0 && format == FMT_TABLE)
		fprintf(stderr, "gputune: nothing tuned matches (a tuning run, `gputune FAMILY`, "
				"adds results)\n");
	else
		table_print(&t, format, stdout);
	table_free(&t);
	choice_free(&cs);
	for (int shape = SHAPE_1D; shape <= SHAPE_3D; shape++)
		free(by_shape[shape]);
	return rc;
}

const struct cmd_entry cmd_query_entry = {
	.name = "query",
	.summary = "show what is tuned, per device, kernel, element type and size",
	.usage = "",
	.description = "Lists the winning variant per device, kernel, element type, size and timing\n"
		       "mode, from your database and from the results shipped with gputune (yours win).\n"
		       "With --size, one answer per device, kernel and type: the measured size, else\n"
		       "the variant an exported header chooses there (see `gputune help export` for\n"
		       "the rule), with a note saying how it was chosen.",
	.options = options,
	.flags = CMD_USES_DB,
	.exec = exec_query,
};
