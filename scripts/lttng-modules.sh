#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build LTTng's kernel tracer (Debian's lttng-modules-dkms) for one test
# kernel, for make bench's LTTng rows, and print the directory that holds
# its .ko files:
#
#   lttng-modules.sh [--suite SUITE] RELEASE    e.g. 6.1.0-56-amd64
#
# Without --suite, the version this machine's apt offers (bookworm's
# 2.13.9, which knows kernels up to 6.1); with it, the package of a newer
# Debian release (trixie's 2.13.x builds for 6.12), fetched by
# newer-deb.sh without touching the machine's apt. Nothing is installed:
# the package is unpacked under the cache (KTPROF_CACHE, default
# ~/.cache/ktprof), built against /lib/modules/RELEASE/build as its
# dkms.conf would, and kept there; a second call prints the cached build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
suite=
if [ "${1:-}" = --suite ]; then
	suite=${2:?usage: lttng-modules.sh [--suite SUITE] RELEASE}
	shift 2
fi
rel=${1:?usage: lttng-modules.sh [--suite SUITE] RELEASE}
case "$rel" in *[!A-Za-z0-9.+_-]*) say "bad release '$rel'"; exit 2 ;; esac
case "$suite" in *[!a-z-]*) say "bad suite '$suite'"; exit 2 ;; esac
cache=$(cache_root)/lttng
kdir=/lib/modules/$rel/build

[ -d "$kdir/" ] || { say "no headers for $rel in $kdir"; exit 1; }
# One build at a time. Taken before the cache is looked at, not only for
# the build (cache_build): the key, the package's version, comes from
# the package, which is downloaded into the cache under the same lock.
cache_lock "$cache/.lock"
if [ -n "$suite" ]; then
	deb=$("$here/newer-deb.sh" "lttng-modules-dkms/$suite" "$cache/$suite") ||
		{ say "cannot fetch lttng-modules-dkms from $suite"; exit 1; }
	ver=$(dpkg-deb -f "$deb" Version)
else
	ver=$(apt-cache policy lttng-modules-dkms | sed -n 's/^ *Candidate: *//p')
	case "$ver" in ''|'(none)') say "apt offers no lttng-modules-dkms"; exit 1 ;; esac
	deb=$cache/lttng-modules-dkms_${ver//:/%3a}_all.deb
	if [ ! -f "$deb" ]; then
		say "downloading lttng-modules-dkms $ver"
		(cd "$cache" && apt-get download -q "lttng-modules-dkms=$ver" >/dev/null 2>&1) ||
			{ say "apt-get download lttng-modules-dkms=$ver failed"; exit 1; }
	fi
fi
dest=$cache/lttng-modules-$ver-$rel
build() {
	local src m
	mkdir -p "$dest/pkg" "$dest/ko"
	dpkg-deb -x "$deb" "$dest/pkg"
	src=$(echo "$dest"/pkg/usr/src/lttng-modules-*)
	[ -f "$src/Makefile" ] || { say "no source tree in $deb"; exit 1; }
	# The bench traces the sched events only. lttng-probe-timer does not
	# compile against Debian's 6.1.0-5x or 6.12.1xx headers (2.13.9 and
	# 2.13.18 alike): stable updates changed hrtimer_start's tracepoint.
	sed -i '/lttng-probe-timer\.o/d' "$src/src/probes/Kbuild"
	say "building lttng-modules $ver for $rel"
	make -j"$(nproc)" -C "$kdir" M="$src" modules CONFIG_LTTNG=m >"$dest/build.log" 2>&1 ||
		{ say "build failed: $(grep -m 3 'error:' "$dest/build.log")"; exit 1; }
	find "$src" -name '*.ko' -exec cp {} "$dest/ko/" \;
	for m in lttng-tracer lttng-probe-sched lttng-ring-buffer-client-discard; do
		[ -f "$dest/ko/$m.ko" ] || { say "$m.ko was not built"; exit 1; }
	done
	rm -rf "$dest/pkg"
}
cache_build "$cache/.lock" "$dest/.built" build
echo "$dest/ko"
