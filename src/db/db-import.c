/*
 * db-import.c - see db-import.h.  JSON is read with SQLite's own JSON
 * functions, so there is no JSON parser here to get wrong; a document that
 * is not valid JSON, or lacks a required field, fails its statement and
 * rolls the whole import back.
 */
#include "db/db-import.h"
#include "db/db-check.h"
#include "db/db.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* A record's status, and one of its figures when that status is 'ok'. */
#define STATUS "coalesce(json_extract(j.value, '$.status'), 'ok')"
#define IF_OK(field) "CASE WHEN " STATUS " = 'ok' THEN json_extract(j.value, '$." field "') END"
/* A record's depth: K of a 3-D size, absent (1) for every other. */
#define DEPTH_SQL "coalesce(json_extract(j.value, '$.depth'), 1)"

static const char *const json_steps[] = {
	"INSERT INTO device (uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes,"
	" bus_width_bits, mem_clock_khz, driver_version)"
	" SELECT json_extract(value, '$.uuid'), json_extract(value, '$.name'),"
	" json_extract(value, '$.cc_major'), json_extract(value, '$.cc_minor'),"
	" json_extract(value, '$.sm_count'), json_extract(value, '$.mem_bytes'),"
	" json_extract(value, '$.l2_bytes'), json_extract(value, '$.bus_width_bits'),"
	" json_extract(value, '$.mem_clock_khz'), json_extract(value, '$.driver_version')"
	" FROM " DB_STAGED("'$.devices'") " WHERE true ON CONFLICT (uuid) DO NOTHING",

	"INSERT INTO family (name, params, shape, metric)"
	" SELECT json_extract(value, '$.name'), json_extract(value, '$.params'),"
	" coalesce(json_extract(value, '$.shape'), '2d'), coalesce(json_extract(value, '$.metric'), 'GB/s')"
	" FROM " DB_STAGED("'$.kernels'") " WHERE true ON CONFLICT (name) DO NOTHING",

	"INSERT OR IGNORE INTO variant (family_id, dtype, params, source_hash)"
	" SELECT f.id, json_extract(j.value, '$.dtype'), json_extract(j.value, '$.params'),"
	" json_extract(j.value, '$.source_hash')"
	" FROM " DB_STAGED("?1") " j JOIN family f ON f.name = json_extract(j.value, '$.kernel')",

	"INSERT OR IGNORE INTO run (uuid, device_id, family_id, started_at, finished_at,"
	" gputune_version, nvrtc_version, timing_mode, repetitions, status, conditions)"
	" SELECT json_extract(j.value, '$.run.uuid'), d.id, f.id, json_extract(j.value, '$.run.started_at'),"
	" json_extract(j.value, '$.run.started_at'), json_extract(j.value, '$.run.gputune_version'),"
	" json_extract(j.value, '$.run.nvrtc_version'), json_extract(j.value, '$.timing_mode'),"
	" json_extract(j.value, '$.run.repetitions'), 'complete', json_extract(j.value, '$.run.conditions')"
	" FROM " DB_STAGED("?1") " j"
	" JOIN device d ON d.uuid = json_extract(j.value, '$.device_uuid')"
	" JOIN family f ON f.name = json_extract(j.value, '$.kernel')",

	"INSERT OR IGNORE INTO ceiling (run_id, dtype, rows, cols, depth, memcpy_gbps, copy_kernel_gbps, ceiling_gbps,"
	" kind) SELECT r.id, json_extract(j.value, '$.dtype'), json_extract(j.value, '$.rows'),"
	" json_extract(j.value, '$.cols'), " DEPTH_SQL ", json_extract(j.value, '$.memcpy_gbps'),"
	" json_extract(j.value, '$.copy_kernel_gbps'), json_extract(j.value, '$.ceiling_gbps'),"
	" coalesce(json_extract(j.value, '$.ceiling_kind'), 'copy')"
	" FROM " DB_STAGED("?1") " j JOIN run r ON r.uuid = json_extract(j.value, '$.run.uuid')"
	" WHERE json_extract(j.value, '$.ceiling_gbps') IS NOT NULL",

	/* A record without "status" is 'ok'; one that is not has no figures. */
	"INSERT OR IGNORE INTO measurement (run_id, variant_id, rows, cols, depth, status, reason, median_ms, min_ms,"
	" max_ms, p25_ms, p75_ms, launches, gbps, fraction, registers)"
	" SELECT r.id, v.id, json_extract(j.value, '$.rows'), json_extract(j.value, '$.cols'), " DEPTH_SQL ", " STATUS ","
	" json_extract(j.value, '$.reason'), " IF_OK("median_ms") ", " IF_OK("min_ms") ", " IF_OK("max_ms") ","
	" " IF_OK("p25_ms") ", " IF_OK("p75_ms") ", json_extract(j.value, '$.launches'), " IF_OK("gbps") ","
	" " IF_OK("fraction") ", json_extract(j.value, '$.registers')"
	" FROM " DB_STAGED("?1") " j"
	" JOIN run r ON r.uuid = json_extract(j.value, '$.run.uuid')"
	" JOIN family f ON f.name = json_extract(j.value, '$.kernel')"
	" JOIN variant v ON v.family_id = f.id AND v.dtype = json_extract(j.value, '$.dtype')"
	"  AND v.params = json_extract(j.value, '$.params')"
	"  AND v.source_hash = json_extract(j.value, '$.source_hash')",
};

