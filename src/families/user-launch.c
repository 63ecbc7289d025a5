/*
 * user-launch.c - what a GPU run of a user family needs from its spec
 * (docs/user-kernels.md): its buffers, launch geometry, metric, check and
 * classics; and the callbacks of struct family that evaluate them at a
 * size.  Every expression is compiled once by SQLite (user_prepare_expr,
 * under the same authorizer and bounds as the constraints) and evaluated
 * with its values bound, never by a parser of gputune's own.
 */
#include "config.h"
#include "families/user-family.h"
#include "families/user-state.h"
#include "util/sizes.h"
#include "util/util.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers that share a memory start a multiple of this many elements
 * apart (256 bytes of 2-byte elements), so each is as aligned as a
 * memory of its own. */
#define ALIGN_ELEMS 128
/* The most elements a buffer may hold: 2^34 (64 GiB of f32). */
#define MAX_ELEMS (1LL << 34)

static const char *const role_names[] = { "input", "output", "scratch" };
static const char *const geo_names[] = { "grid[0]", "grid[1]", "grid[2]", "block[0]", "block[1]", "block[2]", "smem" };


/* The inner SELECT's columns: the parameters (with_params), the size's
 * names, and elem_bytes (with_elem), bound in that order. */
static char *columns(int with_params, int with_elem)
{
	struct strbuf sb = {0};
	const char *names[3];
	int col = 1, ns = family_size_names(&U.f, names);
	for (int i = 0; with_params && i < U.f.nparams; i++, col++)
		sb_printf(&sb, "%s?%d AS %s", sb.len ? ", " : "", col, U.params[i].name);
	for (int i = 0; i < ns; i++, col++)
		sb_printf(&sb, "%s?%d AS %s", sb.len ? ", " : "", col, names[i]);
	if (with_elem)
		sb_printf(&sb, ", ?%d AS elem_bytes", col);
	return sb_detach(&sb);
}

/* Evaluates st with point v (NULL: no parameters), size d and, with dt,
 * elem_bytes bound.  The value's SQLite type (SQLITE_INTEGER, ...), or -1
 * when it fails; the value into *i and *x. */
static int eval(sqlite3_stmt *st, const int *v, const struct dtype *dt, const struct dims *d, sqlite3_int64 *i,
		double *x)
{
	sqlite3_reset(st);
	int col = 1;
	for (int p = 0; v && p < U.f.nparams; p++, col++) {
		if (U.params[p].names)
			sqlite3_bind_text(st, col, U.params[p].names[v[p]], -1, SQLITE_STATIC);
		else
			sqlite3_bind_int(st, col, v[p]);
	}
	const long dims[3] = { d->rows, d->cols, d->depth };
	const char *names[3];
	for (int k = 0, ns = family_size_names(&U.f, names); k < ns; k++, col++)
		sqlite3_bind_int64(st, col, dims[k]);
	if (dt)
		sqlite3_bind_int64(st, col, (sqlite3_int64)dt->size);
	U.steps = 0;
	if (sqlite3_step(st) != SQLITE_ROW)
		return -1;
	*i = sqlite3_column_int64(st, 0);
	*x = sqlite3_column_double(st, 0);
	return sqlite3_column_type(st, 0);
}

/* Buffer b's elements at size d, or -1 when its length is no whole
 * number of 1 to MAX_ELEMS (one that overflows SQLite's integers turns
 * real, and so is refused). */
static long long buffer_elems(int b, const struct dims *d)
{
	sqlite3_int64 i;
	double x;
	int t = eval(U.bufs[b].length, NULL, NULL, d, &i, &x);
	return t == SQLITE_INTEGER && i >= 1 && i <= MAX_ELEMS ? (long long)i : -1;
}

