/*
 * space.h - the parameter space of one family for one element type: the
 * candidate values of each parameter (the family's defaults, narrowed or
 * widened by --param), and its enumeration into valid points and rejected
 * points counted by reason.
 */
#ifndef GPUTUNE_SPACE_H
#define GPUTUNE_SPACE_H

#include "families/family.h"

struct reject_count {
	char *reason;
	size_t count;
};

struct space {
	const struct family *f;
	const struct dtype *dt;
	int nvalues[MAX_PARAMS];
	int values[MAX_PARAMS][MAX_VALUES];
	int asked[MAX_PARAMS]; /* given with --param */
	/* Filled by space_enumerate. */
	int (*points)[MAX_PARAMS];
	size_t npoints;
	size_t nvalid; /* valid points before any sample */
	size_t total;  /* valid + rejected */
	struct reject_count *rejects;
	size_t nrejects;
};

/*
 * Sets the candidate values from the family's defaults and each of the
 * nparams settings `name=v1,v2` (or name=all: the values of --param).
 * Returns 0, or -1 after a message, beginning with who (the command),
 * naming the unknown parameter, the unsupported value or the parameter
 * set twice; the caller adds the usage.
 */
int space_init(struct space *s, const struct family *f, const struct dtype *dt, const char *const *params,
	       size_t nparams, const char *who);
/* The limits of the architecture's defaults (1024 threads, 48 KiB). */
void device_limits_default(struct device_limits *lim);
/* The dynamic shared memory a block of compute capability cc (x 10) may
 * opt in to, bytes, as the CUDA programming guide tables it; 48 KiB, the
 * limit without opting in, where cc is 0 or not in the table. */
int device_smem_optin(int cc);
/* The blocks of variant v (of element type dt) an SM of compute
 * capability cc holds at once, a thread taking regs registers: as many as
 * its registers (64 Ki an SM, allocated 8 a thread), its threads or, past
 * 48 KiB, its shared memory allow, whichever is fewest, and at most the
 * SM's limit of blocks; 1 where regs is not known (0 or less). */
int device_blocks_per_sm(const struct family *fam, const int *v, const struct dtype *dt, int regs, int cc);
/* Enumerates every combination, keeping the valid ones in order. */
void space_enumerate(struct space *s, const struct device_limits *lim);
/* Keeps a sample of count valid points, drawn without replacement by a
 * generator seeded with seed (the same on every machine), in enumeration
 * order; all of them when count is not smaller. */
void space_sample(struct space *s, size_t count, uint64_t seed);
void space_free(struct space *s);

/*
 * For commands that take a single point: each parameter from its setting
 * (exactly one value) or the family's single default.  0, or -1 after a
 * message as space_init's.
 */
int space_single_point(const struct family *f, const char *const *params, size_t nparams, const char *who, int *v);

#endif
