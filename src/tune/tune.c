/*
 * tune.c - see tune.h.
 *
 * Order of work, and why:
 *  1. Everything that can be refused is checked before any work: options,
 *     sizes, the space, the database, each size against the GPU's memory.
 *  2. The GPU's figures are read in a child process, then the compile
 *     workers are forked, and only then does this process load the driver
 *     (the driver is not fork-safe once initialised).
 *  3. Variants are benchmarked in compile order, so the GPU starts on the
 *     first variant while the workers compile the rest.
 *  4. Each variant's result is one transaction; Ctrl-C stops after the
 *     variant in hand, so the database is always consistent and a second
 *     run skips what is already measured.
 */
#define _POSIX_C_SOURCE 200809L
#include "tune/tune.h"
#include "gpu/bench.h"
#include "export/choice.h"
#include "compile/compile-pool.h"
#include "tune/conditions.h"
#include "config.h"
#include "db/db.h"
#include "gpu/gpu.h"
#include "util/interrupt.h"
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "tune/restart.h"
#include "families/space.h"
#include "families/strategy.h"
#include "util/table.h"
#include "util/util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One point of the space on its way through the run. */
struct point {
	int v[MAX_PARAMS];
	char *name;        /* canonical parameters */
	char *source;
	char hash[17];
	int64_t variant_id;
	int job;           /* index into the compile jobs, -1 when not compiled */
	int always;        /* measured even by a search: a classic, or a point validate asks for */
	unsigned char *always_at; /* per size, for a point validate asks for: where always holds (NULL: everywhere) */
	unsigned char *needed; /* per size: still to measure */
};

struct run_state {
	const struct family *f;
	const struct dtype *dt;
	const struct tune_opts *o;
	struct dims *sizes;
	size_t nsizes;
	size_t nreq;            /* the requested sizes come first; then the probes */
	int *anchor;            /* per size: 1 for an anchor probe (whole space) */
	size_t probe_cands;     /* candidates measured at the other probes */
	double t_probe;
	double t_cross;     /* a search's best variants measured at the run's other sizes */
	size_t n_cross;     /* how many such measurements */
	struct tune_extra *x;   /* changes by another command, or NULL */
	long *confirm_pt;       /* per requested size, confirm_per of them: points confirmed there besides the winner, or -1 */
	size_t confirm_per;
	struct point *pts;
	size_t npts;
	struct compile_job *jobs;
	size_t njobs;
	char *support_src, *copy_src;
	int copy_v[MAX_PARAMS];
	int format, quiet, reps, hot, force, device, workers;
	const char *mode;    /* timing mode as stored: "flushed" or "hot" */
	int64_t resumed_run; /* the run a restarted process continues, or 0 */
	struct gpu_info g;
	sqlite3 *db;
	int64_t device_id, family_id, run_id;
	const char *conditions; /* "recorded", or why NVML readings are not */
	/* The search at each size (strategy.h) and its budget per size. */
	int strategy;
	long budget_n;      /* variants; 0: none */
	double budget_s;    /* seconds; 0: none */
	uint64_t seed;
	int *vals;          /* the points' values, for the search */
	/* Where the time went. */
	double t_start, t_wait_compile, t_verify, t_timing, t_prepare;
};

static void free_state(struct run_state *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pts[i].name);
		free(s->pts[i].source);
		free(s->pts[i].needed);
		free(s->pts[i].always_at);
	}
	free(s->pts);
	free(s->jobs);
	free(s->sizes);
	free(s->anchor);
	free(s->confirm_pt);
	free(s->vals);
	free(s->support_src);
	free(s->copy_src);
	db_close(s->db);
}

/* Adds point v unless it is already there; returns its index. */
static size_t add_point(struct run_state *s, const int *v)
{
	/* Only the family's parameters count: the space's points and the
	 * classics may differ in the unused tail, and a classic that is also
	 * a point of the space must be one point, measured once. */
	size_t np = (size_t)s->f->nparams;
	for (size_t i = 0; i < s->npts; i++)
		if (!memcmp(s->pts[i].v, v, sizeof(int) * np))
			return i;
	s->pts = xrealloc(s->pts, (s->npts + 1) * sizeof(*s->pts));
	struct point *p = &s->pts[s->npts];
	memset(p, 0, sizeof(*p));
	memcpy(p->v, v, sizeof(int) * np);
	p->job = -1;
	return s->npts++;
}

/* The classic points go into every run (when valid), so the report can
 * always give the winner's speed-up over them. */
static void add_classics(struct run_state *s, const struct device_limits *lim)
{
	for (int i = 0; s->f->classics && s->f->classics[i]; i++) {
		int v[MAX_PARAMS] = {0};
		char buf[160];
		if (family_classic_point(s->f, i, v) < 0)
			continue;
		if (!s->f->reject(v, s->dt, lim, buf, sizeof(buf))) {
			/* add_point may move s->pts: index it after. */
			size_t k = add_point(s, v);
			s->pts[k].always = 1;
		}
	}
}

static void print_rejects(const struct space *sp, FILE *f)
{
	for (size_t i = 0; i < sp->nrejects; i++)
		fprintf(f, "  rejected %5zu  %s\n", sp->rejects[i].count, sp->rejects[i].reason);
}

static char *first_line(const char *log)
{
	if (!log)
		return xstrdup("no log");
	/* The first line naming an error says more than a leading warning. */
	const char *e = strstr(log, "error");
	const char *start = e ? e : log;
	while (start > log && start[-1] != '\n')
		start--;
	size_t n = strcspn(start, "\n");
	return xasprintf("%.*s", (int)(n > 200 ? 200 : n), start);
}

/* The compile jobs: [0] the support kernels, [1] the ceiling's copy
 * kernel, then every point whose job index is set (p->job >= 0). */