static size_t aligned(long long elems)
{
	return ((size_t)elems + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
}

/* Elements of every buffer of role at size d, one after the other. */
static size_t role_elems(int role, const struct dims *d)
{
	size_t total = 0;
	for (int b = 0; b < U.f.nbuffers; b++)
		if (U.buffers[b].role == role)
			total += aligned(buffer_elems(b, d));
	return total;
}

static size_t user_in_elems(const struct dims *d)
{
	return role_elems(BUF_INPUT, d);
}

static size_t user_out_bytes(const struct dtype *dt, const struct dims *d)
{
	for (int b = 0; b < U.f.nbuffers; b++)
		if (U.buffers[b].role == BUF_OUTPUT)
			return (size_t)buffer_elems(b, d) * dt->size;
	return 0;
}

static size_t user_scratch_bytes(const int *v, const struct dtype *dt, const struct dims *d)
{
	(void)v; /* a length reads the size alone */
	return role_elems(BUF_SCRATCH, d) * dt->size;
}

static void user_buffer_offsets(const struct dtype *dt, const struct dims *d, size_t *offsets)
{
	size_t at[3] = { 0, 0, 0 };
	for (int b = 0; b < U.f.nbuffers; b++) {
		int role = U.buffers[b].role;
		offsets[b] = at[role] * dt->size;
		at[role] += aligned(buffer_elems(b, d));
	}
}

static double user_work(const struct dtype *dt, const struct dims *d)
{
	sqlite3_int64 i;
	double x;
	int t = eval(U.metric, NULL, dt, d, &i, &x);
	return t == SQLITE_INTEGER || t == SQLITE_FLOAT ? x : 0;
}

static void user_geometry(const int *v, const struct dtype *dt, const struct dims *d, struct launch_geometry *g)
{
	unsigned val[7];
	int bad = 0;
	for (int k = 0; k < 7; k++) {
		sqlite3_int64 i = k == 6 ? 0 : 1;
		double x;
		if (U.geo[k] && eval(U.geo[k], v, dt, d, &i, &x) != SQLITE_INTEGER)
			bad = 1;
		bad |= i < (k == 6 ? 0 : 1) || i > 0x7fffffff;
		val[k] = (unsigned)i;
	}
	/* A geometry that is no launch's: the driver refuses a grid of 0,
	 * and the variant is stored as failing to launch. */
	*g = (struct launch_geometry){ { bad ? 0 : val[0], val[1], val[2] }, { val[3], val[4], val[5] }, val[6], 0 };
}

/* A half's bits from a float, rounded to nearest. */
static uint16_t half_from(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
	int e = (int)((x >> 23) & 0xff) - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		int shift = 14 - e;
		uint32_t h = mant >> shift;
		h += (mant >> (shift - 1)) & 1u;
		return (uint16_t)(sign | h);
	}
	uint32_t h = sign | ((uint32_t)e << 10) | (mant >> 13);
	h += (mant >> 12) & 1u; /* a carry moves into the exponent, as rounding should */
	return (uint16_t)h;
}

static double half_value(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	double m = h & 0x3ff, v;
	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(1024 + m, e - 25);
	return h & 0x8000 ? -v : v;
}

/* Element i of a buffer of dt as a double (i32 as its signed value). */
static double get(const void *p, const struct dtype *dt, size_t i)
{
	if (!strcmp(dt->name, "i32"))
		return ((const int32_t *)p)[i];
	if (dt->size == 8)
		return ((const double *)p)[i];
	if (dt->size == 2)
		return half_value(((const uint16_t *)p)[i]);
	return ((const float *)p)[i];
}

static void put(void *p, const struct dtype *dt, size_t i, double x)
{
	if (!strcmp(dt->name, "i32"))
		((int32_t *)p)[i] = (int32_t)x;
	else if (dt->size == 8)
		((double *)p)[i] = x;
	else if (dt->size == 2)
		((uint16_t *)p)[i] = half_from((float)x);
	else
		((float *)p)[i] = (float)x;
}

/* Each input buffer's values drawn from its range (an integer type's
 * from the whole numbers in it); the gaps between buffers zero. */
