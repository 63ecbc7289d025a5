/*
 * cmd-tune.c - `gputune <family>`: one command for each entry of the
 * family table, made from the family's descriptor (its name, its line in
 * the command list, its parameters and help), and the parsing of a tuning
 * run's command line into struct tune_opts.  No family is named here:
 * a new family gets its command from its table line.
 */
#include "cli/cmd-tune.h"
#include "compile/nvrtc-compile.h"
#include "families/space.h"
#include "families/strategy.h"
#include "util/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_REPS 30

const struct cmd_option cmd_tune_options[] = {
	{ "sizes", "LIST", "sizes to tune: N, 2^K, RxC (matrices), MxNxK (3-D families), A-B, A-B:STEP, random:N:A-B[:SEED], comma-separated (default: the family's, see below)", 0, 0 },
	TUNE_OPT_DTYPE,
	{ "param", "NAME=V,...", "candidate values of one parameter, or NAME=all (replaces its defaults)", 1, 0 },
	{ "dry-run", NULL, "enumerate and compile every variant, time nothing", 0, 0 },
	{ "list", NULL, "print the space's valid points (or --sample's), which a run measures besides the classics, one name a line, and stop; needs no GPU", 0, 0 },
	{ "sample", "N[:SEED]", "only a seeded random sample of N valid variants (default seed 1), besides the classics", 0, 0 },
	{ "arch", "sm_XX", "target architecture (default: the GPU's; needed for --dry-run without a GPU)", 0, 0 },
	TUNE_OPT_JOBS,
	TUNE_OPT_CACHE_DIR,
	TUNE_OPT_TEMPLATES,
	{ "show-log", NULL, "print the NVRTC log of each variant that failed to compile", 0, 0 },
	TUNE_OPT_REPS,
	{ "hot", NULL, "time launches without flushing L2 between them, on one placement of the buffers (stored as mode 'hot')", 0, 0 },
	{ "force", NULL, "measure again what the database already holds for this device", 0, 0 },
	{ "no-probe", NULL, "measure only the requested sizes, not the extra sizes the choice at untuned sizes learns from", 0, 0 },
	{ "strategy", "NAME", "how to walk the space at each size: exhaustive, random, anneal or genetic (default: the family's, below)", 0, 0 },
	{ "budget", "N|Ns", "with a search strategy: variants measured per size (N), or seconds of search per size (Ns); default: the family's, else 10% of the space (less at a size of launches of 2 ms or more: see below)", 0, 0 },
	{ "seed", "N", "seed of the random, anneal and genetic searches (default 1)", 0, 0 },
	{ "probe-search", "N", "with a search strategy, for the matrix multiply: its extra sizes of few tiles, and a small one of each alignment of K, get a search of N variants of their own (the mid shape of 32-byte K one of the requested sizes' budget), whose fastest join the candidates measured at every size (default 24 for a search; 0: the extra sizes measure the requested sizes' fastest only)", 0, 0 },
	{ "shard", "K/N|auto", "do share K of N (0 <= K < N) of the work, as dealt the same on any machine: a dry run compiles every Nth variant, a run measures its share of the sizes, the extra sizes included (see below); auto: K and N from Slurm (SLURM_ARRAY_TASK_ID and _COUNT, else SLURM_PROCID and SLURM_NTASKS)", 0, 0 },
	TUNE_OPT_QUIET,
	OPT_DEVICE_INDEX,
	{ "devices", "all|I,J,...", "tune on several GPUs of this host at once: one worker process per GPU, each size measured wholly on one of them and stored under it (see below)", 0, 0 },
	OPT_DB,
	OPT_FORMAT,
	OPT_END
};

