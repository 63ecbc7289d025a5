/*
 * unit-check.h - the TAP-like lines of the C unit tests that judge one
 * case at a time: check() prints "ok N - what" or "not ok N - what:
 * detail", and unit_done() the count, returning the exit status.
 */
#ifndef GPUTUNE_UNIT_CHECK_H
#define GPUTUNE_UNIT_CHECK_H

#include <stdio.h>

static int unit_checks, unit_failed;

static void check(int pass, const char *what, const char *detail)
{
	unit_checks++;
	if (pass) {
		printf("ok %d - %s\n", unit_checks, what);
	} else {
		unit_failed++;
		printf("not ok %d - %s%s%s\n", unit_checks, what, detail ? ": " : "", detail ? detail : "");
	}
}

static int unit_done(void)
{
	printf("# %d checks, %d failed\n", unit_checks, unit_failed);
	return unit_failed != 0;
}

#endif
