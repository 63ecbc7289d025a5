/*
 * run.h - the state of one tuning run, shared by the files of the tuning
 * layer: tune.c (options to points, the dry run), run-gpu.c (the run on
 * the GPU), run-size.c (measuring one size) and run-store.c (the run's
 * rows in the database).  Not for use outside src/tune/.
 */
#ifndef GPUTUNE_TUNE_RUN_H
#define GPUTUNE_TUNE_RUN_H

#include "compile/compile-pool.h"
#include "families/family.h"
#include "gpu/bench.h"
#include "gpu/gpu.h"
#include "tune/tune.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* One point of the space on its way through the run. */
struct point {
	int v[MAX_PARAMS];
	char *name;        /* canonical parameters */
	char *source;
	char hash[17];
	int64_t variant_id;
	int job;           /* index into the compile jobs, -1 when not compiled */
	int always;        /* measured even by a search: a classic, or a point validate asks for */
	int seed;          /* one of the family's seeds: a candidate at every extra size (narrow_probes) */
	unsigned char *always_at; /* per size, for a point validate asks for: where always holds (NULL: everywhere) */
	unsigned char *needed; /* per size: still to measure */
	int regs;          /* registers a thread as NVRTC built it: 0 not read yet, -1 unknown */
};

struct devq; /* the queue of a run over several GPUs (run-devices.c) */

struct run_state {
	const struct family *f;
	const struct dtype *dt;
	const struct tune_opts *o;
	struct dims *sizes;
	size_t nsizes;
	size_t nreq;            /* the requested sizes come first; then the probes */
	int *anchor;            /* per size: 1 for an anchor probe (searched), PROBE_WIDE searched with the requested sizes' budget */
	size_t probe_cands;     /* candidates measured at the other probes */
	double t_probe;
	double t_cross;     /* a search's best variants measured at the run's other sizes */
	size_t n_cross;     /* how many such measurements */
	struct tune_extra *x;   /* changes by another command, or NULL */
	long *confirm_pt;       /* per requested size, confirm_per of them: points confirmed there besides the winner, or -1 */
	size_t confirm_per;
	struct point *pts;
	size_t npts;
	/* add_point's: the room pts has, and an open-addressing table of
	 * indices + 1 by the points' values (0: empty), index_cap slots. */
	size_t pts_cap, *index, index_cap;
	struct compile_job *jobs;
	size_t njobs;
	char *support_src;
	/* The ceiling's kernel (family_ceiling_kernel), its point and
	 * source; NULL where the family's ceiling needs none.  own_jobs: the
	 * compile jobs before the points', 1 or 2 with the ceiling's. */
	const struct family *ceil_f;
	int ceil_v[MAX_PARAMS];
	char *ceil_src;
	/* CHECK_REFERENCE: the reference classic's point, and its compile
	 * job among the tuner's own (after the ceiling's), or -1. */
	int ref_v[MAX_PARAMS];
	char *ref_src;
	int ref_job;
	size_t own_jobs;
	const char *mode;    /* timing mode as stored: "flushed" or "hot" */
	int64_t resumed_run; /* the run a restarted process continues, or 0 */
	struct gpu_info g;
	sqlite3 *db;
	int64_t device_id, family_id, run_id;
	const char *conditions; /* "recorded", or why NVML readings are not */
	int *vals;          /* the points' values, for the search */
	/* A worker of a run over several GPUs: the queue its sizes come
	 * from, its slot in it, and the sizes it measured (NULL: a run of
	 * one GPU, which measures every size). */
	struct devq *q;
	int slot;
	unsigned char *taken;
	/* Where the time went. */
	double t_start, t_wait_compile, t_verify, t_timing, t_prepare;
	double t_load;  /* reading variants' images and loading their modules */
	double t_store; /* storing their results */
	size_t n_measured; /* variants measured by this process, at any size */
};

/* Stores one variant's result at size d in a transaction of its own.
 * 0 or -1. */
int store_measurement(struct run_state *s, const struct point *p, const struct dims *d, const struct variant_result *r, double bytes, double ceiling);
/* Stores the ceiling measured at size d.  0 or -1. */
int store_ceiling(struct run_state *s, const struct dims *d, double mc, double kern);
/* Marks what each point still needs at each size (all of it with
 * --force).  0 or -1. */
int plan_run(struct run_state *s);
/* The run's row: a new one, or the one a restarted process resumes.
 * 0 or -1. */
