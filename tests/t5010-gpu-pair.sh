#!/bin/sh
# On a GPU: the f16 transpose with pair=on (2-byte elements moved as
# 32-bit words, two input rows at a time) is right at every kind of size:
# whole tiles, partial ones, rows of an odd number of words (scalar word
# loads), and odd rows or cols (the element-wise path); a variant with a
# fault injected is still caught; and an exported header's kernels, pair
# kernels among them, built by nvcc, are right at sizes nobody tuned.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }

sizes="2x2,64x66,130x4098,1002x302,4096x1030,257x130,130x257,301x1001,2048"
space="--param tile=32,64 --param block_rows=8 --param pad=1 --param unroll=1,2 --param mapping=cartesian,colmajor
	--param vec=2,4,8 --param shared=on --param sector=off --param wide=1 --param realign=off --param pair=on
	--param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 transpose --dtype f16 --sizes $sizes --quiet --no-probe $space
cat "$T/out"
n=$(q "SELECT count(*) FROM measurement")
check "pair variants were measured ($n)" test "$n" -gt 100
for s in $(echo "$sizes" | tr , ' '); do
	case $s in *x*) r=${s%x*} c=${s#*x} ;; *) r=$s c=$s ;; esac
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE m.rows = $r AND m.cols = $c"
	ok=$(q "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")
	check "${r}x$c: every pair variant is right ($ok)" \
		test "$ok" -gt 0 -a "$(q "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status <> 'ok'")" = 0
	check "${r}x$c: every injected fault is caught" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=wrong%' AND m.status <> 'wrong'")" = 0
	# The classics are measured too, and win at the small sizes.
	check "${r}x$c: the winner is right" \
		test "$(q "SELECT m.status FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id WHERE w.rows = $r AND w.cols = $c AND w.dtype = 'f16' AND v.params NOT LIKE '%inject%'")" = ok
done

# The header's kernels, built by nvcc, at sizes nobody tuned.
if [ -z "$NVCC" ] || [ ! -x "$NVCC" ]; then
	NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
fi
run_gt 0 export --kernel transpose --no-shipped -o "$T/gputune_transpose.h"
check "the header holds pair variants" grep -q "pair=on" "$T/gputune_transpose.h"
cat > "$T/pair.cu" <<'CU'
#include "gputune_transpose.h"
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char **argv)
{
	cudaDeviceProp prop;
	if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
		return 2;
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		unsigned rows, cols;
		if (std::sscanf(argv[i], "%ux%u", &rows, &cols) != 2)
			return 2;
		size_t n = (size_t)rows * cols, wrong = 0;
		std::vector<unsigned short> in(n), out(n);
		for (size_t k = 0; k < n; k++)
			in[k] = (unsigned short)(k * 2654435761u >> 9);
		int v = gputune_transpose_choose(prop.name, prop.major * 10 + prop.minor, "f16", rows, cols);
		unsigned short *d_in, *d_out;
		if (v < 0 || cudaMalloc(&d_in, 2 * n) || cudaMalloc(&d_out, 2 * n))
			return 2;
		cudaMemcpy(d_in, in.data(), 2 * n, cudaMemcpyHostToDevice);
		cudaMemset(d_out, 0xff, 2 * n);
		if (gputune_transpose_launch(v, d_in, d_out, rows, cols, 0) != cudaSuccess ||
		    cudaMemcpy(out.data(), d_out, 2 * n, cudaMemcpyDeviceToHost) != cudaSuccess)
			return 2;
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < cols; c++)
				wrong += out[c * rows + r] != in[r * cols + c];
		std::printf("%ux%u %s %s\n", rows, cols, gputune_transpose_variants[v].params, wrong ? "WRONG" : "verified");
		bad |= wrong != 0;
		cudaFree(d_in);
		cudaFree(d_out);
	}
	return bad;
}
CU
check "nvcc builds a consumer of the header" "$NVCC" -arch=sm_90 -O2 -I"$T" "$T/pair.cu" -o "$T/pair"
"$T/pair" 4000x1030 2050x2046 3002x1026 999x1001 1500x998 >"$T/run" 2>&1
check "its f16 results are right" test $? -eq 0
sed 's/^/# /' "$T/run"
check "every size verified" test "$(grep -c verified "$T/run")" -eq 5
check "pair kernels among them" test "$(grep -c 'pair=on verified' "$T/run")" -ge 1
done_testing
