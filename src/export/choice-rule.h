/*
 * choice-rule.h - which tuned variant to run at a size nobody tuned.
 * Compiled into gputune (query --size, validate) and copied verbatim into
 * every exported header, so the two never disagree: plain C99 (no libm,
 * no allocation), every name starting with gputune_choice_.
 *
 * What decides a matrix kernel's winner is less a size's magnitude than its
 * alignment: whether a row of the output (rows elements) starts on a
 * 32-byte sector, on a 16-, 8- or 4-byte boundary, decides which store
 * paths a variant takes and how many sectors its warps split.  So:
 *   1. A size that was measured answers with its own winner.
 *   2. Otherwise the measured sizes of the same row class (the largest
 *      power of two dividing rows * element bytes, capped at 32) are the
 *      evidence; of them, where there are any, only those on the size's
 *      side of the odd line (columns of one element's alignment, or not).
 *      Each candidate (a variant measured at every size of the group; a
 *      size where one was not, share -1, answers at itself alone) is
 *      scored by its share of each such size's best, weighted by 1 / (0.1
 *      + d)^2, d the distance in shape: |ln of the area ratio| + 0.5 |ln
 *      of the aspect ratio| + 0.5 for each halving or doubling between the
 *      column classes (capped at 16 bytes, the widest load), + 3 across
 *      the odd line.  The column alignment decides whether loads are
 *      vectorised and elements move in pairs; odd columns allow neither,
 *      so sizes across that line are no evidence where there is other (a
 *      penalty alone let many of them outvote the few on the size's side)
 *      and weak evidence otherwise, while even columns of another
 *      alignment lose only the widest loads.  The best score wins; the
 *      next best are what a header's calibration times beside it, the
 *      second the best of another code path (paths[]): evidence far from
 *      a size can favour a path that loses there.
 *   3. With no measured size of that row class, the candidate with the
 *      best worst case over every measured size wins (a fallback chosen
 *      for its worst case, not its nearness).
 *   4. Without candidates, the winner of the nearest size of step 2's
 *      evidence (of any size when there is none).
 * A matrix product's size M x N x K reads as rows = M, cols = N and a
 * depth K: its row class is K's (the rows of A are K long, and K's
 * alignment decides whether A is read in 16-byte loads), its column class
 * N's (B and C), the area is the volume M N K, and the distance adds
 * 0.5 |ln of the ratio of K / N| to the aspect term, and no narrowing:
 * a run measures two sizes of odd N per class of K, too few to speak alone
 * (docs/studies/gemm-flat-rounds.md).  Others have no depth (NULL; K 1).
 */
#ifndef GPUTUNE_CHOICE_RULE
#define GPUTUNE_CHOICE_RULE

/* How the rule answered. */
enum {
	GPUTUNE_CHOICE_EXACT = 0,    /* the size was measured */
	GPUTUNE_CHOICE_CLASS = 1,    /* weighted over sizes of its row class */
	GPUTUNE_CHOICE_WORST = 2,    /* best worst case over every size */
	GPUTUNE_CHOICE_NEAREST = 3   /* nearest size's winner (no candidates) */
};

/* Natural logarithm of x > 0, to about 1e-9, without libm. */
static inline double gputune_choice_ln(double x)
{
	double k = 0;
	while (x >= 2) {
		x /= 2;
		k += 1;
	}
	while (x < 1) {
		x *= 2;
		k -= 1;
	}
	double y = (x - 1) / (x + 1), y2 = y * y, term = y, sum = 0;
	for (int i = 1; i < 40; i += 2) {
		sum += term / i;
		term *= y2;
	}
	return 2 * sum + k * 0.69314718055994530942;
}

/* The largest power of two dividing d * esize bytes, capped at 32. */
static inline long gputune_choice_align(long d, long esize)
{
	long b = d * esize, a = 1;
	while (a < 32 && b % (a * 2) == 0)
		a *= 2;
	return a;
}

