#!/bin/sh
# On a GPU: the prefix sum tunes at lengths that are not multiples of any
# vector or tile (1, 31, 1000, 65537, 2^20 + 3) and at 2^24, for f32, f64
# and i32, over every value of every parameter; every variant is 'ok'
# (each element within the error bound, and exact on the input of small
# integers); the copy ceiling is stored; the report names the classic
# ladder.  A template that adds one to an element of the second tile, given
# with --templates, is 'wrong' in every variant at every length of two
# tiles or more (on the input whose sums are exact), and never wins.  An exported header's kernel, built by
# nvcc, scans right three launches in a row on one scratch buffer at
# lengths nobody tuned, the second one shorter.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }

space="--param threads=32,256 --param vec=1,4 --param per=1,4 --param block=all --param lookback=all --param pad=all
	--param layout=all --param order=all"
run_gt 0 scan --sizes 1,31,1000,65537,1048579,2^24 --quiet --no-probe $space
cat "$T/out"
for n in 1 31 1000 65537 1048579 16777216; do
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE m.rows = $n AND m.cols = 1"
	check "N=$n: no variant wrong or failed" test "$(q "SELECT count(*) $j AND m.status <> 'ok'")" = 0
	q "SELECT v.params || ': ' || m.status || ' ' || coalesce(m.reason, '') $j AND m.status <> 'ok' LIMIT 3" | sed 's/^/#   /'
	check "N=$n: the whole space and the classics measured" test "$(q "SELECT count(*) $j")" -ge 64
done
grep_in "$T/out" "vs_chained"
grep_in "$T/out" "vs_decoupled"
check "the copy ceiling is stored" \
	test "$(q "SELECT count(*) FROM ceiling WHERE kind = 'copy' AND memcpy_gbps > 0 AND copy_kernel_gbps > 0")" = 6

for dt in f64 i32; do
	run_gt 0 scan --dtype $dt --sizes 1000,65537,2^22 --quiet --no-probe --param threads=128,512 --param vec=all \
		--param per=2,16 --param block=all --param lookback=all --param pad=1 --param order=all
	check "$dt: every variant right" test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.dtype = '$dt' AND m.status <> 'ok'")" = 0
done

# A wrong template: one element of the second tile one too large.
mkdir -p "$T/tmpl"
cp "$top_srcdir/templates/"*.cu* "$T/tmpl/"
sed 's/= x\[i\] + add;/= x[i] + add + A(tile == 1 \&\& t == 0 \&\& i == 0);/' "$top_srcdir/templates/scan.cu" \
	> "$T/tmpl/scan.cu"
check "the wrong template differs" sh -c "! cmp -s '$top_srcdir/templates/scan.cu' '$T/tmpl/scan.cu'"
GPUTUNE_DB="$T/wrong.db" run_gt 0 scan --sizes 1000,65537 --quiet --no-probe --templates "$T/tmpl" \
	--param threads=32,256 --param vec=1 --param per=1,4 --param block=all --param lookback=all --param pad=0
w() { "$SQL" "$T/wrong.db" "$1"; }
check "every variant of two tiles or more is wrong on the exact-sum input" \
	test "$(w "SELECT count(*) FROM measurement m WHERE m.rows = 65537 AND (m.status <> 'wrong' OR m.reason NOT LIKE '%exact result on input set 1%')")" = 0
check "...and no variant at 65537 wins" test "$(w "SELECT count(*) FROM winner WHERE rows = 65537")" = 0

# The exported header, built by nvcc, at lengths nobody tuned.
gpu_nvcc
if [ -x "$NVCC" ]; then
	run_gt 0 export --kernel scan --format header --no-shipped --output "$T/gputune_scan.h"
	cat >"$T/use.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "gputune_scan.h"
int main(void)
{
	const unsigned long long lengths[3] = { 777777, 123457, 777777 };
	const unsigned long long n = lengths[0];
	std::vector<int> h(n), got(n);
	for (unsigned long long i = 0; i < n; i++)
		h[i] = (int)(i * 2654435761u % 1000003) - 500001;
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	int v = gputune_scan_choose(p.name, p.major * 10 + p.minor, "i32", (long)n);
	if (v < 0)
		return 3;
	void *in, *out, *scratch;
	size_t sb = gputune_scan_scratch_bytes(v, n);
	cudaMalloc(&in, n * sizeof(int));
	cudaMalloc(&out, n * sizeof(int));
	cudaMalloc(&scratch, sb);
	cudaMemset(scratch, 0, sb);
	cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
	int bad = 0;
	for (int k = 0; k < 3; k++) { /* scratch zeroed once, for every launch */
		const unsigned long long m = lengths[k];
		cudaMemset(out, 0, n * sizeof(int));
		if (gputune_scan_launch(v, in, out, scratch, m, 0) != cudaSuccess)
			return 2;
		cudaMemcpy(got.data(), out, m * sizeof(int), cudaMemcpyDeviceToHost);
		unsigned s = 0;
		for (unsigned long long i = 0; i < m; i++) {
			s += (unsigned)h[i];
			bad += (unsigned)got[i] != s;
		}
	}
	printf("variant %d (%s): %d wrong elements in three launches\n", v, gputune_scan_variants[v].params, bad);
	return bad != 0;
}
CU
	nvcc_runs "$T/use.cu" "the header's kernel scans right, three launches in a row on one scratch buffer"
fi
done_testing
