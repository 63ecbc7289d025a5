/*
 * cmd-db.c - `gputune db info|devices|merge FILE`: the database itself:
 * where it is and what it holds, the devices it knows, and bringing in
 * results measured elsewhere.
 */
#include "cli/cmd.h"
#include "db/db.h"
#include "db/db-check.h"
#include "db/db-import.h"
#include "util/interrupt.h"
#include "util/table.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct cmd_option options[] = { OPT_DB, OPT_FORMAT, OPT_END };

static long long count(sqlite3 *db, const char *table)
{
	/* table is one of the fixed names below, never user input. */
	char *sql = xasprintf("SELECT count(*) FROM %s", table);
	sqlite3_stmt *st = db_prepare(db, sql);
	free(sql);
	long long n = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	return n;
}

static int db_info(sqlite3 *db, const char *path, int format)
{
	static const struct table_col cols[] = { { "key", 0 }, { "value", 0 } };
	static const char *const tables[] = { "device", "family", "variant", "run", "measurement", "winner" };
	static const char *const plural[] = { "devices", "families", "variants", "runs", "measurements", "winners" };
	struct table t;
	table_init(&t, cols, 2);
	char buf[64];
	const char *row[2] = { "path", path };
	table_add(&t, row);
	sqlite3_stmt *st = db_prepare(db, "PRAGMA user_version");
	snprintf(buf, sizeof(buf), "%d", st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1);
	sqlite3_finalize(st);
	row[0] = "schema_version";
	row[1] = buf;
	table_add(&t, row);
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		snprintf(buf, sizeof(buf), "%lld", count(db, tables[i]));
		row[0] = plural[i];
		row[1] = buf;
		table_add(&t, row);
	}
	table_print(&t, format, stdout);
	table_free(&t);
	return EXIT_OK;
}

static int db_devices(sqlite3 *db, int format)
{
	static const struct table_col cols[] = {
		{ "index", 1 }, { "name", 0 }, { "cc", 0 }, { "sms", 1 }, { "uuid", 0 },
		{ "measurements", 1 }, { "winners", 1 },
	};
	sqlite3_stmt *st = db_prepare(db,
		"SELECT d.id, d.name, d.cc_major || '.' || d.cc_minor, d.sm_count, d.uuid,"
		" (SELECT count(*) FROM measurement m JOIN run r ON r.id = m.run_id WHERE r.device_id = d.id),"
		" (SELECT count(*) FROM winner w WHERE w.device_id = d.id) FROM device d ORDER BY d.id");
	if (!st)
		return EXIT_FAIL;
	struct table t;
	table_init(&t, cols, (int)ARRAY_SIZE(cols));
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *cells[7];
		for (int i = 0; i < 7; i++)
			cells[i] = (const char *)sqlite3_column_text(st, i);
		table_add(&t, cells);
	}
	sqlite3_finalize(st);
	table_print(&t, format, stdout);
	table_free(&t);
	return EXIT_OK;
}

/* One source of a merge, read and checked before the target is opened,
 * so that a merge refused for its input leaves no file behind. */
struct source {
	const char *path;
	char *json; /* its text when it is JSON; NULL for a database file */
	int skip;   /* the target itself, under this or another name */
};

/* Whether path names the file target names (same device and inode: a
 * symlink, a hard link or another spelling of one file). */
static int same_file(const char *path, const char *target)
{
	struct stat a, b;
	return stat(path, &a) == 0 && stat(target, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Reads and checks src; 0, or -1 after one line. */
static int source_read(struct source *src, const char *target)
{
	if (same_file(src->path, target)) {
		/* Merging a database into itself adds nothing, and its two
		 * connections would wait for each other's lock. */
		warning("skipping %s: it is the database being merged into", src->path);
		src->skip = 1;
		return 0;
	}
	/* A database file is recognised by its first 16 bytes, and checked
	 * by opening it; only JSON is read whole. */
	char head[16] = "";
	FILE *f = fopen(src->path, "rb");
	if (!f)
		return fail("cannot read %s: %s", src->path, strerror(errno));
	size_t got = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (got == sizeof(head) && !memcmp(head, "SQLite format 3", 16))
		return db_merge_file_check(src->path);
	size_t len = 0;
	char *text = read_file(src->path, &len);
	if (!text)
		return fail("cannot read %s: %s", src->path, strerror(errno));
	const char *p = text;
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '{') {
		src->json = text;
		return 0;
	}
	free(text);
	return fail("%s is neither a gputune database nor gputune JSON results", src->path);
}

/* The sources' records checked on a database of their own, when the
 * target does not exist yet: a file refused must not create it. */
static int check_sources_first(struct source *srcs, size_t n)
{
	sqlite3 *mem = NULL;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (srcs[i].skip)
			continue;
		if (!mem) {
			if (db_open_memory(&mem) < 0)
				return -1;
			db_interruptible(mem);
		}
		if (srcs[i].json) {
			rc = db_check_json_syntax(srcs[i].json, srcs[i].path);
			if (rc == 0)
				rc = db_stage_json(mem, srcs[i].json);
			if (rc == 0)
				rc = db_check_json(mem, srcs[i].json, srcs[i].path);
			db_unstage_json(mem);
			continue;
		}
		sqlite3_stmt *st = db_prepare(mem, "ATTACH DATABASE ?1 AS other");
		if (!st)
			return -1;
		sqlite3_bind_text(st, 1, srcs[i].path, -1, SQLITE_STATIC);
		rc = db_step_done(mem, st);
		if (rc == 0) {
			rc = db_check_attached(mem, srcs[i].path);
			db_exec(mem, "DETACH DATABASE other");
		}
	}
	db_close(mem);
	return rc;
}

