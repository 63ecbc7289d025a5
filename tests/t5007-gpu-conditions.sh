#!/bin/sh
# On a GPU: a tuning run records the conditions it ran under through NVML
# (clocks, temperature, power, clock limits), prints them in its summary,
# shows them in `query --all`, and plots what it measured; without NVML
# it says so once and goes on.
. "$(dirname "$0")/setup"
skip_without_gpu
SPACE="--param tile=32,64 --param block_rows=8 --param pad=1 --param unroll=1 --param mapping=colmajor --param vec=1,2 --param sector=on --param wide=1"
SQL="$top_builddir/tests/sqlexec"

run_gt 0 transpose --sizes 1024,4096 $SPACE --no-probe
grep_in "$T/out" "GPU conditions while timing: SM "
check "the run says its conditions are recorded" \
	test "$("$SQL" "$GPUTUNE_DB" "SELECT conditions FROM run")" = recorded
check "one reading per size" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM run_condition")" -eq 2
check "clocks, temperature and power are real readings" \
	test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM run_condition WHERE sm_mhz_min > 0 AND mem_mhz_start > 0 AND temp_c_max > 0 AND power_w_max > 0 AND samples >= 2")" -eq 2
run_gt 0 query --all --format csv
check "query --all shows SM and memory clocks, temperature and power on every row" \
	sh -c "awk -F, 'NR > 1 && (\$(NF-4) == \"\" || \$(NF-3) == \"\" || \$(NF-2) == \"\" || \$(NF-1) == \"\") { bad = 1 } END { exit bad }' '$T/out'"
sed 's/^/# /' "$T/out" | head -5
"$SQL" "$GPUTUNE_DB" "SELECT * FROM run_condition" | sed 's/^/# run_condition: /'

if command -v xmllint >/dev/null 2>&1; then
	for f in sizes space map; do
		run_gt 0 plot $f -o "$T/$f.svg"
		check "$f plot of the run is well-formed" xmllint --noout "$T/$f.svg"
	done
fi

# Without NVML: one line says so, and the run goes on.
GPUTUNE_LIBNVML=libnvidia-ml-missing.so.0 run_gt 0 transpose --sizes 2048 $SPACE --no-probe --db "$T/no-nvml.db"
check "says once that conditions are not recorded" \
	test "$(grep -c "run conditions (clocks, temperature, power) are not recorded" "$T/err")" -eq 1
check "the run records why not" \
	sh -c "'$SQL' '$T/no-nvml.db' 'SELECT conditions FROM run' | grep -q 'could not be loaded'"
done_testing
