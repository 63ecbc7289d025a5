/*
 * run-store.c - a tuning run's rows in the database: the run, each
 * measurement and ceiling (one transaction each, so Ctrl-C loses nothing
 * measured), and what a resumed or repeated run still needs.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "tune/run.h"
#include "compile/compile-pool.h"
#include "compile/nvrtc-compile.h"
#include "db/db.h"
#include "export/choice.h"
#include "families/strategy.h"
#include "gpu/bench.h"
#include "gpu/cuda-driver.h"
#include "gpu/nvml.h"
#include "tune/conditions.h"
#include "tune/restart.h"
#include "util/interrupt.h"
#include "util/table.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int store_measurement(struct run_state *s, const struct point *p, const struct dims *d,
			     const struct variant_result *r, double bytes, double ceiling)
{
	if (s->q) /* a worker of several GPUs: its GPU answers */
		devq_beat(s->q, s->slot);
	if (db_begin(s->db) < 0)
		return -1;
	sqlite3_stmt *st = db_prepare(s->db,
		"INSERT OR REPLACE INTO measurement (run_id, variant_id, rows, cols, status, reason,"
		" median_ms, min_ms, max_ms, p25_ms, p75_ms, launches, gbps, fraction, depth, registers)"
		" VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)");
	if (!st) {
		db_rollback(s->db);
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, p->variant_id);
	sqlite3_bind_int64(st, 3, d->rows);
	sqlite3_bind_int64(st, 4, d->cols);
	sqlite3_bind_int64(st, 15, d->depth);
	if (p->regs > 0)
		sqlite3_bind_int(st, 16, p->regs);
	sqlite3_bind_text(st, 5, variant_status_name(r->status), -1, SQLITE_STATIC);
	if (r->status == VS_OK) {
		double gbps = bench_gbps(bytes, r->t.median_ms);
		sqlite3_bind_double(st, 7, r->t.median_ms);
		sqlite3_bind_double(st, 8, r->t.min_ms);
		sqlite3_bind_double(st, 9, r->t.max_ms);
		sqlite3_bind_double(st, 10, r->t.p25_ms);
		sqlite3_bind_double(st, 11, r->t.p75_ms);
		sqlite3_bind_int(st, 12, r->t.launches);
		sqlite3_bind_double(st, 13, gbps);
		sqlite3_bind_double(st, 14, ceiling > 0 ? gbps / ceiling : 0);
	} else {
		sqlite3_bind_text(st, 6, r->reason, -1, SQLITE_TRANSIENT);
	}
	if (db_step_done(s->db, st) < 0) {
		db_rollback(s->db);
		return -1;
	}
	return db_commit(s->db);
}

