/*
 * space.c - see space.h.  Rejections are never silent: each rejected
 * point is counted under the reason the family gave.
 */
#define _POSIX_C_SOURCE 200809L
#include "families/space.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void list_params(const struct family *f, struct strbuf *sb)
{
	for (int i = 0; i < f->nparams; i++)
		sb_printf(sb, "%s%s", i ? ", " : "", f->params[i].name);
}

static void list_allowed(const struct param_def *p, struct strbuf *sb)
{
	char buf[32];
	for (int i = 0; i < p->nallowed; i++)
		sb_printf(sb, "%s%s", i ? "," : "", param_value_text(p, p->allowed[i], buf, sizeof(buf)));
}

/* Parses "name=v1,v2" into param index *k and values; -1 after a message
 * that begins with who (the command). */
static int parse_setting(const struct family *f, const char *who, const char *text,
			 int *k, int *values, int *nvalues)
{
	const char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1]) {
		error("%s: bad --param '%s' (expected NAME=VALUE[,VALUE...])", who, text);
		return -1;
	}
	char *name = xstrdup(text);
	name[eq - text] = '\0';
	*k = family_param_index(f, name);
	if (*k < 0) {
		struct strbuf sb = {0};
		list_params(f, &sb);
		error("%s: unknown parameter '%s' for %s (parameters: %s)", who,
				name, f->name, sb.buf);
		sb_free(&sb);
		free(name);
		return -1;
	}
	free(name);
	const struct param_def *p = &f->params[*k];
	*nvalues = 0;
	if (!strcmp(eq + 1, "all")) {
		for (int i = 0; i < p->nallowed; i++)
			values[(*nvalues)++] = p->allowed[i];
		return 0;
	}
	const char *vals = eq + 1;
	size_t vl = strlen(vals);
	if (vals[0] == ',' || vals[vl - 1] == ',' || strstr(vals, ",,")) {
		error("%s: empty value in --param '%s'", who, text);
		return -1;
	}
	char *list = xstrdup(vals), *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int v;
		if (param_value_parse(p, tok, &v) < 0) {
			struct strbuf sb = {0};
			list_allowed(p, &sb);
			error("%s: unsupported value '%s' for parameter %s (supported: %s)",
					who, tok, p->name, sb.buf);
			sb_free(&sb);
			rc = -1;
			break;
		}
		int dup = 0;
		for (int i = 0; i < *nvalues; i++)
			dup |= values[i] == v;
		if (!dup && *nvalues < MAX_VALUES)
			values[(*nvalues)++] = v;
	}
	free(list);
	if (!rc && *nvalues == 0) {
		error("%s: no value in --param '%s'", who, text);
		rc = -1;
	}
	return rc;
}

/* -1 after a message when parameter k, set by params[j], was set by an
 * earlier one too: the second would silently replace the first, where
 * the user may have meant both values. */
static int given_twice(const struct family *f, const char *who, const char *const *params, size_t j, int k)
{
	for (size_t i = 0; i < j; i++) {
		size_t len = strcspn(params[i], "=");
		if (strlen(f->params[k].name) == len && !strncmp(params[i], f->params[k].name, len))
			return fail("%s: --param %s given twice ('%s' and '%s'): give all its values in one, as "
				    "--param %s=A,B", who, f->params[k].name, params[i], params[j], f->params[k].name);
	}
	return 0;
}

int space_init(struct space *s, const struct family *f, const struct dtype *dt, const char *const *params,
	       size_t nparams, const char *who)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->dt = dt;
	for (int i = 0; i < f->nparams; i++) {
		s->nvalues[i] = f->params[i].ndefaults;
		memcpy(s->values[i], f->params[i].defaults, sizeof(int) * (size_t)f->params[i].ndefaults);
	}
	for (size_t j = 0; j < nparams; j++) {
		int k, vals[MAX_VALUES], n;
		if (parse_setting(f, who, params[j], &k, vals, &n) < 0 || given_twice(f, who, params, j, k) < 0)
			return -1;
		s->nvalues[k] = n;
		s->asked[k] = 1;
		memcpy(s->values[k], vals, sizeof(int) * (size_t)n);
	}
	return 0;
}

void device_limits_default(struct device_limits *lim)
{
	lim->max_threads_per_block = 1024;
	lim->max_smem_per_block = SMEM_WITHOUT_OPTIN;
	lim->cc = 0;
	lim->max_smem_optin = SMEM_WITHOUT_OPTIN;
}

int device_smem_optin(int cc)
{
	static const struct { int cc, kib; } table[] = {
		{ 70, 96 }, { 75, 64 }, { 80, 163 }, { 86, 99 }, { 87, 163 }, { 89, 99 }, { 90, 227 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].cc == cc)
			return table[i].kib * 1024;
	return SMEM_WITHOUT_OPTIN;
}

/* Threads an SM holds at compute capability cc (10 major + minor). */
static int sm_max_threads(int cc)
{
	if (cc == 75)
		return 1024;
	if (cc == 86 || cc == 87 || cc == 89 || cc / 10 == 12)
		return 1536;
	return 2048;
}

