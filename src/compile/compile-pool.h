/*
 * compile-pool.h - compiles many variants in worker processes, through a
 * cache directory.
 *
 * Workers are forked when the pool starts: the caller starts the pool
 * before it touches the CUDA driver (which is not fork-safe once
 * initialised), then benchmarks job i as soon as compile_pool_wait(i)
 * returns, so the GPU works while later variants still compile.  The
 * cache directory is also the transport: a worker writes <key>.cubin (or
 * <key>.err with the log) atomically and reports the job index on a pipe.
 * The key hashes the source, the NVRTC options and NVRTC's version, so a
 * second run compiles nothing.
 */
#ifndef GPUTUNE_COMPILE_POOL_H
#define GPUTUNE_COMPILE_POOL_H

#include <stddef.h>

struct compile_job {
	const char *source; /* not owned; must outlive the pool */
	const char *name;   /* for messages */
	char key[17];       /* set by compile_pool_start */
	int done;
	int status;         /* enum compile_status, once done */
	int cached;         /* found in the cache, not compiled by this run */
};

struct compile_pool;

/* compile_pool_start's flags. */
enum {
	COMPILE_LAZY = 1, /* compile only what is asked for (else every job, in order) */
	COMPILE_HELD = 2, /* fork the workers, but start only COMPILE_LEAD before compile_pool_go */
};
/* The workers a held pool starts at once: they take its first jobs (a
 * tuning run's own kernels, which it needs first), two compiles beside
 * the loading driver where every core's would slow it. */
#define COMPILE_LEAD 2

/*
 * Starts compiling jobs[0..n) for arch with up to `workers` processes
 * (0: one per online CPU).  Jobs already in cache_dir are done at once.
 * Eager pools compile every job, in order; lazy ones (COMPILE_LAZY) only
 * the jobs asked for (compile_pool_request, compile_pool_wait), in the
 * order asked.  Every job's source must be set before the start (workers
 * are forked).  Returns NULL after reporting when cache_dir cannot be
 * created.
 */
struct compile_pool *compile_pool_start(struct compile_job *jobs, size_t n, const char *arch,
					const char *cache_dir, int workers, int flags);
/* Lets a held pool's other workers start (compile_pool_wait does too).
 * Why hold them: the CUDA driver must be loaded after the fork, and it
 * loads several times slower while every core compiles (8 s against 1 s
 * on a host of four H200s). */
void compile_pool_go(struct compile_pool *p);
/* Asks a lazy pool to compile job i (no effect when it is done, asked for
 * already, or the pool is eager). */
void compile_pool_request(struct compile_pool *p, size_t i);
/* Asks a lazy pool to compile job i when a worker would otherwise idle:
 * once fewer jobs than workers are asked for and not done, in the order
 * prefetched (no effect when it is done or asked for, or the pool is
 * eager).  For jobs known to be needed later: they fill the workers while
 * the caller is busy elsewhere. */
void compile_pool_prefetch(struct compile_pool *p, size_t i);
/* Takes the workers' results without waiting and hands prefetched jobs
 * to idle workers (compile_pool_wait does too): for a caller busy between
 * its waits. */
void compile_pool_poll(struct compile_pool *p);
/* Asks for job i (see above) and blocks until it is done; returns its
 * status. */
int compile_pool_wait(struct compile_pool *p, size_t i);
/* Job i's CUBIN (caller frees), or NULL when it did not compile. */
char *compile_pool_cubin(struct compile_pool *p, size_t i, size_t *len);
/* Job i's compile log (caller frees), or NULL. */
char *compile_pool_log(struct compile_pool *p, size_t i);
/* Stops workers that are still running (jobs not done stay undone) and
 * frees the pool. */
void compile_pool_stop(struct compile_pool *p);
/* How many jobs this run compiled (not from the cache). */
size_t compile_pool_compiled(const struct compile_pool *p);

/* The cache directory: option, else $GPUTUNE_CACHE_DIR, else
 * $XDG_CACHE_HOME/gputune, else ~/.cache/gputune (caller frees). */
char *cache_dir_from(const char *option);

#endif