static void user_fill(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set)
{
	size_t at = 0;
	memset(in, 0, user_in_elems(d) * dt->size);
	int integer = !strcmp(dt->name, "i32");
	for (int b = 0; b < U.f.nbuffers; b++) {
		if (U.buffers[b].role != BUF_INPUT)
			continue;
		long long n = buffer_elems(b, d);
		double lo = U.bufs[b].lo, hi = U.bufs[b].hi;
		uint64_t s = seed ^ ((uint64_t)b << 56) ^ ((uint64_t)set << 48);
		for (long long j = 0; j < n; j++) {
			double u = (double)(mix64(s, (uint64_t)j) >> 11) / 9007199254740992.0; /* [0, 1) */
			double x = integer ? floor(ceil(lo) + u * (floor(hi) - ceil(lo) + 1)) : lo + u * (hi - lo);
			put(in, dt, at + (size_t)j, x);
		}
		at += aligned(n);
	}
}

/* The output against the reference's, within abs + rel x |reference| per
 * element (bit for bit equal always passes: the poison the reference
 * left unwritten, infinities, NaNs of one pattern). */
static const char *user_judge(const void *expected, const void *out, const int *v, const struct dtype *dt,
			      const struct dims *d, int set, char *buf, size_t n)
{
	(void)v;
	(void)set;
	size_t count = user_out_bytes(dt, d) / dt->size, bad = 0, first = 0;
	double worst = 0;
	const unsigned char *e = expected, *o = out;
	for (size_t i = 0; i < count; i++) {
		if (!memcmp(e + i * dt->size, o + i * dt->size, dt->size))
			continue;
		double r = get(expected, dt, i), x = get(out, dt, i), err = fabs(x - r);
		if (err <= U.f.abs_tol + U.f.rel_tol * fabs(r))
			continue;
		if (!bad++)
			first = i;
		if (!(err <= worst)) /* NaN counts as the worst */
			worst = err;
	}
	if (!bad)
		return NULL;
	snprintf(buf, n, "%zu of %zu elements differ from the reference by more than %g + %g x its magnitude, the "
		 "first at element %zu: %.9g, reference %.9g (largest error %.3g)", bad, count, U.f.abs_tol, U.f.rel_tol,
		 first, get(out, dt, first), get(expected, dt, first), worst);
	return buf;
}

static const char *user_size_problem(const struct dtype *dt, const struct dims *d, char *buf, size_t n)
{
	for (int b = 0; b < U.f.nbuffers; b++)
		if (buffer_elems(b, d) < 0) {
			snprintf(buf, n, "buffers[%d].length: '%.80s' is not a whole number of 1 to 2^34 elements there "
				 "(an integer that overflows turns real)", b, U.buffers[b].length);
			return buf;
		}
	double w = user_work(dt, d);
	if (!(w > 0) || !isfinite(w)) {
		snprintf(buf, n, "metric: '%.80s' is not a positive number there", U.metric_text);
		return buf;
	}
	int v[MAX_PARAMS];
	struct launch_geometry g = {0};
	if (family_classic_point(&U.f, U.f.reference_classic, v) == 0) {
		user_geometry(v, dt, d, &g);
		if (!g.grid[0]) {
			snprintf(buf, n, "launch: the reference's grid, block or smem is no whole number of 1 to 2^31 - 1 "
				 "(smem 0 or more) there");
			return buf;
		}
	}
	return NULL;
}

/* An expression field: text, or a JSON integer (its text).  NULL with
 * the error when neither. */
static char *expr_field(const char *spec, const char *path, const char *file, const char *field, char *err,
			size_t en)
{
	char type[16];
	char *e = user_jget(spec, path, type);
	if ((strcmp(type, "text") && strcmp(type, "integer")) || !user_good_text(e, EXPR_MAX) || !*e) {
		free(e);
		user_spec_fail(err, en, file, field, "must be an expression (text) or an integer, at most %d characters",
			       EXPR_MAX);
		return NULL;
	}
	return e;
}

/* A compiled expression of field: over the parameters (with_params), the
 * size and elem_bytes (with_elem).  NULL with the error. */
