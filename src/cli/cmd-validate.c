/*
 * cmd-validate.c - `gputune validate FAMILY`: how good is the choice an
 * exported header makes at sizes nobody tuned?  For each size asked (by
 * default 40 drawn at random, seeded), it takes the variant the header's
 * rule picks from the results as they stand, leaving the asked sizes out
 * of the evidence (so they are held out even when measured before), then
 * tunes each size itself on the GPU with the whole space (which measures
 * the chosen variant too, and times it again with as many launches as the
 * size's winner gets in its confirmation), and reports the choice's share
 * of the copy ceiling and of that size's own best.  What it measures is
 * stored like any tuning run.
 */
#define _POSIX_C_SOURCE 200809L
#include "export/choice.h"
#include "cli/cmd.h"
#include "compile/render.h"
#include "cli/cmd-tune.h"
#include "db/db.h"
#include "families/family.h"
#include "gpu/gpu.h"
#include "util/sizes.h"
#include "util/table.h"
#include "tune/tune.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct cmd_option options[] = {
	{ "sizes", "LIST", "held-out sizes, as for tuning (default: the family's, which `gputune help FAMILY` gives)", 0, 0 },
	TUNE_OPT_DTYPE,
	{ "no-shipped", NULL, "choose from your database only, not the results shipped with gputune", 0, 0 },
	{ "param", "NAME=V,...", "the space each held-out size is tuned with, as for tuning (default: the family's)", 1, 0 },
	{ "replay", NULL, "no GPU: leave each measured size (or the --sizes given, together) out and score the choice there by what was measured", 0, 0 },
	TUNE_OPT_REPS,
	TUNE_OPT_JOBS,
	TUNE_OPT_CACHE_DIR,
	TUNE_OPT_TEMPLATES,
	TUNE_OPT_QUIET,
	OPT_DEVICE_INDEX,
	{ "devices", "all|I,J,...", "tune the held-out sizes on several GPUs of this host at once, each size wholly on one of them (the choice is made for GPU 0's model; each share is of the GPU that measured it)", 0, 0 },
	OPT_DB,
	OPT_FORMAT,
	OPT_END
};

static const struct table_col report_cols[] = {
	{ "size", 0 }, { "dtype", 0 }, { "choice", 0 }, { "how", 0 }, { "gbps", 1 }, { "pct_ceiling", 1 },
	{ "best_gbps", 1 }, { "pct_of_best", 1 }, { "best", 0 }, { "calibrated", 0 }, { "calibrated_pct_of_best", 1 },
};

/* The header's group for this GPU: same name (any case), else same
 * compute capability, as exported headers look it up. */
static const struct choice_group *group_for(const struct choice_set *cs, const struct gpu_info *g)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < cs->ngroups; k++) {
			const struct result *r = cs->g[k].key;
			if (pass == 0 ? !strcasecmp(r->device, g->name)
				      : r->cc_major == g->cc_major && r->cc_minor == g->cc_minor)
				return &cs->g[k];
		}
	return NULL;
}

/* Latest 'ok' GB/s and ceiling share of variant params at a size on this
 * device (flushed timing), or 0. */
static double measured(sqlite3 *db, const char *uuid, const struct family *f, const char *dtype,
		       const char *params, const struct dims *sz, double *fraction)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT m.gbps, m.fraction FROM measurement m JOIN run r ON r.id = m.run_id"
		" JOIN device d ON d.id = r.device_id JOIN variant v ON v.id = m.variant_id"
		" JOIN family fa ON fa.id = v.family_id WHERE d.uuid = ?1 AND fa.name = ?2 AND v.dtype = ?3"
		" AND v.params = ?4 AND m.rows = ?5 AND m.cols = ?6 AND m.depth = ?7 AND r.timing_mode = 'flushed'"
		" ORDER BY m.id DESC LIMIT 1");
	double gbps = 0;
	*fraction = 0;
	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, family_store_name(f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, dtype, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, params, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, sz->rows);
	sqlite3_bind_int64(st, 6, sz->cols);
	sqlite3_bind_int64(st, 7, sz->depth);
	if (sqlite3_step(st) == SQLITE_ROW) {
		gbps = sqlite3_column_double(st, 0);
		*fraction = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	return gbps;
}

