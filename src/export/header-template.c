/*
 * header-template.c - the template text a header copies: without its
 * comments, without the code paths none of its variants takes (the
 * regions between `{PARAM` and `PARAM}` marker lines), without the blocks
 * of a macro, and as C string literals.
 */
#include "config.h"
#include "export/header.h"
#include "compile/compile-pool.h"
#include "compile/cubin-regs.h"
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* src without its comments: the header carries the commented text once,
 * for nvcc, and the NVRTC program needs none.  String and character
 * literals are copied as they are. */
static char *strip_comments(const char *src)
{
	struct strbuf sb = {0};
	for (const char *p = src; *p;) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (*p == '"' || *p == '\'') {
			char q = *p;
			const char *s = p++;
			while (*p && *p != q && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p == q)
				p++;
			sb_add(&sb, s, (size_t)(p - s));
		} else {
			sb_add(&sb, p++, 1);
		}
	}
	return sb_detach(&sb);
}

/* One line of packed literals: lit's escaped text, quoted; lit emptied. */
static void write_literal_line(FILE *f, struct strbuf *lit)
{
	fprintf(f, "\t\"%s\"\n", lit->buf);
	free(sb_detach(lit));
}

/* The start of the line after the one p is on. */
static const char *past_line(const char *p)
{
	p += strcspn(p, "\n");
	return p + (*p == '\n');
}

/* The start of the line p is on, no earlier than from. */
static const char *line_start(const char *p, const char *from)
{
	while (p > from && p[-1] != '\n')
		p--;
	return p;
}

/* src without the lines from each one holding the comment {spec to the
 * next holding the comment name} (both included; name is spec up to a
 * colon): a path of the template that no exported variant takes.  With
 * keep, a path some variant takes: only those two lines go, as the
 * markers mean nothing in a header.  Caller frees. */
static char *without_region(const char *src, const char *spec, int keep)
{
	char *open = xasprintf("/* {%s */", spec);
	char *close = xasprintf("/* %.*s} */", (int)strcspn(spec, ":"), spec);
	struct strbuf out = {0};
	for (const char *p = src;;) {
		const char *at = strstr(p, open), *end = at ? strstr(at, close) : NULL;
		if (!at) {
			sb_add(&out, p, strlen(p));
			break;
		}
		at = line_start(at, p);
		sb_add(&out, p, (size_t)(at - p));
		if (keep) {
			const char *body = past_line(at), *stop = end ? line_start(end, body) : body + strlen(body);
			sb_add(&out, body, (size_t)(stop - body));
		}
		if (!end)
			break; /* an unclosed region runs to the end */
		p = past_line(end);
	}
	free(open);
	free(close);
	return sb_detach(&out);
}

/* src with each run of blank lines made one, as taking regions out leaves
 * some.  Caller frees. */
static char *squeezed(const char *src)
{
	struct strbuf out = {0};
	for (const char *p = src, *next; *p; p = next) {
		next = past_line(p);
		if (!(*p == '\n' && out.len && (out.len == 1 || out.buf[out.len - 2] == '\n')))
			sb_add(&out, p, (size_t)(next - p));
	}
	return sb_detach(&out);
}

/* Whether a variant of vs takes the template's region of spec: 1 or 0,
 * or -1 when spec names no parameter or value of fam. */
static int region_taken(const struct family *fam, const struct hvariant *vs, int nv, const char *spec)
{
	for (int i = 0; i < nv; i++) {
		int taken = template_region_taken(fam, spec, vs[i].v);
		if (taken)
			return taken;
	}
	const int none[MAX_PARAMS] = { 0 }; /* no variant: still report a bad spec */
	return nv || template_region_taken(fam, spec, none) >= 0 ? 0 : -1;
}

/* tmpl (which this takes) without the regions none of vs takes, and
 * without the markers of those it keeps: the template marks each of its
 * optional paths with the parameter values that take it, so a header
 * carries only the code its kernels run.  NULL after reporting a marker
 * that names no parameter value. */
char *without_untaken_regions(const struct family *fam, const struct hvariant *vs, int nv, char *tmpl)
{
	char *spec;
	for (const char *at = tmpl; (spec = template_next_region(&at)) != NULL;) {
		int taken = region_taken(fam, vs, nv, spec);
		if (taken < 0) {
			fail("export: %s: the region marker '{%s' names no value of a parameter of %s",
			     fam->template_name, spec, fam->name);
			free(spec);
			free(tmpl);
			return NULL;
		}
		char *shown = without_region(tmpl, spec, taken);
		free(tmpl);
		tmpl = shown;
		at = tmpl; /* every marker of spec is gone: look again */
		free(spec);
	}
	char *tidy = squeezed(tmpl);
	free(tmpl);
	return tidy;
}

/* Past the #endif of the conditional block whose #if... line starts at p
 * (the blocks within it skipped); NULL when it is not closed. */
const char *block_end(const char *p)
{
	for (int depth = 0; *p;) {
		const char *q = p + strspn(p, " \t");
		if (!strncmp(q, "#if", 3))
			depth++;
		p = past_line(p);
		if (!strncmp(q, "#endif", 6) && --depth == 0)
			return p;
	}
	return NULL;
}

/* src without its blocks `#ifdef macro` ... `#endif`: in an exported
 * header, the rendered entry point (GT_ELEM_BYTES) is the NVRTC program's
 * alone and the header's kernel (GT_HEADER_KERNEL) the nvcc copy's alone.
 * Caller frees. */
char *without_ifdef(const char *src, const char *macro)
{
	char *line = xasprintf("#ifdef %s\n", macro);
	struct strbuf out = {0};
	const char *p = src, *at = src;
	while ((at = strstr(at, line)) != NULL) {
		const char *end = at == src || at[-1] == '\n' ? block_end(at) : NULL;
		if (!end) { /* not a line of its own, or never closed: kept */
			at++;
			continue;
		}
		sb_add(&out, p, (size_t)(at - p));
		p = at = end;
	}
	sb_add(&out, p, strlen(p));
	free(line);
	return sb_detach(&out);
}

void write_source_literal(FILE *f, const char *src)
{
	/* The program is for NVRTC, not for reading (the header's nvcc
	 * copy is): its lines, without comments and blank ones, are packed
	 * into literals of up to 100 columns (a tab, the quotes and the
	 * escaped text), each source line still ending in its newline. */
	char *text = strip_comments(src);
	struct strbuf lit = {0}, esc = {0};
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		if (strspn(p, " \t") < n) {
			char *line = xasprintf("%.*s%s", (int)n, p, p[n] ? "\n" : "");
			c_string_escape(&esc, line);
			if (lit.len && 8 + 2 + lit.len + esc.len > 100)
				write_literal_line(f, &lit);
			sb_add(&lit, esc.buf, esc.len);
			free(sb_detach(&esc));
			free(line);
		}
		p += n + (p[n] ? 1 : 0);
	}
	if (lit.len)
		write_literal_line(f, &lit);
	free(text);
}
