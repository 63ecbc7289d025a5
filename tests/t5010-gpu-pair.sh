#!/bin/sh
# On a GPU: the f16 and f32 transposes with pair=on (elements moved in
# units of two, two input rows at a time) are right at every kind of size:
# whole tiles, partial ones, rows of an odd number of units (unit-wise
# loads), and odd rows or cols (the element-wise path); a variant with a
# fault injected is still caught; and an exported header's kernels, pair
# kernels among them, built by nvcc, are right at sizes nobody tuned.  So
# are the variants of pair=quad and pair=vector (f16, vec 8, 4 and 2, with
# and without realign=on, and with realign=out and both), those of async=on
# (f32, f64), those of async=words and async=rows (f16) and those of
# rowclass=on (f16, f32).
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"

sizes="2x2,64x66,130x4098,1002x302,4096x1030,257x130,130x257,301x1001,2048"
# tune_checked DB DTYPE WHAT PARAMS...: tunes DTYPE at $sizes with the
# space PARAMS (and inject=none,wrong) into DB, then checks at each size
# that every variant without a fault is right, that every injected fault is
# caught, and that the winner is right.  The padding is $tune_pad (a
# parameter may be given once).
tune_pad=1
# The faults are in a test copy of the template (tests/faults/README).
fault_templates "$T/faults"
tune_checked() {
	_db=$1 _dtype=$2 _what=$3
	shift 3
	run_gt 0 transpose --templates "$T/faults" --db "$_db" --dtype "$_dtype" --sizes $sizes --quiet --no-probe --param tile=32,64 \
		--param block_rows=8 --param pad=$tune_pad --param unroll=1,2 --param mapping=cartesian,colmajor --param shared=on \
		--param wide=1 --param inject=none,wrong "$@"
	cat "$T/out"
	n=$("$SQL" "$_db" "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.dtype = '$_dtype' AND v.params LIKE '%$_what%'")
	check "$_dtype: $_what variants were measured ($n)" test "$n" -gt 50
	for s in $(echo "$sizes" | tr , ' '); do
		case $s in *x*) r=${s%x*} c=${s#*x} ;; *) r=$s c=$s ;; esac
		j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.dtype = '$_dtype' AND m.rows = $r AND m.cols = $c"
		ok=$("$SQL" "$_db" "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")
		check "$_dtype ${r}x$c ($_what): every variant without a fault is right ($ok)" \
			test "$ok" -gt 0 -a "$("$SQL" "$_db" "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status <> 'ok'")" = 0
		check "$_dtype ${r}x$c ($_what): every injected fault is caught" \
			test "$("$SQL" "$_db" "SELECT count(*) $j AND v.params LIKE '%inject=wrong%' AND m.status <> 'wrong'")" = 0
		# The classics are measured too, and win at the small sizes.
		check "$_dtype ${r}x$c ($_what): the winner is right" \
			test "$("$SQL" "$_db" "SELECT m.status FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id WHERE w.rows = $r AND w.cols = $c AND w.dtype = '$_dtype' AND v.params NOT LIKE '%inject%'")" = ok
	done
}
for dtype in f16 f32; do
	tune_checked "$GPUTUNE_DB" $dtype pair=on --param vec=2,4,8 --param sector=off --param realign=off --param pair=on
done
# Units of four (f16), not in the default space.
tune_checked "$T/quad.db" f16 pair=quad --param vec=4,8 --param sector=off --param realign=off --param pair=quad
# 16-, 8- and 4-byte vectors on both sides (f16), at sizes whose rows and
# cols are multiples of 8, of 4 or of 2 only, with partial blocks too,
# beside the others (element path).
all_sizes=$sizes
sizes="$sizes,136x520,520x136,1000x304,2048x1032,132x516,1004x300,2044x1036,2046x1034"
tune_checked "$T/vector.db" f16 pair=vector --param vec=2,4,8 --param sector=off --param realign=off --param pair=vector
# The same with realign=on: loads in 8-byte pieces for any cols (odd, 2 mod 4,
# multiples of 8), the rows each shifted into place, the output's vectors
# as before; the last chunk of the matrix cut by its end.
sizes="$sizes,264x131,520x263,1000x303,2048x1033,4096x1031,1002x301,132x99,130x97"
tune_checked "$T/realign.db" f16 realign=on,pair=vector --param vec=2,4,8 --param sector=off --param realign=on \
	--param pair=vector
