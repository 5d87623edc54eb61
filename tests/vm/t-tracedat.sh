#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# trace-cmd's trace.dat as input: one run of the standard workload under
# `ktprof record` and `trace-cmd record -C boot` (ftrace's boot clock,
# the clock ktprof's records carry) at once; for each thread of the
# workload born in the trace, `ktprof report --json trace.dat` and
# `ktprof report --json cap.ktp` agree: switch-outs (voluntary and
# involuntary) and wakeup and runqueue latency counts exactly, runtime
# and the latencies' maxima once each event's two clock readings are
# paired (check_tracedat.py says how and why). `ktprof import` of the
# trace.dat reports as the trace.dat does; x86's system vectors are
# named as the module names them. Lost events: a trace-cmd extract of a
# two-page ring buffer that the workload overran has the events dropped
# that trace-cmd report says, as lost records, and the finding.
#
# The guest also makes the small trace.dat files of the host's
# known-answer test (tests/tracedat/README: how), kept in its output.
#
# Under -icount, as vm/report: between two tracers' readings of one
# event only the instructions run pass.
# vm-args: --icount
# kernels: 6.12 7.3 6.1
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (scripts/setup.sh)"

# The events ktprof's translation reads, as trace-cmd names them.
TC_EVENTS=(-e sched -e irq:irq_handler_entry -e irq:irq_handler_exit
	-e irq:softirq_entry -e irq:softirq_exit -e workqueue:workqueue_execute_start
	-e workqueue:workqueue_execute_end -e task:task_newtask)

guest() {
	local ipi=()

	[ -d /sys/kernel/tracing/events/ipi ] && ipi=(-e ipi)
	[ -d /sys/kernel/tracing/events/irq_vectors ] && ipi+=(-e irq_vectors)
	# trace-cmd writes per-CPU files beside its output: in the guest's tmpfs.
	# A CPU's time before its first switch in the trace is unknown, and
	# latencies then are left out: a task pinned to each CPU in turn
	# switches there before the workload begins (an idle CPU of 6.1 was
	# seen to go 3 ms without).
	"$KTPROF" record -q -S none -e sched,irq,softirq,ipi,wq,wakeup $(debug_buffer) \
		--load "$KTPROF_KO" -o "$out/cap.ktp" -- \
		trace-cmd record -q -C boot -o "$TMPDIR/trace.dat" "${TC_EVENTS[@]}" "${ipi[@]}" -- \
		sh -c 'for c in $(seq 0 $(($(nproc) - 1))); do taskset -c "$c" true; done; exec "$@"' \
		sh "$WORKLOADS/sched-mix" -r 300 -t 100 >"$out/pids" 2>"$out/record.err" ||
		fail "record failed: $(cat "$out/record.err")"
	cp "$TMPDIR/trace.dat" "$out/trace.dat" || fail "trace.dat not copied"
	# Lost events: a ring buffer of two pages a CPU in overwrite mode
	# (ftrace's default), read after the workload: what was overwritten
	# is lost, and each CPU's first page says how much.
	{ trace-cmd start -C boot -b 8 -e sched &&
		"$WORKLOADS/sched-mix" -r 100 -t 30 >/dev/null && trace-cmd stop &&
		trace-cmd extract -o "$TMPDIR/lossy.dat" && trace-cmd reset; } \
		>/dev/null 2>"$out/lossy.err" ||
		fail "trace-cmd start/extract failed: $(cat "$out/lossy.err")"
	cp "$TMPDIR/lossy.dat" "$out/lossy.dat"
	fixture
}

