/*
 * db-check.c - see db-check.h.  The field rules are one table; the SQL
 * that applies them to a JSON array or to a table of an attached file is
 * generated from it, so the two kinds of source cannot drift apart.  A
 * record's type and range are checked by SQLite (json_type and typeof
 * name the same types); what needs a family (its element types, the
 * names of its parameters, the dimensions of its sizes) is checked here
 * in C, after the ranges.
 */
#include "db/db-check.h"
#include "db/db.h"
#include "families/family.h"
#include "util/sizes.h"
#include "util/json-check.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum rule_kind {
	R_INT,    /* an integer in [min, max] */
	R_NUM,    /* a number in [min, max] */
	R_TEXT,   /* text of min to max bytes with no NUL */
	R_ID,     /* text of min to max bytes of letters, digits and _ . : @ - (a user family's NAME@HASH) */
	R_PARAMS, /* text of at most max bytes of lowercase letters, digits and _ = , . - */
	R_ENUM    /* one of `values` */
};

enum {
	R_OPTIONAL = 1, /* may be absent (or null) */
	R_IF_OK = 2     /* checked only where the record's status is 'ok' */
};

struct field_rule {
	const char *array;  /* the JSON array; "records": "results" and "measurements" */
	const char *field;  /* its path in a record: "rows", "run.uuid" */
	const char *table;  /* the same value in a database file (NULL: none) */
	const char *column;
	int kind, flags;
	double min, max;
	const char *values; /* R_ENUM: SQL string literals, comma-separated */
};

#define TIMES_MS 1e-9, 3.6e6 /* a launch of a nanosecond to an hour */
#define RATE 0, 1e9          /* GB/s or GFLOP/s */
#define COUNT 1, 1e9
#define INT31 0, 2147483647.0
#define STATUSES "'ok','wrong','compile_failed','launch_failed','fault'"

