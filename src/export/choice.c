/*
 * choice.c - see choice.h.
 */
#include "export/choice.h"
#include "export/choice-fill.h"
#include "export/choice-rule.h"
#include "families/family.h"
#include "families/space.h"
#include "compile/render.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Results of GPUs of the same model (the same name, as exported headers
 * match them) form one group: a node's identical GPUs share what each
 * measured. */
static int same_key(const struct result *a, const struct result *b)
{
	return !strcasecmp(a->device, b->device) && !strcmp(a->family, b->family) && !strcmp(a->dtype, b->dtype) &&
	       !strcmp(a->mode, b->mode);
}

static int name_index(struct choice_group *g, const char *params, int add)
{
	for (int i = 0; i < g->nnames; i++)
		if (!strcmp(g->names[i], params))
			return i;
	if (!add)
		return -1;
	g->names = xrealloc(g->names, (size_t)(g->nnames + 1) * sizeof(char *));
	g->names[g->nnames] = xstrdup(params);
	return g->nnames++;
}

static struct choice_group *group_of(struct choice_set *cs, const struct result *r)
{
	for (size_t i = 0; i < cs->ngroups; i++)
		if (same_key(cs->g[i].key, r))
			return &cs->g[i];
	return NULL;
}

/* The GB/s of every variant measured in group g at each of its sizes:
 * gbps[v * g->n + i], 0 where v was not measured at size i. */
static double *measured_gbps(struct choice_group *g, const struct result_set *meas,
			     const struct result ***src)
{
	for (size_t m = 0; m < meas->n; m++)
		if (same_key(g->key, &meas->r[m]))
			name_index(g, meas->r[m].params, 1);
	double *gbps = xcalloc((size_t)g->nnames * (size_t)g->n, sizeof(double));
	*src = xcalloc((size_t)g->nnames * (size_t)g->n, sizeof(**src));
	for (size_t m = 0; m < meas->n; m++) {
		const struct result *r = &meas->r[m];
		if (!same_key(g->key, r))
			continue;
		int v = name_index(g, r->params, 0);
		for (int i = 0; i < g->n; i++)
			/* The user's database comes first: its figure stands. */
			/* Shares are taken on the GPU that measured the size's winner. */
			if (r->rows == g->rows[i] && r->cols == g->cols[i] && r->depth == g->depth[i] &&
			    gbps[v * g->n + i] == 0 &&
			    !strcmp(r->uuid, g->entry[i]->uuid)) {
				gbps[v * g->n + i] = r->gbps;
				(*src)[v * g->n + i] = r;
			}
	}
	/* A winner's own figure is the one its share is measured against. */
	for (int i = 0; i < g->n; i++) {
		gbps[g->winner[i] * g->n + i] = g->entry[i]->gbps;
		(*src)[g->winner[i] * g->n + i] = g->entry[i];
	}
	return gbps;
}

/*
 * The sizes that are evidence for the others, into ev[]: all but those
 * that measured only part of what the rest share (a search's budget, a
 * --sample or a narrower --param at that size).  Counted in, such a size
 * would narrow the candidates at every other size to the few it measured
 * (one size of 51 variants beside an H100's f16 tuning run took the
 * choice at 30 held-out sizes from 99.6% of their best in the median to
 * 87.5%).  So, greedily, the size whose leaving out gains the most
 * candidates is left out, while that at least doubles them; it still
 * answers at its own size.  The probes, each measured for the same
 * candidates, gain nothing from leaving one out and all stay in.  A
 * variant's count of evidence sizes it misses says what leaving one out
 * gains: the variants that miss that size alone.
 */
static void pick_evidence(const struct choice_group *g, const double *gbps, unsigned char *ev)
{
	const int n = g->n;
	int *miss = xcalloc((size_t)g->nnames + 1, sizeof(int)), *gain = xcalloc((size_t)n + 1, sizeof(int));
	memset(ev, 1, (size_t)n);
	for (int v = 0; v < g->nnames; v++)
		for (int i = 0; i < n; i++)
			miss[v] += !(gbps[v * n + i] > 0);
	for (int left = n; left > 1; left--) {
		int candidates = 0, best = -1;
		memset(gain, 0, (size_t)n * sizeof(int));
		for (int v = 0; v < g->nnames; v++) {
			candidates += miss[v] == 0;
			for (int i = 0; miss[v] == 1 && i < n; i++)
				gain[i] += ev[i] && !(gbps[v * n + i] > 0);
		}
		for (int i = 0; i < n; i++)
			if (gain[i] > 0 && gain[i] >= candidates && (best < 0 || gain[i] > gain[best]))
				best = i;
		if (best < 0)
			break;
		ev[best] = 0;
		for (int v = 0; v < g->nnames; v++)
			miss[v] -= !(gbps[v * n + best] > 0);
	}
	free(miss);
	free(gain);
}

