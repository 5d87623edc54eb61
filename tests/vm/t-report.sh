#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof report against perf sched on the same events: one run of the
# standard workload under `ktprof record` and `perf sched record` at once;
# every event perf recorded is in ktprof's capture, and per workload thread
# switch-outs, runtime and the maximum wakeup latency agree with perf's
# events and `perf sched timehist` to the nanosecond once each event's
# two clock readings are paired (how and why: check_perf_sched.py).
# The report of the real capture renders as text, JSON and HTML.
#
# Under -icount, so that the guest's clock does not stop while the host
# starves the vCPU: between the two tools' readings of one event only the
# instructions run (by either vCPU) pass.
# vm-args: --icount
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
command -v perf >/dev/null || fail "perf is not installed (scripts/setup.sh: linux-perf)"

guest() {
	# perf stamps with CLOCK_MONOTONIC (-k mono), the timekeeper ktprof's
	# CLOCK_BOOTTIME runs on (they differ by the time suspended, a
	# constant here): both measure the same slices with the same clock.
	# (perf refuses BOOTTIME for tracepoints: it is not NMI-safe.)
	"$KTPROF" record -q -S none $(debug_buffer) --load "$KTPROF_KO" -o "$out/cap.ktp" -- \
		perf sched record -k mono -o "$TMPDIR/perf.data" -- "$WORKLOADS/sched-mix" -r 2000 -t 300 \
		>"$out/pids" 2>"$out/record.err" || fail "record failed: $(cat "$out/record.err")"
	# perf writes its buffer in small pieces: into the guest's tmpfs, as
	# over 9p perf and its wakeups would be most of what the capture holds.
	cp "$TMPDIR/perf.data" "$out/perf.data" || fail "perf.data not copied"
}

host() {
	grep -q '^lost records      0$' <("$KTPROF" info "$out/cap.ktp") || fail "ktprof lost records"
	perf sched timehist -i "$out/perf.data" >"$out/timehist.txt" 2>"$out/timehist.err" ||
		fail "perf sched timehist failed: $(tail -3 "$out/timehist.err")"
	perf script --ns -i "$out/perf.data" >"$out/script.txt" 2>/dev/null || fail "perf script failed"
	"$KTPROF" dump "$out/cap.ktp" >"$out/dump.txt" || fail "dump failed"
	"$KTPROF" report --json "$out/cap.ktp" >"$out/report.json" || fail "report --json failed"
	/usr/bin/python3 "$(dirname "$0")/check_perf_sched.py" "$out/report.json" \
		"$out/timehist.txt" "$out/script.txt" "$out/dump.txt" || fail "ktprof and perf sched disagree"
	"$KTPROF" report "$out/cap.ktp" >"$out/report.txt" || fail "report failed"
	grep -q 'ktp-hog' "$out/report.txt" || fail "the summary lacks the workload"
	"$KTPROF" report --html "$out/report.html" "$out/cap.ktp" || fail "report --html failed"
	grep -q 'data-plot="cpu-utilization"' "$out/report.html" || fail "no utilization plot"
}

run_phases
