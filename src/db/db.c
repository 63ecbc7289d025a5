/*
 * db.c - opening, checking and migrating the tuning database.
 *
 * The order of checks matters for "a bad file is left as it was": every
 * check before a migration only reads, and nothing is written (not even
 * the WAL switch) until the file is known to be a gputune database of a
 * version this build can write.
 */
#define _POSIX_C_SOURCE 200809L
#include "db/db.h"
#include "util/embedded.h"
#include "families/family.h"
#include "gpu/gpu.h"
#include "util/interrupt.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const db_migrations[] = {
	"db/001-initial.sql",
	"db/002-quartiles.sql",
	"db/003-families.sql",
	"db/004-conditions.sql",
	"db/005-depth.sql",
	"db/006-registers.sql",
	NULL
};

int db_schema_version(void)
{
	int n = 0;
	while (db_migrations[n])
		n++;
	return n;
}

char *db_path_from(const char *option)
{
	if (option && *option)
		return xstrdup(option);
	const char *env = getenv("GPUTUNE_DB");
	if (env && *env)
		return xstrdup(env);
	env = getenv("XDG_DATA_HOME");
	if (env && *env)
		return xasprintf("%s/gputune/gputune.db", env);
	env = getenv("HOME");
	return xasprintf("%s/.local/share/gputune/gputune.db", env && *env ? env : ".");
}

int db_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * Waiting for a lock.  No wait is unbounded, whoever holds the lock: one
 * deadline of BUSY_WAIT_S seconds of wall-clock time covers SQLite's busy
 * handler (below) and the retries of exec_waiting together.  A
 * connection marked interruptible (db_interruptible) also stops waiting
 * as soon as Ctrl-C or SIGTERM arrives.
 */
#define BUSY_WAIT_S 60.0

/* The deadline: BUSY_WAIT_S, or $GPUTUNE_LOCK_TIMEOUT seconds (1 to a day)
 * where that is set to such a number. */
static double lock_timeout(void)
{
	static double limit; /* read once: the busy handler asks every few ms */
	if (limit == 0) {
		const char *env = getenv("GPUTUNE_LOCK_TIMEOUT");
		long v;
		limit = env && *env && parse_long(env, 1, 86400, &v) == 0 ? (double)v : BUSY_WAIT_S;
	}
	return limit;
}

/* When the current wait began (0: none).  A process waits for one lock at
 * a time, in one thread, so one clock serves every connection. */
static double wait_began;
static int in_retry; /* the wait is retry_while_busy's, begun there */
/* Set by db_interruptible: waits end at Ctrl-C or SIGTERM. */
static int waits_interruptible;

static int give_up_waiting(void)
{
	if (waits_interruptible && interrupted())
		return 1;
	double now = now_seconds();
	if (wait_began == 0)
		wait_began = now;
	return now - wait_began >= lock_timeout();
}

/* SQLite's busy handler: sleep a little and try again, until the
 * deadline or an interrupt.  count is 0 at the start of each wait (a
 * wait retry_while_busy already began keeps its start).  The first
 * sleeps are short because the usual holder is another GPU's worker
 * storing one measurement, a transaction of a fraction of a millisecond,
 * which a first sleep of 2 ms overshot tenfold: with four GPUs' workers
 * storing every few milliseconds, each spent 0.8-1.4 s storing its quarter
 * of a warm transpose run where one GPU alone spent 1.7 s on all of it.
 * A longer hold (a checkpoint, another command's import) backs off to
 * 1 ms, then 20 ms. */
static int on_busy(void *arg, int count)
{
	(void)arg;
	if (count == 0 && !in_retry)
		wait_began = 0;
	if (give_up_waiting())
		return 0;
	struct timespec ts = { 0, count < 20 ? 100000L : count < 40 ? 1000000L : 20000000L };
	nanosleep(&ts, NULL);
	return 1;
}

