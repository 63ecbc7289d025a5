/*
 * plot-space.c - `gputune plot space`: at one size, every variant's
 * latest measurement as a share of the ceiling, sorted from the best down,
 * with the winner and the classics marked and the variants that were
 * wrong or failed counted at the bottom.
 */
#include "db/db.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "util/table.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct variant {
	char *params, *status, *reason;
	double value, fraction;
	int role; /* -1 none, 0 winner, 1 + i classic i */
};

static int read_variants(const struct plot_sel *s, long rows, long cols, struct variant **out, int *n)
{
	sqlite3_stmt *st = db_prepare(s->db,
		"WITH latest AS (SELECT m.*, row_number() OVER (PARTITION BY m.variant_id ORDER BY m.id DESC) rn"
		" FROM measurement m JOIN run r ON r.id = m.run_id WHERE r.device_id = ?1 AND r.timing_mode = ?2"
		" AND m.rows = ?3 AND m.cols = ?4)"
		" SELECT v.params, l.status, l.gbps, l.fraction, l.reason, EXISTS (SELECT 1 FROM winner w"
		"  WHERE w.measurement_id = l.id) FROM latest l JOIN variant v ON v.id = l.variant_id"
		" JOIN family f ON f.id = v.family_id WHERE l.rn = 1 AND f.name = ?5 AND v.dtype = ?6"
		" ORDER BY l.status = 'ok' DESC, l.gbps DESC, v.params");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->device_id);
	sqlite3_bind_text(st, 2, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, rows);
	sqlite3_bind_int64(st, 4, cols);
	sqlite3_bind_text(st, 5, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, s->dt->name, -1, SQLITE_STATIC);
	/* The classics' canonical names, to mark them. */
	char *cls[8] = { 0 }, name[64];
	int nc = 0;
	while (nc < 8 && (cls[nc] = plot_classic(s->f, nc, name, sizeof(name))))
		nc++;
	*out = NULL;
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		*out = xrealloc(*out, (size_t)(*n + 1) * sizeof(**out));
		struct variant *v = &(*out)[(*n)++];
		const char *r = (const char *)sqlite3_column_text(st, 4);
		v->params = xstrdup((const char *)sqlite3_column_text(st, 0));
		v->status = xstrdup((const char *)sqlite3_column_text(st, 1));
		v->reason = xstrdup(r ? r : "");
		v->value = sqlite3_column_double(st, 2);
		v->fraction = sqlite3_column_double(st, 3);
		v->role = sqlite3_column_int(st, 5) ? 0 : -1;
		for (int i = 0; i < nc && v->role < 0; i++)
			if (!strcmp(cls[i], v->params))
				v->role = 1 + i;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < nc; i++)
		free(cls[i]);
	return 0;
}

static const char *role_name(const struct family *f, int role, char *buf, size_t n)
{
	if (role == 0)
		return "winner";
	if (role > 0) {
		snprintf(buf, n, "%.*s", (int)strcspn(f->classics[role - 1], ":"), f->classics[role - 1]);
		return buf;
	}
	return "";
}

static void write_csv(FILE *out, const struct plot_sel *s, const struct variant *v, int n)
{
	static const struct table_col cols[] = {
		{ "rank", 1 }, { "params", 0 }, { "status", 0 }, { "value", 1 }, { "unit", 0 },
		{ "pct_ceiling", 1 }, { "role", 0 }, { "reason", 0 },
	};
	struct table t;
	table_init(&t, cols, (int)ARRAY_SIZE(cols));
	for (int i = 0; i < n; i++) {
		char rank[24], val[64] = "", pct[32] = "", role[64];
		snprintf(rank, sizeof(rank), "%d", i + 1);
		if (!strcmp(v[i].status, "ok")) {
			snprintf(val, sizeof(val), "%.3f", v[i].value);
			snprintf(pct, sizeof(pct), "%.2f", 100 * v[i].fraction);
		}
		const char *cells[] = { rank, v[i].params, v[i].status, val, family_metric_unit(s->f), pct,
					role_name(s->f, v[i].role, role, sizeof(role)), v[i].reason };
		table_add(&t, cells);
	}
	table_print(&t, FMT_CSV, out);
	table_free(&t);
}

