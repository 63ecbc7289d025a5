/*
 * choice.h - the choice model behind `query --size`, `validate` and the
 * exported headers: per device, family, element type and timing mode, the
 * measured sizes with their winners, the candidate variants measured at
 * every one of those sizes, and each candidate's share of each size's
 * best.  The rule that picks from it is choice-rule.h, the same text the
 * exported headers carry.
 */
#ifndef GPUTUNE_CHOICE_H
#define GPUTUNE_CHOICE_H

#include "db/results.h"
#include "families/family.h"
#include "util/sizes.h"

/* At most this many candidates per group go into the model (and so into
 * a header). */
#define CHOICE_MAX_CAND 48

struct choice_group {
	const struct result *key;     /* device, family, dtype, mode: its first winner */
	int n;                        /* measured sizes */
	const struct result **entry;  /* their winners */
	long *rows, *cols, *depth;    /* depth: K of 3-D sizes, else 1 */
	int has_depth;                /* a 3-D family: the rule reads depth */
	int *winner;                  /* index into names */
	int nnames;
	char **names;                 /* the variants (params) the group refers to */
	unsigned *paths;              /* per name: the template's code paths it takes (template_paths) */
	int *regs;                    /* per name: registers a thread the tuner stored here, 0 unknown */
	int ncand;
	int *cand;                    /* index into names */
	float *share;                 /* n x ncand: candidate's GB/s over the size's best */
	const struct result **source; /* n x ncand: the measurement each share comes from */
	/* Where the family reads candidates by their fill (choice-fill.h):
	 * per name its point and blocks an SM holds (device_blocks_per_sm),
	 * the element type, the GPU's SMs and where the point gives a block's
	 * tile of the output; fam NULL otherwise. */
	const struct family *fam;
	const struct dtype *dt;
	int (*point)[MAX_PARAMS];
	int *per_sm;
	long sms;
	int tile[2]; /* the family's fill_tile as indices of point[], -1 without */
};

struct choice_set {
	struct result_set winners;
	struct result_set measured; /* the latest measurement of every variant */
	size_t ngroups;
	struct choice_group *g;
};

/* When the newest run the set's results come from started (ISO 8601,
 * UTC), or NULL for none: what an export dates itself by, so that two
 * exports of the same results are the same bytes. */
const char *choice_newest_run(const struct choice_set *cs);

/* Loads the winners matching flt (as results_load) and the measurements
 * the candidates come from; the names' code paths are read from the
 * templates in templates_dir (NULL: the built-in ones), the same the
 * header is written from.  0, or -1 after reporting. */
int choice_load(const char *db_path, const struct result_filter *flt, const char *templates_dir,
		struct choice_set *cs);
void choice_free(struct choice_set *cs);

/* The variant (index into g->names) the rule picks at size d for an
 * element of esize bytes; *how is a GPUTUNE_CHOICE_* step. */
int choice_pick(const struct choice_group *g, size_t esize, const struct dims *d, int *how);
/* The same as if the sizes held[0..nheld) had not been measured (what
 * `validate` asks: the header's choice at sizes it did not see); -1 when
 * no size is left. */
int choice_pick_held_out(const struct choice_group *g, size_t esize, const struct dims *d,
			 const struct dims *held, size_t nheld, int *how);
/* The k best of the rule's ranking there, best first, into out (see
 * gputune_choice_rank); how many. */
int choice_rank_held_out(const struct choice_group *g, size_t esize, const struct dims *d,
			 const struct dims *held, size_t nheld, int k, int *out, int *how);
/* How many of the rule's best an exported header's calibration times at a
 * new size (its GPUTUNE_*_CALIBRATE default), and `validate` with it. */
#define CHOICE_CALIBRATE 4
/* What *how means, for people. */
const char *choice_how_text(int how);

/*
 * Extra sizes a tuning run measures so that the rule has evidence of every
 * row class (see choice-rule.h) across the requested range: for each
 * class, eight shapes (small, mid and large squares, tall and wide, two
 * in between, and a large one whose columns align as its rows) with the
 * column class varying; for a 1-D family (shape 1), three lengths of each
 * class the requested lengths lack; for a matrix product (shape 3), three
 * shapes of each class of K (choice-probe.c), none an anchor unless
 * search_probes: then its shapes of few tiles, a small shape of each
 * class and the mid shape of the widest class of K are anchors (a search
 * of their own).  The mid size of each class is an anchor, measured with
 * the whole space, and for matrices the small square too; the others are
 * measured with the candidates only.  Writes up
 * to max sizes into out (anchor[i] 1 for an anchor, PROBE_WIDE for one
 * searched with the requested sizes' budget, 0 for the rest); returns how
 * many.
 */
#define PROBE_WIDE 2
size_t choice_probe_sizes(int shape, const struct dims *req, size_t nreq, size_t esize, int search_probes,
			  struct dims *out, int *anchor, size_t max);

#endif
