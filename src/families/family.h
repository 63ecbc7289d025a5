/*
 * family.h - kernel families: what the tuner, the database and the
 * exporter know about a kind of kernel, as one table entry each.
 *
 * Adding a kernel family
 * ----------------------
 *  1. Write templates/<name>.cu: the kernel as one __device__ function
 *     template taking the element type (and, for arithmetic families, the
 *     accumulator type) and then the parameters in the order of the
 *     family's table; under #ifdef GT_HEADER_KERNEL a __global__ template
 *     of that name with the blocks per SM first, as its __launch_bounds__'
 *     second argument (0 for none, as the entry point has), then the
 *     same arguments (exported headers instantiate it per variant for
 *     nvcc); and under #ifdef GT_ELEM_BYTES the extern "C" entry point
 *     GT_KERNEL_NAME (default: the family's kernel name) with the
 *     arguments of the family's `args` that instantiates the template
 *     with the GT_* macros (a rendered variant).  Say at its top
 *     what it computes and what each parameter means.  A path only some
 *     points take may lie between a line that is the comment `{PARAM`
 *     (taken where PARAM is not 0, its first name) or `{PARAM:VALUE,...`
 *     (taken at those values) and one that is `PARAM}`: an exported
 *     header leaves out the paths none of its variants take, and the
 *     marker lines of those it keeps.
 *  2. Write src/families/family-<name>.c defining `const struct family family_<name>`:
 *     its size shape (1-D N, 2-D rows x cols, 3-D M x N x K) and default
 *     sizes, element types, parameters, the constraints that reject a
 *     point (each with the reason printed to the user), the launch
 *     geometry, its buffers and arguments, its metric (bytes or
 *     floating-point operations), how its output is checked (bit for bit
 *     against a host reference, within a stated error bound of one, or by
 *     its judge against a host or a GPU reference) and against which
 *     ceiling it is measured, what its exported header says of its
 *     buffers, its named classic points, and, for a space too large to
 *     time in full, its default search strategy and budget.
 *  3. Add its line to FAMILY_TABLE in Makefile.am (the build makes the
 *     registry's list, the sources and the built-in templates from it).
 *     Nothing else names it: its command, `gputune <name>`, comes from the
 *     table (the
 *     descriptor's command_summary and, where the parameters' list does
 *     not say enough, its command_help), and query, export, validate and
 *     plot take it by name.
 *  4. Tests: t1003 compiles a seeded sample of its space for each of its
 *     element types by itself (every variant under `make check-full`);
 *     add tests that its constraints reject what they should, that its
 *     template is right (a host runner, tests/cuda-host.h) and a GPU test
 *     (t5xxx) that tunes small sizes.
 */
#ifndef GPUTUNE_FAMILY_H
#define GPUTUNE_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/sizes.h"

#define MAX_PARAMS 20 /* each family file asserts its count against it */
#define MAX_VALUES 16

struct dtype {
	const char *name; /* "f32" */
	size_t size;      /* bytes */
	const char *ctype; /* the C type an exported header names */
	/* For families that compute on elements (GT_ELEM_TYPE, GT_ACC_TYPE in
	 * a rendered variant): the CUDA type of an element and of the
	 * accumulator (unsigned for i32, so that a sum wraps as defined), the
	 * accumulator's size, and its unit roundoff (0: exact). */
	const char *cuda_type, *acc_type;
	size_t acc_size;
	double acc_eps;
};

/* f32, f64, f16, i32; NULL when name is unknown. */
const struct dtype *dtype_find(const char *name);
extern const struct dtype dtype_table[];

