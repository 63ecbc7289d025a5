/*
 * bench.h - running variants on the GPU: one size's buffers, the ceiling,
 * and the verification and timing of one compiled variant, following the
 * protocol in docs/usage.md ("How a variant is timed").
 *
 * A variant that faults (illegal address, trap) poisons the CUDA context
 * for the rest of the process: the driver allows no recovery short of a
 * new process, so bench_variant reports it and the tuner starts itself
 * again to carry on (see restart.h).
 */
#ifndef GPUTUNE_BENCH_H
#define GPUTUNE_BENCH_H

#include "gpu/cuda-driver.h"
#include "families/family.h"
#include "gpu/gpu.h"

#include <stddef.h>

enum variant_status {
	VS_OK,
	VS_WRONG,
	VS_COMPILE_FAILED,
	VS_LAUNCH_FAILED,
	VS_FAULT
};
/* "ok", "wrong", ... as stored in the database. */
const char *variant_status_name(int status);

struct timing {
	double median_ms, min_ms, max_ms, p25_ms, p75_ms;
	int launches;
};

struct variant_result {
	int status;
	char reason[256];
	struct timing t;
	double verify_s, timing_s; /* host seconds spent checking and timing */
};

struct bench;

/*
 * Opens GPU `index` (the driver must be loaded), with the support kernels
 * from support_cubin.  reps: timed launches per measurement (>= 1); hot:
 * no L2 flush between launches.  NULL after reporting.
 */
struct bench *bench_open(const struct gpu_info *g, const void *support_cubin, int reps, int hot);
void bench_close(struct bench *b);

/* Device bytes bench_prepare needs for one size. */
size_t bench_bytes_needed(const struct gpu_info *g, const struct family *f, const struct dtype *dt,
			  const struct dims *d);

/* Host bytes bench_prepare needs for one size: the input sets, what the
 * check compares with, and the output read back. */
size_t bench_host_bytes_needed(const struct family *f, const struct dtype *dt, const struct dims *d);

/*
 * Makes the buffers for f at size d: the family's input sets (fresh
 * pseudo-random elements, never zeros, unless the family fills its own),
 * what the check needs from the family's host or GPU reference, guard
 * bytes around the output.  0, or -1 after reporting.
 */
int bench_prepare(struct bench *b, const struct family *f, const struct dtype *dt, const struct dims *d);

/* The family's ceiling at the prepared size.  CEILING_COPY: GB/s of
 * cuMemcpyDtoDAsync (*memcpy_gbps) and of the copy kernel (copy_cubin,
 * whose entry point is copy_name, launched with copy_geo over the input's
 * elements as rows x cols, or as n x 1 for a family whose kernel takes
 * another argument list).  CEILING_READ: GB/s
 * of the best of three streaming reads of the input (the support
 * kernels').  CEILING_FMA: GFLOP/s of the support kernels' chains of
 * fused multiply-adds, the best of three grids.  *memcpy_gbps = 0 for
 * both.  0 or -1. */
int bench_ceiling(struct bench *b, const void *copy_cubin, const char *copy_name, const struct launch_geometry *copy_geo,
		  double *memcpy_gbps, double *kernel_gbps);

/*
 * Loads cubin, checks its output (bit for bit, or by the family's judge on
 * every input set) and the guards, and when it is right times it.  v is
 * the point (for the judge and its scratch memory).  Fills *r; returns 0
 * when the GPU is still usable, -1 when the context was lost (this
 * process can run nothing more on it).
 */
int bench_variant(struct bench *b, const void *cubin, const char *kernel_name, const int *v,
		  const struct launch_geometry *geo, struct variant_result *r);

/* The confirmation round, where the fastest variant of a size is timed
 * again until the fastest figure is a confirmed one, so that the winner's
 * figure is not the luckiest of many noisy medians: the timed launches of
 * a confirmation, and the most confirmations a size gets. */
#define BENCH_CONFIRM_REPS 100
#define BENCH_CONFIRM_MAX 20
/* A confirmation times at least this many milliseconds of kernel (a tiny
 * kernel's median from 100 launches still moves by a few percent from
 * run to run), in at most BENCH_MAX_REPS launches. */
#define BENCH_CONFIRM_MS 10.0
/* A long kernel's confirmation times about this much kernel, in at least
 * BENCH_CONFIRM_MIN launches, rather than BENCH_CONFIRM_REPS of 20 ms or
 * more each. */
#define BENCH_CONFIRM_BUDGET_MS 1000.0
#define BENCH_CONFIRM_MIN 40
#define BENCH_MAX_REPS 2000

/* The time budget of a measurement: it stops before its reps once it has
 * timed BENCH_BUDGET_LAUNCHES launches and BENCH_BUDGET_MS milliseconds
 * of kernel, so that kernels of more than about 7 ms get fewer than 30
 * launches, and those of 20 ms or more ten.  The timing protocol allows
 * "at least 30 launches, or a time budget": a large matrix multiply's
 * variants take 20 to 200 ms a launch, where 33 launches cost a search of
 * 240 variants at 8192^3 about 11 minutes.  Confirmations
 * (bench_set_reps with budget 0) take all of theirs. */
#define BENCH_BUDGET_MS 200.0
#define BENCH_BUDGET_LAUNCHES 10

/* A search's measurement of a variant that cannot matter stops early:
 * once BENCH_HOPELESS_LAUNCHES launches are timed and even the fastest of
 * them took over hopeless_ms, the median of those is its figure (stored
 * with its launch count).  The tuner sets hopeless_ms to BENCH_HOPELESS
 * times the fastest median at the size so far, so a variant cut short is
 * at most 1 / BENCH_HOPELESS of the best's speed: never a winner, nor one
 * of a size's fastest that the choice at other sizes draws on.  On an
 * H200 a cold `gemm --sizes 1024-8192` timed 206 s of 8192^3 kernels, 108
 * s of them in the 65 variants (of 245) that ran over 1.5 times the
 * best's median.  A measurement within the budget's (bench_set_reps with
 * budget 0) never stops this way.  0 turns it off. */
#define BENCH_HOPELESS 1.5
#define BENCH_HOPELESS_LAUNCHES 3
void bench_set_hopeless(struct bench *b, double hopeless_ms);

/* Timed launches per measurement from now on: 1 to the larger of the
 * opening reps and BENCH_MAX_REPS; budget 0 (a confirmation) times them
 * all, 1 stops at the budget above. */
void bench_set_reps(struct bench *b, int reps, int budget);

/* GB/s (or GFLOP/s) of work bytes (or operations) in ms milliseconds. */
double bench_gbps(double bytes, double ms);

/* What one launch counts for the family's metric at the prepared size. */
double bench_work(const struct bench *b);

/* The elements the copy ceiling copies at the prepared size (as n x 1
 * to the copy kernel, for a family whose arguments are not a matrix's). */
size_t bench_copy_elems(const struct bench *b);

/*
 * CHECK_REFERENCE: runs the reference point (cubin, its entry point
 * kernel_name, point v, launched as geo) on the prepared size's input, and
 * keeps its output as what every variant's is checked against.  Fills *r
 * (VS_OK, or why the reference cannot serve: it failed to launch, faulted
 * or wrote outside the output); returns 0 when the GPU is still usable,
 * -1 when the context was lost.
 */
int bench_reference(struct bench *b, const void *cubin, const char *kernel_name, const int *v,
		    const struct launch_geometry *geo, struct variant_result *r);

#endif
