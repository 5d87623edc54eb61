#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for VM tests; sourced by tests/vm/t-*.sh, which run as root in the
# guest. `bash lib.sh unload` unloads a module a failed test left behind.
#
# Two phases: what needs the test kernel runs in the guest; what only reads
# the files it left (ktprof dump, report, convert and the Python checkers)
# runs on the host after the VM is gone, at native speed instead of under
# TCG (tens of times slower). A test that has such a part defines guest()
# and host() and ends with `run_phases`; tests/vm/run.sh runs host() with
# the same KTPROF_TEST_OUT when guest() passed. Values host() needs from
# the guest travel as files in KTPROF_TEST_OUT (note, noted); the kernel
# and the CPU count are noted for every test (kernel_release,
# kernel_version, guest_cpus).
set -u
KTPROF_PHASE=${KTPROF_PHASE:-guest}
KTPROF_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The module built for this kernel, unless the caller names another.
KTPROF_KO=${KTPROF_KO:-$KTPROF_TOP/build/kmod/$(uname -r)/kmod/ktprof.ko}
KTPROF=$KTPROF_TOP/user/ktprof
KTPROF_DBG=/sys/kernel/debug/ktprof
WORKLOADS=$KTPROF_TOP/build/workloads
TOOLS=$KTPROF_TOP/build/tools
: "${KTPROF_TEST_OUT:=${TMPDIR:-/tmp}/ktprof-test.$$}"
mkdir -p "$KTPROF_TEST_OUT"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

say() { echo "--- $*"; }

# Major.minor of the running kernel as one number: 6.12 -> 612.
# The guest's kernel release and CPU count, in either phase: the host phase
# reads what run_phases noted in the guest.
kernel_release() {
	if [ "$KTPROF_PHASE" = host ]; then noted release; else uname -r; fi
}

guest_cpus() {
	if [ "$KTPROF_PHASE" = host ]; then noted cpus; else nproc; fi
}

kernel_version() {
	local r
	r=$(kernel_release) || return 1
	r=${r%%-*}
	echo "$r" | awk -F. '{ printf "%d%02d\n", $1, $2 }'
}

module_loaded() { grep -q '^ktprof ' /proc/modules; }

load_module() {
	module_loaded && fail "ktprof is already loaded"
	insmod "$KTPROF_KO" "$@" || fail "insmod $KTPROF_KO $* failed"
}

unload_module() {
	module_loaded || return 0
	if [ -w "$KTPROF_DBG/control" ] && grep -q running "$KTPROF_DBG/control" 2>/dev/null; then
		echo stop >"$KTPROF_DBG/control" || true
	fi
	rmmod ktprof || fail "rmmod ktprof failed"
}

if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1-}" = unload ]; then
	unload_module
fi

ctl() { echo "$1" >"$KTPROF_DBG/control"; }

# Run this phase's part of a test; in the guest, note the kernel and the
# CPU count for the host part, and leave word that it follows.
run_phases() {
	case "$KTPROF_PHASE" in
	guest)
		note release "$(uname -r)"
		note cpus "$(nproc)"
		guest
		if declare -F host >/dev/null; then
			: >"$KTPROF_TEST_OUT/.host-phase"
		fi
		;;
	host) host ;;
	*) fail "unknown phase '$KTPROF_PHASE'" ;;
	esac
}

# Keep a value of the guest's for the host phase: note NAME VALUE; noted NAME.
note() { printf '%s\n' "$2" >"$KTPROF_TEST_OUT/.note-$1"; }
noted() {
	[ -f "$KTPROF_TEST_OUT/.note-$1" ] || fail "the guest left no '$1'"
	cat "$KTPROF_TEST_OUT/.note-$1"
}

# Copy a session's data like a shell-only init script: cpuN, meta, stats.
dump_session() {
	local dir=$1 f
	mkdir -p "$dir"
	for f in "$KTPROF_DBG"/cpu*; do
		cat "$f" >"$dir/$(basename "$f")" || fail "cat $f failed"
	done
	cat "$KTPROF_DBG/meta" >"$dir/meta"
	cat "$KTPROF_DBG/stats" >"$dir/stats"
	cat /proc/kallsyms >"$dir/kallsyms"
}

# Value of KEY in a "... KEY=VALUE ..." line on stdin (a selftest result).
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

# Value of KEY in "... KEY=VALUE ..." lines of FILE matching PATTERN.
kv() {
	local file=$1 pattern=$2 key=$3
	grep -E "$pattern" "$file" | head -n 1 | field "$key"
}
