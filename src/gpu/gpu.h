/*
 * gpu.h - what gputune knows about one visible GPU, and the context it
 * runs kernels in.  Built on cuda-driver.h.
 */
#ifndef GPUTUNE_GPU_H
#define GPUTUNE_GPU_H

#include "gpu/cuda-driver.h"

struct gpu_info {
	int index;               /* ordinal among the visible GPUs */
	char name[256];
	char uuid[48];           /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
	int cc_major, cc_minor;
	int sm_count;
	size_t mem_bytes;
	int l2_bytes;
	int bus_width_bits;
	int mem_clock_khz;
	int max_threads_per_block;
	int max_smem_per_block;  /* static limit, bytes */
	int max_smem_optin;      /* dynamic shared memory a kernel may opt in to, bytes */
	int driver_version;      /* e.g. 13000 */
};

/* Requires the driver.  Creates GPU index's primary context now, retained
 * for the rest of the process, so that a later user (bench_open) finds
 * it made: a tuning run makes it before its compilers take every core,
 * which slow it several times.  0, or -1 (a later user reports why). */
int gpu_context_now(int index);

/* Theoretical DRAM bandwidth in GB/s: two transfers a clock over the bus. */
double gpu_peak_gbps(const struct gpu_info *g);

/* Requires the driver (see cuda_load).  Returns the number of visible
 * GPUs, or -1 after reporting why there are none usable. */
int gpu_count(void);
/* Fills *g for visible GPU index.  0 or -1 (reported). */
int gpu_query(int index, struct gpu_info *g);

/*
 * For commands that need a GPU: loads the driver and checks that GPU
 * index exists.  Returns 0, or prints one line ("gputune: CMD needs a GPU:
 * why") and returns EXIT_NO_GPU.
 */
int gpu_require(const char *cmd, int index, struct gpu_info *g);

/*
 * Reads GPU index's figures in a short-lived child process, so that this
 * process has not touched the driver when it forks compile workers (the
 * driver is not fork-safe once initialised).  Returns 0, or EXIT_NO_GPU
 * with the reason in why (size n).
 */
int gpu_probe(int index, struct gpu_info *g, char *why, size_t n);
/* The same for every visible GPU at once (one child, one load of the
 * driver): their figures into *g (caller frees), by index, and their
 * number into *count.  0, or the exit code with the reason in why. */
int gpu_probe_all(struct gpu_info **g, int *count, char *why, size_t n);

#endif