static sqlite3_stmt *expr_stmt(const char *spec, const char *path, const char *file, const char *field,
			       int with_params, int with_elem, const char **text, char *err, size_t en)
{
	char *e = expr_field(spec, path, file, field, err, en);
	if (!e)
		return NULL;
	char *cols = columns(with_params, with_elem);
	const char *names[3];
	int ns = family_size_names(&U.f, names);
	char desc[120];
	snprintf(desc, sizeof(desc), "nor a size's name%s%s%s%s%s%s%s", ns > 1 ? "s: " : ": ", names[0],
		 ns > 1 ? ", " : "", ns > 1 ? names[1] : "", ns > 2 ? ", " : "", ns > 2 ? names[2] : "",
		 with_elem ? ", nor elem_bytes" : "");
	sqlite3_stmt *st = user_prepare_expr(e, cols, desc, file, field, err, en);
	free(cols);
	if (st && text)
		*text = user_own(e);
	else
		free(e);
	return st;
}

/* A number field (absent: dflt), finite and at least 0.  -1 with the error. */
static int number_field(const char *spec, const char *path, const char *file, const char *field, double dflt,
			double *out, char *err, size_t en)
{
	char type[16];
	char *t = user_jget(spec, path, type);
	*out = dflt;
	if (!strcmp(type, "null")) {
		free(t);
		return 0;
	}
	if ((strcmp(type, "integer") && strcmp(type, "real")) || !t) {
		free(t);
		user_spec_fail(err, en, file, field, "must be a number");
		return -1;
	}
	*out = strtod(t, NULL);
	free(t);
	if (!isfinite(*out)) {
		user_spec_fail(err, en, file, field, "must be a finite number");
		return -1;
	}
	return 0;
}

static int read_buffer(const char *spec, const char *file, int b, char *err, size_t en)
{
	char path[64], field[64], type[16];
	snprintf(path, sizeof(path), "$.buffers[%d].name", b);
	snprintf(field, sizeof(field), "buffers[%d].name", b);
	char *name = user_jget(spec, path, type);
	if (strcmp(type, "text") || !user_good_name(name, 32)) {
		free(name);
		user_spec_fail(err, en, file, field, "must be a name of lower-case letters, digits and '_', a letter first");
		return -1;
	}
	for (int j = 0; j < b; j++)
		if (!strcmp(U.buffers[j].name, name)) {
			user_spec_fail(err, en, file, field, "'%s' is given twice", name);
			free(name);
			return -1;
		}
	U.buffers[b].name = user_own(name);
	snprintf(path, sizeof(path), "$.buffers[%d].role", b);
	snprintf(field, sizeof(field), "buffers[%d].role", b);
	char *role = user_jget(spec, path, type);
	int r = -1;
	for (int k = 0; k < 3; k++)
		if (!strcmp(type, "text") && !strcmp(role, role_names[k]))
			r = k;
	free(role);
	if (r < 0) {
		user_spec_fail(err, en, file, field, "must be \"input\" (filled with values of its range), \"output\" "
			       "(poisoned, guarded and checked) or \"scratch\" (zeroed)");
		return -1;
	}
	U.buffers[b].role = r;
	snprintf(path, sizeof(path), "$.buffers[%d].length", b);
	snprintf(field, sizeof(field), "buffers[%d].length", b);
	if (!(U.bufs[b].length = expr_stmt(spec, path, file, field, 0, 0, &U.buffers[b].length, err, en)))
		return -1;
	/* range: an input's [lo, hi], default [-1, 1]. */
	snprintf(path, sizeof(path), "$.buffers[%d].range", b);
	snprintf(field, sizeof(field), "buffers[%d].range", b);
	U.bufs[b].lo = -1, U.bufs[b].hi = 1;
	free(user_jget(spec, path, type));
	if (!strcmp(type, "null"))
		return 0;
	char at[80], t[3][16];
	double x[2] = { 0, 0 };
	for (int k = 0; k < 3; k++) {
		snprintf(at, sizeof(at), "%s[%d]", path, k);
		char *v = user_jget(spec, at, t[k]);
		if (k < 2 && v)
			x[k] = strtod(v, NULL);
		free(v);
	}
	int number = 1;
	for (int k = 0; k < 2; k++)
		number &= (!strcmp(t[k], "integer") || !strcmp(t[k], "real")) && isfinite(x[k]);
	if (r != BUF_INPUT || strcmp(type, "array") || !number || strcmp(t[2], "null") || !(x[0] <= x[1])) {
		user_spec_fail(err, en, file, field, "an input's range is [lo, hi], two numbers with lo <= hi");
		return -1;
	}
	U.bufs[b].lo = x[0], U.bufs[b].hi = x[1];
	return 0;
}

