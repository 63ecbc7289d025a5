/*
 * transpose-bench.cu - one process that times, at each size and under the
 * same protocol (L2 flushed before each launch, 30 timed launches after
 * warm-up, median, rotated over placements of the buffers at small sizes;
 * the header's kernels as gputune confirms a winner, with at least 100
 * launches and 10 ms of kernel time), the copy ceiling and the transposes
 * a user could pick:
 *   memcpy       cudaMemcpyAsync device to device
 *   copy         a vectorised copy kernel (16-byte accesses)
 *   cuBLAS       cuBLAS geam as a transpose (f32 and f64); for f16, which
 *                geam lacks, cublasLtMatrixTransform
 *   classic      the textbook tile-32, 8-row, padded kernel
 *   gputune      the tuned winner, from a header gputune exported (built
 *                by nvcc with this program), with its figure over the one
 *                the database recorded for it at a tuned size
 *   nvrtc        the same variant built from the header's NVRTC program with
 *                gputune's own compile options, launched through the driver:
 *                if nvcc's build and NVRTC's differ, the two columns say so
 *   calibrated   at a size nobody tuned, the variant the header's
 *                gputune_transpose_calibrate() picks among the rule's best
 *                (its output checked), timed as the tuned winner is
 * Every transpose's output is checked against a host transpose first.
 * Prints one Markdown table row per size and type; figures are GB/s
 * counting bytes read and written, with the share of the ceiling (the
 * faster of memcpy and copy).
 *
 * Usage: transpose-bench TYPE:ROWSxCOLS...   (TYPE f32, f64 or f16)
 */
#include "gputune_transpose.h"
#include "timing.cuh"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>


template <typename T> __global__ void classic_transpose(const T *in, T *out, unsigned rows, unsigned cols)
{
	__shared__ T tile[32][33];
	unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < rows && y + j < cols)
			out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* The variant's NVRTC source compiled as gputune compiles it; NULL on failure. */
static CUfunction nvrtc_kernel(int v, int cc)
{
	static CUfunction fn[GPUTUNE_TRANSPOSE_NUM_VARIANTS];
	if (fn[v])
		return fn[v];
	nvrtcProgram prog;
	std::string src = std::string(gputune_transpose_defines[v]) + gputune_transpose_source;
	if (nvrtcCreateProgram(&prog, src.c_str(), "variant.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
		return NULL;
	char arch[32];
	std::snprintf(arch, sizeof(arch), "--gpu-architecture=sm_%d", cc);
	const char *opts[] = { arch, "-std=c++17", "-default-device" };
	size_t n = 0;
	std::vector<char> cubin;
	if (nvrtcCompileProgram(prog, 3, opts) == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &n) == NVRTC_SUCCESS) {
		cubin.resize(n);
		nvrtcGetCUBIN(prog, cubin.data());
	}
	nvrtcDestroyProgram(&prog);
	CUmodule mod;
	if (cubin.empty() || cuModuleLoadData(&mod, cubin.data()) != CUDA_SUCCESS ||
	    cuModuleGetFunction(&fn[v], mod, gputune_transpose_kernel_name) != CUDA_SUCCESS)
		return NULL;
	return fn[v];
}

struct bench : flushed_timing {
	cublasHandle_t blas;
	cublasLtHandle_t lt;
};

/* cublasLt's transpose of 2-byte elements, C = op(A) with op transposing,
 * for the row-major rows x cols input (column-major cols x rows).  Returns
 * the launch, or a status other than success in *st. */
static std::function<void()> lt_transpose(bench &B, const void *in, void *out, unsigned rows, unsigned cols,
					  cublasStatus_t *st)
{
	static const float one = 1, zero = 0;
	cublasLtMatrixTransformDesc_t desc;
	cublasLtMatrixLayout_t a, c;
	cublasOperation_t op = CUBLAS_OP_T;
	if ((*st = cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F)) ||
	    (*st = cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &op,
							   sizeof(op))) ||
	    (*st = cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, cols, rows, cols)) ||
	    (*st = cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, rows, cols, rows)))
		return nullptr;
	/* One call first, so that an unsupported case is reported, not fatal. */
	if ((*st = cublasLtMatrixTransform(B.lt, desc, &one, in, a, &zero, nullptr, nullptr, out, c, 0)))
		return nullptr;
	/* Kept for the process's life: one set per size, a few hundred bytes. */
	return [=, &B] {
		cublasStatus_t r = cublasLtMatrixTransform(B.lt, desc, &one, in, a, &zero, nullptr, nullptr, out, c, 0);
		if (r != CUBLAS_STATUS_SUCCESS) {
			std::fprintf(stderr, "cublasLtMatrixTransform failed: %d\n", (int)r);
			std::exit(2);
		}
	};
}