static const struct field_rule rules[] = {
	{ "devices", "uuid", "device", "uuid", R_ID, 0, 1, 128, NULL },
	{ "devices", "name", "device", "name", R_TEXT, 0, 1, 256, NULL },
	{ "devices", "cc_major", "device", "cc_major", R_INT, 0, 1, 99, NULL },
	{ "devices", "cc_minor", "device", "cc_minor", R_INT, 0, 0, 99, NULL },
	{ "devices", "sm_count", "device", "sm_count", R_INT, 0, 1, 100000, NULL },
	{ "devices", "mem_bytes", "device", "mem_bytes", R_INT, 0, 1, 1125899906842624.0, NULL },
	{ "devices", "l2_bytes", "device", "l2_bytes", R_INT, 0, INT31, NULL },
	{ "devices", "bus_width_bits", "device", "bus_width_bits", R_INT, 0, 1, 100000, NULL },
	{ "devices", "mem_clock_khz", "device", "mem_clock_khz", R_INT, 0, INT31, NULL },
	{ "devices", "driver_version", "device", "driver_version", R_INT, 0, INT31, NULL },

	{ "kernels", "name", "family", "name", R_ID, 0, 1, 64, NULL },
	{ "kernels", "params", "family", "params", R_PARAMS, 0, 0, 1000, NULL },
	{ "kernels", "shape", "family", "shape", R_ENUM, R_OPTIONAL, 0, 0, "'1d','2d','3d'" },
	{ "kernels", "metric", "family", "metric", R_ENUM, R_OPTIONAL, 0, 0, "'GB/s','GFLOP/s'" },

	{ "records", "device_uuid", NULL, NULL, R_ID, 0, 1, 128, NULL },
	{ "records", "kernel", NULL, NULL, R_ID, 0, 1, 64, NULL },
	{ "records", "dtype", "variant", "dtype", R_ID, 0, 1, 16, NULL },
	{ "records", "params", "variant", "params", R_PARAMS, 0, 0, 1000, NULL },
	{ "records", "source_hash", "variant", "source_hash", R_ID, 0, 1, 64, NULL },
	{ "records", "rows", "measurement", "rows", R_INT, 0, 1, (double)SIZE_MAX_ELEMS, NULL },
	{ "records", "cols", "measurement", "cols", R_INT, 0, 1, (double)SIZE_MAX_DIM, NULL },
	{ "records", "depth", "measurement", "depth", R_INT, R_OPTIONAL, 1, (double)SIZE_MAX_DIM, NULL },
	{ "records", "timing_mode", "run", "timing_mode", R_ENUM, 0, 0, 0, "'flushed','hot'" },
	{ "records", "status", "measurement", "status", R_ENUM, R_OPTIONAL, 0, 0, STATUSES },
	{ "records", "reason", "measurement", "reason", R_TEXT, R_OPTIONAL, 0, 100000, NULL },
	{ "records", "median_ms", "measurement", "median_ms", R_NUM, R_IF_OK, TIMES_MS, NULL },
	{ "records", "min_ms", "measurement", "min_ms", R_NUM, R_IF_OK, TIMES_MS, NULL },
	{ "records", "max_ms", "measurement", "max_ms", R_NUM, R_IF_OK, TIMES_MS, NULL },
	{ "records", "p25_ms", "measurement", "p25_ms", R_NUM, R_IF_OK | R_OPTIONAL, TIMES_MS, NULL },
	{ "records", "p75_ms", "measurement", "p75_ms", R_NUM, R_IF_OK | R_OPTIONAL, TIMES_MS, NULL },
	{ "records", "launches", "measurement", "launches", R_INT, R_IF_OK | R_OPTIONAL, COUNT, NULL },
	{ "records", "registers", "measurement", "registers", R_INT, R_OPTIONAL, 1, 255, NULL },
	{ "records", "gbps", "measurement", "gbps", R_NUM, R_IF_OK, RATE, NULL },
	{ "records", "fraction", "measurement", "fraction", R_NUM, R_IF_OK, 0, 1e4, NULL },
	{ "records", "ceiling_kind", "ceiling", "kind", R_ENUM, R_OPTIONAL, 0, 0, "'copy','read','fma'" },
	{ "records", "ceiling_gbps", "ceiling", "ceiling_gbps", R_NUM, R_OPTIONAL, RATE, NULL },
	{ "records", "memcpy_gbps", "ceiling", "memcpy_gbps", R_NUM, R_OPTIONAL, RATE, NULL },
	{ "records", "copy_kernel_gbps", "ceiling", "copy_kernel_gbps", R_NUM, R_OPTIONAL, RATE, NULL },
	{ "records", "run.uuid", "run", "uuid", R_ID, 0, 1, 64, NULL },
	{ "records", "run.started_at", "run", "started_at", R_TEXT, 0, 1, 64, NULL },
	{ "records", "run.gputune_version", "run", "gputune_version", R_TEXT, 0, 1, 64, NULL },
	{ "records", "run.nvrtc_version", "run", "nvrtc_version", R_TEXT, 0, 1, 64, NULL },
	{ "records", "run.conditions", "run", "conditions", R_TEXT, R_OPTIONAL, 0, 1000, NULL },
	{ "records", "run.repetitions", "run", "repetitions", R_INT, 0, COUNT, NULL },

	{ "conditions", "run_uuid", NULL, NULL, R_ID, 0, 1, 64, NULL },
	{ "conditions", "dtype", "run_condition", "dtype", R_ID, 0, 1, 16, NULL },
	{ "conditions", "rows", "run_condition", "rows", R_INT, 0, 1, (double)SIZE_MAX_ELEMS, NULL },
	{ "conditions", "cols", "run_condition", "cols", R_INT, 0, 1, (double)SIZE_MAX_DIM, NULL },
	{ "conditions", "depth", "run_condition", "depth", R_INT, R_OPTIONAL, 1, (double)SIZE_MAX_DIM, NULL },
	{ "conditions", "sm_mhz_start", "run_condition", "sm_mhz_start", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "sm_mhz_end", "run_condition", "sm_mhz_end", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "sm_mhz_min", "run_condition", "sm_mhz_min", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "sm_mhz_max", "run_condition", "sm_mhz_max", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "mem_mhz_start", "run_condition", "mem_mhz_start", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "mem_mhz_end", "run_condition", "mem_mhz_end", R_INT, 0, 0, 1e6, NULL },
	{ "conditions", "temp_c_start", "run_condition", "temp_c_start", R_INT, 0, -300, 1000, NULL },
	{ "conditions", "temp_c_end", "run_condition", "temp_c_end", R_INT, 0, -300, 1000, NULL },
	{ "conditions", "temp_c_max", "run_condition", "temp_c_max", R_INT, 0, -300, 1000, NULL },
	{ "conditions", "power_w_start", "run_condition", "power_w_start", R_NUM, 0, 0, 1e6, NULL },
	{ "conditions", "power_w_end", "run_condition", "power_w_end", R_NUM, 0, 0, 1e6, NULL },
	{ "conditions", "power_w_max", "run_condition", "power_w_max", R_NUM, 0, 0, 1e6, NULL },
	{ "conditions", "throttle_reasons", "run_condition", "throttle_reasons", R_INT, 0, 0, 4.6e18, NULL },
	{ "conditions", "samples", "run_condition", "samples", R_INT, 0, 0, 1e9, NULL },

	{ "validation", "run_uuid", NULL, NULL, R_ID, 0, 1, 64, NULL },
	{ "validation", "dtype", "validation", "dtype", R_ID, 0, 1, 16, NULL },
	{ "validation", "rows", "validation", "rows", R_INT, 0, 1, (double)SIZE_MAX_ELEMS, NULL },
	{ "validation", "cols", "validation", "cols", R_INT, 0, 1, (double)SIZE_MAX_DIM, NULL },
	{ "validation", "depth", "validation", "depth", R_INT, R_OPTIONAL, 1, (double)SIZE_MAX_DIM, NULL },
	{ "validation", "params", "validation", "params", R_PARAMS, 0, 0, 1000, NULL },
	{ "validation", "how", "validation", "how", R_TEXT, 0, 1, 64, NULL },
	{ "validation", "gbps", "validation", "gbps", R_NUM, R_OPTIONAL, RATE, NULL },
	{ "validation", "fraction", "validation", "fraction", R_NUM, R_OPTIONAL, 0, 1e4, NULL },
	{ "validation", "best_gbps", "validation", "best_gbps", R_NUM, R_OPTIONAL, RATE, NULL },
};