/* buffers: 1 to MAX_BUFFERS, one output, at least one input. */
static int read_buffers(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.buffers", type));
	if (!strcmp(type, "null"))
		return 1;
	int nb = user_jlen(spec, "$.buffers");
	if (nb < 1 || nb > MAX_BUFFERS) {
		user_spec_fail(err, en, file, "buffers", "must be an array of 1 to %d buffers", MAX_BUFFERS);
		return -1;
	}
	U.f.nbuffers = nb;
	int count[3] = { 0, 0, 0 };
	for (int b = 0; b < nb; b++) {
		if (read_buffer(spec, file, b, err, en) < 0)
			return -1;
		count[U.buffers[b].role]++;
	}
	if (count[BUF_OUTPUT] != 1 || count[BUF_INPUT] < 1) {
		user_spec_fail(err, en, file, "buffers", "must hold one output and at least one input (it has %d and %d)",
			       count[BUF_OUTPUT], count[BUF_INPUT]);
		return -1;
	}
	U.f.buffers = U.buffers;
	return 0;
}

/* launch: {"grid": [X, Y, Z], "block": [X, Y, Z], "smem": BYTES}, each an
 * expression of the parameters, the size and elem_bytes (missing entries
 * 1; smem 0). */
static int read_launch(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.launch", type));
	if (!strcmp(type, "null"))
		return 1;
	if (strcmp(type, "object")) {
		user_spec_fail(err, en, file, "launch", "must be an object: {\"grid\": [...], \"block\": [...], \"smem\": ...}");
		return -1;
	}
	for (int k = 0; k < 7; k++) {
		char path[64], field[64];
		int arr = k < 6;
		snprintf(path, sizeof(path), arr ? "$.launch.%.*s[%d]" : "$.launch.smem", k < 3 ? 4 : 5,
			 k < 3 ? "grid" : "block", k % 3);
		snprintf(field, sizeof(field), "launch.%s", geo_names[k]);
		free(user_jget(spec, path, type));
		if (!strcmp(type, "null")) {
			if (k == 0 || k == 3) {
				user_spec_fail(err, en, file, field, "is needed: %s is an array of 1 to 3 expressions",
					       k ? "block" : "grid");
				return -1;
			}
			continue;
		}
		if (!(U.geo[k] = expr_stmt(spec, path, file, field, 1, 1, &U.geo_text[k], err, en)))
			return -1;
	}
	const char *arrays[] = { "$.launch.grid[3]", "$.launch.block[3]" };
	for (int k = 0; k < 2; k++) {
		free(user_jget(spec, arrays[k], type));
		if (strcmp(type, "null")) {
			user_spec_fail(err, en, file, k ? "launch.block" : "launch.grid", "has more than 3 entries");
			return -1;
		}
	}
	U.f.geometry = user_geometry;
	return 0;
}

/* metric: {"bytes": EXPR} (GB/s against the copy ceiling, or "ceiling":
 * "read") or {"flops": EXPR} (GFLOP/s against the FMA rate). */
