/*
 * unit-plan-run.c - what a tuning run plans to measure (plan_run): every
 * point at every size, less what the database holds for this device in
 * this timing mode; --force measures everything again, and a restarted
 * --force run skips only what the run it continues measured.  On a
 * database in memory, without a GPU.  Prints one "ok"/"not ok" line per
 * check; exits 1 on a failure.
 */
#include "../src/db/db.h"
#include "../src/families/family.h"
#include "../src/tune/run.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only a worker of several GPUs beats (run-devices.c, not linked). */
void devq_beat(struct devq *q, int slot)
{
	(void)q;
	(void)slot;
}

static int failures;
static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	failures += !cond;
}

/* A run row of device 1 in mode, and measurements in it of the given
 * variants (ids) at one size each; returns the run's id. */
static int64_t add_run(sqlite3 *db, const char *mode, const int64_t *ids, const struct dims *at, int n)
{
	static int runs;
	char sql[512];
	snprintf(sql, sizeof(sql),
		 "INSERT INTO run (uuid, device_id, family_id, started_at, gputune_version, nvrtc_version, timing_mode,"
		 " repetitions) VALUES ('run-%d', 1, 1, '2026-01-01T00:00:00Z', 'test', 'test', '%s', 30)",
		 ++runs, mode);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	int64_t run = sqlite3_last_insert_rowid(db);
	for (int i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql),
			 "INSERT INTO measurement (run_id, variant_id, rows, cols, depth, status, median_ms, gbps)"
			 " VALUES (%lld, %lld, %ld, %ld, %ld, 'ok', 1, 1)",
			 (long long)run, (long long)ids[i], at[i].rows, at[i].cols, at[i].depth);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			return -1;
	}
	return run;
}

/* The needed flags of every point at every size, as a string of 0s and
 * 1s, point after point. */
static void needed_text(const struct run_state *s, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->npts; i++)
		for (size_t k = 0; k < s->nsizes; k++)
			out[n++] = (char)('0' + s->pts[i].needed[k]);
	out[n] = '\0';
}

/* Plans again from scratch: what a new process would plan. */
static int replan(struct run_state *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pts[i].needed);
		s->pts[i].needed = NULL;
	}
	return plan_run(s);
}

int main(void)
{
	const struct family *f = family_find("transpose");
	sqlite3 *db = NULL;
	if (!f || db_open_memory(&db) < 0)
		return 1;
	struct gpu_info g;
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "Test GPU");
	snprintf(g.uuid, sizeof(g.uuid), "GPU-test");
	struct tune_opts o;
	memset(&o, 0, sizeof(o));
	struct dims sizes[2] = { { 64, 64, 1 }, { 128, 32, 1 } };
	struct point pts[3];
	memset(pts, 0, sizeof(pts));
	char *names[3] = { "tile=8", "tile=16", "tile=32" };
	for (int i = 0; i < 3; i++) {
		pts[i].name = names[i];
		snprintf(pts[i].hash, sizeof(pts[i].hash), "%016x", i + 1);
	}
	struct run_state s;
	memset(&s, 0, sizeof(s));
	s.f = f;
	s.dt = family_dtype(f, "f32");
	s.o = &o;
	s.sizes = sizes;
	s.nsizes = 2;
	s.pts = pts;
	s.npts = 3;
	s.db = db;
	s.g = g;
	s.mode = "flushed";
	char got[16];
	check(plan_run(&s) == 0, "an empty database plans");
	needed_text(&s, got);
	check(!strcmp(got, "111111"), "with nothing measured, every point at every size");
	check(s.device_id == 1 && s.family_id == 1 && pts[0].variant_id > 0 && pts[2].variant_id > 0,
	      "the device, the family and the variants are registered");

	/* Point 0 measured at size 0 and point 2 at size 1, flushed; point 1
	 * at size 0 hot. */
	int64_t ids[2] = { pts[0].variant_id, pts[2].variant_id };
	struct dims at[2] = { sizes[0], sizes[1] };
	int64_t first = add_run(db, "flushed", ids, at, 2);
	int64_t hot = add_run(db, "hot", &pts[1].variant_id, &sizes[0], 1);
	check(first > 0 && hot > 0, "the measurements are stored");
	check(replan(&s) == 0, "a database with results plans");
	needed_text(&s, got);
	printf("# needed: %s\n", got);
	check(!strcmp(got, "011110"), "what this mode measured is not measured again, at its own size only");

	/* --force: everything again; restarted, only what its run left. */
	o.force = 1;
	check(replan(&s) == 0, "--force plans");
	needed_text(&s, got);
	check(!strcmp(got, "111111"), "--force measures everything again");
	int64_t later = add_run(db, "flushed", &pts[1].variant_id, &sizes[1], 1);
	s.resumed_run = later;
	check(replan(&s) == 0, "a restarted --force run plans");
	needed_text(&s, got);
	printf("# needed: %s\n", got);
	check(!strcmp(got, "111011"), "a restarted --force run skips only what the run it continues measured");
	for (int i = 0; i < 3; i++)
		free(pts[i].needed);
	db_close(db);
	return failures ? 1 : 0;
}
