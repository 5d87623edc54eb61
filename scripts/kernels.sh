#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test kernels, one per line: NAME RELEASE KDIR
#   6.12   newest installed Debian 6.12 (the primary)
#   6.1    newest installed Debian 6.1 (compatibility)
#   debug  the no-BPF KASAN/lockdep kernel (built by build-test-kernel.sh)
# usage: kernels.sh [--no-build] [NAME...]   (default: all three)
# --no-build leaves out the debug kernel when it is not built yet.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
no_build=
if [ "${1-}" = --no-build ]; then no_build=1; shift; fi
[ $# -gt 0 ] || set -- 6.12 6.1 debug

for name in "$@"; do
	case "$name" in
	6.12|6.1)
		read -r image release < <("$here/vm-run" --kernel "$name" --print-kernel) ||
			{ echo "kernels.sh: no Debian $name kernel installed (run scripts/setup.sh)" >&2; exit 1; }
		kdir=/lib/modules/$release/build
		;;
	debug)
		if [ -n "$no_build" ]; then
			key_dir=$("$here/build-test-kernel.sh" --probe) || continue
		else
			key_dir=$("$here/build-test-kernel.sh")
		fi
		release=$(cat "$key_dir/release")
		kdir=$key_dir/build
		;;
	*) echo "kernels.sh: unknown kernel '$name' (6.12, 6.1, debug)" >&2; exit 1 ;;
	esac
	[ -d "$kdir" ] || { echo "kernels.sh: $kdir missing (run scripts/setup.sh)" >&2; exit 1; }
	printf '%s %s %s\n' "$name" "$release" "$kdir"
done