/* How one source reads a field: its type (as json_type or typeof name
 * it: 'integer', 'real', 'text', 'null', ...), its value, and the
 * record's status. */
struct access {
	const char *type_fmt, *value_fmt; /* printf formats taking the field */
	/* The field as written in JSON (escapes and all), or NULL: some
	 * SQLite versions cut the value of a string holding \u0000 at the
	 * NUL, so the NUL must be looked for where it is written. */
	const char *raw_fmt;
	const char *status;
};

static const struct access json_access = {
	"json_type(j.value, '$.%s')", "json_extract(j.value, '$.%s')", "(j.value -> '$.%s')",
	"coalesce(json_extract(j.value, '$.status'), 'ok')",
};
static const struct access table_access = { "typeof(t.%s)", "t.%s", NULL, "t.status" };

/* What a rule asks for, in words, into sb. */
static void requirement(struct strbuf *sb, const struct field_rule *r)
{
	switch (r->kind) {
	case R_INT:
		sb_printf(sb, "an integer from %.0f to %.0f", r->min, r->max);
		break;
	case R_NUM:
		sb_printf(sb, "a number from %.10g to %.10g", r->min, r->max);
		break;
	case R_TEXT:
		sb_printf(sb, "text of %.0f to %.0f bytes with no NUL", r->min, r->max);
		break;
	case R_ID:
		sb_printf(sb, "a name of %.0f to %.0f letters, digits, '_', '.', ':', '@' or '-'", r->min, r->max);
		break;
	case R_PARAMS:
		sb_printf(sb, "NAME=VALUE,... of at most %.0f lowercase letters, digits, '_', '.', '-', '=' and ','",
			  r->max);
		break;
	default:
		sb_printf(sb, "one of %s", r->values);
		break;
	}
}

