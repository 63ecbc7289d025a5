/*
 * gpu.c - device discovery on top of the run-time loaded driver.
 */
#define _POSIX_C_SOURCE 200809L
#include "gpu/gpu.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

double gpu_peak_gbps(const struct gpu_info *g)
{
	return 2.0 * (double)g->mem_clock_khz * 1e3 * (double)g->bus_width_bits / 8.0 / 1e9;
}

int gpu_count(void)
{
	int n = 0;
	if (CU(cu.DeviceGetCount(&n)) != CUDA_SUCCESS)
		return -1;
	return n;
}

static int attr(CUdevice d, CUdevice_attribute a)
{
	int v = 0;
	if (CU(cu.DeviceGetAttribute(&v, a, d)) != CUDA_SUCCESS)
		return 0;
	return v;
}

int gpu_query(int index, struct gpu_info *g)
{
	CUdevice d;
	memset(g, 0, sizeof(*g));
	if (CU(cu.DeviceGet(&d, index)) != CUDA_SUCCESS)
		return -1;
	g->index = index;
	if (CU(cu.DeviceGetName(g->name, (int)sizeof(g->name) - 1, d)) != CUDA_SUCCESS)
		return -1;
	CUuuid u;
	if (CU(cu.DeviceGetUuid(&u, d)) != CUDA_SUCCESS)
		return -1;
	const unsigned char *b = (const unsigned char *)u.bytes;
	snprintf(g->uuid, sizeof(g->uuid),
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
	g->cc_major = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	g->cc_minor = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	g->sm_count = attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	g->l2_bytes = attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	g->bus_width_bits = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	g->mem_clock_khz = attr(d, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
	g->max_threads_per_block = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	g->max_smem_per_block = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	g->max_smem_optin = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	if (CU(cu.DeviceTotalMem(&g->mem_bytes, d)) != CUDA_SUCCESS)
		return -1;
	cu.DriverGetVersion(&g->driver_version);
	return 0;
}

int gpu_require(const char *cmd, int index, struct gpu_info *g)
{
	const char *why = NULL;
	if (cuda_load(&why) < 0) {
		error("%s needs a GPU: %s", cmd, why);
		return EXIT_NO_GPU;
	}
	int n = gpu_count();
	if (n <= 0) {
		error("%s needs a GPU: no CUDA GPU is visible", cmd);
		return EXIT_NO_GPU;
	}
	if (index < 0 || index >= n) {
		error("%s: there is no GPU %d (%d visible)", cmd, index, n);
		return EXIT_NO_GPU;
	}
	if (g && gpu_query(index, g) < 0)
		return EXIT_FAIL;
	return 0;
}

int gpu_context_now(int index)
{
	CUdevice dev;
	CUcontext ctx;
	if (cu.DeviceGet(&dev, index) != CUDA_SUCCESS || cu.DevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS)
		return -1;
	return 0;
}

struct probe_msg {
	int status;
	int visible; /* GPUs the driver sees */
	char why[256];
	struct gpu_info g;
};

/* Reads len bytes from fd into buf: 0, or -1 when it ends short. */
static int read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* gpu_probe's work: *m from a child process, with index < 0 every
 * visible GPU's figures after it (*all, caller frees).  Each child loads
 * the driver once, which takes a second or more on a host of several
 * GPUs, so a run over all of them asks once.  0, or EXIT_FAIL with why. */
static int probe(int index, struct probe_msg *out, struct gpu_info **all, char *why, size_t n)
{
	int fds[2];
	if (pipe(fds) < 0) {
		snprintf(why, n, "pipe failed");
		return EXIT_FAIL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		snprintf(why, n, "fork failed");
		return EXIT_FAIL;
	}
	if (pid == 0) {
		struct probe_msg m;
		struct gpu_info *all_g = NULL;
		memset(&m, 0, sizeof(m));
		const char *reason = NULL;
		close(fds[0]);
		if (cuda_load(&reason) < 0) {
			m.status = EXIT_NO_GPU;
			snprintf(m.why, sizeof(m.why), "%s", reason);
		} else {
			int count = 0;
			if (cu.DeviceGetCount(&count) == CUDA_SUCCESS)
				m.visible = count;
			if (m.visible <= 0) {
				m.status = EXIT_NO_GPU;
				snprintf(m.why, sizeof(m.why), "no CUDA GPU is visible");
			} else if (index >= count) {
				m.status = EXIT_NO_GPU;
				snprintf(m.why, sizeof(m.why), "there is no GPU %d (%d visible)", index, count);
			} else {
				/* GPU index, or every one into all_g. */
				int lo = index < 0 ? 0 : index, hi = index < 0 ? count : index + 1;
				all_g = index < 0 ? xcalloc((size_t)count, sizeof(*all_g)) : NULL;
				for (int i = lo; i < hi && !m.status; i++)
					if (gpu_query(i, all_g ? &all_g[i] : &m.g) < 0) {
						m.status = EXIT_FAIL;
						snprintf(m.why, sizeof(m.why), "could not read GPU %d's properties", i);
					}
			}
		}
		int ok = write(fds[1], &m, sizeof(m)) == (ssize_t)sizeof(m);
		if (ok && index < 0 && !m.status)
			ok = write(fds[1], all_g, (size_t)m.visible * sizeof(*all_g)) ==
			     (ssize_t)((size_t)m.visible * sizeof(*all_g));
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	struct probe_msg m;
	int bad = read_all(fds[0], &m, sizeof(m));
	if (!bad && index < 0 && !m.status) {
		*all = xcalloc((size_t)m.visible, sizeof(**all));
		bad = read_all(fds[0], *all, (size_t)m.visible * sizeof(**all));
	}
	close(fds[0]);
	waitpid(pid, NULL, 0);
	if (bad) {
		if (all) {
			free(*all);
			*all = NULL;
		}
		snprintf(why, n, "the GPU probe process failed");
		return EXIT_FAIL;
	}
	*out = m;
	return 0;
}

int gpu_probe(int index, struct gpu_info *g, char *why, size_t n)
{
	if (index < 0) {
		snprintf(why, n, "there is no GPU %d", index);
		return EXIT_NO_GPU;
	}
	struct probe_msg m;
	int r = probe(index, &m, NULL, why, n);
	if (r)
		return r;
	if (m.status) {
		snprintf(why, n, "%s", m.why);
		return m.status;
	}
	*g = m.g;
	return 0;
}

int gpu_probe_all(struct gpu_info **g, int *count, char *why, size_t n)
{
	struct probe_msg m;
	*g = NULL;
	int r = probe(-1, &m, g, why, n);
	if (r)
		return r;
	if (m.status || m.visible <= 0) {
		free(*g);
		*g = NULL;
		snprintf(why, n, "%s", m.why);
		return m.status ? m.status : EXIT_NO_GPU;
	}
	*count = m.visible;
	return 0;
}
