#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install everything ktprof's build and tests need on Debian 12 (bookworm);
# with --bench, also what make bench compares with (LTTng's tools, and
# babeltrace2 to read its traces; lttng-modules is built per kernel by
# scripts/lttng-modules.sh). Idempotent: when every package is present it
# only checks and returns.
# Kernel versions are resolved from the archive at run time, never hard-coded.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { say "run as root or install sudo"; exit 1; }
	SUDO=sudo
fi

base_pkgs=(
	build-essential bc bison flex kmod cpio xz-utils zstd gzip rsync
	libssl-dev libelf-dev pkg-config python3
	systemtap-sdt-dev
	busybox-static
	protobuf-c-compiler libprotobuf-c-dev protobuf-compiler python3-protobuf
	libnl-3-dev libnl-genl-3-dev zlib1g-dev libdeflate-dev libjson-c-dev
	# ktprof sql and export: SQLite (the sqlite3 shell for the tests)
	libsqlite3-dev sqlite3
	# ktprof top's full-screen view (ncursesw)
	libncurses-dev
	# trace-cmd's trace.dat as input (capture/tracedat.c): its libraries
	# (libtracecmd's pkg-config file requires libtracefs's), and trace-cmd
	# for the tests' fixtures
	trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev
	linux-perf linux-source-6.12
	stress-ng
	chromium
	linux-image-amd64 linux-headers-amd64
	# the fuzz harnesses: clang 14 and its libFuzzer runtime
	# (libclang_rt.fuzzer, which -fsanitize=fuzzer links)
	clang libclang-rt-14-dev
	# packaging: the man pages' test (man), make deb (Debian packages, lintian)
	man-db debhelper dh-dkms dkms lintian fakeroot
	# vm/fuse-file: its FUSE daemon (tests/tools/fuse-gate, libfuse3) and
	# libfuse's mount helper (fusermount3)
	libfuse3-dev fuse3
	# the sched_ext test kernel (build-test-kernel.sh --scx): BTF by
	# pahole; the kernel's example schedulers by clang-19 (their
	# documented minimum is 16; bookworm's clang is 14), bpftool and
	# libbpf from the same tree (libelf, zlib, zstd)
	dwarves clang-19 llvm-19 lld-19 libzstd-dev
)
if [ "${1:-}" = --bench ]; then
	base_pkgs+=(lttng-tools babeltrace2)
fi

missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx installed || printf '%s\n' "$p"
	done
}

# Wait for another apt or dpkg (a concurrent setup, unattended upgrades)
# instead of failing at once on its lock.
APT_LOCK="-o DPkg::Lock::Timeout=900"
apt_updated=
apt_update_once() {
	[ -n "$apt_updated" ] && return 0
	say "apt-get update"
	$SUDO apt-get $APT_LOCK update -qq
	apt_updated=1
}