/*
 * The candidates: variants measured at every size of the group that is
 * evidence (pick_evidence).  When there are more than CHOICE_MAX_CAND, the
 * model keeps the best worst case and the best mean first, then each
 * size's best, second best, ... in turn, so that every size's leaders and
 * the robust all-rounders are in.  A candidate's share at a size that is
 * no evidence is -1 where it was not measured there, which the rule reads
 * as that (choice-rule.h).
 */
static void pick_candidates(struct choice_group *g, const double *gbps, const struct result **src)
{
	int nn = g->nnames;
	double *lo = xcalloc((size_t)nn, sizeof(double)), *mean = xcalloc((size_t)nn, sizeof(double));
	unsigned char *full = xcalloc((size_t)nn, 1), *taken = xcalloc((size_t)nn, 1);
	unsigned char *ev = xcalloc((size_t)g->n + 1, 1);
	pick_evidence(g, gbps, ev);
	int nfull = 0, nev = 0;
	for (int i = 0; i < g->n; i++)
		nev += ev[i];
	for (int v = 0; v < nn; v++) {
		full[v] = 1;
		lo[v] = 2;
		for (int i = 0; i < g->n; i++) {
			if (!ev[i])
				continue;
			double s = gbps[v * g->n + i] / g->entry[i]->gbps;
			full[v] &= gbps[v * g->n + i] > 0;
			lo[v] = s < lo[v] ? s : lo[v];
			mean[v] += s / nev;
		}
		nfull += full[v];
	}
	g->cand = xcalloc(CHOICE_MAX_CAND, sizeof(int));
	g->ncand = 0;
	int want = nfull < CHOICE_MAX_CAND ? nfull : CHOICE_MAX_CAND;
	for (int pass = 0; pass < 2 && g->ncand < want; pass++) {
		int best = -1;
		for (int v = 0; v < nn; v++)
			if (full[v] && !taken[v] &&
			    (best < 0 || (pass == 0 ? lo[v] > lo[best] : mean[v] > mean[best])))
				best = v;
		taken[best] = 1;
		g->cand[g->ncand++] = best;
	}
	for (int rank = 0; g->ncand < want; rank++)
		for (int i = 0; i < g->n && g->ncand < want; i++) {
			if (!ev[i])
				continue;
			/* The candidate of this size not yet taken with the most GB/s. */
			int best = -1;
			for (int v = 0; v < nn; v++)
				if (full[v] && !taken[v] && (best < 0 || gbps[v * g->n + i] > gbps[best * g->n + i]))
					best = v;
			if (best >= 0) {
				taken[best] = 1;
				g->cand[g->ncand++] = best;
			}
		}
	g->share = xcalloc((size_t)g->n * (size_t)(g->ncand ? g->ncand : 1), sizeof(float));
	g->source = xcalloc((size_t)g->n * (size_t)(g->ncand ? g->ncand : 1), sizeof(*g->source));
	for (int i = 0; i < g->n; i++)
		for (int j = 0; j < g->ncand; j++) {
			g->share[i * g->ncand + j] =
				gbps[g->cand[j] * g->n + i] > 0 ? (float)(gbps[g->cand[j] * g->n + i] / g->entry[i]->gbps) : -1;
			g->source[i * g->ncand + j] = src[g->cand[j] * g->n + i];
		}
	free(lo);
	free(mean);
	free(full);
	free(taken);
	free(ev);
}

_Static_assert(CHOICE_MAX_CAND <= GPUTUNE_CHOICE_MAX_CAND, "the rule scores every candidate of the model");

/* Each name's code paths in the family's template: the
 * ranking's spread (choice-rule.h).  All 0 when the family or a name is
 * not known. */
static void name_paths(struct choice_group *g, const char *templates_dir)
{
	g->paths = xcalloc((size_t)g->nnames + 1, sizeof(unsigned));
	const struct family *f = family_find(g->key->family);
	char *tmpl = f ? family_template_load(f, templates_dir) : NULL;
	for (int i = 0; tmpl && i < g->nnames; i++) {
		int v[MAX_PARAMS];
		if (family_point_parse(f, g->names[i], v) == 0)
			g->paths[i] = template_paths(f, tmpl, v);
	}
	free(tmpl);
}

