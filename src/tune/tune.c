/*
 * tune.c - see tune.h.
 *
 * Order of work, and why:
 *  1. Everything that can be refused is checked before any work: options,
 *     sizes, the space, the database, each size against the GPU's memory.
 *  2. The GPU's figures are read in a child process, then the compile
 *     workers are forked, and only then does this process load the driver
 *     (the driver is not fork-safe once initialised).
 *  3. Variants are benchmarked in compile order, so the GPU starts on the
 *     first variant while the workers compile the rest.
 *  4. Each variant's result is one transaction; Ctrl-C stops after the
 *     variant in hand, so the database is always consistent and a second
 *     run skips what is already measured.
 */
#define _POSIX_C_SOURCE 200809L
#include "tune/run.h"
#include "tune/tune.h"
#include "gpu/bench.h"
#include "export/choice.h"
#include "compile/compile-pool.h"
#include "tune/conditions.h"
#include "config.h"
#include "db/db.h"
#include "gpu/gpu.h"
#include "util/interrupt.h"
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "tune/restart.h"
#include "families/space.h"
#include "families/strategy.h"
#include "util/table.h"
#include "util/util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void free_state(struct run_state *s)
{
	for (size_t i = 0; i < s->npts; i++) {
		free(s->pts[i].name);
		free(s->pts[i].source);
		free(s->pts[i].needed);
		free(s->pts[i].always_at);
	}
	free(s->pts);
	free(s->index);
	free(s->jobs);
	free(s->sizes);
	free(s->anchor);
	free(s->confirm_pt);
	free(s->vals);
	free(s->support_src);
	free(s->ceil_src);
	free(s->ref_src);
	free(s->taken);
	db_close(s->db);
}

/* The slot of s->index where point values v are, or the empty one where
 * they would go.  Only the family's parameters count: the space's points
 * and the classics may differ in the unused tail, and a classic that is
 * also a point of the space must be one point, measured once. */
static size_t index_slot(const struct run_state *s, const int *v)
{
	size_t np = (size_t)s->f->nparams;
	size_t h = (size_t)(hash64(v, sizeof(int) * np, HASH64_SEED) % s->index_cap);
	while (s->index[h] && memcmp(s->pts[s->index[h] - 1].v, v, sizeof(int) * np))
		h = (h + 1) % s->index_cap;
	return h;
}

/* The index of point v in s->pts, or -1 where the run has no such point
 * (add_point's lookup, which it keeps inline to hash a new point once). */
static long find_point(const struct run_state *s, const int *v)
{
	if (!s->index_cap)
		return -1;
	size_t h = index_slot(s, v);
	return s->index[h] ? (long)s->index[h] - 1 : -1;
}

/* Adds point v unless it is already there; returns its index.  (A run of
 * the matrix multiply adds 54,540: looked up one by one, as before, that
 * took 10 s of a 2-core machine's start.) */
static size_t add_point(struct run_state *s, const int *v)
{
	if (2 * (s->npts + 1) > s->index_cap) {
		free(s->index);
		s->index_cap = s->index_cap ? 2 * s->index_cap : 64;
		s->index = xcalloc(s->index_cap, sizeof(size_t));
		for (size_t i = 0; i < s->npts; i++)
			s->index[index_slot(s, s->pts[i].v)] = i + 1;
	}
	size_t h = index_slot(s, v);
	if (s->index[h])
		return s->index[h] - 1;
	if (s->npts == s->pts_cap) {
		s->pts_cap = s->pts_cap ? 2 * s->pts_cap : 64;
		s->pts = xrealloc(s->pts, s->pts_cap * sizeof(*s->pts));
	}
	struct point *p = &s->pts[s->npts];
	memset(p, 0, sizeof(*p));
	memcpy(p->v, v, sizeof(int) * (size_t)s->f->nparams);
	p->job = -1;
	s->index[h] = ++s->npts;
	return s->npts - 1;
}

/* Whether the classic every variant is checked against is left out of
 * the space on this device (after saying so): no variant could then be
 * checked. */
static int reference_rejected(const struct family *f, const struct dtype *dt, const struct device_limits *lim)
{
	int v[MAX_PARAMS];
	char buf[256];
	const char *why = family_classic_point(f, f->reference_classic, v) < 0 ? "it is no point of the space"
											: f->reject(v, dt, lim, buf, sizeof(buf));
	if (why)
		error("%s: the reference every variant is checked against, the classic '%.*s', cannot run here: %s",
		      f->name, (int)strcspn(f->classics[f->reference_classic], ":"), f->classics[f->reference_classic],
		      why);
	return why != NULL;
}

