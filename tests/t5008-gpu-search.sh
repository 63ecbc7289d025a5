#!/bin/sh
# On a GPU: a search strategy measures the classics and then only what it
# picks, within its budget; a random search with the same seed picks the
# same variants (the guided ones follow the figures, which vary from run
# to run); a second run with a larger budget goes on from the first (it
# measures only the difference); a size of long launches starts from a
# smaller size's fastest; the family's seeds are measured first where the
# space holds them, or holds them but for a value beyond the default space
# of a parameter --param leaves alone; a budget in seconds stops in time.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
count() { "$SQL" "$1" "SELECT count(*) FROM measurement WHERE rows = $2"; }

run_gt 0 transpose --sizes 2048 --no-probe --strategy anneal --budget 40 --seed 3 --db "$T/a.db"
check "anneal measured its budget: 40 variants" test "$(count "$T/a.db" 2048)" -eq 40
check "every classic among them" \
	test "$("$SQL" "$T/a.db" "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '%block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off%'")" -ge 1
check "and a winner" test "$("$SQL" "$T/a.db" "SELECT count(*) FROM winner")" -eq 1
picked() { "$SQL" "$1" "SELECT group_concat(params) FROM (SELECT v.params FROM variant v JOIN measurement m ON m.variant_id = v.id ORDER BY v.params)"; }
for seed in 3 3 4; do
	run_gt 0 transpose --sizes 2048 --no-probe --strategy random --budget 25 --seed $seed --db "$T/r$seed-$$.db"
	picked "$T/r$seed-$$.db" >> "$T/picked"
	rm -f "$T/r$seed-$$.db"*
done
check "a random search with the same seed picks the same variants" test "$(sed -n 1p "$T/picked")" = "$(sed -n 2p "$T/picked")"
check "and with another seed others" test "$(sed -n 1p "$T/picked")" != "$(sed -n 3p "$T/picked")"
run_gt 0 transpose --sizes 2048 --no-probe --strategy anneal --budget 60 --seed 3 --db "$T/a.db"
check "a larger budget resumes the search: 20 more, none twice" test "$(count "$T/a.db" 2048)" -eq 60
check "none measured twice" \
	test "$("$SQL" "$T/a.db" "SELECT count(DISTINCT variant_id) FROM measurement")" -eq 60
for st in random genetic; do
	run_gt 0 transpose --sizes 1024 --no-probe --strategy $st --budget 30 --db "$T/$st.db"
	check "$st measured its budget: 30 variants" test "$(count "$T/$st.db" 1024)" -eq 30
done
# A size of long launches (4096^3, whose fastest classic takes about 3 ms)
# searched with the default budget starts from the nearest smaller size's
# fastest: its 3 classics, the 24 fastest of 512^3 and 16 more the search
# picks, where 512^3 measures its whole space (72 points, and the classics:
# none of them is in it); --budget then searches it in full.
P="--param bm=64,128 --param bn=64,128 --param bk=8,16 --param wm=32 --param wn=64 --param vec=4 --param pad=4"
P="$P --param group=8 --param dbuf=1 --param split=1 --param flat=off"
# shellcheck disable=SC2086
run_gt 0 gemm --sizes 512,4096 --no-probe $P --db "$T/g.db"
check "512^3 measured its 72 and the 3 classics" test "$(count "$T/g.db" 512)" -eq 75
# (43, or fewer by any classic among 512^3's fastest: measured already.)
n=$(count "$T/g.db" 4096)
check "4096^3 its 3 classics, 512^3's 24 fastest and 16 more ($n)" test "$n" -ge 40 -a "$n" -le 43
grep_in "$T/err" "the 24 fastest at 512x512x512, then 16 more the search picks"
# shellcheck disable=SC2086
run_gt 0 gemm --sizes 4096 --no-probe $P --budget 75 --db "$T/g.db"
check "with --budget it goes on to the whole space" test "$(count "$T/g.db" 4096)" -eq 75
# The seeds are measured first at every size of a run, where the
# space holds them: of a space holding one (64 x 128 of split=2, lanes) and
# leaving out the others (tn=2, wn=64 with wm=32 only), a random search of
# 5 measures the 3 classics, the seed and one pick.  One size a run: a run
# of several measures each size's 4 best at the others, the seed among
# them or not.
seed="bm=64,bn=128,bk=16,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8,split=2,flat=lanes"
other="bm=128,bn=64,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=4,flat=lanes"
P="--param bm=64,128 --param bn=128 --param bk=16 --param wm=32 --param wn=64 --param tm=4,8 --param tn=2"
P="$P --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1,2 --param flat=on,lanes"
seeded() { "$SQL" "$1" "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params = '$2'"; }
for size in 256 300x200x100; do
	# shellcheck disable=SC2086
	run_gt 0 gemm --sizes $size --no-probe $P --strategy random --budget 5 --db "$T/seed-$size.db"
	check "$size: the seed in the space is measured" test "$(seeded "$T/seed-$size.db" "$seed")" -eq 1
	check "$size: a seed outside it is not" test "$(seeded "$T/seed-$size.db" "$other")" -eq 0
	check "$size: within the budget of 5" test "$(count "$T/seed-$size.db" "${size%%x*}")" -eq 5
done
# A seed beyond the default space (split=8) is measured where --param
# leaves split alone, and not where --param names the splits.
eight="bm=128,bn=64,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=8,flat=floats"
P8="--param bm=128 --param bn=64 --param bk=16 --param wm=32 --param wn=64 --param tm=4 --param tn=2 --param vec=4"
P8="$P8 --param pad=4 --param dbuf=1 --param group=1 --param flat=floats"
# shellcheck disable=SC2086
run_gt 0 gemm --sizes 300x200x1000 --no-probe $P8 --strategy random --budget 5 --db "$T/seed8.db"
check "a seed split in eight is measured where split is left alone" test "$(seeded "$T/seed8.db" "$eight")" -eq 1
# shellcheck disable=SC2086
run_gt 0 gemm --sizes 300x200x1000 --no-probe $P8 --param split=1,2,4 --strategy random --budget 5 --db "$T/seed8n.db"
check "and not where --param split leaves 8 out" test "$(seeded "$T/seed8n.db" "$eight")" -eq 0
s=$(date +%s)
# At 16384x16384 the whole space takes about 20 s to measure.
run_gt 0 transpose --sizes 16384 --no-probe --strategy genetic --budget 3s --db "$T/s.db"
e=$(($(date +%s) - s))
n=$(count "$T/s.db" 16384)
check "a budget of 3 s stops the search in time ($n variants, $e s in all)" test "$n" -gt 5 -a "$n" -lt 500 -a "$e" -lt 30
done_testing
