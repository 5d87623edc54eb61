#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build ktprof's no-BPF debug test kernel (KASAN, lockdep, KFENCE, UBSAN, ...)
# from Debian's linux-source-VERSION package (default 7.3, the newest stable;
# scripts/kernel-source.sh fetches it when it is not installed), and a module
# build tree for it.
#
# The result is cached under ${KTPROF_CACHE:-~/.cache/ktprof}/kernel-<key>, keyed
# by a hash of the config fragment and the source package version; a second
# run returns at once. Prints the cache directory on stdout:
#   DIR/bzImage    the kernel
#   DIR/build      the build tree (KDIR for out-of-tree modules)
#   DIR/release    its `uname -r`
# With --probe it only prints DIR when the kernel is already built, and
# fails otherwise.
#
# With --scx it builds the sched_ext test kernel instead (scx-kernel.config:
# BPF, BTF, SCHED_CLASS_EXT, lockdep; no KASAN) and the kernel's example
# schedulers from its tools/sched_ext with clang-19, bpftool and libbpf
# from the same tree, cached beside it:
#   DIR/scx/bin    scx_simple, scx_qmap, scx_central, scx_flatcg, and
#                  scx_ktp_fail (tests/scx: a scheduler that fails on purpose)
# usage: build-test-kernel.sh [--probe] [--scx] [VERSION]
set -euo pipefail
probe= scx=
while [ $# -gt 0 ]; do
	case "$1" in
	--probe) probe=1; shift ;;
	--scx) scx=1; shift ;;
	*) break ;;
	esac
done
version=${1:-7.3}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
fragment=$here/debug-kernel.config
[ -z "$scx" ] || fragment=$here/scx-kernel.config
cache=$(cache_root)
jobs=${JOBS:-$(nproc)}

# The cache key needs the source version; a probe must not download.
read -r tarball src_version < <("$here/kernel-source.sh" ${probe:+--cached} "$version") ||
	{ [ -n "$probe" ] || say "no source for Linux $version"; exit 1; }
key=$( { echo "$src_version"; grep -v '^#' "$fragment"; } | sha256sum | cut -c1-16)
out=$cache/kernel-$key

[ -f "$out/.done" ] || [ -z "$probe" ] || exit 1

build() {
	local d start line opt val bad args=()
	# Under the lock no other build runs: unfinished trees of other keys
	# are leftovers (cache_build emptied this one's).
	for d in "$cache"/kernel-*; do
		[ "$d" = "$out" ] || [ ! -d "$d" ] || [ -f "$d/.done" ] || rm -rf "$d"
	done
	say "building linux-source $src_version with $fragment into $out (about 17 min on 2 cores)"
	start=$(date +%s)

	tar -C "$out" -xJf "$tarball"
	mv "$out/linux-source-$version" "$out/build"
	cd "$out/build"

	make -s allnoconfig
	make -s kvm_guest.config
	args=()
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		opt=${opt#CONFIG_}
		case "$val" in
		y) args+=(-e "$opt") ;;
		n) args+=(-d "$opt") ;;
		*) args+=(--set-val "$opt" "$val") ;;
		esac
	done <"$fragment"
	scripts/config "${args[@]}"
	make -s olddefconfig

	# olddefconfig drops options whose dependencies are unmet: verify every
	# requested option took effect so a silent drop cannot weaken the tests.
	bad=0
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -qx "$opt=[ym]" .config && { say "$opt is still set"; bad=1; }
		else
			grep -qx "$opt=$val" .config || { say "$opt=$val did not stick"; bad=1; }
		fi
	done <"$fragment"
	[ "$bad" = 0 ] || exit 1

	make -s -j"$jobs" bzImage modules_prepare
	# Writes Module.symvers, which out-of-tree module builds need.
	make -s -j"$jobs" modules
	cp arch/x86/boot/bzImage "$out/bzImage"
	make -s kernelrelease >"$out/release"
	say "done in $(( $(date +%s) - start )) s: $(cat "$out/release")"
}
# Two `make check` runs at once: the second waits for the first's build.
cache_build "$cache/.kernel-build.lock" "$out/.done" build

# The example schedulers that the sched_ext tests load, and the tests' own
# (tests/scx: one that fails on purpose), built in the kernel's
# tools/sched_ext as its examples are. Their own marker (DIR/scx/.done),
# keyed by the compiler and the tests' sources: either changed rebuilds
# them, not the kernel.
schedulers="scx_simple scx_qmap scx_central scx_flatcg scx_ktp_fail"
scx_key() {
	{ clang-19 --version | head -n 1; cat "$here"/../tests/scx/*; } | sha256sum | cut -c1-16
}
build_schedulers() {
	local s start
	start=$(date +%s)
	say "building $schedulers with clang-19 (about 1 min)"
	cp "$here"/../tests/scx/scx_ktp_fail.bpf.c "$here"/../tests/scx/scx_ktp_fail.c \
		"$out/build/tools/sched_ext/"
	# The tree's own bpftool, libbpf and vmlinux.h (from the vmlinux's
	# BTF); LLVM=-19 names clang-19, llvm-strip-19 and ld.lld-19.
	# shellcheck disable=SC2086
	make -s -C "$out/build/tools/sched_ext" -j"$jobs" LLVM=-19 \
		c-sched-targets="$schedulers" $schedulers >/dev/null
	mkdir -p "$out/scx/bin"
	for s in $schedulers; do
		cp "$out/build/tools/sched_ext/build/bin/$s" "$out/scx/bin/$s"
	done
	scx_key >"$out/scx/.done"
	say "schedulers built in $(( $(date +%s) - start )) s"
}
if [ -n "$scx" ]; then
	if [ -f "$out/scx/.done" ] && [ "$(cat "$out/scx/.done")" != "$(scx_key)" ]; then
		rm -f "$out/scx/.done"
	fi
	if [ -n "$probe" ]; then
		[ -f "$out/scx/.done" ] || exit 1
	else
		cache_build "$cache/.kernel-build.lock" "$out/scx/.done" build_schedulers
	fi
fi
echo "$out"
