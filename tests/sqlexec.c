/*
 * sqlexec.c - runs SQL on a SQLite file for the tests (which cannot count
 * on the sqlite3 shell being installed): `sqlexec FILE SQL` prints each
 * result row's columns separated by '|'.  Exits 1 on any error.
 * `sqlexec --hold SECONDS FILE` takes FILE's write lock (BEGIN IMMEDIATE),
 * says "locked" on standard output, and lets it go SECONDS later: another
 * process that must write FILE meanwhile waits.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int print_row(void *unused, int n, char **vals, char **names)
{
	(void)unused;
	(void)names;
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "");
	printf("\n");
	return 0;
}

static int hold(const char *seconds, const char *file)
{
	sqlite3 *db;
	if (sqlite3_open(file, &db) != SQLITE_OK || sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlexec: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	printf("locked\n");
	fflush(stdout);
	sleep((unsigned)atoi(seconds));
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--hold"))
		return hold(argv[2], argv[3]);
	if (argc != 3) {
		fprintf(stderr, "usage: sqlexec FILE SQL\n");
		return 2;
	}
	sqlite3 *db;
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "sqlexec: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	char *err = NULL;
	int rc = sqlite3_exec(db, argv[2], print_row, NULL, &err);
	if (rc != SQLITE_OK)
		fprintf(stderr, "sqlexec: %s\n", err ? err : sqlite3_errmsg(db));
	sqlite3_free(err);
	sqlite3_close(db);
	return rc != SQLITE_OK;
}
