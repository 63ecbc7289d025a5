/*
 * bench-state.h - the state of the benchmark of one GPU, shared by the
 * files of gpu/ that time and check variants: bench.c (buffers, sizes,
 * the check) and bench-timing.c (launches, timing, ceilings).  Not for use
 * outside src/gpu/.
 */
#ifndef GPUTUNE_GPU_BENCH_STATE_H
#define GPUTUNE_GPU_BENCH_STATE_H

#include "gpu/bench.h"
#include "families/tensor-maps.h"

#include <stddef.h>

#define GUARD (64u << 10)
#define GUARD_BYTE 0xA5
#define POISON_BYTE 0x5A
#define CHECK_BLOCKS 1024u
#define CHECK_THREADS 256u
/* The FMA ceiling's kernel: chains per thread (independent, to hide the
 * FMA latency) and steps per chain; support.cu unrolls by FMA_CHAINS. */
#define FMA_CHAINS 8
#define FMA_ITERS 4096

struct bench {
	struct gpu_info g;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUevent start, stop; /* around each timed launch, which is waited for */
	int reps, hot;
	int max_reps; /* the most reps a measurement may ask for (the confirmation round's) */
	double budget_ms; /* kernel time after which a measurement may stop early; 0 none */
	double hopeless_ms; /* a launch time past which a variant cannot matter (bench_set_hopeless); 0 none */
	void *support_image; /* copy of the support cubin, reloaded after a reset */
	size_t support_len;
	CUmodule support;
	CUfunction compare, check_fill, check_bound, check_pairs, read, fma, warm_fn;
	CUstream warm_stream; /* the warm-up's, beside the timed stream */
	CUevent warm_done;    /* recorded after the warm-up */
	CUdeviceptr flush, result;
	size_t flush_bytes;
	/* The prepared size. */
	const struct family *f;
	const struct dtype *dt;
	struct dims d;
	size_t in_bytes, out_bytes;
	size_t copy_bytes; /* what the copy ceiling copies: the smaller of the two */
	size_t buf_off[MAX_BUFFERS]; /* ARGS_USER: each buffer's offset in its memory */
	int nsets;
	/* host_expected[k]: NULL where the GPU checks against bound_ref
	 * (gpu_checks) until a failure is worded (at 8192^3 a set's copy is
	 * 1 GiB). */
	void *host_in[2], *host_expected[2], *host_out;
	CUdeviceptr in[2], expected, out_base, out;
	CUdeviceptr bound_ref[2]; /* CHECK_BOUND, CHECK_GPU_REFERENCE: each set's reference and magnitudes */
	CUdeviceptr scratch;
	size_t scratch_bytes; /* allocated */
	int set;              /* the input set launches read */
	CUdeviceptr place_in, place_out; /* the other placements (placement.h), or 0 */
	int warm;                        /* the warm-up is over (warm_done reached) */
	/* The tensor maps of the variant being measured, one per placement,
	 * for kernels that take them (family.h, tensor_maps); 128-byte
	 * aligned, allocated on first use. */
	struct gputune_tmaps *maps;
};

/* The arguments of the family's kernels at the prepared size, reading in
 * and writing out (ARGS_GEMM: A, then B, in one buffer; ARGS_USER: the
 * family's buffers, then the size). */
struct kernel_args {
	CUdeviceptr in, b, out;
	unsigned rows, cols;
	int m, n, k;
	unsigned long long len;
	CUdeviceptr bufs[MAX_BUFFERS];
	void *p[MAX_BUFFERS + 3];
};

/* The launch being timed, as a callback: a kernel with the family's
 * arguments, the copy ceiling's kernel or cuMemcpy, or a read. */
enum launch_kind { LAUNCH_FAMILY, LAUNCH_COPY, LAUNCH_MEMCPY, LAUNCH_READ, LAUNCH_FMA };
struct launch {
	CUfunction fn;
	const struct launch_geometry *geo;
	int kind;
	int maps; /* the kernel takes b->maps[place] after the family's arguments */
};

/* The family's kernel arguments for in and out (the variant's own
 * buffers), filled into a. */
void **family_args(struct bench *b, CUdeviceptr in, CUdeviceptr out, struct kernel_args *a);
/* The input and output of placement place (0: the buffers themselves). */
void placement(const struct bench *b, int place, CUdeviceptr *in, CUdeviceptr *out);
/* How many placements the timed launches rotate over. */
int places(const struct bench *b);
/* One launch at placement place (0: the buffers themselves, whose output
 * is checked; the others are timed only, from input set 0). */
CUresult do_launch(struct bench *b, const struct launch *l, int place);
/* Launches the warm-up (a second of stores over the flush buffer) on its
 * own stream; the first ceiling waits for it.  0, or -1 after reporting. */
int warm_up_start(struct bench *b);

/* Times l: warm-up launches, then the timed ones (L2 flushed before each
 * unless hot), their median and quartiles into t. */
CUresult time_launches(struct bench *b, const struct launch *l, struct timing *t);

#endif