int start_run_row(struct run_state *s);
/* Marks the run finished with status. */
void finish_run_row(struct run_state *s, const char *status);
/* The first line of log, as a new string ("" for NULL). */
char *first_line(const char *log);
/* Measures size k: its ceiling, then every needed point (or a
 * search's picks).  0, 1 when interrupted, -1 on a failure that ends
 * the run. */
int run_size(struct run_state *s, struct bench *b, struct compile_pool *pool, size_t k, const void *ceil_cubin, int search);
/* After a search: each size's fastest variants measured at the run's
 * other sizes.  0, 1 when interrupted, or -1. */
int cross_measure(struct run_state *s, struct bench *b, struct compile_pool *pool, const void *ceil_cubin);
/* The first picks of the extra sizes searched (anchors), known when the
 * run starts, handed to the pool as prefetches.  0 or -1. */
int prefetch_probe_draws(struct run_state *s, struct compile_pool *pool);
/* Before the extra sizes that are not anchors: their candidates, the
 * fastest at the anchors.  0 or -1. */
int narrow_probes(struct run_state *s);
/* The run on the GPU: plan, compile, measure every size, report.  The
 * exit code. */
int gpu_run(struct run_state *s, const char *arch, const char *cache_dir, int workers);
/* After a search, how many of each size's fastest variants are measured
 * at the run's other sizes (cross_measure). */
#define CROSS_TOP 4

/* The compile jobs: the tuner's own (the support kernels, then the
 * ceiling's kernel where the family has one), then each point that has a
 * job. */
void make_jobs(struct run_state *s);


/* Tunes as tune_run does, on one GPU; with q, as the worker of slot in
 * it, taking sizes from q.  The exit code. */
int tune_run_queued(const struct family *f, const struct tune_opts *o, struct tune_extra *x, struct devq *q, int slot);
/* The sizes a run of o changed by x (NULL: none) measures, requested (the
 * first *nreq) then extra, this share's (--shard): what every worker of
 * several GPUs plans alike.  Caller frees. */
struct dims *tune_planned_sizes(const struct family *f, const struct tune_opts *o, struct tune_extra *x, size_t *n,
				size_t *nreq);

/* run-devices.c: a run over several GPUs (--devices), or, in a process
 * started as one of its workers (devq_worker), that worker's run.  The
 * exit code. */
int devices_run(const struct family *f, const struct tune_opts *o, struct tune_extra *x);
int devq_worker(void);
/* The next size for slot to measure, largest first, of those with
 * among[k] (NULL: any), into *k: 1, or 0 when none is left to take. */
int devq_take(struct devq *q, int slot, const unsigned char *among, size_t *k);
/* Whether every size with among[k] (NULL: every size) is measured. */
int devq_all_done(const struct devq *q, const unsigned char *among);
/* The device rows of the workers started so far, as a JSON array (a new
 * string). */
char *devq_device_ids(const struct devq *q);
/* Size k is measured. */
void devq_done(struct devq *q, size_t k);
/* The sizes in the queue. */
size_t devq_nsizes(const struct devq *q);
/* Whether slot measured size k (before a restart, too). */
int devq_measured_by(const struct devq *q, int slot, size_t k);
/* Slot stored a result: its GPU answers (the parent stops a worker that
 * goes GPUTUNE_WORKER_TIMEOUT seconds without). */
void devq_beat(struct devq *q, int slot);
/* Slot's device row and run, for the parent's report; it begins
 * measuring (DEVQ_READY). */
void devq_started(struct devq *q, int slot, int64_t device_id, int64_t run_id);
/* For the parent's report: when slot's process began, had planned its
 * variants' jobs, had its compile pool started, had loaded the driver,
 * NVML and made the GPU's context, had the tuner's own kernels, began
 * measuring, ran out of sizes of the first phase, began the other extra
 * sizes, and ended. */
enum {
	DEVQ_BEGIN,
	DEVQ_PLANNED,
	DEVQ_POOL,
	DEVQ_CUDA,
	DEVQ_NVML,
	DEVQ_CONTEXT,
	DEVQ_DRIVER,
	DEVQ_READY,
	DEVQ_FIRST,
	DEVQ_NEXT,
	DEVQ_END
};
void devq_mark(struct devq *q, int slot, int which);
/* Slot's GPU's figures, as the parent read them. */
void devq_gpu(const struct devq *q, int slot, struct gpu_info *g);
/* Slot's account of where its time went, as s holds it (a restarted
 * worker's starts again). */
void devq_account(struct devq *q, int slot, const struct run_state *s);

#endif
