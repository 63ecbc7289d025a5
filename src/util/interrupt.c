/*
 * interrupt.c - see interrupt.h.  Only async-signal-safe work happens in
 * the handler (clock_gettime is such): it sets a flag, or on a second
 * signal a second or more after the first calls _exit.
 */
#define _POSIX_C_SOURCE 200809L
#include "util/interrupt.h"
#include "util/util.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t flag;
static pid_t installer; /* the process that installed the handler */
static struct timespec first; /* when the first signal came */

/* A signal within this long of the first is the same request: `timeout`
 * and `kill` to a process group deliver one request to the process
 * twice, which must not turn a clean stop into an abrupt one. */
#define SAME_REQUEST_NS 1000000000L

static void on_signal(int sig)
{
	(void)sig;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (flag) {
		long ns = (long)(now.tv_sec - first.tv_sec) * 1000000000L + (now.tv_nsec - first.tv_nsec);
		if (ns >= SAME_REQUEST_NS)
			_exit(EXIT_INTERRUPTED);
		return;
	}
	first = now;
	flag = 1;
	/* Said at once, since the work in hand may take a while to finish
	 * (a long merge rolls back, a variant finishes compiling): write(2)
	 * is async-signal-safe where stdio is not. */
	static const char msg[] = "\ngputune: interrupted: stopping after the work in hand "
				  "(signal again, a second later, to stop at once)\n";
	if (getpid() == installer) { /* not a forked child's copy of the handler */
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
	}
}

void interrupt_install(void)
{
	struct sigaction sa;
	installer = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int interrupted(void)
{
	return flag != 0;
}
