/*
 * export-json.c - results as JSON, in the format db-import.c reads:
 * {"format": "gputune-results", "version": 1, "kernels": [...],
 *  "devices": [...], "results": [...], "measurements": [...]}.  "results"
 * holds the winners, "measurements" the candidates' other measurements at
 * the same sizes (same record form), so that a merged or shipped file
 * carries what the choice at untuned sizes needs.
 */
#include "config.h"
#include "db.h"
#include "export.h"
#include "table.h"
#include "util.h"

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
	field_s(f, ", ", "timing_mode", r->mode);
	field_s(f, ", ", "params", r->params);
	field_s(f, ", ", "source_hash", r->source_hash);
	field_s(f, ", ", "ceiling_kind", r->ceiling_kind ? r->ceiling_kind : "copy");
	fprintf(f, ",\n     \"median_ms\": %.9g, \"min_ms\": %.9g, \"max_ms\": %.9g, \"p25_ms\": %.9g,"
		   " \"p75_ms\": %.9g, \"launches\": %d, \"gbps\": %.9g, \"fraction\": %.9g,"
		   " \"ceiling_gbps\": %.9g, \"memcpy_gbps\": %.9g, \"copy_kernel_gbps\": %.9g,\n     \"run\": {",
		r->median_ms, r->min_ms, r->max_ms, r->p25_ms, r->p75_ms, r->launches, r->gbps, r->fraction,
		r->ceiling_gbps, r->memcpy_gbps, r->copy_kernel_gbps);
	field_s(f, "", "uuid", r->run_uuid);
	field_s(f, ", ", "started_at", r->started_at);
	field_s(f, ", ", "gputune_version", r->gputune_version);
	field_s(f, ", ", "nvrtc_version", r->nvrtc_version);
	fprintf(f, ", \"repetitions\": %d}}", r->repetitions);
}

int export_json(FILE *f, const struct choice_set *cs)
{
	const struct result_set *rs = &cs->winners;
	char ts[32];
	db_timestamp(ts);
	fprintf(f, "{\n  \"format\": \"gputune-results\",\n  \"version\": 1,\n");
	fprintf(f, "  \"generator\": \"gputune %s\",\n  \"generated_at\": \"%s\",\n", PACKAGE_VERSION, ts);
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
			field_s(f, ", ", "shape", fam->shape == SHAPE_1D ? "1d" : "2d");
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
	/* The candidates' measurements the choice at untuned sizes reads. */
	fputs("  \"measurements\": [", f);
	int none = 1;
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
