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
# the same KTPROF_TEST_OUT when guest() passed. A test may also define
# prepare(): run on the host before the boot, its files in KTPROF_PREP
# (which guest.sh, unlike KTPROF_TEST_OUT, leaves alone), for what the
# guest would do under TCG but need not (vm/dkms: the DKMS build). Values
# host() needs from the guest travel as files in KTPROF_TEST_OUT (note, noted); the kernel
# and the CPU count are noted for every test (kernel_release,
# kernel_version, guest_cpus).
set -u
KTPROF_PHASE=${KTPROF_PHASE:-guest}
KTPROF_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib/common.sh
. "$KTPROF_TOP/tests/lib/common.sh"	# fail, say
# The module built for this kernel, unless the caller names another.
KTPROF_KO=${KTPROF_KO:-$KTPROF_TOP/build/kmod/$(uname -r)/kmod/ktprof.ko}
KTPROF=$KTPROF_TOP/user/ktprof
KTPROF_DBG=/sys/kernel/debug/ktprof
WORKLOADS=$KTPROF_TOP/build/workloads
TOOLS=$KTPROF_TOP/build/tools
: "${KTPROF_TEST_OUT:=${TMPDIR:-/tmp}/ktprof-test.$$}"
mkdir -p "$KTPROF_TEST_OUT"
KTPROF_PREP=${KTPROF_TEST_OUT%.d}.pre

# Each step with the seconds the test has run: where a slow kernel's time
# goes, in every log.
say() { printf -- '--- %s (%d s)\n' "$*" "$SECONDS"; }

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

# Without a process: a loaded module has its initstate in sysfs from the
# load until the unload.
module_loaded() { [ -e /sys/module/ktprof/initstate ]; }

# A debug kernel (7.3, debug-X.Y: KASAN, lockdep, kmemleak) runs the
# kernel's own paths many times slower under TCG: every slab allocation
# and free saves a stack trace for KASAN, so a fork takes 20 times as long
# as on 6.12, an exec 7 times, an insmod 10 times, while user code runs at
# the same speed (measured: 10 forks 2.3 s against 0.11 s).
debug_kernel() {
	case "${KTPROF_VM_KERNEL-}" in
	7.3|debug*) return 0 ;;
	esac
	return 1
}

# A stress test's count: FULL on the release kernels, DEBUG on a debug
# kernel. DEBUG still reaches every path FULL does, so the debug kernel's
# detectors see each one; what it gives up is repetitions of a race, which
# the release kernels keep ("rounds=$(scaled 30 10)").
scaled() { if debug_kernel; then echo "$2"; else echo "$1"; fi; }

# Its readers run slower with it, while interrupts and samples keep the
# host's pace: tests that want no loss give the recorder more buffer there
# ("$KTPROF" record $(debug_buffer) ...); elsewhere its default.
debug_buffer() { if debug_kernel; then echo "-b 32M"; fi; }

# kmemleak, on the debug kernel (elsewhere both do nothing): forget what
# the kernel leaked before (boot is not ours), then after the test's work
# fail on anything new. Two scans: an object is reported after two scans
# find it unreferenced.
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_clear() {
	[ -w $KMEMLEAK ] || return 0
	echo scan >$KMEMLEAK
	echo clear >$KMEMLEAK
}

kmemleak_check() {
	local leaks
	[ -w $KMEMLEAK ] || return 0
	echo scan >$KMEMLEAK
	echo scan >$KMEMLEAK
	leaks=$(grep -c '^unreferenced object' $KMEMLEAK)
	[ "$leaks" = 0 ] || { head -60 $KMEMLEAK; fail "kmemleak: $leaks objects"; }
	echo "kmemleak: nothing new"
}

# tsc while the kernel's clocksource is the TSC, else auto.
tsc_or_auto() {
	local cs=
	read -r cs </sys/devices/system/clocksource/clocksource0/current_clocksource
	if [ "$cs" = tsc ]; then echo tsc; else echo auto; fi
}

load_module() {
	module_loaded && fail "ktprof is already loaded"
	# Records stamped with the TSC, as `auto` does on hardware with a
	# constant and nonstop TSC; TCG's is stable but not advertised so
	# (vm/clock). Unless the kernel stopped trusting it (its watchdog, on
	# a busy debug guest): then auto, boot time. Tests that use `record
	# --load` get auto. KTPROF_CLOCK= (empty): no clock= at all (a module
	# before ABI 1.8).
	case " $* " in
	*" clock="*) ;;
	*) [ -z "${KTPROF_CLOCK-x}" ] || set -- "clock=${KTPROF_CLOCK:-$(tsc_or_auto)}" "$@" ;;
	esac
	insmod "$KTPROF_KO" "$@" || fail "insmod $KTPROF_KO $* failed"
}

unload_module() {
	module_loaded || return 0
	if [ -w "$KTPROF_DBG/control" ] && ctl_is running; then
		echo stop >"$KTPROF_DBG/control" || true
	fi
	rmmod ktprof || fail "rmmod ktprof failed"
}

ctl() { echo "$1" >"$KTPROF_DBG/control"; }

# Whether the session is in STATE (idle, running, stopped), read without
# starting a process: polls of it cost nothing on a debug kernel, where
# each grep or cat took a quarter of a second.
ctl_is() {
	local s=
	read -r s <"$KTPROF_DBG/control" 2>/dev/null
	[ "$s" = "$1" ]
}