static inline double gputune_choice_abs(double x)
{
	return x < 0 ? -x : x;
}

/* The distance in shape between r x c (x k) and R x C (x K) (see above). */
static inline double gputune_choice_distance(long r, long c, long k, long R, long C, long K, long esize)
{
	double area = gputune_choice_ln(((double)r * (double)c * (double)k) / ((double)R * (double)C * (double)K));
	double aspect = gputune_choice_ln(((double)r / (double)c) / ((double)R / (double)C));
	double depth = gputune_choice_ln(((double)k / (double)c) / ((double)K / (double)C));
	double d = gputune_choice_abs(area) + 0.5 * gputune_choice_abs(aspect);
	if (k != 1 || K != 1)
		d += 0.5 * gputune_choice_abs(depth);
	long a = gputune_choice_align(c, esize), b = gputune_choice_align(C, esize);
	long lo = a < b ? a : b, hi = a < b ? b : a;
	for (hi = hi < 16 ? hi : 16; lo < hi; lo *= 2)
		d += 0.5;
	if ((a == esize) != (b == esize))
		d += 3;
	return d;
}

/* Whether every candidate was measured at a size (no share of -1). */
static inline int gputune_choice_whole(const float *s, int ncand)
{
	while (ncand > 0 && s[ncand - 1] >= 0)
		ncand--;
	return ncand == 0;
}

/*
 * The k (at most GPUTUNE_CHOICE_MAX_RANK) best variants at R x C (x K),
 * best first, into out[]: the n measured sizes are rows[i] x cols[i] (x
 * depths[i]; depths NULL and K 1 without a depth) with winner[i]; the
 * ncand candidates are cand[j], share[i * ncand + j] candidate j's figure
 * at size i over winner[i]'s; paths[v] the code paths of variant v (an
 * id of cand[] and winner[]), or NULL to rank by score alone; fill, where
 * the family reads fills (choice-fill.h), v's at a size (given fill_ctx),
 * each share then taken as if v filled the GPU as it would here.  Returns
 * how many: one unless candidates were scored (step 2 or 3), 0 when n is
 * 0; *how says which step answered.
 */