static void make_jobs(struct run_state *s)
{
	s->jobs = xcalloc(s->njobs, sizeof(*s->jobs));
	s->jobs[0].source = s->support_src;
	s->jobs[0].name = "support kernels";
	s->jobs[1].source = s->copy_src;
	s->jobs[1].name = "ceiling copy kernel";
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].job >= 0) {
			s->jobs[s->pts[i].job].source = s->pts[i].source;
			s->jobs[s->pts[i].job].name = s->pts[i].name;
		}
}

/* --dry-run: compile everything, print the counts. */
static int dry_run(struct run_state *s, const struct space *sp, const char *arch, const char *cache_dir,
		   int workers)
{
	double t0 = now_seconds();
	struct compile_pool *pool = compile_pool_start(s->jobs, s->njobs, arch, cache_dir, workers, 0);
	if (!pool)
		return EXIT_FAIL;
	size_t failed = 0, cached = 0;
	int show = s->o->show_log;
	for (size_t i = 0; i < s->njobs; i++) {
		int st = compile_pool_wait(pool, i);
		cached += s->jobs[i].cached;
		if (st != COMPILE_OK) {
			failed++;
			char *log = compile_pool_log(pool, i);
			char *line = first_line(log);
			error("%s: variant %s failed to compile: %s", s->f->name, s->jobs[i].name, line);
			if (show && log)
				fprintf(stderr, "%s\n", log);
			free(line);
			free(log);
		}
		if (interrupted())
			break;
	}
	double dt = now_seconds() - t0;
	size_t compiled = compile_pool_compiled(pool);
	compile_pool_stop(pool);
	if (interrupted()) {
		error("interrupted");
		return EXIT_INTERRUPTED;
	}
	printf("%s %s for %s: %zu points, %zu valid, %zu rejected\n", s->f->name, s->dt->name, arch,
	       sp->total, sp->nvalid, sp->total - sp->nvalid);
	print_rejects(sp, stdout);
	printf("compiled %zu, cached %zu, failed %zu (%zu jobs with the tuner's own kernels) in %.2f s\n",
	       compiled, cached, failed, s->njobs, dt);
	return failed ? EXIT_FAIL : EXIT_OK;
}

static int store_measurement(struct run_state *s, const struct point *p, const struct dims *d,
			     const struct variant_result *r, double bytes, double ceiling)
{
	if (db_begin(s->db) < 0)
		return -1;
	sqlite3_stmt *st = db_prepare(s->db,
		"INSERT OR REPLACE INTO measurement (run_id, variant_id, rows, cols, status, reason,"
		" median_ms, min_ms, max_ms, p25_ms, p75_ms, launches, gbps, fraction, depth)"
		" VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)");
	if (!st) {
		db_rollback(s->db);
		return -1;
	}
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, p->variant_id);
	sqlite3_bind_int64(st, 3, d->rows);
	sqlite3_bind_int64(st, 4, d->cols);
	sqlite3_bind_int64(st, 15, d->depth);
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

static int store_ceiling(struct run_state *s, const struct dims *d, double mc, double kern)
{
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

/* Whether the database holds a result of this variant at this size on
 * this device in this timing mode; with --force in a restarted process,
 * only results of the run being continued count.  st is the statement
 * plan_run prepared once for all points and sizes. */
static int already_measured(struct run_state *s, sqlite3_stmt *st, int64_t variant_id, const struct dims *d)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, variant_id);
	sqlite3_bind_int64(st, 2, d->rows);
	sqlite3_bind_int64(st, 3, d->cols);
	sqlite3_bind_int64(st, 7, d->depth);
	sqlite3_bind_int64(st, 4, s->device_id);
	sqlite3_bind_text(st, 5, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, s->force ? s->resumed_run : 0);
	int r = sqlite3_step(st);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return fail("database: %s", sqlite3_errmsg(s->db));
	return r == SQLITE_ROW;
}

/* Registers the device, family and variants, and decides what to measure. */
static int plan_run(struct run_state *s)
{
	sqlite3_stmt *st = NULL;
	if (db_begin(s->db) < 0)
		return -1;
	s->device_id = db_device_id(s->db, &s->g);
	s->family_id = db_family_id(s->db, s->f);
	if (s->device_id < 0 || s->family_id < 0)
		goto fail;
	st = db_prepare(s->db,
		"SELECT 1 FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.variant_id = ?1"
		" AND m.rows = ?2 AND m.cols = ?3 AND m.depth = ?7 AND r.device_id = ?4 AND r.timing_mode = ?5"
		" AND (?6 = 0 OR r.id = ?6) LIMIT 1");
	if (!st)
		goto fail;
	for (size_t i = 0; i < s->npts; i++) {
		struct point *p = &s->pts[i];
		p->variant_id = db_variant_id(s->db, s->family_id, s->dt->name, p->name, p->hash);
		if (p->variant_id < 0)
			goto fail;
		p->needed = xcalloc(s->nsizes, 1);
		for (size_t k = 0; k < s->nsizes; k++) {
			int m = s->force && !s->resumed_run
					? 0
					: already_measured(s, st, p->variant_id, &s->sizes[k]);
			if (m < 0)
				goto fail;
			p->needed[k] = !m;
		}
	}
	sqlite3_finalize(st);
	return db_commit(s->db);
fail:
	sqlite3_finalize(st);
	db_rollback(s->db);
	return -1;
}

static int start_run_row(struct run_state *s)
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
	sqlite3_bind_int(st, 8, s->reps);
	if (db_step_done(s->db, st) < 0)
		return -1;
	s->run_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static void finish_run_row(struct run_state *s, const char *status)
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

