/*
 * tune.h - the tuning job every family command runs: enumerate the space,
 * compile every variant in worker processes, check and time each on the
 * GPU at each size, store everything, report the winners.
 */
#ifndef GPUTUNE_TUNE_H
#define GPUTUNE_TUNE_H

#include "families/family.h"
#include "util/shard.h"
#include "util/sizes.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What a tuning run is asked to do: the command line of a family command
 * (or of validate), parsed and checked once in the command layer
 * (cmd-tune.c).  The run reads these fields and nothing else of the
 * command line.
 */
struct tune_opts {
	const char *cmd;            /* the command's name, for messages */
	const struct dtype *dt;
	int format;                 /* enum out_format */
	struct dims *sizes;         /* the requested sizes (owned) */
	size_t nsizes;
	const char **params;        /* the --param settings, NAME=V,... (the array owned) */
	size_t nparams;
	long sample_count;          /* 0: the whole space */
	uint64_t sample_seed;
	const char *arch;           /* --arch (checked against NVRTC), or NULL: the GPU's */
	int strategy;               /* strategy.h */
	long budget_n;              /* variants per size; 0: none */
	int budget_default;         /* budget_n is the family's (no --budget): a size of long launches may take less */
	double budget_s;            /* seconds per size; 0: none */
	long probe_search;          /* a search's budget at the matrix multiply's searched probes; 0: none */
	uint64_t seed;
	int reps, workers, device;  /* workers 0: one per CPU */
	int dry_run, list, quiet, hot, force, no_probe, show_log;
	const char *templates, *cache_dir, *db; /* NULL: the defaults */
	/* This process's share (shard.h; n 0: all of it): of the variants
	 * for a dry run, else of the sizes, the extra ones included. */
	struct shard shard;
	/* --devices: every visible GPU, or these (ndevices of them); neither:
	 * the one of --device. */
	int devices_all;
	int *devices;               /* owned */
	size_t ndevices;
};
void tune_opts_free(struct tune_opts *o);

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
/* Tunes f as o asks, changed by x (NULL: none).  The exit code. */
int tune_run(const struct family *f, const struct tune_opts *o, struct tune_extra *x);
/* Whether this process is a worker of a run over several GPUs (--devices),
 * which measures its share of the sizes in tune_run and reports nothing:
 * the process that started it reports. */
int tune_device_worker(void);

/* The per-size result table of a finished or resumed run, read back from
 * the database. */
struct tune_report_key {
	int64_t device_id, family_id;
	const char *dtype, *mode;
};
int tune_report(sqlite3 *db, const struct family *f, const struct tune_report_key *k,
		const struct dims *sizes, size_t nsizes, int format);

#endif
