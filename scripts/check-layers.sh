#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check that no file of user/ includes from a layer above its own, nor from
# another folder of its own layer. The order is the `layers` block of
# docs/design.md, bottom up, one layer per line (folders of one layer on
# one line); user/ktprof.c sits above them all. Headers outside user/ (the
# record ABI, generated protobuf code, system headers) are not checked.
# Prints one line per offending include; exit 1 if there is any.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
design=$top/docs/design.md

declare -A level=()
n=0
while read -r line; do
	n=$((n + 1))
	for dir in $line; do level[$dir]=$n; done
done < <(sed -n '/^```layers$/,/^```$/{/^```/d;p}' "$design")
[ "$n" -gt 0 ] || { echo "check-layers: no layers block in $design" >&2; exit 2; }

bad=0
check_file() {	# FILE DIR LEVEL
	local file=$1 dir=$2 lvl=$3 inc idir
	while read -r inc; do
		case "$inc" in */*) ;; *) continue ;; esac
		idir=${inc%%/*}
		[ -n "${level[$idir]+x}" ] || continue
		if [ "$idir" != "$dir" ] && [ "${level[$idir]}" -ge "$lvl" ]; then
			echo "${file#"$top"/}: includes \"$inc\" (layer $idir) from layer $dir"
			bad=1
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
}

for dir in "${!level[@]}"; do
	[ -d "$top/user/$dir" ] || { echo "check-layers: user/$dir is listed but missing"; bad=1; continue; }
	for f in "$top/user/$dir"/*.[ch]; do
		[ -e "$f" ] && check_file "$f" "$dir" "${level[$dir]}"
	done
done
for d in "$top"/user/*/; do
	d=$(basename "$d")
	[ -n "${level[$d]+x}" ] || { echo "check-layers: user/$d is in no layer of docs/design.md"; bad=1; }
done
for f in "$top"/user/*.[ch]; do
	[ "$(basename "$f")" = ktprof.c ] ||
		{ echo "${f#"$top"/}: user/ holds only ktprof.c; put it in a layer folder"; bad=1; }
done
exit $bad
