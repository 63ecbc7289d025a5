/*
 * family-transpose.c - the out-of-place matrix transpose,
 * out[c][r] = in[r][c], as a point in a space of tile shapes, shared-memory
 * padding, work per block, block order and access width.
 *
 * The classic kernels are points of this space: the naive kernel is
 * shared=off, the textbook tile is tile=32,block_rows=8,pad=0, its
 * bank-conflict-free form pad=1, the diagonal reordering mapping=diagonal,
 * and several tiles per block unroll>1.  sector=on is gputune's own: for
 * row counts that are not a multiple of a 32-byte sector it writes each
 * output row in sector-aligned windows (measured on an H200: misaligned
 * stores cost a third of the bandwidth at 8191 x 8192, misaligned loads
 * a tenth at 8192 x 8191).  The default space searches the cartesian and
 * colmajor block orders: on the H200 colmajor won at most sizes (96.8% of
 * the ceiling at 8192, 87.9% at 8191) and the diagonal order at none, so
 * it is left to --param mapping=diagonal.  Likewise tile=16 and pad=0 never
 * won there (1 to 4% and 3 to 16% behind), so they are left out of the
 * default space, which kept a tuning run near 630 f32 variants (690 with
 * pair=on, 890 with async).
 * realign=on, also gputune's own, loads input rows that start off a vector
 * boundary (cols not a multiple of vec) as aligned vectors shifted into
 * place through warp shuffles.  Measured on H200s it won at 3001 x 7000 (by
 * 1.6%), 2898^2 and 2900^2 (1%) and f16 3000 x 5000 (3%), and lost nowhere
 * by more than noise, but it adds a fifth to the variants, and on a host
 * whose compiler is the bottleneck a cold `--sizes 1024-8192` then took
 * 62.9 s (29 s of it waiting for NVRTC); so it is left to --param
 * realign=on (or all).
 * pair=on, for 2- and 4-byte elements, moves them in units of two: each
 * thread loads the units at one place of two neighbouring input rows and
 * makes the two output units of their halves, so the shared tile holds
 * units and no access is 2-byte.  Tuned on an H200 (1024-8192 and its
 * extra sizes), its best beat the rest of the space's at the sizes with
 * rows and cols even but not multiples of 8 by 5.7% in the median for f16
 * (6640 x 1316: 88.2% of the copy ceiling against 80.6%) and 1.0% for f32
 * (4868 x 1912: 91.1% against 89.0%), and was within about 1% at the
 * aligned f32 ones (docs/benchmarks.md).  It adds a tenth to the variants
 * and is in the default space; odd rows or cols take the element path,
 * where its variants lose.  pair=quad makes units of four 2-byte elements
 * over four rows: 8-byte units, as f32's pairs are, where with the f16
 * pairs' 4-byte units f16 stayed 6 to 10 points of the ceiling behind f32
 * in the median of each class of even sizes (the H200 run in
 * db/shipped.json).  Tuned on an H200 (bench/odd-study.sh) it won at f16
 * 2904 x 2904, 81.9% of the ceiling against pairs' 80.9%, and lost at
 * 8192 x 8192 (93.5% against 95.3%): not in the default space.
 * async=on (vec=1, 4- and 8-byte elements) loads the tile with cp.async
 * element copies, which hold no register in flight.  On an H200 its best
 * beat the best of the same kernels without it at every odd f32 size tried
 * (2047 x 4093: 86.3% of the copy ceiling against 83.3%; 2047 x 4096:
 * 90.6% against 86.2%; 1315 x 6653: 86.3% against 82.4%) and matched it at
 * 2048 x 4096; it is in the default space, a third more f32 variants (about
 * 890) and half again as many f64 ones (about 430).
 * async=words (f16, vec>1) loads the rows vectors cannot as 4-byte copies
 * of two elements, each row shifted by its start's parity: on two H200s
 * its best beat the rest at f16 1314 x 6653 (odd cols) by 3 to 4 points
 * (74.8% of the copy ceiling against 70.8%), and lost by up to 4 where
 * pairs or vectors apply; it is in the default space, a third more f16
 * variants (about 1,360).  async=rows (f16, any vec) loads every row so,
 * whole tiles too, spread over all the block's threads, so no register
 * holds a load in flight: on an H200 it won at f16 6373 x 1951 (74.6% of
 * the copy ceiling against 71.1%) and lost at 8191 x 8191, 6291 x 6401 and
 * 1314 x 6653 by 0.5 to 2 points, so it is left to --param async=rows.
 * unroll=8 (stripes of 256 input rows with tile 32, so the sector windows'
 * halo is a sixteenth of the rows loaded) is in the default space: tuned
 * on an H200 beside the rest, its best won at the larger odd sizes (f16
 * 8191 x 8191: 74.6% of the copy ceiling against 71.6%; 6291 x 6401 75.8
 * against 73.5; f32 5029 x 1012 88.5 against 86.3) and lost elsewhere (f16
 * 3000 x 5000 by 7 points, f32 4096 x 4096 by 4), where it is not chosen;
 * with the 32-access and shared-memory limits it adds about a tenth to
 * the f16 and f32 variants (1,500 and 964) and none to f64's.
 * rowclass=on (2- and 4-byte elements, sector=on, compute capability 9.0)
 * moves a block's stripe through Hopper's tensor copy engine: rows r, r +
 * N, ... of N elements of 16 bytes (input) or 32 (output) start at one
 * offset within N elements, so each such row class is a tensor the engine
 * can load or store in boxes even where rows start off 16 bytes; the
 * blocks' maps come from src/families/tensor-maps.h, built by the host.  Tuned
 * on an H200 in the default space it won at every odd size tried, f16
 * 8191 x 8191 at 86.2% of the copy ceiling (74.1% in the run of record
 * without it), 6291 x 6401 89.7 (76.8), 1314 x 6653 78.4 (67.2), f32
 * 1315 x 6653 90.5 (86.1) and 7777 x 1111 90.6 (88.1); it adds 54 f16, 56
 * f32 and i32 variants (docs/benchmarks.md, "Row classes in the space").
 * pair=vector (2-byte elements, vec=8, rows and cols multiples of 8) makes
 * pairs' words of two 16-byte loads of neighbouring rows, keeps them in
 * shared memory swizzled in 16-byte chunks, and stores 16 bytes a lane, so
 * that a warp's instruction covers up to 512 bytes of one row on both
 * sides, where the element path's and the pairs' cover 128 bytes of four
 * rows or less (rows off 128-byte lines cost such instructions twice the
 * lines).  Tuned on an H200 beside the default space it won at every f16
 * size with rows on 16 bytes tried but 4096 x 4096 and 8192 x 8192, where
 * it was within a point (1328 x 6648: 98.5% of the copy ceiling against
 * 90.0%; 6648 x 1328 91.0 against 82.1; 2904 x 2904 87.7 against 82.5); it
 * adds 78 f16 variants, with tile=128 and block_rows=32 (default_only).
 * With vec=4 or 2 the same moves 8- or 4-byte vectors (rows and cols
 * multiples of vec, instructions of up to 256 or 128 bytes of a row), for
 * the sizes that miss 16 bytes.  Tuned on H200s beside the default space,
 * vec=4 won at each of eight sizes on 8 bytes, by 0.6 to 8.3 points (1320 x
 * 6652: 91.3% against 83.0), and vec=2 at three of eight even sizes, by
 * 0.9 to 3.4 (1316 x 6654: 84.2% against 80.8); they add 100 and 98 f16
 * variants.  With realign=on the loads take any cols (each row's piece
 * loaded as 8-byte pieces from the boundary before it and shifted into
 * place by selects and byte permutes; first 16-byte vectors and shuffles,
 * which held more registers and read 1 to 2 points less of the ceiling),
 * the stores vec wide, for rows a multiple of vec: tuned on an H200 beside
 * the default space (the first form), it won where cols is odd (4880 x
 * 1911: 89.3% against 84.9; 6648 x 1315: 81.9 against 79.7), tied at 7384
 * x 6654 and lost where the plain vectors apply (8192 x 8192: 90.6 against
 * 97.7; the 8-byte pieces 92.0), where it
 * is not chosen; it adds 276 f16 variants, and realign=on comes by default
 * only with pair=vector (default_only).  realign=out (pair=vector, vec=8)
 * takes the other side: output rows of any length, kept by columns in
 * shared memory and stored as the whole 16 bytes each covers, with the
 * ends element by element (gt_transpose_vectors_out), the loads 16 bytes
 * where cols is a multiple of 8.  Tuned on H200s beside the default space
 * it won at the f16 sizes with such cols and rows off 8 (1315 x 6648:
 * 83.4% of the copy ceiling against 79.5; 1314 x 6640: 84.6 against
 * 81.0) and lost at 7382 x 6648 (84.1 against 86.0); at 1328 x 6648,
 * rows on 16 bytes, it reads 93.6 where the plain vectors read 97.9.  It
 * adds 78 f16 variants.  realign=both adds realign=on's loads for any
 * cols; it lost at every size tried, by 6 to 14 points, and is searched
 * only when asked for (docs/benchmarks.md, "Output rows of any length").
 */
