/*
 * interrupt.c - see interrupt.h.  Only async-signal-safe work happens in
 * the handler: it sets a flag, or on the second signal calls _exit.
 */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"
#include "util.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t flag;

static void on_signal(int sig)
{
	(void)sig;
	if (flag)
		_exit(EXIT_INTERRUPTED);
	flag = 1;
}

void interrupt_install(void)
{
	struct sigaction sa;
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