/* The message for a wait given up; -1. */
static int busy_failure(sqlite3 *db)
{
	const char *file = sqlite3_db_filename(db, "main");
	if (waits_interruptible && interrupted())
		return fail("interrupted while waiting for %s, which another process has locked",
			    file && *file ? file : "the database");
	return fail("%s is locked by another process: gave up after %.0f s (GPUTUNE_LOCK_TIMEOUT sets the limit)",
		    file && *file ? file : "the database", lock_timeout());
}

/* Returns non-zero, which aborts the statement running, once an
 * interrupt came to an interruptible connection. */
static int on_progress(void *arg)
{
	(void)arg;
	return interrupted();
}

void db_interruptible(sqlite3 *db)
{
	waits_interruptible = 1;
	sqlite3_progress_handler(db, 1000, on_progress, NULL);
}

/* Runs attempt(db, arg), a SQLite result code, and again while it answers
 * busy, until the deadline; the last code.  The busy handler covers most
 * waits, but SQLite returns busy at once where waiting could deadlock or
 * a lock is taken outside the handler (a journal mode switch, WAL
 * recovery): sixteen processes creating one database met that about once
 * in 300 openings. */
static int retry_while_busy(sqlite3 *db, int (*attempt)(sqlite3 *db, void *arg), void *arg)
{
	wait_began = 0;
	in_retry = 1;
	int rc;
	while (((rc = attempt(db, arg)) == SQLITE_BUSY || rc == SQLITE_LOCKED) && !give_up_waiting()) {
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
	}
	in_retry = 0;
	return rc;
}

static int exec_sql(sqlite3 *db, void *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* Runs sql, again while SQLite answers busy, until the deadline.  0, or
 * -1 after a message. */
static int exec_waiting(sqlite3 *db, const char *sql)
{
	int rc = retry_while_busy(db, exec_sql, (void *)sql);
	if (rc == SQLITE_OK)
		return 0;
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return busy_failure(db);
	return fail("database: %s", sqlite3_errmsg(db));
}

int db_begin(sqlite3 *db)
{
	return exec_waiting(db, "BEGIN IMMEDIATE");
}

int db_commit(sqlite3 *db)
{
	return db_exec(db, "COMMIT");
}

void db_rollback(sqlite3 *db)
{
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		error("database: %s", sqlite3_errmsg(db));
		return NULL;
	}
	return st;
}

int db_step_done(sqlite3 *db, sqlite3_stmt *st)
{
	int r = sqlite3_step(st);
	sqlite3_finalize(st);
	if (r != SQLITE_DONE && r != SQLITE_ROW) {
		error("database: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errcode(db);
	int r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? SQLITE_OK : r;
}

static int apply_steps(sqlite3 *db, int from, int to)
{
	for (int v = from; v < to; v++) {
		const struct embedded_file *e = embedded_find(db_migrations[v]);
		if (!e)
			return fail("schema step %s is missing from this build", db_migrations[v]);
		if (db_exec(db, e->text) < 0)
			return -1;
	}
	char sql[96];
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; PRAGMA application_id = %d;", to,
		 DB_APPLICATION_ID);
	return db_exec(db, sql) < 0 ? -1 : 0;
}

/*
 * Brings db to the current schema.  Any number of processes may race here
 * (a job array opening one new database): each step runs in an IMMEDIATE
 * transaction that reads user_version again inside it, so one process
 * applies the step and the others, once the busy timeout lets them in,
 * find it done.  A new file gets the whole schema in one transaction.
 */
/* The families' rows as their descriptors describe them, in the
 * migration's transaction: a shape written wrong by an older gputune (a
 * matrix product's '2d' before schema 6) is put right.  The descriptors,
 * not a schema step, know each family's shape. */
static int sync_families(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE family SET shape = ?1, metric = ?2 WHERE name = ?3"
					  " AND (shape <> ?1 OR metric <> ?2)");
	if (!st)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && family_table[i]; i++) {
		const struct family *f = family_table[i];
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, family_shape_name(f), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, family_metric_unit(f), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, f->name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	return rc;
}