/* The classic points go into every run (when valid), so the report can
 * always give the winner's speed-up over them. */
static void add_classics(struct run_state *s, const struct device_limits *lim)
{
	for (int i = 0; s->f->classics && s->f->classics[i]; i++) {
		int v[MAX_PARAMS] = {0};
		char buf[160];
		if (family_classic_point(s->f, i, v) < 0)
			continue;
		if (!s->f->reject(v, s->dt, lim, buf, sizeof(buf))) {
			/* add_point may move s->pts: index it after. */
			size_t k = add_point(s, v);
			s->pts[k].always = 1;
		}
	}
}

/* Whether seed v may join a run whose space is sp though it is no point
 * of it: each value one of the space's or, for a parameter that --param
 * left alone, any the template supports (family_point_parse took only
 * such values), as split=8, which the default space leaves out so that
 * the search does not draw from its many points, and which wins where a
 * few tiles share a long K; and valid on this device.  A point the
 * family's default_only leaves out (the matrix multiply's tiles over 48
 * KiB of shared memory, the squares' seed among them) passes too: only
 * reject, not default_only, decides here. */
static int seed_beyond_space(const struct space *sp, const int *v, const struct dtype *dt,
			     const struct device_limits *lim)
{
	char buf[160];
	for (int p = 0; p < sp->f->nparams; p++) {
		int in_space = 0;
		for (int i = 0; i < sp->nvalues[p]; i++)
			in_space |= sp->values[p][i] == v[p];
		if (!in_space && sp->asked[p])
			return 0;
	}
	return sp->f->reject(v, dt, lim, buf, sizeof(buf)) == NULL;
}

/* The family's seeds, measured first at every size of the run: those
 * that are points of its space (added before: the space's values and
 * --param decide), and, unless a sample was drawn (a sample's run
 * measures its sample alone), those seed_beyond_space admits.  A seed of
 * a value --param left out, or a split-K point below compute capability
 * 9.0, is not added. */
static void mark_seeds(struct run_state *s, const struct space *sp, const struct device_limits *lim, int sampled)
{
	for (int i = 0; s->f->seeds && s->f->seeds[i]; i++) {
		int v[MAX_PARAMS] = {0};
		if (family_point_parse(s->f, s->f->seeds[i], v) < 0)
			continue;
		long at = find_point(s, v);
		if (at < 0 && !sampled && seed_beyond_space(sp, v, s->dt, lim))
			at = (long)add_point(s, v);
		if (at >= 0)
			s->pts[at].always = s->pts[at].seed = 1;
	}
}

/* Reasons that differ only in their numbers ("... shared memory (65812
 * bytes)") are one line: their shape is the text with each run of digits
 * as '#', and their numbers are kept, at most REASON_NUMBERS of them. */
#define REASON_NUMBERS 8
static int reason_shape(const char *r, char *shape, size_t n, long long *num)
{
	int k = 0;
	size_t o = 0;
	while (*r && o + 1 < n) {
		if (*r >= '0' && *r <= '9') {
			long long v = 0;
			while (*r >= '0' && *r <= '9')
				v = v * 10 + (*r++ - '0');
			if (k < REASON_NUMBERS)
				num[k] = v;
			k++;
			shape[o++] = '#';
		} else {
			shape[o++] = *r++;
		}
	}
	shape[o] = '\0';
	return k;
}

/* The rejected points by reason, those of one shape on one line with each
 * number that varies as its range. */
static void print_rejects(const struct space *sp, FILE *f)
{
	size_t n = sp->nrejects;
	unsigned char *done = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		char shape[512], other[512];
		long long lo[REASON_NUMBERS], hi[REASON_NUMBERS], v[REASON_NUMBERS];
		int k = reason_shape(sp->rejects[i].reason, shape, sizeof(shape), lo);
		memcpy(hi, lo, sizeof(hi));
		size_t count = 0;
		for (size_t j = i; j < n; j++) {
			if (done[j] || reason_shape(sp->rejects[j].reason, other, sizeof(other), v) != k ||
			    strcmp(shape, other) || k > REASON_NUMBERS)
				continue;
			done[j] = 1;
			count += sp->rejects[j].count;
			for (int m = 0; m < k; m++) {
				lo[m] = v[m] < lo[m] ? v[m] : lo[m];
				hi[m] = v[m] > hi[m] ? v[m] : hi[m];
			}
		}
		if (!done[i]) { /* more numbers than kept: the reason as it is */
			done[i] = 1;
			fprintf(f, "  rejected %5zu  %s\n", sp->rejects[i].count, sp->rejects[i].reason);
			continue;
		}
		fprintf(f, "  rejected %5zu  ", count);
		for (int m = 0, at = 0; shape[at]; at++) {
			if (shape[at] != '#') {
				fputc(shape[at], f);
			} else if (lo[m] == hi[m]) {
				fprintf(f, "%lld", lo[m++]);
			} else {
				fprintf(f, "%lld to %lld", lo[m], hi[m]);
				m++;
			}
		}
		fputc('\n', f);
	}
	free(done);
}

