#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The records' clock against ftrace's. One run of a workload under
# `ktprof record --clock boot` and `trace-cmd record -C boot` at once, and
# one under `ktprof record --clock tsc` and trace-cmd: every sched_switch
# and sched_waking of each trace is paired with its twin in ktprof's
# capture (check_tracedat.py's pairing), and its gap is the trace's time
# less ktprof's. On one vCPU under -icount (no other vCPU runs between the
# two tracers' readings, and a guest ns is an instruction) a gap is the
# instructions between the two readings, so with boot time it is nearly
# the same for every event: with the TSC, converted by the reader from the
# module's CLOCK records, each gap must stay within a microsecond of boot
# time's median (check_clock.py), which is the conversion's error plus
# the writer's few changed instructions. The TSC capture has CLOCK
# records, at least one a millisecond of a CPU's busy counter, and says
# "clock tsc"; the boot one has none and says "clock boot".
#
# qemu's TCG has a stable TSC but does not advertise constant_tsc or
# nonstop_tsc: `auto` picks boot time here (checked), and `tsc` forces
# the TSC. On real hardware with both flags `auto` is the TSC.
# vm-args: --icount --cpus 1
# kernels: 6.12 7.3 6.1
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/setup.sh)"

guest() {
	local clock

	load_module clock=auto
	ctl start
	grep -qx 'clock=boot' "$KTPROF_DBG/meta" ||
		fail "auto on TCG (no constant_tsc): $(grep clock "$KTPROF_DBG/meta")"
	ctl stop
	unload_module
	load_module
	for clock in boot tsc; do
		"$KTPROF" record -q -S none -e sched --clock "$clock" -o "$out/cap-$clock.ktp" -- \
			trace-cmd record -q -C boot -o "$TMPDIR/trace.dat" \
			-e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup_new -- \
			"$WORKLOADS/sched-mix" -r 300 -t 120 >/dev/null 2>"$out/record.err" ||
			fail "record --clock $clock failed: $(cat "$out/record.err")"
		cp "$TMPDIR/trace.dat" "$out/trace-$clock.dat" || fail "trace.dat not copied"
	done
	unload_module
}

host() {
	local clock f

	for clock in boot tsc; do
		"$KTPROF" info "$out/cap-$clock.ktp" >"$out/info-$clock.txt" ||
			fail "info of the $clock capture failed"
		grep -Eq "^  clock +$clock\$" "$out/info-$clock.txt" ||
			fail "info of the $clock capture: $(grep clock "$out/info-$clock.txt")"
		for f in cap trace; do
			"$KTPROF" dump "$out/$f-$clock".* >"$out/dump-$f-$clock.txt" ||
				fail "dump $f-$clock failed"
		done
	done
	/usr/bin/python3 "$(dirname "$0")/check_clock.py" "$out"/dump-{cap,trace}-boot.txt "$out"/dump-{cap,trace}-tsc.txt ||
		fail "ktprof's times and ftrace's do not line up"
}

run_phases