static void write_svg(FILE *out, const struct plot_sel *s, long rows, long cols, const struct variant *v, int n)
{
	int nok = 0;
	double ymax = 100;
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].status, "ok")) {
			nok++;
			ymax = fmax(ymax, 100 * v[i].fraction);
		}
	char what[160], size[48];
	snprintf(what, sizeof(what), "every variant at %s", family_size_text(s->f, &(struct dims){ rows, cols, 1 }, size, sizeof(size)));
	struct svg_axis x = { 0, n + 1, 0, "variants, fastest first (rank)", NULL };
	struct svg_axis y = { 0, ymax * 1.05, 0, "share of the ceiling, % (higher is better)", NULL };
	plot_begin(out, s, what);
	svg_axes(out, &x, &y);
	/* The ceiling itself, as a reference line. */
	double lx[2] = { svg_x(&x, 0), svg_x(&x, n + 1) }, ly[2] = { svg_y(&y, 100), svg_y(&y, 100) };
	svg_line(out, 5, lx, ly, 2, 1);
	/* The curve of the ok variants, then markers: every variant small on
	 * the curve, the winner and the classics on top. */
	double *px = xcalloc((size_t)nok + 1, sizeof(double)), *py = xcalloc((size_t)nok + 1, sizeof(double));
	for (int i = 0; i < nok; i++) {
		px[i] = svg_x(&x, i + 1);
		py[i] = svg_y(&y, 100 * v[i].fraction);
	}
	svg_line(out, 0, px, py, nok, 0);
	int nbad = 0, seen_role[16] = { 0 };
	for (int i = 0; i < n; i++) {
		char tip[600], rbuf[64];
		int ok = !strcmp(v[i].status, "ok");
		const char *role = role_name(s->f, v[i].role, rbuf, sizeof(rbuf));
		if (ok)
			snprintf(tip, sizeof(tip), "#%d %s%s%s: %.1f %s, %.1f%% of the ceiling", i + 1, *role ? role : "",
				 *role ? " " : "", v[i].params, v[i].value, family_metric_unit(s->f), 100 * v[i].fraction);
		else
			snprintf(tip, sizeof(tip), "%s%s%s: %s (%s)", *role ? role : "", *role ? " " : "", v[i].params,
				 v[i].status, v[i].reason);
		int style = !ok ? 4 : v[i].role < 0 ? 0 : v[i].role == 0 ? 2 : 1;
		if (v[i].role >= 0 && v[i].role < 16)
			seen_role[v[i].role] = 1;
		nbad += !ok;
		double mx = svg_x(&x, i + 1), my = svg_y(&y, ok ? 100 * v[i].fraction : 0);
		svg_marker(out, style, mx, my, tip);
		if (v[i].role >= 0 && ok)
			svg_text(out, mx + 7, my - 7, "small", "start", role);
	}
	free(px);
	free(py);
	int k = 0;
	char text[160];
	snprintf(text, sizeof(text), "%d variants verified", nok);
	svg_legend(out, k++, 0, 1, 0, text);
	if (seen_role[0])
		svg_legend(out, k++, 2, 0, 0, "winner");
	int any_classic = 0;
	for (int r = 1; r < 16; r++)
		any_classic |= seen_role[r];
	if (any_classic)
		svg_legend(out, k++, 1, 0, 0, "classic kernels");
	if (nbad) {
		snprintf(text, sizeof(text), "%d wrong or failed (at 0)", nbad);
		svg_legend(out, k++, 4, 0, 0, text);
	}
	snprintf(text, sizeof(text), "ceiling (%s)", family_ceiling_name(s->f));
	svg_legend(out, k++, 5, 1, 1, text);
	svg_end(out);
}

int plot_space(FILE *out, const struct plot_sel *s)
{
	long rows, cols;
	if (plot_default_size(s, &rows, &cols) < 0)
		return -1;
	struct variant *v = NULL;
	int n = 0, rc = read_variants(s, rows, cols, &v, &n);
	if (rc == 0 && n == 0)
		rc = plot_nothing_at(s, rows, cols);
	if (rc == 0) {
		if (s->format == PLOT_CSV)
			write_csv(out, s, v, n);
		else
			write_svg(out, s, rows, cols, v, n);
	}
	for (int i = 0; i < n; i++) {
		free(v[i].params);
		free(v[i].status);
		free(v[i].reason);
	}
	free(v);
	return rc;
}
