/*
 * export-json.c - results as JSON, in the format db-import.c reads:
 * {"format": "gputune-results", "version": 1, "kernels": [...],
 *  "devices": [...], "results": [...], "measurements": [...]}.  "results"
 * holds the winners, "measurements" the candidates' other measurements at
 * the same sizes (same record form), so that a merged or shipped file
 * carries what the choice at untuned sizes needs.
 */
#include "config.h"
#include "db/db.h"
#include "families/family.h"
#include "export/export.h"
#include "util/table.h"
#include "util/util.h"

#include <string.h>

static int seen_before(const struct result_set *rs, size_t i, int by_device)
{
	for (size_t j = 0; j < i; j++)
		if (by_device ? !strcmp(rs->r[j].uuid, rs->r[i].uuid) : !strcmp(rs->r[j].family, rs->r[i].family))
			return 1;
	return 0;
}

static void field_s(FILE *f, const char *sep, const char *k, const char *v)
{
	fprintf(f, "%s\"%s\": ", sep, k);
	json_write_string(f, v);
}

/* One result record, after a comma unless first. */
static void write_result(FILE *f, const struct result *r, int first)
{
	fputs(first ? "\n    {" : ",\n    {", f);
	field_s(f, "", "device_uuid", r->uuid);
	field_s(f, ", ", "kernel", r->family);
	field_s(f, ", ", "dtype", r->dtype);
	fprintf(f, ", \"rows\": %ld, \"cols\": %ld", r->rows, r->cols);
	/* K of a 3-D size; 1 (every other size) is left out. */
	if (r->depth != 1)
		fprintf(f, ", \"depth\": %ld", r->depth);
	field_s(f, ", ", "timing_mode", r->mode);
	field_s(f, ", ", "params", r->params);
	field_s(f, ", ", "source_hash", r->source_hash);
	field_s(f, ", ", "ceiling_kind", r->ceiling_kind ? r->ceiling_kind : "copy");
	/* A thread's registers as NVRTC built the kernel; unknown is left out. */
	if (r->registers > 0)
		fprintf(f, ", \"registers\": %d", r->registers);
	if (r->status && *r->status && strcmp(r->status, "ok")) {
		/* A variant that was wrong or failed: no figures, the reason. */
		field_s(f, ", ", "status", r->status);
		field_s(f, ", ", "reason", r->reason ? r->reason : "");
	}
	/* The figure and its ceiling in the family's unit: GB/s, or GFLOP/s
	 * (named gflops; import reads either name). */
	const struct family *fam = family_find(r->family);
	const char *rate = fam && fam->metric == METRIC_FLOPS ? "gflops" : "gbps";
	fprintf(f, ",\n     \"median_ms\": %.9g, \"min_ms\": %.9g, \"max_ms\": %.9g, \"p25_ms\": %.9g,"
		   " \"p75_ms\": %.9g, \"launches\": %d, \"%s\": %.9g, \"fraction\": %.9g,"
		   " \"ceiling_%s\": %.9g, \"memcpy_gbps\": %.9g, \"copy_kernel_gbps\": %.9g,\n     \"run\": {",
		r->median_ms, r->min_ms, r->max_ms, r->p25_ms, r->p75_ms, r->launches, rate, r->gbps, r->fraction,
		rate, r->ceiling_gbps, r->memcpy_gbps, r->copy_kernel_gbps);
	field_s(f, "", "uuid", r->run_uuid);
	field_s(f, ", ", "started_at", r->started_at);
	field_s(f, ", ", "gputune_version", r->gputune_version);
	field_s(f, ", ", "nvrtc_version", r->nvrtc_version);
	if (r->conditions && *r->conditions)
		field_s(f, ", ", "conditions", r->conditions);
	fprintf(f, ", \"repetitions\": %d}}", r->repetitions);
}

/* Whether uuid is one of the devices exported (the winners'). */
static int exported_device(const struct result_set *rs, const char *uuid)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].uuid, uuid))
			return 1;
	return 0;
}

