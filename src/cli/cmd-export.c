/*
 * cmd-export.c - `gputune export`: tuned results for other builds, as a
 * header (`--format header`) or JSON (`--format json`, which
 * `gputune db merge` reads back and which db/shipped.json is made of).
 */
#define _POSIX_C_SOURCE 200809L
#include "export/choice.h"
#include "cli/cmd.h"
#include "cli/cmd-tune.h"
#include "compile/compile-pool.h"
#include "db/db.h"
#include "export/export.h"
#include "families/family.h"
#include "compile/render.h"
#include "db/results.h"
#include "tune/tune.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cmd_option options[] = {
	{ "kernel", "FAMILY", "the kernel family (needed for a header; JSON: default all)", 0, 0 },
	{ "device", "NAME|UUID|INDEX", "only this device (default: every tuned device)", 0, 0 },
	{ "dtype", "TYPE", "only this element type (default: all)", 0, 0 },
	{ "mode", "MODE", "timing mode: flushed (default) or hot", 0, 0 },
	{ "format", "FMT", "header (default) or json", 0, 0 },
	OPT_OUTPUT,
	{ "no-shipped", NULL, "leave out the results shipped with gputune", 0, 0 },
	{ "split", NULL, "a header: write what builds include to FILE.h (-o) and the kernels, compiled once, to FILE.cu beside it", 0, 0 },
	{ "allow-untuned", NULL, "write even where nothing is tuned for the selection (a header then holds only each element type's default configuration)", 0, 0 },
	{ "every", NULL, "JSON: every variant's latest measurement in your database (wrong and failed ones too), with the runs' conditions and held-out points, not only the candidates", 0, 0 },
	TUNE_OPT_TEMPLATES,
	TUNE_OPT_CACHE_DIR,
	OPT_DB,
	OPT_END
};