/* A result the document names but that did not land (an unknown device or
 * kernel) means the document is inconsistent: refuse it whole. */
static const char check_sql[] =
	"SELECT count(*) FROM " DB_STAGED("?1") " j"
	" WHERE NOT EXISTS (SELECT 1 FROM measurement m JOIN run r ON r.id = m.run_id"
	"  JOIN variant v ON v.id = m.variant_id JOIN family f ON f.id = v.family_id"
	"  JOIN device d ON d.id = r.device_id"
	"  WHERE r.uuid = json_extract(j.value, '$.run.uuid') AND f.name = json_extract(j.value, '$.kernel')"
	"  AND d.uuid = json_extract(j.value, '$.device_uuid')"
	"  AND v.dtype = json_extract(j.value, '$.dtype') AND v.params = json_extract(j.value, '$.params')"
	"  AND m.rows = json_extract(j.value, '$.rows') AND m.cols = json_extract(j.value, '$.cols')"
	"  AND m.depth = " DEPTH_SQL ")";

/* 1 when json is a gputune results document, 0 when it is other JSON,
 * -1 when it is not JSON at all. */
static int is_results_document(sqlite3 *db, const char *json)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT json_valid(?1), json_extract(?1, '$.format')"
					  " = 'gputune-results' AND json_type(?1, '$.results') = 'array'");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	int r = -1;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0))
		r = sqlite3_column_int(st, 1) ? 1 : 0;
	sqlite3_finalize(st);
	return r;
}

/* Runs one statement over the staged records (path, where the statement
 * takes it, as ?1); *first: column 0 of its row, where it returns one.
 * 0, or -1 after reporting (the caller rolls back). */
static int step_staged(sqlite3 *db, const char *sql, const char *path, const char *what, long long *first)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail("%s: %s", what, sqlite3_errmsg(db));
	if (path)
		sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	int r = sqlite3_step(st);
	if (first)
		*first = r == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	int rc = r == SQLITE_DONE || r == SQLITE_ROW ? 0 : db_import_failed(db, what);
	sqlite3_finalize(st);
	return rc;
}

/* Runs every import step, and the check, over the records of one array
 * of the document (path "$.results" or "$.measurements"; ?1 in the steps).
 * 0, or -1 after reporting (the caller rolls back). */
static int import_array(sqlite3 *db, const char *path, const char *what, long long *added)
{
	for (size_t i = 0; i < ARRAY_SIZE(json_steps); i++) {
		if (step_staged(db, json_steps[i], path, what, NULL) < 0)
			return -1;
		if (i == ARRAY_SIZE(json_steps) - 1) /* the measurements */
			*added += sqlite3_changes(db);
	}
	long long missing = 0;
	if (step_staged(db, check_sql, path, what, &missing) < 0)
		return -1;
	if (missing)
		return fail("%s is not valid gputune results: %lld records of %s name an unknown "
			    "device, kernel or run, or lack a required field", what, missing, path + 2);
	return 0;
}