/* Records a held-out point in the validation table (for plots and later
 * reading): the choice, how it was made, its figure and the size's best. */
static int store_point(sqlite3 *db, int64_t run_id, const char *dtype, const struct dims *sz,
		       const char *params, const char *how, double gbps, double fraction, double best)
{
	sqlite3_stmt *st = db_prepare(db,
		"INSERT OR REPLACE INTO validation (run_id, dtype, rows, cols, params, how, gbps, fraction,"
		" best_gbps, depth) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, dtype, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, sz->rows);
	sqlite3_bind_int64(st, 4, sz->cols);
	sqlite3_bind_int64(st, 10, sz->depth);
	sqlite3_bind_text(st, 5, params, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, how, -1, SQLITE_STATIC);
	if (gbps > 0 && best > 0) {
		sqlite3_bind_double(st, 7, gbps);
		sqlite3_bind_double(st, 8, fraction);
		sqlite3_bind_double(st, 9, best);
	}
	return db_step_done(db, st);
}

/* The winner at a size on this device: its params (caller frees) and GB/s. */
static char *best_at(sqlite3 *db, const char *uuid, const struct family *f, const char *dtype,
		     const struct dims *sz, double *gbps)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT v.params, m.gbps FROM winner w JOIN measurement m ON m.id = w.measurement_id"
		" JOIN variant v ON v.id = m.variant_id JOIN device d ON d.id = w.device_id"
		" JOIN family fa ON fa.id = w.family_id WHERE d.uuid = ?1 AND fa.name = ?2 AND w.dtype = ?3"
		" AND w.rows = ?4 AND w.cols = ?5 AND w.depth = ?6 AND w.timing_mode = 'flushed'");
	char *params = NULL;
	*gbps = 0;
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, family_store_name(f), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, dtype, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, sz->rows);
	sqlite3_bind_int64(st, 5, sz->cols);
	sqlite3_bind_int64(st, 6, sz->depth);
	if (sqlite3_step(st) == SQLITE_ROW) {
		params = xstrdup((const char *)sqlite3_column_text(st, 0));
		*gbps = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	return params;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The choice's shares of each size's best, as they come: the median, the
 * worst and where, and how many are below 90%. */
struct shares {
	double *v;
	size_t n, below90;
	double worst;
	char worst_size[48];
};

static void shares_init(struct shares *s, size_t max)
{
	s->v = xcalloc(max + 1, sizeof(double));
	s->n = s->below90 = 0;
	s->worst = 2;
	snprintf(s->worst_size, sizeof(s->worst_size), "-");
}

static void shares_add(struct shares *s, double share, const char *size)
{
	s->v[s->n++] = share;
	s->below90 += share < 0.9;
	if (share < s->worst) {
		s->worst = share;
		snprintf(s->worst_size, sizeof(s->worst_size), "%s", size);
	}
}

/* The median (sorts the shares); 0 with none. */
static double shares_median(struct shares *s)
{
	size_t n = s->n;
	qsort(s->v, n, sizeof(double), cmp_double);
	return n ? (n % 2 ? s->v[n / 2] : (s->v[n / 2 - 1] + s->v[n / 2]) / 2) : 0;
}

static const char *how_word(int how)
{
	static const char *const w[] = { "tuned", "class", "worst-case", "nearest" };
	return how >= 0 && how <= 3 ? w[how] : "default";
}

static const struct table_col replay_cols[] = {
	{ "device", 0 }, { "size", 0 }, { "dtype", 0 }, { "choice", 0 }, { "how", 0 }, { "pct_of_best", 1 },
	{ "best", 0 }, { "calibrated", 0 }, { "calibrated_pct_of_best", 1 },
};

/* Variant v's share of size i's best as group g measured it: 1 for the
 * winner, a candidate's share, else -1 (not measured there). */
static double share_at(const struct choice_group *g, int i, int v)
{
	if (v < 0)
		return -1;
	if (v == g->winner[i])
		return 1;
	for (int c = 0; c < g->ncand; c++)
		if (g->cand[c] == v)
			return g->share[(size_t)i * (size_t)g->ncand + (size_t)c];
	return -1;
}

/* --replay: for each device's group, each measured size in turn as if it
 * had not been measured: the rule's choice from the other sizes, and its
 * share of that size's best as measured (every candidate was measured at
 * every size of its group; a choice outside them, the nearest size's
 * winner, has its share only where it won).  With sizes (--sizes), those
 * are left out together, as `validate` leaves them out, and only they are
 * scored: given the sizes a validation ran at, it replays that
 * validation's choices from its database, so a change to the rule can be
 * judged on a GPU's past runs without the GPU. */
static int replay(const struct family *f, const struct dtype *dt, struct args *a, int format)
{
	struct dims *held = NULL;
	size_t nheld = 0;
	const char *text = args_get(a, "sizes");
	char err[256];
	if (text && sizes_parse(f->shape, text, &held, &nheld, err, sizeof(err)) < 0)
		return cmd_usage_error(a->cmd, "validate: %s", err);
	struct result_filter flt = { args_get(a, "device"), family_store_name(f), dt->name, "flushed", args_has(a, "no-shipped") };
	char *path = db_path_from(args_get(a, "db"));
	struct choice_set cs;
	int rc = choice_load(path, &flt, templates_dir_from(args_get(a, "templates")), &cs);
	free(path);
	if (rc < 0) {
		free(held);
		return EXIT_FAIL;
	}
	struct table t;
	table_init(&t, replay_cols, (int)ARRAY_SIZE(replay_cols));
	FILE *out = format == FMT_TABLE ? stdout : stderr;
	char *summary = NULL;
	size_t summary_len = 0;
	FILE *sf = open_memstream(&summary, &summary_len);
	int total_scored = 0;
	for (size_t k = 0; k < cs.ngroups; k++) {
		const struct choice_group *g = &cs.g[k];
		struct shares sh, cal;
		shares_init(&sh, (size_t)g->n);
		shares_init(&cal, (size_t)g->n);
		int scored = 0;
		for (int i = 0; i < g->n; i++) {
			const struct dims d = { g->rows[i], g->cols[i], g->depth[i] };
			if (held && !sizes_contain(held, nheld, d.rows, d.cols, d.depth))
				continue;
			scored++;
			int how = -1;
			/* Left out: the sizes asked together, else this one. */
			int ranked[CHOICE_CALIBRATE];
			const int nr = choice_rank_held_out(g, dt->size, &d, held ? held : &d, held ? nheld : 1,
							    CHOICE_CALIBRATE, ranked, &how);
			const int v = nr > 0 ? ranked[0] : -1;
			const double share = share_at(g, i, v);
			/* The calibrated pick: the fastest of the ranked as measured. */
			int pick = v;
			double pshare = share;
			for (int j = 1; j < nr; j++) {
				const double sj = share_at(g, i, ranked[j]);
				if (sj > pshare) {
					pick = ranked[j];
					pshare = sj;
				}
			}
			char sz[48], pct[32] = "", cpct[32] = "";
			family_size_text(f, &d, sz, sizeof(sz));
			if (share >= 0) {
				snprintf(pct, sizeof(pct), "%.1f", 100 * share);
				shares_add(&sh, share, sz);
			}
			if (pshare >= 0) {
				snprintf(cpct, sizeof(cpct), "%.1f", 100 * pshare);
				shares_add(&cal, pshare, sz);
			}
			const char *cells[] = { g->key->device, sz, dt->name, v >= 0 ? g->names[v] : "", how_word(how), pct,
						g->names[g->winner[i]], pick >= 0 ? g->names[pick] : "", cpct };
			table_add(&t, cells);
		}
		const double median = shares_median(&sh);
		total_scored += scored;
		fprintf(sf, "\nreplayed %s on %s: ", dt->name, g->key->device);
		if (held && !scored) {
			fprintf(sf, "none of the %zu sizes asked was measured there\n", nheld);
		} else {
			if (held)
				fprintf(sf, "%d of the %zu sizes asked were measured, left out together", scored, nheld);
			else
				fprintf(sf, "%d measured sizes, each left out in turn", g->n);
			fprintf(sf, "; the choice at %.1f%% of the size's best in the median, %.1f%% at worst (%s), "
				    "below 90%% at %zu",
				100 * median, sh.n ? 100 * sh.worst : 0.0, sh.worst_size, sh.below90);
			if (sh.n < (size_t)scored)
				fprintf(sf, "; %zu without a figure for the choice", (size_t)scored - sh.n);
			const double cal_median = shares_median(&cal);
			fprintf(sf, "\ncalibrated (the fastest of the rule's %d best, as a header's calibration picks): "
				    "%.1f%% in the median, %.1f%% at worst (%s), below 90%% at %zu\n",
				CHOICE_CALIBRATE, 100 * cal_median, cal.n ? 100 * cal.worst : 0.0, cal.worst_size,
				cal.below90);
		}
		free(sh.v);
		free(cal.v);
	}
	fclose(sf);
	rc = EXIT_OK;
	if (cs.ngroups && held && !total_scored) {
		fputs(summary, stderr);
		rc = error("validate: none of the %zu sizes given to --replay was measured for %s %s", nheld, f->name,
			   dt->name);
	} else if (cs.ngroups) {
		table_print(&t, format, stdout);
		fputs(summary, out);
	} else {
		rc = error("validate: no %s %s results to replay%s", f->name, dt->name,
			   flt.device ? " for that device" : "");
	}
	free(summary);
	table_free(&t);
	choice_free(&cs);
	free(held);
	return rc;
}

/* The held-out sizes and what the rule picks at each: the rule's
 * CHOICE_CALIBRATE best (the first is the choice; a shorter ranking
 * repeats its last), all confirmed at that size as its winner is, which
 * is what a calibrating header picks from. */
struct held_out {
	const struct family *f;
	const struct dtype *dt;
	struct gpu_info g;
	struct dims *sizes;
	size_t nsizes;
	char **ranked; /* nsizes x CHOICE_CALIBRATE names */
	char **choice; /* per size, its first */
	int *how;      /* per size: how the rule chose (-1: the fallback) */
	/* --devices: per size, the GPU that measured it and its run (NULL:
	 * every size the GPU of g, in the run tune_run reports). */
	char **uuid_of;
	int64_t *run_of;
};

static void held_out_free(struct held_out *h)
{
	for (size_t i = 0; h->ranked && i < h->nsizes * CHOICE_CALIBRATE; i++)
		free(h->ranked[i]);
	free(h->ranked);
	free(h->choice);
	free(h->how);
	free(h->sizes);
	for (size_t i = 0; h->uuid_of && i < h->nsizes; i++)
		free(h->uuid_of[i]);
	free(h->uuid_of);
	free(h->run_of);
}

/* --devices: which GPU measured each held-out size (in this validation:
 * the measurements after the id since), and in which run.  0 or -1. */
static int find_measuring_gpus(sqlite3 *db, struct held_out *h, int64_t since)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT d.uuid, m.run_id FROM measurement m JOIN run r ON r.id = m.run_id"
		" JOIN device d ON d.id = r.device_id JOIN variant v ON v.id = m.variant_id"
		" JOIN family fa ON fa.id = v.family_id WHERE m.id > ?1 AND fa.name = ?2 AND v.dtype = ?3"
		" AND m.rows = ?4 AND m.cols = ?5 AND m.depth = ?6 ORDER BY m.id DESC LIMIT 1");
	if (!st)
		return -1;
	h->uuid_of = xcalloc(h->nsizes + 1, sizeof(char *));
	h->run_of = xcalloc(h->nsizes + 1, sizeof(int64_t));
	for (size_t i = 0; i < h->nsizes; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, since);
		sqlite3_bind_text(st, 2, family_store_name(h->f), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, h->dt->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, h->sizes[i].rows);
		sqlite3_bind_int64(st, 5, h->sizes[i].cols);
		sqlite3_bind_int64(st, 6, h->sizes[i].depth);
		if (sqlite3_step(st) == SQLITE_ROW) {
			h->uuid_of[i] = xstrdup((const char *)sqlite3_column_text(st, 0));
			h->run_of[i] = sqlite3_column_int64(st, 1);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* The largest measurement id so far (0 for none): what a run adds comes
 * after it. */
static int64_t last_measurement(const char *path)
{
	sqlite3 *db = NULL;
	int64_t id = 0;
	if (db_open(path, DB_MISSING_OK, &db) < 0 || !db)
		return 0;
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(max(id), 0) FROM measurement");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	db_close(db);
	return id;
}

/* Ranks the candidates at each held-out size from the results at path
 * (the shipped ones too unless no_shipped), reading code paths from the
 * templates in templates_dir.  0, or -1 after a message. */
static int rank_choices(struct held_out *h, const char *path, const char *templates_dir, int no_shipped,
			int quiet)
{
	const size_t K = CHOICE_CALIBRATE;
	struct result_filter flt = { NULL, family_store_name(h->f), h->dt->name, "flushed", no_shipped };
	struct choice_set cs;
	if (choice_load(path, &flt, templates_dir, &cs) < 0)
		return -1;
	const struct choice_group *grp = group_for(&cs, &h->g);
	h->ranked = xcalloc(h->nsizes * K, sizeof(char *));
	h->choice = xcalloc(h->nsizes, sizeof(char *));
	h->how = xcalloc(h->nsizes, sizeof(int));
	for (size_t i = 0; i < h->nsizes; i++) {
		int v[CHOICE_CALIBRATE];
		int n = grp ? choice_rank_held_out(grp, h->dt->size, &h->sizes[i], h->sizes, h->nsizes, (int)K, v,
						   &h->how[i])
			    : 0;
		char *fallback = NULL;
		if (n == 0) {
			/* As a header with nothing tuned here: the classic tile. */
			int p[MAX_PARAMS] = {0};
			h->how[i] = -1;
			family_fallback_point(h->f, p);
			fallback = family_point_name(h->f, p);
		}
		for (size_t j = 0; j < K; j++)
			h->ranked[i * K + j] = xstrdup(n > 0 ? grp->names[v[(int)j < n ? (int)j : n - 1]] : fallback);
		free(fallback);
		h->choice[i] = h->ranked[i * K];
	}
	if (!quiet)
		fprintf(stderr, "gputune: validating the choice at %zu held-out %s sizes on %s from %s (%d measured "
				"sizes, %d candidates); tuning each size for reference\n",
			h->nsizes, h->dt->name, h->g.name, grp ? "the results" : "no results (the default variant)",
			grp ? grp->n : 0, grp ? grp->ncand : 0);
	choice_free(&cs);
	return 0;
}

/* Size i's row of the report, and its shares of the size's best (the
 * choice's in sh, the calibrated pick's in cal); the choice's figures are
 * stored under run_id.  0 or -1. */
static int report_size(sqlite3 *db, const struct held_out *h, size_t i, int64_t run_id, struct table *t,
		       struct shares *sh, struct shares *cal, double *worst_ceiling)
{
	const size_t K = CHOICE_CALIBRATE;
	const char *uuid = h->uuid_of && h->uuid_of[i] ? h->uuid_of[i] : h->g.uuid, *dtn = h->dt->name;
	if (h->run_of)
		run_id = h->run_of[i];
	double frac = 0, bg = 0;
	double cg = measured(db, uuid, h->f, dtn, h->choice[i], &h->sizes[i], &frac);
	char *best = best_at(db, uuid, h->f, dtn, &h->sizes[i], &bg);
	/* The calibrated pick: the fastest of the ranked, by their
	 * confirmed figures. */
	const char *pick = h->choice[i];
	double pg = cg;
	for (size_t j = 1; j < K; j++) {
		double fr, gb = measured(db, uuid, h->f, dtn, h->ranked[i * K + j], &h->sizes[i], &fr);
		if (gb > pg) {
			pg = gb;
			pick = h->ranked[i * K + j];
		}
	}
	char sz[48], c1[32] = "", c2[32] = "", c3[32] = "", c4[32] = "", c5[32] = "";
	family_size_text(h->f, &h->sizes[i], sz, sizeof(sz));
	if (cg > 0 && bg > 0) {
		snprintf(c1, sizeof(c1), "%.0f", cg);
		snprintf(c2, sizeof(c2), "%.1f", 100 * frac);
		snprintf(c3, sizeof(c3), "%.0f", bg);
		snprintf(c4, sizeof(c4), "%.1f", 100 * cg / bg);
		snprintf(c5, sizeof(c5), "%.1f", 100 * pg / bg);
		shares_add(sh, cg / bg, sz);
		shares_add(cal, pg / bg, sz);
		*worst_ceiling = frac < *worst_ceiling ? frac : *worst_ceiling;
	}
	int rc = 0;
	if (run_id && store_point(db, run_id, dtn, &h->sizes[i], h->choice[i], how_word(h->how[i]), cg, frac, bg) < 0)
		rc = -1;
	const char *cells[] = { sz, dtn, h->choice[i], how_word(h->how[i]), c1, c2, c3, c4, best ? best : "", pick, c5 };
	table_add(t, cells);
	free(best);
	return rc;
}

/* The table, and the summary lines of the shares.  The exit code. */
static int report_all(const struct held_out *h, const struct table *t, struct shares *sh, struct shares *cal,
		      double worst_ceiling, double seconds, int format)
{
	table_print(t, format, stdout);
	FILE *out = format == FMT_TABLE ? stdout : stderr;
	fprintf(out, "\nheld-out %s on %s: %zu sizes, choice at %.1f%% of each size's own best in the median, "
		     "%.1f%% at worst (%s), below 90%% at %zu; at least %.1f%% of the ceiling; %.1f s\n",
		h->dt->name, h->g.name, sh->n, 100 * shares_median(sh), sh->n ? 100 * sh->worst : 0.0, sh->worst_size,
		sh->below90, sh->n ? 100 * worst_ceiling : 0.0, seconds);
	fprintf(out, "calibrated (the fastest of the rule's %d best, as a header's calibration picks): "
		     "%.1f%% in the median, %.1f%% at worst (%s), below 90%% at %zu\n",
		CHOICE_CALIBRATE, 100 * shares_median(cal), cal->n ? 100 * cal->worst : 0.0, cal->worst_size,
		cal->below90);
	if (sh->n < h->nsizes)
		return error("validate: %zu of %zu sizes have no figure for the choice or the best", h->nsizes - sh->n,
			     h->nsizes);
	return EXIT_OK;
}

/* Tunes every held-out size for reference (the ranked points confirmed
 * there), then reports the choice against each size's best.  The exit
 * code. */
static int measure_held_out(struct held_out *h, struct args *a, const char *path, int format)
{
	const size_t K = CHOICE_CALIBRATE;
	struct tune_extra x = { h->sizes, h->nsizes, h->ranked, h->nsizes * K, 1, 1, (int)K, 0, 0 };
	struct tune_opts o;
	int rc = tune_opts_parse(h->f, a, &o);
	int several = rc == EXIT_OK && (o.devices_all || o.ndevices);
	int64_t since = several ? last_measurement(path) : 0;
	double t0 = now_seconds();
	if (rc == EXIT_OK) {
		rc = tune_run(h->f, &o, &x);
		tune_opts_free(&o);
	}
	if (several) /* the workers' runs: the time is the whole of it */
		x.seconds = now_seconds() - t0;
	if (tune_device_worker()) /* its share is measured; the first process reports */
		return rc;
	struct table t;
	table_init(&t, report_cols, (int)ARRAY_SIZE(report_cols));
	sqlite3 *db = NULL;
	if (rc == EXIT_OK && db_open(path, DB_WRITE, &db) < 0)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && several && find_measuring_gpus(db, h, since) < 0)
		rc = EXIT_FAIL;
	struct shares sh, cal;
	shares_init(&sh, h->nsizes);
	shares_init(&cal, h->nsizes);
	double worst_ceiling = 2;
	for (size_t i = 0; rc == EXIT_OK && i < h->nsizes; i++)
		if (report_size(db, h, i, x.run_id, &t, &sh, &cal, &worst_ceiling) < 0)
			rc = EXIT_FAIL;
	db_close(db);
	if (rc == EXIT_OK)
		rc = report_all(h, &t, &sh, &cal, worst_ceiling, x.seconds, format);
	table_free(&t);
	free(sh.v);
	free(cal.v);
	return rc;
}