static void progress(struct run_state *s, size_t k, size_t done, size_t total, double best, double ceil)
{
	if (s->quiet || !isatty(2))
		return;
	double el = now_seconds() - s->t_start;
	double per = done ? el / (double)done : 0;
	char size[48];
	fprintf(stderr, "\r\033[K%s %s: %zu/%zu variants, %.1f s, ~%.0f s left, best %.0f %s (%.1f%%)",
		family_size_text(s->f, &s->sizes[k], size, sizeof(size)), s->dt->name, done,
		total, el, per * (double)(total - done), best, family_metric_unit(s->f), ceil > 0 ? 100.0 * best / ceil : 0.0);
	fflush(stderr);
}

/* Compiles (waits for) and measures point p at size d, and stores the
 * result.  Returns 0, or -1 on a failure that ends the run (after a fault
 * this restarts the process and only returns when that fails). */
static int measure_point(struct run_state *s, struct bench *b, struct compile_pool *pool,
			 struct point *p, const struct dims *d, double bytes, double ceiling,
			 struct variant_result *r)
{
	memset(r, 0, sizeof(*r));
	double tw = now_seconds();
	int cst = compile_pool_wait(pool, (size_t)p->job);
	s->t_wait_compile += now_seconds() - tw;
	if (cst != COMPILE_OK) {
		char *log = compile_pool_log(pool, (size_t)p->job);
		char *line = first_line(log);
		r->status = VS_COMPILE_FAILED;
		snprintf(r->reason, sizeof(r->reason), "%s", line);
		if (s->o->show_log && log)
			fprintf(stderr, "\n%s: %s\n%s\n", s->f->name, p->name, log);
		free(line);
		free(log);
		return store_measurement(s, p, d, r, bytes, ceiling);
	}
	size_t len = 0;
	char *cubin = compile_pool_cubin(pool, (size_t)p->job, &len);
	if (!cubin) {
		r->status = VS_COMPILE_FAILED;
		snprintf(r->reason, sizeof(r->reason), "the compiled image could not be read from the cache");
		return store_measurement(s, p, d, r, bytes, ceiling);
	}
	struct launch_geometry geo;
	s->f->geometry(p->v, s->dt, d, &geo);
	int lost = bench_variant(b, cubin, s->f->kernel_name, p->v, &geo, r) < 0;
	s->t_verify += r->verify_s;
	s->t_timing += r->timing_s;
	free(cubin);
	if (store_measurement(s, p, d, r, bytes, ceiling) < 0)
		return -1;
	if (lost) {
		/* Nothing more can run in this process: the fault is stored;
		 * carry on in a fresh one. */
		char size[48];
		if (!s->quiet)
			fprintf(stderr, "%sgputune: %s %s faulted at %s (%s); restarting "
				"to continue with a fresh CUDA context\n",
				isatty(2) ? "\r\033[K" : "", s->f->name, p->name,
				family_size_text(s->f, d, size, sizeof(size)), r->reason);
		db_close(s->db);
		s->db = NULL;
		restart_self(s->run_id);
		return -1;
	}
	return 0;
}

/* Measures point i at size k and notes its median in ms_of (and the best
 * in *best_ms); its figure for a search into *score (0 when not ok). */
static int measure_and_note(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k, size_t i,
			    double bytes, double ceiling, double *ms_of, double *best_ms, double *score)
{
	struct variant_result r;
	int rc = measure_point(s, b, pool, &s->pts[i], &s->sizes[k], bytes, ceiling, &r);
	if (score)
		*score = rc == 0 && r.status == VS_OK ? bench_gbps(bytes, r.t.median_ms) : 0;
	if (rc == 0 && r.status == VS_OK) {
		ms_of[i] = r.t.median_ms;
		if (*best_ms == 0 || ms_of[i] < *best_ms)
			*best_ms = ms_of[i];
	}
	return rc;
}

/* Times point i at size d again (with the confirmation's launches, set by
 * the caller): its median replaces the first in ms_of (0 when not ok), and
 * it is marked confirmed.  0, or -1 as measure_point. */
static int confirm_point(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t i,
			 const struct dims *d, double bytes, double ceiling, double *ms_of, unsigned char *confirmed)
{
	struct variant_result r;
	int rc = measure_point(s, b, pool, &s->pts[i], d, bytes, ceiling, &r);
	confirmed[i] = 1;
	ms_of[i] = r.status == VS_OK ? r.t.median_ms : 0;
	return rc;
}

/* What the database holds for point i at size k on this device: the
 * latest measurement's figure (0 when it failed), or -1 when none. */
static double recorded_figure(struct run_state *s, sqlite3_stmt *st, size_t i, size_t k)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, s->pts[i].variant_id);
	sqlite3_bind_int64(st, 2, s->sizes[k].rows);
	sqlite3_bind_int64(st, 3, s->sizes[k].cols);
	sqlite3_bind_int64(st, 4, s->device_id);
	sqlite3_bind_text(st, 5, s->mode, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, s->sizes[k].depth);
	if (sqlite3_step(st) != SQLITE_ROW)
		return -1;
	return strcmp((const char *)sqlite3_column_text(st, 0), "ok") ? 0 : sqlite3_column_double(st, 1);
}

/* Size k with a search strategy: what is measured already guides it, the
 * classics are measured, then the points it picks, compiled as they are
 * picked (a window of twice the workers ahead, so the workers stay busy),
 * until the budget is spent.  0, 1 when interrupted, -1 on failure. */
