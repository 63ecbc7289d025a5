/*
 * util.h - small helpers every part of gputune uses: messages on stderr,
 * allocation that never returns NULL, a growable string buffer, a 64-bit
 * hash, and number parsing that reports the offending text.
 */
#ifndef GPUTUNE_UTIL_H
#define GPUTUNE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes, documented in gputune(1) and docs/database.md. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,        /* the command ran and failed */
	EXIT_USAGE = 2,       /* bad command line */
	EXIT_NO_GPU = 3,      /* the command needs a GPU (or the driver) and has none */
	EXIT_INTERRUPTED = 130
};

#if defined(__GNUC__)
#define GT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define GT_NORETURN __attribute__((noreturn))
#else
#define GT_PRINTF(a, b)
#define GT_NORETURN
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "gputune: <message>" on stderr.  Returns EXIT_FAIL so callers can
 * write "return error(...)". */
int error(const char *fmt, ...) GT_PRINTF(1, 2);
/* What error() and the others write, for callers with their own
 * arguments: "gputune: " prefix message and a newline, with control bytes
 * other than newline and tab written as \xNN (ESC, BEL, CR and the like
 * from an argument or a file must not reach a terminal raw). */
void vreport(const char *prefix, const char *fmt, va_list ap);
/* The same message for functions whose contract is 0 or -1: returns -1. */
int fail(const char *fmt, ...) GT_PRINTF(1, 2);
void warning(const char *fmt, ...) GT_PRINTF(1, 2);
/* "gputune: MESSAGE" on stderr, escaped as every message is: what the
 * program does instead of what was asked, neither an error nor a doubt. */
void note(const char *fmt, ...) GT_PRINTF(1, 2);
GT_NORETURN void die(const char *fmt, ...) GT_PRINTF(1, 2);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* p, an array of n elements of size bytes that only this has grown (NULL
 * when n is 0), with room for element n: its capacity doubles each time n
 * reaches a power of two, so appending one at a time copies each element
 * a few times, not n times (under AddressSanitizer, whose realloc always
 * moves, 10,000 results one at a time took a minute). */
void *xgrow(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) GT_PRINTF(1, 2);

/* A NUL-terminated growable string.  Zero-initialise, append, free. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) GT_PRINTF(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Takes the buffer out of sb (never NULL) and resets sb. */
char *sb_detach(struct strbuf *sb);
void sb_free(struct strbuf *sb);

/* FNV-1a, 64 bits: cache keys and source hashes, not security. */
uint64_t hash64(const void *data, size_t n, uint64_t seed);
#define HASH64_SEED 0xcbf29ce484222325ULL
/* The 16 hex digits of h into out[17]. */
void hash64_hex(uint64_t h, char out[17]);
/* A well-mixed 64-bit value from (seed, i) (splitmix64's finaliser): the
 * inputs' generators, so that any range of an input can be made on its
 * own and the same on every run with that seed. */
uint64_t mix64(uint64_t seed, uint64_t i);

/* Parse a whole string as a decimal integer in [min, max].  Returns 0 on
 * success, -1 when s is empty, has trailing text or is out of range. */
int parse_long(const char *s, long min, long max, long *out);

/* Reads a whole file; returns NULL (errno set) on failure.  *len may be NULL. */
char *read_file(const char *path, size_t *len);
/* Writes data to path atomically (temporary file + rename).  0 or -1. */
int write_file_atomic(const char *path, const void *data, size_t len);
/* A command's output: to path atomically (-o FILE), or to standard output
 * when path is NULL or "-".  0, or -1 after reporting. */
int write_output(const char *path, const void *data, size_t len);
/* mkdir -p; 0 or -1 with errno set. */
int mkdir_p(const char *path);

/* Seconds from an arbitrary origin (CLOCK_MONOTONIC). */
double now_seconds(void);

#endif