#include "families/family.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

enum { P_TILE, P_BLOCK_ROWS, P_PAD, P_UNROLL, P_MAPPING, P_VEC, P_SHARED, P_SECTOR, P_WIDE, P_REALIGN, P_PAIR, P_ASYNC,
       P_ROWCLASS, P_INJECT, NPARAMS };
_Static_assert(NPARAMS <= MAX_PARAMS, "more parameters than MAX_PARAMS");

static const char *const mapping_names[] = { "cartesian", "diagonal", "colmajor", NULL };
static const char *const off_on[] = { "off", "on", NULL };
static const char *const pair_names[] = { "off", "on", "quad", "vector", NULL };
enum { PAIR_QUAD = 2, PAIR_VECTOR = 3 }; /* their values: indices into pair_names */
static const char *const realign_names[] = { "off", "on", "out", "both", NULL };
/* realign's values as bits: on realigns the loads, out the stores, both the two */
enum { REALIGN_LOADS = 1, REALIGN_STORES = 2 };
static const char *const async_names[] = { "off", "on", "words", "rows", NULL };
static const char *const inject_names[] = { "none", "wrong", "fault", "overrun", NULL };

static const struct param_def params[NPARAMS] = {
	[P_TILE] = { "tile", "GT_TILE", "edge of the square tile one block moves (128: by default only with pair=vector)",
		     NULL, { 8, 16, 32, 64, 128 }, 5, { 32, 64, 128 }, 3, 32, 0 },
	[P_BLOCK_ROWS] = { "block_rows", "GT_BLOCK_ROWS", "threads per block in y; each walks the tile in steps of this (32: by default only with pair=vector)",
			   NULL, { 1, 2, 4, 8, 16, 32, 64 }, 7, { 4, 8, 16, 32 }, 4, 8, 0 },
	[P_PAD] = { "pad", "GT_PAD", "elements of padding per shared-memory tile row (bank conflicts)",
		    NULL, { 0, 1, 2, 3, 4, 8 }, 6, { 1, 2 }, 2, 1, 0 },
	[P_UNROLL] = { "unroll", "GT_UNROLL", "tiles one block moves, stacked down the input (all loads in flight before the stores)",
		       NULL, { 1, 2, 4, 8 }, 4, { 1, 2, 4, 8 }, 4, 1, 0 },
	[P_MAPPING] = { "mapping", "GT_MAPPING", "order of blocks over tiles: cartesian, diagonal or colmajor",
			mapping_names, { 0, 1, 2 }, 3, { 0, 2 }, 2, 0, 0 },
	[P_VEC] = { "vec", "GT_VEC", "elements per global load and store (aligned interior tiles)",
		    NULL, { 1, 2, 4, 8 }, 4, { 1, 2, 4, 8 }, 4, 1, 0 },
	[P_SHARED] = { "shared", "GT_SHARED", "stage the tile in shared memory (off: the naive kernel)",
		       off_on, { 0, 1 }, 2, { 1, 0 }, 2, 1, 0 },
	[P_SECTOR] = { "sector", "GT_SECTOR", "write output rows in windows aligned to 32-byte sectors (odd row counts)",
		       off_on, { 0, 1 }, 2, { 0, 1 }, 2, 0, 0 },
	[P_WIDE] = { "wide", "GT_WIDE", "tiles per block side by side along the input rows",
		     NULL, { 1, 2, 4 }, 3, { 1, 2 }, 2, 1, 0 },
	[P_REALIGN] = { "realign", "GT_REALIGN", "load input rows that start off a vector boundary (cols not a multiple of vec) as aligned vectors shifted into place; with pair=vector (by default only there), any cols, loaded in 8-byte pieces, whatever vec the output takes; out (pair=vector, vec=8): output rows of any length (rows), each stored as the whole 16 bytes it covers, its ends element by element, the loads 16 bytes (cols a multiple of 8); both: out with on's loads, any rows and cols",
			realign_names, { 0, 1, 2, 3 }, 4, { 0, 1, 2 }, 3, 0, 0, 1 },
	[P_PAIR] = { "pair", "GT_PAIR", "move 2- and 4-byte elements in units of two, two input rows at a time (when rows and cols are even; else element by element); quad: 2-byte elements in units of four, four rows at a time (rows and cols multiples of 4); vector: 2-byte elements in units of two as vectors of vec elements on both sides, a warp's instruction covering up to tile x wide x 2 bytes of an input row and tile x unroll x 2 of an output row, at most 64 x vec (vec=8, 4 or 2; rows and cols multiples of vec, or with realign=on rows alone, the loads in 8-byte pieces; with realign=out, vec=8, cols alone, and with both any sizes)",
		     pair_names, { 0, 1, 2, 3 }, 4, { 0, 1, 3 }, 3, 0, 0, 1 },
	[P_ASYNC] = { "async", "GT_ASYNC", "load the tile (vec=1) with asynchronous element copies straight into shared memory, no register between (4- and 8-byte elements); words (2-byte elements, vec>1): rows not loaded as vectors as aligned asynchronous 4-byte copies of two elements, each row shifted by its start's parity (pad even, at least 2); rows (2-byte elements, any vec): every row so, whole tiles too, the words spread over all the block's threads; the same kernels with plain loads before compute capability 8.0",
		      async_names, { 0, 1, 2, 3 }, 4, { 0, 1, 2 }, 3, 0, 0, 1 },
	[P_ROWCLASS] = { "rowclass", "GT_ROWCLASS", "move the blocks through the tensor copy engine, by row classes of 16 bytes of the input and 32 of the output (2- and 4-byte elements, sector=on, vec=1, compute capability 9.0); the block of the last rows and columns takes the element path",
			 off_on, { 0, 1 }, 2, { 0, 1 }, 2, 0, 0, 1 },
	[P_INJECT] = { "inject", "GT_INJECT", "test-only: GT_INJECT for a test's copy of the template (tests/faults), which injects a fault: wrong, fault or overrun; the shipped template has none",
		       inject_names, { 0, 1, 2, 3 }, 4, { 0 }, 1, 0, 1 },
};

