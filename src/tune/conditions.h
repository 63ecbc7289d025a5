/*
 * conditions.h - run conditions in the database: what NVML read while
 * each size was timed (nvml.h), stored per run and size, and the text
 * the run summary and `gputune query --all` show of them.
 */
#ifndef GPUTUNE_CONDITIONS_H
#define GPUTUNE_CONDITIONS_H

#include "gpu/nvml.h"
#include "util/sizes.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* run.conditions: "recorded", or why not. */
int conditions_mark_run(sqlite3 *db, int64_t run_id, const char *text);

/* Stores c for one size of a run (replacing an earlier reading of the
 * same size in the same run).  0 or -1. */
int conditions_store(sqlite3 *db, int64_t run_id, const char *dtype, const struct dims *d,
		     const struct gpu_conditions *c);

/* One line on the ranges over a whole run, for its summary: "SM 1980 MHz,
 * memory 3201 MHz, 36-58 C, 121-655 W, no clock limits while timing", or
 * with the limit reasons and how many sizes they touched.  Writes "" when
 * the run recorded nothing. */
void conditions_run_text(sqlite3 *db, int64_t run_id, char *buf, size_t n);

#endif