const char cmd_tune_description[] =
	"Generates every variant of the family's parameter space (narrowed or widened\n"
	"with --param), compiles each with NVRTC in worker processes (cached), then on\n"
	"the GPU, at each size: measures the family's ceiling (a copy, or a streaming\n"
	"read), checks every variant's output against a host reference (bit for bit,\n"
	"or within the family's error bound; with guard bytes around it),\n"
	"times the correct ones (L2 flushed before each of at least 30 launches,\n"
	"or of 10 and 200 ms of kernel for kernels of over 7 ms; every other one\n"
	"also after an empty launch, rotated over 8 placements of the buffers\n"
	"where they take 64 KiB to 64 MiB; median and quartiles), and\n"
	"stores every result and the winner (of equal figures, the one of the most\n"
	"launches) in the database.  A variant that\n"
	"fails to compile, to launch, is wrong or faults is recorded with its reason\n"
	"and never wins.  What the database already holds for this device is skipped\n"
	"unless --force; Ctrl-C keeps what was measured (exit 130) and the next run\n"
	"resumes.  --dry-run needs no GPU when --arch is given.\n"
	"\n"
	"After the requested sizes, a run also measures extra sizes of every row\n"
	"alignment class across the requested range (for vector lengths, of the\n"
	"classes the requested lengths lack): anchors with every variant (per\n"
	"class the mid size, and for matrices the small square too), then the\n"
	"other shapes with the strongest candidates, so that exported headers and\n"
	"`query --size` choose well at sizes nobody tuned (see `gputune help\n"
	"export`); --no-probe skips them.\n"
	"\n"
	"--strategy random|anneal|genetic measures, at each size, only the variants\n"
	"the search picks (the classics always, and first the family's seeds that\n"
	"the space holds, or that only its defaults leave out (a value of a\n"
	"parameter --param left alone, or the matrix multiply's 48 KiB rule),\n"
	"which `gputune help FAMILY` lists), until --budget is\n"
	"spent: a seeded random order; simulated annealing, chains moving to\n"
	"neighbouring variants (one parameter changed); or a genetic search\n"
	"breeding the best variants.\n"
	"Only valid variants are drawn, each at most once; variants are compiled as\n"
	"they are picked.  What is already measured at a size counts against the\n"
	"budget and guides the search, so an interrupted search resumes.  With the\n"
	"default budget, a requested size whose fastest classic takes 2 ms or more\n"
	"a launch measures the 24 fastest variants of the nearest smaller requested\n"
	"size, then 16 more the search picks from them (--budget searches it in full).\n"
	"\n"
	"--devices all (or a list of GPU indices) runs one worker process per GPU,\n"
	"each with a context of its own, taking the sizes from one queue, largest\n"
	"first: the requested sizes and the anchors, then, once all of them are\n"
	"measured, the other extra sizes with the strongest candidates of all.\n"
	"The workers compile through one cache, each variant once per\n"
	"architecture, while they measure.  A worker whose GPU faults starts again\n"
	"and takes up its size; one that fails otherwise is dropped with a message\n"
	"and its sizes go to the others.  The summary gives each GPU's sizes, the\n"
	"conditions it ran under and where its time went.\n"
	"\n"
	"--shard K/N spreads one tuning over N processes (a Slurm array, several\n"
	"machines), each with a database of its own: `gputune db merge --db all.db\n"
	"shard-*.db` joins them, and export reads the result.  The shares come\n"
	"from the command line alone: a dry run deals the variants round-robin;\n"
	"a run deals the sizes (the requested ones and the extra ones) largest\n"
	"first, each to the share with the fewest elements so far, and measures\n"
	"each size wholly in one share.  A share cannot see the others' results,\n"
	"so it measures its extra sizes with every variant where one process\n"
	"would narrow them to the strongest candidates; a search measures each\n"
	"size's best at the other sizes of its own share.  The shards of one\n"
	"command together measure every size a single run would (examples/slurm).";


/* "N" or "N:SEED" of --sample; 0, or -1 when malformed. */
static int parse_sample(const char *t, long *count, long *seed)
{
	const char *colon = strchr(t, ':');
	char *head = xasprintf("%.*s", (int)(colon ? colon - t : (long)strlen(t)), t);
	int bad = parse_long(head, 1, 100000000, count) < 0 || (colon && parse_long(colon + 1, 0, LONG_MAX, seed) < 0);
	free(head);
	return bad ? -1 : 0;
}

