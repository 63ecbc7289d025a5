/*
 * cmd-plot.c - `gputune plot sizes|space|map`: the command line and the
 * selection (database, device, family, type, mode, size, parameters); the
 * drawing is in plot-*.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cmd.h"
#include "config.h"
#include "db/db.h"
#include "plot/plot.h"
#include "db/results.h"
#include "util/sizes.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_option options[] = {
	{ "kernel", "FAMILY", "the kernel family (default: the first of `gputune help`'s)", 0, 0 },
	{ "dtype", "TYPE", "the element type (default f32)", 0, 0 },
	{ "device", "NAME|UUID|INDEX", "the device (default: the one measured last for this family and type)", 0, 0 },
	{ "size", "N|RxC|MxNxK", "space and map: the size shown (default: the largest tuned)", 0, 0 },
	{ "x", "PARAM", "map: the parameter across (default: the family's first)", 0, 0 },
	{ "y", "PARAM", "map: the parameter up (default: the family's second)", 0, 0 },
	{ "mode", "MODE", "timing mode: flushed (default) or hot", 0, 0 },
	{ "format", "FMT", "svg (default) or csv (the plotted numbers)", 0, 0 },
	OPT_OUTPUT,
	{ "shipped", NULL, "plot the results shipped with gputune instead of your database", 0, 0 },
	OPT_DB,
	OPT_END
};

static const struct {
	const char *name;
	int (*draw)(FILE *out, const struct plot_sel *s);
} kinds[] = {
	{ "sizes", plot_sizes },
	{ "space", plot_space },
	{ "map", plot_map },
};

/* Picks the device: the one --device names among those with results for
 * the family, type and mode, else the one whose run of them is latest.
 * Fills the title block's fields.  0, or -1 after reporting. */
static int pick_device(struct plot_sel *s, const char *want)
{
	sqlite3_stmt *st = db_prepare(s->db,
		"SELECT d.id, d.uuid, d.name, max(r.started_at), group_concat(DISTINCT r.gputune_version)"
		" FROM device d JOIN run r ON r.device_id = d.id JOIN family f ON f.id = r.family_id"
		" WHERE f.name = ?1 AND r.timing_mode = ?2 AND EXISTS (SELECT 1 FROM winner w"
		"  WHERE w.device_id = d.id AND w.family_id = f.id AND w.dtype = ?3 AND w.timing_mode = ?2)"
		" GROUP BY d.id ORDER BY max(r.started_at) DESC, d.id");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, s->dt->name, -1, SQLITE_STATIC);
	int found = 0, many = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *uuid = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		if (want && !results_device_matches(want, sqlite3_column_int64(st, 0), uuid, name))
			continue;
		if (found) {
			many++;
			continue;
		}
		found = 1;
		const char *date = (const char *)sqlite3_column_text(st, 3);
		const char *ver = (const char *)sqlite3_column_text(st, 4);
		s->device_id = sqlite3_column_int64(st, 0);
		snprintf(s->uuid, sizeof(s->uuid), "%s", uuid);
		snprintf(s->device, sizeof(s->device), "%s", name);
		snprintf(s->date, sizeof(s->date), "%.10s", date ? date : "");
		snprintf(s->version, sizeof(s->version), "%s", ver ? ver : "");
	}
	sqlite3_finalize(st);
	if (!found)
		return fail("plot: no results for %s %s (%s timing)%s%s in %s", s->f->name, s->dt->name, s->mode,
			    want ? " on a device matching " : "", want ? want : "",
			    s->shipped ? "the results shipped with gputune"
				       : "your database (--shipped plots the results shipped with gputune)");
	if (want && many)
		return fail("plot: --device '%s' matches %d devices with %s %s results: give a UUID or an index "
			    "(gputune db devices)", want, many + 1, s->f->name, s->dt->name);
	return 0;
}

static int param_or_default(const struct cmd_entry *cmd, const struct family *f, const char *name, int dflt,
			    int *out)
{
	if (!name) {
		*out = dflt;
		return 0;
	}
	*out = family_param_index(f, name);
	if (*out < 0 || f->params[*out].hidden) {
		struct strbuf sb = { 0 };
		for (int i = 0; i < f->nparams; i++)
			if (!f->params[i].hidden)
				sb_printf(&sb, "%s%s", sb.len ? ", " : "", f->params[i].name);
		cmd_usage_error(cmd, "plot: %s has no parameter '%s' (%s)", f->name, name, sb.buf ? sb.buf : "");
		sb_free(&sb);
		return -1;
	}
	return 0;
}