# The known-answer fixture: a 2-CPU trace of ktp-ticker (3 rounds of a
# 4 ms sleep and 1 ms of work on CPU 1), file version 7, compressed, with
# a kallsyms of a few lines (the real one is megabytes): trace-cmd reads
# /proc/kallsyms, over which a short copy is mounted in a private mount
# namespace.
fixture() {
	grep -E ' [tT] (process_one_work|worker_thread|schedule|do_idle|ticker_work)$' \
		/proc/kallsyms >"$TMPDIR/kallsyms.short" || :
	unshare -m sh -c 'mount --bind "$1/kallsyms.short" /proc/kallsyms &&
		exec trace-cmd record -q -C boot --file-version 7 --compression any \
			-o "$1/fixture.dat" -e sched:sched_switch -e sched:sched_waking \
			-e sched:sched_wakeup_new -e sched:sched_process_fork \
			-e sched:sched_process_exec -e sched:sched_process_exit \
			-e sched:sched_process_free -- taskset -c 1 "$2/ticker" -n 3 -s 4000 -w 1000' \
		sh "$TMPDIR" "$WORKLOADS" >/dev/null 2>"$out/fixture.err" ||
		fail "trace-cmd record of the fixture failed: $(cat "$out/fixture.err")"
	cp "$TMPDIR/fixture.dat" "$out/fixture.dat"
	# And one without sched events (the host's test of a refusal).
	unshare -m sh -c 'mount --bind "$1/kallsyms.short" /proc/kallsyms &&
		exec trace-cmd record -q -C boot --file-version 7 --compression any \
			-o "$1/irq.dat" -e irq:softirq_entry -e irq:softirq_exit -- sleep 0.05' \
		sh "$TMPDIR" >/dev/null 2>>"$out/fixture.err" ||
		fail "trace-cmd record without sched events failed: $(cat "$out/fixture.err")"
	cp "$TMPDIR/irq.dat" "$out/irq.dat"
	trace-cmd report -i "$out/fixture.dat" >"$out/fixture.txt" 2>/dev/null
	uname -r >"$out/fixture.kernel"
}

host() {
	local f

	for f in cap.ktp trace.dat; do
		"$KTPROF" report --json "$out/$f" >"$out/report-$f.json" ||
			fail "report --json $f failed"
	done
	"$KTPROF" import -o "$out/imported.ktp" "$out/trace.dat" || fail "import failed"
	"$KTPROF" report --json "$out/imported.ktp" >"$out/report-imported.json" ||
		fail "report --json of the import failed"
	"$KTPROF" info "$out/trace.dat" >"$out/info.txt" || fail "info trace.dat failed"
	"$KTPROF" dump "$out/cap.ktp" >"$out/dump-cap.txt" || fail "dump cap.ktp failed"
	"$KTPROF" dump "$out/trace.dat" >"$out/dump-trace.txt" || fail "dump trace.dat failed"
	/usr/bin/python3 "$(dirname "$0")/check_tracedat.py" "$out/report-cap.ktp.json" \
		"$out/report-trace.dat.json" "$out/pids" "$out/dump-cap.txt" "$out/dump-trace.txt" ||
		fail "trace.dat and ktprof's capture disagree"
	/usr/bin/python3 "$(dirname "$0")/check_tracedat.py" --same "$out/report-trace.dat.json" \
		"$out/report-imported.json" || fail "the import reports otherwise than the trace.dat"
	"$KTPROF" report --json "$out/fixture.dat" >/dev/null || fail "report of the fixture failed"
	"$KTPROF" report "$out/irq.dat" 2>&1 | grep -q 'no sched:sched_switch in this trace' ||
		fail "a trace without sched events is not refused as such"
	# x86's system vectors, named as the module names them.
	if [ "$(uname -m)" = x86_64 ]; then
		"$KTPROF" report --irq "$out/trace.dat" | grep -Eq '^  irq timer +[0-9]+ ' ||
			fail "no local timer interrupts in the trace.dat's report"
	fi
	# What the trace marks as lost, ktprof counts as lost, and the time
	# from the last event before each loss to the CPU's next switch is
	# unknown.
	trace-cmd report -i "$out/lossy.dat" 2>/dev/null |
		sed -n 's/.*\[\([0-9]*\) EVENTS DROPPED\].*/\1/p; s/.*CPU:[0-9]* \[EVENTS DROPPED\].*/1/p' >"$out/lossy.drops"
	dropped=$(awk '{ n += $1 } END { print n + 0 }' "$out/lossy.drops")
	"$KTPROF" info "$out/lossy.dat" >"$out/lossy.info" || fail "info lossy.dat failed"
	grep -Eq "^lost records +$dropped( |\$)" "$out/lossy.info" ||
		fail "trace-cmd report says $dropped events dropped, ktprof info: $(grep '^lost' "$out/lossy.info")"
	[ "$dropped" -gt 0 ] || fail "trace-cmd report of the overwritten buffer says nothing dropped"
	"$KTPROF" report "$out/lossy.dat" >"$out/lossy.txt"
	grep -Eq "^lost records: $dropped " "$out/lossy.txt" ||
		fail "report: $(grep '^lost' "$out/lossy.txt"), trace-cmd: $dropped dropped"
	grep -Eq '^\[loss\]|^  \[loss\] CPU [0-9]+ lost [0-9]+ records' "$out/lossy.txt" ||
		fail "no finding of the loss: $(head -12 "$out/lossy.txt")"
}

run_phases