static int exec_validate(struct args *a)
{
	struct held_out h;
	memset(&h, 0, sizeof(h));
	h.f = cmd_family_arg(a->cmd, "kernel family", a->pos[0]);
	if (!h.f)
		return EXIT_USAGE;
	int format = args_format(a);
	if (format < 0)
		return EXIT_USAGE;
	const char *dtn = args_get(a, "dtype");
	h.dt = family_dtype(h.f, dtn ? dtn : "f32");
	if (!h.dt)
		return cmd_usage_error(a->cmd, "validate: unknown --dtype '%s' for %s (%s)", dtn, h.f->name, h.f->dtypes);
	if (args_has(a, "replay"))
		return replay(h.f, h.dt, a, format);
	long dev = 0;
	if (args_get(a, "device") && args_get(a, "devices"))
		return cmd_usage_error(a->cmd, "validate: give --device or --devices, not both");
	if (args_get(a, "device") && parse_long(args_get(a, "device"), 0, 1024, &dev) < 0)
		return cmd_usage_error(a->cmd, "validate: bad --device '%s' (a GPU index)", args_get(a, "device"));
	char err[256];
	const char *text = args_get(a, "sizes");
	if (sizes_parse(h.f->shape, text ? text : h.f->validate_sizes, &h.sizes, &h.nsizes, err, sizeof(err)) < 0)
		return cmd_usage_error(a->cmd, "validate: %s", err);
	char why[256];
	int rc = gpu_probe((int)dev, &h.g, why, sizeof(why));
	if (rc) {
		held_out_free(&h);
		error("validate needs a GPU: %s", why);
		return rc;
	}
	/* The choices, before anything is measured. */
	char *path = db_path_from(args_get(a, "db"));
	if (rank_choices(&h, path, templates_dir_from(args_get(a, "templates")), args_has(a, "no-shipped"),
			 args_has(a, "quiet") || tune_device_worker()) < 0)
		rc = EXIT_FAIL;
	else
		rc = measure_held_out(&h, a, path, format);
	held_out_free(&h);
	free(path);
	return rc;
}

