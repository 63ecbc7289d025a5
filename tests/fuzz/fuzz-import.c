/*
 * fuzz-import.c - libFuzzer harness: importing results JSON (what `gputune
 * db merge FILE.json` reads, from any machine) into a database.  Any input
 * must be imported or refused with a message, leaving a database that
 * passes SQLite's integrity check.  The rows an input added are deleted
 * after the check, so every input meets the same (empty, migrated)
 * database and the run does not slow down as the database would grow.
 */
#include "db/db.h"
#include "db/db-import.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static sqlite3 *db;
	if (!db && db_open_memory(&db) < 0)
		abort();
	char *text = malloc(n + 1);
	memcpy(text, data, n);
	text[n] = '\0';
	db_import_json(db, text, "fuzz input", 0);
	free(text);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		abort();
	sqlite3_finalize(st);
	if (sqlite3_exec(db, "DELETE FROM winner; DELETE FROM measurement; DELETE FROM ceiling; DELETE FROM run;"
			     " DELETE FROM variant; DELETE FROM device; DELETE FROM family;", NULL, NULL, NULL) != SQLITE_OK)
		abort();
	return 0;
}