static int exec_export(struct args *a)
{
	const char *fmt = args_get(a, "format");
	int json = fmt && !strcmp(fmt, "json");
	if (fmt && !json && strcmp(fmt, "header"))
		return cmd_usage_error(a->cmd, "export: unknown format '%s' (header or json)", fmt);
	const char *kernel = args_get(a, "kernel");
	const struct family *fam = kernel ? cmd_family_arg(a->cmd, "kernel", kernel) : NULL;
	if (kernel && !fam)
		return EXIT_USAGE;
	if (!fam && !json)
		return cmd_usage_error(a->cmd, "export: a header needs --kernel FAMILY");
	if (args_has(a, "every") && !json)
		return cmd_usage_error(a->cmd, "export: --every is for --format json");
	const char *output = args_get(a, "output");
	int split = args_has(a, "split");
	if (split && json)
		return cmd_usage_error(a->cmd, "export: --split is for headers, not --format json");
	size_t olen = output ? strlen(output) : 0;
	if (split && (olen < 3 || strcmp(output + olen - 2, ".h")))
		return cmd_usage_error(a->cmd, "export: --split needs -o FILE.h (the kernels go to FILE.cu)%s%s%s",
				       output ? "; got '" : "", output ? output : "", output ? "'" : "");
	const char *dtype = args_get(a, "dtype");
	if (dtype && !dtype_find(dtype))
		return cmd_usage_error(a->cmd, "export: unknown dtype '%s' (f32, f64, f16, i32)", dtype);
	const char *mode = args_get(a, "mode");
	if (!mode)
		mode = "flushed";
	if (strcmp(mode, "flushed") && strcmp(mode, "hot"))
		return cmd_usage_error(a->cmd, "export: unknown mode '%s' (flushed or hot)", mode);
	struct result_filter flt = { args_get(a, "device"), fam ? family_store_name(fam) : NULL, dtype, mode,
				     args_has(a, "no-shipped") };
	char *path = db_path_from(args_get(a, "db"));
	struct choice_set cs;
	int rc = choice_load(path, &flt, templates_dir_from(args_get(a, "templates")), &cs);
	sqlite3 *every = NULL;
	if (rc == 0 && args_has(a, "every") && db_open(path, DB_MISSING_OK, &every) < 0) {
		choice_free(&cs);
		rc = -1;
	}
	free(path);
	if (rc < 0)
		return EXIT_FAIL;
	if (cs.winners.n == 0 && !args_has(a, "allow-untuned")) {
		const char *device = args_get(a, "device");
		error("export: nothing is tuned for %s%s%s%s%s in %s: tune first (gputune %s), or give --allow-untuned "
		      "for %s", kernel ? kernel : "any kernel", dtype ? " " : "", dtype ? dtype : "",
		      device ? " on " : "", device ? device : "",
		      flt.no_shipped ? "your database" : "your database or the shipped results",
		      kernel ? kernel : "FAMILY",
		      json ? "an empty document" : "a header with only the default configuration");
		choice_free(&cs);
		db_close(every);
		return EXIT_FAIL;
	}
	char *buf = NULL, *cubuf = NULL;
	size_t len = 0, culen = 0;
	FILE *mem = open_memstream(&buf, &len), *cumem = split ? open_memstream(&cubuf, &culen) : NULL;
	if (!mem || (split && !cumem))
		die("open_memstream: %s", strerror(errno));
	/* Split: FILE.cu beside FILE.h, which it includes by its base name. */
	char *cu_path = split ? xasprintf("%.*scu", (int)(olen - 1), output) : NULL;
	if (json) {
		rc = export_json(mem, &cs, every, &flt);
	} else {
		char *cache_dir = cache_dir_from(args_get(a, "cache-dir"));
		const char *hb = output ? strrchr(output, '/') : NULL, *cb = cu_path ? strrchr(cu_path, '/') : NULL;
		const char *names[2] = { hb ? hb + 1 : output, cb ? cb + 1 : cu_path };
		rc = export_header(mem, cumem, names, fam, &cs, mode, templates_dir_from(args_get(a, "templates")),
				   cache_dir);
		free(cache_dir);
	}
	fclose(mem);
	if (cumem)
		fclose(cumem);
	choice_free(&cs);
	db_close(every);
	/* The .cu first: a header on disk always has its kernels beside it. */
	if (rc == 0 && split)
		rc = write_output(cu_path, cubuf, culen);
	if (rc == 0)
		rc = write_output(output, buf, len);
	free(cu_path);
	free(buf);
	free(cubuf);
	return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.summary = "write tuned kernels as a C/CUDA header, or results as JSON",
	.usage = "",
	.description = "A header holds every measured size per device and element type with its\n"
		       "winner, the candidates measured at all of those sizes (but any measured for\n"
		       "only part of what the rest share: a search's, a sample's, which answer at\n"
		       "themselves alone) with each one's share of each size's best, the rule that\n"
		       "chooses from them at any size, the kernel template once (as text for NVRTC,\n"
		       "with per-variant #defines, and under nvcc as code, instantiated per variant)\n"
		       "and a launch helper.  It needs neither gputune nor its templates.  A\n"
		       "template can be written so that nvcc and NVRTC of one CUDA Toolkit build\n"
		       "it to the same code (tests/t1018 holds a template to that); a compiler\n"
		       "of another version can give a\n"
		       "kernel more registers than NVRTC gave it when gputune measured it, and so\n"
		       "fewer blocks per SM: export takes the register count the tuner stored\n"
		       "with each measurement (runs before schema version 6 stored none: those\n"
		       "variants it compiles with NVRTC, through the compile cache), and\n"
		       "instantiates each kernel twice:\n"
		       "bounded to the blocks per SM that count allows (the second argument of\n"
		       "__launch_bounds__), and declared as the kernel gputune measured (no second\n"
		       "argument).\n"
		       "The launch helper runs the latter unless it fits fewer blocks per SM,\n"
		       "or the bound made it keep values in local memory.  Where the compile cache\n"
		       "cannot be created, export says so and writes the unbounded builds alone.\n"
		       "A variant that moves its tile with the tensor copy engine takes the\n"
		       "tensor maps of its buffers as a fifth argument: a header holding one\n"
		       "carries their builder (src/families/tensor-maps.h; the driver's encoder through\n"
		       "the CUDA runtime), and its launch helper builds them, keeping the last 8\n"
		       "buffers' maps of each thread.  The template's optional paths (its\n"
		       "regions between `{PARAM` and `PARAM}` lines) are in a header only where\n"
		       "one of its variants takes them.\n"
		       "\n"
		       "The rule (src/export/choice-rule.h, copied into the header): a measured size\n"
		       "answers with its winner.  Otherwise what matters most is the row alignment,\n"
		       "the largest power of two dividing rows x element bytes, capped at 32 (it\n"
		       "decides which store paths a variant takes and how many 32-byte sectors its\n"
		       "warps split).  The measured sizes of the same row alignment are the\n"
		       "evidence; of them, where there are any, only those whose columns are odd\n"
		       "if the size's are, or not if not.  Each candidate scores the sum of its\n"
		       "shares over the evidence weighted by 1 / (0.1 + d)^2, d being\n"
		       "|ln area ratio| + 0.5 |ln aspect ratio| + 0.5 for each halving or doubling\n"
		       "between the column alignments (capped at 16 bytes, the widest load), + 3\n"
		       "more when one has odd columns and the other not (odd columns allow no\n"
		       "vector loads and no pairs); the best score wins.\n"
		       "With no measured size of that alignment, the candidate with the best worst\n"
		       "case over all sizes wins.  A vector length N is the size N x 1 to the rule\n"
		       "(its alignment: N x element bytes).  A matrix product M x N x K is rows M,\n"
		       "cols N and a depth K to the rule: its row alignment is K's (A's rows are K\n"
		       "long, and K decides A's 16-byte loads), its column alignment N's, its area\n"
		       "the volume M N K, and d adds 0.5 |ln ratio of K / N|; its sizes of odd N\n"
		       "and of even N are evidence for each other (at the + 3), and each share is\n"
		       "scaled by the candidate's fill of the SMs at the size asked over its fill\n"
		       "at that size (its blocks over the turns of the busiest SM, a turn as many\n"
		       "blocks as an SM holds at once by the registers the tuner stored, a turn\n"
		       "of c blocks of w warps running at min(1, c w / 8)^0.5 of an SM's rate, as\n"
		       "an SM needs about eight warps to keep busy), and by the share of its\n"
		       "tiles of C that lie inside C there over that share at that size.  A device is matched\n"
		       "by name, else by compute capability; with neither, the family's classic\n"
		       "kernel.  A tuning run measures extra sizes of every alignment so the rule\n"
		       "has evidence (see a tuning command's help); `gputune validate` measures how\n"
		       "well it holds.\n"
		       "\n"
		       "Where the evidence is thin (f16 at odd sizes, whose leading variants trade\n"
		       "places from one size to the next), the rule's first choice can miss.  So the\n"
		       "header also ranks: gputune_KERNEL_candidates() gives the rule's best few\n"
		       "in order, the second of them the best of another code path (the template's\n"
		       "optional regions a variant takes, gputune_KERNEL_paths[]: where the evidence\n"
		       "near a size is thin, the path it favours may not be the one that wins\n"
		       "there), and under nvcc gputune_KERNEL_calibrate() (families without scratch)\n"
		       "times the GPUTUNE_KERNEL_CALIBRATE best (default 4) on the caller's buffers\n"
		       "at a size, each five times after an L2 flush, and returns the fastest for\n"
		       "the caller to keep for that size; `gputune validate` reports both the\n"
		       "choice and what calibration picks.\n"
		       "\n"
		       "JSON holds the winners and the candidates' measurements and goes\n"
		       "back in with `gputune db merge`.  Results come from your database and from\n"
		       "those shipped with gputune (yours win).",
	.options = options,
	.flags = CMD_USES_DB,
	.exec = exec_export,
};
