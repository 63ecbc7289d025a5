/*
 * results.h - the tuned results a user asks about: the winners from the
 * user's database and from the results shipped inside gputune (measured
 * on the project's own GPU machine), merged so that the user's own result
 * wins for the same device, kernel, element type, size and timing mode.
 * Read by `gputune query` and `gputune export`.
 */
#ifndef GPUTUNE_RESULTS_H
#define GPUTUNE_RESULTS_H

#include <sqlite3.h>
#include <stddef.h>

struct result {
	/* The device. */
	char *uuid, *device;
	int cc_major, cc_minor, sm_count, l2_bytes, bus_width_bits, mem_clock_khz, driver_version;
	long long mem_bytes;
	/* The key. */
	char *family, *dtype, *mode;
	long rows, cols, depth; /* depth: K of a 3-D size, else 1 */
	/* The winner and its measurement. */
	char *params, *source_hash;
	double median_ms, min_ms, max_ms, p25_ms, p75_ms, gbps, fraction;
	char *status, *reason; /* "ok", or how it failed and why */
	double ceiling_gbps, memcpy_gbps, copy_kernel_gbps;
	char *ceiling_kind; /* "copy", "read" or "fma" */
	int launches;
	int registers; /* a thread's, as NVRTC built the kernel for the run; 0 unknown */
	/* Its run. */
	char *run_uuid, *started_at, *gputune_version, *nvrtc_version;
	char *conditions; /* run.conditions: "recorded", why not, or "" */
	int repetitions;
	int shipped; /* from the shipped results, not the user's database */
};

struct result_set {
	struct result *r;
	size_t n;
};

struct result_filter {
	const char *device; /* NAME (substring, any case), UUID or INDEX; NULL: all */
	const char *family; /* NULL: all */
	const char *dtype;
	const char *mode;   /* "flushed" / "hot"; NULL: all */
	int no_shipped;     /* leave out the shipped results */
};

/*
 * Loads, from the database at db_path (a missing file is an empty
 * database) and, unless flt->no_shipped, the shipped results (the user's
 * first), all from one opening of each: the winners matching flt, and
 * the latest 'ok' measurement of every variant at every size (not
 * filtered by device).  Returns 0, or -1 after one line of error (a bad
 * database, a device that matches nothing, a device text that matches
 * several different GPUs); nothing is left to free then.
 */
int results_load(const char *db_path, const struct result_filter *flt, struct result_set *winners,
		 struct result_set *latest);
void results_free(struct result_set *s);

/* Whether text (a --device value) names the device with this database
 * index, UUID and name: the index when text is all digits, else the UUID
 * (any case) or a substring of the name (any case). */
int results_device_matches(const char *text, long long id, const char *uuid, const char *name);

/* Binds flt's family, dtype and mode to parameters 1, 2 and 3 of st
 * (statements test them with "?N IS NULL OR ..."). */
void results_bind_filter(sqlite3_stmt *st, const struct result_filter *flt);

/* What results_read reads. */
enum results_which {
	RESULTS_WINNERS,   /* the winners */
	RESULTS_LATEST_OK, /* the latest measurement of every variant at every size, when 'ok' */
	RESULTS_LATEST     /* the latest measurement of every variant at every size, any status */
};
/* Reads one database into s (appending), filtered by family/dtype/mode
 * but not by device. */
int results_read(sqlite3 *db, const struct result_filter *flt, int shipped, int which, struct result_set *s);

/* The shipped results in a fresh in-memory database (caller closes). */
int results_open_shipped(sqlite3 **db);


#endif
