/*
 * host-runner.h - the main loop of the host runners (tests/FAMILY-host.cc):
 * every variant at every size on the command line, one line each,
 * "right NAME SIZE" or "wrong NAME SIZE: what".  The caller judges the
 * lines (the runner injects faults into some variants on purpose:
 * host_inject).  And the buffers they
 * check, with guard bytes around them.
 */
#ifndef GPUTUNE_HOST_RUNNER_H
#define GPUTUNE_HOST_RUNNER_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

/* Fills p[0..n) with bytes of a xorshift generator seeded by seed. */
static inline void host_fill(unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t s = seed | 1;
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		p[i] = (unsigned char)s;
	}
}

/* A buffer of n bytes starting shift bytes past a 256-byte boundary (as
 * cudaMalloc's are, plus the shift), with 256 guard bytes on each side. */
struct host_buffer {
	static constexpr size_t GUARD = 256;
	static constexpr unsigned char GUARD_BYTE = 0xa5;
	std::vector<unsigned char> store;
	unsigned char *p;
	size_t n;
	host_buffer(size_t bytes, size_t shift) : store(256 + GUARD + shift + bytes + GUARD, GUARD_BYTE), n(bytes)
	{
		const uintptr_t a = (uintptr_t)store.data();
		p = (unsigned char *)((a + 255) / 256 * 256) + GUARD + shift;
	}
	/* Where a guard byte changed: -k for the k-th byte before the
	 * buffer, +k for the k-th past it, 0 for none. */
	long guard_hit() const
	{
		for (size_t k = 1; k <= GUARD; k++) {
			if (p[-(long)k] != GUARD_BYTE)
				return -(long)k;
			if (p[n + k - 1] != GUARD_BYTE)
				return (long)k;
		}
		return 0;
	}
	/* "" when the guards are whole, else what was written where. */
	std::string guard_text(const char *what) const
	{
		const long k = guard_hit();
		if (!k)
			return "";
		char buf[96];
		std::snprintf(buf, sizeof buf, "wrote the byte %ld %s %s", k < 0 ? -k : k, k < 0 ? "before" : "past",
			      what);
		return buf;
	}
};

/* The transpose's and the copy's sizes: RxC, or RxC+K with the buffers K
 * elements past an aligned address. */
struct host_matrix {
	unsigned rows, cols, shift;
};

static inline bool host_parse_matrix(const char *arg, host_matrix *s)
{
	char extra;
	s->shift = 0;
	const int got = std::sscanf(arg, "%ux%u+%u%c", &s->rows, &s->cols, &s->shift, &extra);
	return got >= 2 && got <= 3 && s->rows > 0 && s->cols > 0;
}

/* The summing families' lengths: N, or N+K with the input K elements past
 * an aligned address; N at most 2^20. */
struct host_length {
	unsigned long long n;
	unsigned shift;
};

static inline bool host_parse_length(const char *arg, host_length *l)
{
	char extra;
	l->shift = 0;
	const int got = std::sscanf(arg, "%llu+%u%c", &l->n, &l->shift, &extra);
	return got >= 1 && got <= 2 && l->n <= (1ull << 20);
}

/* An accumulator of `bytes` bytes at p as a long double: a 32-bit unsigned
 * (integer), a float or a double. */
static inline long double host_acc_value(bool integer, size_t bytes, const unsigned char *p)
{
	if (integer) {
		uint32_t u;
		std::memcpy(&u, p, 4);
		return u;
	}
	if (bytes == 4) {
		float f;
		std::memcpy(&f, p, 4);
		return f;
	}
	double d;
	std::memcpy(&d, p, 8);
	return d;
}

/* The fault a variant's name asks the runner to inject (the test-only
 * parameter inject, tests/faults/README): 0 none, 1 wrong, 2 fault, 3
 * overrun.  The templates have no faults of their own: the runner puts
 * them around its call of the template, as the tests' patched templates
 * do on a GPU, so that each runner's checks are shown to catch them. */
static inline int host_inject(const char *name)
{
	static const char *const kinds[] = { "inject=wrong", "inject=fault", "inject=overrun" };
	for (int k = 0; k < 3; k++) {
		const char *at = std::strstr(name, kinds[k]);
		const size_t len = std::strlen(kinds[k]);
		if (at && (at[len] == '\0' || at[len] == ','))
			return k + 1;
	}
	return 0;
}

/* A variant that moves a matrix of elements of `bytes` bytes: fn runs it,
 * returning NULL or what went wrong in the launch. */
struct host_matrix_variant {
	const char *name;
	size_t bytes;
	const char *(*fn)(const void *in, void *out, unsigned rows, unsigned cols);
};

/* parse reads one size argument (false when malformed); check runs one
 * variant at it and returns what is wrong, or an empty string.  Exit 2 on
 * bad usage, else 0 once every line is printed. */
template <typename Size, typename Variant, size_t N>
int host_main(int argc, char **argv, const char *usage, bool (*parse)(const char *, Size *),
	      std::string (*check)(const Variant &, const Size &), const Variant (&variants)[N])
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s %s...\n", argv[0], usage);
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		Size s;
		if (!parse(argv[a], &s)) {
			std::fprintf(stderr, "%s: bad size '%s' (%s)\n", argv[0], argv[a], usage);
			return 2;
		}
		for (const Variant &v : variants) {
			const std::string why = check(v, s);
			if (why.empty())
				std::printf("right %s %s\n", v.name, argv[a]);
			else
				std::printf("wrong %s %s: %s\n", v.name, argv[a], why.c_str());
			std::fflush(stdout);
		}
	}
	return 0;
}

#endif /* GPUTUNE_HOST_RUNNER_H */
