/*
 * consumer.cu - a program that uses the header `gputune export` writes for
 * a family you bring with an input and an output buffer (the stencil's
 * or the softmax's): it asks the header for the variant to use at a size
 * on this GPU, runs it, and checks its output against the header's
 * default variant (the family's first classic, which gputune checked
 * every variant against).
 *
 *   gputune export --kernel examples/user/stencil.cu -o gputune_stencil.h
 *   nvcc -O2 -I. -DGT_KERNEL=stencil -DGT_HEADER='"gputune_stencil.h"' \
 *        examples/user/consumer.cu -o consumer
 *   ./consumer 4096 4096 0        # rows cols relative-bound (0: bit for bit)
 *   ./consumer 4096 4096 0 time   # and time both: GB/s of the buffers' bytes,
 *                                 # median of 30 launches, L2 flushed before each
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#include GT_HEADER

#define GT_CAT(a, b, c) a##b##c
#define GT_FN(k, what) GT_CAT(gputune_, k, what)

static int fail(const char *what, cudaError_t e)
{
	fprintf(stderr, "consumer: %s: %s\n", what, cudaGetErrorString(e));
	return 1;
}

/* The median milliseconds of 30 launches of variant v, each after a
 * write of twice the L2 (so no launch finds its data there). */
static double time_variant(int v, float *din, float *dout, unsigned rows, unsigned cols)
{
	int l2 = 0;
	cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
	size_t flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
	void *flush = NULL;
	cudaEvent_t a, b;
	if (cudaMalloc(&flush, flush_bytes) || cudaEventCreate(&a) || cudaEventCreate(&b))
		return -1;
	std::vector<float> ms;
	GT_FN(GT_KERNEL, _launch)(v, din, dout, rows, cols, 0); /* warm-up */
	for (int i = 0; i < 30; i++) {
		float t = 0;
		cudaMemsetAsync(flush, i, flush_bytes, 0);
		cudaEventRecord(a, 0);
		GT_FN(GT_KERNEL, _launch)(v, din, dout, rows, cols, 0);
		cudaEventRecord(b, 0);
		cudaEventSynchronize(b);
		cudaEventElapsedTime(&t, a, b);
		ms.push_back(t);
	}
	std::sort(ms.begin(), ms.end());
	cudaFree(flush);
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return cudaGetLastError() ? -1 : (ms[14] + ms[15]) / 2;
}

/* Runs variant v on a copy of in; its output into out; with ms, the
 * median time of its launches too. */
static int run(int v, const std::vector<float> &in, std::vector<float> &out, unsigned rows, unsigned cols,
	       double *ms = NULL)
{
	long long ni = GT_FN(GT_KERNEL, _buffer_elems)(0, rows, cols), no = GT_FN(GT_KERNEL, _buffer_elems)(1, rows, cols);
	float *din = NULL, *dout = NULL;
	cudaError_t e;
	if ((e = cudaMalloc(&din, ni * sizeof(float))) || (e = cudaMalloc(&dout, no * sizeof(float))) ||
	    (e = cudaMemcpy(din, in.data(), ni * sizeof(float), cudaMemcpyHostToDevice)) ||
	    (e = cudaMemset(dout, 0, no * sizeof(float))) ||
	    (e = GT_FN(GT_KERNEL, _launch)(v, din, dout, rows, cols, 0)) || (e = cudaDeviceSynchronize()))
		return fail("running a variant", e);
	out.resize(no);
	e = cudaMemcpy(out.data(), dout, no * sizeof(float), cudaMemcpyDeviceToHost);
	if (!e && ms)
		*ms = time_variant(v, din, dout, rows, cols);
	cudaFree(din);
	cudaFree(dout);
	return e ? fail("reading the output", e) : 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: consumer ROWS COLS RELATIVE-BOUND\n");
		return 2;
	}
	unsigned rows = (unsigned)atoi(argv[1]), cols = (unsigned)atoi(argv[2]);
	double bound = atof(argv[3]);
	cudaDeviceProp p;
	cudaError_t e = cudaGetDeviceProperties(&p, 0);
	if (e)
		return fail("the device", e);
	int v = GT_FN(GT_KERNEL, _choose)(p.name, p.major * 10 + p.minor, "f32", rows, cols);
	int ref = GT_FN(GT_KERNEL, _default_variant)("f32");
	if (v < 0 || ref < 0) {
		fprintf(stderr, "consumer: no f32 variant in the header\n");
		return 1;
	}
	std::vector<float> in(GT_FN(GT_KERNEL, _buffer_elems)(0, rows, cols)), out, expected;
	unsigned s = 12345;
	for (size_t i = 0; i < in.size(); i++) {
		s = s * 1103515245u + 12345u;
		in[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
	}
	double ms = 0, ref_ms = 0, timed = argc > 4;
	if (run(v, in, out, rows, cols, timed ? &ms : NULL) || run(ref, in, expected, rows, cols, timed ? &ref_ms : NULL))
		return 1;
	size_t bad = 0;
	double worst = 0;
	for (size_t i = 0; i < out.size(); i++) {
		double err = fabs((double)out[i] - expected[i]);
		if (!(err <= bound * fabs(expected[i]))) /* a NaN is bad */
			bad++;
		worst = err > worst ? err : worst;
	}
	printf("%s %ux%u: variant %d (%s) against the classic, variant %d: %zu of %zu elements off, largest "
	       "error %.3g\n", p.name, rows, cols, v, GT_FN(GT_KERNEL, _variants)[v].params, ref, bad, out.size(), worst);
	if (timed) {
		double bytes = (double)(in.size() + out.size()) * sizeof(float);
		printf("%s %ux%u: the choice %.2f us (%.0f GB/s), the classic %.2f us (%.0f GB/s), %.2fx\n", p.name, rows,
		       cols, ms * 1e3, bytes / ms / 1e6, ref_ms * 1e3, bytes / ref_ms / 1e6, ref_ms / ms);
	}
	return bad != 0;
}