/* Each name's registers a thread as the tuner stored them for the
 * group's device and element type (its measurements of it), 0 where none
 * was stored. */
static void name_registers(const struct choice_set *cs, struct choice_group *g)
{
	const struct result_set *sets[] = { &cs->winners, &cs->measured };
	g->regs = xcalloc((size_t)g->nnames + 1, sizeof(int));
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sets[s]->n; i++) {
			const struct result *r = &sets[s]->r[i];
			if (r->registers <= 0 || strcmp(r->uuid, g->key->uuid) || strcmp(r->family, g->key->family) ||
			    strcmp(r->dtype, g->key->dtype))
				continue;
			int k = name_index(g, r->params, 0);
			if (k >= 0 && !g->regs[k])
				g->regs[k] = r->registers;
		}
}

/* For a family that reads candidates by their fill (choice-fill.h): each
 * name's point and blocks an SM holds, the element type and the GPU's
 * SMs. */
static void name_fill(struct choice_group *g)
{
	const struct family *f = family_find(g->key->family);
	g->dt = dtype_find(g->key->dtype);
	if (!f || !f->choice_fill || !g->dt || g->key->sm_count <= 0)
		return;
	g->fam = f;
	g->sms = g->key->sm_count;
	for (int i = 0; i < 2; i++)
		g->tile[i] = f->fill_tile[i] ? family_param_index(f, f->fill_tile[i]) : -1;
	g->point = xcalloc((size_t)g->nnames + 1, sizeof(*g->point));
	g->per_sm = xcalloc((size_t)g->nnames + 1, sizeof(int));
	for (int i = 0; i < g->nnames; i++) {
		if (family_point_check(f, g->names[i], g->point[i], (char[160]){ 0 }, 160) < 0)
			family_fallback_point(f, g->point[i]); /* not a point of f: never a candidate */
		g->per_sm[i] = device_blocks_per_sm(f, g->point[i], g->dt, g->regs[i],
						    g->key->cc_major * 10 + g->key->cc_minor);
	}
}

/* The fill (choice-fill.h) of name v's launch at rows x cols x depth,
 * times its tiles' cover where the family names them. */
static double group_fill(const void *ctx, int v, long rows, long cols, long depth)
{
	const struct choice_group *g = ctx;
	struct launch_geometry geo = {0};
	g->fam->geometry(g->point[v], g->dt, &(struct dims){ rows, cols, depth }, &geo);
	double w = gputune_choice_fill((long)geo.grid[0] * geo.grid[1] * geo.grid[2], g->sms, g->per_sm[v],
				       (long)geo.block[0] * geo.block[1] * geo.block[2]);
	if (g->tile[0] >= 0 && g->tile[1] >= 0)
		w *= gputune_choice_cover(rows, cols, g->point[v][g->tile[0]], g->point[v][g->tile[1]]);
	return w;
}

int choice_load(const char *db_path, const struct result_filter *flt, const char *templates_dir,
		struct choice_set *cs)
{
	memset(cs, 0, sizeof(*cs));
	struct result_set *meas = &cs->measured;
	if (results_load(db_path, flt, &cs->winners, meas) < 0)
		return -1;
	cs->g = xcalloc(cs->winners.n + 1, sizeof(*cs->g));
	for (size_t k = 0; k < cs->winners.n; k++) {
		const struct result *r = &cs->winners.r[k];
		struct choice_group *g = group_of(cs, r);
		if (!g) {
			g = &cs->g[cs->ngroups++];
			g->key = r;
			const struct family *f = family_find(r->family);
			g->has_depth = f && f->shape == SHAPE_3D;
		}
		int dup = 0;
		for (int i = 0; i < g->n && !dup; i++)
			dup = g->rows[i] == r->rows && g->cols[i] == r->cols && g->depth[i] == r->depth;
		if (dup) /* measured on another GPU of the model: the first stands */
			continue;
		g->entry = xrealloc(g->entry, (size_t)(g->n + 1) * sizeof(*g->entry));
		g->rows = xrealloc(g->rows, (size_t)(g->n + 1) * sizeof(long));
		g->cols = xrealloc(g->cols, (size_t)(g->n + 1) * sizeof(long));
		g->depth = xrealloc(g->depth, (size_t)(g->n + 1) * sizeof(long));
		g->winner = xrealloc(g->winner, (size_t)(g->n + 1) * sizeof(int));
		g->entry[g->n] = r;
		g->rows[g->n] = r->rows;
		g->cols[g->n] = r->cols;
		g->depth[g->n] = r->depth;
		g->winner[g->n] = name_index(g, r->params, 1);
		g->n++;
	}
	for (size_t k = 0; k < cs->ngroups; k++) {
		const struct result **src = NULL;
		double *gbps = measured_gbps(&cs->g[k], meas, &src);
		pick_candidates(&cs->g[k], gbps, src);
		name_paths(&cs->g[k], templates_dir);
		name_registers(cs, &cs->g[k]);
		name_fill(&cs->g[k]);
		free(gbps);
		free(src);
	}
	return 0;
}

