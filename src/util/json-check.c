/*
 * json-check.c - see json-check.h.
 */
#include "config.h"
#include "util/json-check.h"

#include <stdio.h>
#include <string.h>

#define DEPTH_MAX 256

struct cursor {
	const unsigned char *p, *end, *start;
	const char *why;
};

static void skip_space(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

/* One UTF-8 character of a string (not the quote, not a control byte). */
static int utf8_char(struct cursor *c)
{
	unsigned b = *c->p;
	int len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
	if (!len || b == 0xc0 || b == 0xc1 || b > 0xf4 || c->end - c->p < len) {
		c->why = "a byte that is not UTF-8";
		return -1;
	}
	unsigned cp = len == 1 ? b : b & (0x7f >> len);
	for (int i = 1; i < len; i++) {
		if ((c->p[i] & 0xc0) != 0x80) {
			c->why = "a byte that is not UTF-8";
			return -1;
		}
		cp = cp << 6 | (c->p[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
		c->why = "a byte that is not UTF-8";
		return -1;
	}
	c->p += len;
	return 0;
}

static int string(struct cursor *c)
{
	c->p++; /* the opening quote */
	while (c->p < c->end && *c->p != '"') {
		if (*c->p < 0x20) {
			c->why = "a control character in a string";
			return -1;
		}
		if (*c->p == '\\') {
			c->p++;
			if (c->p >= c->end || !strchr("\"\\/bfnrtu", *c->p)) {
				c->why = "a bad escape in a string";
				return -1;
			}
			if (*c->p++ == 'u')
				for (int i = 0; i < 4; i++, c->p++)
					if (c->p >= c->end || !strchr("0123456789abcdefABCDEF", *c->p)) {
						c->why = "a bad \\u escape";
						return -1;
					}
			continue;
		}
		if (utf8_char(c) < 0)
			return -1;
	}
	if (c->p >= c->end) {
		c->why = "a string that does not end";
		return -1;
	}
	c->p++;
	return 0;
}

static int digits(struct cursor *c)
{
	const unsigned char *s = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		c->p++;
	return c->p > s ? 0 : -1;
}

static int number(struct cursor *c)
{
	if (*c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (digits(c) < 0)
		goto bad;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (digits(c) < 0)
			goto bad;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (digits(c) < 0)
			goto bad;
	}
	return 0;
bad:
	c->why = "a malformed number";
	return -1;
}

static int value(struct cursor *c, int depth);

/* An object or an array, after its opening bracket. */
static int container(struct cursor *c, int depth, int object)
{
	const char close = object ? '}' : ']';
	c->p++;
	skip_space(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 0;
	}
	for (;;) {
		skip_space(c);
		if (object) {
			if (c->p >= c->end || *c->p != '"') {
				c->why = "an object key that is not a string";
				return -1;
			}
			if (string(c) < 0)
				return -1;
			skip_space(c);
			if (c->p >= c->end || *c->p != ':') {
				c->why = "a key without ':'";
				return -1;
			}
			c->p++;
		}
		if (value(c, depth + 1) < 0)
			return -1;
		skip_space(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 0;
		}
		c->why = object ? "an object without ',' or '}'" : "an array without ',' or ']'";
		return -1;
	}
}

static int value(struct cursor *c, int depth)
{
	skip_space(c);
	if (depth > DEPTH_MAX) {
		c->why = "nesting deeper than 256";
		return -1;
	}
	if (c->p >= c->end) {
		c->why = "a value missing";
		return -1;
	}
	switch (*c->p) {
	case '{':
		return container(c, depth, 1);
	case '[':
		return container(c, depth, 0);
	case '"':
		return string(c);
	case 't':
	case 'f':
	case 'n': {
		const char *word = *c->p == 't' ? "true" : *c->p == 'f' ? "false" : "null";
		size_t len = strlen(word);
		if ((size_t)(c->end - c->p) >= len && !memcmp(c->p, word, len)) {
			c->p += len;
			return 0;
		}
		c->why = "an unknown word";
		return -1;
	}
	default:
		if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
			return number(c);
		c->why = "an unexpected character";
		return -1;
	}
}

int json_check_syntax(const char *text, size_t len, char *why, size_t wn)
{
	struct cursor c = { (const unsigned char *)text, (const unsigned char *)text + len,
			    (const unsigned char *)text, NULL };
	int rc = value(&c, 0);
	skip_space(&c);
	if (rc == 0 && c.p != c.end) {
		c.why = "more after the document";
		rc = -1;
	}
	if (rc < 0)
		snprintf(why, wn, "%s at byte %zu", c.why, (size_t)(c.p - c.start));
	return rc;
}
