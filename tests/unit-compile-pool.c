/*
 * unit-compile-pool.c - the lazy compile pool: it compiles only the jobs
 * asked for, in any order, reports each once, and stops at once with its
 * workers idle, also when the process catches SIGTERM (as the tuner does:
 * the workers must not inherit that).  And two eager pools of two
 * processes on one cache at once (as the workers of several GPUs): every
 * job is done in both, and compiled once between them.  Usage:
 * unit-compile-pool CACHE_DIR.
 */
#define _DEFAULT_SOURCE /* usleep */
#include "../src/compile/compile-pool.h"
#include "../src/compile/nvrtc-compile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	failures += !cond;
}

/* n jobs of kernels unique to this process and to tag (so that nothing
 * comes from the cache), their sources in src. */
static void unique_jobs(struct compile_job *jobs, char (*src)[160], int n, int tag, const char *name)
{
	memset(jobs, 0, sizeof(*jobs) * (size_t)n);
	for (int i = 0; i < n; i++) {
		snprintf(src[i], sizeof(src[i]), "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = %d.%df; }\n",
			 i * 100000 + (int)getpid() % 100000, tag);
		jobs[i].source = src[i];
		jobs[i].name = name;
	}
}

static void on_term(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
	enum { N = 8 };
	struct compile_job jobs[N];
	char src[N][160];
	unique_jobs(jobs, src, N, 0, "unit");
	struct compile_pool *p = compile_pool_start(jobs, N, "sm_80", argv[1], 3, 1);
	check(p != NULL, "a lazy pool starts");
	compile_pool_request(p, 5);
	check(compile_pool_wait(p, 2) == COMPILE_OK, "a job waited for without a request compiles");
	check(compile_pool_wait(p, 5) == COMPILE_OK, "a requested job compiles");
	check(compile_pool_wait(p, 7) == COMPILE_OK, "a job asked for last compiles");
	check(compile_pool_compiled(p) == 3, "only the three jobs asked for were compiled");
	check(!jobs[0].done && !jobs[1].done && !jobs[6].done, "the others were not");
	compile_pool_stop(p); /* hangs here if a worker ignores SIGTERM */
	check(1, "the pool stops with idle workers while SIGTERM is caught");

	/* Two processes' eager pools on the same new jobs, started together. */
	enum { M = 12 };
	struct compile_job both[M];
	char bsrc[M][160];
	unique_jobs(both, bsrc, M, 5, "shared");
	fflush(NULL);
	pid_t child = fork();
	struct compile_pool *e = compile_pool_start(both, M, "sm_80", argv[1], 3, 0);
	int all = e != NULL;
	for (int i = 0; e && i < M; i++) {
		size_t len = 0;
		char *image = compile_pool_wait(e, (size_t)i) == COMPILE_OK ? compile_pool_cubin(e, (size_t)i, &len) : NULL;
		all &= image != NULL && len > 0;
		free(image);
	}
	size_t mine = e ? compile_pool_compiled(e) : 0;
	compile_pool_stop(e);
	if (child == 0)
		_exit(all ? (int)mine : 100);
	int st = 0;
	waitpid(child, &st, 0);
	int theirs = WIFEXITED(st) ? WEXITSTATUS(st) : 100;
	check(all && theirs <= M, "two pools on one cache: every job done in both");
	printf("# compiled: %zu here, %d in the other process\n", mine, theirs);
	check(mine + (size_t)theirs == M, "each job compiled once between the two pools");

	/* A held eager pool of three workers: the COMPILE_LEAD first ones
	 * compile their jobs (0 and 1 first), the third none of its own
	 * (2, then 5) until compile_pool_go. */
	enum { H = 6 };
	struct compile_job held[H];
	char hsrc[H][160];
	unique_jobs(held, hsrc, H, 25, "held");
	struct compile_pool *h = compile_pool_start(held, H, "sm_80", argv[1], 3, COMPILE_HELD);
	char path[4096];
	int lead_done = 0;
	for (int t = 0; t < 300 && !lead_done; t++) { /* up to 30 s for the lead workers' first jobs */
		lead_done = 1;
		for (int i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/%s.cubin", argv[1], held[i].key);
			lead_done &= access(path, F_OK) == 0;
		}
		usleep(100000);
	}
	check(lead_done, "a held pool's lead workers compile its first jobs before it goes");
	usleep(500000);
	snprintf(path, sizeof(path), "%s/%s.cubin", argv[1], held[2].key);
	check(access(path, F_OK) != 0, "its other workers compile nothing before it goes");
	compile_pool_go(h);
	int every = 1;
	for (int i = 0; i < H; i++)
		every &= compile_pool_wait(h, (size_t)i) == COMPILE_OK;
	check(every && compile_pool_compiled(h) == H, "once it goes, every job is compiled");
	compile_pool_stop(h);

	/* Prefetched jobs of a lazy pool of two: none is handed out while
	 * both workers have jobs asked for; once they are idle, the
	 * prefetched ones compile, and only they. */
	enum { F = 8 };
	struct compile_job pre[F];
	char psrc[F][160];
	unique_jobs(pre, psrc, F, 45, "prefetch");
	struct compile_pool *f = compile_pool_start(pre, F, "sm_80", argv[1], 2, COMPILE_LAZY);
	compile_pool_request(f, 0);
	compile_pool_request(f, 1);
	compile_pool_prefetch(f, 4);
	compile_pool_prefetch(f, 5);
	compile_pool_prefetch(f, 1); /* asked for already: no effect */
	compile_pool_poll(f);
	/* Nothing hands the pool a job for 2 s: had the poll above given a
	 * prefetched one to a worker, its image would be there by then. */
	usleep(2000000);
	snprintf(path, sizeof(path), "%s/%s.cubin", argv[1], pre[4].key);
	check(access(path, F_OK) != 0, "a prefetched job waits while every worker has a job asked for");
	check(compile_pool_wait(f, 0) == COMPILE_OK && compile_pool_wait(f, 1) == COMPILE_OK,
	      "the jobs asked for compile first");
	for (int t = 0; t < 600 && !(pre[4].done && pre[5].done); t++) { /* up to 60 s */
		compile_pool_poll(f);
		usleep(100000);
	}
	check(pre[4].done && pre[5].done && pre[4].status == COMPILE_OK, "idle workers compile the prefetched jobs");
	check(compile_pool_compiled(f) == 4 && !pre[2].done && !pre[3].done && !pre[6].done,
	      "and nothing else");
	check(compile_pool_wait(f, 7) == COMPILE_OK && compile_pool_compiled(f) == 5, "a job asked for afterwards compiles");
	compile_pool_stop(f);
	return failures ? 1 : 0;
}
