/*
 * cubin-regs.h - the registers a kernel of a CUBIN uses, read from the
 * image itself, so that an export on a machine with no GPU knows how many
 * registers NVRTC gave each variant it measured.
 */
#ifndef GPUTUNE_CUBIN_REGS_H
#define GPUTUNE_CUBIN_REGS_H

#include <stddef.h>

/* Registers per thread of kernel `name` in the CUBIN image[0..len), or -1
 * when the image is not a 64-bit ELF holding that count for that kernel. */
int cubin_registers(const void *image, size_t len, const char *name);

/* The bytes of the section called name (".text.gputune_gemm": that
 * kernel's machine code) in the CUBIN image[0..len), their count in
 * *size; NULL (and 0) when the image is not a 64-bit ELF holding it whole. */
const unsigned char *cubin_section(const void *image, size_t len, const char *name, size_t *size);

#endif