apt_install() {
	[ $# -gt 0 ] || return 0
	apt_update_once
	say "installing: $*"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get $APT_LOCK install -y -qq \
		--no-install-recommends "$@" >/dev/null
}

# Newest linux-image-6.12.N+debX-amd64-unsigned in the archive (by version sort).
newest_612_flavour() {
	apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64-unsigned$' |
		awk '{print $1}' | sed -e 's/^linux-image-//' -e 's/-unsigned$//' |
		sort -V | tail -n 1
}

read -r -a want < <(missing_pkgs "${base_pkgs[@]}" | tr '\n' ' '; echo)
apt_install "${want[@]}"

# qemu from bookworm-backports: bookworm's qemu 7.2 does not keep
# cross-modified code coherent under multi-threaded TCG, and SMP guests die
# on the kernel's own live patching ("Oops: int3" when a static key or
# static call changes). Backports are never preferred by default (pin 100),
# so nothing else on the machine changes.
backports=/etc/apt/sources.list.d/ktprof-bookworm-backports.list
qemu_major() {
	dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null |
		sed -E 's/^[0-9]+://; s/[^0-9].*//'
}
if [ "$(qemu_major)" = "" ] || [ "$(qemu_major)" -lt 8 ]; then
	if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		say "adding bookworm-backports for qemu"
		echo 'deb http://deb.debian.org/debian bookworm-backports main' |
			$SUDO tee "$backports" >/dev/null
		apt_updated=
	fi
	apt_update_once
	say "installing qemu-system-x86 from bookworm-backports"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get $APT_LOCK install -y -qq \
		--no-install-recommends -t bookworm-backports qemu-system-x86 >/dev/null
	[ "$(qemu_major)" -ge 8 ] || { say "qemu from backports did not install"; exit 1; }
fi

# virtme-ng (vng), for tests/vng: neither bookworm nor bookworm-backports
# has it. Trixie's package is Architecture: all (Python) and its
# dependencies are all in bookworm, so its .deb is fetched with a private
# apt configuration (newer-deb.sh: the machine's apt stays bookworm-only),
# kept in the cache, and installed with apt-get, which takes the
# dependencies from bookworm. Trixie, not sid: a stable release's package
# does not change under us.
if [ -n "$(missing_pkgs virtme-ng)" ]; then
	vng_deb=$("$(dirname "$0")/newer-deb.sh" virtme-ng/trixie "$(cache_root)/deb")
	apt_update_once
	say "installing virtme-ng from $vng_deb"
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get $APT_LOCK install -y -qq \
		--no-install-recommends "$vng_deb" >/dev/null
	command -v vng >/dev/null || { say "virtme-ng did not install"; exit 1; }
fi

# The primary test kernel: keep the newest installed 6.12 if the archive cannot be
# asked (offline), otherwise install the newest the archive offers.
rel=$(newest_612_flavour || true)
if [ -z "$rel" ]; then
	apt_update_once
	rel=$(newest_612_flavour || true)
fi
if [ -z "$rel" ]; then
	say "no linux-image-6.12.*-amd64-unsigned in the apt archive"
	exit 1
fi
read -r -a want < <(missing_pkgs "linux-image-$rel-unsigned" "linux-headers-$rel" | tr '\n' ' '; echo)
apt_install "${want[@]}"

# Debian's kernel images are mode 0600; qemu needs to read them as any user.
for k in /boot/vmlinuz-*; do
	[ -r "$k" ] && [ "$(stat -c %a "$k")" = 644 ] || $SUDO chmod 0644 "$k"
done
# ktprof mcp's test client (tests/cli/t-mcp.sh): the official MCP TypeScript
# SDK, the version tests/mcp/package-lock.json pins, into tests/mcp/node_modules.
# Node from Debian when there is none (the SDK wants Node 18 or later).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	apt_install nodejs npm
fi
top=$(cd "$(dirname "$0")/.." && pwd)
mcp=$top/tests/mcp
if [ ! -e "$mcp/node_modules/.package-lock.json" ] ||
   [ "$mcp/package-lock.json" -nt "$mcp/node_modules/.package-lock.json" ]; then
	say "installing the MCP SDK (npm ci in tests/mcp)"
	npm ci --prefix "$mcp" --no-audit --no-fund --loglevel=error >&2
fi
# ktprof export's files read by DuckDB (tests/cli/t-export-duckdb.sh): its
# Node API, the version tests/duckdb/package-lock.json pins (a prebuilt
# binding for linux-x64), into tests/duckdb/node_modules.
duck=$top/tests/duckdb
if [ ! -e "$duck/node_modules/.package-lock.json" ] ||
   [ "$duck/package-lock.json" -nt "$duck/node_modules/.package-lock.json" ]; then
	say "installing DuckDB's Node API (npm ci in tests/duckdb)"
	npm ci --prefix "$duck" --no-audit --no-fund --loglevel=error >&2
fi

say "ok (6.12 test kernel: $rel)"
