/*
 * unit-sizes.c - checks the --sizes parser against tests/sizes.data, one
 * case a line: "TEXT => RxC RxC ..." for accepted text (the sizes in
 * order), "TEXT !> MESSAGE" for rejected text (a fixed string the error
 * must contain); a line starting "1d: " is parsed as a 1-D family's sizes
 * (printed as N).  Prints TAP-like lines; exits 1 on any failure.
 */
#include "util/sizes.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: unit-sizes sizes.data\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	char line[4096];
	int n = 0, bad = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char *ok = strstr(line, " => "), *no = strstr(line, " !> ");
		char *sep = ok ? ok : no;
		if (!sep) {
			fprintf(stderr, "bad data line: %s\n", line);
			return 2;
		}
		*sep = '\0';
		/* "1d: " and "3d: " prefixes name the shape; none is 2-D. */
		int shape = !strncmp(line, "1d: ", 4) ? 1 : !strncmp(line, "3d: ", 4) ? 3 : 2;
		const char *text = line + (shape != 2 ? 4 : 0);
		if (!strcmp(text, "''"))
			text = "";
		const char *want = sep + 4;
		struct dims *s = NULL;
		size_t k = 0;
		char err[256] = "";
		int r = sizes_parse(shape, text, &s, &k, err, sizeof(err));
		struct strbuf got = {0};
		for (size_t i = 0; r == 0 && i < k; i++)
			if (shape == 1)
				sb_printf(&got, "%s%ld%s", i ? " " : "", s[i].rows,
					  s[i].cols == 1 && s[i].depth == 1 ? "" : "(cols!)");
			else if (shape == 2)
				sb_printf(&got, "%s%ldx%ld%s", i ? " " : "", s[i].rows, s[i].cols,
					  s[i].depth == 1 ? "" : "(depth!)");
			else
				sb_printf(&got, "%s%ldx%ldx%ld", i ? " " : "", s[i].rows, s[i].cols, s[i].depth);
		int pass = ok ? r == 0 && !strcmp(got.buf ? got.buf : "", want)
			      : r < 0 && strstr(err, want) != NULL;
		n++;
		if (pass) {
			printf("ok %d - '%s'\n", n, text);
		} else {
			bad++;
			printf("not ok %d - '%s': got %s '%s', expected %s '%s'\n", n, text,
			       r == 0 ? "sizes" : "error", r == 0 ? (got.buf ? got.buf : "") : err,
			       ok ? "sizes" : "error", want);
		}
		sb_free(&got);
		free(s);
	}
	fclose(f);
	printf("# %d cases, %d failed\n", n, bad);
	return bad || n == 0;
}