static int migrate(sqlite3 *db, const char *path)
{
	int want = db_schema_version();
	for (;;) {
		int have = 0;
		if (db_begin(db) < 0)
			return -1;
		if (pragma_int(db, "PRAGMA user_version", &have) != SQLITE_OK) {
			db_rollback(db);
			return fail("%s: cannot read the schema version: %s", path, sqlite3_errmsg(db));
		}
		if (have >= want)
			return db_commit(db);
		int to = have == 0 ? want : have + 1;
		if (apply_steps(db, have, to) < 0 || (to == want && sync_families(db) < 0)) {
			db_rollback(db);
			if (have == 0)
				return fail("%s: could not create the schema", path);
			return fail("%s: migration from schema version %d to %d failed", path, have, to);
		}
		if (db_commit(db) < 0)
			return -1;
	}
}

/* One line for a file SQLite could not open or read (msg: SQLite's own
 * words, taken before anything else ran on the connection, since a
 * rollback would replace them with "not an error"); closes db; -1. */
static int open_error(sqlite3 *db, const char *path, int rc, const char *msg)
{
	if (!msg)
		msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
	if (rc == SQLITE_NOTADB)
		error("%s is not a SQLite database", path);
	else if (rc == SQLITE_CORRUPT)
		error("%s is corrupt (SQLite: %s)", path, msg);
	else
		error("cannot open %s: %s", path, msg);
	if (db)
		sqlite3_close(db);
	return -1;
}

/* NULL when this process may write the database at path (which exists
 * or not); else why not, in buf.  SQLite writes its journal (or the WAL
 * and its index) beside the file, so the directory must be writable too. */
static const char *why_not_writable(const char *path, int exists, char *buf, size_t n)
{
	if (exists && access(path, W_OK) < 0) {
		snprintf(buf, n, "%s", strerror(errno));
		return buf;
	}
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	const char *why = NULL;
	struct stat st;
	/* A directory still to be created is mkdir_p's to report. */
	if (stat(dir, &st) == 0 && access(dir, W_OK | X_OK) < 0) {
		snprintf(buf, n, "its directory %s is not writable (%s), and SQLite keeps its journal there", dir,
			 strerror(errno));
		why = buf;
	}
	free(dir);
	return why;
}

/* "file:PATH?immutable=1", PATH percent-encoded, for sqlite3_open_v2 with
 * SQLITE_OPEN_URI.  Caller frees. */
static char *immutable_uri(const char *path)
{
	struct strbuf sb = {0};
	sb_puts(&sb, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("/._-~", *c))
			sb_add(&sb, (const char *)c, 1);
		else
			sb_printf(&sb, "%%%02X", *c);
	}
	sb_puts(&sb, "?immutable=1");
	return sb_detach(&sb);
}

/* Opens path as SQLite, read-write (creating it when missing) or read
 * only.  A read-only open of a file whose WAL is not there (no process
 * has it open) reads it as immutable: SQLite otherwise creates the WAL's
 * index beside it, which fails in a directory this process may not write
 * and leaves files behind in one it may.  (A writer that opens the file
 * meanwhile and checkpoints into it could be read half-way: the price of
 * reading where nothing may be written.) */
static int open_file(const char *path, int writable, int exists, sqlite3 **db)
{
	if (writable)
		return sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE), NULL);
	char *wal = xasprintf("%s-wal", path);
	int has_wal = access(wal, F_OK) == 0;
	free(wal);
	if (has_wal)
		return sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
	char *uri = immutable_uri(path);
	int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	return rc;
}

/* What read_header reads, and SQLite's message when it fails. */
struct header_read {
	int version, app, empty;
	char msg[256];
};

