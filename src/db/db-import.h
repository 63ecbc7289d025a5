/*
 * db-import.h - bringing results into a database: from another gputune
 * database file (`gputune db merge FILE.db`) or from the JSON that
 * `gputune export --format json` writes (`gputune db merge FILE.json`, and
 * the shipped results).  Rows are matched by identity (device UUID, kernel
 * name, variant parameters and source hash, run UUID), so importing the
 * same thing twice adds nothing.  Everything happens in one transaction.
 */
#ifndef GPUTUNE_DB_IMPORT_H
#define GPUTUNE_DB_IMPORT_H

#include <sqlite3.h>

/* Imports JSON text; what names it in messages.  Every record is checked
 * first (db-check.h), unless checked: the caller ran db_check_json on the
 * same text already (the shipped results, built into the binary, are
 * checked by the tests, and a merge into a new database checks its files
 * before creating it).  The runs are checked against db's either way.
 * Returns the number of measurements this call added (rows other
 * processes add meanwhile are not counted), or -1 after reporting (the
 * database is unchanged). */
long long db_import_json(sqlite3 *db, const char *json, const char *what, int checked);

/* 0 when path is a gputune database of this build's schema that any open
 * accepts (read-only, migrated where writable); else -1 after one line. */
int db_merge_file_check(const char *path);

/* Imports the gputune database at path, which passed db_merge_file_check;
 * its rows are checked first unless checked (as db_import_json).  The
 * number of measurements this call added, or -1 after reporting. */
long long db_merge_file(sqlite3 *db, const char *path, int checked);

#endif