/* Elements a unit of the pair path: pair=on two, pair=quad four. */
static int pair_unit(const int *v)
{
	return v[P_PAIR] == PAIR_QUAD ? 4 : 2;
}

/* A rowclass block's stripe of input rows and width of columns, the
 * boxes its tensor maps describe; whether v takes the maps. */
static int tensor_maps(const int *v, unsigned *stripe, unsigned *width)
{
	*stripe = (unsigned)(v[P_TILE] * v[P_UNROLL]);
	*width = (unsigned)(v[P_TILE] * v[P_WIDE]);
	return v[P_ROWCLASS];
}

/* Bytes of a rowclass block's boxes, the output's over the input's:
 * templates/transpose.cu's gt_rowclass_geometry. */
static size_t rowclass_bytes(size_t es, size_t stripe, size_t width)
{
	size_t ni = 16 / es, no = 32 / es;
	size_t in = ni * (((stripe + no) / ni * (width + ni) * es + 127) / 128 * 128), out = width * stripe * es;
	return in > out ? in : out;
}

/* The rowclass constraints: the engine's alignment and box limits, and
 * the element path for the blocks at the edges. */
static const char *reject_rowclass(const int *v, const struct dtype *dt, const struct device_limits *lim,
				   char *buf, size_t n)
{
	const size_t es = dt->size;
	unsigned ustripe, uwidth;
	tensor_maps(v, &ustripe, &uwidth);
	const int stripe = (int)ustripe, width = (int)uwidth;
	if (es != 2 && es != 4) {
		snprintf(buf, n, "rowclass needs 2- or 4-byte elements (the element is %zu bytes)", es);
		return buf;
	}
	if (lim->cc && lim->cc < 90) {
		snprintf(buf, n, "rowclass needs compute capability 9.0, the tensor copy engine (the target is %d.%d)",
			 lim->cc / 10, lim->cc % 10);
		return buf;
	}
	/* The engine's blocks store each output row's sector window. */
	if (!v[P_SHARED] || !v[P_SECTOR])
		return "rowclass needs shared=on and sector=on";
	/* These shape only the blocks at the edges: one setting of each. */
	if (v[P_VEC] != 1 || v[P_PAD] != 1 || v[P_ASYNC] || v[P_REALIGN] || v[P_PAIR])
		return "rowclass needs vec=1, pad=1, async=off, realign=off and pair=off";
	/* f16 moves two rows a lane, 64 a warp's step. */
	const int step = es == 2 ? 64 : 32, ni = (int)(16 / es), no = (int)(32 / es);
	if (stripe % step || stripe > 256) {
		snprintf(buf, n, "rowclass needs tile x unroll a multiple of %d and at most 256 (%d)", step, stripe);
		return buf;
	}
	/* A box is at most 256 elements a side. */
	if (width % no || width + ni > 256) {
		snprintf(buf, n, "rowclass needs tile x wide a multiple of %d and at most %d (%d)", no, 256 - ni,
			 width);
		return buf;
	}
	/* Each warp moves whole output rows of one class: with vec=1, a
	 * block of tile x block_rows threads (at most 1024, tile a multiple of
	 * block_rows) always splits a class's rows evenly over its warps (the
	 * template asserts it). */
	return NULL;
}

