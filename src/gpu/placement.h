/*
 * placement.h - the placements timed launches rotate over at small sizes,
 * shared by the tuner (src/gpu/bench.c) and the benchmark programs
 * (bench/timing.cuh), so that both time a kernel alike.
 *
 * Where input and output together take at most PLACED_BYTES (and the input
 * at least PLACED_MIN, so that filling the others takes few copies), the
 * timed launches rotate over PLACES placements: the buffers themselves and
 * PLACES - 1 others, a MiB and some pages apart, in two allocations of
 * PLACE_SPAN more than the input and the output, the input repeated in
 * its.  Where a small buffer lies moves its kernel's time: on an H200 an
 * f16 1024 x 1024 matrix kernel took 5.18 to 5.63 us over 16 offsets into its
 * buffers (809 to 745 GB/s, 790 the median), so a figure from one
 * placement could land 4% above or below what a caller's buffers,
 * anywhere, see, and pick the winner of near ties by where the tuner's
 * buffers happened to lie.  Rotated over those 16, it read 785 to 790 GB/s
 * in three runs.  Larger buffers span enough memory to average it out
 * themselves.
 */
#ifndef GPUTUNE_PLACEMENT_H
#define GPUTUNE_PLACEMENT_H

#include <stddef.h>

#define PLACES 8
#define PLACED_BYTES ((size_t)64 << 20)
#define PLACED_MIN ((size_t)64 << 10)
#define PLACE_SPAN ((size_t)PLACES << 20)

/* Whether launches at this size rotate over placements. */
static inline int placed(size_t in_bytes, size_t out_bytes)
{
	return in_bytes >= PLACED_MIN && in_bytes + out_bytes <= PLACED_BYTES;
}

/* Placement k's offset into the other placements' allocations (k from 1
 * to PLACES - 1): k - 1 MiB and a few pages, so that no two share their
 * offset within a page group either. */
static inline size_t place_offset(int k)
{
	return ((size_t)(k - 1) << 20) + ((size_t)(k * 5 % 8) << 12);
}

#endif /* GPUTUNE_PLACEMENT_H */