/* Runs launch once on a poisoned output and compares with the host transpose. */
static bool verify(const std::vector<unsigned char> &expect, void *d_out, size_t bytes,
		   const std::function<void()> &launch)
{
	CHECK(cudaMemset(d_out, 0x5a, bytes));
	launch();
	CHECK(cudaDeviceSynchronize());
	std::vector<unsigned char> got(bytes);
	CHECK(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost));
	return std::memcmp(got.data(), expect.data(), bytes) == 0;
}

static void run(bench &B, const char *dtype, unsigned rows, unsigned cols)
{
	size_t es = !std::strcmp(dtype, "f64") ? 8 : !std::strcmp(dtype, "f16") ? 2 : 4;
	size_t n = (size_t)rows * cols, bytes = n * es;
	std::vector<unsigned char> in(bytes), expect(bytes);
	unsigned s = 2463534242u ^ rows ^ (cols << 16);
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13, s ^= s >> 17, s ^= s << 5;
		if (es == 4) {
			float f = (float)(s >> 8) / 16777216.0f + 0.25f;
			std::memcpy(&in[i * 4], &f, 4);
		} else if (es == 8) {
			double d = (double)s / 4294967296.0 + 0.25;
			std::memcpy(&in[i * 8], &d, 8);
		} else {
			unsigned short h = (unsigned short)(0x3800 | (s & 0x3ff));
			std::memcpy(&in[i * 2], &h, 2);
		}
	}
	host_transpose(expect, in, rows, cols, es);
	void *d_in, *d_out;
	CHECK(cudaMalloc(&d_in, bytes));
	CHECK(cudaMalloc(&d_out, bytes));
	CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
	placements P;
	place_begin(B, P, &d_in, bytes, &d_out, bytes);
	double moved = 2.0 * bytes;
	auto gbps = [&](double ms) { return moved / (ms * 1e-3) / 1e9; };

	double t_memcpy = time_ms(B, [&] { CHECK(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice, 0)); });
	double t_copy = time_ms(B, [&] { launch_copy(d_in, d_out, bytes); });
	double ceiling = std::max(gbps(t_memcpy), gbps(t_copy));
	/* GB/s with its share of the ceiling, as every transpose column shows it. */
	auto figure = [&](double g) {
		char buf[64];
		std::snprintf(buf, sizeof(buf), "%.0f (%.1f%%)", g, 100 * g / ceiling);
		return std::string(buf);
	};

	std::string geam = "n/a";
	std::function<void()> peer;
	if (es == 2) {
		cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
		peer = lt_transpose(B, d_in, d_out, rows, cols, &st);
		if (!peer) {
			char buf[48];
			std::snprintf(buf, sizeof(buf), "cublasLt error %d", (int)st);
			geam = buf;
		}
	} else {
		peer = [&] {
			/* Row-major rows x cols is column-major cols x rows; its
			 * transpose is column-major rows x cols. */
			cublasStatus_t st;
			if (es == 4) {
				float one = 1, zero = 0;
				st = cublasSgeam(B.blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, (const float *)d_in, cols,
						 &zero, (const float *)d_out, rows, (float *)d_out, rows);
			} else {
				double one = 1, zero = 0;
				st = cublasDgeam(B.blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, (const double *)d_in, cols,
						 &zero, (const double *)d_out, rows, (double *)d_out, rows);
			}
			if (st != CUBLAS_STATUS_SUCCESS) {
				std::fprintf(stderr, "geam failed: %d\n", (int)st);
				std::exit(2);
			}
		};
	}
	if (peer)
		geam = verify(expect, d_out, bytes, peer) ? figure(gbps(time_ms(B, peer))) : "WRONG";
	dim3 cgrid((cols + 31) / 32, (rows + 31) / 32), cblock(32, 8);
	auto classic = [&] {
		if (es == 4)
			classic_transpose<<<cgrid, cblock>>>((const float *)d_in, (float *)d_out, rows, cols);
		else if (es == 8)
			classic_transpose<<<cgrid, cblock>>>((const double *)d_in, (double *)d_out, rows, cols);
		else
			classic_transpose<<<cgrid, cblock>>>((const unsigned short *)d_in, (unsigned short *)d_out, rows, cols);
	};
	std::string classic_s = "WRONG";
	if (verify(expect, d_out, bytes, classic)) {
		classic_s = figure(gbps(time_ms(B, classic)));
	}
	int cc = B.prop.major * 10 + B.prop.minor;
	int v = gputune_transpose_choose(B.prop.name, cc, dtype, rows, cols);
	const gputune_transpose_entry *e = gputune_transpose_lookup(B.prop.name, cc, dtype, rows, cols);
	const bool exact = e != NULL; /* lookup answers measured sizes only */
	std::string tuned = "none", vs_db = "-", rtc = "-";
	if (v >= 0) {
		auto launch = [&] { CHECK(gputune_transpose_launch(v, d_in, d_out, rows, cols, 0)); };
		CUfunction fn = nvrtc_kernel(v, cc);
		unsigned g[3], b[3];
		gputune_transpose_geometry(v, rows, cols, g, b);
		auto launch_rtc = [&] {
			void *args[] = { &d_in, &d_out, &rows, &cols, NULL };
#ifdef GPUTUNE_TRANSPOSE_MAPS
			/* rowclass: the kernel takes the maps of the buffers launched on. */
			const gputune_transpose_config &cf = gputune_transpose_variants[v].config;
			if (cf.rowclass)
				args[4] = (void *)gputune_transpose_maps(v, d_in, d_out, rows, cols, (unsigned)es,
									 cf.tile * cf.unroll, cf.tile * cf.wide);
#endif
			if (cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, 0, args, NULL) != CUDA_SUCCESS) {
				std::fprintf(stderr, "cuLaunchKernel failed\n");
				std::exit(2);
			}
		};
		bool ok = verify(expect, d_out, bytes, launch);
		bool rtc_ok = fn && verify(expect, d_out, bytes, launch_rtc);
		/* The two builds timed in turn, twice, each keeping its better
		 * median, so that neither gains from going second; each as the
		 * database's figure was (confirmed: 10 ms of kernel at least),
		 * since a median of 30 launches of a 7 us kernel moves by 5%. */
		double tg = 0, rg = 0;
		for (int round = 0; round < 2; round++) {
			if (ok)
				tg = std::max(tg, gbps(time_ms_confirmed(B, launch)));
			if (rtc_ok)
				rg = std::max(rg, gbps(time_ms_confirmed(B, launch_rtc)));
		}
		tuned = ok ? figure(tg) : "WRONG";
		if (ok && exact) {
			char buf[32];
			std::snprintf(buf, sizeof(buf), "%.3f", tg / e->gbps);
			vs_db = buf;
		}
		rtc = !fn ? "compile failed" : rtc_ok ? figure(rg) : "WRONG";
	}
	/* At a size nobody tuned, the header's calibration: its pick among the
	 * rule's best, checked from what its own launches left, then timed as
	 * the choice is. */
	std::string cal = "-", cal_v = "-";
	int cv = -1;
	if (v >= 0 && !exact) {
		auto calibrate = [&] { CHECK(gputune_transpose_calibrate(dtype, d_in, d_out, rows, cols, 0, &cv)); };
		if (!verify(expect, d_out, bytes, calibrate)) {
			cal = "WRONG";
		} else {
			auto launch = [&] { CHECK(gputune_transpose_launch(cv, d_in, d_out, rows, cols, 0)); };
			double cg = 0;
			for (int round = 0; round < 2; round++)
				cg = std::max(cg, gbps(time_ms_confirmed(B, launch)));
			cal = figure(cg);
			cal_v = cv == v ? "the choice" : gputune_transpose_variants[cv].params;
		}
	}
	std::printf("| %s | %ux%u | %.0f | %.0f | %s | %s | **%s** | %s | %s | %s | %s | %s | %s |\n", dtype, rows, cols,
		    gbps(t_memcpy), gbps(t_copy), geam.c_str(), classic_s.c_str(), tuned.c_str(), vs_db.c_str(),
		    rtc.c_str(), exact ? "exact" : "untuned",
		    v >= 0 ? gputune_transpose_variants[v].params : "-", cal.c_str(), cal_v.c_str());
	std::fflush(stdout);
	place_end(B, P);
	cudaFree(d_in);
	cudaFree(d_out);
}

int main(int argc, char **argv)
{
	bench B;
	timing_init(B);
	if (cublasCreate(&B.blas) != CUBLAS_STATUS_SUCCESS || cublasLtCreate(&B.lt) != CUBLAS_STATUS_SUCCESS) {
		std::fprintf(stderr, "cublasCreate or cublasLtCreate failed\n");
		return 2;
	}
	std::printf("| type | size | memcpy | copy kernel | cuBLAS (geam; f16 Lt transform) | classic 32x8 pad 1 | gputune | over database | "
		    "gputune via NVRTC | size | gputune variant | calibrated | calibrated variant |\n");
	std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 1; i < argc; i++) {
		char dtype[8];
		unsigned r, c;
		if (std::sscanf(argv[i], "%3[a-z0-9]:%ux%u", dtype, &r, &c) != 3) {
			std::fprintf(stderr, "bad argument '%s' (TYPE:ROWSxCOLS)\n", argv[i]);
			return 2;
		}
		run(B, dtype, r, c);
	}
	return 0;
}