static int search_size(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k, double bytes,
		       double ceiling, double *ms_of, double *best_ms)
{
	size_t budget = s->budget_n > 0 ? (size_t)s->budget_n : (s->npts + 9) / 10;
	if (s->budget_s > 0 && s->budget_n <= 0)
		budget = s->npts;
	if (budget > s->npts)
		budget = s->npts;
	struct strategy *st = strategy_new(s->strategy, s->vals, MAX_PARAMS, s->f->nparams, s->npts, budget,
					   s->seed ^ (uint64_t)(k * 0x9e3779b97f4a7c15ULL));
	sqlite3_stmt *q = db_prepare(s->db,
		"SELECT m.status, m.gbps FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.variant_id = ?1"
		" AND m.rows = ?2 AND m.cols = ?3 AND m.depth = ?6 AND r.device_id = ?4 AND r.timing_mode = ?5"
		" ORDER BY m.id DESC LIMIT 1");
	if (!q) {
		strategy_free(st);
		return -1;
	}
	size_t used = 0;
	int rc = 0;
	for (size_t i = 0; i < s->npts; i++) {
		double f = s->pts[i].needed[k] ? -1 : recorded_figure(s, q, i, k);
		if (f >= 0) {
			strategy_observe(st, i, f);
			used++;
		}
	}
	sqlite3_finalize(q);
	/* The classics first (the report compares the winner with them), and
	 * the points another command asks for (validate's choices). */
	for (size_t i = 0; i < s->npts && rc == 0; i++) {
		const struct point *p = &s->pts[i];
		const int here = p->always && (!p->always_at || (k < s->nreq && p->always_at[k]));
		if (!here || !p->needed[k])
			continue;
		double f;
		rc = interrupted() ? 1 : measure_and_note(s, b, pool, k, i, bytes, ceiling, ms_of, best_ms, &f);
		strategy_observe(st, i, f);
		s->pts[i].needed[k] = 0;
		used++;
	}
	double t0 = now_seconds();
	size_t window = 2 * (size_t)(s->workers > 0 ? s->workers : 8), *queue = xcalloc(window, sizeof(size_t));
	size_t nq = 0, done = 0;
	while (rc == 0) {
		int spent = used + nq >= budget || (s->budget_s > 0 && now_seconds() - t0 >= s->budget_s);
		if (!spent && nq < window) {
			size_t want = window - nq;
			if (want > budget - used - nq)
				want = budget - used - nq;
			size_t got = strategy_propose(st, queue + nq, want);
			for (size_t j = 0; j < got; j++)
				compile_pool_request(pool, (size_t)s->pts[queue[nq + j]].job);
			nq += got;
		}
		if (nq == 0)
			break;
		if (interrupted()) {
			rc = 1;
			break;
		}
		size_t i = queue[0];
		memmove(queue, queue + 1, --nq * sizeof(size_t));
		double f = 0;
		if (s->pts[i].needed[k])
			rc = measure_and_note(s, b, pool, k, i, bytes, ceiling, ms_of, best_ms, &f);
		s->pts[i].needed[k] = 0;
		strategy_observe(st, i, f);
		used++;
		done++;
		progress(s, k, done, done + (budget > used ? budget - used : 0),
			 *best_ms > 0 ? bench_gbps(bytes, *best_ms) : 0, ceiling);
	}
	free(queue);
	strategy_free(st);
	return rc;
}

/* Measures the needed points at size k: every one, or with search set,
 * those the run's search strategy picks.  Returns 0, 1 when interrupted,
 * -1 on a failure that ends the run. */
static int run_size(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k,
		    const void *copy_cubin, int search)
{
	const struct dims *d = &s->sizes[k];
	size_t total = 0, done = 0;
	for (size_t i = 0; i < s->npts; i++)
		total += s->pts[i].needed[k];
	if (!total)
		return 0;
	double t0 = now_seconds();
	if (bench_prepare(b, s->f, s->dt, d) < 0)
		return -1;
	/* NVML reads the GPU while this size is timed, from its ceiling to
	 * its last confirmation. */
	struct nvml_watch *watch = nvml_watch_start();
	struct launch_geometry cgeo;
	family_copy.geometry(s->copy_v, s->dt, d, &cgeo);
	double mc = 0, kern = 0;
	if (bench_ceiling(b, copy_cubin, &cgeo, &mc, &kern) < 0) {
		struct gpu_conditions unused;
		nvml_watch_stop(watch, &unused);
		return -1;
	}
	s->t_prepare += now_seconds() - t0;
	double ceiling = mc > kern ? mc : kern;
	if (store_ceiling(s, d, mc, kern) < 0)
		return -1;
	double bytes = bench_work(b), best_ms = 0;
	/* This process's median for each point at this size (0: none), and
	 * whether it comes from the confirmation round. */
	double *ms_of = xcalloc(s->npts, sizeof(double));
	unsigned char *confirmed = xcalloc(s->npts, 1);
	int rc = 0;
	if (search) {
		rc = search_size(s, b, pool, k, bytes, ceiling, ms_of, &best_ms);
		goto measured;
	}
	for (size_t i = 0; i < s->npts && rc == 0; i++) {
		struct point *p = &s->pts[i];
		if (!p->needed[k])
			continue;
		if (interrupted()) {
			rc = 1;
			break;
		}
		rc = measure_and_note(s, b, pool, k, i, bytes, ceiling, ms_of, &best_ms, NULL);
		done++;
		progress(s, k, done, total, best_ms > 0 ? bench_gbps(bytes, best_ms) : 0, ceiling);
	}
measured:
	/* Confirmation: the fastest of hundreds of noisy medians is likely a
	 * lucky one.  So the fastest is timed again with more launches (at
	 * least BENCH_CONFIRM_MS of kernel), and that figure replaces its
	 * first, until the fastest figure is one so confirmed (or the round's
	 * limit is reached). */
	int confirm_reps = BENCH_CONFIRM_REPS;
	if (best_ms > 0 && BENCH_CONFIRM_MS / best_ms > confirm_reps)
		confirm_reps = (int)fmin(BENCH_CONFIRM_MS / best_ms, BENCH_MAX_REPS);
	bench_set_reps(b, s->reps > confirm_reps ? s->reps : confirm_reps);
	/* A point another command compares with the winner (validate's
	 * choice) is confirmed the same way, so that neither figure of the
	 * comparison is a single noisy median against a confirmed one. */
	for (size_t j = 0; s->confirm_pt && k < s->nreq && j < s->confirm_per; j++) {
		const long chosen = s->confirm_pt[k * s->confirm_per + j];
		if (rc == 0 && chosen >= 0 && ms_of[chosen] > 0 && !confirmed[chosen] && !interrupted())
			rc = confirm_point(s, b, pool, (size_t)chosen, d, bytes, ceiling, ms_of, confirmed);
	}
	for (int round = 0; rc == 0 && round < BENCH_CONFIRM_MAX && !interrupted(); round++) {
		size_t top = s->npts;
		for (size_t i = 0; i < s->npts; i++)
			if (ms_of[i] > 0 && (top == s->npts || ms_of[i] < ms_of[top]))
				top = i;
		if (top == s->npts || confirmed[top])
			break;
		rc = confirm_point(s, b, pool, top, d, bytes, ceiling, ms_of, confirmed);
	}
	bench_set_reps(b, s->reps);
	free(ms_of);
	free(confirmed);
	struct gpu_conditions cond;
	nvml_watch_stop(watch, &cond);
	if (rc)
		return rc;
	if (cond.samples && conditions_store(s->db, s->run_id, s->dt->name, d, &cond) < 0)
		return -1;
	if (cond.reasons && !s->quiet) {
		char size[48], names[160];
		if (isatty(2))
			fputs("\r\033[K", stderr);
		warning("the GPU's clocks were limited (%s) while %s %s was timed: its figures may be low",
			nvml_reasons_text(cond.reasons, names, sizeof(names)),
			family_size_text(s->f, d, size, sizeof(size)), s->dt->name);
	}
	if (db_begin(s->db) < 0)
		return -1;
	if (db_update_winners(s->db, s->device_id, s->family_id, s->dt->name, d, s->mode) < 0) {
		db_rollback(s->db);
		return -1;
	}
	if (db_commit(s->db) < 0)
		return -1;
	if (!s->quiet && isatty(2))
		fputs("\r\033[K", stderr);
	return 0;
}

