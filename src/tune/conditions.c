/*
 * conditions.c - see conditions.h.
 */
#include "tune/conditions.h"
#include "db/db.h"

#include <stdio.h>

int conditions_mark_run(sqlite3 *db, int64_t run_id, const char *text)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE run SET conditions = ?1 WHERE id = ?2");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, run_id);
	return db_step_done(db, st);
}

int conditions_store(sqlite3 *db, int64_t run_id, const char *dtype, const struct dims *d,
		     const struct gpu_conditions *c)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT OR REPLACE INTO run_condition (run_id, dtype, rows, cols, sm_mhz_start, sm_mhz_end,"
		" sm_mhz_min, sm_mhz_max, mem_mhz_start, mem_mhz_end, temp_c_start, temp_c_end, temp_c_max,"
		" power_w_start, power_w_end, power_w_max, throttle_reasons, samples, depth)"
		" VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, dtype, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, d->rows);
	sqlite3_bind_int64(st, 4, d->cols);
	sqlite3_bind_int64(st, 19, d->depth);
	sqlite3_bind_int(st, 5, (int)c->start.sm_mhz);
	sqlite3_bind_int(st, 6, (int)c->end.sm_mhz);
	sqlite3_bind_int(st, 7, (int)c->sm_mhz_min);
	sqlite3_bind_int(st, 8, (int)c->sm_mhz_max);
	sqlite3_bind_int(st, 9, (int)c->start.mem_mhz);
	sqlite3_bind_int(st, 10, (int)c->end.mem_mhz);
	sqlite3_bind_int(st, 11, (int)c->start.temp_c);
	sqlite3_bind_int(st, 12, (int)c->end.temp_c);
	sqlite3_bind_int(st, 13, (int)c->temp_c_max);
	sqlite3_bind_double(st, 14, c->start.power_w);
	sqlite3_bind_double(st, 15, c->end.power_w);
	sqlite3_bind_double(st, 16, c->power_w_max);
	sqlite3_bind_int64(st, 17, (sqlite3_int64)c->reasons);
	sqlite3_bind_int(st, 18, c->samples);
	return db_step_done(db, st);
}

/* "a" or "a-b". */
static void range_text(char *buf, size_t n, double lo, double hi, const char *unit)
{
	if ((long)lo == (long)hi)
		snprintf(buf, n, "%.0f %s", lo, unit);
	else
		snprintf(buf, n, "%.0f-%.0f %s", lo, hi, unit);
}

void conditions_run_text(sqlite3 *db, int64_t run_id, char *buf, size_t n)
{
	buf[0] = 0;
	sqlite3_stmt *st = db_prepare(db,
		"SELECT count(*), min(sm_mhz_min), max(sm_mhz_max), min(mem_mhz_start), max(mem_mhz_end),"
		" min(min(temp_c_start, temp_c_end)), max(temp_c_max), min(min(power_w_start, power_w_end)),"
		" max(power_w_max), sum(throttle_reasons != 0) FROM run_condition WHERE run_id = ?1");
	if (!st)
		return;
	sqlite3_bind_int64(st, 1, run_id);
	double v[10] = {0};
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < 10; i++)
			v[i] = sqlite3_column_double(st, i);
	sqlite3_finalize(st);
	int sizes = (int)v[0], limited = (int)v[9];
	if (sizes == 0)
		return;
	char sm[40], mem[40], temp[40], pw[40], reasons[200], names[160];
	range_text(sm, sizeof(sm), v[1], v[2], "MHz");
	range_text(mem, sizeof(mem), v[3], v[4], "MHz");
	range_text(temp, sizeof(temp), v[5], v[6], "C");
	range_text(pw, sizeof(pw), v[7], v[8], "W");
	if (limited) {
		/* Which reasons, over the whole run. */
		unsigned long long mask = 0;
		st = db_prepare(db, "SELECT throttle_reasons FROM run_condition WHERE run_id = ?1");
		if (st) {
			sqlite3_bind_int64(st, 1, run_id);
			while (sqlite3_step(st) == SQLITE_ROW)
				mask |= (unsigned long long)sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
		snprintf(reasons, sizeof(reasons), "clocks limited (%s) while timing %d of %d sizes",
			 nvml_reasons_text(mask, names, sizeof(names)), limited, sizes);
	} else {
		snprintf(reasons, sizeof(reasons), "no clock limits while timing (%d sizes)", sizes);
	}
	snprintf(buf, n, "SM %s, memory %s, %s, %s; %s", sm, mem, temp, pw, reasons);
}
