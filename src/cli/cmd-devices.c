/*
 * cmd-devices.c - `gputune devices`: the GPUs this process can see (the
 * driver applies CUDA_VISIBLE_DEVICES), with the figures tuning depends on.
 */
#include "cli/cmd.h"
#include "gpu/gpu.h"
#include "util/table.h"
#include "util/util.h"

#include <stdio.h>

static const struct cmd_option options[] = { OPT_FORMAT, OPT_END };

static const struct table_col cols[] = {
	{ "index", 1 }, { "name", 0 }, { "cc", 0 }, { "sms", 1 }, { "memory_mib", 1 },
	{ "l2_kib", 1 }, { "peak_gbps", 1 }, { "uuid", 0 },
};

static int exec_devices(struct args *a)
{
	int fmt = args_format(a);
	if (fmt < 0)
		return EXIT_USAGE;
	int r = gpu_require("devices", 0, NULL);
	if (r)
		return r;
	int n = gpu_count();
	struct table t;
	table_init(&t, cols, (int)ARRAY_SIZE(cols));
	for (int i = 0; i < n; i++) {
		struct gpu_info g;
		if (gpu_query(i, &g) < 0) {
			table_free(&t);
			return EXIT_FAIL;
		}
		char idx[16], cc[16], sms[16], mem[32], l2[32], bw[32];
		snprintf(idx, sizeof(idx), "%d", g.index);
		snprintf(cc, sizeof(cc), "%d.%d", g.cc_major, g.cc_minor);
		snprintf(sms, sizeof(sms), "%d", g.sm_count);
		snprintf(mem, sizeof(mem), "%zu", g.mem_bytes >> 20);
		snprintf(l2, sizeof(l2), "%d", g.l2_bytes >> 10);
		snprintf(bw, sizeof(bw), "%.0f", gpu_peak_gbps(&g));
		const char *cells[] = { idx, g.name, cc, sms, mem, l2, bw, g.uuid };
		table_add(&t, cells);
	}
	table_print(&t, fmt, stdout);
	table_free(&t);
	return EXIT_OK;
}

const struct cmd_entry cmd_devices_entry = {
	.name = "devices",
	.summary = "list the visible GPUs",
	.usage = "",
	.description = "Lists each GPU the CUDA driver makes visible (CUDA_VISIBLE_DEVICES applies):\n"
		       "index, name, compute capability, SM count, memory, L2 size, theoretical\n"
		       "memory bandwidth (memory clock x bus width x 2) and UUID.",
	.options = options,
	.flags = CMD_NEEDS_GPU,
	.exec = exec_devices,
};