/* The runs' conditions and held-out points (absent from most documents),
 * each joined to a run the records made. */
static const char *const extra_steps[] = {
	"INSERT OR IGNORE INTO run_condition (run_id, dtype, rows, cols, depth, sm_mhz_start, sm_mhz_end, sm_mhz_min,"
	" sm_mhz_max, mem_mhz_start, mem_mhz_end, temp_c_start, temp_c_end, temp_c_max, power_w_start,"
	" power_w_end, power_w_max, throttle_reasons, samples)"
	" SELECT r.id, json_extract(j.value, '$.dtype'), json_extract(j.value, '$.rows'),"
	" json_extract(j.value, '$.cols'), " DEPTH_SQL ", json_extract(j.value, '$.sm_mhz_start'),"
	" json_extract(j.value, '$.sm_mhz_end'), json_extract(j.value, '$.sm_mhz_min'),"
	" json_extract(j.value, '$.sm_mhz_max'), json_extract(j.value, '$.mem_mhz_start'),"
	" json_extract(j.value, '$.mem_mhz_end'), json_extract(j.value, '$.temp_c_start'),"
	" json_extract(j.value, '$.temp_c_end'), json_extract(j.value, '$.temp_c_max'),"
	" json_extract(j.value, '$.power_w_start'), json_extract(j.value, '$.power_w_end'),"
	" json_extract(j.value, '$.power_w_max'), json_extract(j.value, '$.throttle_reasons'),"
	" json_extract(j.value, '$.samples')"
	" FROM " DB_STAGED("'$.conditions'") " j JOIN run r ON r.uuid = json_extract(j.value, '$.run_uuid')",

	"INSERT OR IGNORE INTO validation (run_id, dtype, rows, cols, depth, params, how, gbps, fraction, best_gbps)"
	" SELECT r.id, json_extract(j.value, '$.dtype'), json_extract(j.value, '$.rows'),"
	" json_extract(j.value, '$.cols'), " DEPTH_SQL ", json_extract(j.value, '$.params'), json_extract(j.value, '$.how'),"
	" json_extract(j.value, '$.gbps'), json_extract(j.value, '$.fraction'), json_extract(j.value, '$.best_gbps')"
	" FROM " DB_STAGED("'$.validation'") " j JOIN run r ON r.uuid = json_extract(j.value, '$.run_uuid')",
};

static int import_extras(sqlite3 *db, const char *what)
{
	for (size_t i = 0; i < ARRAY_SIZE(extra_steps); i++)
		if (step_staged(db, extra_steps[i], NULL, what, NULL) < 0)
			return -1;
	return 0;
}

/*
 * The winners after an import, at the sizes that had one here or in what
 * came in (source: a SELECT of device_id, family_id, dtype, rows, cols,
 * depth, timing_mode), and nowhere else.
 * A size an interrupted run left part measured has no winner (tune
 * records a size's winner when it is done); its measurements, kept for
 * the run that resumes it, must not make it one here.  As evidence for
 * untuned sizes such a size narrows the rule's candidates to the few
 * variants measured there (measured: an H100's choice at an f16 size
 * from 87.8% of that size's best to 73.8%).  0 or -1.
 */
static int update_winners(sqlite3 *db, const char *source)
{
	char *keep = xasprintf("CREATE TEMP TABLE kept_winners AS SELECT device_id, family_id, dtype, rows, cols, depth,"
			       " timing_mode FROM winner UNION %s", source);
	sqlite3_stmt *st = db_prepare(db, keep);
	free(keep);
	if (!st)
		return -1;
	int rc = db_step_done(db, st);
	if (rc == 0)
		rc = db_update_winners(db, -1, -1, NULL, NULL, NULL);
	if (rc == 0)
		rc = db_exec(db, "DELETE FROM winner WHERE (device_id, family_id, dtype, rows, cols, depth, timing_mode)"
				 " NOT IN (SELECT * FROM temp.kept_winners)");
	if (db_exec(db, "DROP TABLE IF EXISTS temp.kept_winners") < 0)
		rc = -1;
	return rc;
}

