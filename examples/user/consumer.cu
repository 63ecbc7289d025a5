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
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include GT_HEADER

#define GT_CAT(a, b, c) a##b##c
#define GT_FN(k, what) GT_CAT(gputune_, k, what)

static int fail(const char *what, cudaError_t e)
{
	fprintf(stderr, "consumer: %s: %s\n", what, cudaGetErrorString(e));
	return 1;
}

/* Runs variant v on a copy of in; its output into out. */
static int run(int v, const std::vector<float> &in, std::vector<float> &out, unsigned rows, unsigned cols)
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
	if (run(v, in, out, rows, cols) || run(ref, in, expected, rows, cols))
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
	return bad != 0;
}
