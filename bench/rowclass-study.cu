/*
 * rowclass-study.cu - a study of the transpose through Hopper's tensor
 * copy engine at sizes whose rows do not start on 16 bytes (f16 and f32;
 * docs/benchmarks.md, "Tensor copies by row class", has what it found).
 *
 * The engine moves boxes of a tensor whose base and row pitch are
 * multiples of 16 bytes, and a box's first column must lie on 16 bytes too
 * (an unaligned one stops the kernel with an illegal instruction).  A
 * matrix of odd column count is no such tensor, but for N elements of 16
 * or 32 bytes the rows r, r + N, r + 2N, ... are: their starts share one
 * offset within the N elements, off_k = k * cols mod N for class
 * k = r mod N, and they lie N * cols elements apart.  So each class is a
 * tensor from the boundary below its first row, in which element (r, c)
 * sits at column c + off_k; the output's rows likewise (NI input classes,
 * NO output classes; NO elements of 32 bytes keep every output box row on
 * whole sectors).
 *
 * A block owns output rows [c0, c0 + TC) and, in output class k', the
 * aligned columns [r0, r0 + TR) of that class's tensor, which hold input
 * rows [r0 - off'_k', ...).  It loads, per input class, one box of rows
 * [r0 - H, r0 + TR) (H = max(NI, NO)) and columns [c0, c0 + TC + NI), all
 * aligned, moves each element to its output box in shared memory (f16 two
 * rows at a time, so that every shared store is a 4-byte word), and stores
 * the NO output boxes.  The stores' columns [0, off') of a class tensor are
 * the previous output row's tail: the first block row writes them right
 * from global memory.  The engine clips a store at the tensor's end only
 * to 16 bytes (measured: the rest of the last 16 bytes is written), so the
 * output tensors end on the last whole NO elements of a row, and the tail
 * past that is written by the next row's class (or, for the last row, from
 * global memory).  A load's tail is clipped the same way: it may read up
 * to 14 bytes past the input's last element, which cudaMalloc's
 * granularity covers here.
 *
 * Two forms test why the sizes of one to three waves of blocks lag: S
 * stages of TC / S columns, all loaded at once and each moved and stored
 * while the later ones arrive; and the output boxes laid over the input
 * boxes ("in place"), every thread holding its elements in registers
 * across a barrier, so that a block takes half the shared memory and a
 * whole matrix of up to about 25 MB loads in one wave.  Two more columns
 * time what the structure costs apart from its moves: the loads and
 * stores alone ("no moves", output wrong) and an empty kernel of the same
 * launch ("empty"); "along" columns run consecutive blocks along the
 * input's rows instead of down them.
 *
 * Every variant's output is compared with a host transpose; the timing is
 * bench/timing.cuh's protocol (one placement of the buffers), the ceiling
 * the faster of cudaMemcpy and a 16-byte copy kernel.  Columns are named
 * NI/NO TRxTC wW sS (W warps a block, S stages), each with its share of
 * the ceiling and its median time.  Built and run on the GPU machine:
 *   nvcc -O3 -std=c++17 -arch=sm_90 bench/rowclass-study.cu -lcuda -o rowclass-study
 *   ./rowclass-study [f16:RxC | f32:RxC ...]
 */
#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "timing.cuh"

