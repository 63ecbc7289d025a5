/*
 * common.cuh - what every family template starts from; gputune puts it
 * between a variant's #defines and the family's template.
 *
 * From GT_ELEM_BYTES (2, 4 or 8) and GT_VEC (elements per access): the
 * element type gt_elem (kernels move bits, so one unsigned type per size
 * serves f16, f32 and f64) and gt_pack, GT_VEC elements moved as one
 * aligned access (ld/st.global.v2/v4).  Templates #undef GT_VEC_BYTES at
 * their end, so several variants can share a translation unit.
 */
#if GT_ELEM_BYTES == 2
typedef unsigned short gt_elem;
#elif GT_ELEM_BYTES == 4
typedef unsigned int gt_elem;
#elif GT_ELEM_BYTES == 8
typedef unsigned long long gt_elem;
#else
#error "GT_ELEM_BYTES must be 2, 4 or 8"
#endif

#define GT_VEC_BYTES (GT_ELEM_BYTES * GT_VEC)

struct alignas(GT_VEC_BYTES) gt_pack {
	gt_elem e[GT_VEC];
};
