/*
 * run-size.c - measuring one size of a tuning run: its ceiling, then every
 * variant it still needs (or the ones a search picks), each checked, timed
 * and stored as it is done; and the extra measurements the choice at
 * untuned sizes learns from.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "tune/run.h"
#include "compile/compile-pool.h"
#include "compile/cubin-regs.h"
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

char *first_line(const char *log)
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

static void progress(struct run_state *s, size_t k, size_t done, size_t total, double best, double ceil)
{
	if (s->o->quiet || !isatty(2))
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
	s->n_measured++;
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
	double tl = now_seconds();
	char *cubin = compile_pool_cubin(pool, (size_t)p->job, &len);
	if (!cubin) {
		r->status = VS_COMPILE_FAILED;
		snprintf(r->reason, sizeof(r->reason), "the compiled image could not be read from the cache");
		return store_measurement(s, p, d, r, bytes, ceiling);
	}
	/* Its registers, stored with each measurement so that export needs
	 * no compile to bound nvcc to them. */
	if (p->regs == 0) {
		int regs = cubin_registers(cubin, len, s->f->kernel_name);
		p->regs = regs > 0 ? regs : -1;
	}
	struct launch_geometry geo = {0};
	s->f->geometry(p->v, s->dt, d, &geo);
	int lost = bench_variant(b, cubin, s->f->kernel_name, p->v, &geo, r) < 0;
	double ts = now_seconds();
	s->t_verify += r->verify_s;
	s->t_timing += r->timing_s;
	/* The rest: reading the image, loading and unloading its module. */
	s->t_load += ts - tl - r->verify_s - r->timing_s;
	free(cubin);
	int stored = store_measurement(s, p, d, r, bytes, ceiling);
	s->t_store += now_seconds() - ts;
	if (stored < 0)
		return -1;
	if (lost) {
		/* Nothing more can run in this process: the fault is stored;
		 * carry on in a fresh one. */
		char size[48];
		if (!s->o->quiet)
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
	/* At a requested size, a variant far slower than the best so far
	 * stops early (bench.h); at the extra sizes, whose figures the choice
	 * at untuned sizes compares, every one takes its launches. */
	bench_set_hopeless(b, k < s->nreq ? *best_ms * BENCH_HOPELESS : 0);
	int rc = measure_point(s, b, pool, &s->pts[i], &s->sizes[k], bytes, ceiling, &r);
	bench_set_hopeless(b, 0);
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

static int mark_fastest(struct run_state *s, const unsigned char *use, int top, unsigned char *cand);

/*
 * A size of long launches: the fastest of its classics takes LONG_LAUNCH_MS
 * or more.  A default search of 240 variants there is the larger part of a
 * run: on an H200, the matrix multiply's at 8192^3 took about 130 s of a
 * 424 s cold run (its picks' medians summing to 21.6 s), and at 4096^3
 * (classics of 3 ms) 43.5 s of 248.  And what it finds is what the smaller
 * size found: from 2048^3 up the same kernel won every size, and of the
 * 117 variants measured at both 2048^3 and 4096^3 in one run, the 6
 * fastest at each were the same 6 in the same order.  So such a size,
 * searched by default, first measures the TRANSFER_TOP fastest of the
 * nearest smaller requested size (by the family's work), then LONG_SEARCH
 * variants the search picks from them.  Without a smaller size measured by
 * then, or with --budget, it searches in full.  So does the extra size
 * searched as the requested sizes are (PROBE_WIDE): about 2900^3 for
 * 1024-8192 (launches of 1.6 ms on an H200), but about 5800^3 for
 * 1024-32768 (about 8 ms), where a search in full would take minutes.
 */
#define LONG_LAUNCH_MS 2.0
#define TRANSFER_TOP 24
#define LONG_SEARCH 16

/* The nearest smaller requested size (the largest work below k's) into
 * *from, its TRANSFER_TOP fastest on this device marked in cand, when it
 * has that many measured; else SIZE_MAX (none smaller, or too few
 * measured: a worker of several GPUs may take k first).  0 or -1. */
static int transfer_source(struct run_state *s, size_t k, unsigned char *cand, size_t *from)
{
	const double work = s->f->work(s->dt, &s->sizes[k]);
	double best = 0;
	*from = SIZE_MAX;
	for (size_t j = 0; j < s->nreq; j++) {
		double w = s->f->work(s->dt, &s->sizes[j]);
		if (j != k && w < work && w > best) {
			*from = j;
			best = w;
		}
	}
	if (*from == SIZE_MAX)
		return 0;
	unsigned char *use = xcalloc(s->nsizes, 1);
	use[*from] = 1;
	int rc = mark_fastest(s, use, TRANSFER_TOP, cand);
	free(use);
	size_t n = 0;
	for (size_t i = 0; i < s->npts; i++)
		n += cand[i];
	if (n < TRANSFER_TOP)
		*from = SIZE_MAX;
	return rc;
}

/* The parameters the search sees: all but the late ones at the table's
 * end (family.h) that every point holds at one value, so that a search of
 * points without them draws as it did before they were added. */
static int search_params(const struct run_state *s)
{
	return strategy_search_params(s->vals, MAX_PARAMS, s->f->nparams, s->npts, family_late_from(s->f));
}

/* Whether size k is searched as the requested sizes are: one of them, or
 * the extra size given their budget (PROBE_WIDE). */
static int searched_as_requested(const struct run_state *s, size_t k)
{
	return k < s->nreq || s->anchor[k] == PROBE_WIDE;
}

/* The start of size k's search, alike for the search and for predicting
 * its first picks (prefetch_probe_draws): its budget, its strategy, and
 * what the database holds at k observed (*used counts it).  NULL on
 * failure. */
static struct strategy *search_begin(struct run_state *s, size_t k, size_t *budget_out, size_t *used)
{
	size_t budget = s->o->budget_n > 0 ? (size_t)s->o->budget_n : (s->npts + 9) / 10;
	if (s->o->budget_s > 0 && s->o->budget_n <= 0)
		budget = s->npts;
	/* An extra size searched (an anchor of --probe-search): its own
	 * budget, but for the one searched as the requested sizes are. */
	if (!searched_as_requested(s, k) && s->o->probe_search > 0 && budget > (size_t)s->o->probe_search)
		budget = (size_t)s->o->probe_search;
	if (budget > s->npts)
		budget = s->npts;
	*budget_out = budget;
	struct strategy *st = strategy_new(s->o->strategy, s->vals, MAX_PARAMS, search_params(s), s->npts, budget,
					   s->o->seed ^ (uint64_t)(k * 0x9e3779b97f4a7c15ULL));
	sqlite3_stmt *q = db_prepare(s->db,
		"SELECT m.status, m.gbps FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.variant_id = ?1"
		" AND m.rows = ?2 AND m.cols = ?3 AND m.depth = ?6 AND r.device_id = ?4 AND r.timing_mode = ?5"
		" ORDER BY m.id DESC LIMIT 1");
	if (!q) {
		strategy_free(st);
		return NULL;
	}
	*used = 0;
	for (size_t i = 0; i < s->npts; i++) {
		double f = s->pts[i].needed[k] ? -1 : recorded_figure(s, q, i, k);
		if (f >= 0) {
			strategy_observe(st, i, f);
			(*used)++;
		}
	}
	sqlite3_finalize(q);
	return st;
}

/* Whether point p is measured at size k before any the search picks (a
 * classic, or a point another command asks for there). */
static int first_at(const struct run_state *s, const struct point *p, size_t k)
{
	return p->always && (!p->always_at || (k < s->nreq && p->always_at[k]));
}

/* The window of picks compiled ahead of the one measured. */
static size_t search_window(const struct run_state *s)
{
	return 2 * (size_t)(s->o->workers > 0 ? s->o->workers : 8);
}

/*
 * The extra sizes searched (anchors, --probe-search) draw their first
 * picks at random, before any of them is measured: which ones depends only
 * on the seed and on what is measured first (the database's, the
 * classics).  So they are known when the run starts, and the compile pool
 * takes them whenever a worker would idle (compile_pool_prefetch): while
 * the GPU is busy with a size of long launches, or preparing one, it
 * compiles what the anchors will measure, where the GPU used to wait for
 * those compiles afterwards (a run of one GPU; the workers of several
 * take their sizes in no order known ahead).
 */
int prefetch_probe_draws(struct run_state *s, struct compile_pool *pool)
{
	if (s->q || s->o->shard.n || s->o->strategy == STRATEGY_EXHAUSTIVE || s->o->probe_search <= 0)
		return 0;
	size_t *picks = xcalloc(s->npts ? s->npts : 1, sizeof(size_t));
	for (size_t k = s->nreq; k < s->nsizes; k++) {
		if (!s->anchor[k])
			continue;
		size_t budget, used;
		struct strategy *st = search_begin(s, k, &budget, &used);
		if (!st) {
			free(picks);
			return -1;
		}
		for (size_t i = 0; i < s->npts; i++)
			if (first_at(s, &s->pts[i], k) && s->pts[i].needed[k]) {
				strategy_observe(st, i, 1.0); /* seen: what it scores does not move a random draw */
				used++;
			}
		size_t want = budget > used ? budget - used : 0;
		if (want > strategy_predictable(st))
			want = strategy_predictable(st);
		size_t got = strategy_propose(st, picks, want);
		for (size_t j = 0; j < got; j++)
			if (s->pts[picks[j]].job >= 0)
				compile_pool_prefetch(pool, (size_t)s->pts[picks[j]].job);
		strategy_free(st);
	}
	free(picks);
	return 0;
}

/* Measures at size k, before the search's own picks, each point still
 * needed there with pick[i] (NULL: those first_at says), each observed
 * by st; *count grows by their number.  0, 1 when interrupted, -1 on
 * failure. */
static int measure_given(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k,
			 struct strategy *st, const unsigned char *pick, double bytes, double ceiling, double *ms_of,
			 double *best_ms, size_t *count)
{
	int rc = 0;
	for (size_t i = 0; i < s->npts && rc == 0; i++) {
		const struct point *p = &s->pts[i];
		if (!(pick ? pick[i] : first_at(s, p, k)) || !p->needed[k])
			continue;
		double f = 0;
		rc = interrupted() ? 1 : measure_and_note(s, b, pool, k, i, bytes, ceiling, ms_of, best_ms, &f);
		strategy_observe(st, i, f);
		s->pts[i].needed[k] = 0;
		(*count)++;
	}
	return rc;
}

static int search_size(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k, double bytes,
		       double ceiling, double *ms_of, double *best_ms)
{
	size_t budget, used;
	struct strategy *st = search_begin(s, k, &budget, &used);
	if (!st)
		return -1;
	/* The classics first (the report compares the winner with them), and
	 * the points another command asks for (validate's choices). */
	int rc = measure_given(s, b, pool, k, st, NULL, bytes, ceiling, ms_of, best_ms, &used);
	if (rc == 0 && searched_as_requested(s, k) && s->o->budget_default && *best_ms >= LONG_LAUNCH_MS) {
		unsigned char *cand = xcalloc(s->npts ? s->npts : 1, 1);
		size_t from;
		rc = transfer_source(s, k, cand, &from);
		if (rc == 0 && from != SIZE_MAX) {
			char size[48], source[48];
			if (!s->o->quiet)
				fprintf(stderr, "%sgputune: %s: launches of %.1f ms: the %d fastest at %s, then %d "
					"more the search picks (a search of its own with --budget)\n",
					isatty(2) ? "\r\033[K" : "", family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
					*best_ms, TRANSFER_TOP, family_size_text(s->f, &s->sizes[from], source, sizeof(source)),
					LONG_SEARCH);
			for (size_t i = 0; i < s->npts; i++)
				if (cand[i] && s->pts[i].needed[k] && s->pts[i].job >= 0)
					compile_pool_request(pool, (size_t)s->pts[i].job);
			rc = measure_given(s, b, pool, k, st, cand, bytes, ceiling, ms_of, best_ms, &used);
			if (budget > used + LONG_SEARCH)
				budget = used + LONG_SEARCH;
		}
		free(cand);
	}
	double t0 = now_seconds();
	size_t window = search_window(s), *queue = xcalloc(window, sizeof(size_t));
	size_t nq = 0, done = 0;
	while (rc == 0) {
		int spent = used + nq >= budget || (s->o->budget_s > 0 && now_seconds() - t0 >= s->o->budget_s);
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

/* CHECK_REFERENCE: the reference point run on size d's input, its output
 * what every variant's is checked against.  0, or -1 after saying why
 * the reference cannot serve (nothing at this size is then timed). */
static int run_reference(struct run_state *s, struct bench *b, struct compile_pool *pool, const struct dims *d)
{
	if (s->ref_job < 0)
		return 0;
	char size[48];
	family_size_text(s->f, d, size, sizeof(size));
	double tw = now_seconds();
	int cst = compile_pool_wait(pool, (size_t)s->ref_job);
	s->t_wait_compile += now_seconds() - tw;
	size_t len = 0;
	char *cubin = cst == COMPILE_OK ? compile_pool_cubin(pool, (size_t)s->ref_job, &len) : NULL;
	if (!cubin) {
		char *log = compile_pool_log(pool, (size_t)s->ref_job);
		error("%s: the reference (the classic every variant is checked against) failed to compile:\n%s",
		      s->f->name, log ? log : "no log");
		free(log);
		return -1;
	}
	struct launch_geometry geo = {0};
	struct variant_result r;
	s->f->geometry(s->ref_v, s->dt, d, &geo);
	int lost = bench_reference(b, cubin, s->f->kernel_name, s->ref_v, &geo, &r) < 0;
	free(cubin);
	if (lost || r.status != VS_OK)
		return error("%s: the reference cannot check the variants at %s %s: %s; nothing is timed at this size",
			     s->f->name, size, s->dt->name, r.reason);
	return 0;
}

/* Measures the needed points at size k: every one, or with search set,
 * those the run's search strategy picks.  Returns 0, 1 when interrupted,
 * -1 on a failure that ends the run. */
int run_size(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k,
		    const void *ceil_cubin, int search)
{
	const struct dims *d = &s->sizes[k];
	size_t total = 0, done = 0;
	for (size_t i = 0; i < s->npts; i++)
		total += s->pts[i].needed[k];
	if (!total)
		return 0;
	double t0 = now_seconds();
	/* Idle workers take prefetched jobs while the size is prepared. */
	compile_pool_poll(pool);
	if (bench_prepare(b, s->f, s->dt, d) < 0 || run_reference(s, b, pool, d) < 0)
		return -1;
	compile_pool_poll(pool);
	/* NVML reads the GPU while this size is timed, from its ceiling to
	 * its last confirmation. */
	struct nvml_watch *watch = nvml_watch_start();
	struct launch_geometry cgeo = {0};
	memset(&cgeo, 0, sizeof(cgeo));
	/* The copy kernel takes any other family's input as n x 1. */
	struct dims cd = s->f->args == ARGS_MATRIX ? *d : (struct dims){ (long)bench_copy_elems(b), 1, 1 };
	if (s->ceil_f)
		s->ceil_f->geometry(s->ceil_v, s->dt, &cd, &cgeo);
	double mc = 0, kern = 0;
	if (bench_ceiling(b, ceil_cubin, s->ceil_f ? s->ceil_f->kernel_name : NULL, &cgeo, &mc, &kern) < 0) {
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
	 * least BENCH_CONFIRM_MS of kernel; a long kernel's about
	 * BENCH_CONFIRM_BUDGET_MS), and that figure replaces its
	 * first, until the fastest figure is one so confirmed (or the round's
	 * limit is reached). */
	int confirm_reps = BENCH_CONFIRM_REPS;
	if (best_ms > 0 && BENCH_CONFIRM_MS / best_ms > confirm_reps)
		confirm_reps = (int)fmin(BENCH_CONFIRM_MS / best_ms, BENCH_MAX_REPS);
	else if (best_ms * confirm_reps > BENCH_CONFIRM_BUDGET_MS)
		confirm_reps = (int)fmax(BENCH_CONFIRM_BUDGET_MS / best_ms, BENCH_CONFIRM_MIN);
	bench_set_reps(b, s->o->reps > confirm_reps ? s->o->reps : confirm_reps, 0);
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
	bench_set_reps(b, s->o->reps, 1);
	free(ms_of);
	free(confirmed);
	struct gpu_conditions cond;
	nvml_watch_stop(watch, &cond);
	if (rc)
		return rc;
	if (cond.samples && conditions_store(s->db, s->run_id, s->dt->name, d, &cond) < 0)
		return -1;
	if (cond.reasons && !s->o->quiet) {
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
	if (!s->o->quiet && isatty(2))
		fputs("\r\033[K", stderr);
	return 0;
}

/* Marks in cand[] (one flag per point) the `top` fastest variants on this
 * device (a worker: on the run's GPUs) at each size k with use[k] (use
 * NULL: every size of the run).
 * 0 or -1. */
static int mark_fastest(struct run_state *s, const unsigned char *use, int top, unsigned char *cand)
{
	sqlite3_stmt *st = db_prepare(s->db,
		"WITH latest AS (SELECT m.variant_id, m.gbps, m.status, row_number() OVER"
		" (PARTITION BY m.variant_id ORDER BY m.id DESC) rn FROM measurement m JOIN run r ON r.id = m.run_id"
		" WHERE r.device_id IN (SELECT value FROM json_each(?1)) AND r.timing_mode = ?2"
		" AND m.rows = ?3 AND m.cols = ?4 AND m.depth = ?8)"
		" SELECT v.params FROM latest l JOIN variant v ON v.id = l.variant_id WHERE l.rn = 1"
		" AND l.status = 'ok' AND v.family_id = ?5 AND v.dtype = ?6 ORDER BY l.gbps DESC LIMIT ?7");
	if (!st)
		return -1;
	/* This GPU's results; a worker of several reads all of theirs (each
	 * size is measured wholly by one). */
	char *ids = s->q ? devq_device_ids(s->q) : xasprintf("[%lld]", (long long)s->device_id);
	for (size_t k = 0; k < s->nsizes; k++) {
		if (use && !use[k])
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC);
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
	free(ids);
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
int cross_measure(struct run_state *s, struct bench *b, struct compile_pool *pool, const void *ceil_cubin)
{
	if (s->nsizes < 2)
		return 0;
	unsigned char *cand = xcalloc(s->npts ? s->npts : 1, 1);
	/* A worker of several GPUs: only among the sizes it measured (no
	 * size is timed on two GPUs). */
	if (mark_fastest(s, s->taken, CROSS_TOP, cand) < 0) {
		free(cand);
		return -1;
	}
	for (size_t i = 0; s->taken && i < s->npts; i++)
		for (size_t k = 0; k < s->nsizes; k++)
			s->pts[i].needed[k] &= s->taken[k];
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
	if (todo && !s->o->quiet)
		fprintf(stderr, "%sgputune: measuring the %d fastest variants of each size at the others (%zu "
			"measurements), for the choice at untuned sizes\n", isatty(2) ? "\r\033[K" : "", CROSS_TOP, todo);
	int rc = 0;
	for (size_t k = 0; k < s->nsizes && rc == 0; k++)
		if (!s->taken || s->taken[k])
			rc = run_size(s, b, pool, k, ceil_cubin, 0); /* exactly the needed points */
	return rc;
}

/* Before the first probe that is not an anchor (they come after every
 * anchor): the candidates are the PROBE_TOP fastest variants at each
 * requested size and anchor, and the family's seeds; only they stay
 * needed at the other probes.  Eight, not six: with six, the best
 * candidate at 10 held-out f16 sizes reached 98.6% of their own best in
 * the median; with eight, 99.8% (offline, from a run's measurements on an
 * H200).  The seeds whatever their rank: each wins a kind of shape that
 * the requested sizes and anchors may not hold (a tile of 96 rows, at
 * 0.92 of cuBLAS at a held-out 909x2081x2328 where the best of the other
 * candidates ran at 0.89, was left out of a run's candidates when three
 * seeds more for few tiles took its place among the anchors' eight),
 * and a header chooses only among candidates measured at every size. */
#define PROBE_TOP 8
int narrow_probes(struct run_state *s)
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
		cand[i] |= s->pts[i].seed;
		s->probe_cands += cand[i];
		for (size_t k = s->nreq; k < s->nsizes; k++)
			if (!s->anchor[k] && !cand[i])
				s->pts[i].needed[k] = 0;
	}
	free(cand);
	return 0;
}
