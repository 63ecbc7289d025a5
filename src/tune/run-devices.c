/*
 * run-devices.c - a tuning run over several GPUs of this host (--devices):
 * one worker process per GPU, each its own CUDA context, all taking sizes
 * from one queue, largest first; every size is measured wholly by the
 * worker that takes it, and stored under that GPU.
 *
 * Why processes: the driver is not fork-safe once initialised, a fault
 * poisons a context for good (the one-GPU run restarts its process), and a
 * GPU that stops answering must not stop the others.  The parent never
 * loads the driver: it reads the GPUs' figures through gpu_probe and forks
 * the workers at once.  Each worker's compile pool walks the same variants
 * in the same order through the one compile cache, where a variant is
 * compiled under a lock of its own (compile-pool.c): so each is compiled
 * once per architecture, the pools share the compiling out, and the GPUs
 * measure the first variants while the later ones compile.
 *
 * The queue is a small file every worker maps (queue_open), so that a
 * worker restarted after a fault (restart_self: the same command line,
 * with WORKER_ENV naming the file and its slot) takes up its size again.
 * A worker claims a size by a compare-and-swap of its owner; the parent
 * gives the unfinished sizes of a worker that failed back to the queue,
 * drops its GPU, and starts the others again until every size is done.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "tune/run.h"
#include "db/db.h"
#include "families/strategy.h"
#include "gpu/gpu.h"
#include "tune/conditions.h"
#include "tune/restart.h"
#include "util/interrupt.h"
#include "util/table.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKER_ENV "GPUTUNE_DEVICE_WORKER"
#define QUEUE_MAGIC 0x47545155u

/* The queue file: a header, then per size and per slot. */
struct devq {
	uint32_t magic;
	int32_t nsizes, nslots;
	int32_t pad;
};
#define Q_ORDER(q) ((int32_t *)((q) + 1))
#define Q_OWNER(q) (Q_ORDER(q) + (q)->nsizes)  /* slot + 1 that took size k; 0 free */
#define Q_DONE(q) (Q_OWNER(q) + (q)->nsizes)   /* 1 once measured */
#define Q_DEVICE(q) (Q_DONE(q) + (q)->nsizes)  /* per slot: its GPU's index */
#define Q_RUN(q) ((int64_t *)(Q_DEVICE(q) + (q)->nslots + ((q)->nslots & 1)))
#define Q_DEVID(q) (Q_RUN(q) + (q)->nslots)    /* per slot: its device row */
#define Q_BEAT(q) (Q_DEVID(q) + (q)->nslots)    /* per slot: when it last stored a result (monotonic s) */
/* Per slot, NTIMES figures in microseconds: its marks (devq_mark, at
 * their DEVQ_ index: monotonic times), then its process's account
 * (run_state's t_*). */
enum { T_PREPARE = DEVQ_END + 1, T_VERIFY, T_TIMING, T_COMPILE, T_LOAD, T_STORE, NTIMES };
#define Q_TIMES(q, slot) (Q_BEAT(q) + (q)->nslots + (size_t)(slot) * NTIMES)
/* Per slot: its GPU's figures, as the parent's probe read them (a worker
 * that probed again would load the driver once more, a second or more). */
#define Q_GPU(q, slot) ((struct gpu_info *)Q_TIMES(q, (q)->nslots) + (slot))

static size_t queue_bytes(int nsizes, int nslots)
{
	return sizeof(struct devq) + sizeof(int32_t) * (3 * (size_t)nsizes + (size_t)nslots + 1) +
	       sizeof(int64_t) * (3 + NTIMES) * (size_t)nslots + sizeof(struct gpu_info) * (size_t)nslots;
}

void devq_gpu(const struct devq *q, int slot, struct gpu_info *g)
{
	*g = *Q_GPU(q, slot);
}

static int64_t micros(double seconds)
{
	return (int64_t)(seconds * 1e6);
}

static int64_t monotonic_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec;
}