static int read_metric(const char *spec, const char *file, char *err, size_t en)
{
	char type[16], tb[16], tf[16];
	free(user_jget(spec, "$.metric", type));
	if (!strcmp(type, "null"))
		return 1;
	free(user_jget(spec, "$.metric.bytes", tb));
	free(user_jget(spec, "$.metric.flops", tf));
	if (strcmp(type, "object") || !strcmp(tb, "null") == !strcmp(tf, "null")) {
		user_spec_fail(err, en, file, "metric", "must be {\"bytes\": EXPR} (bytes one launch moves) or "
			       "{\"flops\": EXPR} (operations it does), one of the two");
		return -1;
	}
	int bytes = strcmp(tb, "null") != 0;
	if (!(U.metric = expr_stmt(spec, bytes ? "$.metric.bytes" : "$.metric.flops", file,
				   bytes ? "metric.bytes" : "metric.flops", 0, 1, &U.metric_text, err, en)))
		return -1;
	U.f.metric = bytes ? METRIC_BYTES : METRIC_FLOPS;
	U.f.ceiling = bytes ? CEILING_COPY : CEILING_FMA;
	char *ceil = user_jget(spec, "$.metric.ceiling", type);
	int bad = strcmp(type, "null") &&
		  (!bytes || strcmp(type, "text") || (strcmp(ceil, "copy") && strcmp(ceil, "read")));
	if (!bad && !strcmp(type, "text") && !strcmp(ceil, "read"))
		U.f.ceiling = CEILING_READ;
	free(ceil);
	if (bad) {
		user_spec_fail(err, en, file, "metric.ceiling", "must be \"copy\" (the default) or \"read\", with bytes");
		return -1;
	}
	return 0;
}

/* classics: up to MAX_CLASSICS "name:param=value,..." points. */
static int read_classics(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.classics", type));
	if (!strcmp(type, "null"))
		return 0;
	int n = 0, bad = strcmp(type, "array") != 0;
	sqlite3_stmt *st = NULL;
	char why[256] = "";
	if (!bad && sqlite3_prepare_v2(U.db, "SELECT type, value FROM json_each(?1, '$.classics')", -1, &st, NULL) ==
			    SQLITE_OK) {
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
		while (!bad && sqlite3_step(st) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
			size_t colon = v ? strcspn(v, ":") : 0;
			char name[40];
			int pt[MAX_PARAMS];
			if (n == MAX_CLASSICS || strcmp(t, "text") || !v[colon] || colon >= sizeof(name) ||
			    !user_good_text(v, 400)) {
				bad = 1;
				break;
			}
			snprintf(name, sizeof(name), "%.*s", (int)colon, v);
			/* A classic's name may hold '-' too: "tile32x8-pad1". */
			int good = islower((unsigned char)name[0]) &&
				   strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(name);
			if (!good || family_point_check(&U.f, v + colon + 1, pt, why, sizeof(why)) < 0) {
				bad = 1;
				break;
			}
			for (int j = 0; j < n; j++)
				bad |= !strncmp(U.classics[j], v, colon + 1);
			U.classics[n++] = user_own(xstrdup(v));
		}
	}
	sqlite3_finalize(st);
	if (bad) {
		user_spec_fail(err, en, file, "classics", "must be an array of up to %d different \"name:param=value,...\" "
			       "points of the space%s%s", MAX_CLASSICS, *why ? ": " : "", why);
		return -1;
	}
	U.f.classics = n ? U.classics : NULL;
	U.f.nreport = n;
	return 0;
}

/* check: {"reference": CLASSIC, "abs": A, "rel": R}: every variant's output
 * against the classic's, bit for bit, or within A + R x |reference|. */
