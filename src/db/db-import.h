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
 * first (db-check.h), unless trusted: the shipped results, built into
 * the binary and checked by the tests, are not checked again at every
 * command that reads them.  Returns the number of measurements this call
 * added (rows other processes add meanwhile are not counted), or -1
 * after reporting (the database is unchanged). */
long long db_import_json(sqlite3 *db, const char *json, const char *what, int trusted);

/* Imports the gputune database at path.  The number of measurements this
 * call added, or -1 after reporting. */
long long db_merge_file(sqlite3 *db, const char *path);

#endif
