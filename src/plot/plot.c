/*
 * plot.c - what the plots share: the title block, the default size, the
 * classics' names and CSV fields.
 */
#include "plot/plot.h"
#include "db/db.h"
#include "plot/svg.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void plot_begin(FILE *out, const struct plot_sel *s, const char *what)
{
	char title[512], sub[512];
	snprintf(title, sizeof(title), "%s %s on %s: %s", s->f->name, s->dt->name, s->device, what);
	snprintf(sub, sizeof(sub), "%s, measured %s by gputune %s, %s timing", s->uuid, s->date, s->version,
		 s->mode);
	svg_begin(out, title, sub);
}

int plot_default_size(const struct plot_sel *s, long *rows, long *cols)
{
	*rows = s->rows;
	*cols = s->cols;
	if (s->rows)
		return 0;
	sqlite3_stmt *st = db_prepare(s->db,
		"SELECT w.rows, w.cols FROM winner w JOIN family f ON f.id = w.family_id WHERE w.device_id = ?1"
		" AND f.name = ?2 AND w.dtype = ?3 AND w.timing_mode = ?4 ORDER BY w.rows * w.cols DESC, w.rows DESC"
		" LIMIT 1");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, s->device_id);
	sqlite3_bind_text(st, 2, family_store_name(s->f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, s->dt->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, s->mode, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*rows = (long)sqlite3_column_int64(st, 0);
		*cols = (long)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (!*rows)
		return fail("plot: nothing of %s %s is tuned on %s (%s timing)", s->f->name, s->dt->name, s->device,
			    s->mode);
	return 0;
}

int plot_nothing_at(const struct plot_sel *s, long rows, long cols)
{
	char size[48];
	return fail("plot: no %s %s variant was measured at %s on %s (%s timing)", s->f->name, s->dt->name,
		    family_size_text(s->f, &(struct dims){ rows, cols, 1 }, size, sizeof(size)), s->device, s->mode);
}

char *plot_classic(const struct family *f, int i, char *buf, size_t n)
{
	int v[MAX_PARAMS];
	if (family_classic_point(f, i, v) < 0)
		return NULL;
	snprintf(buf, n, "%.*s", (int)strcspn(f->classics[i], ":"), f->classics[i]);
	return family_point_name(f, v);
}

void plot_count_tick(double v, char *buf, size_t n)
{
	static const char *const unit[] = { "", "Ki", "Mi", "Gi" };
	int u = 0;
	while (u < 3 && v >= 1024 && fmod(v, 1024) == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, "%.0f%s", v, unit[u]);
}
