/*
 * results.c - see results.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "db/results.h"
#include "db/db.h"
#include "db/db-import.h"
#include "util/embedded.h"
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return xstrdup(t ? (const char *)t : "");
}

void results_bind_filter(sqlite3_stmt *st, const struct result_filter *flt)
{
	if (flt->family)
		sqlite3_bind_text(st, 1, flt->family, -1, SQLITE_STATIC);
	if (flt->dtype)
		sqlite3_bind_text(st, 2, flt->dtype, -1, SQLITE_STATIC);
	if (flt->mode)
		sqlite3_bind_text(st, 3, flt->mode, -1, SQLITE_STATIC);
}

/* The columns a result is read from, and their joins, after FROM picked
 * the measurements (as "m", with its run "r"). */
#define RESULT_COLUMNS \
	"d.uuid, d.name, d.cc_major, d.cc_minor, d.sm_count, d.mem_bytes, d.l2_bytes," \
	" d.bus_width_bits, d.mem_clock_khz, d.driver_version, f.name, v.dtype, r.timing_mode," \
	" m.rows, m.cols, v.params, v.source_hash, m.median_ms, m.min_ms, m.max_ms, m.p25_ms," \
	" m.p75_ms, m.gbps, m.fraction, m.launches, c.ceiling_gbps, c.memcpy_gbps," \
	" c.copy_kernel_gbps, r.uuid, r.started_at, r.gputune_version, r.nvrtc_version," \
	" r.repetitions, c.kind, m.status, m.reason, r.conditions, m.depth, coalesce(m.registers, 0)"
#define RESULT_JOINS \
	" JOIN run r ON r.id = m.run_id JOIN device d ON d.id = r.device_id" \
	" JOIN variant v ON v.id = m.variant_id JOIN family f ON f.id = v.family_id" \
	" LEFT JOIN ceiling c ON c.run_id = r.id AND c.dtype = v.dtype AND c.rows = m.rows" \
	"  AND c.cols = m.cols AND c.depth = m.depth" \
	" WHERE (?1 IS NULL OR f.name = ?1) AND (?2 IS NULL OR v.dtype = ?2)" \
	" AND (?3 IS NULL OR r.timing_mode = ?3)"
#define RESULT_ORDER \
	" ORDER BY d.name, d.uuid, f.name, v.dtype, r.timing_mode, m.rows * m.cols * m.depth, m.rows, m.cols"

