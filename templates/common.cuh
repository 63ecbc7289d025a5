/*
 * common.cuh - what every family template starts from (between a variant's
 * #defines and the template; headers carry it once).  Kernels move bits:
 * gt_uint<BYTES>::type serves f16, f32 and f64.  gt_vec<T, V> is V elements
 * in one aligned access.  With a variant's GT_ELEM_BYTES and GT_VEC,
 * gt_elem, gt_pack and GT_VEC_BYTES (#undef'd by templates at their end).
 */
#ifndef GT_COMMON_TYPES
#define GT_COMMON_TYPES
template <int BYTES> struct gt_uint;
template <> struct gt_uint<2> { typedef unsigned short type; };
template <> struct gt_uint<4> { typedef unsigned int type; };
template <> struct gt_uint<8> { typedef unsigned long long type; };

template <typename T, int V> struct alignas(sizeof(T) * V) gt_vec {
	T e[V];
};
#endif

#ifdef GT_ELEM_BYTES
#if GT_ELEM_BYTES != 2 && GT_ELEM_BYTES != 4 && GT_ELEM_BYTES != 8
#error "GT_ELEM_BYTES must be 2, 4 or 8"
#endif
typedef gt_uint<GT_ELEM_BYTES>::type gt_elem;
#define GT_VEC_BYTES (GT_ELEM_BYTES * GT_VEC)
typedef gt_vec<gt_elem, GT_VEC> gt_pack;
#endif
