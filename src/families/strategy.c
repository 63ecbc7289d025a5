/*
 * strategy.c - see strategy.h.
 */
#include "families/strategy.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "exhaustive", "random", "anneal", "genetic" };

const char *strategy_name(int kind)
{
	return kind >= 0 && kind < (int)ARRAY_SIZE(names) ? names[kind] : "?";
}

int strategy_parse(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

/* Annealing: the temperature, as a share of the best figure so far, falls
 * geometrically from T0 to T1 over the expected measurements; a move to a
 * point worse by d (same units) is taken with probability exp(-d / T). */
#define ANNEAL_T0 0.05
#define ANNEAL_T1 0.002
/* Chains: one per ANNEAL_STEPS expected measurements (at least 2), so
 * each walks far enough; a batch larger than the chains tries several
 * neighbours of a chain at once. */
#define ANNEAL_STEPS 12
/* Genetic: the first POPULATION points are drawn at random; then each
 * child has two parents, each the best of TOURNAMENT measured points (one
 * of them, with probability ELITE, the best point so far), and one
 * parameter changed with probability MUTATION. */
#define POPULATION 24
#define TOURNAMENT 3
#define ELITE 0.5
#define MUTATION 0.3
/* Tries at drawing an unseen neighbour or child before a random point. */
#define TRIES 24

/* A hash table from keys to the points that share them. */
struct bucket {
	uint64_t key;
	size_t *idx;
	size_t n;
};

/* The neighbours of a space's points: per point and parameter, the bucket
 * of points equal in every other parameter, and the exact-point table.
 * It depends on the points alone, and a tuning run searches the same
 * points at every size (the matrix multiply's 54,540, whose table took
 * 0.2-0.4 s to build, 28 times a run): so the last one built is kept,
 * with a copy of its points' values to know it again, for the next
 * strategy over the same points. */
struct neighbours {
	struct bucket *tab;
	size_t ntab;
	size_t *nb;   /* n * (nparams + 1) bucket indices */
	int *vals;    /* n * nparams: the points it was built for */
	size_t n;
	int nparams;
	int users;    /* strategies using it */
};
static struct neighbours *kept;

struct chain {
	size_t cur;        /* where the chain stands */
	double cur_score;  /* its figure; < 0: not measured yet */
	size_t npending;   /* moves on trial */
};

struct strategy {
	int kind, nparams;
	size_t n, stride, expected, steps;
	const int *v;
	uint64_t rng;
	unsigned char *seen;  /* proposed or observed */
	double *score;        /* observed figure, -1 when not */
	size_t nseen, next;   /* next: exhaustive and random cursor */
	size_t *order;        /* exhaustive and random: the walk */
	double best;
	size_t best_i;        /* the point with the best figure */
	struct neighbours *nbh; /* anneal and genetic */
	size_t *measured;     /* observed points with a figure > 0 */
	size_t nmeasured;
	struct chain *chains;
	size_t nchains;
	int *chain_of;        /* the chain a point is on trial for, or -1 */
};

static uint64_t next_u64(uint64_t *x)
{
	/* splitmix64: small, fast, and every seed is a good one. */
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t below(struct strategy *s, size_t n)
{
	return n ? (size_t)(next_u64(&s->rng) % n) : 0;
}

static double unit(struct strategy *s)
{
	return (double)(next_u64(&s->rng) >> 11) / 9007199254740992.0;
}

/* The key of point values w with parameter skip left out (-1: none). */
static uint64_t key_of(const int *w, int nparams, int skip)
{
	int tmp[64];
	for (int k = 0; k < nparams && k < 64; k++)
		tmp[k] = k == skip ? -1 : w[k];
	return hash64(tmp, sizeof(int) * (size_t)nparams, 0x5eed ^ (uint64_t)(skip + 2));
}

/* The bucket of key in tab (ntab slots), added when missing (open
 * addressing). */
static size_t bucket_of(struct bucket *tab, size_t ntab, uint64_t key, int add)
{
	size_t h = (size_t)(key % ntab);
	while (tab[h].n || tab[h].idx) {
		if (tab[h].key == key)
			return h;
		h = (h + 1) % ntab;
	}
	if (!add)
		return SIZE_MAX;
	tab[h].key = key;
	tab[h].idx = xmalloc(sizeof(size_t));
	return h;
}

static void bucket_add(struct bucket *tab, size_t b, size_t i)
{
	tab[b].idx = xrealloc(tab[b].idx, (tab[b].n + 1) * sizeof(size_t));
	tab[b].idx[tab[b].n++] = i;
}

static void neighbours_free(struct neighbours *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->ntab; i++)
		free(g->tab[i].idx);
	free(g->tab);
	free(g->nb);
	free(g->vals);
	free(g);
}

/* Whether g was built for these points. */
static int neighbours_of(const struct neighbours *g, const int *v, size_t stride, int nparams, size_t n)
{
	if (!g || g->n != n || g->nparams != nparams)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (memcmp(g->vals + i * (size_t)nparams, v + i * stride, sizeof(int) * (size_t)nparams))
			return 0;
	return 1;
}

/* The neighbours of these points: the kept ones when built for them, else
 * new ones, kept in their place (the old freed once no strategy uses
 * them). */
static struct neighbours *neighbours_get(const int *v, size_t stride, int nparams, size_t n)
{
	if (neighbours_of(kept, v, stride, nparams, n)) {
		kept->users++;
		return kept;
	}
	if (kept && kept->users == 0)
		neighbours_free(kept);
	struct neighbours *g = xcalloc(1, sizeof(*g));
	/* (nparams + 1) keys a point: one per left-out parameter, and the
	 * point itself; a table at most half full. */
	g->n = n;
	g->nparams = nparams;
	g->ntab = 2 * n * (size_t)(nparams + 1) + 1;
	g->tab = xcalloc(g->ntab, sizeof(*g->tab));
	g->nb = xmalloc((n ? n : 1) * (size_t)(nparams + 1) * sizeof(size_t));
	g->vals = xmalloc((n ? n : 1) * (size_t)nparams * sizeof(int));
	for (size_t i = 0; i < n; i++) {
		memcpy(g->vals + i * (size_t)nparams, v + i * stride, sizeof(int) * (size_t)nparams);
		for (int k = -1; k < nparams; k++) {
			size_t b = bucket_of(g->tab, g->ntab, key_of(v + i * stride, nparams, k), 1);
			bucket_add(g->tab, b, i);
			g->nb[i * (size_t)(nparams + 1) + (size_t)(k + 1)] = b;
		}
	}
	g->users = 1;
	kept = g;
	return g;
}

/* A strategy is done with g: freed if it is not the kept one and no
 * other uses it. */
static void neighbours_put(struct neighbours *g)
{
	if (g && --g->users == 0 && g != kept)
		neighbours_free(g);
}

int strategy_search_params(const int *v, size_t stride, int nparams, size_t n, int late_from)
{
	while (nparams > 0 && nparams - 1 >= late_from) {
		for (size_t i = 1; i < n; i++)
			if (v[i * stride + (size_t)(nparams - 1)] != v[nparams - 1])
				return nparams;
		nparams--;
	}
	return nparams;
}

struct strategy *strategy_new(int kind, const int *v, size_t stride, int nparams, size_t n, size_t expected,
			      uint64_t seed)
{
	struct strategy *s = xcalloc(1, sizeof(*s));
	s->kind = kind;
	s->v = v;
	s->stride = stride;
	s->nparams = nparams;
	s->n = n;
	s->expected = expected ? expected : n;
	s->rng = seed ^ 0x6a09e667f3bcc909ULL;
	s->seen = xcalloc(n ? n : 1, 1);
	s->score = xmalloc((n ? n : 1) * sizeof(double));
	for (size_t i = 0; i < n; i++)
		s->score[i] = -1;
	s->measured = xmalloc((n ? n : 1) * sizeof(size_t));
	s->chain_of = xmalloc((n ? n : 1) * sizeof(int));
	for (size_t i = 0; i < n; i++)
		s->chain_of[i] = -1;
	if (kind == STRATEGY_EXHAUSTIVE || kind == STRATEGY_RANDOM) {
		/* The order of the walk: as given, or shuffled. */
		s->order = xmalloc((n ? n : 1) * sizeof(size_t));
		for (size_t i = 0; i < n; i++)
			s->order[i] = i;
		for (size_t i = kind == STRATEGY_RANDOM ? n : 0; i > 1; i--) {
			size_t j = below(s, i), t = s->order[i - 1];
			s->order[i - 1] = s->order[j];
			s->order[j] = t;
		}
	}
	if (kind == STRATEGY_ANNEAL || kind == STRATEGY_GENETIC) {
		s->nbh = neighbours_get(v, stride, nparams, n);
	}
	return s;
}

void strategy_free(struct strategy *s)
{
	if (!s)
		return;
	neighbours_put(s->nbh);
	free(s->seen);
	free(s->score);
	free(s->order);
	free(s->measured);
	free(s->chains);
	free(s->chain_of);
	free(s);
}

/* A random point not seen yet, or SIZE_MAX when every point is. */
static size_t random_unseen(struct strategy *s)
{
	if (s->nseen >= s->n)
		return SIZE_MAX;
	for (int t = 0; t < TRIES; t++) {
		size_t i = below(s, s->n);
		if (!s->seen[i])
			return i;
	}
	size_t i = below(s, s->n);
	while (s->seen[i])
		i = (i + 1) % s->n;
	return i;
}

/* A random neighbour of i not seen yet, or SIZE_MAX. */
static size_t unseen_neighbour(struct strategy *s, size_t i)
{
	for (int t = 0; t < TRIES; t++) {
		int k = (int)below(s, (size_t)s->nparams);
		const struct bucket *b = &s->nbh->tab[s->nbh->nb[i * (size_t)(s->nparams + 1) + (size_t)(k + 1)]];
		size_t j = b->idx[below(s, b->n)];
		if (!s->seen[j])
			return j;
	}
	return SIZE_MAX;
}

static void mark(struct strategy *s, size_t i)
{
	if (!s->seen[i]) {
		s->seen[i] = 1;
		s->nseen++;
	}
}

/* The best of TOURNAMENT measured points drawn at random. */
static size_t tournament(struct strategy *s)
{
	size_t best = s->measured[below(s, s->nmeasured)];
	for (int t = 1; t < TOURNAMENT; t++) {
		size_t j = s->measured[below(s, s->nmeasured)];
		if (s->score[j] > s->score[best])
			best = j;
	}
	return best;
}

/* A child of two tournament winners: each parameter from either parent,
 * then maybe one parameter moved; SIZE_MAX when the child is not a valid
 * point or was seen already. */
static size_t child(struct strategy *s)
{
	size_t pa = unit(s) < ELITE ? s->best_i : tournament(s);
	const int *a = s->v + pa * s->stride, *b = s->v + tournament(s) * s->stride;
	int w[64];
	for (int k = 0; k < s->nparams && k < 64; k++)
		w[k] = next_u64(&s->rng) & 1 ? a[k] : b[k];
	size_t bk = bucket_of(s->nbh->tab, s->nbh->ntab, key_of(w, s->nparams, -1), 0);
	if (bk == SIZE_MAX)
		return SIZE_MAX;
	size_t c = s->nbh->tab[bk].idx[0];
	if (unit(s) < MUTATION || s->seen[c]) {
		size_t m = unseen_neighbour(s, c);
		if (m != SIZE_MAX)
			return m;
	}
	return s->seen[c] ? SIZE_MAX : c;
}

/* Starts a chain: from a good point measured already (by an earlier run,
 * or a classic), else from a random one. */
static int start_chain(struct strategy *s)
{
	struct chain ch = { SIZE_MAX, -1, 0 };
	if (s->nmeasured > s->nchains) {
		ch.cur = tournament(s);
		ch.cur_score = s->score[ch.cur];
	} else {
		ch.cur = random_unseen(s);
		if (ch.cur == SIZE_MAX)
			return -1;
		s->chain_of[ch.cur] = (int)s->nchains;
		ch.npending = 1;
	}
	s->chains = xrealloc(s->chains, (s->nchains + 1) * sizeof(*s->chains));
	s->chains[s->nchains++] = ch;
	return (int)s->nchains - 1;
}

static size_t propose_anneal(struct strategy *s, size_t batch)
{
	size_t want = s->expected / ANNEAL_STEPS;
	want = want < 2 ? 2 : want > batch ? batch : want;
	while (s->nchains < want) {
		int c = start_chain(s);
		if (c < 0)
			return SIZE_MAX;
		if (s->chains[c].npending)
			return s->chains[c].cur;
	}
	/* The chain with the fewest moves on trial moves: to an unseen
	 * neighbour, or, stuck, to a random point. */
	size_t per = (batch + s->nchains - 1) / s->nchains, best = SIZE_MAX;
	for (size_t c = 0; c < s->nchains; c++)
		if (s->chains[c].cur_score >= 0 && s->chains[c].npending < per &&
		    (best == SIZE_MAX || s->chains[c].npending < s->chains[best].npending))
			best = c;
	if (best == SIZE_MAX)
		return SIZE_MAX;
	size_t j = unseen_neighbour(s, s->chains[best].cur);
	if (j == SIZE_MAX)
		j = random_unseen(s);
	if (j == SIZE_MAX)
		return SIZE_MAX;
	s->chain_of[j] = (int)best;
	s->chains[best].npending++;
	return j;
}

static size_t propose_one(struct strategy *s, size_t max_chains)
{
	switch (s->kind) {
	case STRATEGY_EXHAUSTIVE:
	case STRATEGY_RANDOM:
		while (s->next < s->n && s->seen[s->order[s->next]])
			s->next++;
		return s->next < s->n ? s->order[s->next] : SIZE_MAX;
	case STRATEGY_GENETIC:
		if (s->nmeasured >= POPULATION)
			for (int t = 0; t < TRIES; t++) {
				size_t c = child(s);
				if (c != SIZE_MAX)
					return c;
			}
		return random_unseen(s);
	default:
		return propose_anneal(s, max_chains);
	}
}

size_t strategy_propose(struct strategy *s, size_t *out, size_t max)
{
	size_t k = 0;
	while (k < max) {
		size_t i = propose_one(s, max);
		if (i == SIZE_MAX)
			break;
		mark(s, i);
		out[k++] = i;
	}
	return k;
}

size_t strategy_predictable(const struct strategy *s)
{
	switch (s->kind) {
	case STRATEGY_EXHAUSTIVE:
	case STRATEGY_RANDOM:
		return s->n - s->nseen;
	case STRATEGY_GENETIC:
		/* Random draws until POPULATION points have a figure. */
		return s->nmeasured < POPULATION ? POPULATION - s->nmeasured : 0;
	default: /* annealing's chains start from what is measured by then */
		return 0;
	}
}

void strategy_observe(struct strategy *s, size_t i, double score)
{
	if (i >= s->n || s->score[i] >= 0)
		return;
	mark(s, i);
	s->score[i] = score > 0 ? score : 0;
	s->steps++;
	if (score > 0)
		s->measured[s->nmeasured++] = i;
	if (score > s->best) {
		s->best = score;
		s->best_i = i;
	}
	if (s->chain_of[i] < 0)
		return;
	struct chain *ch = &s->chains[s->chain_of[i]];
	ch->npending--;
	if (ch->cur_score < 0) {
		ch->cur_score = s->score[i];
		return;
	}
	double frac = fmin(1.0, (double)s->steps / (double)s->expected);
	double t = ANNEAL_T0 * pow(ANNEAL_T1 / ANNEAL_T0, frac);
	double d = s->best > 0 ? (ch->cur_score - s->score[i]) / s->best : 0;
	if (d <= 0 || unit(s) < exp(-d / t)) {
		ch->cur = i;
		ch->cur_score = s->score[i];
	}
}