/* The SQL condition that holds when the value V of type T meets rule r. */
static void condition(struct strbuf *sb, const struct field_rule *r, const char *t, const char *v, const char *raw)
{
	switch (r->kind) {
	case R_INT:
		sb_printf(sb, "%s = 'integer' AND %s BETWEEN %.17g AND %.17g", t, v, r->min, r->max);
		break;
	case R_NUM:
		sb_printf(sb, "%s IN ('integer', 'real') AND %s BETWEEN %.17g AND %.17g", t, v, r->min, r->max);
		break;
	case R_ENUM:
		sb_printf(sb, "%s = 'text' AND %s IN (%s)", t, v, r->values);
		break;
	default:
		/* Bytes, not characters, and a NUL anywhere: SQLite's length()
		 * stops at the first NUL, and a name cut there is not the name. */
		sb_printf(sb, "%s = 'text' AND length(CAST(%s AS BLOB)) BETWEEN %.0f AND %.0f"
			      " AND instr(CAST(%s AS BLOB), x'00') = 0", t, v, r->min, r->max, v);
		if (raw)
			sb_printf(sb, " AND instr(%s, '\\u0000') = 0", raw);
		if (r->kind == R_ID)
			sb_printf(sb, " AND NOT %s GLOB '*[^A-Za-z0-9_.:@-]*'", v);
		else if (r->kind == R_PARAMS)
			sb_printf(sb, " AND NOT %s GLOB '*[^a-z0-9_.=,-]*'", v);
		break;
	}
}

/* The CASE arms of the rules of one source (array or table), each giving
 * "FIELD: what is wrong (got VALUE)" for the first rule a record breaks. */
static void case_arms(struct strbuf *sb, const struct access *acc, const char *array, const char *table)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct field_rule *r = &rules[i];
		if (array ? strcmp(r->array, array) : !r->table || strcmp(r->table, table))
			continue;
		const char *name = array ? r->field : r->column;
		char *t = xasprintf(acc->type_fmt, name);
		char *v = xasprintf(acc->value_fmt, name);
		char *raw = acc->raw_fmt ? xasprintf(acc->raw_fmt, name) : NULL;
		char *when = r->flags & R_IF_OK ? xasprintf("%s = 'ok' AND ", acc->status) : xstrdup("");
		if (!(r->flags & R_OPTIONAL))
			sb_printf(sb, " WHEN %scoalesce(%s, 'null') = 'null' THEN '%s: missing'", when, t, name);
		sb_printf(sb, " WHEN %scoalesce(%s, 'null') <> 'null' AND NOT coalesce(", when, t);
		condition(sb, r, t, v, raw);
		sb_printf(sb, ", 0) THEN '%s: must be ", name);
		struct strbuf req = {0};
		requirement(&req, r);
		/* The rule's own text, quoted for SQL (enums hold quotes). */
		for (const char *c = req.buf; *c; c++) {
			if (*c == '\'')
				sb_puts(sb, "''");
			else
				sb_add(sb, c, 1);
		}
		sb_free(&req);
		sb_printf(sb, " (got ' || CASE WHEN %s = 'blob' THEN 'a blob' ELSE substr(json_quote(%s), 1, 60) END || ')'",
			  t, v);
		free(when);
		free(raw);
		free(t);
		free(v);
	}
}

/* Runs sql, whose rows are (where, why): the first is reported as
 * "what: where: why"; 0 when there is none. */
static int first_problem(sqlite3 *db, const char *sql, const char *what)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return -1;
	int r = sqlite3_step(st);
	int rc = 0;
	if (r == SQLITE_ROW)
		rc = fail("%s: %s: %s", what, (const char *)sqlite3_column_text(st, 0),
			  (const char *)sqlite3_column_text(st, 1));
	else if (r != SQLITE_DONE)
		rc = db_import_failed(db, what);
	sqlite3_finalize(st);
	return rc;
}

/* The fields of every record of one JSON array. */
static int check_json_array(sqlite3 *db, const char *array, const char *rules_of, const char *what)
{
	struct strbuf sb = {0};
	sb_printf(&sb, "SELECT '%s[' || j.key || ']', why FROM (SELECT j.key, j.value, CASE"
		       " WHEN json_type(j.value) IS NOT 'object' THEN 'must be an object'", array);
	case_arms(&sb, &json_access, rules_of, NULL);
	sb_printf(&sb, " END AS why FROM " DB_STAGED("'$.%s'") " j) j WHERE why IS NOT NULL LIMIT 1", array);
	int rc = first_problem(db, sb.buf, what);
	sb_free(&sb);
	return rc;
}

/* The fields of every row of one table of the attached file. */
static int check_table(sqlite3 *db, const char *table, const char *what)
{
	struct strbuf sb = {0};
	sb_printf(&sb, "SELECT '%s row ' || rid, why FROM (SELECT t.rowid AS rid, CASE", table);
	case_arms(&sb, &table_access, NULL, table);
	sb_printf(&sb, " END AS why FROM other.%s t) WHERE why IS NOT NULL LIMIT 1", table);
	int rc = first_problem(db, sb.buf, what);
	sb_free(&sb);
	return rc;
}