typedef double (*gputune_choice_fill_fn)(const void *ctx, int v, long rows, long cols, long depth);
#define GPUTUNE_CHOICE_MAX_RANK 8
#define GPUTUNE_CHOICE_MAX_CAND 64 /* candidates beyond are not scored */
#define GPUTUNE_CHOICE_DEPTH(i) (depths ? depths[i] : 1L)
#define GPUTUNE_CHOICE_CLASS_OF(i) gputune_choice_align(depths ? depths[i] : rows[i], esize)
#define GPUTUNE_CHOICE_ODD(c) (gputune_choice_align(c, esize) == esize)
/* Of the row class and on the size's side of the odd line; step 2 reads these alone if any (narrow). */
#define GPUTUNE_CHOICE_SIDE(i) (GPUTUNE_CHOICE_CLASS_OF(i) == klass && GPUTUNE_CHOICE_ODD(cols[i]) == odd)
#define GPUTUNE_CHOICE_EVIDENCE(i) (narrow ? GPUTUNE_CHOICE_SIDE(i) : GPUTUNE_CHOICE_CLASS_OF(i) == klass)
static inline int gputune_choice_rank(int n, const long *rows, const long *cols, const long *depths,
				      const int *winner, int ncand, const int *cand, const float *share,
				      const unsigned *paths, gputune_choice_fill_fn fill, const void *fill_ctx,
				      long esize, long R, long C, long K, int k, int *out, int *how)
{
	long klass = gputune_choice_align(depths ? K : R, esize);
	int same = 0, narrow = 0, odd = GPUTUNE_CHOICE_ODD(C);
	*how = GPUTUNE_CHOICE_NEAREST;
	if (k > GPUTUNE_CHOICE_MAX_RANK)
		k = GPUTUNE_CHOICE_MAX_RANK;
	if (n == 0 || k < 1)
		return 0;
	for (int i = 0; i < n; i++) {
		if (rows[i] == R && cols[i] == C && GPUTUNE_CHOICE_DEPTH(i) == K) {
			*how = GPUTUNE_CHOICE_EXACT;
			out[0] = winner[i];
			return 1;
		}
		if (!gputune_choice_whole(share + i * ncand, ncand))
			continue;
		same += GPUTUNE_CHOICE_CLASS_OF(i) == klass;
		narrow |= !depths && GPUTUNE_CHOICE_SIDE(i);
	}
	if (ncand == 0) {
		int best = -1;
		double bd = 0;
		for (int i = 0; i < n; i++) {
			if (same && !GPUTUNE_CHOICE_EVIDENCE(i))
				continue;
			double d = gputune_choice_distance(rows[i], cols[i], GPUTUNE_CHOICE_DEPTH(i), R, C, K, esize);
			if (best < 0 || d < bd) {
				best = i;
				bd = d;
			}
		}
		out[0] = winner[best];
		return 1;
	}
	const int nscored = ncand < GPUTUNE_CHOICE_MAX_CAND ? ncand : GPUTUNE_CHOICE_MAX_CAND;
	double score[GPUTUNE_CHOICE_MAX_CAND], here[GPUTUNE_CHOICE_MAX_CAND];
	for (int j = 0; j < nscored; j++) {
		score[j] = same ? 0 : 2;
		here[j] = fill ? fill(fill_ctx, cand[j], R, C, K) : 1;
	}
	for (int i = 0; i < n; i++) {
		const float *s = share + i * ncand;
		if (!gputune_choice_whole(s, ncand))
			continue;
		if (same && !GPUTUNE_CHOICE_EVIDENCE(i))
			continue;
		double d = same ? 0.1 + gputune_choice_distance(rows[i], cols[i], GPUTUNE_CHOICE_DEPTH(i), R, C, K, esize) : 1;
		for (int j = 0; j < nscored; j++) {
			double x = fill ? s[j] * here[j] / fill(fill_ctx, cand[j], rows[i], cols[i], GPUTUNE_CHOICE_DEPTH(i)) : s[j];
			score[j] = same ? score[j] + x / (d * d) : x < score[j] ? x : score[j];
		}
	}
	/* The best score first, the best of the other code paths second (if
	 * any), then the rest by score (ties: the earlier candidate). */
	int picked[GPUTUNE_CHOICE_MAX_RANK], ntop = 0;
	while (ntop < k) {
		int best = -1;
		for (int pass = paths && ntop == 1 ? 0 : 1; pass < 2 && best < 0; pass++)
			for (int j = 0; j < nscored; j++) {
				int skip = 0;
				for (int m = 0; m < ntop && !skip; m++)
					skip = picked[m] == j || (pass == 0 && paths[cand[picked[m]]] == paths[cand[j]]);
				if (!skip && (best < 0 || score[j] > score[best]))
					best = j;
			}
		if (best < 0)
			break;
		picked[ntop] = best;
		out[ntop++] = cand[best];
	}
	*how = same ? GPUTUNE_CHOICE_CLASS : GPUTUNE_CHOICE_WORST;
	return ntop;
}

/* The first of gputune_choice_rank(), or -1 when n is 0. */
static inline int gputune_choice_rule(int n, const long *rows, const long *cols, const long *depths,
				      const int *winner, int ncand, const int *cand, const float *share,
				      long esize, long R, long C, long K, int *how)
{
	int v = -1;
	return gputune_choice_rank(n, rows, cols, depths, winner, ncand, cand, share, NULL, NULL, NULL, esize, R, C,
				   K, 1, &v, how) ? v : -1;
}
#undef GPUTUNE_CHOICE_DEPTH
#undef GPUTUNE_CHOICE_CLASS_OF
#undef GPUTUNE_CHOICE_ODD
#undef GPUTUNE_CHOICE_SIDE
#undef GPUTUNE_CHOICE_EVIDENCE

#endif
