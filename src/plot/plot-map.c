/*
 * plot-map.c - `gputune plot map`: at one size, a heat map of the best
 * share of the ceiling over two parameters the user names (--x, --y):
 * each cell is the best verified variant with those two values, whatever
 * the others; a cell where every variant was wrong or failed says so, and
 * pairs never measured stay blank.  It shows which parameters matter.
 */
#include "db/db.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "util/table.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cell {
	int x, y;        /* parameter values */
	double best;     /* best fraction among ok variants (0: none) */
	double value;    /* its figure */
	char *params;    /* its name */
	int n, bad;      /* variants measured here, and how many not ok */
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Adds value v to the sorted set vals (n entries) unless present. */
static void add_value(int *vals, int *n, int v)
{
	for (int i = 0; i < *n; i++)
		if (vals[i] == v)
			return;
	if (*n >= MAX_VALUES * 2)
		return;
	vals[(*n)++] = v;
	qsort(vals, (size_t)*n, sizeof(int), cmp_int);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	return x->x != y->x ? (x->x > y->x) - (x->x < y->x) : (x->y > y->y) - (x->y < y->y);
}

static int read_cells(const struct plot_sel *s, long rows, long cols, struct cell **out, int *n)
{
	sqlite3_stmt *st = db_prepare(s->db,
		"WITH latest AS (SELECT m.*, row_number() OVER (PARTITION BY m.variant_id ORDER BY m.id DESC) rn"
		" FROM measurement m JOIN run r ON r.id = m.run_id WHERE r.device_id = ?1 AND r.timing_mode = ?2"
		" AND m.rows = ?3 AND m.cols = ?4)"
		" SELECT v.params, l.status, l.gbps, l.fraction FROM latest l JOIN variant v ON v.id = l.variant_id"
		" JOIN family f ON f.id = v.family_id WHERE l.rn = 1 AND f.name = ?5 AND v.dtype = ?6");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->device_id);
	sqlite3_bind_text(st, 2, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, rows);
	sqlite3_bind_int64(st, 4, cols);
	sqlite3_bind_text(st, 5, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, s->dt->name, -1, SQLITE_STATIC);
	*out = NULL;
	*n = 0;
	int rc = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *params = (const char *)sqlite3_column_text(st, 0);
		int v[MAX_PARAMS];
		/* A variant from a merged file that this build cannot read is
		 * left out, not fatal. */
		if (family_point_parse(s->f, params, v) < 0)
			continue;
		struct cell *c = NULL;
		for (int i = 0; i < *n && !c; i++)
			if ((*out)[i].x == v[s->px] && (*out)[i].y == v[s->py])
				c = &(*out)[i];
		if (!c) {
			*out = xrealloc(*out, (size_t)(*n + 1) * sizeof(**out));
			c = &(*out)[(*n)++];
			memset(c, 0, sizeof(*c));
			c->x = v[s->px];
			c->y = v[s->py];
		}
		c->n++;
		if (strcmp((const char *)sqlite3_column_text(st, 1), "ok")) {
			c->bad++;
			continue;
		}
		double fr = sqlite3_column_double(st, 3);
		if (fr > c->best) {
			c->best = fr;
			c->value = sqlite3_column_double(st, 2);
			free(c->params);
			c->params = xstrdup(params);
		}
	}
	sqlite3_finalize(st);
	qsort(*out, (size_t)*n, sizeof(**out), cmp_cell);
	return rc;
}

static void write_csv(FILE *out, const struct plot_sel *s, const struct cell *c, int n)
{
	const struct param_def *xp = &s->f->params[s->px], *yp = &s->f->params[s->py];
	const struct table_col cols[] = {
		{ xp->name, 0 }, { yp->name, 0 }, { "best_pct_ceiling", 1 }, { "best_value", 1 }, { "unit", 0 },
		{ "variants", 1 }, { "not_ok", 1 }, { "best_params", 0 },
	};
	struct table t;
	table_init(&t, cols, (int)ARRAY_SIZE(cols));
	for (int i = 0; i < n; i++) {
		char a[64], b[64], pct[32] = "", val[64] = "", nv[24], nbad[24];
		if (c[i].params) {
			snprintf(pct, sizeof(pct), "%.2f", 100 * c[i].best);
			snprintf(val, sizeof(val), "%.3f", c[i].value);
		}
		snprintf(nv, sizeof(nv), "%d", c[i].n);
		snprintf(nbad, sizeof(nbad), "%d", c[i].bad);
		const char *cells[] = { param_value_text(xp, c[i].x, a, sizeof(a)), param_value_text(yp, c[i].y, b, sizeof(b)),
					pct, val, family_metric_unit(s->f), nv, nbad, c[i].params ? c[i].params : "" };
		table_add(&t, cells);
	}
	table_print(&t, FMT_CSV, out);
	table_free(&t);
}

