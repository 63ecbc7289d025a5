/*
 * nvml.h - the conditions a GPU ran under: clocks, temperature, power and
 * the reasons its clocks were held down, read through NVML.
 *
 * Like the CUDA driver, NVML (libnvidia-ml.so.1) is opened at run time,
 * so gputune builds and starts without it; a tuning run without it goes
 * on and records nothing.  gputune only reads: it never sets a clock, a
 * power limit or any other setting.
 */
#ifndef GPUTUNE_NVML_H
#define GPUTUNE_NVML_H

#include <stddef.h>

/* One reading. */
struct gpu_sample {
	unsigned sm_mhz, mem_mhz, temp_c;
	double power_w;
	unsigned long long reasons; /* clock-limit reasons, NVML's bits */
};

/* What a stretch of timing ran under: its first and last readings, the
 * extremes in between, and every limit reason seen but GPU-idle. */
struct gpu_conditions {
	struct gpu_sample start, end;
	unsigned sm_mhz_min, sm_mhz_max, temp_c_max;
	double power_w_max;
	unsigned long long reasons; /* OR over all readings, idle left out */
	int samples;
};

/* NVML's bit for "the GPU is idle": not a limit on a measurement. */
#define NVML_REASON_IDLE 0x1ULL

/*
 * Opens NVML ($GPUTUNE_LIBNVML, else libnvidia-ml.so.1) and finds the GPU
 * with this UUID ("GPU-..." as gpu_info holds it).  Returns 0, or -1 with
 * a one-line reason in *why (static storage).
 */
int nvml_open(const char *uuid, const char **why);

/* One reading of the opened GPU.  0, or -1 when NVML is not open or the
 * reading failed. */
int nvml_sample(struct gpu_sample *s);

/*
 * A background thread that reads the GPU every few milliseconds while a
 * size is timed.  Start returns NULL when NVML is not open.  Stop ends the
 * thread, takes a last reading and fills *out.
 */
struct nvml_watch;
struct nvml_watch *nvml_watch_start(void);
void nvml_watch_stop(struct nvml_watch *w, struct gpu_conditions *out);

/* The names of the reasons in mask ("sw_power_cap,hw_slowdown"), or
 * "none". */
const char *nvml_reasons_text(unsigned long long mask, char *buf, size_t n);

#endif
