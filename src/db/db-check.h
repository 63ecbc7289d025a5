/*
 * db-check.h - the checks every imported record passes before anything
 * of its file is written: each field's type and range (from one table of
 * rules, applied alike to a JSON document and to an attached database
 * file), each record's kernel, element type, parameters and size against
 * the family it names, and the identity of its run (a run UUID belongs
 * to one device and one kernel).  A file with one bad record is refused
 * whole, with the record and the field named.
 */
#ifndef GPUTUNE_DB_CHECK_H
#define GPUTUNE_DB_CHECK_H

#include <sqlite3.h>

/* The JSON format version this gputune writes and reads. */
#define RESULTS_FORMAT_VERSION 1

/* A statement reading what's imports failed: -1 after "what: interrupted"
 * when Ctrl-C stopped it, else after "what is not valid gputune results:
 * SQLite's message". */
int db_import_failed(sqlite3 *db, const char *what);

/* Reads the arrays of the results document json into a temporary table of
 * db's, once: the checks and the import then read its records from there
 * instead of parsing the whole document again in every statement (a
 * 95 MB merge took 50 s, 36 parses of it).  0 or -1.  db_unstage_json
 * drops it. */
/* Whether json is one JSON document, checked before SQLite reads it
 * (util/json-check.h says why).  0, or -1 after "WHAT is not valid JSON:
 * what, at byte N". */
int db_check_json_syntax(const char *json, const char *what);
int db_stage_json(sqlite3 *db, const char *json);
void db_unstage_json(sqlite3 *db);
/* The staged records of one array of the document (path: a SQL string
 * literal or parameter, such as "'$.results'"), as json_each would give
 * them: key (the index) and value. */
#define DB_STAGED(path) "(SELECT key, value FROM temp.import_doc WHERE path = " path ")"

/* Checks the results document json (already known to be one, and staged
 * on db) with db's SQLite; what names it in messages.  0, or -1 after one
 * line naming the array, the record's index and the field. */
int db_check_json(sqlite3 *db, const char *json, const char *what);

/* The records of json (staged on db) whose run db holds under another
 * device or kernel (they would be filed under that run, and dropped as
 * duplicates without a word): 0 when there is none, else -1 after naming
 * the first. */
int db_check_json_runs(sqlite3 *db, const char *what);

/* Checks the gputune database attached to db as "other" (what: its
 * path) row by row, as db_check_json does a document.  0, or -1 after one
 * line naming the table, row and field. */
int db_check_attached(sqlite3 *db, const char *what);
/* The attached database's runs that db holds under another device or
 * kernel, as db_check_json_runs.  0, or -1 after naming the first. */
int db_check_attached_runs(sqlite3 *db, const char *what);

#endif