/*
 * Merges the sources into the database at path: every source is read
 * and checked first (one bad source refuses the command, and nothing is
 * written), then each is merged in a transaction of its own.  Ctrl-C or
 * SIGTERM rolls back the merge in hand within a second.
 */
static int db_merge(const char *path, char **files, size_t n)
{
	struct source *srcs = xcalloc(n, sizeof(*srcs));
	int rc = EXIT_OK;
	struct stat st;
	for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
		srcs[i].path = files[i];
		if (source_read(&srcs[i], path) < 0)
			rc = EXIT_FAIL;
	}
	/* Into a new database, the sources' records are checked before it is
	 * created (and not again as they are merged). */
	int checked = rc == EXIT_OK && stat(path, &st) < 0;
	if (checked && check_sources_first(srcs, n) < 0)
		rc = EXIT_FAIL;
	size_t todo = 0;
	for (size_t i = 0; i < n; i++)
		todo += !srcs[i].skip;
	sqlite3 *db = NULL;
	if (rc == EXIT_OK && todo && db_open(path, DB_WRITE, &db) < 0)
		rc = EXIT_FAIL;
	if (db)
		db_interruptible(db);
	for (size_t i = 0; db && i < n && rc == EXIT_OK; i++) {
		if (srcs[i].skip)
			continue;
		long long added = srcs[i].json ? db_import_json(db, srcs[i].json, srcs[i].path, checked)
					       : db_merge_file(db, srcs[i].path, checked);
		if (added < 0)
			rc = interrupted() ? EXIT_INTERRUPTED : EXIT_FAIL;
		else
			printf("merged %s: %lld new measurements\n", srcs[i].path, added);
	}
	if (rc != EXIT_OK && interrupted())
		rc = EXIT_INTERRUPTED;
	if (rc == EXIT_INTERRUPTED)
		error("interrupted: the merge in hand was rolled back, and %s holds what was merged before it", path);
	db_close(db);
	for (size_t i = 0; i < n; i++)
		free(srcs[i].json);
	free(srcs);
	return rc;
}

static int exec_db(struct args *a)
{
	int format = args_format(a);
	if (format < 0)
		return EXIT_USAGE;
	const char *sub = a->pos[0];
	int merge = !strcmp(sub, "merge");
	if (strcmp(sub, "info") && strcmp(sub, "devices") && !merge)
		return cmd_usage_error(a->cmd, "db: unknown subcommand '%s' (info, devices, merge)", sub);
	if (merge && a->npos < 2)
		return cmd_usage_error(a->cmd, "db merge: which file? (gputune db merge FILE...)");
	if (!merge && a->npos > 1)
		return cmd_usage_error(a->cmd, "db %s: unexpected argument '%s'", sub, a->pos[1]);
	char *path = db_path_from(args_get(a, "db"));
	int rc;
	if (merge) {
		rc = db_merge(path, a->pos + 1, a->npos - 1);
		free(path);
		return rc;
	}
	sqlite3 *db = NULL;
	if (db_open(path, 0, &db) < 0) {
		free(path);
		return EXIT_FAIL;
	}
	if (!strcmp(sub, "info"))
		rc = db_info(db, path, format);
	else
		rc = db_devices(db, format);
	db_close(db);
	free(path);
	return rc;
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.summary = "inspect the tuning database or merge results into it",
	.usage = "info | devices | merge FILE...",
	.description = "info     the database's path, schema version and row counts\n"
		       "devices  the devices it holds results for, with their index for --device\n"
		       "merge    bring in the results of other gputune databases or of JSON\n"
		       "         exports (gputune export --format json); merging twice adds nothing;\n"
		       "         every file is checked before any is merged, and one bad file\n"
		       "         refuses the command; a file that is the database itself (by any\n"
		       "         name: a link, a glob that matches it) is skipped with a message;\n"
		       "         each file is merged in a transaction of its own, and Ctrl-C rolls\n"
		       "         back the one in hand;\n"
		       "         a size with a winner in neither (one an interrupted run measured\n"
		       "         in part) keeps its measurements and gets no winner",
	.options = options,
	.min_pos = 1,
	.max_pos = 1 << 20,
	.flags = CMD_USES_DB,
	.exec = exec_db,
};