/* The compile jobs: [0] the support kernels, [1] the ceiling's kernel
 * where the family has one, then the reference where the family checks
 * against one of its points (CHECK_REFERENCE), then every point whose job index is set
 * (p->job >= 0). */
void make_jobs(struct run_state *s)
{
	s->jobs = xcalloc(s->njobs, sizeof(*s->jobs));
	s->jobs[0].source = s->support_src;
	s->jobs[0].name = "support kernels";
	if (s->ceil_f) {
		s->jobs[1].source = s->ceil_src;
		s->jobs[1].name = "ceiling kernel";
	}
	if (s->ref_job >= 0) {
		s->jobs[s->ref_job].source = s->ref_src;
		s->jobs[s->ref_job].name = "reference";
	}
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].job >= 0) {
			s->jobs[s->pts[i].job].source = s->pts[i].source;
			s->jobs[s->pts[i].job].name = s->pts[i].name;
		}
}

/* Failures a dry run names by a line (the first with its log). */
#define SHOWN_FAILURES 5

/* --dry-run: compile everything, print the counts. */
static int dry_run(struct run_state *s, const struct space *sp, const char *arch, const char *cache_dir,
		   int workers)
{
	double t0 = now_seconds();
	struct compile_pool *pool = compile_pool_start(s->jobs, s->njobs, arch, cache_dir, workers, 0);
	if (!pool)
		return EXIT_FAIL;
	size_t failed = 0, cached = 0;
	int show = s->o->show_log;
	for (size_t i = 0; i < s->njobs; i++) {
		int st = compile_pool_wait(pool, i);
		cached += s->jobs[i].cached;
		if (st != COMPILE_OK) {
			/* The first failure with its log, the next few by a line,
			 * the rest counted (--show-log: every one with its log). */
			failed++;
			char *log = compile_pool_log(pool, i);
			char *line = first_line(log);
			if (failed <= SHOWN_FAILURES || show)
				error("%s: variant %s failed to compile: %s", s->f->name, s->jobs[i].name, line);
			if ((show || failed == 1) && log)
				fprintf(stderr, "%s\n", log);
			free(line);
			free(log);
		}
		if (interrupted())
			break;
	}
	if (failed > SHOWN_FAILURES && !show)
		error("%s: and %zu more variants failed to compile (--show-log gives each one's log)", s->f->name,
		      failed - SHOWN_FAILURES);
	double dt = now_seconds() - t0;
	size_t compiled = compile_pool_compiled(pool);
	compile_pool_stop(pool);
	if (interrupted()) {
		error("interrupted");
		return EXIT_INTERRUPTED;
	}
	if (s->x && s->x->no_report) /* a compile pass for several GPUs (run-devices.c) */
		return failed ? EXIT_FAIL : EXIT_OK;
	printf("%s %s for %s: %zu points, %zu valid, %zu rejected\n", s->f->name, s->dt->name, arch,
	       sp->total, sp->nvalid, sp->total - sp->nvalid);
	print_rejects(sp, stdout);
	printf("compiled %zu, cached %zu, failed %zu (%zu jobs with the tuner's own kernels) in %.2f s\n",
	       compiled, cached, failed, s->njobs, dt);
	return failed ? EXIT_FAIL : EXIT_OK;
}

