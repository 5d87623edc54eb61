#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build kmod/ against test kernels (scripts/kernels.sh names), warnings as
# errors, each in its own directory so several kernels build side by side:
#   build/kmod/<release>/kmod/ktprof.ko
# usage: build-module.sh [KERNEL...]     (default: 6.12 6.1 7.3 scx)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

build_one() {
	local name=$1 release=$2 kdir=$3 out f
	out=$top/build/kmod/$release
	mkdir -p "$out/kmod"
	ln -sfn "$top/Kbuild" "$out/Kbuild"
	# Mirror the sources as symlinks; drop links whose source is gone.
	# Generated files (*.mod.c of an in-tree build) must not be linked:
	# kbuild would write this kernel's version data through the link.
	find "$out/kmod" -maxdepth 1 -type l -delete
	for f in "$top"/kmod/*.c "$top"/kmod/*.h "$top"/kmod/Kbuild "$top"/kmod/include; do
		case "$f" in *.mod.c) continue ;; esac
		[ -e "$f" ] && ln -sfn "$f" "$out/kmod/$(basename "$f")"
	done
	echo "  MODULE  $name ($release)"
	make -s -C "$kdir" M="$out" modules
}

kernels=$("$top/scripts/kernels.sh" "$@")
while read -r name release kdir; do
	build_one "$name" "$release" "$kdir"
done <<<"$kernels"
