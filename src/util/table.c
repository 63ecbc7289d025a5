/*
 * table.c - see table.h.
 */
#include "util/table.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void table_init(struct table *t, const struct table_col *cols, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
}

void table_add(struct table *t, const char *const *cells)
{
	t->cells = xrealloc(t->cells, (size_t)(t->rows + 1) * (size_t)t->ncols * sizeof(char *));
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->rows * t->ncols + c] = xstrdup(cells[c] ? cells[c] : "");
	t->rows++;
}

void table_free(struct table *t)
{
	for (int i = 0; i < t->rows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void csv_write(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void table_print(const struct table *t, int format, FILE *f)
{
	if (format == FMT_JSON) {
		fputs("[", f);
		for (int r = 0; r < t->rows; r++) {
			fputs(r ? ",\n {" : "\n {", f);
			for (int c = 0; c < t->ncols; c++) {
				const char *v = t->cells[r * t->ncols + c];
				if (c)
					fputs(", ", f);
				json_write_string(f, t->cols[c].name);
				fputs(": ", f);
				if (t->cols[c].numeric)
					fputs(*v ? v : "null", f);
				else
					json_write_string(f, v);
			}
			fputs("}", f);
		}
		fputs(t->rows ? "\n]\n" : "]\n", f);
		return;
	}
	if (format == FMT_CSV) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			csv_write(f, t->cols[c].name);
		}
		fputc('\n', f);
		for (int r = 0; r < t->rows; r++) {
			for (int c = 0; c < t->ncols; c++) {
				if (c)
					fputc(',', f);
				csv_write(f, t->cells[r * t->ncols + c]);
			}
			fputc('\n', f);
		}
		return;
	}
	int *w = xcalloc((size_t)t->ncols, sizeof(int));
	for (int c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(t->cols[c].name);
		for (int r = 0; r < t->rows; r++) {
			int n = (int)strlen(t->cells[r * t->ncols + c]);
			if (n > w[c])
				w[c] = n;
		}
	}
	for (int c = 0; c < t->ncols; c++)
		fprintf(f, c ? "  %-*s" : "%-*s", c == t->ncols - 1 ? 0 : w[c], t->cols[c].name);
	fputc('\n', f);
	for (int r = 0; r < t->rows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *v = t->cells[r * t->ncols + c];
			int last = c == t->ncols - 1;
			if (t->cols[c].numeric)
				fprintf(f, c ? "  %*s" : "%*s", w[c], v);
			else
				fprintf(f, c ? "  %-*s" : "%-*s", last ? 0 : w[c], v);
		}
		fputc('\n', f);
	}
	free(w);
}