/* The pair=vector constraints: 16-, 8- or 4-byte lanes of 2-byte elements,
 * and the swizzle's whole bank groups (templates/transpose.cu,
 * gt_transpose_vectors); the settings that shape only the element path
 * that the other sizes take, one each. */
static const char *reject_pair_vector(const int *v, const struct dtype *dt, char *buf, size_t n)
{
	if (dt->size != 2) {
		snprintf(buf, n, "pair=vector needs 2-byte elements (the element is %zu bytes)", dt->size);
		return buf;
	}
	if (!v[P_SHARED] || v[P_VEC] < 2)
		return "pair=vector needs shared=on and vec=8, 4 or 2 (16, 8 or 4 bytes a lane)";
	if (v[P_SECTOR] || v[P_ASYNC] || v[P_PAD] != 1)
		return "pair=vector needs sector=off, async=off and pad=1";
	const int width = v[P_TILE] * v[P_WIDE], stripe = v[P_TILE] * v[P_UNROLL];
	if (width % 32 || stripe % (8 * v[P_VEC])) {
		snprintf(buf, n, "pair=vector needs tile x wide a multiple of 32 (%d) and tile x unroll of 8 x vec, %d (%d)",
			 width, 8 * v[P_VEC], stripe);
		return buf;
	}
	return NULL;
}

