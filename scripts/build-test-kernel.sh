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
# usage: build-test-kernel.sh [--probe] [VERSION]
set -euo pipefail
probe=
[ "${1-}" = --probe ] && { probe=1; shift; }
version=${1:-7.3}

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
fragment=$here/debug-kernel.config
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
echo "$out"