struct param_def {
	const char *name;   /* as on the command line: "tile" */
	const char *macro;  /* as in the template: "GT_TILE" */
	const char *help;
	/* Symbolic values ("cartesian", ...), NULL-terminated; the macro gets
	 * the value's index.  NULL for numeric parameters. */
	const char *const *names;
	int allowed[MAX_VALUES];  /* every value the template supports */
	int nallowed;
	int defaults[MAX_VALUES]; /* the default search space */
	int ndefaults;
	int single;               /* the value `gputune source` uses when not given */
	int hidden;               /* test-only: left out of names, sources and headers when at `single` */
	/* Left out of names when at `single`, like a hidden one, but a real
	 * parameter: one added after results were stored, so that the names
	 * of the points it leaves unchanged (and the results stored under
	 * them) stay as they were. */
	int quiet;
	/* Of the last parameters of the table, added after the search drew
	 * its points: a search whose points all hold one value of it leaves
	 * it out, so that its draws (which count the parameters) are as they
	 * were before it. */
	int late;
};

/* The shared memory a launch gets without opting in to more, bytes. */
#define SMEM_WITHOUT_OPTIN (48 * 1024)

/* What a point is checked against: the GPU's limits (or the target
 * architecture's defaults when there is no GPU). */
struct device_limits {
	int max_threads_per_block;
	int max_smem_per_block;
	int cc; /* compute capability x 10 (90 for 9.0); 0 when not known */
	/* Dynamic shared memory a kernel may take once its launcher opts in
	 * (the function attribute of the maximum dynamic size), bytes: for a
	 * family whose kernels take only dynamic shared memory and whose
	 * launchers opt in (the matrix multiply's); 0: max_smem_per_block. */
	int max_smem_optin;
};

/* How a family's sizes read and print: 1-D sizes are N (stored as rows =
 * N, cols = 1), 2-D sizes rows x cols, 3-D sizes M x N x K (rows = M,
 * cols = N, depth = K). */
enum family_shape { SHAPE_1D = 1, SHAPE_2D = 2, SHAPE_3D = 3 };
/* What a family's figure counts per second. */
enum family_metric { METRIC_BYTES, METRIC_FLOPS };
/* How a variant's output is checked: bit for bit against the host
 * reference on the GPU; by the family's judge on the host (a
 * floating-point tolerance) against what its `reference` computed on the
 * host or, with CHECK_GPU_REFERENCE, what the support kernel named by
 * `gpu_reference` computed on the GPU; or, CHECK_BOUND, every element on
 * the GPU within a stated error bound of a reference the host computed
 * (see bound_gamma); or, CHECK_REFERENCE, against what one of the
 * family's own points (the classic `reference_classic`) computed on the GPU from
 * the same input at the same size, before any variant ran: bit for bit
 * where the family has no judge, else by its judge on the host. */
enum family_check { CHECK_EXACT, CHECK_HOST, CHECK_GPU_REFERENCE, CHECK_BOUND, CHECK_REFERENCE };
/* The ceiling measured beside the variants at every size: a copy of the
 * input (cuMemcpy and a copy kernel), a streaming read of it, or the
 * GPU's measured rate of fused multiply-adds (the support kernels'). */
enum family_ceiling { CEILING_COPY, CEILING_READ, CEILING_FMA };
/* The arguments of a kernel: (in, out, unsigned rows, unsigned cols),
 * (in, out, scratch, unsigned long long n), or (A, B, C, int M, int N,
 * int K) with A and B one after the other in the input buffer. */
enum family_args { ARGS_MATRIX, ARGS_VECTOR, ARGS_GEMM, ARGS_USER };

/* ARGS_USER: the kernel takes the family's buffers in their order, a
 * pointer each into the input, output or scratch memory (at the byte
 * offsets buffer_offsets gives), then the size: unsigned long long n
 * (1-D), unsigned rows, cols (2-D), or int m, n, k (3-D).  At most one
 * output buffer; the inputs lie one after the other in the input memory,
 * the scratch buffers in the scratch memory. */
enum buffer_role { BUF_INPUT, BUF_OUTPUT, BUF_SCRATCH };
#define MAX_BUFFERS 8
struct family_buffer {
	const char *name;
	int role;	    /* enum buffer_role */
	const char *length; /* elements, an expression of the size (in C too, for headers) */
};


struct launch_geometry {
	unsigned grid[3], block[3];
	unsigned smem; /* bytes of dynamic shared memory */
	/* 1: grid[0] is the most blocks the kernel takes, launched as many as
	 * the device holds at once where fewer (a persistent kernel, each
	 * block taking its work in turn: the matrix product's stream-K). */
	int resident;
};