int results_read(sqlite3 *db, const struct result_filter *flt, int shipped, int which, struct result_set *s)
{
	static const char winners[] =
		"SELECT " RESULT_COLUMNS " FROM winner w JOIN measurement m ON m.id = w.measurement_id"
		RESULT_JOINS RESULT_ORDER;
	static const char latest[] =
		"WITH latest AS (SELECT m.id, m.status, row_number() OVER (PARTITION BY r.device_id,"
		" r.timing_mode, m.variant_id, m.rows, m.cols, m.depth ORDER BY m.id DESC) rn"
		" FROM measurement m JOIN run r ON r.id = m.run_id)"
		" SELECT " RESULT_COLUMNS " FROM latest l JOIN measurement m ON m.id = l.id"
		RESULT_JOINS " AND l.rn = 1 AND (?4 OR l.status = 'ok')" RESULT_ORDER;
	sqlite3_stmt *st = db_prepare(db, which == RESULTS_WINNERS ? winners : latest);
	if (!st)
		return -1;
	results_bind_filter(st, flt);
	if (which != RESULTS_WINNERS)
		sqlite3_bind_int(st, 4, which == RESULTS_LATEST);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s->r = xgrow(s->r, s->n, sizeof(*s->r));
		struct result *r = &s->r[s->n++];
		memset(r, 0, sizeof(*r));
		r->uuid = col_text(st, 0);
		r->device = col_text(st, 1);
		r->cc_major = sqlite3_column_int(st, 2);
		r->cc_minor = sqlite3_column_int(st, 3);
		r->sm_count = sqlite3_column_int(st, 4);
		r->mem_bytes = sqlite3_column_int64(st, 5);
		r->l2_bytes = sqlite3_column_int(st, 6);
		r->bus_width_bits = sqlite3_column_int(st, 7);
		r->mem_clock_khz = sqlite3_column_int(st, 8);
		r->driver_version = sqlite3_column_int(st, 9);
		r->family = col_text(st, 10);
		r->dtype = col_text(st, 11);
		r->mode = col_text(st, 12);
		r->rows = (long)sqlite3_column_int64(st, 13);
		r->cols = (long)sqlite3_column_int64(st, 14);
		r->params = col_text(st, 15);
		r->source_hash = col_text(st, 16);
		r->median_ms = sqlite3_column_double(st, 17);
		r->min_ms = sqlite3_column_double(st, 18);
		r->max_ms = sqlite3_column_double(st, 19);
		r->p25_ms = sqlite3_column_double(st, 20);
		r->p75_ms = sqlite3_column_double(st, 21);
		r->gbps = sqlite3_column_double(st, 22);
		r->fraction = sqlite3_column_double(st, 23);
		r->launches = sqlite3_column_int(st, 24);
		r->ceiling_gbps = sqlite3_column_double(st, 25);
		r->memcpy_gbps = sqlite3_column_double(st, 26);
		r->copy_kernel_gbps = sqlite3_column_double(st, 27);
		r->run_uuid = col_text(st, 28);
		r->started_at = col_text(st, 29);
		r->gputune_version = col_text(st, 30);
		r->nvrtc_version = col_text(st, 31);
		r->repetitions = sqlite3_column_int(st, 32);
		r->ceiling_kind = col_text(st, 33);
		r->status = col_text(st, 34);
		r->reason = col_text(st, 35);
		r->conditions = col_text(st, 36);
		r->depth = (long)sqlite3_column_int64(st, 37);
		r->registers = sqlite3_column_int(st, 38);
		r->shipped = shipped;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail("database: %s", sqlite3_errmsg(db));
	return 0;
}

