#!/bin/sh
# export --split writes what builds include (FILE.h: tables, rule, C
# helpers, the launch helpers' prototypes) apart from the kernels
# (FILE.cu, compiled once): the header holds no kernel, compiles as C11,
# and a CUDA file that includes it and calls choose and launch builds and
# links with the .cu (nvcc).  Usage errors name what is wrong.
. "$(dirname "$0")/setup"

run_gt 0 export --kernel transpose --dtype f64 --split -o "$T/gputune_transpose.h"
check "the header and its .cu are written" test -s "$T/gputune_transpose.h" -a -s "$T/gputune_transpose.cu"
# Kernel code in the header only as the NVRTC program's string literal.
check "the header holds no kernel" sh -c "! grep -v '^[[:space:]]*\"' '$T/gputune_transpose.h' | grep -q '__global__'"
check "the .cu holds the kernels" grep -q '__global__' "$T/gputune_transpose.cu"
grep_in "$T/gputune_transpose.cu" '#include "gputune_transpose.h"'
grep_in "$T/gputune_transpose.h" "cudaError_t gputune_transpose_launch(int variant, const void *in, void *out,"
grep_in "$T/gputune_transpose.h" "compiled once, in gputune_transpose.cu"
printf '#include "gputune_transpose.h"\nint main(void) { return gputune_transpose_choose("NVIDIA H200", 90, "f64", 4096, 4096) < 0; }\n' \
	> "$T/c.c"
check "the header compiles as C11" $CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/c.c" -o "$T/c"
check "...and picks a kernel" "$T/c"

run_gt 2 export --kernel transpose --split
grep_in "$T/err" "--split needs -o FILE.h (the kernels go to FILE.cu)"
run_gt 2 export --kernel transpose --split -o "$T/x.hpp"
grep_in "$T/err" "got '$T/x.hpp'"
run_gt 2 export --format json --split -o "$T/x.h"
grep_in "$T/err" "--split is for headers, not --format json"

gpu_nvcc
if [ ! -x "$NVCC" ]; then
	echo "# no nvcc: the split build was not tried"
	done_testing
fi
cat > "$T/use.cu" <<'CU'
#include "gputune_transpose.h"
int main(void)
{
	cudaDeviceProp p;
	if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
		return 2;
	int v = gputune_transpose_choose(p.name, p.major * 10 + p.minor, "f64", 1000, 3000);
	void *in = 0, *out = 0;
	return gputune_transpose_launch(v, in, out, 0, 0, 0) != cudaSuccess;
}
CU
check "a CUDA file that includes the header compiles" "$NVCC" -arch=sm_90 -O2 -I"$T" -c "$T/use.cu" -o "$T/use.o"
check "the .cu compiles once" "$NVCC" -arch=sm_90 -O2 -I"$T" -c "$T/gputune_transpose.cu" -o "$T/kernels.o"
check "...and the two link" "$NVCC" -arch=sm_90 "$T/use.o" "$T/kernels.o" -o "$T/use"
done_testing
