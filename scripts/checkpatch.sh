#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl (from Debian's linux-source-6.12, taken from
# the debug kernel tree when built, else extracted once into the cache) on
# the given files (default: the module's sources, generated files excluded).
# Exit status is checkpatch's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
	for f in "$here"/../kmod/*.c "$here"/../kmod/*.h "$here"/../kmod/include/uapi/*.h; do
		case "$f" in *.mod.c) ;; *) set -- "$@" "$f" ;; esac
	done
fi
cache=${KTPROF_CACHE:-$HOME/.cache/ktprof}
if tree=$("$here/build-test-kernel.sh" --probe 2>/dev/null); then
	cp_dir=$tree/build
else
	cp_dir=$cache/checkpatch
	if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
		mkdir -p "$cp_dir"
		tar -C "$cp_dir" --strip-components=1 -xJf /usr/src/linux-source-6.12.tar.xz \
			linux-source-6.12/scripts/checkpatch.pl \
			linux-source-6.12/scripts/spelling.txt \
			linux-source-6.12/scripts/const_structs.checkpatch
	fi
fi
# compat.h is the one place allowed to test kernel versions.
rc=0
for f in "$@"; do
	ignore=
	case "$f" in */compat.h) ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON" ;; esac
	# shellcheck disable=SC2086
	perl "$cp_dir/scripts/checkpatch.pl" --no-tree --quiet --show-types $ignore -f "$f" || rc=1
done
exit $rc
