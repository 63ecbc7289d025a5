/*
 * sqlexec.c - runs SQL on a SQLite file for the tests (which cannot count
 * on the sqlite3 shell being installed): `sqlexec FILE SQL` prints each
 * result row's columns separated by '|'.  Exits 1 on any error.
 */
#include <sqlite3.h>
#include <stdio.h>

static int print_row(void *unused, int n, char **vals, char **names)
{
	(void)unused;
	(void)names;
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "");
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
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
