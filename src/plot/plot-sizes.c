/*
 * plot-sizes.c - `gputune plot sizes`: the winner's figure against size,
 * with the ceiling measured at each size, the family's reported classics
 * (the naive kernel and the seed's) and, where `gputune validate` ran, the
 * held-out points of the exported header's choice.
 */
#include "db/db.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "util/table.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Series: the winner, the ceiling, up to MAX_CLASSICS classics, the
 * held-out points. */
#define MAX_CLASSICS 3
#define NSERIES (MAX_CLASSICS + 3)

struct point {
	long rows, cols;
	double value, fraction;
	char *params;
};

struct series {
	char name[64];
	int style, line, dashed;
	struct point *p;
	int n;
};

static void add(struct series *se, long rows, long cols, double value, double fraction, const char *params)
{
	se->p = xrealloc(se->p, (size_t)(se->n + 1) * sizeof(*se->p));
	se->p[se->n++] = (struct point){ rows, cols, value, fraction, xstrdup(params ? params : "") };
}

/* The latest measurement of params at one size on the selection's device
 * and mode, when it is 'ok': its figure and share of the ceiling. */
static int latest_ok(const struct plot_sel *s, sqlite3_stmt *st, const char *params, long rows, long cols,
		     double *value, double *fraction)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, s->device_id);
	sqlite3_bind_text(st, 2, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, s->dt->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 6, rows);
	sqlite3_bind_int64(st, 7, cols);
	if (sqlite3_step(st) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		return 0;
	*value = sqlite3_column_double(st, 1);
	*fraction = sqlite3_column_double(st, 2);
	return 1;
}