#define CU(call)                                                                 \
	do {                                                                     \
		CUresult r_ = (call);                                            \
		if (r_ != CUDA_SUCCESS) {                                        \
			std::fprintf(stderr, "%s failed: %d\n", #call, (int)r_); \
			std::exit(2);                                            \
		}                                                                \
	} while (0)

/* One tensor map per row class of the input and of the output, with each
 * class's offset within its alignment. */
struct class_maps {
	CUtensorMap in[16];
	CUtensorMap out[16];
	int in_off[16];
	int out_off[16];
};

__device__ __forceinline__ uint32_t shared_address(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

/* NI input and NO output row classes (NI x ES and NO x ES bytes: 16, or 32
 * for whole sectors); H = max(NI, NO) rows of halo above the tile.  A
 * block's shared memory: NI input boxes of (TR + H) / NI class rows of
 * TC + NI columns (each box on 128 bytes), then NO output boxes of TC / NO
 * rows of TR columns.  With odd cols and NI = 8 (f16) the input boxes'
 * offsets differ by cols mod 4 words from class to class, so a warp
 * reading one column of 32 input rows (8 class rows of 4 classes, 4 banks
 * apart as a row is 4 words more than a multiple of 32) hits 32 banks. */
template <int ES, int NI, int NO, int TR, int TC>
struct geom {
	static constexpr int H = NI > NO ? NI : NO;
	static constexpr int IN_ROWS = (TR + H) / NI;
	static constexpr int IN_ROW = (TC + NI) * ES; // bytes
	static constexpr int IN_BOX = (IN_ROWS * IN_ROW + 127) / 128 * 128;
	static constexpr int OUT_ROW = TR * ES;
	static constexpr int OUT_BOX = (TC / NO) * OUT_ROW;
	static constexpr int SMEM = NI * IN_BOX + NO * OUT_BOX + 128;
	static constexpr int TX = NI * IN_ROWS * IN_ROW;
};

template <int ES> struct elem;
template <> struct elem<2> { using T = unsigned short; };
template <> struct elem<4> { using T = unsigned int; };

/* Moves the block's tile from its input boxes to its output boxes.  With
 * IP the output boxes lie over the input boxes: every thread reads all its
 * elements into registers first, and writes them after a barrier. */
template <int ES, int NI, int NO, int TR, int TC, int W, bool IP = false>
__device__ __forceinline__ void tile_compute(const class_maps &M, unsigned char *sin, unsigned char *sout,
					     const void *inv, void *outv, int rows, int cols, int r0, int c0)
{
	using G = geom<ES, NI, NO, TR, TC>;
	using T = typename elem<ES>::T;
	constexpr int H = G::H;
	const T *in = (const T *)inv;
	T *outp = (T *)outv;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const uint32_t sin0 = shared_address(sin), sout0 = shared_address(sout);
	constexpr int JG = W > NO ? W / NO : 1, JN = TC / NO / JG;
	constexpr int TPW = (NO * JG + W - 1) / W;        // tasks a warp
	constexpr int HN = ES == 2 ? TR / 64 : TR / 32;    // words of an output row a lane
	uint32_t keep[IP ? TPW : 1][IP ? HN : 1][IP ? JN : 1];
#pragma unroll
	for (int pass = 0; pass < (IP ? 2 : 1); pass++) {
		if (pass == 1)
			__syncthreads();
#pragma unroll
		for (int t = 0; t < TPW; t++) {
			const int task = warp + t * W;
			if (task >= NO * JG)
				break;
			const int kq = task % NO, jg = task / NO; // output class, group of its rows
			const int offq = M.out_off[kq];
			const int col0 = kq + NO * jg * JN; // c - c0 of the group's first row
#pragma unroll
			for (int h = 0; h < HN; h++) {
				/* f16: two input rows a thread, so that each output
				 * store is a 4-byte word. */
				const int m = lane + 32 * h; // word of the output row
				const int ra = (ES == 2 ? 2 * m : m) - offq + H; // input row - r0 + H, >= 1
				const int ka = ra % NI, kb = (ra + 1) % NI;
				const int ia = ra / NI, ib = (ra + 1) / NI;
				const uint32_t ba = sin0 + ka * G::IN_BOX + ia * G::IN_ROW + (col0 + M.in_off[ka]) * ES;
				const uint32_t bb = sin0 + kb * G::IN_BOX + ib * G::IN_ROW + (col0 + M.in_off[kb]) * ES;
				const uint32_t bo = sout0 + kq * G::OUT_BOX + jg * JN * G::OUT_ROW + m * 4;
#pragma unroll
				for (int j = 0; j < JN; j++) {
					uint32_t w;
					if (pass == 0) {
						if (ES == 2) {
							unsigned short x, y;
							asm volatile("ld.shared.u16 %0, [%1];" : "=h"(x) : "r"(ba + NO * 2 * j));
							asm volatile("ld.shared.u16 %0, [%1];" : "=h"(y) : "r"(bb + NO * 2 * j));
							w = (uint32_t)x | ((uint32_t)y << 16);
						} else {
							asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w) : "r"(ba + NO * 4 * j));
						}
					}
					if (IP && pass == 0) {
						keep[IP ? t : 0][IP ? h : 0][IP ? j : 0] = w;
						continue;
					}
					if (IP)
						w = keep[IP ? t : 0][IP ? h : 0][IP ? j : 0];
					asm volatile("st.shared.u32 [%0], %1;" ::"r"(bo + j * G::OUT_ROW), "r"(w) : "memory");
				}
			}
		}
	}
	/* The first block row: output columns y < off' of each class are the
	 * previous output row's tail (input rows rows - off' + y, column
	 * c - 1); write them right. */
	if (r0 == 0) {
		__syncthreads();
		for (int t = threadIdx.x; t < TC * NO; t += 32 * W) {
			const int cl = t / NO, y = t % NO, c = c0 + cl;
			const int kq = cl % NO, offq = M.out_off[kq];
			if (y < offq && c >= 1 && c < cols)
				*(T *)(sout + kq * G::OUT_BOX + (cl / NO) * G::OUT_ROW + y * ES) =
					in[(size_t)(rows - offq + y) * cols + (c - 1)];
		}
		/* The last output row's tail, past the maps' last whole class
		 * alignment. */
		if (c0 + TC >= cols) {
			const int c = cols - 1, offq = M.out_off[c % NO];
			const int from = ((rows + offq) & ~(NO - 1)) - offq;
			for (int r = from + (int)threadIdx.x; r < rows; r += 32 * W)
				outp[(size_t)c * rows + r] = in[(size_t)r * cols + c];
		}
	}
}