static int read_header_once(sqlite3 *db, void *arg)
{
	struct header_read *h = arg;
	int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = pragma_int(db, "PRAGMA user_version", &h->version);
	if (rc == SQLITE_OK)
		rc = pragma_int(db, "PRAGMA application_id", &h->app);
	int tables = -1;
	if (rc == SQLITE_OK)
		rc = pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables);
	h->empty = tables == 0;
	/* Taken before the rollback, which would replace it with "not an
	 * error". */
	if (rc != SQLITE_OK)
		snprintf(h->msg, sizeof(h->msg), "%s", sqlite3_errmsg(db));
	sqlite3_exec(db, rc == SQLITE_OK ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* The header fields and whether the file has no table, read in one read
 * transaction: another process may be creating the schema meanwhile, and
 * must be seen either before or after, never half-way.  Busy past the
 * busy handler, another process is switching the file's journal mode or
 * recovering it, and the read is tried again.  SQLITE_OK, or the error
 * with SQLite's message in h->msg. */
static int read_header(sqlite3 *db, struct header_read *h)
{
	memset(h, 0, sizeof(*h));
	return retry_while_busy(db, read_header_once, h);
}

/* 0 when SQLite's quick check passes; otherwise -1 after one line. */
static int quick_check(sqlite3 *db, const char *path)
{
	char *msg = NULL;
	int ok = 0;
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
		const char *res = (const char *)sqlite3_column_text(q, 0);
		ok = res && !strcmp(res, "ok");
		if (!ok && res)
			msg = xstrdup(res);
	}
	if (!ok && !msg)
		msg = xstrdup(sqlite3_errmsg(db));
	sqlite3_finalize(q);
	if (!ok) {
		/* One line, however many problems quick_check lists. */
		for (char *c = msg; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' ';
		if (strlen(msg) > 160)
			strcpy(msg + 150, "...");
		error("%s is corrupt (SQLite: %s)", path, msg);
	}
	free(msg);
	return ok ? 0 : -1;
}

/* The directory path is in, created when missing; 0 or -1. */
static int make_parent(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir) < 0)
			rc = fail("cannot create the directory %s: %s", dir, strerror(errno));
	}
	free(dir);
	return rc;
}

/* What the header says of a file that exists: 0 when this build may use
 * it, else -1 after one line (and db is closed). */
static int check_header(sqlite3 *db, const char *path, int version, int app, int writable)
{
	int want = db_schema_version();
	const char *why = NULL;
	if (app != DB_APPLICATION_ID)
		why = "is a SQLite database but not a gputune database";
	else if (version < 0)
		why = "has a negative schema version, which no gputune writes: it is not a database this gputune can use";
	if (why) {
		sqlite3_close(db);
		return fail("%s %s", path, why);
	}
	if (quick_check(db, path) < 0) {
		sqlite3_close(db);
		return -1;
	}
	if (version > want) {
		sqlite3_close(db);
		return fail("%s has schema version %d, newer than this gputune understands (%d): "
			    "use a newer gputune", path, version, want);
	}
	if (version < want && !writable) {
		sqlite3_close(db);
		return fail("%s has the older schema version %d and is read-only, so it cannot be "
			    "migrated to %d", path, version, want);
	}
	return 0;
}

