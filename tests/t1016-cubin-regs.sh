#!/bin/sh
# Register counts read from CUBINs (src/compile/cubin-regs.c), which exported
# headers hold their kernels to: for variants of every family, the count
# read from the image NVRTC made is the one ptxas reports, and images cut
# short or corrupted are read within their bounds.
. "$(dirname "$0")/setup"
render() {
	_out=$1 _family=$2 _dtype=$3
	shift 3
	_args=
	for _p in "$@"; do _args="$_args --param $_p"; done
	# shellcheck disable=SC2086
	"$GPUTUNE" source "$_family" --dtype "$_dtype" $_args > "$T/$_out.cu"
}
render t16 transpose f16 tile=64 block_rows=16 pad=1 unroll=2 mapping=colmajor vec=4 sector=on wide=1
render t16u8 transpose f16 tile=32 block_rows=16 pad=2 unroll=8 vec=1 sector=on wide=2
render t32 transpose f32 tile=32 block_rows=16 pad=1 unroll=4 mapping=colmajor vec=1 sector=on wide=2 async=on
render t64 transpose f64 tile=64 block_rows=8 pad=1 unroll=1 vec=2 pair=off
unit_program unit-cubin-regs "the transpose's counts" "$T/t16.cu" "$T/t16u8.cu" "$T/t32.cu" "$T/t64.cu"
render r reduce f32
KERNEL=gputune_reduce unit_program unit-cubin-regs "the reduction's counts" "$T/r.cu"
render g gemm f32
KERNEL=gputune_gemm unit_program unit-cubin-regs "the matrix multiply's counts" "$T/g.cu"
render c copy f32
KERNEL=gputune_copy unit_program unit-cubin-regs "the copy's counts" "$T/c.cu"
done_testing
