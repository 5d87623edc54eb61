#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl on the given files (default: the module's
# sources, generated files excluded). checkpatch comes from the newest
# kernel source the suite builds (linux-source-7.3), extracted once into the
# cache, so the result does not depend on which kernels are built.
# Exit status is checkpatch's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=7.3
if [ $# -eq 0 ]; then
	for f in "$here"/../kmod/*.c "$here"/../kmod/*.h "$here"/../kmod/include/uapi/*.h; do
		case "$f" in *.mod.c) ;; *) set -- "$@" "$f" ;; esac
	done
fi
cache=${KTPROF_CACHE:-$HOME/.cache/ktprof}
cp_dir=$cache/checkpatch-$version
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	read -r tarball _ < <("$here/kernel-source.sh" "$version")
	rm -rf "$cp_dir.tmp"
	mkdir -p "$cp_dir.tmp"
	tar -C "$cp_dir.tmp" --strip-components=1 -xJf "$tarball" \
		"linux-source-$version/scripts/checkpatch.pl" \
		"linux-source-$version/scripts/spelling.txt" \
		"linux-source-$version/scripts/const_structs.checkpatch"
	rm -rf "$cp_dir"
	mv "$cp_dir.tmp" "$cp_dir"
fi
# compat.h is the one place allowed to test kernel versions. The ABI
# header's X-macro list (KTP_CPU_STATS) is a run of invocations, and what
# it makes there are enumerators, "KTP_CA_X = N,": checkpatch asks for
# parentheses around both, which would not compile (its advice owns that it
# over-states). Macros in kmod/*.[ch] get no such exception.
rc=0
for f in "$@"; do
	ignore=
	case "$f" in
	*/compat.h) ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON" ;;
	*/ktprof_abi.h) ignore="--ignore COMPLEX_MACRO" ;;
	esac
	# shellcheck disable=SC2086
	perl "$cp_dir/scripts/checkpatch.pl" --no-tree --quiet --show-types $ignore -f "$f" || rc=1
done
exit $rc