struct family {
	const char *name;
	const char *summary;
	/* Its command, `gputune <name>`: the line the command list gives it,
	 * and what its help says after the parameters (NULL: nothing). */
	const char *command_summary;
	const char *command_help;
	const char *template_name; /* "templates/transpose.cu" */
	/* A user family's template, a file read from disk (user-family.h);
	 * NULL for a built-in family, whose template is embedded. */
	const char *template_path;
	const char *kernel_name;   /* the extern "C" entry point */
	/* The name its results are stored under: a user family's name and
	 * the hash of its template and spec (user-family.h); NULL: name. */
	const char *store_name;
	int shape;                 /* enum family_shape */
	const char *default_sizes; /* --sizes when not given */
	const char *dtypes;        /* the element types it supports: "f32,f64,f16" */
	int metric;                /* enum family_metric */
	int check;                 /* enum family_check */
	int ceiling;               /* enum family_ceiling */
	int args;                  /* enum family_args */
	int arithmetic;            /* renders GT_ELEM_TYPE and GT_ACC_TYPE */
	/* The choice at sizes nobody tuned reads each candidate's figures per
	 * busy SM, its grid's waves filling the GPU or not (choice-fill.h):
	 * for kernels of few long blocks, whose last wave decides much.  A
	 * 3-D family's alone (a header's fill calls its geometry with m, n, k). */
	int choice_fill;
	/* With choice_fill: the names of the parameters that give the rows
	 * and the columns of the tile of the output a block computes, which
	 * the fill scales by the share of the tiles inside the output
	 * (choice-fill.h, gputune_choice_cover); NULL where blocks are not
	 * such tiles. */
	const char *fill_tile[2];
	const struct param_def *params;
	int nparams;
	/* NULL when point v is valid for dt on a device with lim; otherwise
	 * the reason, written into buf (size n) or a static string. */
	const char *(*reject)(const int *v, const struct dtype *dt,
			      const struct device_limits *lim, char *buf, size_t n);
	/* NULL when point v of the default space stays in it; otherwise why it
	 * is left out: a value some paths search by default and the rest only
	 * when asked for (asked[i]: parameter i was given with --param).  NULL
	 * where every default combines with every other. */
	const char *(*default_only)(const int *v, const int *asked);
	/* Whether point v's kernel takes the tensor maps of
	 * src/families/tensor-maps.h after the family's arguments, for blocks of
	 * *stripe input rows by *width columns (the transpose's rowclass=on);
	 * NULL where none does. */
	int (*tensor_maps)(const int *v, unsigned *stripe, unsigned *width);
	/* Where tensor_maps is set: the built-in file an exported header
	 * carries the maps' builder from ("src/families/tensor-maps.h"), and
	 * the comment it puts before it (lines without the comment's marks):
	 * which variants take the maps, for which stripe and width. */
	const char *maps_code, *maps_note;
	void (*geometry)(const int *v, const struct dtype *dt, const struct dims *d,
			 struct launch_geometry *g);
	/* The same geometry as C statements for exported headers: they read
	 * the configuration through `c->PARAM`, and `rows`, `cols` (2-D),
	 * `n` (1-D) or `m`, `n`, `k` (3-D), and set `grid[3]`, `block[3]`
	 * (unsigned) and `smem` (bytes of dynamic shared memory). */
	const char *geometry_c;
	/* What an exported header's opening comment says of the launch's
	 * buffers (the layout of its matrices, its scratch memory, its output
	 * type), as lines without the comment's " * "; NULL for nothing. */
	const char *header_notes;
	/* Elements of the input (every input matrix, one after the other),
	 * and bytes of the output, for a size. */
	size_t (*in_elems)(const struct dims *d);
	size_t (*out_bytes)(const struct dtype *dt, const struct dims *d);
	/* Bytes of scratch memory point v needs (zeroed before its first
	 * launch; no launch needs it zeroed again), or NULL for none; scratch_c
	 * is the same as a C expression of `c->PARAM` and `n` for headers. */
	size_t (*scratch_bytes)(const int *v, const struct dtype *dt, const struct dims *d);
	const char *scratch_c;
	/* What one launch counts for the metric: bytes moved through device
	 * memory (read + write), or floating-point operations. */
	double (*work)(const struct dtype *dt, const struct dims *d);
	/* The input, or NULL for pseudo-random elements, never zero.  set 0
	 * is timed; a family with nsets == 2 is also checked on set 1. */
	void (*fill)(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set);
	int nsets;
	/* ARGS_USER: the buffers, and each one's byte offset into the memory
	 * of its role at a size (aligned to 256 bytes). */
	const struct family_buffer *buffers;
	int nbuffers;
	void (*buffer_offsets)(const struct dtype *dt, const struct dims *d, size_t *offsets);
	/* NULL when size d can be run; otherwise why not (a buffer's length
	 * that overflows, a metric that is not positive), in buf.  NULL where
	 * every size the shape allows can. */
	const char *(*size_problem)(const struct dtype *dt, const struct dims *d, char *buf, size_t n);
	/* CHECK_REFERENCE: the classic (its index) whose output every
	 * variant's is checked against, and the bound: each element within
	 * abs_tol + rel_tol x |the reference's| (both 0: bit for bit).  f32
	 * and f64 outputs are checked on the GPU; the others by the judge. */
	int reference_classic;
	double abs_tol, rel_tol;
	/* CHECK_EXACT: the expected output of in, bit for bit.  CHECK_HOST:
	 * what judge needs (expected_bytes of it, and expected_elem bytes per
	 * element of the output), computed from in.
	 * CHECK_GPU_REFERENCE: NULL; the support kernel gpu_reference_<dtype>
	 * (templates/support.cu) computes what judge needs on the GPU, with
	 * the family's arguments (in, expected, M, N, K) and expected_elem
	 * bytes per element of the output, launched as gpu_reference_geometry
	 * says.  Where the family has bound_gamma, that output is a pair of
	 * doubles per element, (value, magnitude), kept on the GPU, and each
	 * output element is checked there (gt_check_pairs) against
	 * bound_gamma's bound, as judge would (within gamma * magnitude of
	 * the value, equal to it where gamma is 0); judge, on the host, then
	 * only words a failure: a large output is not copied back and judged
	 * by the CPU for every variant and input set. */
	void (*reference)(const void *in, void *expected, const struct dtype *dt, const struct dims *d);
	size_t expected_bytes;
	const char *gpu_reference;
	void (*gpu_reference_geometry)(const struct dims *d, struct launch_geometry *g);
	size_t expected_elem;
	/* CHECK_BOUND: `reference` writes, per output element, the reference
	 * value as a double (an integer type's modulo 2^32), then after all
	 * of them a magnitude per element as a float (expected_elem is 12);
	 * each output element o must then lie within gamma * magnitude of
	 * the reference (and its rounding to double), gamma =
	 * bound_gamma(v, ...) for input set `set`, and equal it where gamma
	 * is 0.  The output's elements are the accumulator type.
	 * CHECK_GPU_REFERENCE: see above. */
	double (*bound_gamma)(const int *v, const struct dtype *dt, const struct dims *d, int set);
	/* CHECK_HOST: NULL when out (copied back) is right for point v on
	 * input set `set`; otherwise why, with the measured error, in buf. */
	const char *(*judge)(const void *expected, const void *out, const int *v, const struct dtype *dt,
			     const struct dims *d, int set, char *buf, size_t n);
	/* Named points of the space (the classic kernels), "name:p=v,p=v",
	 * NULL-terminated; every run measures them and the report gives the
	 * winner's speed-up over the first nreport of them. */
	const char *const *classics;
	int nreport;
	int fallback; /* the classic an untuned device gets (exported headers) */
	/* Points "p=v,p=v" every run measures first at each of its sizes, where
	 * the run's space holds them, NULL-terminated (or NULL): the winners
	 * of the family's studies, so that a run's candidates hold them
	 * whatever its random draws find. */
	const char *const *seeds;
	/* validate's sizes when not given */
	const char *validate_sizes;
	/* How its space is walked when --strategy is not given (strategy.h):
	 * 0, exhaustive, for spaces small enough to time in full; and with a
	 * search, the variants measured per size when --budget is not given
	 * (0: a tenth of the space). */
	int strategy;
	int budget;
	/* With a search, the variants searched at each of the extra sizes
	 * the choice reads that choice-probe.c marks searchable (a matrix
	 * product's of few tiles, and small ones) when --probe-search is not
	 * given; 0: those sizes measure the requested sizes' fastest only. */
	int probe_search;
};