# realign=out and both: output rows of any length stored as whole 16 bytes
# and their ends element by element (odd rows, 2 or 4 mod 8, multiples of
# 8), out's loads where cols is a multiple of 8, both's for any cols.
sizes="$sizes,131x264,263x520,1001x304,1033x2048,99x136,4097x1032"
tune_checked "$T/realign-out.db" f16 pair=vector --param vec=8 --param sector=off --param realign=out,both \
	--param pair=vector
sizes=$all_sizes
# Tiles loaded by asynchronous element copies (f32, f64), with and without
# the sector windows.
for dtype in f32 f64; do
	tune_checked "$T/async.db" $dtype async=on --param vec=1 --param sector=off,on --param realign=off --param pair=off \
		--param async=on
done
# f16 rows copied as aligned words of two elements, each shifted by its
# start's parity (odd cols), with and without the sector windows and their
# halo: the rows whose cols is not a multiple of vec, and the edges.
tune_pad=2
tune_checked "$T/words.db" f16 async=words --param vec=2,4 --param sector=off,on --param realign=off \
	--param pair=off --param async=words
# Every row as words, spread over the block's threads (async=rows, not in
# the default space), vec=1 and 2, with and without the windows' halo.
tune_checked "$T/rows.db" f16 async=rows --param vec=1,2 --param sector=off,on --param realign=off \
	--param pair=off --param async=rows
tune_pad=1

# The interior through the tensor copy engine by row classes (rowclass=on,
# compute capability 9.0; before it every block takes the element path):
# the first stripe's heads, the clipped last stripe and columns, and the
# element path's corner block.
for dtype in f16 f32; do
	tune_checked "$T/rowclass.db" $dtype rowclass=on --param vec=1 --param sector=on --param realign=off \
		--param pair=off --param async=off --param rowclass=on
done

# The header's kernels, built by nvcc, at sizes nobody tuned.
gpu_nvcc
run_gt 0 export --kernel transpose --no-shipped -o "$T/gputune_transpose.h"
check "the header holds pair variants" grep -q "pair=on" "$T/gputune_transpose.h"
cat > "$T/pair.cu" <<'CU'
#include "gputune_transpose.h"
#include <cstdio>
#include <cstring>
#include <vector>
/* Transposes a rows x cols matrix of E with the header's choice for dtype;
 * 0 when every element is right, 1 when not, 2 on an error. */