long long db_import_json(sqlite3 *db, const char *json, const char *what, int checked)
{
	long long added = 0;
	if (db_check_json_syntax(json, what) < 0)
		return -1;
	int kind = is_results_document(db, json);
	if (kind < 0)
		return fail("%s is not valid JSON", what);
	if (kind == 0)
		return fail("%s is JSON but not gputune results (no \"format\": \"gputune-results\" "
			    "with a \"results\" array)", what);
	if (db_stage_json(db, json) < 0)
		return -1;
	if ((!checked && db_check_json(db, json, what) < 0) || db_begin(db) < 0) {
		db_unstage_json(db);
		return -1;
	}
	/* The winners, then the candidates' measurements (absent from older
	 * documents: json_each of a missing path is empty). */
	int rc = 0;
	if (db_check_json_runs(db, what) < 0 || import_array(db, "$.results", what, &added) < 0 ||
	    import_array(db, "$.measurements", what, &added) < 0 || import_extras(db, what) < 0)
		rc = -1;
	if (rc == 0 &&
	    update_winners(db,
			   "SELECT r.device_id, f.id, json_extract(j.value, '$.dtype'), json_extract(j.value, '$.rows'),"
			   " json_extract(j.value, '$.cols'), " DEPTH_SQL ", r.timing_mode FROM"
			   " " DB_STAGED("'$.results'") " j"
			   " JOIN run r ON r.uuid = json_extract(j.value, '$.run.uuid')"
			   " JOIN family f ON f.name = json_extract(j.value, '$.kernel')") < 0)
		rc = -1;
	if (rc == 0)
		rc = db_commit(db);
	else
		db_rollback(db);
	db_unstage_json(db);
	return rc < 0 ? -1 : added;
}

