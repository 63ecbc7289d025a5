#!/bin/sh
# On a GPU: the reduction tunes at lengths that are not multiples of any
# vector or block (1, 31, 1000, 65537) and at a power of two, for f32, f64
# and i32; every correct variant is 'ok' and within the error bound; a
# variant that drops one element, one that writes past its output and one
# that faults are each caught with their reason; the report names the
# classic ladder; an exported header's kernel, built by nvcc, sums as the
# host does.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }

space="--param threads=64,256 --param vec=1,4 --param unroll=1,4 --param grid=0,1024 --param block=all --param final=all"
run_gt 0 reduce --sizes 1,31,1000,65537,2^20 --quiet --no-probe $space
cat "$T/out"
for n in 1 31 1000 65537 1048576; do
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE m.rows = $n AND m.cols = 1"
	check "N=$n: no variant wrong or failed" test "$(q "SELECT count(*) $j AND m.status <> 'ok'")" = 0
	check "N=$n: the whole space and the classics measured" test "$(q "SELECT count(*) $j")" -ge 160
done
grep_in "$T/out" "vs_interleaved-divergent"
grep_in "$T/out" "vs_per-thread"
check "the read ceiling is stored" test "$(q "SELECT count(*) FROM ceiling WHERE kind = 'read' AND ceiling_gbps > 0")" = 5

for dt in f64 i32; do
	run_gt 0 reduce --dtype $dt --sizes 1000,65537,2^22 --quiet --no-probe --param threads=128,512 --param unroll=2,8 \
		--param grid=0,2048 --param block=sequential_warp,shuffle --param final=all
	check "$dt: every variant right" test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.dtype = '$dt' AND m.status <> 'ok'")" = 0
done

# The faults are in a test copy of the template (tests/faults/README).
fault_templates "$T/faults"
run_gt 0 reduce --templates "$T/faults" --sizes 1000,2^20 --quiet --no-probe --param threads=256 --param vec=4 --param unroll=4 \
	--param grid=0,1024 --param block=shuffle --param final=all --param inject=none,wrong,fault,overrun
sed 's/^/# stderr: /' "$T/err"
for n in 1000 1048576; do
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id JOIN run r ON r.id = m.run_id WHERE m.rows = $n AND r.id = (SELECT max(id) FROM run)"
	check "N=$n: dropping an element is 'wrong' on the exact-sum input" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=wrong%' AND m.status = 'wrong' AND m.reason LIKE '%exact%'")" = 4
	check "N=$n: the overruns are caught by the guards" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=overrun%' AND m.status = 'wrong' AND m.reason LIKE '%outside the output%'")" = 4
	check "N=$n: the faults are 'fault'" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=fault%' AND m.status = 'fault'")" = 4
	check "N=$n: the winner is a correct variant" \
		test "$(q "SELECT v.params FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id JOIN family f ON f.id = w.family_id WHERE f.name = 'reduce' AND w.dtype = 'f32' AND w.rows = $n" | grep -c inject)" = 0
done

# The exported header, built by nvcc, at a length nobody tuned.
if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
	run_gt 0 export --kernel reduce --format header --no-shipped --output "$T/gputune_reduce.h"
	cat >"$T/use.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "gputune_reduce.h"
int main(void)
{
	const unsigned long long n = 777777;
	std::vector<float> h(n);
	double ref = 0;
	for (unsigned long long i = 0; i < n; i++) {
		h[i] = (float)((int)(i % 17) - 8); /* small integers: exact in any order */
		ref += h[i];
	}
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	int v = gputune_reduce_choose(p.name, p.major * 10 + p.minor, "f32", (long)n);
	void *in, *out, *scratch;
	size_t sb = gputune_reduce_scratch_bytes(v, n);
	cudaMalloc(&in, n * sizeof(float));
	cudaMalloc(&out, sizeof(float));
	cudaMalloc(&scratch, sb);
	cudaMemset(scratch, 0, sb);
	cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
	float got[3];
	for (int k = 0; k < 3; k++) { /* scratch zeroed once, for every launch */
		if (gputune_reduce_launch(v, in, out, scratch, n, 0) != cudaSuccess)
			return 2;
		cudaMemcpy(&got[k], out, sizeof(float), cudaMemcpyDeviceToHost);
	}
	printf("variant %d (%s): %g %g %g, expected %g\n", v, gputune_reduce_variants[v].params, got[0], got[1],
	       got[2], ref);
	return got[0] == ref && got[1] == ref && got[2] == ref ? 0 : 1;
}
CU
	nvcc_runs "$T/use.cu" "the header's kernel sums right, three launches in a row"
fi
done_testing
