/*
 * restart.c - see restart.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "tune/restart.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESUME_ENV "GPUTUNE_RESUME_RUN"
#define COUNT_ENV "GPUTUNE_RESUME_COUNT"
#define MAX_RESTARTS 200

static char **saved_argv;
static long restarts;

void restart_init(int argc, char **argv)
{
	(void)argc;
	saved_argv = argv;
}

int64_t restart_resumed_run(void)
{
	const char *v = getenv(RESUME_ENV);
	long id = 0, n = 0;
	if (v && parse_long(v, 1, 0x7fffffffL, &id) < 0)
		id = 0;
	const char *c = getenv(COUNT_ENV);
	if (c && parse_long(c, 0, 1000000, &n) == 0)
		restarts = n;
	unsetenv(RESUME_ENV);
	unsetenv(COUNT_ENV);
	return id;
}

void restart_self(int64_t run_id)
{
	if (restarts + 1 > MAX_RESTARTS) {
		error("giving up after %d restarts after faulting variants", MAX_RESTARTS);
		return;
	}
	char id[32], count[32];
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	snprintf(count, sizeof(count), "%ld", restarts + 1);
	setenv(RESUME_ENV, id, 1);
	setenv(COUNT_ENV, count, 1);
	fflush(NULL);
	execv("/proc/self/exe", saved_argv);
	error("could not restart to continue after a fault: %s", strerror(errno));
	unsetenv(RESUME_ENV);
	unsetenv(COUNT_ENV);
}

void restart_exec_self(void)
{
	fflush(NULL);
	execv("/proc/self/exe", saved_argv);
	error("could not start gputune again: %s", strerror(errno));
}