int db_import_failed(sqlite3 *db, const char *what)
{
	if (sqlite3_errcode(db) == SQLITE_INTERRUPT)
		return fail("%s: interrupted", what);
	return fail("%s is not valid gputune results: %s", what, sqlite3_errmsg(db));
}

int db_check_json_syntax(const char *json, const char *what)
{
	char why[160];
	if (json_check_syntax(json, strlen(json), why, sizeof(why)) < 0)
		return fail("%s is not valid JSON: %s", what, why);
	return 0;
}

int db_stage_json(sqlite3 *db, const char *json)
{
	/* A string element is kept as JSON (quoted), so that json_type and
	 * json_extract read it as the document had it. */
	static const char sql[] =
		"CREATE TEMP TABLE import_doc AS SELECT path, key,"
		" CASE WHEN type = 'text' THEN json_quote(value) ELSE value END AS value FROM ("
		" SELECT '$.devices' AS path, key, value, type FROM json_each(?1, '$.devices')"
		" UNION ALL SELECT '$.kernels', key, value, type FROM json_each(?1, '$.kernels')"
		" UNION ALL SELECT '$.results', key, value, type FROM json_each(?1, '$.results')"
		" UNION ALL SELECT '$.measurements', key, value, type FROM json_each(?1, '$.measurements')"
		" UNION ALL SELECT '$.conditions', key, value, type FROM json_each(?1, '$.conditions')"
		" UNION ALL SELECT '$.validation', key, value, type FROM json_each(?1, '$.validation'))";
	db_unstage_json(db);
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	int rc = db_step_done(db, st);
	if (rc == 0)
		rc = db_exec(db, "CREATE INDEX temp.import_doc_path ON import_doc (path)");
	/* A family measured in GFLOP/s names its figures gflops: read as the
	 * gbps columns they are stored in (where a record has not both). */
	static const char *const rates[][2] = { { "gflops", "gbps" }, { "ceiling_gflops", "ceiling_gbps" },
						 { "best_gflops", "best_gbps" } };
	for (size_t i = 0; rc == 0 && i < sizeof(rates) / sizeof(rates[0]); i++) {
		char *sql_rate = sqlite3_mprintf(
			"UPDATE temp.import_doc SET value = json_remove(json_set(value, '$.%s', json_extract(value, '$.%s')),"
			" '$.%s') WHERE path IN ('$.results', '$.measurements', '$.validation') AND json_valid(value)"
			" AND json_type(value) = 'object' AND json_type(value, '$.%s') IS NOT NULL"
			" AND json_type(value, '$.%s') IS NULL",
			rates[i][1], rates[i][0], rates[i][0], rates[i][0], rates[i][1]);
		rc = sql_rate ? db_exec(db, sql_rate) : -1;
		sqlite3_free(sql_rate);
	}
	return rc;
}

void db_unstage_json(sqlite3 *db)
{
	sqlite3_exec(db, "DROP TABLE IF EXISTS temp.import_doc", NULL, NULL, NULL);
}

/* What a family makes of one record's kernel, element type, parameters
 * and size: NULL when they are its, else why not (in buf). */