int results_open_shipped(sqlite3 **db)
{
	if (db_open_memory(db) < 0)
		return -1;
	const struct embedded_file *e = embedded_find("db/shipped.json");
	if (e && e->len > 0 && db_import_json(*db, e->text, "the shipped results", 1) < 0) {
		db_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}

static void free_one(struct result *r)
{
	char **fields[] = { &r->uuid, &r->device, &r->family, &r->dtype, &r->mode, &r->params,
			    &r->source_hash, &r->run_uuid, &r->started_at, &r->gputune_version,
			    &r->nvrtc_version, &r->ceiling_kind, &r->status, &r->reason, &r->conditions };
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		free(*fields[i]);
}

void results_free(struct result_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_one(&s->r[i]);
	free(s->r);
	s->r = NULL;
	s->n = 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

int results_device_matches(const char *text, long long id, const char *uuid, const char *name)
{
	if (all_digits(text))
		return atoll(text) == id;
	return !strcasecmp(text, uuid) || contains_nocase(name, text);
}

/* Adds to *names the devices of db that text names. */
static int match_devices(sqlite3 *db, const char *text, struct result_set *names)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, uuid, name FROM device ORDER BY id");
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(st, 0);
		const char *uuid = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		if (!results_device_matches(text, id, uuid, name))
			continue;
		names->r = xgrow(names->r, names->n, sizeof(*names->r));
		struct result *r = &names->r[names->n++];
		memset(r, 0, sizeof(*r));
		r->uuid = xstrdup(uuid);
		r->device = xstrdup(name);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Opens the user's database (NULL when the file does not exist) and,
 * unless flt->no_shipped, the shipped results.  0 or -1 (reported). */
static int open_both(const char *db_path, const struct result_filter *flt, sqlite3 **user, sqlite3 **shipped)
{
	*user = *shipped = NULL;
	if (db_open(db_path, DB_MISSING_OK, user) < 0)
		return -1;
	if (!flt->no_shipped && results_open_shipped(shipped) < 0) {
		db_close(*user);
		*user = NULL;
		return -1;
	}
	return 0;
}

/* The latest 'ok' measurement of each variant in the open databases. */
static int load_latest(sqlite3 *user, sqlite3 *shipped, const struct result_filter *flt, struct result_set *out)
{
	memset(out, 0, sizeof(*out));
	int rc = 0;
	if (user)
		rc = results_read(user, flt, 0, RESULTS_LATEST_OK, out);
	if (rc == 0 && shipped)
		rc = results_read(shipped, flt, 1, RESULTS_LATEST_OK, out);
	if (rc < 0)
		results_free(out);
	return rc;
}

/* The winners of the open databases matching flt (see results_load). */
static int load_winners(sqlite3 *user, sqlite3 *shipped, const struct result_filter *flt, struct result_set *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3 *dbs[2] = { user, shipped };
	struct result_set devs = {0}, all = {0};
	int rc = 0;
	for (int k = 0; k < 2 && rc == 0; k++) {
		if (!dbs[k])
			continue;
		if (flt->device)
			rc = match_devices(dbs[k], flt->device, &devs);
		if (rc == 0)
			rc = results_read(dbs[k], flt, k == 1, RESULTS_WINNERS, &all);
	}
	if (rc < 0)
		goto fail;
	if (flt->device) {
		if (devs.n == 0) {
			error("unknown device '%s': no tuned device has that name, UUID or index "
			      "(gputune db devices lists them)", flt->device);
			goto fail;
		}
		/* The same model twice is one answer; different models are ambiguous. */
		for (size_t i = 1; i < devs.n; i++)
			if (strcmp(devs.r[i].device, devs.r[0].device)) {
				struct strbuf sb = {0};
				for (size_t j = 0; j < devs.n; j++)
					sb_printf(&sb, "\n  %s (%s)", devs.r[j].device, devs.r[j].uuid);
				error("device '%s' is ambiguous; it matches:%s", flt->device, sb.buf);
				sb_free(&sb);
				goto fail;
			}
	}
	for (size_t i = 0; i < all.n; i++) {
		struct result *r = &all.r[i];
		int keep = 1;
		if (flt->device) {
			keep = 0;
			for (size_t j = 0; j < devs.n && !keep; j++)
				keep = !strcmp(devs.r[j].uuid, r->uuid);
		}
		/* A shipped result the user's database also has is shadowed. */
		for (size_t j = 0; j < out->n && keep && r->shipped; j++) {
			struct result *u = &out->r[j];
			keep = u->shipped || strcmp(u->uuid, r->uuid) || strcmp(u->family, r->family) ||
			       strcmp(u->dtype, r->dtype) || strcmp(u->mode, r->mode) || u->rows != r->rows ||
			       u->cols != r->cols || u->depth != r->depth;
		}
		if (keep) {
			out->r = xgrow(out->r, out->n, sizeof(*out->r));
			out->r[out->n++] = *r;
		} else {
			free_one(r);
		}
	}
	free(all.r);
	results_free(&devs);
	return 0;
fail:
	results_free(&devs);
	results_free(&all);
	return -1;
}

int results_load(const char *db_path, const struct result_filter *flt, struct result_set *winners,
		 struct result_set *latest)
{
	sqlite3 *user, *shipped;
	if (open_both(db_path, flt, &user, &shipped) < 0)
		return -1;
	int rc = load_winners(user, shipped, flt, winners);
	if (rc == 0 && (rc = load_latest(user, shipped, flt, latest)) < 0)
		results_free(winners);
	db_close(user);
	db_close(shipped);
	return rc;
}