static const char *const merge_steps[] = {
	"INSERT INTO device (uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes,"
	" bus_width_bits, mem_clock_khz, driver_version)"
	" SELECT uuid, name, cc_major, cc_minor, sm_count, mem_bytes, l2_bytes, bus_width_bits,"
	" mem_clock_khz, driver_version FROM other.device WHERE true ON CONFLICT (uuid) DO NOTHING",
	"INSERT INTO family (name, params, shape, metric) SELECT name, params, shape, metric FROM other.family"
	" WHERE true ON CONFLICT (name) DO NOTHING",
	"INSERT OR IGNORE INTO variant (family_id, dtype, params, source_hash)"
	" SELECT f.id, v.dtype, v.params, v.source_hash FROM other.variant v"
	" JOIN other.family of ON of.id = v.family_id JOIN family f ON f.name = of.name",
	"INSERT OR IGNORE INTO run (uuid, device_id, family_id, started_at, finished_at,"
	" gputune_version, nvrtc_version, timing_mode, repetitions, status, conditions)"
	" SELECT r.uuid, d.id, f.id, r.started_at, r.finished_at, r.gputune_version, r.nvrtc_version,"
	" r.timing_mode, r.repetitions, r.status, r.conditions FROM other.run r"
	" JOIN other.device od ON od.id = r.device_id JOIN device d ON d.uuid = od.uuid"
	" JOIN other.family of ON of.id = r.family_id JOIN family f ON f.name = of.name",
	"INSERT OR IGNORE INTO ceiling (run_id, dtype, rows, cols, depth, memcpy_gbps, copy_kernel_gbps, ceiling_gbps,"
	" kind) SELECT lr.id, c.dtype, c.rows, c.cols, c.depth, c.memcpy_gbps, c.copy_kernel_gbps, c.ceiling_gbps, c.kind"
	" FROM other.ceiling c JOIN other.run r ON r.id = c.run_id JOIN run lr ON lr.uuid = r.uuid",
	"INSERT OR IGNORE INTO run_condition (run_id, dtype, rows, cols, depth, sm_mhz_start, sm_mhz_end, sm_mhz_min,"
	" sm_mhz_max, mem_mhz_start, mem_mhz_end, temp_c_start, temp_c_end, temp_c_max, power_w_start,"
	" power_w_end, power_w_max, throttle_reasons, samples)"
	" SELECT lr.id, c.dtype, c.rows, c.cols, c.depth, c.sm_mhz_start, c.sm_mhz_end,"
	" c.sm_mhz_min, c.sm_mhz_max, c.mem_mhz_start, c.mem_mhz_end, c.temp_c_start, c.temp_c_end, c.temp_c_max,"
	" c.power_w_start, c.power_w_end, c.power_w_max, c.throttle_reasons, c.samples"
	" FROM other.run_condition c JOIN other.run r ON r.id = c.run_id JOIN run lr ON lr.uuid = r.uuid",
	"INSERT OR IGNORE INTO validation (run_id, dtype, rows, cols, depth, params, how, gbps, fraction, best_gbps)"
	" SELECT lr.id, va.dtype, va.rows, va.cols, va.depth, va.params, va.how, va.gbps,"
	" va.fraction, va.best_gbps FROM other.validation va JOIN other.run r ON r.id = va.run_id"
	" JOIN run lr ON lr.uuid = r.uuid",
	"INSERT OR IGNORE INTO measurement (run_id, variant_id, rows, cols, depth, status, reason, median_ms,"
	" min_ms, max_ms, p25_ms, p75_ms, launches, gbps, fraction, registers)"
	" SELECT lr.id, lv.id, m.rows, m.cols, m.depth, m.status, m.reason, m.median_ms, m.min_ms, m.max_ms,"
	" m.p25_ms, m.p75_ms, m.launches, m.gbps, m.fraction, m.registers FROM other.measurement m"
	" JOIN other.run r ON r.id = m.run_id JOIN run lr ON lr.uuid = r.uuid"
	" JOIN other.variant ov ON ov.id = m.variant_id JOIN other.family of ON of.id = ov.family_id"
	" JOIN family f ON f.name = of.name JOIN variant lv ON lv.family_id = f.id"
	"  AND lv.dtype = ov.dtype AND lv.params = ov.params AND lv.source_hash = ov.source_hash",
};

int db_merge_file_check(const char *path)
{
	/* The other file is checked with the same rules as any open, read-only. */
	sqlite3 *other = NULL;
	if (db_open(path, 0, &other) < 0)
		return -1;
	int version = -1;
	sqlite3_stmt *q = db_prepare(other, "PRAGMA user_version");
	if (q && sqlite3_step(q) == SQLITE_ROW)
		version = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	db_close(other);
	if (version != db_schema_version())
		return fail("%s has schema version %d, not %d: open it with this gputune first "
			     "(gputune db info --db %s) to migrate it", path, version, db_schema_version(), path);
	return 0;
}

long long db_merge_file(sqlite3 *db, const char *path, int checked)
{
	long long added = 0;
	sqlite3_stmt *st = db_prepare(db, "ATTACH DATABASE ?1 AS other");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	if (db_step_done(db, st) < 0)
		return -1;
	int rc = db_begin(db);
	if (rc == 0 && !checked)
		rc = db_check_attached(db, path);
	if (rc == 0)
		rc = db_check_attached_runs(db, path);
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(merge_steps); i++) {
		rc = db_exec(db, merge_steps[i]);
		if (rc == 0 && i == ARRAY_SIZE(merge_steps) - 1) /* the measurements */
			added = sqlite3_changes(db);
	}
	if (rc == 0)
		rc = update_winners(db,
				    "SELECT d.id, f.id, w.dtype, w.rows, w.cols, w.depth, w.timing_mode FROM other.winner w"
				    " JOIN other.device od ON od.id = w.device_id JOIN device d ON d.uuid = od.uuid"
				    " JOIN other.family of ON of.id = w.family_id JOIN family f ON f.name = of.name");
	if (rc == 0)
		rc = db_commit(db);
	else
		db_rollback(db);
	db_exec(db, "DETACH DATABASE other");
	return rc < 0 ? -1 : added;
}