static void write_svg(FILE *out, const struct plot_sel *s, long rows, long cols, const struct cell *c, int n)
{
	const struct param_def *xp = &s->f->params[s->px], *yp = &s->f->params[s->py];
	int xs[MAX_VALUES * 2], ys[MAX_VALUES * 2], nx = 0, ny = 0;
	double lo = INFINITY, hi = 0;
	for (int i = 0; i < n; i++) {
		add_value(xs, &nx, c[i].x);
		add_value(ys, &ny, c[i].y);
		if (c[i].params) {
			lo = fmin(lo, c[i].best);
			hi = fmax(hi, c[i].best);
		}
	}
	if (!(lo < hi))
		lo = hi - 0.01;
	char what[200], size[48];
	snprintf(what, sizeof(what), "best by %s and %s at %s", xp->name, yp->name,
		 family_size_text(s->f, &(struct dims){ rows, cols, 1 }, size, sizeof(size)));
	plot_begin(out, s, what);
	double cw = (double)(SVG_RIGHT - SVG_LEFT) / nx, ch = (double)(SVG_BOTTOM - SVG_TOP) / ny;
	char buf[64];
	for (int i = 0; i < nx; i++)
		svg_text(out, SVG_LEFT + (i + 0.5) * cw, SVG_BOTTOM + 18, "tick", "middle",
			 param_value_text(xp, xs[i], buf, sizeof(buf)));
	for (int j = 0; j < ny; j++)
		svg_text(out, SVG_LEFT - 8, SVG_BOTTOM - (j + 0.5) * ch + 4, "tick", "end",
			 param_value_text(yp, ys[j], buf, sizeof(buf)));
	svg_text(out, (SVG_LEFT + SVG_RIGHT) / 2.0, SVG_BOTTOM + 42, "label", "middle", xp->name);
	fprintf(out, "<text x=\"22\" y=\"%d\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 22 %d)\">",
		(SVG_TOP + SVG_BOTTOM) / 2, (SVG_TOP + SVG_BOTTOM) / 2);
	svg_escape(out, yp->name);
	fputs("</text>\n", out);
	/* Blank cells first, so every pair reads as a place. */
	fprintf(out, "<rect class=\"empty\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", SVG_LEFT, SVG_TOP,
		SVG_RIGHT - SVG_LEFT, SVG_BOTTOM - SVG_TOP);
	for (int i = 0; i < n; i++) {
		int xi = 0, yi = 0;
		while (xs[xi] != c[i].x)
			xi++;
		while (ys[yi] != c[i].y)
			yi++;
		double x0 = SVG_LEFT + xi * cw, y0 = SVG_BOTTOM - (yi + 1) * ch;
		double t = c[i].params ? (c[i].best - lo) / (hi - lo) : 0;
		char fill[8], a[64], b[64], tip[600];
		svg_ramp(t, fill);
		if (c[i].params)
			snprintf(tip, sizeof(tip), "%s=%s, %s=%s: best %.1f%% of the ceiling (%.1f %s), %d variants, "
				 "%d not ok; %s", xp->name, param_value_text(xp, c[i].x, a, sizeof(a)), yp->name,
				 param_value_text(yp, c[i].y, b, sizeof(b)), 100 * c[i].best, c[i].value,
				 family_metric_unit(s->f), c[i].n, c[i].bad, c[i].params);
		else
			snprintf(tip, sizeof(tip), "%s=%s, %s=%s: all %d variants wrong or failed", xp->name,
				 param_value_text(xp, c[i].x, a, sizeof(a)), yp->name,
				 param_value_text(yp, c[i].y, b, sizeof(b)), c[i].n);
		fprintf(out, "<rect class=\"pt\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\""
			     " stroke=\"#808080\" stroke-width=\"0.5\"><title>",
			x0, y0, cw, ch, c[i].params ? fill : "#808080");
		svg_escape(out, tip);
		fputs("</title></rect>\n", out);
		/* Dark text on the light end of the ramp, light on the dark. */
		if (c[i].params)
			snprintf(a, sizeof(a), "%.1f", 100 * c[i].best);
		else
			snprintf(a, sizeof(a), "failed");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"small\" text-anchor=\"middle\" style=\"fill:%s\">%s</text>\n",
			x0 + cw / 2, y0 + ch / 2 + 4, c[i].params && t > 0.55 ? "#111111" : "#ffffff", a);
	}
	/* The ramp's key. */
	double kx = SVG_RIGHT + 30, ky0 = SVG_TOP + 20, kh = 200;
	for (int k = 0; k < 20; k++) {
		char fill[8];
		svg_ramp((k + 0.5) / 20, fill);
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"%.1f\" fill=\"%s\"/>\n", kx,
			ky0 + kh - (k + 1) * kh / 20, kh / 20 + 0.3, fill);
	}
	snprintf(buf, sizeof(buf), "%.1f%%", 100 * hi);
	svg_text(out, kx + 24, ky0 + 8, "small", "start", buf);
	snprintf(buf, sizeof(buf), "%.1f%%", 100 * lo);
	svg_text(out, kx + 24, ky0 + kh, "small", "start", buf);
	svg_text(out, kx, ky0 - 8, "small", "start", "best share of the ceiling");
	svg_text(out, kx, ky0 + kh + 24, "small", "start", "grey: all wrong or failed");
	svg_text(out, kx, ky0 + kh + 40, "small", "start", "blank: not measured");
	svg_end(out);
}

int plot_map(FILE *out, const struct plot_sel *s)
{
	long rows, cols;
	if (plot_default_size(s, &rows, &cols) < 0)
		return -1;
	struct cell *c = NULL;
	int n = 0, rc = read_cells(s, rows, cols, &c, &n);
	if (rc == 0 && n == 0)
		rc = plot_nothing_at(s, rows, cols);
	if (rc == 0) {
		if (s->format == PLOT_CSV)
			write_csv(out, s, c, n);
		else
			write_svg(out, s, rows, cols, c, n);
	}
	for (int i = 0; i < n; i++)
		free(c[i].params);
	free(c);
	return rc;
}