int db_open(const char *path, int flags, sqlite3 **out)
{
	*out = NULL;
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return fail("%s is a directory, not a database file", path);
	if (!exists && !(flags & DB_WRITE)) {
		if (flags & DB_MISSING_OK)
			return 0;
		return fail("no tuning database at %s (a tuning run creates it)", path);
	}
	char why[PATH_MAX + 160];
	const char *no_write = why_not_writable(path, exists, why, sizeof(why));
	if ((flags & DB_WRITE) && no_write)
		return fail("%s is not writable: %s", path, no_write);
	if (!exists && make_parent(path) < 0)
		return -1;
	/* A read-only command still migrates a file it may write; a file it
	 * may not write is opened read-only and never migrated. */
	int writable = !no_write;
	sqlite3 *db = NULL;
	int rc = open_file(path, writable, exists, &db);
	if (rc != SQLITE_OK)
		return open_error(db, path, rc, NULL);
	sqlite3_extended_result_codes(db, 0);
	sqlite3_busy_handler(db, on_busy, NULL);
	struct header_read h;
	rc = read_header(db, &h);
	if (rc != SQLITE_OK)
		return open_error(db, path, rc, h.msg);
	int version = h.version, app = h.app, empty = h.empty;
	int blank = version == 0 && app == 0 && empty;
	if (blank && !(flags & DB_WRITE)) {
		/* A file with nothing in it yet (an empty file, say): a reading
		 * command finds no results there and writes nothing. */
		sqlite3_close(db);
		if (flags & DB_MISSING_OK)
			return 0;
		return fail("%s holds no tuning database yet (a tuning run creates one)", path);
	}
	if (exists && !blank && check_header(db, path, version, app, writable) < 0)
		return -1;
	if (writable && version < db_schema_version()) {
		/* WAL lets readers and a writer share the file.  It is a property
		 * of the file, set once when gputune creates or migrates it, so an
		 * open that changes nothing else writes nothing. */
		if (migrate(db, path) < 0 || exec_waiting(db, "PRAGMA journal_mode = WAL") < 0) {
			sqlite3_close(db);
			return -1;
		}
	}
	db_exec(db, "PRAGMA foreign_keys = ON");
	/* A tuning run commits every measurement alone, so that a crash loses
	 * none.  In WAL mode a commit under NORMAL is as safe against a crash
	 * of the process (the log is written before COMMIT returns) and only
	 * a crash of the machine can take back the last few, which a resumed
	 * run measures again; FULL adds an fsync to every commit (0.85 ms
	 * against 0.07 ms a one-row commit on a desktop disk), and the workers
	 * of a run over several GPUs take turns at that one lock. */
	if (writable)
		db_exec(db, "PRAGMA synchronous = NORMAL");
	*out = db;
	return 0;
}

int db_open_memory(sqlite3 **out)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		return open_error(db, ":memory:", SQLITE_CANTOPEN, NULL);
	if (migrate(db, ":memory:") < 0) {
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

void db_close(sqlite3 *db)
{
	if (db)
		sqlite3_close(db);
}

void db_timestamp(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Steps an INSERT ... RETURNING id and finalizes it: the id, or -1. */
static int64_t step_returning_id(sqlite3 *db, sqlite3_stmt *st)
{
	int64_t id = -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else
		error("database: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return id;
}

int64_t db_device_id(sqlite3 *db, const struct gpu_info *g)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO device (uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes,"
		" bus_width_bits, mem_clock_khz, driver_version) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"
		" ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, driver_version = excluded.driver_version"
		" RETURNING id");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, g->uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, g->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, g->cc_major);
	sqlite3_bind_int(st, 4, g->cc_minor);
	sqlite3_bind_int(st, 5, g->sm_count);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)g->mem_bytes);
	sqlite3_bind_int(st, 7, g->l2_bytes);
	sqlite3_bind_int(st, 8, g->bus_width_bits);
	sqlite3_bind_int(st, 9, g->mem_clock_khz);
	sqlite3_bind_int(st, 10, g->driver_version);
	return step_returning_id(db, st);
}