# Sleep SECONDS (fractions too) without starting a process: a read with a
# timeout on a pipe that nothing writes to. On a debug kernel under TCG
# each `sleep` costs a fork and an exec (a quarter of a second to seconds
# of the guest's CPU), and the tests' polling loops ran thousands.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd" _ || :; }

# Copy a text file (meta, stats, a control file's answer) without a process.
copy_text() {
	local s=
	IFS= read -r -d '' s <"$1" || [ -n "$s" ] || [ -r "$1" ] || return 1
	printf '%s' "$s" >"$2"
}

# Poll COMMAND every half second until it succeeds or SECONDS pass:
# until_true SECONDS COMMAND... A deadline in time, not a count of polls,
# however long each poll takes on a busy host.
until_true() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		nap 0.5
	done
}

# Run this phase's part of a test; in the guest, note the kernel and the
# CPU count for the host part, and leave word that it follows.
run_phases() {
	case "$KTPROF_PHASE" in
	guest)
		note release "$(uname -r)"
		note cpus "$(nproc)"
		if declare -F prepare >/dev/null && [ ! -f "$KTPROF_PREP/.done" ]; then
			log_tail 30 "$KTPROF_PREP/log" 'prepare| '
			fail "the prepare phase on the host failed (log above, $KTPROF_PREP/log)"
		fi
		guest
		if declare -F host >/dev/null; then
			: >"$KTPROF_TEST_OUT/.host-phase"
		fi
		;;
	host) host ;;
	prepare)
		mkdir -p "$KTPROF_PREP"
		prepare
		: >"$KTPROF_PREP/.done"
		;;
	*) fail "unknown phase '$KTPROF_PHASE'" ;;
	esac
}

# Keep a value of the guest's for the host phase: note NAME VALUE; noted NAME.
note() { printf '%s\n' "$2" >"$KTPROF_TEST_OUT/.note-$1"; }
noted() {
	[ -f "$KTPROF_TEST_OUT/.note-$1" ] || fail "the guest left no '$1'"
	cat "$KTPROF_TEST_OUT/.note-$1"
}

# Copy a session's data like a shell-only init script: cpuN, meta, stats,
# and with "symbols" /proc/kallsyms: dump_session DIR [symbols]. Only the
# checks of kernel frames want the symbols, and on a debug kernel under a
# busy host one read of them took 28 s (an import without them warns).
dump_session() {
	local dir=$1 f
	mkdir -p "$dir"
	for f in "$KTPROF_DBG"/cpu*; do
		cat "$f" >"$dir/${f##*/}" || fail "cat $f failed"
	done
	copy_text "$KTPROF_DBG/meta" "$dir/meta" || fail "cannot read $KTPROF_DBG/meta"
	copy_text "$KTPROF_DBG/stats" "$dir/stats" || fail "cannot read $KTPROF_DBG/stats"
	if [ "${2-}" = symbols ]; then
		cat /proc/kallsyms >"$dir/kallsyms"
	fi
}

# Value of KEY in a "... KEY=VALUE ..." line on stdin (a selftest result).
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

# Value of KEY in "... KEY=VALUE ..." lines of FILE matching PATTERN.
kv() {
	local file=$1 pattern=$2 key=$3
	grep -E "$pattern" "$file" | head -n 1 | field "$key"
}

# `bash lib.sh unload` (guest.sh, after a test that failed half-way).
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1-}" = unload ]; then
	unload_module
fi

# sched_ext (the scx test kernel). The example schedulers and the tests'
# own are in the kernel's cache directory (scripts/build-test-kernel.sh
# --scx): a test's prepare() notes where (scx_note_bin), the guest reads it.
scx_note_bin() {
	local kdir
	kdir=$("$KTPROF_TOP/scripts/kernels.sh" scx | cut -d' ' -f3) || fail "no scx kernel"
	mkdir -p "$KTPROF_PREP"
	echo "${kdir%/build}/scx/bin" >"$KTPROF_PREP/scx_bin"
}

scx_bin() { cat "$KTPROF_PREP/scx_bin"; }

# Wait until /sys/kernel/sched_ext/state says STATE (and, with NAME, the
# scheduler is NAME): at most 30 s.
scx_wait() {
	local state=$1 name=${2-} i s ops
	for ((i = 0; i < 300; i++)); do
		read -r s </sys/kernel/sched_ext/state
		ops=
		[ -r /sys/kernel/sched_ext/root/ops ] && read -r ops </sys/kernel/sched_ext/root/ops
		[ "$s" = "$state" ] && { [ -z "$name" ] || [ "$ops" = "$name" ]; } && return 0
		nap 0.1
	done
	return 1
}

# Start scheduler NAME (a file in scx_bin) with ARGS, its output in
# $KTPROF_TEST_OUT/NAME.out; wait until the kernel says it is enabled.
scx_start() {
	local name=$1 ops=${1#scx_}
	shift
	scx_wait disabled || fail "a BPF scheduler is still loaded"
	"$(scx_bin)/$name" "$@" >"$KTPROF_TEST_OUT/$name.out" 2>&1 &
	scx_pid=$!
	scx_wait enabled "$ops" ||
		fail "$name did not enable: $(tail -n 20 "$KTPROF_TEST_OUT/$name.out")"
}

# Stop the scheduler scx_start started; wait until sched_ext is disabled.
scx_stop() {
	kill -INT "$scx_pid" 2>/dev/null
	wait "$scx_pid"
	scx_wait disabled || fail "sched_ext did not go back to disabled"
}
