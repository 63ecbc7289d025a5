/*
 * header-variants.c - the variants a header carries: found or added by
 * name, their defines for NVRTC, their register counts (from the tuner's
 * compile cache) and the blocks per SM their header kernels are built for.
 */
#include "config.h"
#include "export/header.h"
#include "compile/compile-pool.h"
#include "compile/cubin-regs.h"
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "families/space.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int find_variant(struct hvariant *vs, int n, const struct dtype *dt, const int *v)
{
	for (int i = 0; i < n; i++)
		if (vs[i].dt == dt && !memcmp(vs[i].v, v, sizeof(int) * MAX_PARAMS))
			return i;
	return -1;
}

/* The header's variant for group variant params (adding it), or -1 after
 * reporting a stored name that is not a point of fam. */
int header_variant(const struct family *fam, struct hvariant *vs, int *nv, const struct dtype *dt,
			  const char *params)
{
	int v[MAX_PARAMS] = {0};
	if (family_point_parse(fam, params, v) < 0)
		return fail("export: the stored variant '%s' is not a point of %s", params, fam->name);
	int k = find_variant(vs, *nv, dt, v);
	if (k < 0) {
		k = (*nv)++;
		vs[k].dt = dt;
		memcpy(vs[k].v, v, sizeof(v));
	}
	return k;
}

/*
 * Each variant's registers as NVRTC compiles it for tuning, on the
 * architecture of the device that uses it: the count the tuner stored
 * with its measurements where there is one (collect_variants), else
 * compiled here (through the compile cache, so after a tuning run of this
 * machine nothing is compiled again).  nvcc compiles the same
 * source differently: on an H200 the f16 variant tile=64, block_rows=16,
 * vec=4, sector=on took 36 registers built by nvcc against NVRTC's 32, so
 * 7 blocks of 256 threads fitted on an SM instead of 8, and at 2897 x 2897
 * (1,058 blocks: one wave at 8, two at 7) the header's kernel ran at 0.75
 * of the figure the database held for it.  A variant that does not
 * compile here, or one of a device NVRTC cannot target, stays unknown.
 */
void variant_registers(const struct family *fam, struct hvariant *vs, int nv, const char *tmpl,
			      const char *cache_dir)
{
	int need = 0;
	for (int i = 0; i < nv; i++)
		need |= vs[i].cc && !vs[i].regs;
	if (!need)
		return;
	if (mkdir_p(cache_dir) < 0) {
		warning("export: cannot create the compile cache directory %s (%s), so the header's kernels are "
			"built without NVRTC's register counts",
			cache_dir, strerror(errno));
		return;
	}
	for (int i = 0; i < nv; i++) {
		if (!vs[i].cc || vs[i].regs)
			continue; /* no device, or done */
		/* Every variant of this architecture in one pool. */
		char arch[16], *supported = NULL;
		snprintf(arch, sizeof(arch), "sm_%d", vs[i].cc);
		struct compile_job *jobs = xcalloc((size_t)nv, sizeof(*jobs));
		int *which = xcalloc((size_t)nv, sizeof(int));
		size_t n = 0;
		for (int j = i; j < nv; j++)
			if (vs[j].cc == vs[i].cc) {
				jobs[n].source = render_variant(fam, vs[j].dt, vs[j].v, tmpl);
				jobs[n].name = vs[j].params;
				which[n++] = j;
			}
		struct compile_pool *pool = NULL;
		if (!nvrtc_arch_supported(arch, &supported))
			warning("export: NVRTC cannot target %s, so its kernels keep nvcc's register counts", arch);
		else
			pool = compile_pool_start(jobs, n, arch, cache_dir, 0, 0);
		for (size_t k = 0; k < n; k++) {
			struct hvariant *h = &vs[which[k]];
			char *cubin = NULL;
			size_t len = 0;
			if (pool && compile_pool_wait(pool, k) == COMPILE_OK)
				cubin = compile_pool_cubin(pool, k, &len);
			int r = cubin ? cubin_registers(cubin, len, fam->kernel_name) : -1;
			if (pool && r <= 0)
				warning("export: %s %s: no register count for %s, so its unbounded build alone is used",
					fam->name, h->params, arch);
			/* Marked done either way: -1 is "unknown" for the writer. */
			h->regs = r > 0 ? r : -1;
			free(cubin);
			free((char *)jobs[k].source);
		}
		if (pool)
			compile_pool_stop(pool);
		free(supported);
		free(jobs);
		free(which);
	}
}

/* hv's launch at 1024 a dimension: the families' shared memory, and
 * whether a launch is resident, do not depend on the size. */
static struct launch_geometry variant_geometry(const struct family *fam, const struct hvariant *hv)
{
	struct dims d = { 1024, 1024, 1024 };
	struct launch_geometry g = {0};
	fam->geometry(hv->v, hv->dt, &d, &g);
	return g;
}

unsigned variant_smem(const struct family *fam, const struct hvariant *hv)
{
	return variant_geometry(fam, hv).smem;
}

int variant_resident(const struct family *fam, const struct hvariant *hv)
{
	return variant_geometry(fam, hv).resident;
}

/*
 * The blocks per SM each header kernel is built for: as many as NVRTC's
 * registers let an SM hold (64 Ki registers, allocated 8 a thread), its
 * threads, or past 48 KiB its shared memory, whichever is fewest.  That is the kernel's __launch_bounds__'
 * second argument, which keeps nvcc to at most 64 Ki / (blocks x threads)
 * registers a thread: never fewer than NVRTC gave the variant, and where
 * nvcc would take more and lose a block per SM, no more.  A bound
 * can change the code even where nvcc needed fewer registers than it (the
 * matrix product's 64 x 64 tile took 139 bounded to 3 blocks of 128
 * threads, 127 without), so the header keeps both builds (the launch's
 * gputune_KERNEL_build); the unbounded one has the second argument 0,
 * which emits none, as the rendered kernel the tuner measured has none.
 * A second argument of 1 is not that: ptxas then allows itself more
 * registers (an f16 async=words variant took 34 with it from nvcc, 35
 * from NVRTC, and 30 without from both).  nvcc's __maxnreg__ at NVRTC's
 * count, tried first, changed the code at the very count nvcc chose
 * itself: the matrix product's winner at 4096 ran at 0.94 of its figure,
 * against 0.99.  1 (one build, unbounded) where the count is unknown.
 */
void variant_occupancy(const struct family *fam, struct hvariant *vs, int nv)
{
	for (int i = 0; i < nv; i++)
		vs[i].min_blocks = device_blocks_per_sm(fam, vs[i].v, vs[i].dt, vs[i].regs, vs[i].cc);
}
