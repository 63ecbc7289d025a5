/*
 * tensor-maps.h - the tensor maps a transpose variant with rowclass=on
 * takes after its other arguments (templates/transpose.cu, gt_maps).
 * Compiled into gputune and copied verbatim into every exported header
 * holding such a variant, so the two build them alike: plain C (C11 or
 * C++) needing no CUDA header (the caller passes the driver's
 * cuTensorMapEncodeTiled through a wrapper of the type below).
 *
 * Hopper's tensor copy engine moves boxes of a tensor whose base and row
 * pitch lie on 16 bytes.  A matrix whose rows do not start on 16 bytes is
 * no such tensor, but for N elements of 16 or 32 bytes its rows r, r + N,
 * r + 2N, ... are: class k = r mod N starts at off = k * cols mod N within
 * N elements, its rows N * cols elements apart, so it is a tensor from the
 * boundary below its first row, element (r, c) at column c + off.  The
 * input has NI = 16 / esize classes, the output NO = 32 / esize (each
 * stored box row then whole 32-byte sectors); a block loads a box of each
 * input class (its stripe, a halo of NO rows above it and NI more columns)
 * and stores a box of each output class.
 */
#ifndef GPUTUNE_TMAPS
#define GPUTUNE_TMAPS

#include <stdint.h>
#include <string.h>

/* One map as the driver encodes it: CUtensorMap's size and alignment. */
struct __attribute__((aligned(128))) gputune_tmap {
	uint64_t opaque[16];
};

/* A launch's maps; valid 0 where none could be built, and then every block
 * takes the element path.  The layout of the kernel's gt_maps. */
struct gputune_tmaps {
	struct gputune_tmap in[8], out[16];
	int valid;
};

/* cuTensorMapEncodeTiled's arguments, its enumerations as int; 0 on
 * success. */
typedef int (*gputune_tmaps_encode)(void *map, int dtype, uint32_t rank, void *base, const uint64_t *dims,
				    const uint64_t *strides, const uint32_t *box, const uint32_t *element_strides,
				    int interleave, int swizzle, int l2_promotion, int oob_fill);

/* The maps of a rows x cols matrix of esize-byte elements (2 or 4) from in
 * to out, for blocks of stripe input rows and width columns.  1 when built;
 * 0, with m->valid 0, when the matrix has fewer than NO rows or columns
 * (a class would be empty), a buffer is off 16 bytes, or the driver
 * refused a map. */
static inline int gputune_tmaps_build(gputune_tmaps_encode encode, struct gputune_tmaps *m, const void *in,
				      void *out, uint64_t rows, uint64_t cols, uint32_t esize, uint32_t stripe,
				      uint32_t width)
{
	const uint32_t ni = 16 / esize, no = 32 / esize, estrides[2] = { 1, 1 };
	/* CU_TENSOR_MAP_DATA_TYPE_UINT16 or _UINT32: the bits move as they are. */
	const int dtype = esize == 2 ? 1 : 2, l2_256b = 3;
	memset(m, 0, sizeof(*m));
	if (!encode || (esize != 2 && esize != 4) || rows < no || cols < no || (uintptr_t)in % 16 ||
	    (uintptr_t)out % 16)
		return 0;
	for (uint32_t k = 0; k < ni; k++) {
		const uint64_t first = k * cols, off = first % ni;
		const uint64_t dims[2] = { cols + off, (rows - k + ni - 1) / ni }, strides[1] = { ni * cols * esize };
		const uint32_t box[2] = { width + ni, (stripe + no) / ni };
		if (encode(&m->in[k], dtype, 2, (char *)(uintptr_t)in + (first - off) * esize, dims, strides, box,
			   estrides, 0, 0, l2_256b, 0))
			return 0;
	}
	/* An output class ends on its last whole NO elements: the engine
	 * clips a store at a tensor's end only to 16 bytes. */
	for (uint32_t k = 0; k < no; k++) {
		const uint64_t first = k * rows, off = first % no;
		const uint64_t dims[2] = { (rows + off) / no * no, (cols - k + no - 1) / no },
			       strides[1] = { no * rows * esize };
		const uint32_t box[2] = { stripe, width / no };
		if (encode(&m->out[k], dtype, 2, (char *)out + (first - off) * esize, dims, strides, box, estrides, 0,
			   0, l2_256b, 0))
			return 0;
	}
	m->valid = 1;
	return 1;
}

#endif
