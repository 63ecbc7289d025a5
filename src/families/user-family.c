/*
 * user-family.c - see user-family.h.
 *
 * The spec is read with SQLite's JSON functions (one in-memory
 * connection); every field is checked before the family is built, and an
 * error names the file and the field.  Each constraint is compiled once as
 *     SELECT (EXPR) FROM (SELECT ?1 AS param1, ..., ?k AS cc)
 * on a connection whose authorizer allows a SELECT and a short list of
 * functions and nothing else (no table, no PRAGMA, no ATTACH), whose
 * limits bound the expression's size and depth, and whose progress
 * handler bounds its work: a spec cannot read a file or run for long.
 */
#include "config.h"
#include "families/user-family.h"
#include "families/user-state.h"
#include "util/json-check.h"
#include "util/sizes.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define STEPS_MAX 100000
/* A spec's parameters at most, as docs/user-kernels.md promises (a
 * built-in family's table may hold up to MAX_PARAMS). */
#define SPEC_MAX_PARAMS 16
_Static_assert(SPEC_MAX_PARAMS <= MAX_PARAMS, "a spec's parameters must fit a family's table");

/* What a constraint reads besides the parameters. */
static const char *const limit_names[] = { "elem_bytes", "max_threads", "max_smem", "cc" };
#define NLIMITS 4

/* The functions an expression may call: arithmetic and comparisons. */
static const char *const allowed_functions[] = { "abs", "min", "max", "coalesce", "iif", "nullif", "round",
						 "ifnull", NULL };

struct user U;

char *user_own(char *s)
{
	if (U.nstrings == U.capstrings) {
		U.capstrings = U.capstrings ? 2 * U.capstrings : 64;
		U.strings = xrealloc(U.strings, (size_t)U.capstrings * sizeof(*U.strings));
	}
	U.strings[U.nstrings++] = s;
	return s;
}

/* The error: "FILE: FIELD: what", into err; returns NULL. */
const struct family *user_spec_fail(char *err, size_t en, const char *file, const char *field, const char *fmt, ...)
{
	char what[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, en, "%s: %s%s%s", file, field ? field : "", field ? ": " : "", what);
	user_family_free();
	return NULL;
}

static int authorize(void *unused, int action, const char *a, const char *b, const char *c, const char *d)
{
	(void)unused;
	(void)a;
	(void)c;
	(void)d;
	if (action == SQLITE_SELECT)
		return SQLITE_OK;
	if (action == SQLITE_FUNCTION) { /* the function's name is the fourth argument */
		for (int i = 0; allowed_functions[i]; i++)
			if (b && !strcasecmp(b, allowed_functions[i]))
				return SQLITE_OK;
		/* The JSON functions read the spec, before the authorizer. */
	}
	return SQLITE_DENY;
}

static int progress(void *unused)
{
	(void)unused;
	return ++U.steps > STEPS_MAX / 100;
}

/* json_extract(spec, path) as text (a new string) and its JSON type
 * ("null" when absent) into type (size 16). */