/* The rows of one JSON-producing statement (column 0: the device UUID,
 * column 1: the record) as an array named key, for the exported devices. */
static int write_rows(FILE *f, const struct result_set *rs, sqlite3 *db, const struct result_filter *flt,
		      const char *key, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	if (!st)
		return -1;
	results_bind_filter(st, flt);
	fprintf(f, ",\n  \"%s\": [", key);
	int first = 1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!exported_device(rs, (const char *)sqlite3_column_text(st, 0)))
			continue;
		fprintf(f, "%s\n    %s", first ? "" : ",", (const char *)sqlite3_column_text(st, 1));
		first = 0;
	}
	sqlite3_finalize(st);
	fputs(first ? "]" : "\n  ]", f);
	return 0;
}

/* The conditions and held-out points of the exported runs, built by
 * SQLite's json_object (which escapes every string). */
static const char conditions_sql[] =
	"SELECT d.uuid, json_object('run_uuid', r.uuid, 'dtype', c.dtype, 'rows', c.rows, 'cols', c.cols,"
	" 'sm_mhz_start', c.sm_mhz_start, 'sm_mhz_end', c.sm_mhz_end, 'sm_mhz_min', c.sm_mhz_min,"
	" 'sm_mhz_max', c.sm_mhz_max, 'mem_mhz_start', c.mem_mhz_start, 'mem_mhz_end', c.mem_mhz_end,"
	" 'temp_c_start', c.temp_c_start, 'temp_c_end', c.temp_c_end, 'temp_c_max', c.temp_c_max,"
	" 'power_w_start', c.power_w_start, 'power_w_end', c.power_w_end, 'power_w_max', c.power_w_max,"
	" 'throttle_reasons', c.throttle_reasons, 'samples', c.samples, 'depth', c.depth)"
	" FROM run_condition c JOIN run r ON r.id = c.run_id JOIN device d ON d.id = r.device_id"
	" JOIN family f ON f.id = r.family_id WHERE (?1 IS NULL OR f.name = ?1) AND (?2 IS NULL OR c.dtype = ?2)"
	" AND (?3 IS NULL OR r.timing_mode = ?3) ORDER BY r.id, c.rows * c.cols * c.depth, c.rows, c.cols";
/* A figure's key: GB/s as gbps, GFLOP/s as gflops. */
#define RATE_KEY(prefix) "CASE f.metric WHEN 'GFLOP/s' THEN '" prefix "gflops' ELSE '" prefix "gbps' END"
static const char validation_sql[] =
	"SELECT d.uuid, json_object('run_uuid', r.uuid, 'dtype', va.dtype, 'rows', va.rows, 'cols', va.cols,"
	" 'params', va.params, 'how', va.how, " RATE_KEY("") ", va.gbps, 'fraction', va.fraction,"
	" " RATE_KEY("best_") ", va.best_gbps,"
	" 'depth', va.depth)"
	" FROM validation va JOIN run r ON r.id = va.run_id JOIN device d ON d.id = r.device_id"
	" JOIN family f ON f.id = r.family_id WHERE (?1 IS NULL OR f.name = ?1) AND (?2 IS NULL OR va.dtype = ?2)"
	" AND (?3 IS NULL OR r.timing_mode = ?3) ORDER BY r.id, va.rows * va.cols * va.depth, va.rows, va.cols";

