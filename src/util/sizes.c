/*
 * sizes.c - see sizes.h.  Every rejection quotes the part of the text at
 * fault, so `--sizes 1024,0x5` says '0x5', not just "bad sizes".
 */
#include "util/sizes.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One positive decimal number spanning exactly [s, e), at most max. */
static int number(const char *s, const char *e, long max, long *out)
{
	if (s == e || e - s > 18)
		return -1;
	long v = 0;
	for (const char *p = s; p < e; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (v <= 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The largest dimension of a size of `shape` dimensions: a 1-D size is
 * one long vector. */
static long max_dim(int shape)
{
	return shape == 1 ? SIZE_MAX_ELEMS : SIZE_MAX_DIM;
}

/* One dimension: a decimal number or 2^K. */
static int dim(int shape, const char *s, const char *e, long *out)
{
	if (e - s > 2 && s[0] == '2' && s[1] == '^') {
		/* The exponent may be 0 (2^0 is 1, which is a size), so it is
		 * read as "0" or a positive number. */
		long k = 0;
		if ((e - s != 3 || s[2] != '0') && number(s + 2, e, 62, &k) < 0)
			return -1;
		if ((1L << k) > max_dim(shape))
			return -1;
		*out = 1L << k;
		return 0;
	}
	return number(s, e, max_dim(shape), out);
}

/* The sizes so far, in order, and a hash set of them: a list of many
 * ranges stays linear to read. */
struct list {
	struct dims *v;
	size_t n, cap;
	uint64_t *set; /* open addressing; 0 is empty (no size is 0 x 0) */
	size_t set_cap;
};

static uint64_t size_key(long r, long c, long d)
{
	uint64_t k = ((uint64_t)r << 32) ^ (uint64_t)c ^ ((uint64_t)d << 43) ^ ((uint64_t)d >> 21);
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	return k ^ (k >> 33);
}

/* Whether (r, c, d) is in the set; adds it when not. */
static int seen(struct list *l, long r, long c, long d)
{
	if (2 * (l->n + 1) > l->set_cap) {
		size_t cap = l->set_cap ? l->set_cap * 2 : 64;
		uint64_t *set = xcalloc(cap, sizeof(uint64_t));
		for (size_t i = 0; i < l->n; i++) {
			size_t h = size_key(l->v[i].rows, l->v[i].cols, l->v[i].depth) & (cap - 1);
			while (set[h])
				h = (h + 1) & (cap - 1);
			set[h] = (uint64_t)i + 1;
		}
		free(l->set);
		l->set = set;
		l->set_cap = cap;
	}
	size_t h = size_key(r, c, d) & (l->set_cap - 1);
	for (; l->set[h]; h = (h + 1) & (l->set_cap - 1)) {
		const struct dims *o = &l->v[l->set[h] - 1];
		if (o->rows == r && o->cols == c && o->depth == d)
			return 1;
	}
	l->set[h] = (uint64_t)l->n + 1; /* the index push is about to fill */
	return 0;
}

static int push(struct list *l, long r, long c, long d)
{
	if (l->n >= 100000)
		return -1;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	if (seen(l, r, c, d))
		return 0;
	l->v[l->n].rows = r;
	l->v[l->n].cols = c;
	l->v[l->n].depth = d;
	l->n++;
	return 0;
}

/* Whether a size's matrices each stay within SIZE_MAX_ELEMS: rows x cols,
 * and for 3-D sizes (M x N x K) also M x K and K x N. */
static int fits(long r, long c, long d)
{
	return r * c <= SIZE_MAX_ELEMS && r * d <= SIZE_MAX_ELEMS && d * c <= SIZE_MAX_ELEMS;
}

/* random:N:A-B[:SEED]: N sizes, rows and columns drawn independently and
 * uniformly from [A, B] (vector lengths: uniformly over the octaves of the
 * range, then within one) by a generator seeded with SEED (default 1), so
 * a list of sizes nobody tuned is repeatable. */
static int random_item(int shape, const char *s, const char *e, struct list *l,
		       char *err, size_t en)
{
	int len = (int)(e - s);
	const char *p = s + 7; /* after "random:" */
	const char *c1 = memchr(p, ':', (size_t)(e - p));
	const char *dash = c1 ? memchr(c1, '-', (size_t)(e - c1)) : NULL;
	const char *c2 = dash ? memchr(dash, ':', (size_t)(e - dash)) : NULL;
	long count, a, b, seed = 1;
	if (!c1 || !dash || number(p, c1, 10000, &count) < 0 || dim(shape, c1 + 1, dash, &a) < 0 ||
	    dim(shape, dash + 1, c2 ? c2 : e, &b) < 0 || (c2 && number(c2 + 1, e, LONG_MAX / 2, &seed) < 0) ||
	    a > b) {
		snprintf(err, en, "bad random sizes '%.*s' (random:N:A-B or random:N:A-B:SEED, N <= 10000, "
			 "1 <= A <= B <= %ld)", len, s, max_dim(shape));
		return -1;
	}
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)seed;
	for (long i = 0; i < count; i++) {
		long d[3] = { 1, 1, 1 };
		for (int k = 0; k < shape; k++) {
			/* xorshift64*: small, and the same on every machine. */
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			uint64_t r = (x * 0x2545f4914f6cdd1dULL) >> 11;
			long lo = a, hi = b;
			if (shape == 1) {
				/* Vector lengths span decades: an octave [2^o, 2^(o+1))
				 * of the range first, each equally likely, then a length
				 * in it, so short lengths are drawn as often as long. */
				int o0 = 0, o1 = 0;
				while ((a >> o0) > 1)
					o0++;
				while ((b >> o1) > 1)
					o1++;
				int o = o0 + (int)(r % (uint64_t)(o1 - o0 + 1));
				r /= (uint64_t)(o1 - o0 + 1);
				lo = (1L << o) > a ? 1L << o : a;
				hi = (1L << o) * 2 - 1 < b ? (1L << o) * 2 - 1 : b;
			}
			d[k] = lo + (long)(r % (uint64_t)(hi - lo + 1));
		}
		if (!fits(d[0], d[1], d[2])) {
			snprintf(err, en, "size %ldx%ld%s from '%.*s' is too large", d[0], d[1],
				 shape == 3 ? "x..." : "", len, s);
			return -1;
		}
		if (push(l, d[0], d[1], d[2]) < 0) {
			snprintf(err, en, "too many sizes in '%.*s'", len, s);
			return -1;
		}
	}
	return 0;
}

static int item(int shape, const char *s, const char *e, struct list *l,
		char *err, size_t en)
{
	int len = (int)(e - s);
	/* The second and third dimensions of a range's or a number's sizes;
	 * 0: the same as the first (squares, cubes). */
	long other = shape == 1 ? 1 : 0, depth = shape == 3 ? 0 : 1;
	if (len > 7 && !strncmp(s, "random:", 7))
		return random_item(shape, s, e, l, err, en);
	const char *x = memchr(s, 'x', (size_t)len);
	const char *dash = memchr(s, '-', (size_t)len);
	if (len == 0) {
		snprintf(err, en, "empty size in the list");
		return -1;
	}
	if (x && !dash && shape == 1) {
		snprintf(err, en, "bad size '%.*s' (this family's sizes are one number N or 2^K)", len, s);
		return -1;
	}
	if (x && !dash) {
		/* RxC, or MxNxK for 3-D families. */
		const char *x2 = memchr(x + 1, 'x', (size_t)(e - x - 1));
		long r, c, d = 1;
		int bad = shape == 3 ? !x2 || dim(shape, s, x, &r) < 0 || dim(shape, x + 1, x2, &c) < 0 ||
					       dim(shape, x2 + 1, e, &d) < 0
				     : x2 || dim(shape, s, x, &r) < 0 || dim(shape, x + 1, e, &c) < 0;
		if (bad) {
			if (shape == 3)
				snprintf(err, en, "bad size '%.*s' (MxNxK with 1 <= M, N, K <= %ld)", len, s,
					 SIZE_MAX_DIM);
			else
				snprintf(err, en, "bad size '%.*s' (RxC with 1 <= R, C <= %ld)", len, s, SIZE_MAX_DIM);
			return -1;
		}
		if (!fits(r, c, d)) {
			snprintf(err, en, "size '%.*s' is too large", len, s);
			return -1;
		}
		if (push(l, r, c, d) < 0)
			goto too_many;
		return 0;
	}
	if (dash) {
		const char *colon = memchr(dash, ':', (size_t)(e - dash));
		const char *bend = colon ? colon : e;
		long a, b, step = 0;
		if (x || dim(shape, s, dash, &a) < 0 || dim(shape, dash + 1, bend, &b) < 0 ||
		    (colon && number(colon + 1, e, max_dim(shape), &step) < 0)) {
			snprintf(err, en, "bad range '%.*s' (A-B or A-B:STEP%s, 1 <= A <= B <= %ld)", len, s,
				 shape == 1 ? "" : shape == 2 ? " of square sizes" : " of cubes", max_dim(shape));
			return -1;
		}
		if (a > b) {
			snprintf(err, en, "reversed range '%.*s' (%ld > %ld)", len, s, a, b);
			return -1;
		}
		if (colon) {
			if ((b - a) / step >= 10000) {
				snprintf(err, en, "range '%.*s' has too many sizes", len, s);
				return -1;
			}
			for (long v = a; v <= b; v += step) {
				if (!fits(v, other ? other : v, depth ? depth : v))
					goto too_large;
				if (push(l, v, other ? other : v, depth ? depth : v) < 0)
					goto too_many;
			}
		} else {
			/* From a power of two, doubling walks exactly the powers
			 * of two up to B, so one loop serves both rules. */
			for (long v = a; v <= b; v *= 2) {
				if (!fits(v, other ? other : v, depth ? depth : v))
					goto too_large;
				if (push(l, v, other ? other : v, depth ? depth : v) < 0)
					goto too_many;
			}
		}
		return 0;
	}
	long v;
	if (dim(shape, s, e, &v) < 0) {
		snprintf(err, en, "bad size '%.*s' (N, 2^K,%s A-B or A-B:STEP with 1 <= N <= %ld)", len, s,
			 shape == 1 ? "" : shape == 2 ? " RxC," : " MxNxK,", max_dim(shape));
		return -1;
	}
	if (!fits(v, other ? other : v, depth ? depth : v))
		goto too_large;
	if (push(l, v, other ? other : v, depth ? depth : v) < 0)
		goto too_many;
	return 0;
too_many:
	snprintf(err, en, "too many sizes in '%.*s'", len, s);
	return -1;
too_large:
	snprintf(err, en, "'%.*s' has a size of more than %ld elements", len, s, SIZE_MAX_ELEMS);
	return -1;
}

int sizes_parse(int shape, const char *text, struct dims **out, size_t *n, char *err, size_t en)
{
	*out = NULL;
	*n = 0;
	if (!text || !*text) {
		snprintf(err, en, "empty --sizes");
		return -1;
	}
	struct list l = {0};
	const char *s = text;
	int rc = 0;
	for (;;) {
		const char *e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		if (item(shape, s, e, &l, err, en) < 0) {
			rc = -1;
			break;
		}
		if (!*e)
			break;
		s = e + 1;
	}
	free(l.set);
	if (rc < 0) {
		free(l.v);
		return -1;
	}
	*out = l.v;
	*n = l.n;
	return 0;
}

int sizes_contain(const struct dims *list, size_t n, long rows, long cols, long depth)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].rows == rows && list[i].cols == cols && list[i].depth == depth)
			return 1;
	return 0;
}