int64_t db_family_id(sqlite3 *db, const struct family *f)
{
	struct strbuf sb = {0};
	for (int i = 0; i < f->nparams; i++)
		sb_printf(&sb, "%s%s", i ? "," : "", f->params[i].name);
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO family (name, params, shape, metric) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (name) DO UPDATE SET params = excluded.params, shape = excluded.shape,"
		" metric = excluded.metric RETURNING id");
	if (!st) {
		sb_free(&sb);
		return -1;
	}
	sqlite3_bind_text(st, 1, family_store_name(f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sb.buf, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, family_shape_name(f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, family_metric_unit(f), -1, SQLITE_STATIC);
	sb_free(&sb);
	return step_returning_id(db, st);
}

int64_t db_variant_id(sqlite3 *db, int64_t family_id, const char *dtype, const char *params,
		      const char *source_hash)
{
	/* The no-op update makes RETURNING answer for an existing row too. */
	sqlite3_stmt *st = db_prepare(db,
		"INSERT INTO variant (family_id, dtype, params, source_hash) VALUES (?1,?2,?3,?4)"
		" ON CONFLICT (family_id, dtype, params, source_hash) DO UPDATE SET params = excluded.params"
		" RETURNING id");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, family_id);
	sqlite3_bind_text(st, 2, dtype, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, source_hash, -1, SQLITE_TRANSIENT);
	return step_returning_id(db, st);
}

int db_update_winners(sqlite3 *db, int64_t device_id, int64_t family_id, const char *dtype,
		      const struct dims *size, const char *mode)
{
	static const char filter[] =
		" (?1 < 0 OR %s = ?1) AND (?2 < 0 OR %s = ?2) AND (?3 IS NULL OR %s = ?3)"
		" AND (?4 < 0 OR %s = ?4) AND (?5 < 0 OR %s = ?5) AND (?6 IS NULL OR %s = ?6)"
		" AND (?7 < 0 OR %s = ?7)";
	char *del_where = xasprintf(filter, "device_id", "family_id", "dtype", "rows", "cols", "timing_mode",
				    "depth");
	char *sel_where = xasprintf(filter, "r.device_id", "v.family_id", "v.dtype", "m.rows", "m.cols",
				    "r.timing_mode", "m.depth");
	char *del = xasprintf("DELETE FROM winner WHERE %s", del_where);
	char *ins = xasprintf(
		"WITH latest AS ("
		"  SELECT m.id, m.status, m.gbps, m.launches, m.rows, m.cols, m.depth, r.device_id, r.timing_mode,"
		"         v.family_id, v.dtype,"
		"         row_number() OVER (PARTITION BY r.device_id, r.timing_mode, m.variant_id,"
		"                            m.rows, m.cols, m.depth ORDER BY m.id DESC) AS rn"
		"  FROM measurement m JOIN run r ON r.id = m.run_id JOIN variant v ON v.id = m.variant_id"
		"  WHERE %s"
		"), ranked AS ("
		"  SELECT *, row_number() OVER (PARTITION BY device_id, family_id, dtype, rows, cols, depth,"
		"                               timing_mode ORDER BY gbps DESC, launches DESC, id) AS rk"
		"  FROM latest WHERE rn = 1 AND status = 'ok'"
		") INSERT INTO winner (device_id, family_id, dtype, rows, cols, depth, timing_mode, measurement_id)"
		"  SELECT device_id, family_id, dtype, rows, cols, depth, timing_mode, id FROM ranked WHERE rk = 1",
		sel_where);
	int rc = 0;
	const char *sqls[2] = { del, ins };
	for (int k = 0; k < 2 && rc == 0; k++) {
		sqlite3_stmt *st = db_prepare(db, sqls[k]);
		if (!st) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(st, 1, device_id);
		sqlite3_bind_int64(st, 2, family_id);
		if (dtype)
			sqlite3_bind_text(st, 3, dtype, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 4, size ? size->rows : -1);
		sqlite3_bind_int64(st, 5, size ? size->cols : -1);
		sqlite3_bind_int64(st, 7, size ? size->depth : -1);
		if (mode)
			sqlite3_bind_text(st, 6, mode, -1, SQLITE_TRANSIENT);
		rc = db_step_done(db, st);
	}
	free(del_where);
	free(sel_where);
	free(del);
	free(ins);
	return rc;
}