static const char *family_problem(const char *kernel, const char *dtype, const char *params, long rows,
				  long cols, long depth, char *buf, size_t n)
{
	const struct family *f = family_find(kernel);
	/* A user family's results (NAME@HASH): its spec is not at hand, so
	 * only what every family shares is checked. */
	const char *at = strchr(kernel, '@');
	if (!f && at && at > kernel && strlen(at + 1) == 12 && strspn(at + 1, "0123456789abcdef") == 12) {
		if (!dtype_find(dtype)) {
			snprintf(buf, n, "dtype: '%s' is not an element type", dtype);
			return buf;
		}
		if (rows < 1 || cols < 1 || depth < 1 || rows > SIZE_MAX_ELEMS || cols > SIZE_MAX_ELEMS ||
		    depth > SIZE_MAX_DIM || (double)rows * (double)cols > (double)SIZE_MAX_ELEMS) {
			snprintf(buf, n, "rows, cols, depth: %ld x %ld x %ld is not a size", rows, cols, depth);
			return buf;
		}
		(void)params;
		return NULL;
	}
	if (!f) {
		snprintf(buf, n, "kernel: '%s' is not a kernel family this gputune knows (nor a kernel of a user's, "
			 "NAME@HASH)", kernel);
		return buf;
	}
	if (!family_dtype(f, dtype)) {
		snprintf(buf, n, "dtype: '%s' is not an element type of %s (%s)", dtype, f->name, f->dtypes);
		return buf;
	}
	int v[MAX_PARAMS];
	char why[200];
	if (family_point_check(f, params, v, why, sizeof(why)) < 0) {
		snprintf(buf, n, "params: %s", why);
		return buf;
	}
	long max_rows = f->shape == SHAPE_1D ? SIZE_MAX_ELEMS : SIZE_MAX_DIM;
	if (rows > max_rows || (f->shape == SHAPE_1D && cols != 1) || (f->shape != SHAPE_3D && depth != 1) ||
	    (double)rows * (double)cols > (double)SIZE_MAX_ELEMS) {
		snprintf(buf, n, "rows, cols, depth: %ld x %ld x %ld is not a size of %s", rows, cols, depth, f->name);
		return buf;
	}
	return NULL;
}

/* Every row of sql is (where, kernel, dtype, params, rows, cols, depth),
 * checked against its family. */
static int check_families(sqlite3 *db, const char *sql, const char *what)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return -1;
	int rc = 0, r;
	while (rc == 0 && (r = sqlite3_step(st)) == SQLITE_ROW) {
		char buf[400];
		const char *why = family_problem(
			(const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
			(const char *)sqlite3_column_text(st, 3), (long)sqlite3_column_int64(st, 4),
			(long)sqlite3_column_int64(st, 5), (long)sqlite3_column_int64(st, 6), buf, sizeof(buf));
		if (why)
			rc = fail("%s: %s: %s", what, (const char *)sqlite3_column_text(st, 0), why);
	}
	if (rc == 0 && r != SQLITE_DONE)
		rc = db_import_failed(db, what);
	sqlite3_finalize(st);
	return rc;
}

/* A record of each distinct (kernel, dtype, params, size) of one array. */
#define JSON_FAMILIES(array)                                                                              \
	"SELECT '" array "[' || min(j.key) || ']', json_extract(j.value, '$.kernel') AS k,"                  \
	" json_extract(j.value, '$.dtype') AS d, json_extract(j.value, '$.params') AS p,"                    \
	" json_extract(j.value, '$.rows') AS r, json_extract(j.value, '$.cols') AS c,"                       \
	" coalesce(json_extract(j.value, '$.depth'), 1) AS z FROM " DB_STAGED("'$." array "'") " j"               \
	" GROUP BY k, d, p, r, c, z"

/* A run UUID that the document gives two devices or two kernels. */
static const char json_runs_sql[] =
	"SELECT 'run ' || json_quote(u), 'its records name more than one device or kernel'"
	" FROM (SELECT json_extract(value, '$.run.uuid') AS u, json_extract(value, '$.device_uuid') AS d,"
	" json_extract(value, '$.kernel') AS k FROM " DB_STAGED("'$.results'")
	" UNION ALL SELECT json_extract(value, '$.run.uuid'), json_extract(value, '$.device_uuid'),"
	" json_extract(value, '$.kernel') FROM " DB_STAGED("'$.measurements'") ")"
	" GROUP BY u HAVING count(DISTINCT d) > 1 OR count(DISTINCT k) > 1 LIMIT 1";

/* The document's own fields, read in one pass over its top level (one
 * parse of it): "version" must be this format's, and each array present
 * must be an array.  0, or -1 after a message. */