static int read_check(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.check", type));
	if (!strcmp(type, "null"))
		return 1;
	char *ref = user_jget(spec, "$.check.reference", type);
	int found = -1;
	for (int i = 0; !strcmp(type, "text") && i < U.f.nreport; i++)
		if (!strncmp(U.classics[i], ref, strlen(ref)) && U.classics[i][strlen(ref)] == ':')
			found = i;
	if (found < 0) {
		user_spec_fail(err, en, file, "check.reference", "must name one of the classics (the point whose output "
			       "every variant's must match)%s%.40s%s", ref ? ": '" : "", ref ? ref : "", ref ? "' is none" : "");
		free(ref);
		return -1;
	}
	free(ref);
	if (number_field(spec, "$.check.abs", file, "check.abs", 0, &U.f.abs_tol, err, en) < 0 ||
	    number_field(spec, "$.check.rel", file, "check.rel", 0, &U.f.rel_tol, err, en) < 0)
		return -1;
	if (U.f.abs_tol < 0 || U.f.rel_tol < 0) {
		user_spec_fail(err, en, file, U.f.abs_tol < 0 ? "check.abs" : "check.rel", "must be 0 or more");
		return -1;
	}
	U.f.check = CHECK_REFERENCE;
	U.f.reference_classic = found;
	U.f.judge = U.f.abs_tol > 0 || U.f.rel_tol > 0 ? user_judge : NULL;
	return 0;
}

/* What a header's gputune_NAME_geometry() runs (family.h, geometry_c):
 * the launch's expressions over the configuration, the size and the
 * element size as long long locals, so that they compute in C what
 * SQLite computes. */
static char *geometry_c(void)
{
	struct strbuf sb = {0};
	const char *names[3];
	int ns = family_size_names(&U.f, names);
	const char *P = U.f.name;
	sb_printf(&sb, "\tconst char *gt_t = gputune_%s_variants[variant].dtype;\n"
		  "\tconst gputune_%s_config gt_cfg = *c;\n\tlong long gt_v[7] = { 1, 1, 1, 1, 1, 1, 0 };\n", P, P);
	for (int k = 0; k < ns; k++)
		sb_printf(&sb, "\tconst long long gt_s%d = (long long)%s;\n", k, names[k]);
	sb_puts(&sb, "\t{\n");
	for (int k = 0; k < ns; k++)
		sb_printf(&sb, "\t\tconst long long %s = gt_s%d;\n", names[k], k);
	for (int i = 0; i < U.f.nparams; i++)
		sb_printf(&sb, "\t\tconst long long %s = gt_cfg.%s;\n", U.params[i].name, U.params[i].name);
	sb_puts(&sb, "\t\tconst long long elem_bytes = gt_t[1] == '6' ? 8 : gt_t[1] == '1' ? 2 : 4;\n");
	for (int k = 0; k < ns; k++)
		sb_printf(&sb, "\t\t(void)%s;\n", names[k]);
	for (int i = 0; i < U.f.nparams; i++)
		sb_printf(&sb, "\t\t(void)%s;\n", U.params[i].name);
	sb_puts(&sb, "\t\t(void)elem_bytes;\n");
	for (int k = 0; k < 7; k++)
		if (U.geo_text[k])
			sb_printf(&sb, "\t\tgt_v[%d] = (%s);\n", k, U.geo_text[k]);
	sb_puts(&sb, "\t}\n\tfor (int i = 0; i < 3; i++) {\n\t\tgrid[i] = (unsigned)gt_v[i];\n"
		     "\t\tblock[i] = (unsigned)gt_v[3 + i];\n\t}\n\t*smem = (unsigned)gt_v[6];\n");
	return sb_detach(&sb);
}

/* What a header's opening comment says of the buffers. */
static char *header_notes(void)
{
	struct strbuf sb = {0};
	sb_printf(&sb, "The launch's buffers, in its order (elements of the variant's type):\n");
	for (int b = 0; b < U.f.nbuffers; b++)
		sb_printf(&sb, "  %s: %s, %s elements%s\n", U.buffers[b].name, role_names[U.buffers[b].role],
			  U.buffers[b].length, U.buffers[b].role == BUF_SCRATCH ? ", zeroed before the first launch" : "");
	sb_printf(&sb, "gputune_%s_buffer_elems(b, size) gives buffer b's length at a size.", U.f.name);
	return sb_detach(&sb);
}

/* Whether expr reads the same in C: names of the parameters, the size
 * and elem_bytes, integers, + - * / %% and parentheses, and comparisons
 * written as C writes them (==, !=, <, <=, >, >=).  NULL, or why not. */
