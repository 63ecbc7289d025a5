#!/bin/sh
# The source tree's layers: each folder of src/ may include headers of its
# own folder and of the folders below it, never above.  From the top:
#   cli  tune  export  plot  db  gpu  compile  families  util
# (README.md, "Layout", says what each holds.)  An include that climbs is
# named with the file that has it.
. "$(dirname "$0")/setup"

order="util families compile gpu db plot export tune cli"
rank() {
	_i=1
	for _l in $order; do
		[ "$_l" = "$1" ] && { echo $_i; return; }
		_i=$((_i + 1))
	done
	echo 0
}

cd "$top_srcdir/src" || exit 1
climbing=0
files=0
for dir in */; do
	layer=${dir%/}
	r=$(rank "$layer")
	check "src/$layer is a known layer" test "$r" -gt 0
	for f in "$layer"/*.c "$layer"/*.h; do
		[ -f "$f" ] || continue
		files=$((files + 1))
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/[^"]*"/\1/p' "$f"); do
			if [ "$(rank "$inc")" -gt "$r" ]; then
				echo "# src/$f includes a header of $inc, a layer above $layer"
				climbing=$((climbing + 1))
			fi
		done
	done
done
check "no include climbs a layer ($files files, $climbing climbing)" test "$climbing" -eq 0 -a "$files" -gt 50
# Headers are named by their folder, so the layer of each include shows.
check "every include of gputune's own headers names its folder" \
	sh -c "! grep -n '^#include \"[a-z-]*\.h\"' */*.c */*.h | grep -v '\"config.h\"'"
check "no source file lies outside the layers' folders" sh -c "! ls *.c *.h 2>/dev/null | grep -v '^embedded.c$'"
done_testing