/* realign=on's constraints, where pair=vector does not take its own path
 * (accesses: global accesses per thread and phase). */
static const char *reject_realign(const int *v, const struct dtype *dt, int accesses, char *buf, size_t n)
{
	int tile = v[P_TILE], vec = v[P_VEC];
	if (!v[P_SHARED])
		return "realign needs the shared-memory tile (shared=off)";
	if (vec == 1)
		return "realign needs vec>1";
	/* Each row step holds its vectors, their neighbours' and the
	 * shifted result: past 8 steps a thread takes 80 registers on
	 * sm_90 (measured), and the occupancy lost costs more than the
	 * wider loads gain. */
	if (accesses > 8) {
		snprintf(buf, n, "realign allows at most 8 row steps per thread and phase (%d)", accesses);
		return buf;
	}
	/* Each row's piece costs one more vector, loaded by one thread.
	 * On rows narrower than 64 elements that is a larger share: at
	 * 18 sizes tuned on an H200 such variants never beat the rest of
	 * the space by more than 0.1%, where the wider ones won by up
	 * to 3% (f16 3000x5000), so they are left out. */
	if (tile * v[P_WIDE] < 64) {
		snprintf(buf, n, "realign needs rows of at least 64 elements per block (tile x wide = %d)",
			 tile * v[P_WIDE]);
		return buf;
	}
	if ((size_t)vec * dt->size < 8) {
		snprintf(buf, n, "realign needs accesses of at least 8 bytes (vec x element size is %zu)",
			 (size_t)vec * dt->size);
		return buf;
	}
	if (tile / vec > 32) {
		snprintf(buf, n, "realign needs a tile row's threads (tile / vec = %d) within a warp (32)",
			 tile / vec);
		return buf;
	}
	return NULL;
}