/* MODE, for measuring what the structure costs apart from its work: 0 the
 * transpose; 1 the loads and stores without the moves (the output is
 * wrong); 2 an empty kernel of the same launch (shared memory and
 * parameters). */
template <int ES, int NI, int NO, int TR, int TC, int W, int S, int MODE, bool IP, bool ALONG>
__global__ void __launch_bounds__(32 * W)
	rowclass_transpose(const __grid_constant__ class_maps M, const void *in, void *outp, int rows, int cols)
{
	/* S stages of TC / S columns each: all their loads are issued first,
	 * and stage s is moved while the later ones load and stored while the
	 * later ones are moved, so a block's own load, move and store overlap
	 * (where there are only a few waves of blocks, they start together). */
	constexpr int TS = TC / S;
	using G = geom<ES, NI, NO, TR, TS>;
	if (MODE >= 2)
		return;
	extern __shared__ __align__(128) unsigned char dyn[];
	unsigned char *sin = (unsigned char *)(((uintptr_t)dyn + 127) & ~(uintptr_t)127);
	static_assert(!IP || S == 1, "output boxes over the input boxes in one stage only");
	unsigned char *sout = IP ? sin : sin + S * NI * G::IN_BOX;
	__shared__ __align__(8) uint64_t bar[S];
	/* Consecutive blocks go down the input's rows, or with ALONG along
	 * them. */
	const int r0 = (ALONG ? blockIdx.y : blockIdx.x) * TR, c0 = (ALONG ? blockIdx.x : blockIdx.y) * TC;
	if (threadIdx.x == 0) {
#pragma unroll
		for (int s = 0; s < S; s++)
			asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(shared_address(&bar[s])));
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (threadIdx.x == 0) {
#pragma unroll
		for (int s = 0; s < S; s++) {
			asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(shared_address(&bar[s])),
				     "r"(G::TX)
				     : "memory");
#pragma unroll
			for (int k = 0; k < NI; k++)
				asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
					     " [%0], [%1, {%2, %3}], [%4];" ::"r"(
						     shared_address(sin + (s * NI + k) * G::IN_BOX)),
					     "l"(&M.in[k]), "r"(c0 + s * TS), "r"((r0 - G::H) / NI),
					     "r"(shared_address(&bar[s]))
					     : "memory");
		}
	}
