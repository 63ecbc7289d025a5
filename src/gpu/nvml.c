/*
 * nvml.c - see nvml.h.  NVML's header is not part of the CUDA Toolkit, so
 * the few types and constants used are declared here, as NVML's reference
 * documents them; the functions come from dlsym.
 */
#define _GNU_SOURCE
#include "gpu/nvml.h"
#include "util/util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct nvml_device_st *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

static struct {
	int (*Init)(void);
	int (*DeviceGetHandleByUUID)(const char *uuid, nvml_device *d);
	int (*DeviceGetClockInfo)(nvml_device d, int type, unsigned *mhz);
	int (*DeviceGetTemperature)(nvml_device d, int sensor, unsigned *c);
	int (*DeviceGetPowerUsage)(nvml_device d, unsigned *mw);
	int (*DeviceGetReasons)(nvml_device d, unsigned long long *mask);
	const char *(*ErrorString)(int r);
} nv;

static int state; /* 0 not tried, 1 open, -1 failed */
static nvml_device device;
static char why_buf[256];

struct entry {
	const char *names[2]; /* preferred name, then the older one */
	void **slot;
};

static const struct entry entries[] = {
	{ { "nvmlInit_v2", NULL }, (void **)&nv.Init },
	{ { "nvmlDeviceGetHandleByUUID", NULL }, (void **)&nv.DeviceGetHandleByUUID },
	{ { "nvmlDeviceGetClockInfo", NULL }, (void **)&nv.DeviceGetClockInfo },
	{ { "nvmlDeviceGetTemperature", NULL }, (void **)&nv.DeviceGetTemperature },
	{ { "nvmlDeviceGetPowerUsage", NULL }, (void **)&nv.DeviceGetPowerUsage },
	/* Renamed from "throttle" to "event" reasons in 2023; same bits. */
	{ { "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons" },
	  (void **)&nv.DeviceGetReasons },
	{ { "nvmlErrorString", NULL }, (void **)&nv.ErrorString },
};

static int open_failed(const char **why)
{
	state = -1;
	*why = why_buf;
	return -1;
}

int nvml_open(const char *uuid, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	if (state) {
		*why = why_buf;
		return state > 0 ? 0 : -1;
	}
	const char *lib = getenv("GPUTUNE_LIBNVML");
	if (!lib || !*lib)
		lib = "libnvidia-ml.so.1";
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why_buf, sizeof(why_buf), "NVML (%s) could not be loaded", lib);
		return open_failed(why);
	}
	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		void *p = NULL;
		for (int k = 0; k < 2 && !p && entries[i].names[k]; k++)
			p = dlsym(h, entries[i].names[k]);
		if (!p) {
			snprintf(why_buf, sizeof(why_buf), "NVML (%s) lacks %s", lib, entries[i].names[0]);
			return open_failed(why);
		}
		*entries[i].slot = p;
	}
	int r = nv.Init();
	if (r == NVML_OK)
		r = nv.DeviceGetHandleByUUID(uuid, &device);
	if (r != NVML_OK) {
		const char *s = nv.ErrorString ? nv.ErrorString(r) : NULL;
		snprintf(why_buf, sizeof(why_buf), "NVML could not open %s: %s", uuid, s ? s : "unknown error");
		return open_failed(why);
	}
	/* The library stays loaded for the life of the process. */
	state = 1;
	return 0;
}

int nvml_sample(struct gpu_sample *s)
{
	memset(s, 0, sizeof(*s));
	if (state != 1)
		return -1;
	unsigned mw = 0;
	int bad = nv.DeviceGetClockInfo(device, NVML_CLOCK_SM, &s->sm_mhz) != NVML_OK;
	bad |= nv.DeviceGetClockInfo(device, NVML_CLOCK_MEM, &s->mem_mhz) != NVML_OK;
	bad |= nv.DeviceGetTemperature(device, NVML_TEMPERATURE_GPU, &s->temp_c) != NVML_OK;
	/* Power and the reasons are missing on some boards: zero, not fatal. */
	if (nv.DeviceGetPowerUsage(device, &mw) == NVML_OK)
		s->power_w = mw / 1000.0;
	if (nv.DeviceGetReasons(device, &s->reasons) != NVML_OK)
		s->reasons = 0;
	return bad ? -1 : 0;
}

/* How often the watch reads: often enough to catch a throttle that lasts
 * a fraction of a second, rarely enough to cost nothing measurable (a
 * reading takes tens of microseconds of one CPU core). */
#define WATCH_PERIOD_MS 20

struct nvml_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop;
	struct gpu_conditions c;
};

static void add_sample(struct gpu_conditions *c, const struct gpu_sample *s)
{
	if (c->samples == 0) {
		c->start = *s;
		c->sm_mhz_min = c->sm_mhz_max = s->sm_mhz;
	}
	c->end = *s;
	if (s->sm_mhz < c->sm_mhz_min)
		c->sm_mhz_min = s->sm_mhz;
	if (s->sm_mhz > c->sm_mhz_max)
		c->sm_mhz_max = s->sm_mhz;
	if (s->temp_c > c->temp_c_max)
		c->temp_c_max = s->temp_c;
	if (s->power_w > c->power_w_max)
		c->power_w_max = s->power_w;
	c->reasons |= s->reasons & ~NVML_REASON_IDLE;
	c->samples++;
}

static void *watch_main(void *arg)
{
	struct nvml_watch *w = arg;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WATCH_PERIOD_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&w->wake, &w->lock, &until);
		if (w->stop)
			break;
		struct gpu_sample s;
		if (nvml_sample(&s) == 0)
			add_sample(&w->c, &s);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct nvml_watch *nvml_watch_start(void)
{
	if (state != 1)
		return NULL;
	struct nvml_watch *w = xcalloc(1, sizeof(*w));
	struct gpu_sample s;
	if (nvml_sample(&s) == 0)
		add_sample(&w->c, &s);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
		/* No thread: the start and stop readings still say something. */
		w->stop = -1;
	}
	return w;
}

void nvml_watch_stop(struct nvml_watch *w, struct gpu_conditions *out)
{
	memset(out, 0, sizeof(*out));
	if (!w)
		return;
	if (w->stop == 0) {
		pthread_mutex_lock(&w->lock);
		w->stop = 1;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	struct gpu_sample s;
	if (nvml_sample(&s) == 0)
		add_sample(&w->c, &s);
	*out = w->c;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w);
}

static const struct {
	unsigned long long bit;
	const char *name;
} reason_names[] = {
	{ 0x1, "gpu_idle" },
	{ 0x2, "applications_clocks" },
	{ 0x4, "sw_power_cap" },
	{ 0x8, "hw_slowdown" },
	{ 0x10, "sync_boost" },
	{ 0x20, "sw_thermal" },
	{ 0x40, "hw_thermal" },
	{ 0x80, "hw_power_brake" },
	{ 0x100, "display_clocks" },
};

const char *nvml_reasons_text(unsigned long long mask, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(reason_names) && at < n; i++)
		if (mask & reason_names[i].bit) {
			at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? "," : "", reason_names[i].name);
			mask &= ~reason_names[i].bit;
		}
	if (mask && at < n)
		at += (size_t)snprintf(buf + at, n - at, "%s0x%llx", at ? "," : "", mask);
	if (!buf[0])
		snprintf(buf, n, "none");
	return buf;
}