/* Marks in cand[] (one flag per point) the `top` fastest variants on this
 * device at each size k with use[k] (use NULL: every size of the run).
 * 0 or -1. */
static int mark_fastest(struct run_state *s, const unsigned char *use, int top, unsigned char *cand)
{
	sqlite3_stmt *st = db_prepare(s->db,
		"WITH latest AS (SELECT m.variant_id, m.gbps, m.status, row_number() OVER"
		" (PARTITION BY m.variant_id ORDER BY m.id DESC) rn FROM measurement m JOIN run r ON r.id = m.run_id"
		" WHERE r.device_id = ?1 AND r.timing_mode = ?2 AND m.rows = ?3 AND m.cols = ?4 AND m.depth = ?8)"
		" SELECT v.params FROM latest l JOIN variant v ON v.id = l.variant_id WHERE l.rn = 1"
		" AND l.status = 'ok' AND v.family_id = ?5 AND v.dtype = ?6 ORDER BY l.gbps DESC LIMIT ?7");
	if (!st)
		return -1;
	for (size_t k = 0; k < s->nsizes; k++) {
		if (use && !use[k])
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, s->device_id);
		sqlite3_bind_text(st, 2, s->mode, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, s->sizes[k].rows);
		sqlite3_bind_int64(st, 4, s->sizes[k].cols);
		sqlite3_bind_int64(st, 8, s->sizes[k].depth);
		sqlite3_bind_int64(st, 5, s->family_id);
		sqlite3_bind_text(st, 6, s->dt->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 7, top);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *params = (const char *)sqlite3_column_text(st, 0);
			for (size_t i = 0; i < s->npts; i++)
				if (!strcmp(s->pts[i].name, params))
					cand[i] = 1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/*
 * After a search (which measures a different handful of variants at each
 * size): the CROSS_TOP fastest variants of each size of this run are
 * measured at every other size of it, so that the exported choice at
 * untuned sizes has candidates (variants measured at every size) that are
 * strong ones, not only the classics.  0, 1 when interrupted, -1 on
 * failure.
 */
#define CROSS_TOP 4
static int cross_measure(struct run_state *s, struct bench *b, struct compile_pool *pool, const void *copy_cubin)
{
	if (s->nsizes < 2)
		return 0;
	unsigned char *cand = xcalloc(s->npts ? s->npts : 1, 1);
	if (mark_fastest(s, NULL, CROSS_TOP, cand) < 0) {
		free(cand);
		return -1;
	}
	/* What a search left unmeasured stays needed: keep only the
	 * candidates, and have them compiled now, in parallel. */
	size_t todo = 0;
	for (size_t i = 0; i < s->npts; i++)
		for (size_t k = 0; k < s->nsizes; k++) {
			s->pts[i].needed[k] &= cand[i];
			todo += s->pts[i].needed[k];
		}
	free(cand);
	s->n_cross = todo;
	for (size_t i = 0; i < s->npts; i++)
		for (size_t k = 0; k < s->nsizes; k++)
			if (s->pts[i].needed[k] && s->pts[i].job >= 0) {
				compile_pool_request(pool, (size_t)s->pts[i].job);
				break;
			}
	if (todo && !s->quiet)
		fprintf(stderr, "%sgputune: measuring the %d fastest variants of each size at the others (%zu "
			"measurements), for the choice at untuned sizes\n", isatty(2) ? "\r\033[K" : "", CROSS_TOP, todo);
	int rc = 0;
	for (size_t k = 0; k < s->nsizes && rc == 0; k++)
		rc = run_size(s, b, pool, k, copy_cubin, 0); /* exactly the needed points */
	return rc;
}

/* Before the first probe that is not an anchor (they come after every
 * anchor): the candidates are the PROBE_TOP fastest variants at each
 * requested size and anchor; only they stay needed at the other probes.
 * Eight, not six: with six, the best candidate at 10 held-out f16 sizes
 * reached 98.6% of their own best in the median; with eight, 99.8%
 * (offline, from a run's measurements on an H200). */
#define PROBE_TOP 8
static int narrow_probes(struct run_state *s)
{
	unsigned char *cand = xcalloc(s->npts ? s->npts : 1, 1);
	/* The requested sizes and the anchors. */
	unsigned char *use = xcalloc(s->nsizes + 1, 1);
	for (size_t k = 0; k < s->nsizes; k++)
		use[k] = k < s->nreq || s->anchor[k];
	int rc = mark_fastest(s, use, PROBE_TOP, cand);
	free(use);
	if (rc < 0) {
		free(cand);
		return -1;
	}
	s->probe_cands = 0;
	for (size_t i = 0; i < s->npts; i++) {
		s->probe_cands += cand[i];
		for (size_t k = s->nreq; k < s->nsizes; k++)
			if (!s->anchor[k] && !cand[i])
				s->pts[i].needed[k] = 0;
	}
	free(cand);
	return 0;
}

static int gpu_run(struct run_state *s, const char *arch, const char *cache_dir, int workers)
{
	/* Every size must fit before any work starts. */
	for (size_t k = 0; k < s->nsizes; k++) {
		size_t need = bench_bytes_needed(&s->g, s->f, s->dt, &s->sizes[k]);
		char size[48];
		if (need > s->g.mem_bytes / 10 * 9)
			return error("%s: size %s %s needs %.1f GiB of GPU memory; GPU %d (%s) has %.1f GiB",
				     s->f->name, family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
				     s->dt->name, (double)need / (1 << 30), s->g.index, s->g.name,
				     (double)s->g.mem_bytes / (1 << 30));
		/* And the host's copies of the inputs and of what the check reads. */
		size_t host = bench_host_bytes_needed(s->f, s->dt, &s->sizes[k]);
		double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
		if (have > 0 && (double)host > have * 0.8)
			return error("%s: size %s %s needs %.1f GiB of host memory; this machine has %.1f GiB",
				     s->f->name, family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
				     s->dt->name, (double)host / (1 << 30), have / (1 << 30));
	}
	char *path = db_path_from(s->o->db);
	int rc = db_open(path, DB_WRITE, &s->db);
	free(path);
	if (rc < 0)
		return EXIT_FAIL;
	if (plan_run(s) < 0)
		return EXIT_FAIL;
	/* Jobs: [0] support kernels, [1] ceiling copy, then each point still needed. */
	s->njobs = 2;
	for (size_t i = 0; i < s->npts; i++) {
		int any = 0;
		for (size_t k = 0; k < s->nsizes; k++)
			any |= s->pts[i].needed[k];
		s->pts[i].job = any ? (int)s->njobs++ : -1;
	}
	struct tune_report_key key = { s->device_id, s->family_id, s->dt->name, s->mode };
	if (s->njobs == 2) {
		if (!s->quiet)
			fprintf(stderr, "gputune: every variant is already measured on this device at these sizes "
				"(--force measures again)\n");
		return tune_report(s->db, s->f, &key, s->sizes, s->nreq, s->format) < 0 ? EXIT_FAIL : EXIT_OK;
	}
	make_jobs(s);
	s->t_start = now_seconds();
	struct compile_pool *pool = compile_pool_start(s->jobs, s->njobs, arch, cache_dir, workers,
						       s->strategy != STRATEGY_EXHAUSTIVE);
	if (!pool)
		return EXIT_FAIL;
	/* Only now may this process touch the driver. */
	const char *why = NULL;
	if (cuda_load(&why) < 0) {
		compile_pool_stop(pool);
		error("%s needs a GPU: %s", s->f->name, why);
		return EXIT_NO_GPU;
	}
	/* NVML, like the driver, only after the workers are forked. */
	const char *nvml_why = NULL;
	int have_nvml = nvml_open(s->g.uuid, &nvml_why) == 0;
	s->conditions = have_nvml ? "recorded" : nvml_why;
	if (!have_nvml && !s->quiet)
		warning("run conditions (clocks, temperature, power) are not recorded: %s", s->conditions);
	double tw = now_seconds();
	int st0 = compile_pool_wait(pool, 0), st1 = compile_pool_wait(pool, 1);
	s->t_wait_compile += now_seconds() - tw;
	size_t slen = 0, clen = 0;
	char *support = st0 == COMPILE_OK ? compile_pool_cubin(pool, 0, &slen) : NULL;
	char *copy = st1 == COMPILE_OK ? compile_pool_cubin(pool, 1, &clen) : NULL;
	if (!support || !copy) {
		char *log = compile_pool_log(pool, support ? 1 : 0);
		error("the tuner's own kernels failed to compile:\n%s", log ? log : "");
		free(log);
		free(support);
		free(copy);
		compile_pool_stop(pool);
		return EXIT_FAIL;
	}
	rc = EXIT_OK;
	struct bench *b = bench_open(&s->g, support, s->reps, s->hot);
	if (!b)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && (start_run_row(s) < 0 || conditions_mark_run(s->db, s->run_id, s->conditions) < 0))
		rc = EXIT_FAIL;
	int stop = 0, narrowed = 0;
	size_t nanchor = 0;
	for (size_t k = s->nreq; k < s->nsizes; k++)
		nanchor += s->anchor[k];
	for (size_t k = 0; rc == EXIT_OK && k < s->nsizes && !stop; k++) {
		double tk = now_seconds();
		if (k == s->nreq && !s->quiet)
			fprintf(stderr, "%sgputune: measuring %zu extra sizes for the choice at untuned sizes: %zu "
				"with every variant, the rest with the strongest candidates (--no-probe skips this)\n",
				isatty(2) ? "\r\033[K" : "", s->nsizes - s->nreq, nanchor);
		if (k >= s->nreq && !s->anchor[k] && !narrowed) {
			narrowed = 1;
			if (narrow_probes(s) < 0) {
				rc = EXIT_FAIL;
				break;
			}
		}
		int r = run_size(s, b, pool, k, copy, s->strategy != STRATEGY_EXHAUSTIVE);
		if (k >= s->nreq)
			s->t_probe += now_seconds() - tk;
		if (r < 0)
			rc = EXIT_FAIL;
		else if (r > 0)
			stop = 1;
	}
	if (rc == EXIT_OK && !stop && s->strategy != STRATEGY_EXHAUSTIVE && !s->x) {
		double tc = now_seconds();
		int r = cross_measure(s, b, pool, copy);
		s->t_cross = now_seconds() - tc;
		if (r < 0)
			rc = EXIT_FAIL;
		else if (r > 0)
			stop = 1;
	}
	double total = now_seconds() - s->t_start;
	size_t compiled = compile_pool_compiled(pool);
	compile_pool_stop(pool);
	bench_close(b);
	free(support);
	free(copy);
	if (s->run_id && s->db)
		finish_run_row(s, rc != EXIT_OK ? "failed" : stop ? "interrupted" : "complete");
	if (stop) {
		if (!s->quiet && isatty(2))
			fputs("\n", stderr);
		error("interrupted: the results measured so far are stored; run the same command to resume");
		return EXIT_INTERRUPTED;
	}
	if (rc != EXIT_OK)
		return rc;
	if (s->x) {
		s->x->seconds = total;
		s->x->run_id = s->run_id;
		if (s->x->no_report)
			return EXIT_OK;
	}
	if (tune_report(s->db, s->f, &key, s->sizes, s->nreq, s->format) < 0)
		return EXIT_FAIL;
	FILE *out = s->format == FMT_TABLE ? stdout : stderr;
	char cross[96] = "";
	if (s->n_cross > 0)
		snprintf(cross, sizeof(cross), ", %.1f s measuring each size's %d best at the others (%zu)", s->t_cross,
			 CROSS_TOP, s->n_cross);
	if (!s->quiet || s->format == FMT_TABLE)
		fprintf(out, "\n%s on %s in %.1f s: %zu variants compiled by this run (%zu jobs), "
			"%.1f s waiting for the compiler, %.1f s preparing sizes and ceilings, "
			"%.1f s verifying, %.1f s timing; %.1f s of it on %zu extra sizes (%zu candidates)%s\n",
			s->f->name, s->g.name, total, compiled, s->njobs, s->t_wait_compile, s->t_prepare,
			s->t_verify, s->t_timing, s->t_probe, s->nsizes - s->nreq, s->probe_cands, cross);
	char cond[400];
	conditions_run_text(s->db, s->run_id, cond, sizeof(cond));
	if (*cond && (!s->quiet || s->format == FMT_TABLE))
		fprintf(out, "GPU conditions while timing: %s\n", cond);
	return EXIT_OK;
}

