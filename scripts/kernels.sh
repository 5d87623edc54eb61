#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test kernels, one per line: NAME RELEASE KDIR
#   6.12        newest installed Debian 6.12 (the primary)
#   6.1         newest installed Debian 6.1 (compatibility)
#   7.3         the no-BPF KASAN/lockdep debug kernel built from Debian's
#               linux-source-7.3, the newest stable (build-test-kernel.sh)
#   debug-X.Y   the same debug kernel built from linux-source-X.Y
#               (debug-6.12 is the one the suite used before 7.3)
#   debug       another name for 7.3
#   scx         the sched_ext kernel built from linux-source-7.3 (BPF, BTF,
#               SCHED_CLASS_EXT, lockdep) and its example schedulers
#               (build-test-kernel.sh --scx)
# usage: kernels.sh [--no-build] [NAME...]   (default: 6.12 6.1 7.3 scx)
# --no-build leaves out debug kernels that are not built yet.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
no_build=
if [ "${1-}" = --no-build ]; then no_build=1; shift; fi
[ $# -gt 0 ] || set -- 6.12 6.1 7.3 scx

for name in "$@"; do
	case "$name" in
	6.12|6.1)
		read -r image release < <("$here/vm-run" --kernel "$name" --print-kernel) ||
			{ echo "kernels.sh: no Debian $name kernel installed (run scripts/setup.sh)" >&2; exit 1; }
		kdir=/lib/modules/$release/build
		;;
	debug|7.3|debug-[0-9]*.[0-9]*|scx)
		flavour=
		case "$name" in
		scx) version=7.3; flavour=--scx ;;
		*) version=${name#debug-}; [ "$version" != debug ] || version=7.3 ;;
		esac
		case "$version" in *[!0-9.]*) echo "kernels.sh: unknown kernel '$name'" >&2; exit 1 ;; esac
		if [ -n "$no_build" ]; then
			key_dir=$("$here/build-test-kernel.sh" --probe $flavour "$version") || continue
		else
			key_dir=$("$here/build-test-kernel.sh" $flavour "$version")
		fi
		release=$(cat "$key_dir/release")
		kdir=$key_dir/build
		;;
	*) echo "kernels.sh: unknown kernel '$name' (6.12, 6.1, 7.3, debug-X.Y, scx)" >&2; exit 1 ;;
	esac
	[ -d "$kdir" ] || { echo "kernels.sh: $kdir missing (run scripts/setup.sh)" >&2; exit 1; }
	printf '%s %s %s\n' "$name" "$release" "$kdir"
done
