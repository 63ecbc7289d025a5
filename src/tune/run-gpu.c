/*
 * run-gpu.c - a tuning run on the GPU: every size checked to fit, the
 * compile workers forked before the driver is loaded, the sizes measured
 * in order, and the summary of where the time went.
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
#include <time.h>
#include <unistd.h>

/* Every size must fit in the GPU's memory, and its host copies in the
 * host's, before any work starts.  0, or EXIT_FAIL after a message. */
static int check_fits(const struct run_state *s)
{
	for (size_t k = 0; k < s->nsizes; k++) {
		char size[48], why[300];
		if (s->f->size_problem && s->f->size_problem(s->dt, &s->sizes[k], why, sizeof(why)))
			return error("%s: size %s %s cannot be run: %s", s->f->name,
				     family_size_text(s->f, &s->sizes[k], size, sizeof(size)), s->dt->name, why);
		size_t need = bench_bytes_needed(&s->g, s->f, s->dt, &s->sizes[k]);
		if (need > s->g.mem_bytes / 10 * 9)
			return error("%s: size %s %s needs %.1f GiB of GPU memory; GPU %d (%s) has %.1f GiB",
				     s->f->name, family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
				     s->dt->name, (double)need / (1 << 30), s->g.index, s->g.name,
				     (double)s->g.mem_bytes / (1 << 30));
		size_t host = bench_host_bytes_needed(s->f, s->dt, &s->sizes[k]);
		double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
		if (have > 0 && (double)host > have * 0.8)
			return error("%s: size %s %s needs %.1f GiB of host memory; this machine has %.1f GiB",
				     s->f->name, family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
				     s->dt->name, (double)host / (1 << 30), have / (1 << 30));
	}
	return 0;
}

/* The jobs: the tuner's own (make_jobs), then each point still needed at
 * some size (-1: none). */
static void number_jobs(struct run_state *s)
{
	s->njobs = s->own_jobs;
	for (size_t i = 0; i < s->npts; i++) {
		int any = 0;
		for (size_t k = 0; k < s->nsizes; k++)
			any |= s->pts[i].needed[k];
		s->pts[i].job = any ? (int)s->njobs++ : -1;
	}
}

/* A worker of several GPUs marks when it reached a step (devq_mark), for
 * the parent's timeline. */
static void mark(const struct run_state *s, int which)
{
	if (s->q)
		devq_mark(s->q, s->slot, which);
}

/* The driver and NVML, loaded only now that the workers are forked (the
 * driver is not fork-safe once initialised), and the tuner's own kernels
 * (*support, *ceil: CUBINs the caller frees; *ceil stays NULL where the
 * family's ceiling needs no kernel of its own).  EXIT_OK, or the exit code
 * after a message. */