/* Appends the probe sizes (choice.h) that are not requested already. */
static void add_probes(struct run_state *s, int on)
{
	struct dims probes[64];
	int anchor[64];
	size_t np = on ? choice_probe_sizes(s->f->shape, s->sizes, s->nreq, s->dt->size, s->o->probe_search > 0, probes,
					    anchor, 64)
		       : 0;
	s->sizes = xrealloc(s->sizes, (s->nreq + np + 1) * sizeof(*s->sizes));
	s->anchor = xcalloc(s->nreq + np + 1, sizeof(int));
	for (size_t i = 0; i < np; i++) {
		if (sizes_contain(s->sizes, s->nsizes, probes[i].rows, probes[i].cols, probes[i].depth))
			continue;
		s->anchor[s->nsizes] = anchor[i];
		s->sizes[s->nsizes++] = probes[i];
	}
}

/*
 * A run of one share (--shard): the sizes dealt to it, requested and
 * extra, weighed by their elements (a size's work grows with them), in
 * the order they had.  The extra sizes are planned from every requested
 * size first, so that each share plans the same list.
 */
static void keep_shard_sizes(struct run_state *s)
{
	double *weight = xcalloc(s->nsizes + 1, sizeof(double));
	unsigned char *mine = xcalloc(s->nsizes + 1, 1);
	for (size_t k = 0; k < s->nsizes; k++)
		weight[k] = (double)s->sizes[k].rows * (double)s->sizes[k].cols * (double)s->sizes[k].depth;
	shard_deal(&s->o->shard, weight, s->nsizes, mine);
	size_t n = 0, nreq = 0;
	for (size_t k = 0; k < s->nsizes; k++) {
		if (!mine[k])
			continue;
		nreq += k < s->nreq;
		s->sizes[n] = s->sizes[k];
		s->anchor[n++] = s->anchor[k];
	}
	s->nsizes = n;
	s->nreq = nreq;
	free(weight);
	free(mine);
}

void tune_opts_free(struct tune_opts *o)
{
	free(o->sizes);
	free(o->params);
	free(o->devices);
	memset(o, 0, sizeof(*o));
}

/* The run's state from the options: sizes (with the extra sizes unless
 * asked not to), the search, the timing. */
static void init_state(struct run_state *s, const struct family *f, const struct tune_opts *o,
		       struct tune_extra *x)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->o = o;
	s->x = x;
	s->dt = o->dt;
	s->mode = o->hot ? "hot" : "flushed";
	s->ref_job = -1;
	s->resumed_run = restart_resumed_run();
	const struct dims *req = x && x->sizes ? x->sizes : o->sizes;
	s->nsizes = x && x->sizes ? x->nsizes : o->nsizes;
	s->sizes = xcalloc(s->nsizes + 1, sizeof(*s->sizes));
	memcpy(s->sizes, req, s->nsizes * sizeof(*s->sizes));
	s->nreq = s->nsizes;
	add_probes(s, !o->no_probe && !o->dry_run && !(x && x->no_probe));
	if (o->shard.n && !o->dry_run && !o->list)
		keep_shard_sizes(s);
}

/*
 * The target: the GPU's figures (when there is one, and always unless a
 * dry run names --arch), the architecture into arch[32], and the limits
 * points are checked against.  EXIT_OK, or the exit code after a message.
 */
static int find_target(struct run_state *s, char *arch, struct device_limits *lim)
{
	const struct tune_opts *o = s->o;
	const char *name = o->cmd;
	snprintf(arch, 32, "%s", o->arch ? o->arch : "");
	int have_gpu = 0;
	char why[256];
	if (o->list) {
		/* The device's limits where there is one, else the defaults. */
		have_gpu = gpu_probe(s->o->device, &s->g, why, sizeof(why)) == 0;
	} else if (!o->dry_run || !o->arch) {
		int r = 0;
		if (s->q) /* a worker of several GPUs: the parent probed them */
			devq_gpu(s->q, s->slot, &s->g);
		else
			r = gpu_probe(s->o->device, &s->g, why, sizeof(why));
		if (r) {
			if (o->dry_run)
				error("%s: no GPU to take the architecture from (%s): give --arch, e.g. --arch sm_90",
				      name, why);
			else
				error("%s needs a GPU: %s", name, why);
			return r;
		}
		have_gpu = 1;
		char gpu_arch[32];
		snprintf(gpu_arch, sizeof(gpu_arch), "sm_%d%d", s->g.cc_major, s->g.cc_minor);
		if (!o->arch) {
			snprintf(arch, 32, "%s", gpu_arch);
		} else if (!o->dry_run && strcmp(arch, gpu_arch)) {
			error("%s: --arch %s does not match GPU %d (%s, %s)", name, arch, s->o->device, s->g.name, gpu_arch);
			return EXIT_USAGE;
		}
	}
	device_limits_default(lim);
	if (have_gpu) {
		lim->max_threads_per_block = s->g.max_threads_per_block;
		lim->max_smem_per_block = s->g.max_smem_per_block;
	}
	/* The target's compute capability: the GPU's, or --arch's. */
	if (!strncmp(arch, "sm_", 3))
		lim->cc = atoi(arch + 3);
	lim->max_smem_optin = have_gpu ? s->g.max_smem_optin : device_smem_optin(lim->cc);
	return EXIT_OK;
}