static int check_top_level(sqlite3 *db, const char *json, const char *const *arrays, size_t narrays,
			   const char *what)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT key, type, substr(json_quote(value), 1, 60),"
					  " type = 'integer' AND value = ?2 FROM json_each(?1)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, RESULTS_FORMAT_VERSION);
	char *version = NULL; /* what "version" holds, when it is not this format's */
	int have_version = 0;
	int not_array = -1; /* the first of arrays present but not an array */
	int r;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		if (!strcmp(key, "version")) {
			have_version = 1;
			if (!sqlite3_column_int(st, 3) && !version)
				version = xstrdup((const char *)sqlite3_column_text(st, 2));
			continue;
		}
		for (int i = 0; i < (int)narrays; i++)
			if (!strcmp(key, arrays[i]) && strcmp(type, "array") && (not_array < 0 || i < not_array))
				not_array = i;
	}
	int rc = 0;
	if (r != SQLITE_DONE)
		rc = db_import_failed(db, what);
	else if (!have_version || version)
		rc = fail("%s: version: must be %d, the format this gputune reads (got %s)", what,
			  RESULTS_FORMAT_VERSION, version ? version : "none");
	else if (not_array >= 0)
		rc = fail("%s: %s: must be an array", what, arrays[not_array]);
	free(version);
	sqlite3_finalize(st);
	return rc;
}

int db_check_json(sqlite3 *db, const char *json, const char *what)
{
	static const char *const arrays[] = { "devices", "kernels", "results", "measurements", "conditions",
					      "validation" };
	static const char *const rules_of[] = { "devices", "kernels", "records", "records", "conditions",
						"validation" };
	if (check_top_level(db, json, arrays, ARRAY_SIZE(arrays), what) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(arrays); i++)
		if (check_json_array(db, arrays[i], rules_of[i], what) < 0)
			return -1;
	if (check_families(db, JSON_FAMILIES("results"), what) < 0 ||
	    check_families(db, JSON_FAMILIES("measurements"), what) < 0)
		return -1;
	return first_problem(db, json_runs_sql, what);
}

/* The attached file's runs that db holds under another device or kernel:
 * merging them would file the file's measurements under db's run, where
 * the duplicates' check drops them without a word. */
static const char attached_runs_sql[] =
	"SELECT 'run ' || json_quote(r.uuid), 'is in this database too, made on ' || json_quote(ld.uuid) ||"
	" ' with ' || lf.name || ', where that file says ' || json_quote(od.uuid) || ' with ' || of.name"
	" FROM other.run r JOIN other.device od ON od.id = r.device_id JOIN other.family of ON of.id = r.family_id"
	" JOIN run lr ON lr.uuid = r.uuid JOIN device ld ON ld.id = lr.device_id JOIN family lf ON lf.id = lr.family_id"
	" WHERE ld.uuid <> od.uuid OR lf.name <> of.name LIMIT 1";

int db_check_attached(sqlite3 *db, const char *what)
{
	static const char *const tables[] = { "device", "family", "variant", "run", "measurement", "ceiling",
					      "run_condition", "validation" };
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
		if (check_table(db, tables[i], what) < 0)
			return -1;
	if (check_families(db,
			   "SELECT 'measurement row ' || min(m.rowid), f.name, v.dtype, v.params, m.rows, m.cols, m.depth"
			   " FROM other.measurement m JOIN other.variant v ON v.id = m.variant_id"
			   " JOIN other.family f ON f.id = v.family_id"
			   " GROUP BY f.name, v.dtype, v.params, m.rows, m.cols, m.depth",
			   what) < 0)
		return -1;
	return 0;
}

int db_check_attached_runs(sqlite3 *db, const char *what)
{
	return first_problem(db, attached_runs_sql, what);
}

/* A record whose run db holds under another device or kernel. */
int db_check_json_runs(sqlite3 *db, const char *what)
{
	static const char sql[] =
		"SELECT a || '[' || j.key || '].run.uuid', json_quote(r.uuid) || ' is a run of ' || json_quote(d.uuid) ||"
		" ' with ' || f.name || ' in this database, where the record names ' ||"
		" json_quote(json_extract(j.value, '$.device_uuid')) || ' with ' ||"
		" json_quote(json_extract(j.value, '$.kernel'))"
		" FROM (SELECT 'results' AS a UNION ALL SELECT 'measurements') arr"
		" JOIN temp.import_doc j ON j.path = '$.' || arr.a"
		" JOIN run r ON r.uuid = json_extract(j.value, '$.run.uuid') JOIN device d ON d.id = r.device_id"
		" JOIN family f ON f.id = r.family_id"
		" WHERE d.uuid <> json_extract(j.value, '$.device_uuid') OR f.name <> json_extract(j.value, '$.kernel')"
		" LIMIT 1";
	return first_problem(db, sql, what);
}
