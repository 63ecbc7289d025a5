/*
 * nvrtc-compile.h - one CUDA source to one CUBIN with NVRTC, in process.
 * Parallel compilation happens in worker processes (compile-pool.h),
 * because NVRTC barely scales with threads inside one process.
 */
#ifndef GPUTUNE_NVRTC_COMPILE_H
#define GPUTUNE_NVRTC_COMPILE_H

#include <stddef.h>

enum compile_status {
	COMPILE_OK = 0,
	COMPILE_ERROR = 1,    /* the source does not compile: see the log */
	COMPILE_INTERNAL = 2  /* NVRTC itself failed (not cached: may pass next time) */
};

/* "13.0". */
const char *nvrtc_version_string(void);

/* Whether NVRTC can target arch ("sm_90").  When not, the list it can
 * target goes to supported, comma-separated (caller frees). */
int nvrtc_arch_supported(const char *arch, char **supported);

/*
 * Compiles src (its name in messages: name) for arch.  On COMPILE_OK
 * *cubin and *len hold the image (caller frees); otherwise *log holds the
 * compiler's log or the failure (caller frees).
 */
int nvrtc_compile(const char *src, const char *name, const char *arch,
		  char **cubin, size_t *len, char **log);

/* The NVRTC options for arch, as one string (part of the cache key). */
char *nvrtc_options_string(const char *arch);

#endif
