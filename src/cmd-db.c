/*
 * cmd-db.c - `gputune db info|devices|merge FILE`: the database itself:
 * where it is and what it holds, the devices it knows, and bringing in
 * results measured elsewhere.
 */
#include "cmd.h"
#include "db.h"
#include "db-import.h"
#include "table.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int db_merge(sqlite3 *db, const char *file)
{
	size_t len = 0;
	char *text = read_file(file, &len);
	if (!text)
		return error("cannot read %s: %s", file, strerror(errno));
	const char *p = text;
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	long long rc;
	if (*p == '{') {
		rc = db_import_json(db, text, file);
	} else if (len >= 16 && !memcmp(text, "SQLite format 3", 16)) {
		rc = db_merge_file(db, file);
	} else {
		rc = fail("%s is neither a gputune database nor gputune JSON results", file);
	}
	free(text);
	if (rc < 0)
		return EXIT_FAIL;
	printf("merged %s: %lld new measurements\n", file, rc);
	return EXIT_OK;
}

static int exec_db(struct args *a)
{
	int format = args_format(a);
	if (format < 0)
		return EXIT_USAGE;
	const char *sub = a->pos[0];
	int write = !strcmp(sub, "merge");
	if (strcmp(sub, "info") && strcmp(sub, "devices") && !write)
		return cmd_usage_error(a->cmd, "db: unknown subcommand '%s' (info, devices, merge)", sub);
	if (write != (a->npos == 2))
		return cmd_usage_error(a->cmd, write ? "db merge: which file? (gputune db merge FILE)"
						     : "db %s: unexpected argument '%s'", sub,
				       a->npos == 2 ? a->pos[1] : "");
	char *path = db_path_from(args_get(a, "db"));
	sqlite3 *db = NULL;
	if (db_open(path, write ? DB_WRITE : 0, &db) < 0) {
		free(path);
		return EXIT_FAIL;
	}
	int rc;
	if (!strcmp(sub, "info"))
		rc = db_info(db, path, format);
	else if (!strcmp(sub, "devices"))
		rc = db_devices(db, format);
	else
		rc = db_merge(db, a->pos[1]);
	db_close(db);
	free(path);
	return rc;
}

const struct cmd_entry cmd_db_entry = {
	.name = "db",
	.summary = "inspect the tuning database or merge results into it",
	.usage = "info | devices | merge FILE",
	.description = "info     the database's path, schema version and row counts\n"
		       "devices  the devices it holds results for, with their index for --device\n"
		       "merge    bring in the results of another gputune database or of a JSON\n"
		       "         export (gputune export --format json); merging twice adds nothing;\n"
		       "         a size with a winner in neither (one an interrupted run measured\n"
		       "         in part) keeps its measurements and gets no winner",
	.options = options,
	.min_pos = 1,
	.max_pos = 2,
	.flags = CMD_USES_DB,
	.exec = exec_db,
};