int export_json(FILE *f, const struct choice_set *cs, sqlite3 *every_db, const struct result_filter *flt)
{
	const struct result_set *rs = &cs->winners;
	/* Dated by its newest run, not the clock: the same results, the same
	 * bytes. */
	const char *newest = choice_newest_run(cs);
	fprintf(f, "{\n  \"format\": \"gputune-results\",\n  \"version\": 1,\n");
	fprintf(f, "  \"generator\": \"gputune %s\",\n", PACKAGE_VERSION);
	if (newest)
		fprintf(f, "  \"generated_at\": \"%s\",\n", newest);
	fputs("  \"kernels\": [", f);
	int first = 1;
	for (size_t i = 0; i < rs->n; i++) {
		if (seen_before(rs, i, 0))
			continue;
		const struct family *fam = family_find(rs->r[i].family);
		struct strbuf sb = {0};
		for (int k = 0; fam && k < fam->nparams; k++)
			sb_printf(&sb, "%s%s", k ? "," : "", fam->params[k].name);
		fputs(first ? "\n    {" : ",\n    {", f);
		field_s(f, "", "name", rs->r[i].family);
		field_s(f, ", ", "params", sb.buf ? sb.buf : "");
		if (fam) {
			field_s(f, ", ", "shape", family_shape_name(fam));
			field_s(f, ", ", "metric", family_metric_unit(fam));
		}
		fputs("}", f);
		sb_free(&sb);
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"devices\": [", f);
	first = 1;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result *r = &rs->r[i];
		if (seen_before(rs, i, 1))
			continue;
		fputs(first ? "\n    {" : ",\n    {", f);
		field_s(f, "", "uuid", r->uuid);
		field_s(f, ", ", "name", r->device);
		fprintf(f, ", \"cc_major\": %d, \"cc_minor\": %d, \"sm_count\": %d, \"mem_bytes\": %lld,"
			   " \"l2_bytes\": %d, \"bus_width_bits\": %d, \"mem_clock_khz\": %d, \"driver_version\": %d}",
			r->cc_major, r->cc_minor, r->sm_count, r->mem_bytes, r->l2_bytes, r->bus_width_bits,
			r->mem_clock_khz, r->driver_version);
		first = 0;
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"results\": [", f);
	for (size_t i = 0; i < rs->n; i++)
		write_result(f, &rs->r[i], i == 0);
	fputs(rs->n ? "\n  ],\n" : "],\n", f);
	/* The candidates' measurements the choice at untuned sizes reads;
	 * or every variant's latest measurement, with the runs' conditions
	 * and held-out points. */
	fputs("  \"measurements\": [", f);
	int none = 1;
	if (every_db) {
		struct result_set all = { 0 };
		if (results_read(every_db, flt, 0, RESULTS_LATEST, &all) < 0)
			return -1;
		for (size_t i = 0; i < all.n; i++) {
			if (!exported_device(rs, all.r[i].uuid))
				continue;
			/* The winners are under "results" already. */
			int winner = 0;
			for (size_t j = 0; j < rs->n && !winner; j++)
				winner = !strcmp(rs->r[j].run_uuid, all.r[i].run_uuid) &&
					 !strcmp(rs->r[j].params, all.r[i].params) && rs->r[j].rows == all.r[i].rows &&
					 rs->r[j].cols == all.r[i].cols && rs->r[j].depth == all.r[i].depth && !strcmp(rs->r[j].dtype, all.r[i].dtype);
			if (winner)
				continue;
			write_result(f, &all.r[i], none);
			none = 0;
		}
		results_free(&all);
		fputs(none ? "]" : "\n  ]", f);
		if (write_rows(f, rs, every_db, flt, "conditions", conditions_sql) < 0 ||
		    write_rows(f, rs, every_db, flt, "validation", validation_sql) < 0)
			return -1;
		fputs("\n}\n", f);
		return 0;
	}
	for (size_t k = 0; cs && k < cs->ngroups; k++) {
		const struct choice_group *g = &cs->g[k];
		for (int i = 0; i < g->n; i++)
			for (int j = 0; j < g->ncand; j++) {
				const struct result *r = g->source[i * g->ncand + j];
				if (!r || r == g->entry[i])
					continue;
				write_result(f, r, none);
				none = 0;
			}
	}
	fputs(none ? "]\n}\n" : "\n  ]\n}\n", f);
	return 0;
}