/* The search: --strategy, --budget, --seed.  0, or EXIT_USAGE. */
static int parse_search(const struct family *f, const struct args *a, struct tune_opts *o)
{
	const char *name = o->cmd;
	const char *strat = args_get(a, "strategy");
	o->strategy = strat ? strategy_parse(strat) : f->strategy;
	if (o->strategy < 0)
		return cmd_usage_error(a->cmd, "%s: unknown --strategy '%s' (exhaustive, random, anneal or genetic)",
				       name, strat);
	const char *t = args_get(a, "budget");
	if (t) {
		size_t len = strlen(t);
		char *num = xasprintf("%.*s", (int)(len && t[len - 1] == 's' ? len - 1 : len), t);
		long v = 0;
		int bad = parse_long(num, 1, 100000000, &v) < 0;
		free(num);
		if (bad)
			return cmd_usage_error(a->cmd, "%s: bad --budget '%s' (N variants or Ns seconds per size, "
					       "1 <= N <= 100000000)", name, t);
		if (t[len - 1] == 's')
			o->budget_s = (double)v;
		else
			o->budget_n = v;
		if (o->strategy == STRATEGY_EXHAUSTIVE)
			return cmd_usage_error(a->cmd, "%s: --budget needs a search: --strategy random, anneal or genetic",
					       name);
	}
	if (!t && o->strategy != STRATEGY_EXHAUSTIVE) {
		o->budget_n = f->budget;
		o->budget_default = 1;
	}
	long seed = 1;
	if (args_get(a, "seed") && parse_long(args_get(a, "seed"), 0, LONG_MAX, &seed) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --seed '%s' (an integer, 0 or more)", name, args_get(a, "seed"));
	/* The exhaustive walk draws nothing: a seed given to it would be
	 * ignored, so it is refused as --budget is. */
	if (args_get(a, "seed") && o->strategy == STRATEGY_EXHAUSTIVE)
		return cmd_usage_error(a->cmd, "%s: --seed needs a search: --strategy random, anneal or genetic",
				       name);
	o->seed = (uint64_t)seed;
	const char *ps = args_get(a, "probe-search");
	/* The family's default (0 but for the matrix multiply's). */
	if (!ps && o->strategy != STRATEGY_EXHAUSTIVE)
		o->probe_search = f->probe_search;
	if (ps && parse_long(ps, 0, 100000000, &o->probe_search) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --probe-search '%s' (N variants, 0 <= N <= 100000000)", name, ps);
	if (o->probe_search > 0 && (o->strategy == STRATEGY_EXHAUSTIVE || f->shape != SHAPE_3D))
		return cmd_usage_error(a->cmd, "%s: --probe-search is for a search of the matrix multiply's sizes "
				       "(--strategy random, anneal or genetic)", name);
	return 0;
}

/* --devices all|I,J,...: 0, or EXIT_USAGE. */
static int parse_devices(const struct args *a, struct tune_opts *o)
{
	const char *t = args_get(a, "devices");
	if (!t)
		return 0;
	if (args_get(a, "device"))
		return cmd_usage_error(a->cmd, "%s: give --device or --devices, not both", o->cmd);
	if (args_has(a, "dry-run") || args_has(a, "list"))
		return cmd_usage_error(a->cmd, "%s: --devices is for a run on GPUs, not for --dry-run or --list", o->cmd);
	if (!strcmp(t, "all")) {
		o->devices_all = 1;
		return 0;
	}
	for (const char *p = t;; p++) {
		size_t len = strcspn(p, ",");
		char *one = xasprintf("%.*s", (int)len, p);
		long d = 0;
		int bad = parse_long(one, 0, 1023, &d) < 0;
		free(one);
		for (size_t i = 0; !bad && i < o->ndevices; i++)
			bad = o->devices[i] == (int)d;
		if (bad)
			return cmd_usage_error(a->cmd, "%s: bad --devices '%s' (all, or GPU indices from 0 to 1023, "
					       "each once, comma-separated)", o->cmd, t);
		o->devices = xrealloc(o->devices, (o->ndevices + 1) * sizeof(int));
		o->devices[o->ndevices++] = (int)d;
		p += len;
		if (!*p)
			return 0;
	}
}

/* The numbers: --reps, --jobs, --device, --sample, --shard.  0, or
 * EXIT_USAGE. */
static int parse_numbers(const struct args *a, struct tune_opts *o)
{
	const char *name = o->cmd;
	long n = DEFAULT_REPS;
	if (args_get(a, "reps") && parse_long(args_get(a, "reps"), 30, 100000, &n) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --reps '%s' (an integer, at least 30)", name,
				       args_get(a, "reps"));
	o->reps = (int)n;
	long workers = 0;
	if (args_get(a, "jobs") && parse_long(args_get(a, "jobs"), 1, 1024, &workers) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --jobs '%s' (1 to 1024)", name, args_get(a, "jobs"));
	o->workers = (int)workers;
	long dev = 0;
	if (args_get(a, "device") && parse_long(args_get(a, "device"), 0, 1024, &dev) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --device '%s' (a GPU index)", name, args_get(a, "device"));
	o->device = (int)dev;
	long count = 0, seed = 1;
	if (args_get(a, "sample") && parse_sample(args_get(a, "sample"), &count, &seed) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --sample '%s' (N or N:SEED, N >= 1)", name, args_get(a, "sample"));
	o->sample_count = count;
	o->sample_seed = (uint64_t)seed;
	if (parse_devices(a, o) != 0)
		return EXIT_USAGE;
	const char *shard = args_get(a, "shard");
	char err[200];
	if (shard && (!strcmp(shard, "auto") ? shard_from_slurm(&o->shard, err, sizeof(err))
					     : shard_parse(shard, &o->shard, err, sizeof(err))) < 0)
		return cmd_usage_error(a->cmd, "%s: bad --shard: %s", name, err);
	return 0;
}

/* --sizes, --param and --arch, each checked as the run will read it. */
static int parse_space(const struct family *f, const struct args *a, struct tune_opts *o)
{
	const char *name = o->cmd;
	char err[256];
	const char *sizes = args_get(a, "sizes");
	if (sizes_parse(f->shape, sizes ? sizes : f->default_sizes, &o->sizes, &o->nsizes, err, sizeof(err)) < 0)
		return cmd_usage_error(a->cmd, "%s: %s", name, err);
	o->params = args_all(a, "param", &o->nparams);
	struct space sp;
	int bad = space_init(&sp, f, o->dt, o->params, o->nparams, name) < 0;
	space_free(&sp);
	if (bad) {
		cmd_print_usage(a->cmd, stderr);
		return EXIT_USAGE;
	}
	o->arch = args_get(a, "arch");
	char *supported = NULL;
	if (o->arch && !nvrtc_arch_supported(o->arch, &supported)) {
		int r = cmd_usage_error(a->cmd, "%s: NVRTC %s cannot target --arch '%s' (supported: %s)", name,
					nvrtc_version_string(), o->arch, supported ? supported : "none");
		free(supported);
		return r;
	}
	free(supported);
	return 0;
}

int tune_opts_parse(const struct family *f, const struct args *a, struct tune_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cmd = a->cmd->name;
	if ((o->format = args_format(a)) < 0)
		return EXIT_USAGE;
	const char *dtn = args_get(a, "dtype");
	/* The default: f32, or the first a family supports where it has no f32. */
	char first[8];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(f->dtypes, ","), f->dtypes);
	o->dt = family_dtype(f, dtn ? dtn : family_dtype(f, "f32") ? "f32" : first);
	if (!o->dt)
		return cmd_usage_error(a->cmd, "%s: unknown --dtype '%s' for %s (%s)", o->cmd, dtn, f->name, f->dtypes);
	o->quiet = args_has(a, "quiet");
	o->hot = args_has(a, "hot");
	o->force = args_has(a, "force");
	o->dry_run = args_has(a, "dry-run");
	o->list = args_has(a, "list");
	o->no_probe = args_has(a, "no-probe");
	o->show_log = args_has(a, "show-log");
	o->templates = args_get(a, "templates");
	o->cache_dir = args_get(a, "cache-dir");
	o->db = args_get(a, "db");
	int rc = parse_numbers(a, o);
	if (rc == 0)
		rc = parse_search(f, a, o);
	if (rc == 0)
		rc = parse_space(f, a, o);
	if (rc != 0)
		tune_opts_free(o);
	return rc;
}

static int exec_family(struct args *a)
{
	struct tune_opts o;
	int rc = tune_opts_parse(a->cmd->family, a, &o);
	if (rc != 0)
		return rc;
	rc = tune_run(a->cmd->family, &o, NULL);
	tune_opts_free(&o);
	return rc;
}

static void help_family(const struct cmd_entry *cmd, FILE *f)
{
	family_print_params(cmd->family, f);
	if (cmd->family->strategy == STRATEGY_EXHAUSTIVE)
		fputs("\nBy default every variant of the space is measured (--strategy exhaustive).\n", f);
	else
		fprintf(f, "\nBy default the space is walked by a %s search, %d variants a size.\n",
			strategy_name(cmd->family->strategy), cmd->family->budget);
	fprintf(f, "`gputune validate %s` holds out, by default: %s.\n", cmd->family->name, cmd->family->validate_sizes);
	if (cmd->family->command_help)
		fprintf(f, "\n%s", cmd->family->command_help);
}

const struct cmd_entry *const *cmd_family_entries(void)
{
	static struct cmd_entry entries[16];
	static const struct cmd_entry *list[ARRAY_SIZE(entries) + 1];
	if (list[0])
		return list;
	for (size_t i = 0; family_table[i]; i++) {
		if (i == ARRAY_SIZE(entries))
			die("more kernel families than cmd_family_entries has room for (%zu)", ARRAY_SIZE(entries));
		const struct family *f = family_table[i];
		entries[i] = (struct cmd_entry){
			.name = f->name,
			.summary = f->command_summary,
			.usage = "",
			.description = cmd_tune_description,
			.options = cmd_tune_options,
			.flags = CMD_NEEDS_GPU | CMD_USES_DB,
			.exec = exec_family,
			.extra_help = help_family,
			.family = f,
		};
		list[i] = &entries[i];
	}
	return list;
}
