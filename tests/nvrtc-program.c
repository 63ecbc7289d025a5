/*
 * nvrtc-program.c - test helper: compiles each CUDA program file named on
 * the command line with NVRTC, as gputune does (-std=c++17, for the
 * architecture in $ARCH, default sm_90), so tests can check that what an
 * exported header hands to NVRTC compiles.  Prints one line per file;
 * exits 1 when any fails, with the log.
 */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	size_t r;
	while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap)
			s = realloc(s, cap *= 2);
	}
	fclose(f);
	if (s)
		s[n] = '\0';
	return s;
}

int main(int argc, char **argv)
{
	const char *arch = getenv("ARCH") ? getenv("ARCH") : "sm_90";
	char opt[64];
	snprintf(opt, sizeof(opt), "--gpu-architecture=%s", arch);
	const char *opts[] = { opt, "-std=c++17" };
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		char *src = slurp(argv[i]);
		nvrtcProgram p;
		if (!src || nvrtcCreateProgram(&p, src, argv[i], 0, NULL, NULL) != NVRTC_SUCCESS) {
			printf("not ok - %s: cannot read or create\n", argv[i]);
			bad = 1;
			free(src);
			continue;
		}
		nvrtcResult r = nvrtcCompileProgram(p, 2, opts);
		size_t n = 0;
		nvrtcGetProgramLogSize(p, &n);
		char *log = malloc(n + 1);
		if (log && n)
			nvrtcGetProgramLog(p, log);
		if (r == NVRTC_SUCCESS) {
			printf("ok - %s\n", argv[i]);
		} else {
			printf("not ok - %s: %s\n%s\n", argv[i], nvrtcGetErrorString(r), log ? log : "");
			bad = 1;
		}
		free(log);
		free(src);
		nvrtcDestroyProgram(&p);
	}
	return bad;
}