/* Appends the probe sizes (choice.h) that are not requested already. */
static void add_probes(struct run_state *s, int on)
{
	struct dims probes[64];
	int anchor[64];
	size_t np = on ? choice_probe_sizes(s->f->shape, s->sizes, s->nreq, s->dt->size, probes, anchor, 64) : 0;
	s->sizes = xrealloc(s->sizes, (s->nreq + np + 1) * sizeof(*s->sizes));
	s->anchor = xcalloc(s->nreq + np + 1, sizeof(int));
	for (size_t i = 0; i < np; i++) {
		if (sizes_contain(s->sizes, s->nsizes, probes[i].rows, probes[i].cols, probes[i].depth))
			continue;
		s->anchor[s->nsizes] = anchor[i];
		s->sizes[s->nsizes++] = probes[i];
	}
}

void tune_opts_free(struct tune_opts *o)
{
	free(o->sizes);
	free(o->params);
	memset(o, 0, sizeof(*o));
}

int tune_run(const struct family *f, const struct tune_opts *o, struct tune_extra *x)
{
	struct run_state s;
	memset(&s, 0, sizeof(s));
	s.f = f;
	s.o = o;
	s.x = x;
	const char *name = o->cmd;
	s.format = o->format;
	s.dt = o->dt;
	s.reps = o->reps;
	s.device = o->device;
	s.quiet = o->quiet;
	s.hot = o->hot;
	s.mode = s.hot ? "hot" : "flushed";
	s.force = o->force;
	s.strategy = o->strategy;
	s.budget_n = o->budget_n;
	s.budget_s = o->budget_s;
	s.seed = o->seed;
	s.workers = o->workers;
	s.resumed_run = restart_resumed_run();
	const struct dims *req = x && x->sizes ? x->sizes : o->sizes;
	s.nsizes = x && x->sizes ? x->nsizes : o->nsizes;
	s.sizes = xcalloc(s.nsizes + 1, sizeof(*s.sizes));
	memcpy(s.sizes, req, s.nsizes * sizeof(*s.sizes));
	s.nreq = s.nsizes;
	add_probes(&s, !o->no_probe && !o->dry_run && !(x && x->no_probe));
	struct space sp;
	if (space_init(&sp, f, s.dt, o->params, o->nparams, name) < 0) {
		free_state(&s);
		return EXIT_USAGE;
	}
	int dry = o->dry_run;
	const char *arch_opt = o->arch;
	char arch[32] = "";
	if (arch_opt)
		snprintf(arch, sizeof(arch), "%s", arch_opt);
	int have_gpu = 0;
	int list = o->list;
	if (list) {
		/* The device's limits where there is one, else the defaults. */
		char why[256];
		have_gpu = gpu_probe(s.device, &s.g, why, sizeof(why)) == 0;
	} else if (!dry || !arch_opt) {
		char why[256];
		int r = gpu_probe(s.device, &s.g, why, sizeof(why));
		if (r) {
			if (dry)
				error("%s: no GPU to take the architecture from (%s): give --arch, e.g. --arch sm_90",
				      name, why);
			else
				error("%s needs a GPU: %s", name, why);
			space_free(&sp);
			free_state(&s);
			return r;
		}
		have_gpu = 1;
		char gpu_arch[32];
		snprintf(gpu_arch, sizeof(gpu_arch), "sm_%d%d", s.g.cc_major, s.g.cc_minor);
		if (!arch_opt)
			snprintf(arch, sizeof(arch), "%s", gpu_arch);
		else if (!dry && strcmp(arch, gpu_arch)) {
			space_free(&sp);
			free_state(&s);
			error("%s: --arch %s does not match GPU %d (%s, %s)", name, arch, s.device, s.g.name, gpu_arch);
			return EXIT_USAGE;
		}
	}
	struct device_limits lim;
	device_limits_default(&lim);
	if (have_gpu) {
		lim.max_threads_per_block = s.g.max_threads_per_block;
		lim.max_smem_per_block = s.g.max_smem_per_block;
	}
	/* The target's compute capability: the GPU's, or --arch's. */
	if (!strncmp(arch, "sm_", 3))
		lim.cc = atoi(arch + 3);
	space_enumerate(&sp, &lim);
	if (o->sample_count)
		space_sample(&sp, (size_t)o->sample_count, o->sample_seed);
	if (sp.npoints == 0) {
		error("%s: no valid variant in the space (%zu points, all rejected):", name, sp.total);
		print_rejects(&sp, stderr);
		space_free(&sp);
		free_state(&s);
		return EXIT_USAGE;
	}
	if (list) {
		for (size_t i = 0; i < sp.npoints; i++) {
			char *pn = family_point_name(f, sp.points[i]);
			printf("%s\n", pn);
			free(pn);
		}
		space_free(&sp);
		free_state(&s);
		return EXIT_OK;
	}
	const char *tdir = templates_dir_from(o->templates);
	char *tmpl = family_template_load(f, tdir);
	char *support_t = template_load("templates/support.cu", tdir);
	char *copy_t = family_template_load(&family_copy, tdir);
	if (!tmpl || !support_t || !copy_t) {
		free(tmpl);
		free(support_t);
		free(copy_t);
		space_free(&sp);
		free_state(&s);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < sp.npoints; i++)
		add_point(&s, sp.points[i]);
	if (!dry)
		add_classics(&s, &lim);
	if (x && x->confirm_points > 0 && x->npoints == s.nreq * (size_t)x->confirm_points) {
		s.confirm_pt = xcalloc(x->npoints, sizeof(long));
		s.confirm_per = (size_t)x->confirm_points;
	}
	for (size_t i = 0; x && i < x->npoints; i++) {
		int v[MAX_PARAMS] = {0};
		long at = -1;
		if (family_point_parse(f, x->points[i], v) == 0) {
			at = (long)add_point(&s, v);
			/* A point confirmed at one size is measured there, not
			 * at every size a search covers (unless it is a classic). */
			struct point *p = &s.pts[at];
			if (s.confirm_pt && !(p->always && !p->always_at)) {
				if (!p->always_at)
					p->always_at = xcalloc(s.nreq, 1);
				p->always_at[i / s.confirm_per] = 1;
			}
			p->always = 1;
		}
		if (s.confirm_pt)
			s.confirm_pt[i] = at;
	}
	for (size_t i = 0; i < s.npts; i++) {
		struct point *p = &s.pts[i];
		p->name = family_point_name(f, p->v);
		p->source = render_variant(f, s.dt, p->v, tmpl);
		hash64_hex(hash64(p->source, strlen(p->source), HASH64_SEED), p->hash);
	}
	s.vals = xcalloc((s.npts ? s.npts : 1) * MAX_PARAMS, sizeof(int));
	for (size_t i = 0; i < s.npts; i++)
		memcpy(s.vals + i * MAX_PARAMS, s.pts[i].v, sizeof(s.pts[i].v));
	/* The ceiling's copy kernel: 16-byte accesses, 256 threads, 4 in flight each. */
	for (int i = 0; i < family_copy.nparams; i++)
		s.copy_v[i] = family_copy.params[i].single;
	s.copy_v[0] = (int)(16 / s.dt->size);
	s.copy_src = render_variant(&family_copy, s.dt, s.copy_v, copy_t);
	s.support_src = xstrdup(support_t);
	free(tmpl);
	free(support_t);
	free(copy_t);
	char *cache_dir = cache_dir_from(o->cache_dir);
	int rc;
	if (dry) {
		s.njobs = 2;
		for (size_t i = 0; i < s.npts; i++)
			s.pts[i].job = (int)s.njobs++;
		make_jobs(&s);
		if (sp.npoints < sp.nvalid)
			printf("a sample of %zu of the %zu valid variants (--sample)\n", sp.npoints, sp.nvalid);
		rc = dry_run(&s, &sp, arch, cache_dir, s.workers);
	} else {
		rc = gpu_run(&s, arch, cache_dir, s.workers);
	}
	free(cache_dir);
	space_free(&sp);
	free_state(&s);
	return rc;
}