/* The async copies' constraints: element sizes, the tile, vec and pad. */
static const char *reject_async(const int *v, const struct dtype *dt, char *buf, size_t n)
{
	int vec = v[P_VEC];
	/* on copies one element of 4 or 8 bytes, the smallest copy 4;
	 * words copy two 2-byte elements: f32's 8-byte words lost to
	 * async=on at the odd sizes on an H200 (2047 x 4093: 87.7% of
	 * the copy ceiling against 88.7%). */
	const int words = v[P_ASYNC] >= 2, all_rows = v[P_ASYNC] == 3;
	const char *name = all_rows ? "async=rows" : "async=words";
	if (words ? dt->size != 2 : dt->size < 4) {
		if (words)
			snprintf(buf, n, "%s needs 2-byte elements (the element is %zu bytes)", name, dt->size);
		else
			snprintf(buf, n, "async needs elements of at least 4 bytes (the element is %zu bytes)",
				 dt->size);
		return buf;
	}
	if (!v[P_SHARED])
		return "async needs the shared-memory tile (shared=off)";
	/* on: a vec>1 variant would take the copies only where its
	 * vectors do not fit, and measured on an H200 the vec=1 ones
	 * were the faster at every odd size.  words load the rows that
	 * vectors cannot (cols not a multiple of vec): with vec=1 only
	 * the edge tiles, and whole rows as words with vec=1 measured
	 * slower than as elements (f16 8191 x 8191: 68.7% against
	 * 71.6%), each row's words then left to its own threads.  rows
	 * loads every row as words over all the block's threads, with
	 * any vec. */
	if (!words && vec != 1)
		return "async needs vec=1 (it copies element by element)";
	if (words && !all_rows && vec == 1)
		return "async=words needs vec>1 (it loads the rows vectors cannot)";
	/* Rows start on a word, and each holds its piece one element
	 * in where the piece starts off a word. */
	if (words && (v[P_PAD] < 2 || v[P_PAD] % 2)) {
		snprintf(buf, n, "%s needs an even pad of at least 2 (pad=%d)", name, v[P_PAD]);
		return buf;
	}
	if (words && v[P_REALIGN])
		return all_rows ? "async=rows needs realign=off (it loads every row as words)"
				: "async=words needs realign=off (it loads the rows realign would)";
	return NULL;
}

/* pair=on and quad's constraints: units of two or four elements. */
static const char *reject_pair_units(const int *v, const struct dtype *dt, char *buf, size_t n)
{
	int tile = v[P_TILE], br = v[P_BLOCK_ROWS], vec = v[P_VEC];
	/* A unit of two 8-byte elements would be 16 bytes, the
	 * widest access, with no room for vectors; f64 needs it least. */
	if (dt->size > 4) {
		snprintf(buf, n, "pair needs elements of at most 4 bytes (the element is %zu bytes)", dt->size);
		return buf;
	}
	if (!v[P_SHARED])
		return "pair needs the shared-memory tile (shared=off)";
	if (vec % 2)
		return "pair needs an even vec (two elements a unit)";
	/* Four 2-byte elements make an 8-byte unit, as two 4-byte ones
	 * do: four 4-byte ones would leave no room for vectors. */
	if (v[P_PAIR] == PAIR_QUAD && dt->size != 2) {
		snprintf(buf, n, "pair=quad needs 2-byte elements (the element is %zu bytes)", dt->size);
		return buf;
	}
	if (v[P_PAIR] == PAIR_QUAD && vec % 4)
		return "pair=quad needs vec a multiple of 4 (four elements a unit)";
	/* The unit tile's rows are written whole by one block and read
	 * down its columns: sector windows, side-by-side tiles and the
	 * realigned loads belong to the tile of elements. */
	if (v[P_SECTOR] || v[P_WIDE] != 1 || v[P_REALIGN])
		return "pair needs sector=off, wide=1 and realign=off";
	/* One unit of padding keeps the column reads free of bank
	 * conflicts; two would make them two-way. */
	if (v[P_PAD] != 1)
		return "pair needs pad=1 (one unit of padding)";
	/* The unit tile is tile / K square (K elements a unit), walked
	 * in steps of block_rows: more rows of threads than it has
	 * would load and store past it. */
	int k = pair_unit(v);
	if (tile / k % br) {
		snprintf(buf, n, "pair needs block_rows to divide the unit tile's edge, tile / %d (%d)", k,
			 tile / k);
		return buf;
	}
	return NULL;
}

/* Shared memory per block: the tile's, the pair paths' and the tensor
 * copy engine's boxes, the largest within the device's limit. */
