/*
 * tune.h - the tuning job every family command runs: enumerate the space,
 * compile every variant in worker processes, check and time each on the
 * GPU at each size, store everything, report the winners.
 */
#ifndef GPUTUNE_TUNE_H
#define GPUTUNE_TUNE_H

#include "cmd.h"
#include "family.h"
#include "sizes.h"

#include <sqlite3.h>
#include <stdint.h>

/* Options the family commands share with commands built on the tuner. */
#define TUNE_OPT_DTYPE { "dtype", "TYPE", "element type: f32 (default), or another of the family's (listed below)", 0, 0 }
#define TUNE_OPT_REPS { "reps", "N", "timed launches per measurement, at least 30 (default 30)", 0, 0 }
#define TUNE_OPT_JOBS { "jobs", "N", "compile worker processes (default: one per CPU)", 0, 0 }
#define TUNE_OPT_CACHE_DIR \
	{ "cache-dir", "DIR", "compile cache (default $GPUTUNE_CACHE_DIR, else $XDG_CACHE_HOME/gputune)", 0, 0 }
#define TUNE_OPT_TEMPLATES { "templates", "DIR", "read templates from DIR instead of the built-in copies", 0, 0 }
#define TUNE_OPT_QUIET { "quiet", NULL, "no progress lines on stderr", 0, 0 }

/* The options of `gputune <family>`, shared by every family command. */
extern const struct cmd_option tune_options[];
extern const char tune_description[];

int tune_main(const struct family *f, struct args *a);

/* What another command (validate) changes in a tuning run. */
struct tune_extra {
	const struct dims *sizes; /* measure these instead of --sizes */
	size_t nsizes;
	char **points;             /* variants (canonical names) measured beside the space */
	size_t npoints;
	int no_probe;              /* no extra sizes */
	int no_report;             /* no table at the end: the caller reports */
	int confirm_points;        /* n > 0: points[k n .. k n + n - 1] are confirmed at sizes[k] as the winner is */
	double seconds;            /* out: the run's wall time */
	int64_t run_id;            /* out: the run's database id (0: none started) */
};
/* tune_main, changed by x (NULL: none).  The exit code. */
int tune_run(const struct family *f, struct args *a, struct tune_extra *x);

/* The per-size result table of a finished or resumed run, read back from
 * the database. */
struct tune_report_key {
	int64_t device_id, family_id;
	const char *dtype, *mode;
};
int tune_report(sqlite3 *db, const struct family *f, const struct tune_report_key *k,
		const struct dims *sizes, size_t nsizes, int format);

#endif