int store_ceiling(struct run_state *s, const struct dims *d, double mc, double kern)
{
	if (s->q)
		devq_beat(s->q, s->slot);
	if (db_begin(s->db) < 0)
		return -1;
	sqlite3_stmt *st = db_prepare(s->db,
		"INSERT OR REPLACE INTO ceiling (run_id, dtype, rows, cols, memcpy_gbps, copy_kernel_gbps,"
		" ceiling_gbps, kind, depth) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)");
	if (!st) {
		db_rollback(s->db);
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_text(st, 2, s->dt->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, d->rows);
	sqlite3_bind_int64(st, 4, d->cols);
	sqlite3_bind_int64(st, 9, d->depth);
	sqlite3_bind_double(st, 5, mc);
	sqlite3_bind_double(st, 6, kern);
	sqlite3_bind_double(st, 7, mc > kern ? mc : kern);
	sqlite3_bind_text(st, 8, family_ceiling_name(s->f), -1, SQLITE_STATIC);
	if (db_step_done(s->db, st) < 0) {
		db_rollback(s->db);
		return -1;
	}
	return db_commit(s->db);
}

/* A point's variant row and its index, for finding points by row. */
struct variant_at {
	int64_t id;
	size_t i;
};

static int cmp_variant_at(const void *a, const void *b)
{
	int64_t x = ((const struct variant_at *)a)->id, y = ((const struct variant_at *)b)->id;
	return (x > y) - (x < y);
}

/* Registers the device, family and variants, and decides what to measure:
 * every point at every size, less what this device measured there in
 * this timing mode (with --force, only what the run a restarted process
 * continues measured; a fresh --force run measures everything again).
 * One query a size, not one a point and size: a matrix multiply's run
 * plans 54,540 points at 20 sizes. */
int plan_run(struct run_state *s)
{
	sqlite3_stmt *st = NULL;
	struct variant_at *by_id = NULL;
	if (db_begin(s->db) < 0)
		return -1;
	s->device_id = db_device_id(s->db, &s->g);
	s->family_id = db_family_id(s->db, s->f);
	if (s->device_id < 0 || s->family_id < 0)
		goto fail;
	by_id = xcalloc(s->npts ? s->npts : 1, sizeof(*by_id));
	for (size_t i = 0; i < s->npts; i++) {
		struct point *p = &s->pts[i];
		p->variant_id = db_variant_id(s->db, s->family_id, s->dt->name, p->name, p->hash);
		if (p->variant_id < 0)
			goto fail;
		p->needed = xmalloc(s->nsizes ? s->nsizes : 1);
		memset(p->needed, 1, s->nsizes);
		by_id[i] = (struct variant_at){ p->variant_id, i };
	}
	if (s->o->force && !s->resumed_run) {
		free(by_id);
		return db_commit(s->db);
	}
	qsort(by_id, s->npts, sizeof(*by_id), cmp_variant_at);
	st = db_prepare(s->db,
		"SELECT DISTINCT m.variant_id FROM measurement m JOIN run r ON r.id = m.run_id"
		" WHERE m.rows = ?2 AND m.cols = ?3 AND m.depth = ?7 AND r.device_id = ?4 AND r.timing_mode = ?5"
		" AND (?6 = 0 OR r.id = ?6)");
	if (!st)
		goto fail;
	for (size_t k = 0; k < s->nsizes; k++) {
		const struct dims *d = &s->sizes[k];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 2, d->rows);
		sqlite3_bind_int64(st, 3, d->cols);
		sqlite3_bind_int64(st, 7, d->depth);
		sqlite3_bind_int64(st, 4, s->device_id);
		sqlite3_bind_text(st, 5, s->mode, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, s->o->force ? s->resumed_run : 0);
		int r;
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			struct variant_at key = { sqlite3_column_int64(st, 0), 0 };
			const struct variant_at *at = bsearch(&key, by_id, s->npts, sizeof(*by_id), cmp_variant_at);
			if (at)
				s->pts[at->i].needed[k] = 0;
		}
		if (r != SQLITE_DONE) {
			fail("database: %s", sqlite3_errmsg(s->db));
			goto fail;
		}
	}
	sqlite3_finalize(st);
	free(by_id);
	return db_commit(s->db);
fail:
	sqlite3_finalize(st);
	free(by_id);
	db_rollback(s->db);
	return -1;
}

int start_run_row(struct run_state *s)
{
	if (s->resumed_run) {
		s->run_id = s->resumed_run;
		return 0;
	}
	char ts[32], uuid[40];
	db_timestamp(ts);
	uint64_t h = hash64(ts, strlen(ts), HASH64_SEED ^ (uint64_t)getpid());
	double t = now_seconds();
	h = hash64(&t, sizeof(t), h);
	uint64_t h2 = hash64(s->g.uuid, strlen(s->g.uuid), h);
	snprintf(uuid, sizeof(uuid), "%016llx%016llx", (unsigned long long)h, (unsigned long long)h2);
	sqlite3_stmt *st = db_prepare(s->db,
		"INSERT INTO run (uuid, device_id, family_id, started_at, gputune_version, nvrtc_version,"
		" timing_mode, repetitions) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, s->device_id);
	sqlite3_bind_int64(st, 3, s->family_id);
	sqlite3_bind_text(st, 4, ts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, PACKAGE_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, nvrtc_version_string(), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, s->o->reps);
	if (db_step_done(s->db, st) < 0)
		return -1;
	s->run_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

void finish_run_row(struct run_state *s, const char *status)
{
	char ts[32];
	db_timestamp(ts);
	sqlite3_stmt *st = db_prepare(s->db, "UPDATE run SET status = ?1, finished_at = ?2 WHERE id = ?3");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, s->run_id);
	db_step_done(s->db, st);
}
