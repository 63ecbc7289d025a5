/*
 * unit-cubin-regs.c - checks cubin_registers() against ptxas.  For each
 * CUDA source named on the command line (its kernel: gputune_<family>,
 * from $KERNEL), compiles it as gputune does (nvrtc_compile) and reads the
 * count from the image, then compiles it again with ptxas's report on and
 * reads "Used N registers" from the log: the two must agree.  Then every
 * cut of the image short of its end, and a few corrupted copies, must give
 * -1 or the same count, never a read past the image (run under
 * AddressSanitizer).  TAP output.
 */
#include "compile/cubin-regs.h"
#include "compile/nvrtc-compile.h"
#include "util/util.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ptxas's count for src's kernel, from its verbose report; -1 if none. */
static int ptxas_registers(const char *src, const char *arch, const char *kernel)
{
	char opt[64];
	snprintf(opt, sizeof(opt), "--gpu-architecture=%s", arch);
	const char *opts[] = { opt, "-std=c++17", "-default-device", "--ptxas-options=-v" };
	nvrtcProgram p;
	if (nvrtcCreateProgram(&p, src, "variant.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
		return -1;
	int regs = -1;
	size_t n = 0;
	if (nvrtcCompileProgram(p, 4, opts) == NVRTC_SUCCESS && nvrtcGetProgramLogSize(p, &n) == NVRTC_SUCCESS) {
		char *log = malloc(n + 1);
		if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS) {
			log[n] = '\0';
			/* The report names the kernel on one line and its use after. */
			const char *k = strstr(log, kernel), *u = k ? strstr(k, "Used ") : NULL;
			if (u && sscanf(u, "Used %d registers", &regs) != 1)
				regs = -1;
		}
		free(log);
	}
	nvrtcDestroyProgram(&p);
	return regs;
}

int main(int argc, char **argv)
{
	const char *arch = getenv("ARCH") ? getenv("ARCH") : "sm_90";
	const char *kernel = getenv("KERNEL") ? getenv("KERNEL") : "gputune_transpose";
	int bad = 0, t = 0;
	for (int i = 1; i < argc; i++) {
		char *src = read_file(argv[i], NULL), *cubin = NULL, *log = NULL;
		size_t len = 0;
		if (!src || nvrtc_compile(src, argv[i], arch, &cubin, &len, &log) != COMPILE_OK) {
			printf("not ok %d - %s: does not compile\n%s\n", ++t, argv[i], log ? log : "");
			bad = 1;
			free(src);
			free(log);
			continue;
		}
		int got = cubin_registers(cubin, len, kernel), want = ptxas_registers(src, arch, kernel);
		if (got > 0 && got == want) {
			printf("ok %d - %s: %d registers, as ptxas reports\n", ++t, argv[i], got);
		} else {
			printf("not ok %d - %s: read %d registers, ptxas reports %d\n", ++t, argv[i], got, want);
			bad = 1;
		}
		if (cubin_registers(cubin, len, "no_such_kernel") != -1) {
			printf("not ok %d - %s: a kernel it does not hold has a count\n", ++t, argv[i]);
			bad = 1;
		}
		/* Cut short: a copy of exactly the first n bytes, so that
		 * AddressSanitizer sees any read past them. */
		int cuts_bad = 0;
		for (size_t n = 0; n < len; n += n < 256 ? 1 : 61) {
			char *cut = malloc(n ? n : 1);
			memcpy(cut, cubin, n);
			int r = cubin_registers(cut, n, kernel);
			cuts_bad |= r != -1 && r != got;
			free(cut);
		}
		/* Corrupted: each of the first 128 bytes flipped in turn. */
		for (size_t k = 0; k < 128 && k < len; k++) {
			char *copy = malloc(len);
			memcpy(copy, cubin, len);
			copy[k] ^= (char)0xff;
			(void)cubin_registers(copy, len, kernel);
			free(copy);
		}
		printf("%s %d - %s: cut or corrupted images read within bounds\n", cuts_bad ? "not ok" : "ok", ++t, argv[i]);
		bad |= cuts_bad;
		free(src);
		free(cubin);
		free(log);
	}
	printf("1..%d\n", t);
	return bad;
}