/* How long a worker may go without storing a result before its GPU counts
 * as not answering: GPUTUNE_WORKER_TIMEOUT seconds, default 600 (the
 * longest a size's ceiling and one variant have taken is seconds; a
 * search compiling what it picks waits for the compiler longer). */
static long worker_timeout(void)
{
	long t = 600;
	const char *e = getenv("GPUTUNE_WORKER_TIMEOUT");
	if (e && parse_long(e, 1, 86400, &t) < 0)
		t = 600;
	return t;
}

void devq_beat(struct devq *q, int slot)
{
	__atomic_store_n(&Q_BEAT(q)[slot], monotonic_s(), __ATOMIC_RELEASE);
}

/* Maps the queue file path (created with room for nsizes and nslots when
 * nsizes > 0).  NULL after a message. */
static struct devq *queue_open(const char *path, int nsizes, int nslots)
{
	int fd = open(path, O_RDWR);
	if (fd < 0) {
		error("the queue of the GPUs' work %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	size_t len = nsizes > 0 ? queue_bytes(nsizes, nslots) : 0;
	if (!len)
		len = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
	else if (ftruncate(fd, (off_t)len) < 0)
		len = 0;
	void *m = len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (m == MAP_FAILED) {
		error("cannot map the queue of the GPUs' work %s", path);
		return NULL;
	}
	struct devq *q = m;
	if (nsizes > 0) {
		q->magic = QUEUE_MAGIC;
		q->nsizes = nsizes;
		q->nslots = nslots;
	} else if (q->magic != QUEUE_MAGIC || len < queue_bytes(q->nsizes, q->nslots)) {
		error("%s is not a queue of gputune's", path);
		return NULL;
	}
	return q;
}

int devq_worker(void)
{
	return getenv(WORKER_ENV) != NULL;
}

int devq_take(struct devq *q, int slot, const unsigned char *among, size_t *k)
{
	for (int t = 0; t < q->nsizes; t++) {
		int32_t i = Q_ORDER(q)[t], want = 0;
		if ((among && !among[i]) || __atomic_load_n(&Q_DONE(q)[i], __ATOMIC_ACQUIRE))
			continue;
		/* A size this slot took before a restart is its own still. */
		if (__atomic_compare_exchange_n(&Q_OWNER(q)[i], &want, slot + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
		    want == slot + 1) {
			*k = (size_t)i;
			return 1;
		}
	}
	return 0;
}

void devq_done(struct devq *q, size_t k)
{
	__atomic_store_n(&Q_DONE(q)[k], 1, __ATOMIC_RELEASE);
}

int devq_all_done(const struct devq *q, const unsigned char *among)
{
	for (int k = 0; k < q->nsizes; k++)
		if ((!among || among[k]) && !__atomic_load_n(&Q_DONE(q)[k], __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

char *devq_device_ids(const struct devq *q)
{
	struct strbuf sb = {0};
	sb_puts(&sb, "[");
	for (int s = 0; s < q->nslots; s++)
		if (Q_DEVID(q)[s] > 0)
			sb_printf(&sb, "%s%lld", sb.len > 1 ? "," : "", (long long)Q_DEVID(q)[s]);
	sb_puts(&sb, "]");
	return sb_detach(&sb);
}

size_t devq_nsizes(const struct devq *q)
{
	return (size_t)q->nsizes;
}

int devq_measured_by(const struct devq *q, int slot, size_t k)
{
	return Q_OWNER(q)[k] == slot + 1 && Q_DONE(q)[k];
}

void devq_started(struct devq *q, int slot, int64_t device_id, int64_t run_id)
{
	Q_DEVID(q)[slot] = device_id;
	Q_RUN(q)[slot] = run_id;
	devq_beat(q, slot);
	devq_mark(q, slot, DEVQ_READY);
}

void devq_mark(struct devq *q, int slot, int which)
{
	Q_TIMES(q, slot)[which] = micros(now_seconds());
}

void devq_account(struct devq *q, int slot, const struct run_state *s)
{
	int64_t *t = Q_TIMES(q, slot);
	t[T_PREPARE] = micros(s->t_prepare);
	t[T_VERIFY] = micros(s->t_verify);
	t[T_TIMING] = micros(s->t_timing);
	t[T_COMPILE] = micros(s->t_wait_compile);
	t[T_LOAD] = micros(s->t_load);
	t[T_STORE] = micros(s->t_store);
}

/* A worker, first or restarted: the run of its slot's GPU, fed from the
 * queue.  The exit code. */
static int worker(const struct family *f, const struct tune_opts *o, struct tune_extra *x)
{
	const char *env = getenv(WORKER_ENV);
	const char *colon = strrchr(env, ':');
	long slot = -1;
	char *path = colon ? xasprintf("%.*s", (int)(colon - env), env) : NULL;
	if (!colon || parse_long(colon + 1, 0, 1023, &slot) < 0) {
		free(path);
		return error("%s is '%s', not FILE:SLOT", WORKER_ENV, env);
	}
	struct devq *q = queue_open(path, 0, 0);
	free(path);
	if (!q || slot >= q->nslots)
		return EXIT_FAIL;
	struct tune_opts wo = *o;
	wo.device = Q_DEVICE(q)[slot];
	wo.quiet = 1; /* one progress line per GPU is the parent's */
	return tune_run_queued(f, &wo, x, q, (int)slot);
}

/* The GPUs asked for, their figures into g[] (*n of them), read by one
 * probe.  0, or the exit code after a message. */
static int resolve_devices(const struct tune_opts *o, struct gpu_info **g, int *n)
{
	char why[256];
	struct gpu_info *all = NULL;
	int visible = 0, rc = gpu_probe_all(&all, &visible, why, sizeof(why));
	if (rc) {
		error("%s needs a GPU: %s", o->cmd, why);
		return rc;
	}
	*n = o->devices_all ? visible : (int)o->ndevices;
	*g = xcalloc((size_t)*n, sizeof(**g));
	for (int i = 0; i < *n; i++) {
		int index = o->devices_all ? i : o->devices[i];
		if (index >= visible) {
			free(all);
			error("%s: --devices names GPU %d, but %d %s visible", o->cmd, index, visible,
			      visible == 1 ? "is" : "are");
			return EXIT_USAGE;
		}
		(*g)[i] = all[index];
	}
	free(all);
	return 0;
}

/* A worker that ended badly: its GPU is dropped and its unfinished
 * sizes go back to the queue, for the others. */
static void drop_failed(struct devq *q, const struct gpu_info *g, int *live, const int *status, int s)
{
	if (!live[s] || status[s] == EXIT_OK || status[s] == EXIT_INTERRUPTED)
		return;
	live[s] = 0;
	int back = 0;
	for (int k = 0; k < q->nsizes; k++) {
		int32_t mine = s + 1;
		if (!__atomic_load_n(&Q_DONE(q)[k], __ATOMIC_ACQUIRE) &&
		    __atomic_compare_exchange_n(&Q_OWNER(q)[k], &mine, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			back++;
	}
	error("GPU %d (%s): its worker ended with exit %d: the GPU is dropped and %d unfinished size%s go%s to the "
	      "others", g[s].index, g[s].name, status[s], back, back == 1 ? "" : "s", back == 1 ? "es" : "");
}

/* A size some of these GPUs measured already (a run interrupted, or run
 * again) is reserved for the one that measured most of it: it goes on
 * there, and no size is measured on two GPUs (--force measures every
 * size anew, so it reserves none).  0, or -1 after a message. */
static int reserve_measured(const struct family *f, const struct tune_opts *o, struct devq *q,
			    const struct gpu_info *g, const struct dims *sizes)
{
	sqlite3 *db = NULL;
	char *path = db_path_from(o->db);
	int rc = db_open(path, DB_WRITE, &db);
	free(path);
	sqlite3_stmt *st = rc < 0 ? NULL : db_prepare(db,
		"SELECT count(*) FROM measurement m JOIN run r ON r.id = m.run_id JOIN variant v ON v.id = m.variant_id"
		" WHERE r.device_id = ?1 AND v.family_id = ?2 AND v.dtype = ?3 AND r.timing_mode = ?4"
		" AND m.rows = ?5 AND m.cols = ?6 AND m.depth = ?7");
	int64_t family_id = st ? db_family_id(db, f) : -1;
	for (int s = 0; st && s < q->nslots; s++) {
		int64_t device_id = db_device_id(db, &g[s]);
		for (int k = 0; k < q->nsizes; k++) {
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, device_id);
			sqlite3_bind_int64(st, 2, family_id);
			sqlite3_bind_text(st, 3, o->dt->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 4, o->hot ? "hot" : "flushed", -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 5, sizes[k].rows);
			sqlite3_bind_int64(st, 6, sizes[k].cols);
			sqlite3_bind_int64(st, 7, sizes[k].depth);
			long n = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : 0;
			/* Q_DONE holds the best count so far until the deal is made. */
			if (n > Q_DONE(q)[k]) {
				Q_DONE(q)[k] = (int32_t)(n < 0x7fffffff ? n : 0x7fffffff);
				Q_OWNER(q)[k] = s + 1;
			}
		}
	}
	for (int k = 0; k < q->nsizes; k++)
		Q_DONE(q)[k] = 0;
	if (!st)
		rc = -1;
	sqlite3_finalize(st);
	db_close(db);
	return rc < 0 ? -1 : 0;
}

/* Forks a worker for each live slot; waits for them all, showing one
 * progress line per GPU on a terminal.  status[] gets each one's exit
 * code (-1: not started). */
static void run_round(const char *qpath, struct devq *q, const struct gpu_info *g, int *live, int *status)
{
	int n = q->nslots;
	pid_t *pid = xcalloc((size_t)n, sizeof(pid_t));
	fflush(NULL);
	for (int s = 0; s < n; s++) {
		status[s] = -1;
		if (!live[s])
			continue;
		devq_beat(q, s);
		pid[s] = fork();
		if (pid[s] == 0) {
			char *env = xasprintf("%s:%d", qpath, s);
			setenv(WORKER_ENV, env, 1);
			free(env);
			/* The same command line, as a worker (restart.h). */
			restart_exec_self();
			_exit(EXIT_FAIL);
		}
		if (pid[s] < 0)
			error("cannot start the worker of GPU %d: %s", g[s].index, strerror(errno));
	}
	int running = 0;
	for (int s = 0; s < n; s++)
		running += pid[s] > 0;
	int tty = isatty(2), forwarded = 0;
	long timeout = worker_timeout();
	while (running > 0) {
		/* A GPU that stops answering: its worker is stopped, and
		 * dropped as one that failed. */
		for (int s = 0; s < n && !interrupted(); s++)
			if (pid[s] > 0 && status[s] < 0 && monotonic_s() - __atomic_load_n(&Q_BEAT(q)[s], __ATOMIC_ACQUIRE) > timeout) {
				error("GPU %d (%s): no result for %ld s (GPUTUNE_WORKER_TIMEOUT): its worker is stopped",
				      g[s].index, g[s].name, timeout);
				kill(pid[s], SIGKILL);
				Q_BEAT(q)[s] = monotonic_s(); /* said once */
			}
		/* Ctrl-C on a terminal reaches every worker; a signal sent to
		 * this process alone is passed on (within the second that
		 * makes two signals one request). */
		if (interrupted() && !forwarded) {
			for (int s = 0; s < n; s++)
				if (pid[s] > 0 && status[s] < 0)
					kill(pid[s], SIGINT);
			forwarded = 1;
		}
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG);
		if (w > 0) {
			for (int s = 0; s < n; s++)
				if (pid[s] == w) {
					status[s] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
					running--;
					/* At once: a worker may be waiting for its sizes. */
					drop_failed(q, g, live, status, s);
				}
			continue;
		}
		if (w < 0 && errno != EINTR)
			break;
		if (tty) {
			fputs("\r\033[K", stderr);
			for (int s = 0; s < n; s++) {
				int took = 0, done = 0;
				for (int k = 0; k < q->nsizes; k++) {
					took += Q_OWNER(q)[k] == s + 1;
					done += Q_OWNER(q)[k] == s + 1 && Q_DONE(q)[k];
				}
				if (live[s])
					fprintf(stderr, "GPU %d: %d/%d sizes  ", g[s].index, done, took);
			}
		}
		nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	}
	if (tty)
		fputs("\r\033[K", stderr);
	free(pid);
}


/* The table of each GPU's sizes and the conditions it ran under. */
static int report_devices(const struct family *f, const struct tune_opts *o, const struct devq *q,
			  const struct gpu_info *g, const struct dims *sizes, size_t nreq, double t0, double probed)
{
	double seconds = now_seconds() - t0;
	sqlite3 *db = NULL;
	char *path = db_path_from(o->db);
	int rc = db_open(path, DB_WRITE, &db);
	free(path);
	if (rc < 0)
		return EXIT_FAIL;
	int64_t family_id = db_family_id(db, f);
	struct dims *mine = xcalloc(nreq + 1, sizeof(*mine));
	FILE *out = o->format == FMT_TABLE ? stdout : stderr;
	for (int s = 0; s < q->nslots && rc == 0; s++) {
		size_t n = 0, extra = 0;
		for (size_t k = 0; k < (size_t)q->nsizes; k++)
			if (Q_OWNER(q)[k] == s + 1 && Q_DONE(q)[k]) {
				if (k < nreq)
					mine[n++] = sizes[k];
				else
					extra++;
			}
		char cond[400] = "";
		conditions_run_text(db, Q_RUN(q)[s], cond, sizeof(cond));
		fprintf(out, "%sGPU %d (%s, %s): %zu requested size%s, %zu extra%s%s\n", s ? "\n" : "", g[s].index,
			g[s].name, g[s].uuid, n, n == 1 ? "" : "s", extra, *cond ? "; while timing: " : "", cond);
		const int64_t *t = Q_TIMES(q, s);
		/* When, in seconds of this run, and where its time went. */
#define AT(i) (t[i] ? (double)t[i] * 1e-6 - t0 : 0.0)
#define SPENT(i) ((double)t[i] * 1e-6)
		if (t[DEVQ_READY])
			fprintf(out, "  its worker began at %.2f s of the run (the GPUs probed by %.2f s), had its "
				"variants' jobs at %.2f s, its compile pool at %.2f s, the driver at %.2f s, NVML at "
				"%.2f s, the GPU's context at %.2f s and the tuner's kernels at %.2f s\n"
				"  measuring from %.1f s to %.1f s of the run; out of first-phase sizes at %.1f s, "
				"the other extra sizes from %.1f s; %.1f s preparing sizes and ceilings, %.1f s verifying, "
				"%.1f s timing, %.1f s waiting for the compiler, %.1f s loading modules, %.1f s storing\n",
				AT(DEVQ_BEGIN), probed - t0, AT(DEVQ_PLANNED), AT(DEVQ_POOL), AT(DEVQ_CUDA),
				AT(DEVQ_NVML), AT(DEVQ_CONTEXT), AT(DEVQ_DRIVER), AT(DEVQ_READY), AT(DEVQ_END),
				AT(DEVQ_FIRST), AT(DEVQ_NEXT), SPENT(T_PREPARE), SPENT(T_VERIFY), SPENT(T_TIMING),
				SPENT(T_COMPILE), SPENT(T_LOAD), SPENT(T_STORE));
#undef AT
#undef SPENT
		struct tune_report_key key = { Q_DEVID(q)[s], family_id, o->dt->name, o->hot ? "hot" : "flushed" };
		if (n && tune_report(db, f, &key, mine, n, o->format) < 0)
			rc = -1;
	}
	fprintf(out, "\n%s on %d GPUs in %.1f s\n", f->name, q->nslots, seconds);
	free(mine);
	db_close(db);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

int devices_run(const struct family *f, const struct tune_opts *o, struct tune_extra *x)
{
	if (devq_worker())
		return worker(f, o, x);
	double t0 = now_seconds();
	struct gpu_info *g = NULL;
	int n = 0;
	int rc = resolve_devices(o, &g, &n);
	double probed = now_seconds();
	size_t nsizes = 0, nreq = 0;
	struct dims *sizes = rc ? NULL : tune_planned_sizes(f, o, x, &nsizes, &nreq);
	if (rc == 0 && nsizes == 0) {
		free(g);
		free(sizes);
		return EXIT_OK; /* a share with no size (--shard) */
	}
	const char *tmp = getenv("TMPDIR");
	char *qp = xasprintf("%s/gputune-queue.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = rc ? -1 : mkstemp(qp);
	struct devq *q = NULL;
	if (rc == 0 && fd < 0)
		rc = error("cannot create the queue of the GPUs' work %s: %s", qp, strerror(errno));
	if (fd >= 0) {
		close(fd);
		q = queue_open(qp, (int)nsizes, n);
		if (!q)
			rc = EXIT_FAIL;
	}
	if (q) {
		/* The sizes largest first (the heaviest work starts first and
		 * the small ones fill in at the end). */
		for (int k = 0; k < q->nsizes; k++)
			Q_ORDER(q)[k] = k;
		for (int t = 1; t < q->nsizes; t++)
			for (int j = t; j > 0; j--) {
				const struct dims *a = &sizes[Q_ORDER(q)[j - 1]], *b = &sizes[Q_ORDER(q)[j]];
				if ((double)a->rows * a->cols * a->depth >= (double)b->rows * b->cols * b->depth)
					break;
				int32_t tmp_k = Q_ORDER(q)[j];
				Q_ORDER(q)[j] = Q_ORDER(q)[j - 1];
				Q_ORDER(q)[j - 1] = tmp_k;
			}
		for (int s = 0; s < n; s++) {
			Q_DEVICE(q)[s] = g[s].index;
			*Q_GPU(q, s) = g[s];
		}
		/* With --force every size is measured again, wherever it was
		 * before, so the sizes are dealt afresh. */
		if (!o->force && reserve_measured(f, o, q, g, sizes) < 0)
			rc = EXIT_FAIL;
	}
	int *live = xcalloc((size_t)n + 1, sizeof(int)), *status = xcalloc((size_t)n + 1, sizeof(int));
	for (int s = 0; s < n; s++)
		live[s] = 1;
	int left = q ? q->nsizes : 0, nlive = n;
	while (rc == 0 && left > 0 && nlive > 0) {
		int before = left;
		run_round(qp, q, g, live, status);
		int stopped = interrupted();
		for (int s = 0; s < n; s++)
			stopped |= status[s] == EXIT_INTERRUPTED;
		if (stopped) {
			rc = EXIT_INTERRUPTED;
			break;
		}
		left = 0;
		for (int k = 0; k < q->nsizes; k++)
			left += !Q_DONE(q)[k];
		nlive = 0;
		for (int s = 0; s < n; s++)
			nlive += live[s];
		if (left == before && nlive == n) { /* every worker ended well, and nothing moved */
			rc = error("the GPUs' workers left %d size%s untaken", left, left == 1 ? "" : "s");
			break;
		}
	}
	if (rc == 0 && left > 0)
		rc = error("%d size%s left unmeasured: every GPU's worker failed", left, left == 1 ? " is" : "s are");
	if (rc == EXIT_INTERRUPTED)
		error("interrupted: the results measured so far are stored; run the same command to resume");
	if (rc == 0 && !(x && x->no_report))
		rc = report_devices(f, o, q, g, sizes, nreq, t0, probed);
	if (q)
		munmap(q, queue_bytes(q->nsizes, q->nslots));
	if (fd >= 0)
		unlink(qp);
	free(qp);
	free(live);
	free(status);
	free(sizes);
	free(g);
	return rc;
}