const char *choice_newest_run(const struct choice_set *cs)
{
	const char *newest = NULL;
	const struct result_set *sets[] = { &cs->winners, &cs->measured };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sets[k]->n; i++) {
			const char *t = sets[k]->r[i].started_at;
			if (t && *t && (!newest || strcmp(t, newest) > 0))
				newest = t;
		}
	return newest;
}

void choice_free(struct choice_set *cs)
{
	for (size_t k = 0; k < cs->ngroups; k++) {
		struct choice_group *g = &cs->g[k];
		for (int i = 0; i < g->nnames; i++)
			free(g->names[i]);
		free(g->names);
		free(g->paths);
		free(g->point);
		free(g->regs);
		free(g->per_sm);
		free(g->entry);
		free(g->rows);
		free(g->cols);
		free(g->depth);
		free(g->winner);
		free(g->cand);
		free(g->share);
		free(g->source);
	}
	results_free(&cs->measured);
	free(cs->g);
	results_free(&cs->winners);
	memset(cs, 0, sizeof(*cs));
}

int choice_pick(const struct choice_group *g, size_t esize, const struct dims *d, int *how)
{
	int v = -1;
	return gputune_choice_rank(g->n, g->rows, g->cols, g->has_depth ? g->depth : NULL, g->winner, g->ncand,
				   g->cand, g->share, NULL, g->fam ? group_fill : NULL, g, (long)esize, d->rows,
				   d->cols, g->has_depth ? d->depth : 1, 1, &v, how)
		       ? v
		       : -1;
}

int choice_rank_held_out(const struct choice_group *g, size_t esize, const struct dims *d,
			 const struct dims *held, size_t nheld, int k, int *out, int *how)
{
	long *r = xcalloc((size_t)g->n + 1, sizeof(long)), *c = xcalloc((size_t)g->n + 1, sizeof(long));
	long *depth = xcalloc((size_t)g->n + 1, sizeof(long));
	int *w = xcalloc((size_t)g->n + 1, sizeof(int));
	float *share = xcalloc(((size_t)g->n + 1) * (size_t)(g->ncand + 1), sizeof(float));
	int n = 0;
	for (int i = 0; i < g->n; i++) {
		if (sizes_contain(held, nheld, g->rows[i], g->cols[i], g->depth[i]))
			continue;
		r[n] = g->rows[i];
		c[n] = g->cols[i];
		depth[n] = g->depth[i];
		w[n] = g->winner[i];
		memcpy(share + (size_t)n * (size_t)g->ncand, g->share + (size_t)i * (size_t)g->ncand,
		       (size_t)g->ncand * sizeof(float));
		n++;
	}
	int m = gputune_choice_rank(n, r, c, g->has_depth ? depth : NULL, w, g->ncand, g->cand, share, g->paths,
				    g->fam ? group_fill : NULL, g, (long)esize, d->rows, d->cols,
				    g->has_depth ? d->depth : 1, k, out, how);
	free(depth);
	free(r);
	free(c);
	free(w);
	free(share);
	return m;
}

int choice_pick_held_out(const struct choice_group *g, size_t esize, const struct dims *d,
			 const struct dims *held, size_t nheld, int *how)
{
	int v = -1;
	return choice_rank_held_out(g, esize, d, held, nheld, 1, &v, how) ? v : -1;
}

const char *choice_how_text(int how)
{
	switch (how) {
	case GPUTUNE_CHOICE_EXACT: return "tuned at this size";
	case GPUTUNE_CHOICE_CLASS: return "chosen over the measured sizes of its row alignment";
	case GPUTUNE_CHOICE_WORST: return "no measured size of its row alignment: best worst case";
	default: return "winner of the nearest measured size";
	}
}
