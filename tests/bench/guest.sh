#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VMs that tests/bench/run.sh boots with instruction-counted
# time. Prints lines for tests/bench/summarize.awk.
#
#   overhead  (1 vCPU: the clock counts only the instructions of the CPU
#             that runs the benchmark) the cost of tracing the same
#             scheduler tracepoints with ftrace, perf and ktprof, in
#             interleaved rounds, on tests/workloads/handoff: two SCHED_FIFO
#             threads handing one CPU to each other, so every run repeats
#             the same events (yield: a switch per handoff; futex: a waking
#             and a switch). The threads starve every reader, so each
#             tracer buffers the whole run: ftrace and ktprof 16 MiB per
#             CPU, perf 64 MiB (its records are 112-128 bytes); none loses
#             events. Then ktprof's write path alone (selftest records).
#   flood     (2 vCPUs) ktprof record at its defaults under 1, 2 and 4
#             concurrent perf bench sched pipe floods: records/s, loss,
#             recorder memory.
#
# usage: guest.sh overhead|flood OUTDIR
#        (environment: ROUNDS, HANDOFFS, FLOOD_LOOPS, SELFTEST_N)
. "$(dirname "$0")/../vm/lib.sh"
. "$(dirname "$0")/lib.sh"
mode=$1
out=$2
ROUNDS=${ROUNDS:-5}
HANDOFFS=${HANDOFFS:-50000}
FLOOD_LOOPS=${FLOOD_LOOPS:-50000}
SELFTEST_N=${SELFTEST_N:-400000}
tmp=${TMPDIR:-/tmp}	# perf cannot mmap its output on 9p
TP=/sys/kernel/tracing
# ktprof's "sched" group, tracepoint for tracepoint.
TPS="sched_switch sched_waking sched_wakeup_new sched_migrate_task
     sched_process_fork sched_process_exec sched_process_exit sched_process_free"
KTP_TYPES="sched_switch sched_waking sched_migrate fork exec exit free"
WL=()	# the workload of the current rounds

# ns per handoff, from the workload's own clock (guest time).
run_workload() {
	"${WL[@]}" 2>/dev/null | awk '/ns\/handoff/ { print $1 }'
}

# Each tracer prints "NS_PER_HANDOFF EVENTS BYTES".
run_none() {
	echo "$(run_workload) 0 0"
}

run_ftrace() {
	local e t
	echo 0 >"$TP/tracing_on"
	: >"$TP/trace"
	for e in $TPS; do echo 1 >"$TP/events/sched/$e/enable"; done
	echo 1 >"$TP/tracing_on"
	t=$(run_workload)
	echo 0 >"$TP/tracing_on"
	for e in $TPS; do echo 0 >"$TP/events/sched/$e/enable"; done
	echo "$t $(cat "$TP"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } /^bytes:/ { b += $2 }
		     END { print n + 0, b + 0 }')"
}

run_perf() {
	local args=() e t n
	for e in $TPS; do args+=(-e "sched:$e"); done
	perf record -a -m 64M -o "$tmp/perf.data" "${args[@]}" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf record: $(cat "$out/perf.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$tmp/perf.data")"
}

# Buffer only, like ftrace: the session runs, nothing reads until the end.
run_ktprof() {
	local t
	ctl start
	t=$(run_workload)
	ctl stop
	echo "$t $(ktprof_events) $(sed -n 's/^total records=[0-9]* bytes=\([0-9]*\).*/\1/p' "$KTPROF_DBG/stats")"
}

# Sched records of the session that just ended, as the module counted them.
ktprof_events() {
	local types=" $KTP_TYPES "
	sed -n 's/^total written //p' "$KTPROF_DBG/stats" | tr ' ' '\n' |
		awk -F= -v types="$types" 'index(types, " " $1 " ") { n += $2 } END { print n + 0 }'
}

# The recorder as users run it: reader threads, compression, capture file.
run_record() {
	local t n
	"$KTPROF" record -q -e sched -S none -b 16M --no-snapshots -o "$tmp/rec.ktp" -- \
		"${WL[@]}" >"$out/rec.out" 2>"$out/rec.err" ||
		fail "ktprof record: $(cat "$out/rec.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/rec.out")
	n=$("$KTPROF" dump --json "$tmp/rec.ktp" 2>/dev/null |
		grep -cE '"type":"(sched_switch|sched_waking|sched_migrate|fork|exec|exit|free)"')
	echo "$t $n $(stat -c %s "$tmp/rec.ktp")"
}

# ns for writing N selftest records from this shell (no fork or exec on
# the clock: those wait on 9p, and idle time jumps under -icount).
selftest_ns() {
	local t0 t1
	ctl start
	t0=$EPOCHREALTIME
	echo "$1" >"$KTPROF_DBG/selftest"
	t1=$EPOCHREALTIME
	ctl stop
	grep -q "written=$1 " "$KTPROF_DBG/selftest" || fail "selftest: $(cat "$KTPROF_DBG/selftest")"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f\n", (b - a) * 1e9 }'
}

overhead() {
	local mode round tracer line
	[ -d "$TP/events/sched" ] || fail "no tracefs at $TP"
	echo 16384 >"$TP/buffer_size_kb"
	echo boot >"$TP/trace_clock"
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us	# no RT throttling mid-run
	"$WORKLOADS/handoff" -n 10 >/dev/null || fail "handoff does not run"
	perf record -o "$tmp/perf.data" -e sched:sched_switch -- true 2>/dev/null ||
		fail "perf record does not run in the guest"
	# 16 MiB per CPU, as the others have.
	load_module events=sched samples=none n_subbufs=64
	for mode in yield futex; do
		WL=("$WORKLOADS/handoff" -m "$mode" -n "$HANDOFFS")
		run_workload >/dev/null	# warm the page cache once
		# Interleaved rounds: drift in the guest hits every tracer alike.
		for round in $(seq "$ROUNDS"); do
			for tracer in none ftrace perf ktprof record; do
				line=$(run_${tracer})
				[ "$(echo "$line" | wc -w)" = 3 ] ||
					fail "$mode $tracer round $round: '$line'"
				echo "$mode $tracer $line"
			done
		done
	done
	for round in $(seq "$ROUNDS"); do
		echo "selftest $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
	done
	unload_module
}

# ktprof record at its defaults under P concurrent pipe floods.
flood() {
	local p i secs rss_kb records lost
	load_module
	for p in 1 2 4; do
		/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" record -q -e sched -S none \
			-o "$tmp/flood.ktp" -- sh -c "
			for i in \$(seq $p); do
				perf bench sched pipe -l $FLOOD_LOOPS >'$out/flood.\$i.out' &
			done
			wait" 2>"$out/flood.err" || fail "flood record: $(cat "$out/flood.err")"
		read -r _ rss_kb <"$out/time"
		# The floods ran side by side: the longest one is their span.
		secs=$(cat "$out"/flood.*.out | awk '/Total time:/ && $3 > s { s = $3 } END { print s }')
		rm -f "$out"/flood.*.out
		records=$(capture_records "$tmp/flood.ktp")
		lost=$("$KTPROF" info "$tmp/flood.ktp" | sed -n 's/^lost records *\([0-9]*\).*/\1/p')
		echo "flood $p $secs $records ${lost:-0} $(stat -c %s "$tmp/flood.ktp") $rss_kb"
	done
	unload_module
}

case "$mode" in
overhead|flood) "$mode" ;;
*) fail "usage: guest.sh overhead|flood OUTDIR" ;;
esac
echo "done"