/* The points another command (validate) asks for, measured beside the
 * space; those it confirms at one size only there. */
static void add_extra_points(struct run_state *s)
{
	struct tune_extra *x = s->x;
	if (x->confirm_points > 0 && x->npoints == s->nreq * (size_t)x->confirm_points) {
		s->confirm_pt = xcalloc(x->npoints, sizeof(long));
		s->confirm_per = (size_t)x->confirm_points;
	}
	for (size_t i = 0; i < x->npoints; i++) {
		int v[MAX_PARAMS] = {0};
		long at = -1;
		if (family_point_parse(s->f, x->points[i], v) == 0) {
			at = (long)add_point(s, v);
			/* A point confirmed at one size is measured there, not
			 * at every size a search covers (unless it is a classic). */
			struct point *p = &s->pts[at];
			if (s->confirm_pt && !(p->always && !p->always_at)) {
				if (!p->always_at)
					p->always_at = xcalloc(s->nreq, 1);
				p->always_at[i / s->confirm_per] = 1;
			}
			p->always = 1;
		}
		if (s->confirm_pt)
			s->confirm_pt[i] = at;
	}
}

/*
 * Every point's name and rendered source (and its hash), the search's
 * table of values, and the tuner's own kernels' sources (the support
 * kernels, and the ceiling's kernel where the family has one).  EXIT_OK,
 * or EXIT_FAIL when a template cannot be read.
 */
static int render_points(struct run_state *s)
{
	const char *tdir = templates_dir_from(s->o->templates);
	char *tmpl = family_template_load(s->f, tdir);
	char *support_t = template_load("templates/support.cu", tdir);
	s->ceil_f = family_ceiling_kernel(s->f, s->dt, s->ceil_v);
	s->own_jobs = s->ceil_f ? 2 : 1;
	/* The reference runs at every size a GPU run measures: its own job,
	 * compiled whether or not its point is still to be measured. */
	s->ref_job = -1;
	if (s->f->check == CHECK_REFERENCE && !s->o->dry_run && !s->o->list) {
		family_classic_point(s->f, s->f->reference_classic, s->ref_v);
		s->ref_job = (int)s->own_jobs++;
	}
	char *ceil_t = s->ceil_f ? family_template_load(s->ceil_f, tdir) : NULL;
	int rc = tmpl && support_t && (ceil_t || !s->ceil_f) ? EXIT_OK : EXIT_FAIL;
	for (size_t i = 0; rc == EXIT_OK && i < s->npts; i++) {
		struct point *p = &s->pts[i];
		p->name = family_point_name(s->f, p->v);
		p->source = render_variant(s->f, s->dt, p->v, tmpl);
		hash64_hex(hash64(p->source, strlen(p->source), HASH64_SEED), p->hash);
	}
	if (rc == EXIT_OK) {
		s->vals = xcalloc((s->npts ? s->npts : 1) * MAX_PARAMS, sizeof(int));
		for (size_t i = 0; i < s->npts; i++)
			memcpy(s->vals + i * MAX_PARAMS, s->pts[i].v, sizeof(s->pts[i].v));
		if (s->ceil_f)
			s->ceil_src = render_variant(s->ceil_f, s->dt, s->ceil_v, ceil_t);
		if (s->ref_job >= 0)
			s->ref_src = render_variant(s->f, s->dt, s->ref_v, tmpl);
		s->support_src = xstrdup(support_t);
	}
	free(tmpl);
	free(support_t);
	free(ceil_t);
	return rc;
}

/* --list: the space's valid points (or the sample), one name a line. */
static void list_points(const struct family *f, const struct space *sp)
{
	for (size_t i = 0; i < sp->npoints; i++) {
		char *pn = family_point_name(f, sp->points[i]);
		printf("%s\n", pn);
		free(pn);
	}
}

