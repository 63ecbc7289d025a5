/*
 * sass-order.c - where a matrix-multiply kernel's global loads sit in its
 * rounds, read from the machine code of its CUBIN, on a machine with no
 * disassembler.  A round loads the next tiles from global memory into
 * registers, multiplies the current ones (thousands of FFMAs), stores
 * the loaded ones into shared memory and waits at a barrier; the loads
 * are hidden only as far as FFMAs follow them before the stores.  ptxas
 * decides that, not the source: it can move a round's loads down to just
 * before their stores to save registers.
 *
 * sm_90's instructions are 16 bytes each; the low 12 bits of the first 8
 * (little-endian) name the operation: 0x223 FFMA, 0x981 LDG (a global
 * load), 0xb1d BAR.  Each stretch between two barriers that holds LDGs
 * and at least 256 FFMAs (a round of the main loop) is printed with the
 * FFMAs that follow each of its LDGs up to the barrier.  A round's FFMA
 * count is the template's own (BK x the thread's outputs), which checks
 * the reading.
 *
 * usage: sass-order CUBIN... [--kernel NAME]   (default gputune_gemm;
 *        `gputune gemm --dry-run --arch sm_90 --cache-dir DIR --param ...`
 *        leaves one CUBIN a variant in DIR)
 */
#define _POSIX_C_SOURCE 200809L
#include "../src/compile/cubin-regs.h"
#include "../src/util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_FFMA 0x223
#define OP_LDG 0x981
#define OP_BAR 0xb1d
#define ROUND_FFMAS 256

static unsigned op(const unsigned char *code, size_t i)
{
	const unsigned char *w = code + 16 * i;
	return (unsigned)(w[0] | (w[1] << 8)) & 0xfff;
}

/* The instructions [from, to) between two barriers: printed if they are a round. */
static void stretch(const unsigned char *code, size_t from, size_t to)
{
	size_t ffma = 0, ldg = 0;
	for (size_t i = from; i < to; i++) {
		ffma += op(code, i) == OP_FFMA;
		ldg += op(code, i) == OP_LDG;
	}
	if (ffma < ROUND_FFMAS || ldg == 0)
		return;
	printf("  instructions %zu-%zu: %zu FFMA, %zu LDG; FFMAs after each LDG:", from, to, ffma, ldg);
	size_t after = ffma;
	for (size_t i = from; i < to; i++) {
		after -= op(code, i) == OP_FFMA;
		if (op(code, i) == OP_LDG)
			printf(" %zu", after);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *kernel = "gputune_gemm";
	const char **files = xcalloc((size_t)argc, sizeof(*files));
	int nfiles = 0, status = 0;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (argv[i][0] == '-')
			nfiles = -1;
		else if (nfiles >= 0)
			files[nfiles++] = argv[i];
	if (nfiles <= 0) {
		fprintf(stderr, "usage: sass-order CUBIN... [--kernel NAME]\n");
		free(files);
		return 2;
	}
	char *section = xasprintf(".text.%s", kernel);
	for (int i = 0; i < nfiles; i++) {
		size_t len, size;
		char *image = read_file(files[i], &len);
		if (!image) {
			fprintf(stderr, "sass-order: cannot read '%s'\n", files[i]);
			status = 1;
			continue;
		}
		const unsigned char *code = cubin_section(image, len, section, &size);
		if (!code || size % 16) {
			/* A compile cache also holds the tuner's other kernels. */
			printf("%s: no %s\n", files[i], section);
			free(image);
			continue;
		}
		printf("%s: %s, %zu instructions, %d registers\n", files[i], kernel, size / 16,
		       cubin_registers(image, len, kernel));
		size_t from = 0, n = size / 16;
		for (size_t k = 0; k < n; k++)
			if (op(code, k) == OP_BAR) {
				stretch(code, from, k);
				from = k + 1;
			}
		stretch(code, from, n);
		free(image);
	}
	free(section);
	free(files);
	return status;
}