extern const struct family *const family_table[];

const struct family *family_find(const char *name);
/* Element type name of f, or NULL when unknown or not one f supports. */
const struct dtype *family_dtype(const struct family *f, const char *name);
/* Buffer and work helpers for table entries: every element of a size;
 * its bytes in dt (an output the input's size); the bytes of reading and
 * writing each element once. */
size_t family_elems(const struct dims *d);
size_t family_elems_bytes(const struct dtype *dt, const struct dims *d);
double family_copy_bytes(const struct dtype *dt, const struct dims *d);
/* The kernel whose fixed point f's runs time beside the variants as its
 * ceiling (the copy family's, for CEILING_COPY; the read and FMA
 * ceilings are support kernels), with that point for dt in v; NULL when
 * f's ceiling needs no kernel of a family. */
const struct family *family_ceiling_kernel(const struct family *f, const struct dtype *dt, int *v);
/* The constraints most families share, for their reject: vec elements of
 * dt in one access (at most 16 bytes), and threads per block within the
 * device's limit.  NULL, or the reason written into buf (size n). */
const char *family_reject_access(int vec, const struct dtype *dt, char *buf, size_t n);
const char *family_reject_threads(int threads, const struct device_limits *lim, char *buf, size_t n);
/* The ceiling's kind as stored: "copy", "read" or "fma". */
const char *family_ceiling_name(const struct family *f);
/* "GB/s" or "GFLOP/s". */
const char *family_metric_unit(const struct family *f);
/* The size as people write it for f: "N", "RxC" or "MxNxK". */
const char *family_size_text(const struct family *f, const struct dims *d, char *buf, size_t n);
/* The name f's results are stored under (store_name, else name). */
const char *family_store_name(const struct family *f);
/* Index of parameter name in f, or -1. */
int family_param_index(const struct family *f, const char *name);
/* The index of the first of the late parameters that end f's table
 * (param_def.late); nparams where none is late. */