const struct cmd_entry cmd_validate_entry = {
	.name = "validate",
	.summary = "measure how well the exported choice holds at sizes nobody tuned",
	.usage = "FAMILY",
	.description =
		"For each size (default: the family's held-out sizes, which `gputune help\n"
		"FAMILY` gives; random:40:1000-8192 is 40 sizes with rows and columns drawn\n"
		"independently from [1000, 8192], seed 1), takes the variant an exported header\n"
		"would run there, choosing from the results as they stand but with the asked\n"
		"sizes left out (held out even if they were measured before); then, on the GPU,\n"
		"tunes each size with the whole space (or with the family's default search\n"
		"where it has one, the chosen variant always measured; no extra sizes).  The\n"
		"choice is timed again\n"
		"with as many launches as the size's best gets when it is confirmed, so\n"
		"the two figures compared are equally sure.  It reports the choice's\n"
		"figure (the family's metric), its share of the\n"
		"family's ceiling and of the size's own best, with the median and the worst at the end.\n"
		"Beside it, what a header's calibration (gputune help export) picks there:\n"
		"the rule's 4 best are all confirmed so, and the fastest is reported\n"
		"(columns calibrated and calibrated_pct_of_best, and a second summary line).\n"
		"The measurements are stored like any tuning run's, and each held-out point\n"
		"(the choice, its figure and the size's best) in the validation table, which\n"
		"`gputune plot sizes` draws.  It costs a full tuning run per size;\n"
		"docs/benchmarks.md gives what it took for each family.\n"
		"\n"
		"--replay needs no GPU: for each device in the results (or --device, as\n"
		"`gputune query` reads it), it leaves each measured size out in turn, takes\n"
		"the rule's choice from the other sizes, and reports its share of that size's\n"
		"best as measured (and the calibrated pick's), with the median and the worst\n"
		"per device.  The sizes are\n"
		"the tuned ones, not new ones, so it is a cheaper, weaker test than the GPU's.\n"
		"With --sizes, it leaves those sizes out together and scores them alone: given\n"
		"the --sizes of a validation and its database as it stood then, it replays\n"
		"that validation's choices (a size no run measured is left out of the figures).",
	.options = options,
	.min_pos = 1,
	.max_pos = 1,
	.flags = CMD_NEEDS_GPU | CMD_USES_DB,
	.exec = exec_validate,
};