/* Blocks an SM holds at compute capability cc: past it ptxas ignores a
 * bound (a warning at every build of a small block's kernel). */
static int sm_max_blocks(int cc)
{
	if (cc == 75 || cc == 86 || cc == 87)
		return 16;
	return cc == 89 ? 24 : 32;
}

/* Shared memory of an SM of compute capability cc (8.0 on), bytes: the
 * most a block may opt in to and the 1 KiB the system keeps of it a
 * block; 0 where not known. */
static long sm_smem(int cc)
{
	return cc >= 80 && device_smem_optin(cc) > SMEM_WITHOUT_OPTIN ? device_smem_optin(cc) + 1024L : 0;
}

int device_blocks_per_sm(const struct family *fam, const int *v, const struct dtype *dt, int regs, int cc)
{
	if (regs <= 0)
		return 1;
	/* Threads a block: the families' do not depend on the size. */
	struct dims d = { 1024, 1024, 1024 };
	struct launch_geometry g = {0};
	fam->geometry(v, dt, &d, &g);
	long threads = (long)g.block[0] * g.block[1] * g.block[2];
	if (threads <= 0)
		return 1;
	long by_regs = 65536 / ((regs + 7) / 8 * 8 * threads);
	long by_threads = sm_max_threads(cc) / threads;
	long b = by_regs < by_threads ? by_regs : by_threads;
	if (b > sm_max_blocks(cc))
		b = sm_max_blocks(cc);
	/* A block over 48 KiB of shared memory: as many as its SM holds. */
	if (g.smem > SMEM_WITHOUT_OPTIN && sm_smem(cc) > 0 && b > sm_smem(cc) / ((long)g.smem + 1024))
		b = sm_smem(cc) / ((long)g.smem + 1024);
	return b > 1 ? (int)b : 1;
}

static void count_reject(struct space *s, const char *reason)
{
	for (size_t i = 0; i < s->nrejects; i++)
		if (!strcmp(s->rejects[i].reason, reason)) {
			s->rejects[i].count++;
			return;
		}
	s->rejects = xrealloc(s->rejects, (s->nrejects + 1) * sizeof(*s->rejects));
	s->rejects[s->nrejects].reason = xstrdup(reason);
	s->rejects[s->nrejects].count = 1;
	s->nrejects++;
}

void space_enumerate(struct space *s, const struct device_limits *lim)
{
	const struct family *f = s->f;
	int idx[MAX_PARAMS] = {0};
	size_t cap = 0;
	for (;;) {
		int v[MAX_PARAMS] = {0};
		for (int i = 0; i < f->nparams; i++)
			v[i] = s->values[i][idx[i]];
		char buf[160];
		const char *why = f->reject(v, s->dt, lim, buf, sizeof(buf));
		if (!why && f->default_only)
			why = f->default_only(v, s->asked);
		s->total++;
		if (why) {
			count_reject(s, why);
		} else {
			if (s->npoints == cap) {
				cap = cap ? cap * 2 : 256;
				s->points = xrealloc(s->points, cap * sizeof(*s->points));
			}
			memcpy(s->points[s->npoints++], v, sizeof(v));
		}
		/* Odometer: the last parameter changes fastest. */
		int i = f->nparams - 1;
		while (i >= 0 && ++idx[i] == s->nvalues[i])
			idx[i--] = 0;
		if (i < 0)
			break;
	}
	s->nvalid = s->npoints;
}

void space_free(struct space *s)
{
	for (size_t i = 0; i < s->nrejects; i++)
		free(s->rejects[i].reason);
	free(s->rejects);
	free(s->points);
	memset(s, 0, sizeof(*s));
}

int space_single_point(const struct family *f, const char *const *params, size_t nparams, const char *who, int *v)
{
	for (int i = 0; i < f->nparams; i++)
		v[i] = f->params[i].single;
	for (size_t j = 0; j < nparams; j++) {
		int k, vals[MAX_VALUES], n;
		if (parse_setting(f, who, params[j], &k, vals, &n) < 0 || given_twice(f, who, params, j, k) < 0)
			return -1;
		if (n != 1)
			return fail("%s: --param '%s' must name one value here", who, params[j]);
		v[k] = vals[0];
	}
	return 0;
}

void space_sample(struct space *s, size_t count, uint64_t seed)
{
	if (count >= s->npoints)
		return;
	/* Selection sampling (Knuth's algorithm S): each point is kept with
	 * the probability still needed / still left, so exactly count stay. */
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ seed;
	size_t kept = 0;
	for (size_t i = 0; i < s->npoints && kept < count; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		uint64_t r = (x * 0x2545f4914f6cdd1dULL) >> 11;
		if ((double)r / 9007199254740992.0 * (double)(s->npoints - i) < (double)(count - kept))
			memmove(s->points[kept++], s->points[i], sizeof(s->points[0]));
	}
	s->npoints = kept;
}
