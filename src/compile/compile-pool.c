/*
 * compile-pool.c - see compile-pool.h.
 *
 * Eagerly, worker w compiles the uncached jobs w, w + W, w + 2W, ... in
 * order, so job i tends to finish before job i + W and the tuner, which
 * walks the jobs in order, rarely waits.  Lazily (for a search that picks
 * its next variants from what it measured), the workers take job indices
 * from a pipe as the tuner asks for them, and say which job they start.
 * A worker that dies leaves the jobs it owed failed with COMPILE_INTERNAL
 * rather than hanging the run.
 *
 * Several pools may share a cache at once (the workers of a run over
 * several GPUs, each with its own pool, or two runs): a job is compiled
 * under a lock of its own, a byte of the cache's .compile.lock at its key
 * (hidden, so that a listing of the cache shows its images and logs),
 * and a pool that finds the lock taken waits, then reads what the holder
 * wrote.  So each variant is compiled once whoever asks for it, and the
 * pools' workers, which walk the same jobs in the same order, share the
 * compiling out between them.  (Byte-range locks are the process's, and
 * go with it when it dies.)
 *
 * A cached image ends with a trailer: a hash of the image and a magic
 * word.  An entry whose trailer does not match (cut short by a full disk,
 * scribbled on, or written by an older gputune) is not used: the job is
 * compiled again and the entry replaced.
 */
#define _POSIX_C_SOURCE 200809L
#include "compile/compile-pool.h"
#include "compile/nvrtc-compile.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct result_msg {
	int job;
	int status; /* enum compile_status, or STARTED */
	int worker;
	int cached; /* compiled by another pool while this one waited */
};

/* How much lower than the tuner the compile workers run (setpriority). */
#define COMPILE_NICE 10
/* A lazy worker's message that it took a job. */
#define STARTED (-1)
/* owner[] of a job no worker has taken yet. */
#define NO_OWNER ((size_t)-1)

struct compile_pool {
	struct compile_job *jobs;
	size_t n;
	char *dir;
	int fd;          /* read end of the result pipe */
	pid_t *pids;
	int nworkers;
	int *alive;
	int *ended;      /* a dead worker's wait status, for the log of what it owed */
	size_t compiled;
	size_t *owner;   /* job -> worker index, for jobs being compiled */
	/* Lazy pools: the write end of the job pipe, which jobs were asked
	 * for, and the asks the pipe could not take yet. */
	int todo_fd;
	int go_fd;       /* a held pool's: closed to let its workers start */
	unsigned char *requested;
	int *backlog;
	size_t nbacklog;
	/* Jobs to ask for when a worker would otherwise idle
	 * (compile_pool_prefetch), in order; spare_at: the next. */
	size_t *spare;
	size_t nspare, spare_at;
};

char *cache_dir_from(const char *option)
{
	if (option && *option)
		return xstrdup(option);
	const char *env = getenv("GPUTUNE_CACHE_DIR");
	if (env && *env)
		return xstrdup(env);
	env = getenv("XDG_CACHE_HOME");
	if (env && *env)
		return xasprintf("%s/gputune", env);
	env = getenv("HOME");
	return xasprintf("%s/.cache/gputune", env && *env ? env : ".");
}