static int read_series(const struct plot_sel *s, struct series *se, int *nse)
{
	sqlite3_stmt *w = db_prepare(s->db,
		"SELECT w.rows, w.cols, m.gbps, m.fraction, v.params, c.ceiling_gbps FROM winner w"
		" JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id"
		" JOIN family f ON f.id = w.family_id LEFT JOIN ceiling c ON c.run_id = m.run_id"
		" AND c.dtype = w.dtype AND c.rows = w.rows AND c.cols = w.cols WHERE w.device_id = ?1"
		" AND f.name = ?2 AND w.dtype = ?3 AND w.timing_mode = ?4 ORDER BY w.rows * w.cols, w.rows");
	sqlite3_stmt *m = db_prepare(s->db,
		"SELECT m.status, m.gbps, m.fraction FROM measurement m JOIN run r ON r.id = m.run_id"
		" JOIN variant v ON v.id = m.variant_id JOIN family f ON f.id = v.family_id"
		" WHERE r.device_id = ?1 AND r.timing_mode = ?2 AND f.name = ?3 AND v.dtype = ?4 AND v.params = ?5"
		" AND m.rows = ?6 AND m.cols = ?7 ORDER BY m.id DESC LIMIT 1");
	sqlite3_stmt *h = db_prepare(s->db,
		"SELECT va.rows, va.cols, va.gbps, va.fraction, va.params FROM validation va"
		" JOIN run r ON r.id = va.run_id JOIN family f ON f.id = r.family_id WHERE r.device_id = ?1"
		" AND r.timing_mode = ?2 AND f.name = ?3 AND va.dtype = ?4 AND va.gbps IS NOT NULL"
		" ORDER BY va.rows * va.cols, va.rows, va.run_id");
	if (!w || !m || !h) {
		sqlite3_finalize(w);
		sqlite3_finalize(m);
		sqlite3_finalize(h);
		return -1;
	}
	snprintf(se[0].name, sizeof(se[0].name), "winner");
	se[0].style = 0;
	se[0].line = 1;
	snprintf(se[1].name, sizeof(se[1].name), "ceiling (%s)", family_ceiling_name(s->f));
	se[1].style = 5;
	se[1].line = se[1].dashed = 1;
	char *cparams[MAX_CLASSICS] = { 0 };
	int nc = 0;
	for (int i = 0; i < s->f->nreport && nc < MAX_CLASSICS; i++) {
		struct series *c = &se[2 + nc];
		cparams[nc] = plot_classic(s->f, i, c->name, sizeof(c->name));
		if (!cparams[nc])
			break;
		c->style = 1 + nc;
		c->line = 1;
		nc++;
	}
	struct series *held = &se[2 + nc];
	snprintf(held->name, sizeof(held->name), "held-out: header's choice");
	held->style = 4;
	*nse = 3 + nc;

	sqlite3_bind_int64(w, 1, s->device_id);
	sqlite3_bind_text(w, 2, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(w, 3, s->dt->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(w, 4, s->mode, -1, SQLITE_STATIC);
	while (sqlite3_step(w) == SQLITE_ROW) {
		long rows = (long)sqlite3_column_int64(w, 0), cols = (long)sqlite3_column_int64(w, 1);
		add(&se[0], rows, cols, sqlite3_column_double(w, 2), sqlite3_column_double(w, 3),
		    (const char *)sqlite3_column_text(w, 4));
		if (sqlite3_column_type(w, 5) != SQLITE_NULL)
			add(&se[1], rows, cols, sqlite3_column_double(w, 5), 1.0, "");
		for (int i = 0; i < nc; i++) {
			double v, fr;
			if (latest_ok(s, m, cparams[i], rows, cols, &v, &fr))
				add(&se[2 + i], rows, cols, v, fr, cparams[i]);
		}
	}
	sqlite3_bind_int64(h, 1, s->device_id);
	sqlite3_bind_text(h, 2, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(h, 3, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(h, 4, s->dt->name, -1, SQLITE_STATIC);
	while (sqlite3_step(h) == SQLITE_ROW)
		add(held, (long)sqlite3_column_int64(h, 0), (long)sqlite3_column_int64(h, 1), sqlite3_column_double(h, 2),
		    sqlite3_column_double(h, 3), (const char *)sqlite3_column_text(h, 4));
	for (int i = 0; i < nc; i++)
		free(cparams[i]);
	sqlite3_finalize(w);
	sqlite3_finalize(m);
	sqlite3_finalize(h);
	return 0;
}

static void write_csv(FILE *out, const struct plot_sel *s, const struct series *se, int nse)
{
	static const struct table_col cols[] = {
		{ "series", 0 }, { "size", 0 }, { "rows", 1 }, { "cols", 1 }, { "elements", 1 },
		{ "value", 1 }, { "unit", 0 }, { "pct_ceiling", 1 }, { "params", 0 },
	};
	struct table t;
	table_init(&t, cols, (int)ARRAY_SIZE(cols));
	for (int k = 0; k < nse; k++)
		for (int i = 0; i < se[k].n; i++) {
			const struct point *p = &se[k].p[i];
			char size[48], r[24], c[24], e[32], val[64], pct[32];
			snprintf(r, sizeof(r), "%ld", p->rows);
			snprintf(c, sizeof(c), "%ld", p->cols);
			snprintf(e, sizeof(e), "%.0f", (double)p->rows * (double)p->cols);
			snprintf(val, sizeof(val), "%.3f", p->value);
			snprintf(pct, sizeof(pct), "%.2f", 100 * p->fraction);
			const char *cells[] = { se[k].name, family_size_text(s->f, &(struct dims){ p->rows, p->cols, 1 }, size, sizeof(size)),
						r, c, e, val, family_metric_unit(s->f), pct, p->params };
			table_add(&t, cells);
		}
	table_print(&t, FMT_CSV, out);
	table_free(&t);
}

static void write_svg(FILE *out, const struct plot_sel *s, const struct series *se, int nse)
{
	double xmin = INFINITY, xmax = 0, ymax = 0;
	for (int k = 0; k < nse; k++)
		for (int i = 0; i < se[k].n; i++) {
			double e = (double)se[k].p[i].rows * (double)se[k].p[i].cols;
			xmin = fmin(xmin, e);
			xmax = fmax(xmax, e);
			ymax = fmax(ymax, se[k].p[i].value);
		}
	char unit[64];
	snprintf(unit, sizeof(unit), "%s (higher is better)", family_metric_unit(s->f));
	struct svg_axis x = { xmin / 1.5, xmax * 1.5, 1,
			      s->f->shape == SHAPE_1D ? "N, elements (log scale)" : "rows x cols, elements (log scale)",
			      plot_count_tick };
	struct svg_axis y = { 0, ymax > 0 ? ymax * 1.08 : 1, 0, unit, NULL };
	plot_begin(out, s, "the best variant at each size");
	svg_axes(out, &x, &y);
	int legend = 0;
	for (int k = 0; k < nse; k++) {
		if (!se[k].n)
			continue;
		double *px = xcalloc((size_t)se[k].n, sizeof(double)), *py = xcalloc((size_t)se[k].n, sizeof(double));
		for (int i = 0; i < se[k].n; i++) {
			px[i] = svg_x(&x, (double)se[k].p[i].rows * (double)se[k].p[i].cols);
			py[i] = svg_y(&y, se[k].p[i].value);
		}
		if (se[k].line)
			svg_line(out, se[k].style, px, py, se[k].n, se[k].dashed);
		for (int i = 0; i < se[k].n; i++) {
			const struct point *p = &se[k].p[i];
			char size[48], tip[512];
			snprintf(tip, sizeof(tip), "%s at %s: %.1f %s (%.1f%% of the ceiling)%s%s", se[k].name,
				 family_size_text(s->f, &(struct dims){ p->rows, p->cols, 1 }, size, sizeof(size)), p->value,
				 family_metric_unit(s->f), 100 * p->fraction, *p->params ? "; " : "", p->params);
			svg_marker(out, se[k].style, px[i], py[i], tip);
		}
		free(px);
		free(py);
		svg_legend(out, legend++, se[k].style, se[k].line, se[k].dashed, se[k].name);
	}
	svg_end(out);
}

int plot_sizes(FILE *out, const struct plot_sel *s)
{
	struct series se[NSERIES];
	memset(se, 0, sizeof(se));
	int nse = 0, rc = read_series(s, se, &nse);
	if (rc == 0 && se[0].n == 0)
		rc = fail("plot: nothing of %s %s is tuned on %s (%s timing)", s->f->name, s->dt->name, s->device,
			  s->mode);
	if (rc == 0) {
		if (s->format == PLOT_CSV)
			write_csv(out, s, se, nse);
		else
			write_svg(out, s, se, nse);
	}
	for (int k = 0; k < NSERIES; k++) {
		for (int i = 0; i < se[k].n; i++)
			free(se[k].p[i].params);
		free(se[k].p);
	}
	return rc;
}
