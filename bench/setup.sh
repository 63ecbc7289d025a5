# setup.sh - sourced by the benchmark scripts after they set `out` (the
# output directory) and `db` (the database's file name in it): gputune and
# nvcc to use, a scratch directory removed at exit, the database and the
# compile cache ($GPUTUNE_CACHE_DIR when set, so stages run in separate
# calls can share it), the commit the report names, and seconds().
mkdir -p "$out"
GPUTUNE=${GPUTUNE:-./gputune}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUTUNE_DB="$out/$db" GPUTUNE_CACHE_DIR="${GPUTUNE_CACHE_DIR:-$work/cache}"
# The commit: the one gputune was built from (a copy of the tree on
# another machine may carry an older checkout's git data), else git's.
built=$("$GPUTUNE" --version 2>/dev/null | sed -n 's/.*(commit \(.*\))$/\1/p')
commit=${BENCH_COMMIT:-${built:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}}
# seconds START END: the difference, to a tenth.
seconds() {
	awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f", e - s }'
}