static const char *reject_smem(const int *v, const struct dtype *dt, const struct device_limits *lim, char *buf,
			       size_t n)
{
	int tile = v[P_TILE];
	size_t halo = v[P_SECTOR] ? 32 / dt->size : 0;
	unsigned ustripe, uwidth; /* the block's, whether or not it takes maps */
	tensor_maps(v, &ustripe, &uwidth);
	size_t stripe = ustripe, width = uwidth;
	size_t smem = (halo + stripe) * (width + (size_t)v[P_PAD]) * dt->size;
	/* The template's buffer holds either tile: the larger counts. */
	size_t k = (size_t)pair_unit(v);
	/* pair=vector with realign=out or both: each column's stripe / 2
	 * words and four more, the columns moved on by up to 28 words
	 * (the template's gt_transpose_vectors_out). */
	size_t vectors = v[P_REALIGN] & REALIGN_STORES ? width * (stripe / 2 + 4) * 4 + 28 * 4 : stripe * width * dt->size;
	size_t pair = v[P_PAIR] == PAIR_VECTOR ? vectors
		      : v[P_PAIR] ? k * (tile / k * (size_t)v[P_UNROLL]) * (tile / k + (size_t)v[P_PAD]) * k * dt->size
				  : 0;
	if (pair > smem)
		smem = pair;
	/* The boxes share the buffer, on 128 bytes, beside the
	 * engine's barrier. */
	if (v[P_ROWCLASS]) {
		size_t boxes = rowclass_bytes(dt->size, stripe, width) + 128 + 8;
		if (boxes > smem)
			smem = boxes;
	}
	if (smem > (size_t)lim->max_smem_per_block) {
		snprintf(buf, n, "shared memory per block exceeds the device limit (%zu > %d bytes)",
			 smem, lim->max_smem_per_block);
		return buf;
	}
	return NULL;
}

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	int tile = v[P_TILE], br = v[P_BLOCK_ROWS], vec = v[P_VEC];
	if (tile % br)
		return "tile is not a multiple of block_rows";
	if (tile % vec)
		return "tile is not a multiple of vec";
	if (family_reject_access(vec, dt, buf, n))
		return buf;
	if (!v[P_SHARED] && v[P_PAD])
		return "pad needs the shared-memory tile (shared=off)";
	if (!v[P_SHARED] && vec != 1)
		return "vec>1 needs the shared-memory tile (shared=off)";
	int threads = tile / vec * br;
	if (family_reject_threads(threads, lim, buf, n))
		return buf;
	if (threads < 32) {
		snprintf(buf, n, "block smaller than a warp (%d threads)", threads);
		return buf;
	}
	/* Every access of a phase is unrolled and in flight at once: past 32
	 * per thread the registers spill and NVRTC takes seconds a variant. */
	int accesses = tile * v[P_UNROLL] / br * v[P_WIDE];
	if (accesses > 32) {
		snprintf(buf, n, "more than 32 global accesses per thread and phase (%d)", accesses);
		return buf;
	}
	if (v[P_SECTOR] && !v[P_SHARED])
		return "sector needs the shared-memory tile (shared=off)";
	if (v[P_SECTOR] && (size_t)tile * (size_t)v[P_UNROLL] * dt->size % 32) {
		snprintf(buf, n, "sector=on needs tile x unroll to span whole 32-byte sectors (%zu bytes)",
			 (size_t)tile * (size_t)v[P_UNROLL] * dt->size);
		return buf;
	}
	if (v[P_REALIGN] & REALIGN_STORES && (v[P_PAIR] != PAIR_VECTOR || vec != 8))
		return "realign=out and both need pair=vector and vec=8 (16 bytes a lane)";
	if (v[P_REALIGN] && v[P_PAIR] != PAIR_VECTOR) {
		const char *why = reject_realign(v, dt, accesses, buf, n);
		if (why)
			return why;
	}
	if (v[P_ASYNC]) {
		const char *why = reject_async(v, dt, buf, n);
		if (why)
			return why;
	}
	if (v[P_PAIR]) {
		const char *why = v[P_PAIR] == PAIR_VECTOR ? reject_pair_vector(v, dt, buf, n) : reject_pair_units(v, dt, buf, n);
		if (why)
			return why;
	}
	if (v[P_ROWCLASS]) {
		const char *why = reject_rowclass(v, dt, lim, buf, n);
		if (why)
			return why;
	}
	if (v[P_SHARED])
		return reject_smem(v, dt, lim, buf, n);
	return NULL;
}

/* tile=128 and block_rows=32 are searched by default only with
 * pair=vector, whose 128 x 128 blocks of 256 threads won at most f16 sizes
 * tuned on an H200 (5992 x 5400: 92.4% of the copy ceiling against 89.7%
 * with the default tiles), where with the other paths they would add half
 * again as many f16 variants; so is realign=on, whose element path adds a
 * fifth to the variants for gains of a few points (see the top). */
