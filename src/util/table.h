/*
 * table.h - tabular output in the three formats every listing command
 * offers: an aligned text table, CSV (RFC 4180 quoting) and JSON (an array
 * of objects; numeric columns unquoted, everything else escaped).
 */
#ifndef GPUTUNE_TABLE_H
#define GPUTUNE_TABLE_H

#include <stdio.h>

/* The output formats (--format): table, csv, json. */
enum out_format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct table_col {
	const char *name;
	int numeric; /* JSON writes the value bare (it must be a valid number or empty -> null) */
};

struct table {
	const struct table_col *cols;
	int ncols;
	char **cells; /* rows * ncols, owned */
	int rows;
};

void table_init(struct table *t, const struct table_col *cols, int ncols);
/* Appends a row: exactly ncols printf-style cells are given as strings. */
void table_add(struct table *t, const char *const *cells);
void table_print(const struct table *t, int format, FILE *f);
void table_free(struct table *t);

/* Writes s as a JSON string literal (quotes included). */
void json_write_string(FILE *f, const char *s);

#endif