static int exec_plot(struct args *a)
{
	const char *kind = a->pos[0];
	size_t k = 0;
	while (k < ARRAY_SIZE(kinds) && strcmp(kinds[k].name, kind))
		k++;
	if (k == ARRAY_SIZE(kinds))
		return cmd_usage_error(a->cmd, "plot: unknown plot '%s' (sizes, space or map)", kind);
	struct plot_sel s;
	memset(&s, 0, sizeof(s));
	const char *fam = args_get(a, "kernel"), *dtn = args_get(a, "dtype"), *fmt = args_get(a, "format");
	s.f = fam ? cmd_family_arg(a->cmd, "kernel", fam) : family_table[0];
	if (!s.f)
		return EXIT_USAGE;
	/* The plots read sizes as rows x cols; a matrix product's third
	 * dimension would fold different sizes into one point. */
	if (s.f->shape == SHAPE_3D)
		return cmd_usage_error(a->cmd, "plot: %s sizes have three dimensions, which the plots do not draw yet "
				       "(use `gputune query`)", s.f->name);
	s.dt = family_dtype(s.f, dtn ? dtn : "f32");
	if (!s.dt)
		return cmd_usage_error(a->cmd, "plot: unknown --dtype '%s' for %s (%s)", dtn, s.f->name, s.f->dtypes);
	s.mode = args_get(a, "mode") ? args_get(a, "mode") : "flushed";
	if (strcmp(s.mode, "flushed") && strcmp(s.mode, "hot"))
		return cmd_usage_error(a->cmd, "plot: unknown mode '%s' (flushed or hot)", s.mode);
	if (fmt && strcmp(fmt, "svg") && strcmp(fmt, "csv"))
		return cmd_usage_error(a->cmd, "plot: unknown format '%s' (svg or csv)", fmt);
	s.format = fmt && !strcmp(fmt, "csv") ? PLOT_CSV : PLOT_SVG;
	if (args_get(a, "size")) {
		struct dims *sz = NULL;
		size_t n = 0;
		char err[200];
		if (sizes_parse(s.f->shape, args_get(a, "size"), &sz, &n, err, sizeof(err)) < 0 || n != 1) {
			free(sz);
			return cmd_usage_error(a->cmd, "plot: bad --size '%s' (one size: %s)", args_get(a, "size"),
					       s.f->shape == SHAPE_1D ? "N" : "N or RxC");
		}
		s.rows = sz[0].rows;
		s.cols = sz[0].cols;
		free(sz);
	}
	if (param_or_default(a->cmd, s.f, args_get(a, "x"), 0, &s.px) < 0 ||
	    param_or_default(a->cmd, s.f, args_get(a, "y"), s.f->nparams > 1 ? 1 : 0, &s.py) < 0)
		return EXIT_USAGE;
	if (s.px == s.py && k == 2)
		return cmd_usage_error(a->cmd, "plot: --x and --y are both '%s': a map needs two parameters",
				       s.f->params[s.px].name);
	int rc = 0;
	s.shipped = args_has(a, "shipped");
	if (!s.shipped) {
		/* No database yet: the shipped results, as query and export do. */
		char *path = db_path_from(args_get(a, "db"));
		rc = db_open(path, DB_MISSING_OK, &s.db);
		if (rc == 0 && !s.db) {
			note("no tuning database at %s: plotting the results shipped with gputune", path);
			s.shipped = 1;
		}
		free(path);
	}
	if (rc == 0 && s.shipped)
		rc = results_open_shipped(&s.db);
	if (rc < 0)
		return EXIT_FAIL;
	if (pick_device(&s, args_get(a, "device")) < 0) {
		db_close(s.db);
		return EXIT_FAIL;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		die("open_memstream: %s", strerror(errno));
	rc = kinds[k].draw(mem, &s);
	fclose(mem);
	db_close(s.db);
	if (rc == 0)
		rc = write_output(args_get(a, "output"), buf, len);
	free(buf);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd_entry cmd_plot_entry = {
	.name = "plot",
	.summary = "draw tuning results as standalone SVG (or their numbers as CSV)",
	.usage = "sizes|space|map",
	.description =
		"Draws one device, kernel family, element type and timing mode from your\n"
		"database (or, with --shipped, from the results shipped with gputune):\n"
		"\n"
		"  sizes  the winner's figure at each tuned size, with the ceiling measured at\n"
		"         that size, the naive and classic kernels, and the held-out points of\n"
		"         the exported header's choice where `gputune validate` ran;\n"
		"  space  at one size, every variant measured, as a share of the ceiling,\n"
		"         fastest first, marking the winner and the classics and counting the\n"
		"         wrong or failed variants;\n"
		"  map    at one size, the best share of the ceiling over two parameters\n"
		"         (--x, --y), whatever the others: which parameters matter.\n"
		"\n"
		"The SVG is one file with no scripts, fonts or links, readable on light and\n"
		"dark backgrounds, with colours and marker shapes that survive colour\n"
		"blindness; every data point has a tooltip.  --format csv writes the same\n"
		"numbers, one row per point (sizes), variant (space) or cell (map).",
	.options = options,
	.min_pos = 1,
	.max_pos = 1,
	.flags = CMD_USES_DB,
	.exec = exec_plot,
};