static int load_driver(struct run_state *s, struct compile_pool *pool, char **support, char **ceil)
{
	const char *why = NULL;
	if (cuda_load(&why) < 0) {
		error("%s needs a GPU: %s", s->f->name, why);
		return EXIT_NO_GPU;
	}
	mark(s, DEVQ_CUDA);
	const char *nvml_why = NULL;
	int have_nvml = nvml_open(s->g.uuid, &nvml_why) == 0;
	mark(s, DEVQ_NVML);
	s->conditions = have_nvml ? "recorded" : nvml_why;
	if (!have_nvml && !s->o->quiet)
		warning("run conditions (clocks, temperature, power) are not recorded: %s", s->conditions);
	/* The compilers start once the driver and the context are made:
	 * while every core compiles, making them took 8 s instead of 1 on a
	 * host of four H200s. */
	gpu_context_now(s->g.index);
	mark(s, DEVQ_CONTEXT);
	compile_pool_go(pool);
	double tw = now_seconds();
	int st0 = compile_pool_wait(pool, 0), st1 = s->own_jobs > 1 ? compile_pool_wait(pool, 1) : COMPILE_OK;
	s->t_wait_compile += now_seconds() - tw;
	size_t slen = 0, clen = 0;
	*support = st0 == COMPILE_OK ? compile_pool_cubin(pool, 0, &slen) : NULL;
	*ceil = st1 == COMPILE_OK && s->own_jobs > 1 ? compile_pool_cubin(pool, 1, &clen) : NULL;
	if (!*support || (s->own_jobs > 1 && !*ceil)) {
		char *log = compile_pool_log(pool, *support ? 1 : 0);
		error("the tuner's own kernels failed to compile:\n%s", log ? log : "");
		free(log);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* Measures size k (t_probe counts the extra sizes).  EXIT_OK or
 * EXIT_FAIL, and *stop set when interrupted. */
static int measure_one(struct run_state *s, struct bench *b, struct compile_pool *pool, const char *ceil, size_t k,
		       int *stop)
{
	double tk = now_seconds(), wait0 = s->t_wait_compile, prep0 = s->t_prepare;
	size_t n0 = s->n_measured;
	int r = run_size(s, b, pool, k, ceil, s->o->strategy != STRATEGY_EXHAUSTIVE);
	if (k >= s->nreq)
		s->t_probe += now_seconds() - tk;
	/* Where each size's time went, as it ends: a cold run's account. */
	if (r == 0 && !s->o->quiet && s->n_measured > n0) {
		char size[48];
		fprintf(stderr, "%sgputune: %s %s: %zu variants in %.1f s (%.1f s waiting for the compiler, %.1f s "
			"preparing)\n", isatty(2) ? "\r\033[K" : "", family_size_text(s->f, &s->sizes[k], size, sizeof(size)),
			s->dt->name, s->n_measured - n0, now_seconds() - tk, s->t_wait_compile - wait0, s->t_prepare - prep0);
	}
	if (r > 0)
		*stop = 1;
	else if (r == 0 && s->q) {
		s->taken[k] = 1;
		devq_done(s->q, k);
	}
	if (s->q)
		devq_account(s->q, s->slot, s);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

/*
 * A worker of several GPUs: first the requested sizes and the anchors,
 * taken from the queue largest first; then, once every GPU's are measured
 * (taking any a dropped GPU left), the other extra sizes with the
 * strongest candidates of all of them.  EXIT_OK or EXIT_FAIL, and *stop
 * set when interrupted.
 */
static int measure_queued(struct run_state *s, struct bench *b, struct compile_pool *pool, const char *ceil,
			  int *stop)
{
	unsigned char *first = xcalloc(s->nsizes + 1, 1);
	int rc = EXIT_OK;
	for (size_t k = 0; k < s->nsizes; k++)
		first[k] = k < s->nreq || s->anchor[k] || s->o->shard.n;
	size_t k;
	int waiting = 0;
	while (rc == EXIT_OK && !*stop) {
		if (devq_take(s->q, s->slot, first, &k)) {
			rc = measure_one(s, b, pool, ceil, k, stop);
			continue;
		}
		if (!waiting) {
			devq_mark(s->q, s->slot, DEVQ_FIRST);
			waiting = 1;
		}
		if (devq_all_done(s->q, first))
			break;
		else if (interrupted())
			*stop = 1;
		else { /* waiting for the other GPUs is not this one failing to answer */
			devq_beat(s->q, s->slot);
			nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
		}
	}
	free(first);
	if (rc == EXIT_OK && !*stop && !s->o->shard.n && narrow_probes(s) < 0)
		rc = EXIT_FAIL;
	devq_mark(s->q, s->slot, DEVQ_NEXT);
	while (rc == EXIT_OK && !*stop && devq_take(s->q, s->slot, NULL, &k))
		rc = measure_one(s, b, pool, ceil, k, stop);
	devq_mark(s->q, s->slot, DEVQ_END);
	return rc;
}

/* Measures every size in order (the requested ones, then the extra
 * sizes), or a worker's from the queue, then a search's cross
 * measurements.  EXIT_OK or EXIT_FAIL, and *stop set when interrupted. */
static int measure_sizes(struct run_state *s, struct bench *b, struct compile_pool *pool, const char *ceil,
			 int *stop)
{
	int rc = EXIT_OK, narrowed = 0;
	size_t nanchor = 0;
	for (size_t k = s->nreq; k < s->nsizes; k++)
		nanchor += s->anchor[k] != 0;
	if (s->q)
		rc = measure_queued(s, b, pool, ceil, stop);
	else if (prefetch_probe_draws(s, pool) < 0)
		return EXIT_FAIL;
	for (size_t k = 0; !s->q && rc == EXIT_OK && !*stop && k < s->nsizes; k++) {
		if (k == s->nreq && !s->o->quiet)
			fprintf(stderr, "%sgputune: measuring %zu extra sizes for the choice at untuned sizes: %zu "
				"with every variant, the rest with %s (--no-probe skips this)\n",
				isatty(2) ? "\r\033[K" : "", s->nsizes - s->nreq, s->o->shard.n ? s->nsizes - s->nreq : nanchor,
				s->o->shard.n ? "them too: a share cannot see the others' candidates" : "the strongest candidates");
		/* A share cannot see the other shares' results: its extra
		 * sizes keep every variant. */
		if (k >= s->nreq && !s->anchor[k] && !narrowed && !s->o->shard.n) {
			narrowed = 1;
			if (narrow_probes(s) < 0)
				return EXIT_FAIL;
		}
		rc = measure_one(s, b, pool, ceil, k, stop);
	}
	if (rc == EXIT_OK && !*stop && s->o->strategy != STRATEGY_EXHAUSTIVE && !s->x) {
		double tc = now_seconds();
		int r = cross_measure(s, b, pool, ceil);
		s->t_cross = now_seconds() - tc;
		if (r < 0)
			rc = EXIT_FAIL;
		else if (r > 0)
			*stop = 1;
	}
	return rc;
}

/* The table of winners and where the time went. */
static int report(struct run_state *s, const struct tune_report_key *key, double total, size_t compiled)
{
	if (tune_report(s->db, s->f, key, s->sizes, s->nreq, s->o->format) < 0)
		return EXIT_FAIL;
	FILE *out = s->o->format == FMT_TABLE ? stdout : stderr;
	char cross[96] = "";
	if (s->n_cross > 0)
		snprintf(cross, sizeof(cross), ", %.1f s measuring each size's %d best at the others (%zu)", s->t_cross,
			 CROSS_TOP, s->n_cross);
	if (!s->o->quiet || s->o->format == FMT_TABLE)
		fprintf(out, "\n%s on %s in %.1f s: %zu variants compiled by this run (%zu jobs), "
			"%.1f s waiting for the compiler, %.1f s preparing sizes and ceilings, "
			"%.1f s verifying, %.1f s timing, %.1f s loading modules, %.1f s storing results; "
			"%.1f s of it on %zu extra sizes (%zu candidates)%s\n",
			s->f->name, s->g.name, total, compiled, s->njobs, s->t_wait_compile, s->t_prepare,
			s->t_verify, s->t_timing, s->t_load, s->t_store, s->t_probe, s->nsizes - s->nreq, s->probe_cands,
			cross);
	char cond[400];
	conditions_run_text(s->db, s->run_id, cond, sizeof(cond));
	if (*cond && (!s->o->quiet || s->o->format == FMT_TABLE))
		fprintf(out, "GPU conditions while timing: %s\n", cond);
	return EXIT_OK;
}

int gpu_run(struct run_state *s, const char *arch, const char *cache_dir, int workers)
{
	if (check_fits(s))
		return EXIT_FAIL;
	char *path = db_path_from(s->o->db);
	int rc = db_open(path, DB_WRITE, &s->db);
	free(path);
	if (rc < 0 || plan_run(s) < 0)
		return EXIT_FAIL;
	number_jobs(s);
	struct tune_report_key key = { s->device_id, s->family_id, s->dt->name, s->mode };
	if (s->njobs == s->own_jobs && !s->q) { /* a worker still takes its sizes off the queue */
		if (!s->o->quiet)
			fprintf(stderr, "gputune: every variant is already measured on this device at these sizes "
				"(--force measures again)\n");
		return tune_report(s->db, s->f, &key, s->sizes, s->nreq, s->o->format) < 0 ? EXIT_FAIL : EXIT_OK;
	}
	make_jobs(s);
	mark(s, DEVQ_PLANNED);
	s->t_start = now_seconds();
	struct compile_pool *pool = compile_pool_start(s->jobs, s->njobs, arch, cache_dir, workers,
						       (s->o->strategy != STRATEGY_EXHAUSTIVE ? COMPILE_LAZY : 0) | COMPILE_HELD);
	if (!pool)
		return EXIT_FAIL;
	/* The tuner's own kernels compile while the driver loads (a lazy
	 * pool's lead workers take what is asked first). */
	for (size_t j = 0; j < s->own_jobs; j++)
		compile_pool_request(pool, j);
	mark(s, DEVQ_POOL);
	char *support = NULL, *ceil = NULL;
	rc = load_driver(s, pool, &support, &ceil);
	mark(s, DEVQ_DRIVER);
	if (rc != EXIT_OK) {
		free(support);
		free(ceil);
		compile_pool_stop(pool);
		return rc;
	}
	struct bench *b = bench_open(&s->g, support, s->o->reps, s->o->hot);
	if (!b)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && (start_run_row(s) < 0 || conditions_mark_run(s->db, s->run_id, s->conditions) < 0))
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && s->q)
		devq_started(s->q, s->slot, s->device_id, s->run_id);
	int stop = 0;
	if (rc == EXIT_OK)
		rc = measure_sizes(s, b, pool, ceil, &stop);
	double total = now_seconds() - s->t_start;
	size_t compiled = compile_pool_compiled(pool);
	compile_pool_stop(pool);
	bench_close(b);
	free(support);
	free(ceil);
	if (s->run_id && s->db)
		finish_run_row(s, rc != EXIT_OK ? "failed" : stop ? "interrupted" : "complete");
	if (stop) {
		if (!s->o->quiet && isatty(2))
			fputs("\n", stderr);
		error("interrupted: the results measured so far are stored; run the same command to resume");
		return EXIT_INTERRUPTED;
	}
	if (rc != EXIT_OK)
		return rc;
	if (s->q) /* the parent reports every GPU's sizes */
		return EXIT_OK;
	if (s->x) {
		s->x->seconds = total;
		s->x->run_id = s->run_id;
		if (s->x->no_report)
			return EXIT_OK;
	}
	return report(s, &key, total, compiled);
}