#pragma unroll 1
	for (int s = 0; s < S; s++) {
		asm volatile("{\n .reg .pred p;\n WAIT: mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n @!p bra WAIT;\n}" ::"r"(
				     shared_address(&bar[s]))
			     : "memory");
		unsigned char *si = sin + s * NI * G::IN_BOX, *so = sout + s * NO * G::OUT_BOX;
		if (MODE == 0)
			tile_compute<ES, NI, NO, TR, TS, W, IP>(M, si, so, in, outp, rows, cols, r0, c0 + s * TS);
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		__syncthreads();
		if (threadIdx.x == 0) {
#pragma unroll
			for (int k = 0; k < NO; k++)
				asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
						     &M.out[k]),
					     "r"(r0), "r"((c0 + s * TS) / NO), "r"(shared_address(so + k * G::OUT_BOX))
					     : "memory");
			asm volatile("cp.async.bulk.commit_group;" ::: "memory");
		}
	}
	if (threadIdx.x == 0)
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

static void make_maps(class_maps &M, int es, int ni, int no, void *in, void *out, int rows, int cols, int TR, int TC)
{
	const CUtensorMapDataType dt = es == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
	const int h = ni > no ? ni : no;
	std::memset(&M, 0, sizeof M);
	cuuint32_t estr[2] = {1, 1};
	for (int k = 0; k < ni; k++) {
		long long first = (long long)k * cols;
		int off = (int)(first % ni);
		cuuint64_t dims[2] = {(cuuint64_t)(cols + off), (cuuint64_t)((rows - k + ni - 1) / ni)};
		cuuint64_t strides[1] = {(cuuint64_t)ni * cols * es};
		cuuint32_t box[2] = {(cuuint32_t)(TC + ni), (cuuint32_t)((TR + h) / ni)};
		CU(cuTensorMapEncodeTiled(&M.in[k], dt, 2, (char *)in + (first - off) * es, dims, strides, box, estr,
					  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
					  CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
		M.in_off[k] = off;
	}
	for (int k = 0; k < no; k++) {
		long long first = (long long)k * rows;
		int off = (int)(first % no);
		cuuint64_t dims[2] = {(cuuint64_t)((rows + off) & ~(no - 1)), (cuuint64_t)((cols - k + no - 1) / no)};
		cuuint64_t strides[1] = {(cuuint64_t)no * rows * es};
		cuuint32_t box[2] = {(cuuint32_t)TR, (cuuint32_t)(TC / no)};
		CU(cuTensorMapEncodeTiled(&M.out[k], dt, 2, (char *)out + (first - off) * es, dims, strides, box, estr,
					  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
					  CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
		M.out_off[k] = off;
	}
}

template <int ES, int NI, int NO, int TR, int TC, int W, int S, int MODE = 0, bool IP = false, bool ALONG = false>
static double run_one(flushed_timing &B, void *d_in, void *d_out, int rows, int cols, const std::vector<char> &expect,
		      size_t bytes, bool &ok)
{
	using G = geom<ES, NI, NO, TR, TC / S>;
	constexpr int SMEM = IP ? std::max(NI * G::IN_BOX, NO * G::OUT_BOX) + 128 : S * (G::SMEM - 128) + 128;
	auto k = rowclass_transpose<ES, NI, NO, TR, TC, W, S, MODE, IP, ALONG>;
	CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
	const unsigned down = (rows + TR - 1) / TR, across = (cols + TC - 1) / TC;
	const dim3 grid(ALONG ? across : down, ALONG ? down : across);
	class_maps M;
	make_maps(M, ES, NI, NO, d_in, d_out, rows, cols, TR, TC / S);
	CHECK(cudaMemset(d_out, 0xff, bytes));
	k<<<grid, 32 * W, SMEM>>>(M, d_in, d_out, rows, cols);
	CHECK(cudaDeviceSynchronize());
	std::vector<char> got(bytes);
	CHECK(cudaMemcpy(got.data(), d_out, bytes, cudaMemcpyDeviceToHost));
	ok = std::memcmp(got.data(), expect.data(), bytes) == 0;
	return time_ms(B, [&] { k<<<grid, 32 * W, SMEM>>>(M, d_in, d_out, rows, cols); });
}

/* The shapes timed, named NI/NO TRxTC wW sS as the table's columns. */
typedef double (*runner)(flushed_timing &, void *, void *, int, int, const std::vector<char> &, size_t, bool &);
struct variant {
	const char *name;
	runner run;
	bool checked; /* false for the columns whose output is not a transpose */
};
#define VARIANT(ES, NI, NO, TR, TC, W, S) \
	{ #NI "/" #NO " " #TR "x" #TC " w" #W " s" #S, run_one<ES, NI, NO, TR, TC, W, S>, true }
#define DIAG(ES, NI, NO, TR, TC, W, MODE, WHAT) \
	{ #NI "/" #NO " " #TR "x" #TC " w" #W " " WHAT, run_one<ES, NI, NO, TR, TC, W, 1, MODE>, false }
#define ALONG(ES, NI, NO, TR, TC, W, MODE, WHAT) \
	{ #NI "/" #NO " " #TR "x" #TC " w" #W " " WHAT, run_one<ES, NI, NO, TR, TC, W, 1, MODE, false, true>, MODE == 0 }
#define INPLACE(ES, NI, NO, TR, TC, W) \
	{ #NI "/" #NO " " #TR "x" #TC " w" #W " in place", run_one<ES, NI, NO, TR, TC, W, 1, 0, true>, true }
static const variant f32_variants[] = {
	VARIANT(4, 4, 8, 64, 64, 8, 1),
	VARIANT(4, 8, 8, 64, 128, 16, 1),
	VARIANT(4, 8, 8, 64, 128, 16, 2),
	INPLACE(4, 8, 8, 64, 128, 16),
	INPLACE(4, 4, 8, 64, 64, 8),
	DIAG(4, 4, 8, 64, 64, 8, 1, "no moves"),
	DIAG(4, 4, 8, 64, 64, 8, 2, "empty"),
	ALONG(4, 4, 8, 64, 64, 8, 0, "along"),
	ALONG(4, 4, 8, 64, 64, 8, 1, "along, no moves"),
};
static const variant f16_variants[] = {
	VARIANT(2, 8, 16, 64, 128, 16, 1),
	VARIANT(2, 8, 16, 128, 128, 16, 1),
	VARIANT(2, 8, 16, 64, 128, 16, 2),
	VARIANT(2, 8, 16, 128, 128, 16, 4),
	INPLACE(2, 8, 16, 256, 128, 16),
	INPLACE(2, 8, 16, 128, 128, 16),
	DIAG(2, 8, 16, 64, 128, 16, 1, "no moves"),
	DIAG(2, 8, 16, 256, 128, 16, 1, "no moves"),
	DIAG(2, 8, 16, 64, 128, 16, 2, "empty"),
	ALONG(2, 8, 16, 64, 128, 16, 0, "along"),
	ALONG(2, 8, 16, 64, 128, 16, 1, "along, no moves"),
	ALONG(2, 8, 16, 128, 128, 16, 0, "along"),
};
#undef INPLACE
#undef ALONG
#undef DIAG
#undef VARIANT
#define COUNT(a) (int)(sizeof a / sizeof *a)

int main(int argc, char **argv)
{
	flushed_timing B;
	timing_init(B);
	struct sz {
		int es, rows, cols;
	};
	std::vector<sz> sizes = {{4, 2047, 4093}, {4, 7777, 1111}, {4, 1315, 6653}, {4, 8191, 8191}, {4, 4096, 4096},
				 {2, 8191, 8191}, {2, 6291, 6401}, {2, 6400, 6401}, {2, 6291, 6400}, {2, 1314, 6653},
				 {2, 2897, 2897}, {2, 6373, 1951}, {2, 2970, 7787}, {2, 3000, 5000}, {2, 8192, 8192}};
	if (argc > 1) { /* f16:RxC or f32:RxC */
		sizes.clear();
		for (int i = 1; i < argc; i++) {
			sz z;
			char t[4] = "";
			if (std::sscanf(argv[i], "f%2[0-9]:%dx%d", t, &z.rows, &z.cols) != 3 || z.rows < 16 ||
			    z.cols < 16 || (std::strcmp(t, "16") && std::strcmp(t, "32"))) {
				std::fprintf(stderr, "rowclass-study: expected f16:RxC or f32:RxC (16 or more each), got %s\n",
					     argv[i]);
				return 2;
			}
			z.es = t[0] == '1' ? 2 : 4;
			sizes.push_back(z);
		}
	}
	int last_es = 0;
	for (auto &z : sizes) {
		const variant *vs = z.es == 4 ? f32_variants : f16_variants;
		const int NV = z.es == 4 ? COUNT(f32_variants) : COUNT(f16_variants);
		if (z.es != last_es) {
			std::printf("\n| %s size | ceiling GB/s |", z.es == 4 ? "f32" : "f16");
			for (int i = 0; i < NV; i++)
				std::printf(" %s |", vs[i].name);
			std::printf(" right |\n|---|---|");
			for (int i = 0; i < NV; i++)
				std::printf("---|");
			std::printf("---|\n");
			last_es = z.es;
		}
		const size_t n = (size_t)z.rows * z.cols, bytes = n * z.es;
		std::vector<char> in(bytes), expect(bytes);
		uint32_t seed = 12345;
		for (size_t i = 0; i < bytes; i++) {
			seed = seed * 1664525u + 1013904223u;
			in[i] = (char)(seed >> 24);
		}
		for (size_t r = 0; r < (size_t)z.rows; r++)
			for (size_t c = 0; c < (size_t)z.cols; c++)
				std::memcpy(&expect[(c * z.rows + r) * z.es], &in[(r * z.cols + c) * z.es], z.es);
		void *d_in, *d_out;
		CHECK(cudaMalloc(&d_in, bytes));
		CHECK(cudaMalloc(&d_out, bytes));
		CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
		double moved = 2.0 * bytes;
		auto gbps = [&](double ms) { return moved / (ms * 1e-3) / 1e9; };
		double t_memcpy =
			time_ms(B, [&] { CHECK(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice, 0)); });
		double t_copy = time_ms(B, [&] { launch_copy(d_in, d_out, bytes); });
		double ceiling = std::max(gbps(t_memcpy), gbps(t_copy));
		std::vector<double> t(NV);
		std::string right;
		for (int i = 0; i < NV; i++) {
			bool ok = false;
			t[i] = vs[i].run(B, d_in, d_out, z.rows, z.cols, expect, bytes, ok);
			right += !vs[i].checked ? '-' : ok ? 'y' : 'N';
		}
		std::printf("| %dx%d | %.0f %.1fus |", z.rows, z.cols, ceiling, moved / ceiling / 1e3);
		for (int i = 0; i < NV; i++)
			std::printf(" %.1f%% %.1fus |", 100 * gbps(t[i]) / ceiling, 1e3 * t[i]);
		std::printf(" %s |\n", right.c_str());
		std::fflush(stdout);
		CHECK(cudaFree(d_in));
		CHECK(cudaFree(d_out));
	}
	return 0;
}