struct dims *tune_planned_sizes(const struct family *f, const struct tune_opts *o, struct tune_extra *x, size_t *n,
				size_t *nreq)
{
	struct run_state s;
	init_state(&s, f, o, x);
	struct dims *d = s.sizes;
	*n = s.nsizes;
	*nreq = s.nreq;
	s.sizes = NULL;
	free_state(&s);
	return d;
}

int tune_device_worker(void)
{
	return devq_worker();
}

int tune_run(const struct family *f, const struct tune_opts *o, struct tune_extra *x)
{
	if (!o->dry_run && !o->list && (o->devices_all || o->ndevices || devq_worker()))
		return devices_run(f, o, x);
	return tune_run_queued(f, o, x, NULL, -1);
}

int tune_run_queued(const struct family *f, const struct tune_opts *o, struct tune_extra *x, struct devq *q, int slot)
{
	struct run_state s;
	init_state(&s, f, o, x);
	s.q = q;
	s.slot = slot;
	if (q)
		devq_mark(q, slot, DEVQ_BEGIN);
	if (q && devq_nsizes(q) != s.nsizes) { /* the parent planned from the same command line */
		error("a worker planned %zu sizes where its queue holds %zu", s.nsizes, devq_nsizes(q));
		free_state(&s);
		return EXIT_FAIL;
	}
	s.taken = q ? xcalloc(s.nsizes + 1, 1) : NULL;
	for (size_t k = 0; q && k < s.nsizes; k++)
		s.taken[k] = (unsigned char)devq_measured_by(q, slot, k);
	struct space sp;
	int rc = space_init(&sp, f, s.dt, o->params, o->nparams, o->cmd) < 0 ? EXIT_USAGE : EXIT_OK;
	char arch[32] = "";
	struct device_limits lim = { 0, 0, 0, 0 };
	if (rc == EXIT_OK)
		rc = find_target(&s, arch, &lim);
	if (rc == EXIT_OK) {
		space_enumerate(&sp, &lim);
		if (o->sample_count)
			space_sample(&sp, (size_t)o->sample_count, o->sample_seed);
		if (sp.npoints == 0) {
			error("%s: no valid variant in the space (%zu points, all rejected):", o->cmd, sp.total);
			print_rejects(&sp, stderr);
			rc = EXIT_USAGE;
		}
	}
	if (rc == EXIT_OK && o->list) {
		list_points(f, &sp);
		goto done;
	}
	if (rc == EXIT_OK && o->shard.n && !o->dry_run && s.nsizes == 0) {
		if (!o->quiet)
			fprintf(stderr, "gputune: shard %d/%d: no size is dealt to this share (%zu sizes for %d shares)\n",
				o->shard.k, o->shard.n, o->nsizes, o->shard.n);
		goto done;
	}
	if (rc == EXIT_OK) {
		/* A dry run's share: every Nth variant of the space. */
		unsigned char *mine = xcalloc(sp.npoints + 1, 1);
		size_t nmine = shard_deal(o->dry_run ? &o->shard : &(struct shard){ 0, 0 }, NULL, sp.npoints, mine);
		for (size_t i = 0; i < sp.npoints; i++)
			if (mine[i])
				add_point(&s, sp.points[i]);
		free(mine);
		if (o->dry_run && o->shard.n && !(x && x->no_report))
			printf("shard %d/%d: %zu of the %zu variants\n", o->shard.k, o->shard.n, nmine, sp.npoints);
		if (!o->dry_run) {
			mark_seeds(&s, &sp, &lim, o->sample_count != 0);
			add_classics(&s, &lim);
		}
		if (!o->dry_run && f->check == CHECK_REFERENCE && reference_rejected(f, s.dt, &lim))
			rc = EXIT_USAGE;
		if (x)
			add_extra_points(&s);
		if (rc == EXIT_OK)
			rc = render_points(&s);
	}
	if (rc == EXIT_OK) {
		char *cache_dir = cache_dir_from(o->cache_dir);
		if (o->dry_run) {
			s.njobs = s.own_jobs;
			for (size_t i = 0; i < s.npts; i++)
				s.pts[i].job = (int)s.njobs++;
			make_jobs(&s);
			if (sp.npoints < sp.nvalid)
				printf("a sample of %zu of the %zu valid variants (--sample)\n", sp.npoints, sp.nvalid);
			rc = dry_run(&s, &sp, arch, cache_dir, o->workers);
		} else {
			rc = gpu_run(&s, arch, cache_dir, o->workers);
		}
		free(cache_dir);
	}
done:
	space_free(&sp);
	free_state(&s);
	return rc;
}