template <typename E> static int run(const cudaDeviceProp &prop, const char *dtype, unsigned rows, unsigned cols)
{
	size_t n = (size_t)rows * cols, wrong = 0;
	std::vector<E> in(n), out(n);
	for (size_t k = 0; k < n; k++)
		in[k] = (E)(k * 2654435761u >> 5);
	int v = gputune_transpose_choose(prop.name, prop.major * 10 + prop.minor, dtype, rows, cols);
	E *d_in, *d_out;
	if (v < 0 || cudaMalloc(&d_in, sizeof(E) * n) || cudaMalloc(&d_out, sizeof(E) * n))
		return 2;
	cudaMemcpy(d_in, in.data(), sizeof(E) * n, cudaMemcpyHostToDevice);
	cudaMemset(d_out, 0xff, sizeof(E) * n);
	if (gputune_transpose_launch(v, d_in, d_out, rows, cols, 0) != cudaSuccess ||
	    cudaMemcpy(out.data(), d_out, sizeof(E) * n, cudaMemcpyDeviceToHost) != cudaSuccess)
		return 2;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			wrong += out[c * rows + r] != in[r * cols + c];
	std::printf("%s %ux%u %s %s\n", dtype, rows, cols, gputune_transpose_variants[v].params, wrong ? "WRONG" : "verified");
	cudaFree(d_in);
	cudaFree(d_out);
	return wrong != 0;
}
int main(int argc, char **argv)
{
	cudaDeviceProp prop;
	if (argc < 2 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
		return 2;
	int bad = 0;
	for (int i = 2; i < argc; i++) {
		unsigned rows, cols;
		if (std::sscanf(argv[i], "%ux%u", &rows, &cols) != 2)
			return 2;
		bad |= std::strcmp(argv[1], "f16") ? run<unsigned>(prop, argv[1], rows, cols)
						   : run<unsigned short>(prop, argv[1], rows, cols);
	}
	return bad;
}
CU
check "nvcc builds a consumer of the header" "$NVCC" -arch=sm_90 -O2 -I"$T" "$T/pair.cu" -o "$T/pair"
for dtype in f16 f32; do
	"$T/pair" $dtype 4000x1030 2050x2046 3002x1026 999x1001 1500x998 >"$T/run" 2>&1
	check "$dtype: its results are right" test $? -eq 0
	sed 's/^/# /' "$T/run"
	check "$dtype: every size verified" test "$(grep -c verified "$T/run")" -eq 5
	check "$dtype: pair kernels among them" test "$(grep -c 'pair=on verified' "$T/run")" -ge 1
done
# A header of rowclass variants: its launch builds the tensor maps of the
# buffers it is given.  Every rowclass variant it holds (the choice may be
# a classic at these sizes) runs at sizes nobody tuned, on two pairs of
# buffers in turn (it keeps maps per buffers), and is checked.
mkdir -p "$T/rowclass"
run_gt 0 export --kernel transpose --no-shipped --db "$T/rowclass.db" -o "$T/rowclass/gputune_transpose.h"
cat > "$T/rowclass/rc.cu" <<'CU'
#include "gputune_transpose.h"
#include <cstdio>
#include <cstring>
#include <vector>
/* Every rowclass variant of dtype (elements E) at rows x cols, twice on
 * each of two pairs of buffers; 0 when all are right, 1 when not, 2 on an
 * error. */
template <typename E> static int run(const char *dtype, unsigned rows, unsigned cols)
{
	size_t n = (size_t)rows * cols;
	std::vector<E> in(n), out(n);
	for (size_t k = 0; k < n; k++)
		in[k] = (E)(k * 2654435761u >> 5);
	E *d_in[2], *d_out[2];
	for (int b = 0; b < 2; b++)
		if (cudaMalloc(&d_in[b], sizeof(E) * n) || cudaMalloc(&d_out[b], sizeof(E) * n) ||
		    cudaMemcpy(d_in[b], in.data(), sizeof(E) * n, cudaMemcpyHostToDevice))
			return 2;
	int bad = 0;
	for (int v = 0; v < GPUTUNE_TRANSPOSE_NUM_VARIANTS; v++) {
		if (!gputune_transpose_variants[v].config.rowclass || strcmp(gputune_transpose_variants[v].dtype, dtype))
			continue;
		size_t wrong = 0;
		for (int k = 0; k < 4; k++) {
			const int b = k % 2;
			cudaMemset(d_out[b], 0xff, sizeof(E) * n);
			if (gputune_transpose_launch(v, d_in[b], d_out[b], rows, cols, 0) != cudaSuccess ||
			    cudaMemcpy(out.data(), d_out[b], sizeof(E) * n, cudaMemcpyDeviceToHost) != cudaSuccess)
				return 2;
			for (size_t r = 0; r < rows; r++)
				for (size_t c = 0; c < cols; c++)
					wrong += out[c * rows + r] != in[r * cols + c];
		}
		std::printf("%s %ux%u %s %s\n", dtype, rows, cols, gputune_transpose_variants[v].params,
			    wrong ? "WRONG" : "verified");
		bad |= wrong != 0;
	}
	for (int b = 0; b < 2; b++) {
		cudaFree(d_in[b]);
		cudaFree(d_out[b]);
	}
	return bad;
}
int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 2; i < argc; i++) {
		unsigned rows, cols;
		if (std::sscanf(argv[i], "%ux%u", &rows, &cols) != 2)
			return 2;
		bad |= std::strcmp(argv[1], "f16") ? run<unsigned>(argv[1], rows, cols)
						   : run<unsigned short>(argv[1], rows, cols);
	}
	return bad;
}
CU
check "nvcc builds a consumer of the rowclass header" "$NVCC" -arch=sm_90 -O2 "$T/rowclass/rc.cu" -o "$T/rc"
for dtype in f16 f32; do
	"$T/rc" $dtype 4000x1030 2050x2046 3002x1026 999x1001 1500x998 4097x33 >"$T/run" 2>&1
	check "$dtype: the rowclass variants' results are right" test $? -eq 0
	sed 's/^/# /' "$T/run"
	n=$(grep -c 'rowclass=on verified' "$T/run")
	check "$dtype: rowclass variants verified at every size ($n)" test "$n" -ge 6 -a "$(grep -c WRONG "$T/run")" = 0
done
done_testing
