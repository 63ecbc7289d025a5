/*
 * nvrtc-compile.c - see nvrtc-compile.h.
 */
#include "compile/nvrtc-compile.h"
#include "util/util.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *nvrtc_version_string(void)
{
	static char buf[32];
	int major = 0, minor = 0;
	if (!buf[0]) {
		if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
			snprintf(buf, sizeof(buf), "%d.%d", major, minor);
		else
			snprintf(buf, sizeof(buf), "unknown");
	}
	return buf;
}

int nvrtc_arch_supported(const char *arch, char **supported)
{
	int n = 0;
	*supported = NULL;
	if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
		return 0;
	int *archs = xcalloc((size_t)n, sizeof(int));
	nvrtcGetSupportedArchs(archs);
	long want = -1;
	if (!strncmp(arch, "sm_", 3))
		parse_long(arch + 3, 1, 10000, &want);
	int ok = 0;
	struct strbuf sb = {0};
	for (int i = 0; i < n; i++) {
		ok |= archs[i] == want;
		sb_printf(&sb, "%ssm_%d", i ? "," : "", archs[i]);
	}
	free(archs);
	if (ok)
		sb_free(&sb);
	else
		*supported = sb_detach(&sb);
	return ok;
}

/* The options, in one place so that the cache key and the compile agree. */
static int build_options(const char *arch, char opts[][64], const char **ptrs)
{
	snprintf(opts[0], 64, "--gpu-architecture=%s", arch);
	snprintf(opts[1], 64, "-std=c++17");
	snprintf(opts[2], 64, "-default-device");
	for (int i = 0; i < 3; i++)
		ptrs[i] = opts[i];
	return 3;
}

char *nvrtc_options_string(const char *arch)
{
	char opts[4][64];
	const char *ptrs[4];
	int n = build_options(arch, opts, ptrs);
	struct strbuf sb = {0};
	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", ptrs[i]);
	return sb_detach(&sb);
}

int nvrtc_compile(const char *src, const char *name, const char *arch,
		  char **cubin, size_t *len, char **log)
{
	*cubin = NULL;
	*log = NULL;
	*len = 0;
	nvrtcProgram prog;
	nvrtcResult r = nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		*log = xasprintf("nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
		return COMPILE_INTERNAL;
	}
	char opts[4][64];
	const char *ptrs[4];
	int nopts = build_options(arch, opts, ptrs);
	r = nvrtcCompileProgram(prog, nopts, ptrs);
	size_t loglen = 0;
	nvrtcGetProgramLogSize(prog, &loglen);
	char *text = xcalloc(loglen + 1, 1);
	if (loglen > 1)
		nvrtcGetProgramLog(prog, text);
	int status = COMPILE_OK;
	if (r == NVRTC_ERROR_COMPILATION) {
		status = COMPILE_ERROR;
		*log = text;
		text = NULL;
	} else if (r != NVRTC_SUCCESS) {
		status = COMPILE_INTERNAL;
		*log = xasprintf("nvrtcCompileProgram: %s\n%s", nvrtcGetErrorString(r), text);
	} else {
		size_t n = 0;
		r = nvrtcGetCUBINSize(prog, &n);
		if (r != NVRTC_SUCCESS || n == 0) {
			status = COMPILE_INTERNAL;
			*log = xasprintf("nvrtcGetCUBINSize: %s", nvrtcGetErrorString(r));
		} else {
			*cubin = xmalloc(n);
			nvrtcGetCUBIN(prog, *cubin);
			*len = n;
		}
	}
	free(text);
	nvrtcDestroyProgram(&prog);
	return status;
}