static const char *c_problem(const char *expr, int with_params, int with_elem)
{
	const char *names[3];
	int ns = family_size_names(&U.f, names);
	for (const char *p = expr; *p;) {
		if (isspace((unsigned char)*p) || isdigit((unsigned char)*p) || strchr("+-*/%()<>", *p)) {
			if (*p == '<' && p[1] == '>')
				return "'<>' is SQL's; write !=";
			if (isdigit((unsigned char)*p) && (p[1] == '.' || p[1] == 'e' || p[1] == 'x'))
				return "a number that is not a whole decimal";
			p++;
			continue;
		}
		if (*p == '=' || *p == '!') {
			int two = p[1] == '=';
			if (*p == '=' && !two && !(p > expr && strchr("<>!=", p[-1])))
				return "'=' is SQL's comparison; write ==";
			if (*p == '!' && !two)
				return "'!' without '='";
			p += two ? 2 : 1;
			continue;
		}
		if (islower((unsigned char)*p) || *p == '_') {
			size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
			int known = with_elem && len == 10 && !strncmp(p, "elem_bytes", len);
			for (int k = 0; !known && k < ns; k++)
				known = strlen(names[k]) == len && !strncmp(p, names[k], len);
			for (int i = 0; !known && with_params && i < U.f.nparams; i++)
				known = strlen(U.params[i].name) == len && !strncmp(p, U.params[i].name, len) && !U.params[i].names;
			if (!known)
				return "it names what is not a number of C (a function, a keyword, a parameter of names)";
			p += len;
			continue;
		}
		return "a character C reads otherwise";
	}
	return NULL;
}

const char *user_family_c_problem(char *buf, size_t n)
{
	for (int b = 0; b < U.f.nbuffers; b++) {
		const char *why = c_problem(U.buffers[b].length, 0, 0);
		if (why) {
			snprintf(buf, n, "buffers[%d].length: '%.80s': %s", b, U.buffers[b].length, why);
			return buf;
		}
	}
	for (int k = 0; k < 7; k++) {
		const char *why = U.geo_text[k] ? c_problem(U.geo_text[k], 1, 1) : NULL;
		if (why) {
			snprintf(buf, n, "launch.%s: '%.80s': %s", geo_names[k], U.geo_text[k], why);
			return buf;
		}
	}
	return NULL;
}

int user_read_launch(const char *spec, const char *file, char *err, size_t en)
{
	int absent[4];
	const char *what[4] = { "buffers", "launch", "metric", "check" };
	if ((absent[0] = read_buffers(spec, file, err, en)) < 0 || (absent[1] = read_launch(spec, file, err, en)) < 0 ||
	    (absent[2] = read_metric(spec, file, err, en)) < 0 || read_classics(spec, file, err, en) < 0 ||
	    (absent[3] = read_check(spec, file, err, en)) < 0)
		return -1;
	U.missing[0] = 0;
	for (int k = 0; k < 4; k++)
		if (absent[k])
			snprintf(U.missing + strlen(U.missing), sizeof(U.missing) - strlen(U.missing), "%s%s",
				 *U.missing ? ", " : "", what[k]);
	U.f.args = ARGS_USER;
	U.f.nsets = 1;
	if (!absent[0]) {
		U.f.buffer_offsets = user_buffer_offsets;
		U.f.in_elems = user_in_elems;
		U.f.out_bytes = user_out_bytes;
		U.f.fill = user_fill;
		for (int b = 0; b < U.f.nbuffers; b++)
			if (U.buffers[b].role == BUF_SCRATCH)
				U.f.scratch_bytes = user_scratch_bytes;
	}
	if (!absent[2])
		U.f.work = user_work;
	if (!*U.missing) {
		U.f.size_problem = user_size_problem;
		U.f.geometry_c = user_own(geometry_c());
		U.f.header_notes = user_own(header_notes());
	}
	return 0;
}