int family_late_from(const struct family *f);
/* The names of a size's dimensions for f's shape, as spec expressions and
 * headers' helpers call them: n; rows, cols; or m, n, k.  How many. */
int family_size_names(const struct family *f, const char *names[3]);
/* The size shape as the database and JSON name it: "1d", "2d" or "3d". */
const char *family_shape_name(const struct family *f);
/* The value's text ("32", "diagonal") into buf. */
const char *param_value_text(const struct param_def *p, int value, char *buf, size_t n);
/* Parses one value of p: 0 and *out, or -1. */
int param_value_parse(const struct param_def *p, const char *text, int *out);
/* Canonical "tile=32,block_rows=8,..." for point v (hidden parameters
 * at their default omitted).  Caller frees. */
char *family_point_name(const struct family *f, const int *v);
/* Lists f's parameters for help: name, what it does, the values the
 * template supports and the default search values. */
void family_print_params(const struct family *f, FILE *out);
/* Classic point i of f ("name:p=v,...", see struct family) into v.
 * 0, or -1 when f has no classic i. */
int family_classic_point(const struct family *f, int i, int *v);
/* The point an untuned device gets: the fallback classic, else every
 * parameter at its single default. */
void family_fallback_point(const struct family *f, int *v);
/* Parses a canonical name back into v (parameters not named take their
 * single default).  0, or -1 after reporting. */
int family_point_parse(const struct family *f, const char *name, int *v);
/* The same without a message: 0, or -1 with why (size n) naming the bad
 * setting. */
int family_point_check(const struct family *f, const char *name, int *v, char *why, size_t n);

#endif
