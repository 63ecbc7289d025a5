/*
 * db.h - the tuning database: opening (with schema migrations and the
 * checks that keep a bad file untouched), and the statements that write
 * results.  SQL text never contains user-supplied strings: every value is
 * a bound parameter.
 *
 * Schema migrations follow one rule: PRAGMA user_version is the number of
 * steps of db_migrations[] applied.  A new file gets every step in one
 * transaction; an older file gets each missing step in its own
 * transaction; a newer file is refused; a read-only file is never
 * migrated.  Steps are append-only: never edit one that has shipped.
 */
#ifndef GPUTUNE_DB_H
#define GPUTUNE_DB_H

#include "util/sizes.h"

#include <sqlite3.h>
#include <stdint.h>

/* 'GTUN': marks a SQLite file as gputune's. */
#define DB_APPLICATION_ID 0x4754554e

extern const char *const db_migrations[]; /* embedded file names, NULL-terminated */
int db_schema_version(void);              /* the version this gputune writes */

enum {
	DB_WRITE = 1 << 0,   /* open for writing (create the file when missing) */
	DB_MISSING_OK = 1 << 1 /* read-only: a missing file is not an error (*db = NULL) */
};

/* --db, else $GPUTUNE_DB, else $XDG_DATA_HOME/gputune/gputune.db, else
 * ~/.local/share/gputune/gputune.db.  Caller frees. */
char *db_path_from(const char *option);

/*
 * Opens path.  Returns 0 and *db, or -1 after one clear line (a directory,
 * not a SQLite file, corrupt, a newer or a negative schema version, not
 * writable, ...).  On failure the file is left exactly as it was.  A file
 * that exists but holds nothing yet (an empty file) is created a schema
 * only with DB_WRITE; without it, it reads as a missing file.  A file this
 * process may not write (or whose directory it may not) is opened read
 * only, without the files SQLite would otherwise leave beside it.  Waits
 * for another process's lock end after 60 s, with a message.
 */
int db_open(const char *path, int flags, sqlite3 **db);
/* A database in memory with the current schema (for the shipped results). */
int db_open_memory(sqlite3 **db);
void db_close(sqlite3 *db);

/* Makes a command's waits on db end at Ctrl-C or SIGTERM, and its
 * statements stop there (SQLITE_INTERRUPT), so that a long merge can be
 * rolled back within a second.  For commands whose writes are all or
 * nothing: a tuning run, which commits what it measured after an
 * interrupt, must not call it. */
void db_interruptible(sqlite3 *db);

/* Runs SQL with no results; reports and returns -1 on failure. */
int db_exec(sqlite3 *db, const char *sql);
/* BEGIN IMMEDIATE (so concurrent writers queue on the busy timeout rather
 * than fail on upgrade), COMMIT, ROLLBACK. */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);

/* Prepares sql; reports and returns NULL on failure. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);
/* Steps a statement that returns no rows and finalizes it. */
int db_step_done(sqlite3 *db, sqlite3_stmt *st);

/* The id of the row matching, inserting it first when missing; -1 on error. */
struct gpu_info;
struct family;
int64_t db_device_id(sqlite3 *db, const struct gpu_info *g);
int64_t db_family_id(sqlite3 *db, const struct family *f);
int64_t db_variant_id(sqlite3 *db, int64_t family_id, const char *dtype, const char *params,
		      const char *source_hash);

/*
 * Recomputes the winners: for every key matching the given filters (a
 * filter of -1 / NULL matches all; size NULL: every size), the fastest 'ok' measurement among the
 * latest measurement of each variant; of equal figures, the one of the
 * most launches (a kernel of a few microseconds times in steps of the
 * timer's, so several variants can share the fastest figure, and the one
 * the confirmation round timed with thousands of launches is the one to
 * trust over a median of 30).  Keys left with no 'ok' measurement lose
 * their winner row.
 */
int db_update_winners(sqlite3 *db, int64_t device_id, int64_t family_id, const char *dtype,
		      const struct dims *size, const char *mode);

/* "2026-11-22T03:04:05Z" for now, into buf[32]. */
void db_timestamp(char buf[32]);

#endif
