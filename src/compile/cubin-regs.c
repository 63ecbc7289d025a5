/*
 * cubin-regs.c - a kernel's register count from its CUBIN.
 *
 * A CUBIN is a 64-bit little-endian ELF file.  Its .nv.info section is a
 * list of attributes, each a byte of format, a byte of kind and two bytes
 * that hold either a small value or, for the format with a payload (4),
 * the payload's length; the register count is the attribute of kind 0x2f,
 * whose payload is the kernel's symbol index and the count, 32 bits each.
 * The symbol index is that of the kernel's name in .symtab.  Nothing in
 * the image is trusted: every offset is checked against its length, since
 * the image may come from a cache file that was cut short.  The same walk
 * gives a section's bytes by name (a kernel's machine code is in
 * .text.NAME), which bench/sass-order reads.
 */
#include "compile/cubin-regs.h"

#include <stdint.h>
#include <string.h>

#define NV_INFO_REGCOUNT 0x2f
#define NV_INFO_FORMAT_PAYLOAD 4
#define SHT_SYMTAB 2

struct elf {
	const unsigned char *p;
	size_t len;
};

static int in_range(const struct elf *e, uint64_t off, uint64_t n)
{
	return off <= e->len && n <= e->len - off;
}

static uint64_t rd(const struct elf *e, uint64_t off, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | e->p[off + (uint64_t)i];
	return v;
}

struct section {
	uint64_t name, type, off, size, link, entsize;
};

static int section(const struct elf *e, unsigned i, struct section *s)
{
	uint64_t shoff = rd(e, 0x28, 8), entsize = rd(e, 0x3a, 2);
	uint64_t at = shoff + (uint64_t)i * entsize;
	if (entsize < 0x40 || !in_range(e, at, 0x40))
		return -1;
	s->name = rd(e, at, 4);
	s->type = rd(e, at + 4, 4);
	s->off = rd(e, at + 0x18, 8);
	s->size = rd(e, at + 0x20, 8);
	s->link = rd(e, at + 0x28, 4);
	s->entsize = rd(e, at + 0x38, 8);
	return 0;
}

/* Whether s's bytes lie in the image (sections without any, such as the
 * shared-memory ones, need not). */
static int has_bytes(const struct elf *e, const struct section *s)
{
	return in_range(e, s->off, s->size);
}

/* Whether the NUL-terminated string at off of section strtab is name. */
static int string_is(const struct elf *e, const struct section *strtab, uint64_t off, const char *name)
{
	size_t n = strlen(name);
	if (!has_bytes(e, strtab) || off > strtab->size || strtab->size - off < n + 1)
		return 0;
	return memcmp(e->p + strtab->off + off, name, n + 1) == 0;
}

/* Whether image[0..len) starts as a 64-bit little-endian ELF file. */
static int is_elf64(const void *image, size_t len)
{
	static const unsigned char magic[] = { 0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little-endian */ };
	return len >= 0x40 && memcmp(image, magic, sizeof(magic)) == 0;
}

const unsigned char *cubin_section(const void *image, size_t len, const char *name, size_t *size)
{
	const struct elf e = { image, len };
	*size = 0;
	if (!is_elf64(image, len))
		return NULL;
	unsigned shnum = (unsigned)rd(&e, 0x3c, 2), shstrndx = (unsigned)rd(&e, 0x3e, 2);
	struct section names, s;
	if (shstrndx >= shnum || section(&e, shstrndx, &names) < 0)
		return NULL;
	for (unsigned i = 0; i < shnum; i++) {
		if (section(&e, i, &s) < 0)
			return NULL;
		if (string_is(&e, &names, s.name, name) && has_bytes(&e, &s)) {
			*size = (size_t)s.size;
			return e.p + s.off;
		}
	}
	return NULL;
}

int cubin_registers(const void *image, size_t len, const char *name)
{
	const struct elf e = { image, len };
	if (!is_elf64(image, len))
		return -1;
	unsigned shnum = (unsigned)rd(&e, 0x3c, 2);
	/* The kernel's symbol index, and the attributes. */
	long long sym = -1;
	for (unsigned i = 0; i < shnum; i++) {
		struct section s, strtab;
		if (section(&e, i, &s) < 0)
			return -1;
		if (s.type != SHT_SYMTAB || s.entsize < 24 || !has_bytes(&e, &s) || s.link >= shnum ||
		    section(&e, (unsigned)s.link, &strtab) < 0)
			continue;
		for (uint64_t k = 0; k < s.size / s.entsize && sym < 0; k++)
			if (string_is(&e, &strtab, rd(&e, s.off + k * s.entsize, 4), name))
				sym = (long long)k;
	}
	size_t info_size;
	const unsigned char *info = cubin_section(image, len, ".nv.info", &info_size);
	if (sym < 0 || !info)
		return -1;
	const uint64_t start = (uint64_t)(info - e.p), end = start + info_size;
	for (uint64_t at = start; at + 4 <= end;) {
		unsigned format = e.p[at], kind = e.p[at + 1], n = (unsigned)rd(&e, at + 2, 2);
		at += 4;
		if (format != NV_INFO_FORMAT_PAYLOAD)
			continue;
		if (n > end - at)
			return -1;
		if (kind == NV_INFO_REGCOUNT && n == 8 && rd(&e, at, 4) == (uint64_t)sym)
			return (int)rd(&e, at + 4, 4);
		at += n;
	}
	return -1;
}