char *user_jget(const char *spec, const char *path, char *type)
{
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	snprintf(type, 16, "null");
	if (sqlite3_prepare_v2(U.db, "SELECT json_extract(?1, ?2), coalesce(json_type(?1, ?2), 'null')", -1, &st,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		out = t ? xstrdup(t) : NULL;
		snprintf(type, 16, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return out;
}

int user_jlen(const char *spec, const char *path)
{
	sqlite3_stmt *st = NULL;
	int n = -1;
	if (sqlite3_prepare_v2(U.db, "SELECT CASE json_type(?1, ?2) WHEN 'array' THEN json_array_length(?1, ?2) END",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER)
			n = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* A name the spec gives (a family's, a parameter's): lower-case letters,
 * digits and '_', a letter first, at most max characters. */
int user_good_name(const char *s, size_t max)
{
	if (!s || !islower((unsigned char)s[0]) || strlen(s) > max)
		return 0;
	for (const char *p = s; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

int user_good_text(const char *s, size_t max)
{
	if (!s || strlen(s) > max)
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20)
			return 0;
	return 1;
}

/* Parameter i's values: integers, or names (a symbolic parameter).  NULL,
 * or the error (through spec_fail). */
static const char *read_values(const char *spec, const char *file, int i, char *err, size_t en)
{
	char path[64], field[64];
	struct param_def *p = &U.params[i];
	snprintf(field, sizeof(field), "params[%d].values", i);
	sqlite3_stmt *st = NULL;
	snprintf(path, sizeof(path), "$.params[%d].values", i);
	if (sqlite3_prepare_v2(U.db, "SELECT type, value FROM json_each(?1, ?2)", -1, &st, NULL) != SQLITE_OK) {
		user_spec_fail(err, en, file, field, "cannot be read (%s)", sqlite3_errmsg(U.db));
		return err;
	}
	sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	int n = 0, symbolic = -1, bad = 0;
	while (!bad && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		int sym = !strcmp(t, "text");
		if (n == MAX_VALUES || (strcmp(t, "integer") && !sym) || (symbolic >= 0 && sym != symbolic)) {
			bad = 1;
			break;
		}
		symbolic = sym;
		if (sym) {
			const char *v = (const char *)sqlite3_column_text(st, 1);
			if (!user_good_name(v, 32)) {
				bad = 1;
				break;
			}
			U.names[i][n] = user_own(xstrdup(v));
			p->allowed[n] = n;
		} else {
			sqlite3_int64 v = sqlite3_column_int64(st, 1);
			if (v < -(1LL << 30) || v > (1LL << 30)) {
				bad = 1;
				break;
			}
			p->allowed[n] = (int)v;
		}
		for (int j = 0; j < n; j++)
			bad |= p->allowed[j] == p->allowed[n] && !sym;
		for (int j = 0; sym && j < n; j++)
			bad |= !strcmp(U.names[i][j], U.names[i][n]);
		n++;
	}
	sqlite3_finalize(st);
	if (bad || n == 0) {
		user_spec_fail(err, en, file, field, "must be an array of 1 to %d different integers (within +-2^30), or of "
			  "names of lower-case letters, digits and '_'", MAX_VALUES);
		return err;
	}
	p->nallowed = n;
	if (symbolic)
		p->names = (const char *const *)U.names[i];
	return NULL;
}

/* Parameter i's default search: "default" (a subset of the values), else
 * all of them.  NULL, or the error. */
static const char *read_defaults(const char *spec, const char *file, int i, char *err, size_t en)
{
	char path[64], type[16], field[64];
	struct param_def *p = &U.params[i];
	int n = p->nallowed, bad;
	sqlite3_stmt *st = NULL;
	snprintf(path, sizeof(path), "$.params[%d].default", i);
	char *def = user_jget(spec, path, type);
	free(def);
	snprintf(field, sizeof(field), "params[%d].default", i);
	if (!strcmp(type, "null")) {
		memcpy(p->defaults, p->allowed, sizeof(p->defaults));
		p->ndefaults = n;
	} else {
		sqlite3_prepare_v2(U.db, "SELECT value FROM json_each(?1, ?2)", -1, &st, NULL);
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
		int nd = 0;
		bad = strcmp(type, "array") != 0;
		while (!bad && sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			int value;
			if (nd == MAX_VALUES || !v || param_value_parse(p, v, &value) < 0) {
				bad = 1;
				break;
			}
			p->defaults[nd++] = value;
		}
		sqlite3_finalize(st);
		if (bad || nd == 0) {
			user_spec_fail(err, en, file, field, "must be an array of some of params[%d].values", i);
			return err;
		}
		p->ndefaults = nd;
	}
	return NULL;
}

/* One parameter, params[i] of the spec, into U.params[i].  NULL, or the
 * error (through fail). */
static const char *read_param(const char *spec, const char *file, int i, char *err, size_t en)
{
	char path[64], type[16], field[64];
	struct param_def *p = &U.params[i];
	snprintf(field, sizeof(field), "params[%d].name", i);
	snprintf(path, sizeof(path), "$.params[%d].name", i);
	char *name = user_jget(spec, path, type);
	if (strcmp(type, "text") || !user_good_name(name, 32)) {
		free(name);
		user_spec_fail(err, en, file, field, "must be a name of lower-case letters, digits and '_', a letter first, "
			  "at most 32 characters");
		return err;
	}
	for (int k = 0; k < NLIMITS; k++)
		if (!strcmp(name, limit_names[k])) {
			user_spec_fail(err, en, file, field, "'%s' is a device limit's name; call the parameter otherwise", name);
			free(name);
			return err;
		}
	if (!strncmp(name, "gt_", 3)) {
		user_spec_fail(err, en, file, field, "'%s': names that begin gt_ are gputune's own", name);
		free(name);
		return err;
	}
	static const char *const size_names[] = { "n", "rows", "cols", "m", "k", NULL };
	for (int k = 0; size_names[k]; k++)
		if (!strcmp(name, size_names[k])) {
			user_spec_fail(err, en, file, field, "'%s' names a size (n; rows, cols; m, n, k); call the parameter "
				       "otherwise", name);
			free(name);
			return err;
		}
	if (sqlite3_keyword_check(name, (int)strlen(name))) {
		user_spec_fail(err, en, file, field, "'%s' is an SQL keyword, which a constraint could not name", name);
		free(name);
		return err;
	}
	for (int j = 0; j < i; j++)
		if (!strcmp(U.params[j].name, name)) {
			user_spec_fail(err, en, file, field, "'%s' is given twice", name);
			free(name);
			return err;
		}
	p->name = user_own(name);
	char *macro = xasprintf("GT_%s", name);
	for (char *c = macro; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	p->macro = user_own(macro);
	snprintf(path, sizeof(path), "$.params[%d].help", i);
	char *help = user_jget(spec, path, type);
	snprintf(field, sizeof(field), "params[%d].help", i);
	if (strcmp(type, "null") && (strcmp(type, "text") || !user_good_text(help, 300))) {
		free(help);
		user_spec_fail(err, en, file, field, "must be text of at most 300 characters, without control characters");
		return err;
	}
	p->help = user_own(help ? help : xstrdup(""));
	if (read_values(spec, file, i, err, en) || read_defaults(spec, file, i, err, en))
		return err;
	p->single = p->defaults[0];
	/* "value": what a point that does not name it takes (default: the
	 * first of the default search); "quiet": left out of names there. */
	snprintf(path, sizeof(path), "$.params[%d].value", i);
	snprintf(field, sizeof(field), "params[%d].value", i);
	char *value = user_jget(spec, path, type);
	int bad = strcmp(type, "null") && (!value || param_value_parse(p, value, &p->single) < 0 ||
					   (p->names ? strcmp(type, "text") : strcmp(type, "integer")));
	free(value);
	if (bad) {
		user_spec_fail(err, en, file, field, "must be one of params[%d].values", i);
		return err;
	}
	snprintf(path, sizeof(path), "$.params[%d].quiet", i);
	snprintf(field, sizeof(field), "params[%d].quiet", i);
	free(user_jget(spec, path, type));
	if (strcmp(type, "null") && strcmp(type, "true") && strcmp(type, "false")) {
		user_spec_fail(err, en, file, field, "must be true or false");
		return err;
	}
	p->quiet = !strcmp(type, "true");
	return NULL;
}

/* Rule i of the spec's array (constraints, default_only): its "require",
 * compiled over the columns cols (names: what they are, for messages)
 * into *st, the expression as written into *expr (caller frees), and its
 * "reason" (owned by the family).  0, 1 when the array has no rule i, or
 * -1 after the error. */
static int read_rule(const char *spec, const char *file, const char *array, int i, int max, const char *cols,
		     const char *names, sqlite3_stmt **st, char **expr, const char **reason, char *err, size_t en)
{
	char path[80], field[80], type[16];
	snprintf(path, sizeof(path), "$.%s[%d]", array, i);
	free(user_jget(spec, path, type));
	if (!strcmp(type, "null"))
		return 1;
	if (i == max) {
		user_spec_fail(err, en, file, array, "more than %d", max);
		return -1;
	}
	snprintf(path, sizeof(path), "$.%s[%d].require", array, i);
	snprintf(field, sizeof(field), "%s[%d].require", array, i);
	*expr = user_jget(spec, path, type);
	if (strcmp(type, "text") || !user_good_text(*expr, EXPR_MAX) || !**expr) {
		free(*expr);
		*expr = NULL;
		user_spec_fail(err, en, file, field, "must be an expression of at most %d characters", EXPR_MAX);
		return -1;
	}
	if (!(*st = user_prepare_expr(*expr, cols, names, file, field, err, en))) {
		free(*expr);
		*expr = NULL;
		return -1;
	}
	snprintf(path, sizeof(path), "$.%s[%d].reason", array, i);
	snprintf(field, sizeof(field), "%s[%d].reason", array, i);
	char *r = user_jget(spec, path, type);
	if (strcmp(type, "text") || !user_good_text(r, 200) || !*r) {
		free(r);
		free(*expr);
		*expr = NULL;
		sqlite3_finalize(*st); /* not yet the family's, which the failure frees */
		*st = NULL;
		user_spec_fail(err, en, file, field, "must be text of 1 to 200 characters, saying why a point is left out");
		return -1;
	}
	*reason = user_own(r);
	return 0;
}

/* "SELECT ?1 AS param1, ...": the parameters as an expression reads them. */
static void param_columns(struct strbuf *cols)
{
	for (int i = 0; i < U.f.nparams; i++)
		sb_printf(cols, "%s?%d AS %s", i ? ", " : "", i + 1, U.params[i].name);
}

/* default_only: points of the default space left out unless a parameter
 * was given (--param), each {"require": EXPR, "unless_given": PARAM,
 * "reason": TEXT}, EXPR over the parameters.  NULL, or the error. */
static const char *read_default_only(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.default_only", type));
	if (!strcmp(type, "null"))
		return NULL;
	if (strcmp(type, "array")) {
		user_spec_fail(err, en, file, "default_only", "must be an array of {\"require\": EXPR, \"unless_given\": "
			       "PARAM, \"reason\": TEXT}");
		return err;
	}
	struct strbuf cols = {0};
	param_columns(&cols);
	int rc = 0;
	for (int i = 0; rc == 0; i++) {
		char *expr = NULL;
		rc = read_rule(spec, file, "default_only", i, MAX_DEFAULT_ONLY, cols.buf, "default_only reads only parameters",
			       &U.donly[i], &expr, &U.donly_reason[i], err, en);
		free(expr);
		if (rc)
			break;
		U.ndonly = i + 1;
		char path[64], field[64];
		snprintf(path, sizeof(path), "$.default_only[%d].unless_given", i);
		snprintf(field, sizeof(field), "default_only[%d].unless_given", i);
		char *given = user_jget(spec, path, type);
		U.donly_param[i] = !strcmp(type, "text") ? family_param_index(&U.f, given) : -1;
		free(given);
		if (U.donly_param[i] < 0) {
			user_spec_fail(err, en, file, field, "must name a parameter");
			rc = -1;
		}
	}
	sb_free(&cols);
	return rc < 0 ? err : NULL;
}

/* Binds point v's parameters to st's first columns: a number, or for a
 * parameter of names its name. */
static void bind_point(sqlite3_stmt *st, const int *v)
{
	for (int i = 0; i < U.f.nparams; i++) {
		if (U.params[i].names)
			sqlite3_bind_text(st, i + 1, U.params[i].names[v[i]], -1, SQLITE_STATIC);
		else
			sqlite3_bind_int(st, i + 1, v[i]);
	}
}

static const char *user_default_only(const int *v, const int *asked)
{
	for (int k = 0; k < U.ndonly; k++) {
		if (asked[U.donly_param[k]])
			continue;
		sqlite3_stmt *st = U.donly[k];
		sqlite3_reset(st);
		bind_point(st, v);
		U.steps = 0;
		int holds = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL &&
			    sqlite3_column_int64(st, 0);
		if (!holds)
			return U.donly_reason[k];
	}
	return NULL;
}

/* The constraints: each "require" compiled as a SELECT, with its reason;
 * then all of them as one statement.  NULL, or the error. */
static const char *read_constraints(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	free(user_jget(spec, "$.constraints", type));
	if (!strcmp(type, "null"))
		return NULL;
	if (strcmp(type, "array")) {
		user_spec_fail(err, en, file, "constraints", "must be an array of {\"require\": EXPR, \"reason\": TEXT}");
		return err;
	}
	/* The columns an expression reads; the WHEN arms of the statement
	 * that finds the first constraint a point breaks. */
	struct strbuf cols = {0}, whens = {0};
	param_columns(&cols);
	for (int k = 0; k < NLIMITS; k++)
		sb_printf(&cols, ", ?%d AS %s", U.f.nparams + k + 1, limit_names[k]);
	int rc = 0;
	for (int i = 0; rc == 0; i++) {
		char *expr = NULL;
		rc = read_rule(spec, file, "constraints", i, MAX_CONSTRAINTS, cols.buf,
			       "nor elem_bytes, max_threads, max_smem or cc", &U.cons[i], &expr, &U.reasons[i], err, en);
		if (rc == 0) {
			sb_printf(&whens, " WHEN ifnull(CAST((%s) AS INTEGER), 0) = 0 THEN %d", expr, i);
			U.ncons = i + 1;
		}
		free(expr);
	}
	/* One statement for all of them: one step a point, where a
	 * statement each took 4.6 us a point of the transpose's 43. */
	if (rc > 0 && U.ncons) {
		char *sql = xasprintf("SELECT CASE%s ELSE -1 END FROM (SELECT %s)", whens.buf, cols.buf);
		sqlite3_limit(U.db, SQLITE_LIMIT_SQL_LENGTH, (int)strlen(sql) + 1);
		sqlite3_set_authorizer(U.db, authorize, NULL);
		if (sqlite3_prepare_v2(U.db, sql, -1, &U.all_cons, NULL) != SQLITE_OK)
			U.all_cons = NULL; /* the constraints one by one, then */
		sqlite3_set_authorizer(U.db, NULL, NULL);
		sqlite3_limit(U.db, SQLITE_LIMIT_SQL_LENGTH, EXPR_MAX + 4000);
		free(sql);
	}
	sb_free(&cols);
	sb_free(&whens);
	return rc < 0 ? err : NULL;
}

sqlite3_stmt *user_prepare_expr(const char *expr, const char *cols, const char *names, const char *file,
				const char *field, char *err, size_t en)
{
	char *sql = xasprintf("SELECT (%s) FROM (SELECT %s)", expr, cols);
	const char *tail = NULL;
	sqlite3_stmt *st = NULL;
	sqlite3_set_authorizer(U.db, authorize, NULL);
	int rc = sqlite3_prepare_v2(U.db, sql, -1, &st, &tail);
	sqlite3_set_authorizer(U.db, NULL, NULL);
	int extra = rc == SQLITE_OK && tail && *tail;
	free(sql);
	if (rc == SQLITE_OK && !extra && st)
		return st;
	/* Prepared with text after it: not one expression. */
	sqlite3_finalize(st);
	char what[600], shown[100];
	const char *msg = sqlite3_errmsg(U.db);
	/* The expression as written, its first 80 characters. */
	snprintf(shown, sizeof(shown), "%.80s%s", expr, strlen(expr) > 80 ? "..." : "");
	if (extra)
		snprintf(what, sizeof(what), "'%s' is not one expression", shown);
	else if (!strncmp(msg, "no such column: ", 16))
		snprintf(what, sizeof(what), "'%s' names '%s', which is no parameter (%s)", shown, msg + 16, names);
	else if (strstr(msg, "not authorized") || strstr(msg, "prohibited"))
		snprintf(what, sizeof(what), "'%s' does what an expression may not (only arithmetic, comparisons and %s)",
			 shown, "abs, min, max, coalesce, iif, nullif, round, ifnull");
	else
		snprintf(what, sizeof(what), "'%s' is not an expression SQLite reads (%s)", shown, msg);
	user_spec_fail(err, en, file, field, "%s", what);
	return NULL;
}

/* The family's reject: the first constraint that does not hold, by its
 * reason (an expression that gives no value, as x / 0 does, holds not). */
/* Binds the device's limits after point v's parameters. */
static void bind_limits(sqlite3_stmt *st, const struct dtype *dt, const struct device_limits *lim)
{
	int col = U.f.nparams + 1;
	sqlite3_bind_int64(st, col++, (sqlite3_int64)dt->size);
	sqlite3_bind_int(st, col++, lim->max_threads_per_block);
	sqlite3_bind_int(st, col++, lim->max_smem_per_block);
	sqlite3_bind_int(st, col++, lim->cc);
}

static const char *user_reject(const int *v, const struct dtype *dt, const struct device_limits *lim, char *buf,
			       size_t n)
{
	if (U.all_cons) {
		sqlite3_reset(U.all_cons);
		bind_point(U.all_cons, v);
		bind_limits(U.all_cons, dt, lim);
		U.steps = 0;
		if (sqlite3_step(U.all_cons) == SQLITE_ROW) {
			int c = sqlite3_column_int(U.all_cons, 0);
			if (c < 0)
				return NULL;
			snprintf(buf, n, "%s", U.reasons[c]);
			return buf;
		}
		/* An error: the constraints one by one say which. */
	}
	for (int c = 0; c < U.ncons; c++) {
		sqlite3_stmt *st = U.cons[c];
		sqlite3_reset(st);
		bind_point(st, v);
		bind_limits(st, dt, lim);
		U.steps = 0;
		int rc = sqlite3_step(st);
		int holds = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL && sqlite3_column_int64(st, 0);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			snprintf(buf, n, "%s (its constraint failed: %s)", U.reasons[c], sqlite3_errmsg(U.db));
			return buf;
		}
		if (!holds) {
			snprintf(buf, n, "%s", U.reasons[c]);
			return buf;
		}
	}
	return NULL;
}

/* The spec's text: at most USER_SPEC_MAX bytes.  NULL with the error. */
static char *read_spec(const char *path, char *err, size_t en)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	if (!text) {
		user_spec_fail(err, en, path, NULL, "cannot be read: %s", strerror(errno));
		return NULL;
	}
	if (len > USER_SPEC_MAX || strlen(text) != len) {
		free(text);
		user_spec_fail(err, en, path, NULL, len > USER_SPEC_MAX ? "is %zu bytes; a spec is at most 1 MiB"
							     : "holds a NUL byte (%zu bytes)", len);
		return NULL;
	}
	return text;
}

/* Where spec and template are, from the path given: FILE.json and FILE.cu. */
static void spec_paths(const char *path, char **spec, char **tmpl)
{
	size_t len = strlen(path);
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : len;
	if (dot && !strcmp(dot, ".cu")) {
		*tmpl = xstrdup(path);
		*spec = xasprintf("%.*s.json", (int)stem, path);
	} else {
		*spec = xstrdup(path);
		*tmpl = xasprintf("%.*s.cu", (int)stem, path);
	}
}

/* The family's own fields: name, kernel, shape, sizes, element types. */
static int read_head(const char *spec, const char *file, char *err, size_t en)
{
	char type[16];
	char *name = user_jget(spec, "$.name", type);
	if (strcmp(type, "text") || !user_good_name(name, 32)) {
		free(name);
		user_spec_fail(err, en, file, "name", "must be a name of lower-case letters, digits and '_', a letter first, at "
			  "most 32 characters");
		return -1;
	}
	if (family_find(name)) {
		user_spec_fail(err, en, file, "name", "'%s' is a built-in family's", name);
		free(name);
		return -1;
	}
	U.f.name = user_own(name);
	char *kernel = user_jget(spec, "$.kernel", type);
	if (strcmp(type, "text") || !kernel || !(isalpha((unsigned char)kernel[0]) || kernel[0] == '_') ||
	    strlen(kernel) > 64 || strspn(kernel, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
					   strlen(kernel)) {
		free(kernel);
		user_spec_fail(err, en, file, "kernel", "must be the template's extern \"C\" entry point, a C name");
		return -1;
	}
	U.f.kernel_name = user_own(kernel);
	char *summary = user_jget(spec, "$.summary", type);
	if (strcmp(type, "null") && (strcmp(type, "text") || !user_good_text(summary, 200))) {
		free(summary);
		user_spec_fail(err, en, file, "summary", "must be one line of at most 200 characters");
		return -1;
	}
	U.f.summary = user_own(summary ? summary : xstrdup(U.f.name));
	U.f.command_summary = U.f.summary;
	char *shape = user_jget(spec, "$.shape", type);
	U.f.shape = !strcmp(type, "text") && !strcmp(shape, "1d") ? SHAPE_1D
		    : !strcmp(type, "text") && !strcmp(shape, "2d") ? SHAPE_2D
		    : !strcmp(type, "text") && !strcmp(shape, "3d") ? SHAPE_3D : 0;
	free(shape);
	if (!U.f.shape) {
		user_spec_fail(err, en, file, "shape", "must be \"1d\" (a length N), \"2d\" (rows x cols) or \"3d\" (M x N x K)");
		return -1;
	}
	char *sizes = user_jget(spec, "$.sizes", type);
	struct dims *d = NULL;
	size_t nd = 0;
	char why[256];
	if (strcmp(type, "text") || !user_good_text(sizes, 200) ||
	    sizes_parse(U.f.shape, sizes, &d, &nd, why, sizeof(why)) < 0) {
		if (strcmp(type, "text") || !user_good_text(sizes, 200))
			snprintf(why, sizeof(why), "must be the default --sizes, as text");
		free(sizes);
		user_spec_fail(err, en, file, "sizes", "%s", why);
		return -1;
	}
	free(d);
	U.f.default_sizes = user_own(sizes);
	/* Element types: an array of names, default ["f32"]. */
	free(user_jget(spec, "$.dtypes", type));
	struct strbuf dts = {0};
	if (!strcmp(type, "null")) {
		sb_puts(&dts, "f32");
	} else {
		sqlite3_stmt *st = NULL;
		int bad = strcmp(type, "array") != 0;
		sqlite3_prepare_v2(U.db, "SELECT value, type FROM json_each(?1, '$.dtypes')", -1, &st, NULL);
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
		while (!bad && sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			bad = strcmp((const char *)sqlite3_column_text(st, 1), "text") || !dtype_find(v) ||
			      (dts.len && strstr(dts.buf, v));
			if (!bad)
				sb_printf(&dts, "%s%s", dts.len ? "," : "", v);
		}
		sqlite3_finalize(st);
		if (bad || !dts.len) {
			sb_free(&dts);
			user_spec_fail(err, en, file, "dtypes", "must be an array of element types, each once (f32, f64, f16, i32)");
			return -1;
		}
	}
	U.f.dtypes = user_own(sb_detach(&dts));
	return 0;
}

const struct family *user_family_load(const char *path, char *err, size_t en)
{
	user_family_free();
	char *spec_path = NULL, *tmpl_path = NULL;
	spec_paths(path, &spec_path, &tmpl_path);
	char *spec = read_spec(spec_path, err, en);
	const struct family *f = spec ? user_family_parse(spec, spec_path, tmpl_path, err, en) : NULL;
	free(spec_path);
	if (!f) {
		free(spec);
		free(tmpl_path);
		return NULL;
	}
	user_own(tmpl_path);
	size_t tlen = 0;
	char *tmpl = read_file(tmpl_path, &tlen);
	if (!tmpl) {
		free(spec);
		return user_spec_fail(err, en, tmpl_path, NULL, "the template cannot be read: %s", strerror(errno));
	}
	/* Stored as NAME@HASH of template and spec: a changed kernel's
	 * results are not mixed with the old one's. */
	char hex[17];
	hash64_hex(hash64(tmpl, tlen, hash64(spec, strlen(spec), HASH64_SEED)), hex);
	U.f.store_name = user_own(xasprintf("%s@%.12s", U.f.name, hex));
	free(tmpl);
	free(spec);
	U.f.template_name = tmpl_path;
	U.f.template_path = tmpl_path;
	return f;
}

const struct family *user_family_parse(const char *spec, const char *spec_path, const char *tmpl_path, char *err,
				       size_t en)
{
	user_family_free();
	if (strlen(spec) > USER_SPEC_MAX)
		return user_spec_fail(err, en, spec_path, NULL, "is %zu bytes; a spec is at most 1 MiB", strlen(spec));
	char why[160];
	if (json_check_syntax(spec, strlen(spec), why, sizeof(why)) < 0)
		return user_spec_fail(err, en, spec_path, NULL, "is not valid JSON: %s", why);
	spec_path = user_own(xstrdup(spec_path));
	if (sqlite3_open_v2(":memory:", &U.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		return user_spec_fail(err, en, spec_path, NULL, "SQLite cannot open a connection");
	/* Bounds on what an expression may be and do. */
	sqlite3_limit(U.db, SQLITE_LIMIT_SQL_LENGTH, EXPR_MAX + 4000);
	sqlite3_limit(U.db, SQLITE_LIMIT_EXPR_DEPTH, 64);
	sqlite3_limit(U.db, SQLITE_LIMIT_COMPOUND_SELECT, 1);
	sqlite3_limit(U.db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_limit(U.db, SQLITE_LIMIT_LENGTH, 1 << 21);
	char type[16];
	free(user_jget(spec, "$", type));
	if (strcmp(type, "object"))
		return user_spec_fail(err, en, spec_path, NULL, "is not a JSON object (a spec: docs/user-kernels.md)");
	if (read_head(spec, spec_path, err, en) < 0)
		return NULL;
	int np = user_jlen(spec, "$.params");
	if (np < 1 || np > SPEC_MAX_PARAMS)
		return user_spec_fail(err, en, spec_path, "params", "must be an array of 1 to %d parameters", SPEC_MAX_PARAMS);
	U.f.nparams = np;
	for (int i = 0; i < np; i++)
		if (read_param(spec, spec_path, i, err, en))
			return NULL;
	U.f.params = U.params;
	if (read_constraints(spec, spec_path, err, en) || read_default_only(spec, spec_path, err, en))
		return NULL;
	if (U.ndonly)
		U.f.default_only = user_default_only;
	/* "type_macros": false renders GT_ELEM_BYTES alone, not GT_ELEM_TYPE
	 * and GT_ACC_TYPE (a template that moves bits, as the transpose). */
	char tm[16];
	free(user_jget(spec, "$.type_macros", tm));
	if (strcmp(tm, "null") && strcmp(tm, "true") && strcmp(tm, "false"))
		return user_spec_fail(err, en, spec_path, "type_macros", "must be true or false");
	U.f.arithmetic = strcmp(tm, "false") != 0;
	U.f.params = U.params;
	U.f.metric = METRIC_BYTES;
	U.f.ceiling = CEILING_READ;
	if (user_read_launch(spec, spec_path, err, en) < 0)
		return NULL;
	/* From here on only constraints run: their work is bounded. */
	sqlite3_progress_handler(U.db, 100, progress, NULL);
	U.f.template_name = tmpl_path;
	U.f.template_path = tmpl_path;
	U.f.reject = user_reject;
	U.f.validate_sizes = U.f.default_sizes;
	U.loaded = 1;
	return &U.f;
}

const char *user_family_missing(void)
{
	return U.loaded ? U.missing : "";
}

void user_family_free(void)
{
	for (int c = 0; c < U.ncons; c++)
		sqlite3_finalize(U.cons[c]);
	for (int k = 0; k < U.ndonly; k++)
		sqlite3_finalize(U.donly[k]);
	sqlite3_finalize(U.all_cons);
	for (int b = 0; b < MAX_BUFFERS; b++)
		sqlite3_finalize(U.bufs[b].length);
	for (int k = 0; k < 7; k++)
		sqlite3_finalize(U.geo[k]);
	sqlite3_finalize(U.metric);
	for (int i = 0; i < U.nstrings; i++)
		free(U.strings[i]);
	free(U.strings);
	if (U.db)
		sqlite3_close(U.db);
	memset(&U, 0, sizeof(U));
}