static char *job_path(const struct compile_pool *p, size_t i, const char *ext)
{
	return xasprintf("%s/%s.%s", p->dir, p->jobs[i].key, ext);
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

#define TRAILER_MAGIC 0x316e6962756374ULL /* "tcubin1" */

/* The image in a cache file's bytes (*len set), or NULL when the trailer
 * is missing or does not match. */
static char *checked_image(char *data, size_t *len)
{
	uint64_t t[2];
	if (!data || *len < sizeof(t))
		return NULL;
	memcpy(t, data + *len - sizeof(t), sizeof(t));
	if (t[1] != TRAILER_MAGIC || t[0] != hash64(data, *len - sizeof(t), HASH64_SEED))
		return NULL;
	*len -= sizeof(t);
	return data;
}

/* Whether path holds a cached image with a good trailer. */
static int image_ok(const char *path)
{
	size_t len = 0;
	char *data = read_file(path, &len);
	int ok = checked_image(data, &len) != NULL;
	free(data);
	return ok;
}

/* The cache's status of job i: COMPILE_OK for a good image,
 * COMPILE_ERROR for a cached error, else -1 (not there). */
static int cached_status(const struct compile_pool *p, size_t i)
{
	char *ok = job_path(p, i, "cubin"), *bad = job_path(p, i, "err");
	int st = image_ok(ok) ? COMPILE_OK : !file_exists(ok) && file_exists(bad) ? COMPILE_ERROR : -1;
	free(ok);
	free(bad);
	return st;
}

/* Takes job i's lock in the cache (waiting while another pool holds it):
 * the lock file's descriptor, to close when done, or -1 where no lock can
 * be had (the job is then compiled unlocked, as before pools shared). */
static int lock_job(const struct compile_pool *p, size_t i)
{
	char *path = xasprintf("%s/.compile.lock", p->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	free(path);
	if (fd < 0)
		return -1;
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };
	/* The key's first 12 hex digits: a byte offset far below off_t's
	 * limit, distinct for distinct jobs in practice (a clash only makes
	 * one job wait for another). */
	char head[13];
	memcpy(head, p->jobs[i].key, 12);
	head[12] = 0;
	l.l_start = (off_t)strtoull(head, NULL, 16);
	while (fcntl(fd, F_SETLKW, &l) < 0)
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	return fd;
}

/* Compiles job i into the cache, unless another pool did while this one
 * waited for its lock, and reports it on wfd. */
static void compile_one(struct compile_pool *p, const char *arch, size_t i, int w, int wfd)
{
	int lock = lock_job(p, i), had = cached_status(p, i);
	if (had >= 0) {
		if (lock >= 0)
			close(lock);
		struct result_msg m = { (int)i, had, w, 1 };
		if (write(wfd, &m, sizeof(m)) != (ssize_t)sizeof(m))
			_exit(1);
		return;
	}
	char *cubin = NULL, *log = NULL;
	size_t len = 0;
	int st = nvrtc_compile(p->jobs[i].source, p->jobs[i].name, arch, &cubin, &len, &log);
	if (st == COMPILE_OK) {
		char *path = job_path(p, i, "cubin");
		uint64_t trailer[2] = { hash64(cubin, len, HASH64_SEED), TRAILER_MAGIC };
		cubin = xrealloc(cubin, len + sizeof(trailer));
		memcpy(cubin + len, trailer, sizeof(trailer));
		if (write_file_atomic(path, cubin, len + sizeof(trailer)) < 0)
			st = COMPILE_INTERNAL;
		free(path);
	} else {
		/* Compile errors are cached with their log; NVRTC's own
		 * failures are written under another name, never reused. */
		char *path = job_path(p, i, st == COMPILE_ERROR ? "err" : "internal");
		write_file_atomic(path, log, strlen(log));
		free(path);
	}
	free(cubin);
	free(log);
	if (lock >= 0)
		close(lock);
	struct result_msg m = { (int)i, st, w, 0 };
	if (write(wfd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		_exit(1);
}

static void worker(struct compile_pool *p, const char *arch, int w, int wfd, const size_t *todo, size_t ntodo)
{
	for (size_t t = (size_t)w; t < ntodo; t += (size_t)p->nworkers)
		compile_one(p, arch, todo[t], w, wfd);
	_exit(0);
}

/* A lazy worker: job indices from rfd until the pool closes it. */
static void lazy_worker(struct compile_pool *p, const char *arch, int w, int rfd, int wfd)
{
	int i;
	while (read(rfd, &i, sizeof(i)) == (ssize_t)sizeof(i)) {
		if (i < 0 || (size_t)i >= p->n)
			continue;
		struct result_msg m = { i, STARTED, w, 0 };
		if (write(wfd, &m, sizeof(m)) != (ssize_t)sizeof(m))
			_exit(1);
		compile_one(p, arch, (size_t)i, w, wfd);
	}
	_exit(0);
}

/* A forked worker w, for good: the result pipe fds, the job pipe tfds
 * (lazy pools; else NULL), the go pipe (held pools; else -1s). */
static void worker_main(struct compile_pool *p, const char *arch, int w, const int fds[2], const int *tfds,
			const int go[2], const size_t *todo, size_t ntodo)
{
	close(fds[0]);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	if (go[0] >= 0) {
		close(go[1]);
		char c;
		/* Held but for the lead: until compile_pool_go closes the other end. */
		while (w >= COMPILE_LEAD && read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		close(go[0]);
	}
	/* Below the tuner in priority: the process that launches and times
	 * kernels (one per GPU) must never wait for a core behind the
	 * compilers, which fill every core while a cold run starts.  (Where
	 * refused, compiling at the tuner's priority only slows its start.) */
	setpriority(PRIO_PROCESS, 0, COMPILE_NICE);
	if (tfds) {
		close(tfds[1]);
		lazy_worker(p, arch, w, tfds[0], fds[1]);
	}
	worker(p, arch, w, fds[1], todo, ntodo);
}

struct compile_pool *compile_pool_start(struct compile_job *jobs, size_t n, const char *arch,
					const char *cache_dir, int workers, int flags)
{
	int lazy = flags & COMPILE_LAZY;
	if (mkdir_p(cache_dir) < 0) {
		error("cannot create the compile cache directory %s: %s", cache_dir, strerror(errno));
		return NULL;
	}
	struct compile_pool *p = xcalloc(1, sizeof(*p));
	p->jobs = jobs;
	p->n = n;
	p->dir = xstrdup(cache_dir);
	p->fd = p->todo_fd = p->go_fd = -1;
	p->owner = xcalloc(n ? n : 1, sizeof(size_t));
	p->requested = xcalloc(n ? n : 1, 1);
	p->backlog = xcalloc(n ? n : 1, sizeof(int));
	char *opts = nvrtc_options_string(arch);
	uint64_t salt = hash64(opts, strlen(opts), HASH64_SEED);
	salt = hash64(nvrtc_version_string(), strlen(nvrtc_version_string()), salt);
	free(opts);
	size_t *todo = xcalloc(n ? n : 1, sizeof(size_t));
	size_t ntodo = 0;
	for (size_t i = 0; i < n; i++) {
		hash64_hex(hash64(jobs[i].source, strlen(jobs[i].source), salt), jobs[i].key);
		p->owner[i] = NO_OWNER;
		int had = cached_status(p, i);
		jobs[i].done = jobs[i].cached = had >= 0;
		if (had >= 0)
			jobs[i].status = had;
		else
			todo[ntodo++] = i;
	}
	if (workers <= 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		workers = cpus > 0 ? (int)cpus : 1;
	}
	if ((size_t)workers > ntodo)
		workers = (int)ntodo;
	p->nworkers = workers;
	if (workers == 0) {
		free(todo);
		return p;
	}
	int fds[2], tfds[2] = { -1, -1 }, go[2] = { -1, -1 };
	if (pipe(fds) < 0 || (lazy && pipe(tfds) < 0) || ((flags & COMPILE_HELD) && pipe(go) < 0))
		die("pipe: %s", strerror(errno));
	p->pids = xcalloc((size_t)workers, sizeof(pid_t));
	p->alive = xcalloc((size_t)workers, sizeof(int));
	p->ended = xcalloc((size_t)workers, sizeof(int));
	fflush(NULL);
	/* Ctrl-C and SIGTERM are the parent's to handle, even when they come
	 * to the whole process group (as from `timeout` or `kill -- -PGID`):
	 * a worker killed by them would make the variant in hand look like
	 * one that failed to compile.  Ignoring them is not enough: NVRTC
	 * sets a SIGTERM handler of its own while it compiles, which exits
	 * with status 4.  So the workers are born with both blocked (the mask
	 * is set around the fork, leaving no moment unguarded), and ignore
	 * them too.  The parent stops its workers with SIGKILL, and a worker
	 * whose parent is gone ends at its closed pipes. */
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	for (int w = 0; w < workers; w++) {
		pid_t pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0)
			worker_main(p, arch, w, fds, lazy ? tfds : NULL, go, todo, ntodo);
		p->pids[w] = pid;
		p->alive[w] = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (lazy) {
		close(tfds[0]);
		/* Never block on a full job pipe: asks wait in the backlog. */
		fcntl(tfds[1], F_SETFL, O_NONBLOCK);
		fcntl(tfds[1], F_SETFD, FD_CLOEXEC);
		p->todo_fd = tfds[1];
	} else {
		for (size_t t = 0; t < ntodo; t++) {
			p->owner[todo[t]] = t % (size_t)workers;
			p->requested[todo[t]] = 1;
		}
	}
	close(fds[1]);
	if (go[0] >= 0) {
		close(go[0]);
		fcntl(go[1], F_SETFD, FD_CLOEXEC);
		p->go_fd = go[1];
	}
	/* A restarted tuner (restart.h) starts its own pool; the old workers
	 * then lose their reader and stop on SIGPIPE. */
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	p->fd = fds[0];
	free(todo);
	return p;
}

/* Moves what the job pipe can take from the backlog into it. */
static void flush_backlog(struct compile_pool *p)
{
	size_t k = 0;
	while (k < p->nbacklog && write(p->todo_fd, &p->backlog[k], sizeof(int)) == (ssize_t)sizeof(int))
		k++;
	memmove(p->backlog, p->backlog + k, (p->nbacklog - k) * sizeof(int));
	p->nbacklog -= k;
}

static void ask(struct compile_pool *p, size_t i)
{
	p->requested[i] = 1;
	p->backlog[p->nbacklog++] = (int)i;
}

/* Asks for prefetched jobs while fewer jobs than workers are asked for
 * and not done: they never stand in front of more than one job a worker
 * of those asked for later. */
static void feed_spare(struct compile_pool *p)
{
	if (p->spare_at >= p->nspare)
		return;
	size_t busy = 0;
	for (size_t i = 0; i < p->n; i++)
		busy += p->requested[i] && !p->jobs[i].done;
	while (busy < (size_t)p->nworkers && p->spare_at < p->nspare) {
		size_t i = p->spare[p->spare_at++];
		if (!p->jobs[i].done && !p->requested[i]) {
			ask(p, i);
			busy++;
		}
	}
}

void compile_pool_request(struct compile_pool *p, size_t i)
{
	if (i >= p->n || p->jobs[i].done || p->requested[i] || p->todo_fd < 0)
		return;
	ask(p, i);
	flush_backlog(p);
}

void compile_pool_prefetch(struct compile_pool *p, size_t i)
{
	if (i >= p->n || p->jobs[i].done || p->requested[i] || p->todo_fd < 0)
		return;
	if (!p->spare)
		p->spare = xcalloc(p->n, sizeof(size_t));
	for (size_t j = p->spare_at; j < p->nspare; j++)
		if (p->spare[j] == i)
			return;
	if (p->nspare < p->n)
		p->spare[p->nspare++] = i;
}

/* Reaps exited workers; fails the jobs a dead worker still owed. */
static void reap(struct compile_pool *p)
{
	for (int w = 0; w < p->nworkers; w++) {
		if (!p->alive[w])
			continue;
		int st;
		pid_t r = waitpid(p->pids[w], &st, WNOHANG);
		if (r == p->pids[w]) {
			p->alive[w] = 0;
			p->ended[w] = st;
		}
	}
}

static int any_alive(const struct compile_pool *p)
{
	for (int w = 0; w < p->nworkers; w++)
		if (p->alive[w])
			return 1;
	return 0;
}

/* A job is orphaned when its worker died, or when no worker took it and
 * none is left to. */
static int orphaned(const struct compile_pool *p, size_t i)
{
	if (p->jobs[i].done || !p->requested[i])
		return 0;
	return p->owner[i] == NO_OWNER ? !any_alive(p) : !p->alive[p->owner[i]];
}

static void fail_orphans(struct compile_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (orphaned(p, i)) {
			p->jobs[i].done = 1;
			p->jobs[i].status = COMPILE_INTERNAL;
		}
}

/* Reads one batch of results; returns 0 at end of input. */
static int read_results(struct compile_pool *p, int timeout_ms)
{
	struct pollfd pfd = { p->fd, POLLIN, 0 };
	int r = poll(&pfd, 1, timeout_ms);
	if (r <= 0)
		return 1;
	struct result_msg m[64];
	ssize_t got = read(p->fd, m, sizeof(m));
	if (got <= 0)
		return got < 0 && errno == EINTR;
	for (ssize_t k = 0; k < got / (ssize_t)sizeof(m[0]); k++) {
		if (m[k].job < 0 || (size_t)m[k].job >= p->n)
			continue;
		if (m[k].status == STARTED) {
			if (m[k].worker >= 0 && m[k].worker < p->nworkers)
				p->owner[m[k].job] = (size_t)m[k].worker;
			continue;
		}
		struct compile_job *j = &p->jobs[m[k].job];
		j->done = 1;
		j->status = m[k].status;
		j->cached = m[k].cached;
		p->compiled += !m[k].cached;
	}
	return 1;
}

void compile_pool_go(struct compile_pool *p)
{
	if (p->go_fd >= 0) {
		close(p->go_fd);
		p->go_fd = -1;
	}
}

void compile_pool_poll(struct compile_pool *p)
{
	if (p->fd < 0)
		return;
	struct pollfd pfd = { p->fd, POLLIN, 0 };
	while (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN))
		if (!read_results(p, 0))
			break;
	if (p->todo_fd >= 0) {
		feed_spare(p);
		flush_backlog(p);
	}
}

int compile_pool_wait(struct compile_pool *p, size_t i)
{
	compile_pool_go(p);
	compile_pool_request(p, i);
	compile_pool_poll(p);
	while (!p->jobs[i].done) {
		if (p->todo_fd >= 0) {
			feed_spare(p);
			flush_backlog(p);
		}
		if (p->fd < 0 || !read_results(p, 200)) {
			/* Every worker closed its end: whatever is left is orphaned. */
			for (int w = 0; w < p->nworkers; w++)
				if (p->alive[w]) {
					waitpid(p->pids[w], &p->ended[w], 0);
					p->alive[w] = 0;
				}
			fail_orphans(p);
			break;
		}
		reap(p);
		if (orphaned(p, i)) {
			/* Its worker is gone: drain what it wrote, then give up on it. */
			while (read_results(p, 0) && !p->jobs[i].done) {
				struct pollfd pfd = { p->fd, POLLIN, 0 };
				if (poll(&pfd, 1, 0) <= 0)
					break;
			}
			fail_orphans(p);
		}
	}
	return p->jobs[i].status;
}

char *compile_pool_cubin(struct compile_pool *p, size_t i, size_t *len)
{
	if (!p->jobs[i].done || p->jobs[i].status != COMPILE_OK)
		return NULL;
	char *path = job_path(p, i, "cubin");
	char *data = read_file(path, len);
	free(path);
	if (!checked_image(data, len)) {
		free(data);
		return NULL;
	}
	return data;
}

char *compile_pool_log(struct compile_pool *p, size_t i)
{
	const char *ext = p->jobs[i].status == COMPILE_ERROR ? "err" : "internal";
	char *path = job_path(p, i, ext);
	char *data = read_file(path, NULL);
	free(path);
	if (!data && p->jobs[i].status == COMPILE_INTERNAL) {
		size_t w = p->owner[i];
		int st = w < (size_t)p->nworkers && !p->alive[w] ? p->ended[w] : 0;
		data = WIFSIGNALED(st) ? xasprintf("the compile worker died of signal %d before reporting this variant",
						   WTERMSIG(st))
		       : WIFEXITED(st) && WEXITSTATUS(st)
			       ? xasprintf("the compile worker ended with exit %d before reporting this variant",
					   WEXITSTATUS(st))
			       : xstrdup("the compile worker died before reporting this variant");
	}
	return data;
}

size_t compile_pool_compiled(const struct compile_pool *p)
{
	return p->compiled;
}

void compile_pool_stop(struct compile_pool *p)
{
	if (!p)
		return;
	compile_pool_go(p);
	/* Lazy workers wait for jobs until their pipe closes. */
	if (p->todo_fd >= 0) {
		close(p->todo_fd);
		p->todo_fd = -1;
	}
	for (int w = 0; w < p->nworkers; w++)
		if (p->alive[w]) {
			kill(p->pids[w], SIGKILL);
			waitpid(p->pids[w], NULL, 0);
		}
	if (p->fd >= 0)
		close(p->fd);
	free(p->requested);
	free(p->backlog);
	free(p->spare);
	free(p->pids);
	free(p->alive);
	free(p->ended);
	free(p->owner);
	free(p->dir);
	free(p);
}
