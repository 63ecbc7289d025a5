/*
 * unit-tmaps.c - the tensor maps of a rowclass transpose
 * (src/families/tensor-maps.h, as copied into exported headers), built through a
 * recording encoder: each row class's base, dimensions, pitch and box, and
 * the cases that leave the maps invalid.  Prints TAP-like lines; exits 1
 * on any failure.
 */
#include "families/tensor-maps.h"
#include "unit-check.h"

#include <stdint.h>
#include <stdio.h>

/* What the encoder was asked for, per map in the order of the calls. */
static struct call {
	int dtype;
	uintptr_t base;
	uint64_t dims[2], stride;
	uint32_t box[2];
} calls[32];
static int ncalls, refuse_at = -1;

static int record(void *map, int dtype, uint32_t rank, void *base, const uint64_t *dims, const uint64_t *strides,
		  const uint32_t *box, const uint32_t *element_strides, int interleave, int swizzle, int l2, int oob)
{
	(void)map, (void)rank, (void)element_strides, (void)interleave, (void)swizzle, (void)l2, (void)oob;
	if (ncalls == refuse_at || ncalls >= 32)
		return 1;
	struct call *c = &calls[ncalls++];
	c->dtype = dtype;
	c->base = (uintptr_t)base;
	c->dims[0] = dims[0], c->dims[1] = dims[1], c->stride = strides[0];
	c->box[0] = box[0], c->box[1] = box[1];
	return 0;
}

static struct gputune_tmaps m;

int main(void)
{
	char line[160];
	/* f16 1314 x 6653, blocks of 64 x 128: 8 input classes of 16 bytes,
	 * 16 output classes of 32. */
	const uintptr_t in = 0x100000, out = 0x900000;
	int built = gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 1314, 6653, 2, 64, 128);
	check(built && m.valid && ncalls == 24, "f16: 8 input maps and 16 output maps, valid", NULL);
	/* Input class 3: rows 3, 11, ...; its first row starts at element
	 * 3 x 6653 = 19959, 7 past a 16-byte boundary. */
	const struct call *c = &calls[3];
	snprintf(line, sizeof line, "base %#lx dims %llu x %llu pitch %llu box %u x %u", (unsigned long)c->base,
		 (unsigned long long)c->dims[0], (unsigned long long)c->dims[1], (unsigned long long)c->stride,
		 c->box[0], c->box[1]);
	check(c->dtype == 1 && c->base == in + (19959 - 7) * 2 && c->dims[0] == 6653 + 7 && c->dims[1] == 164 &&
		      c->stride == 8 * 6653 * 2 && c->box[0] == 128 + 8 && c->box[1] == (64 + 16) / 8,
	      "input class 3: from the boundary below its first row, 7 columns in, (1314 - 3) / 8 rounded up rows",
	      line);
	/* Output class 5: output rows 5, 21, ...; row 5 starts at element
	 * 5 x 1314 = 6570, 10 past a 32-byte boundary; it ends on the last
	 * whole 16 elements, (1314 + 10) / 16 x 16. */
	c = &calls[8 + 5];
	snprintf(line, sizeof line, "base %#lx dims %llu x %llu pitch %llu box %u x %u", (unsigned long)c->base,
		 (unsigned long long)c->dims[0], (unsigned long long)c->dims[1], (unsigned long long)c->stride,
		 c->box[0], c->box[1]);
	check(c->base == out + (6570 - 10) * 2 && c->dims[0] == 1312 && c->dims[1] == 416 && c->stride == 16 * 1314 * 2 &&
		      c->box[0] == 64 && c->box[1] == 128 / 16,
	      "output class 5: 10 elements in, ending on whole 32 bytes, (6653 - 5) / 16 rounded up rows", line);
	int aligned = 1;
	for (int k = 0; k < ncalls; k++)
		aligned &= calls[k].base % 16 == 0 && calls[k].stride % 16 == 0;
	check(aligned, "every base and pitch on 16 bytes", NULL);

	/* f32: 4 input classes, 8 output classes, 32-bit elements. */
	ncalls = 0;
	built = gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 2047, 4093, 4, 64, 64);
	check(built && ncalls == 12 && calls[0].dtype == 2 && calls[1].dims[0] == 4093 + 1 && calls[4].box[1] == 64 / 8,
	      "f32: 4 input maps and 8 output maps", NULL);

	/* When none can be built, every block takes the element path. */
	ncalls = 0;
	check(!gputune_tmaps_build(record, &m, (const void *)(in + 2), (void *)out, 1314, 6653, 2, 64, 128) && !m.valid &&
		      ncalls == 0,
	      "an input off 16 bytes: no maps", NULL);
	check(!gputune_tmaps_build(record, &m, (const void *)in, (void *)(out + 8), 1314, 6653, 2, 64, 128) && !m.valid,
	      "an output off 16 bytes: no maps", NULL);
	check(!gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 15, 6653, 2, 64, 128) && !m.valid,
	      "fewer rows than an output class's 16 elements: no maps (a class would be empty)", NULL);
	check(!gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 6653, 7, 4, 64, 64) && !m.valid,
	      "f32 with fewer columns than 8: no maps", NULL);
	check(!gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 100, 100, 8, 64, 64) && !m.valid,
	      "8-byte elements: no maps", NULL);
	check(!gputune_tmaps_build(NULL, &m, (const void *)in, (void *)out, 100, 100, 2, 64, 64) && !m.valid,
	      "no encoder (a driver without one): no maps", NULL);
	ncalls = 0;
	refuse_at = 10;
	check(!gputune_tmaps_build(record, &m, (const void *)in, (void *)out, 1314, 6653, 2, 64, 128) && !m.valid,
	      "a map the driver refuses: no maps", NULL);
	return unit_done();
}
