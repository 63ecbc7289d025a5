/*
 * family.h - kernel families: what the tuner, the database and the
 * exporter know about a kind of kernel, as one table entry each.
 *
 * Adding a kernel family
 * ----------------------
 *  1. Write templates/<name>.cu: the kernel as one __device__ function
 *     template taking the element type and then the parameters in the
 *     order of the family's table; under #ifdef GT_HEADER_KERNEL a
 *     __global__ template of that name with the same arguments (exported
 *     headers instantiate it per variant for nvcc); and under #ifdef
 *     GT_ELEM_BYTES the extern "C" entry point GT_KERNEL_NAME (default:
 *     the family's kernel name) taking (const gt_elem *in, gt_elem *out,
 *     unsigned rows, unsigned cols) that instantiates the template with the
 *     GT_* macros (a rendered variant).  gt_uint, gt_vec, gt_elem and
 *     gt_pack come from templates/common.cuh.  Say at its top what it
 *     computes and what each parameter means; guard the template against a
 *     second inclusion.
 *  2. Write src/family-<name>.c defining `const struct family family_<name>`:
 *     its parameters (every supported value, the default search values,
 *     the single default used by `gputune source`), the constraints that
 *     reject a point (each with the reason printed to the user), the
 *     launch geometry, the output size, the bytes one launch must move,
 *     and the host reference the output is checked against bit for bit.
 *  3. Add it to family_table[] in src/family.c and the template to
 *     EMBEDDED_FILES in Makefile.am.
 *  4. Add the command: src/cmd-<name>.c is three lines around tune_main().
 *  5. Tests: every default variant compiles (t1xxx), each constraint
 *     rejects what it should, and a GPU test (t5xxx) tunes a small size.
 */
#ifndef GPUTUNE_FAMILY_H
#define GPUTUNE_FAMILY_H

#include <stddef.h>
#include <stdio.h>

#define MAX_PARAMS 12
#define MAX_VALUES 16

struct dtype {
	const char *name; /* "f32" */
	size_t size;      /* bytes */
	const char *ctype; /* the C type an exported header names */
};

/* f32, f64, f16; NULL when name is unknown. */
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
	int hidden;               /* test-only: left out of names when at `single` */
};

/* What a point is checked against: the GPU's limits (or the target
 * architecture's defaults when there is no GPU). */
struct device_limits {
	int max_threads_per_block;
	int max_smem_per_block;
};

struct launch_geometry {
	unsigned grid[3], block[3];
};

struct family {
	const char *name;
	const char *summary;
	const char *template_name; /* "templates/transpose.cu" */
	const char *kernel_name;   /* the extern "C" entry point */
	const struct param_def *params;
	int nparams;
	/* NULL when point v is valid for dt on a device with lim; otherwise
	 * the reason, written into buf (size n) or a static string. */
	const char *(*reject)(const int *v, const struct dtype *dt,
			      const struct device_limits *lim, char *buf, size_t n);
	void (*geometry)(const int *v, const struct dtype *dt, long rows, long cols,
			 struct launch_geometry *g);
	/* The same geometry as C statements for exported headers: they read
	 * the configuration through `c->PARAM`, and `rows`, `cols`, and set
	 * `grid[3]` and `block[3]` (unsigned). */
	const char *geometry_c;
	/* Elements of the output for a rows x cols input. */
	size_t (*out_elems)(long rows, long cols);
	/* Bytes one launch must move through device memory (read + write). */
	double (*bytes_moved)(const struct dtype *dt, long rows, long cols);
	/* The expected output of in, computed on the host. */
	void (*reference)(const void *in, void *out, long rows, long cols, size_t esize);
	/* Named points of the space (the classic kernels), "name:p=v,p=v",
	 * NULL-terminated; the tuner reports its winner's speed-up over the
	 * first two. */
	const char *const *classics;
};

extern const struct family *const family_table[];
extern const struct family family_transpose;
extern const struct family family_copy;

const struct family *family_find(const char *name);
/* Index of parameter name in f, or -1. */
int family_param_index(const struct family *f, const char *name);
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
/* Parses a canonical name back into v (parameters not named take their
 * single default).  0, or -1 after reporting. */
int family_point_parse(const struct family *f, const char *name, int *v);

#endif
