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

#include <stdint.h>
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

/* One stretch [from, to) of n instructions: printed if it is a round. */
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

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *p = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			char *q = realloc(p, cap = cap ? 2 * cap : 1 << 16);
			if (!q)
				break;
			p = q;
		}
		size_t r = fread(p + *len, 1, cap - *len, f);
		if (r == 0)
			break;
		*len += r;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(p);
		return NULL;
	}
	return p;
}

int main(int argc, char **argv)
{
	const char *kernel = "gputune_gemm";
	int files = 0, status = 0;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: sass-order CUBIN... [--kernel NAME]\n");
			return 2;
		}
	char section[256];
	if (snprintf(section, sizeof(section), ".text.%s", kernel) >= (int)sizeof(section)) {
		fprintf(stderr, "sass-order: kernel name '%s' is too long\n", kernel);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kernel")) {
			i++;
			continue;
		}
		files++;
		size_t len, size;
		char *image = slurp(argv[i], &len);
		if (!image) {
			fprintf(stderr, "sass-order: cannot read '%s'\n", argv[i]);
			status = 1;
			continue;
		}
		const unsigned char *code = cubin_section(image, len, section, &size);
		if (!code || size % 16) {
			/* A compile cache also holds the tuner's other kernels. */
			printf("%s: no %s\n", argv[i], section);
			free(image);
			continue;
		}
		printf("%s: %s, %zu instructions, %d registers\n", argv[i], kernel, size / 16,
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
	if (!files) {
		fprintf(stderr, "usage: sass-order CUBIN... [--kernel NAME]\n");
		return 2;
	}
	return status;
}