static const char *default_only(const int *v, const int *asked)
{
	if (v[P_PAIR] == PAIR_VECTOR)
		return NULL;
	if (v[P_REALIGN] && !asked[P_REALIGN])
		return "realign=on is in the default space only with pair=vector";
	if (v[P_TILE] == 128 && !asked[P_TILE])
		return "tile=128 is in the default space only with pair=vector";
	if (v[P_BLOCK_ROWS] == 32 && !asked[P_BLOCK_ROWS])
		return "block_rows=32 is in the default space only with pair=vector";
	return NULL;
}

static unsigned ceil_div(long a, long b)
{
	return (unsigned)((a + b - 1) / b);
}

static void geometry(const int *v, const struct dtype *dt, const struct dims *d,
		     struct launch_geometry *g)
{
	(void)dt;
	long rows = d->rows, cols = d->cols;
	unsigned nx = ceil_div(cols, (long)v[P_TILE] * v[P_WIDE]);
	unsigned ny = ceil_div(rows, (long)v[P_TILE] * v[P_UNROLL]);
	g->grid[0] = nx * ny;
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = (unsigned)(v[P_TILE] / v[P_VEC]);
	g->block[1] = (unsigned)v[P_BLOCK_ROWS];
	g->block[2] = 1;
	g->smem = 0;
}

/* Blocked so that both sides stay in cache: a naive loop over 8192^2
 * elements is several times slower on the host. */
static void reference(const void *in, void *out, const struct dtype *dt, const struct dims *d)
{
	long rows = d->rows, cols = d->cols;
	size_t esize = dt->size;
	const char *src = in;
	char *dst = out;
	const long B = 64;
	for (long r0 = 0; r0 < rows; r0 += B)
		for (long c0 = 0; c0 < cols; c0 += B)
			for (long r = r0; r < r0 + B && r < rows; r++)
				for (long c = c0; c < c0 + B && c < cols; c++)
					memcpy(dst + ((size_t)c * (size_t)rows + (size_t)r) * esize,
					       src + ((size_t)r * (size_t)cols + (size_t)c) * esize, esize);
}

static const char *const classics[] = {
	"naive:tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off,sector=off",
	"tile32x8-pad1:tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off",
	"tile32x8:tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off",
	"tile32x8-pad1-unroll2:tile=32,block_rows=8,pad=1,unroll=2,mapping=cartesian,vec=1,shared=on,sector=off",
	"tile32x8-pad1-diagonal:tile=32,block_rows=8,pad=1,unroll=1,mapping=diagonal,vec=1,shared=on,sector=off",
	NULL
};

const struct family family_transpose = {
	.name = "transpose",
	.summary = "out-of-place matrix transpose, out[c][r] = in[r][c]",
	.command_summary = "tune the transpose kernels for this GPU at the given sizes",
	.template_name = "templates/transpose.cu",
	.kernel_name = "gputune_transpose",
	.shape = SHAPE_2D,
	.default_sizes = "1024-8192",
	.dtypes = "f32,f64,f16,i32",
	.metric = METRIC_BYTES,
	.check = CHECK_EXACT,
	.ceiling = CEILING_COPY,
	.args = ARGS_MATRIX,
	.params = params,
	.nparams = NPARAMS,
	.reject = reject,
	.default_only = default_only,
	.tensor_maps = tensor_maps,
	.maps_code = "src/families/tensor-maps.h",
	.maps_note = "Variants with config.rowclass take, after the other arguments, the maps of\n"
		     "gputune_tmaps_build(stripe = tile x unroll, width = tile x wide); under nvcc\n"
		     "gputune_transpose_launch() builds them.",
	.geometry = geometry,
	.geometry_c =
		"\tunsigned width = (unsigned)(c->tile * c->wide);\n"
		"\tunsigned nx = (cols + width - 1) / width;\n"
		"\tunsigned stripe = (unsigned)(c->tile * c->unroll);\n"
		"\tgrid[0] = nx * ((rows + stripe - 1) / stripe);\n"
		"\tgrid[1] = grid[2] = 1;\n"
		"\tblock[0] = (unsigned)(c->tile / c->vec);\n"
		"\tblock[1] = (unsigned)c->block_rows;\n"
		"\tblock[2] = 1;\n",
	.in_elems = family_elems,
	.out_bytes = family_elems_bytes,
	.work = family_copy_bytes,
	.reference = reference,
	.classics = classics,
	.nreport = 2,
	.fallback = 1,
	.validate_sizes = "random:40:1000-8192",
};
