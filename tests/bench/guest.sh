#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VMs that tests/bench/run.sh boots with instruction-counted
# time. Prints "key value" lines; run.sh turns them into the report.
#
#   overhead  (1 vCPU: the clock counts only the instructions of the CPU
#             that runs the benchmark, readers included) the cost of tracing
#             the same scheduler tracepoints with ftrace, perf and ktprof,
#             interleaved rounds, on two workloads: yield-pingpong (exactly
#             one sched_switch per op, so rounds repeat closely) and perf
#             bench sched pipe (switches and wakings, but the scheduler's
#             choices vary the events per op between runs); then ktprof's
#             write path alone (selftest records)
#   flood     (2 vCPUs) the record rate ktprof record sustains at its
#             defaults under an unpinned pipe flood, its loss and memory
#
# usage: guest.sh overhead|flood OUTDIR   (ROUNDS, LOOPS, FLOOD_LOOPS,
#        SELFTEST_N from the environment)
. "$(dirname "$0")/../vm/lib.sh"
mode=$1
out=$2
ROUNDS=${ROUNDS:-5}
LOOPS=${LOOPS:-10000}
FLOOD_LOOPS=${FLOOD_LOOPS:-50000}
SELFTEST_N=${SELFTEST_N:-400000}
tmp=${TMPDIR:-/tmp}	# perf cannot mmap its output on 9p
TP=/sys/kernel/tracing
# ktprof's "sched" group, tracepoint for tracepoint.
TPS="sched_switch sched_waking sched_wakeup_new sched_migrate_task
     sched_process_fork sched_process_exec sched_process_exit sched_process_free"
KTP_TYPES="sched_switch sched_waking sched_migrate fork exec exit free"
YIELDS=${YIELDS:-50000}
PIPE=(perf bench sched pipe -l "$LOOPS")
YIELD=("$WORKLOADS/yield-pingpong" -n "$YIELDS")
WL=("${PIPE[@]}")

# ns per op of the workload's output (guest time).
ns_per_op() {
	awk '/ns\/switch/ { print $1 } /usecs\/op/ { print $1 * 1000 }'
}

run_workload() {
	"${WL[@]}" 2>/dev/null | ns_per_op
}

# Each tracer prints "USECS_PER_OP EVENTS BYTES".
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
	perf record -a -o "$tmp/perf.data" "${args[@]}" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf record: $(cat "$out/perf.err")"
	t=$(ns_per_op <"$out/perf.out")
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
	local t
	"$KTPROF" record -q -e sched -S none --no-snapshots -o "$tmp/rec.ktp" -- \
		"${WL[@]}" >"$out/rec.out" 2>"$out/rec.err" ||
		fail "ktprof record: $(cat "$out/rec.err")"
	t=$(ns_per_op <"$out/rec.out")
	echo "$t $("$KTPROF" dump --json "$tmp/rec.ktp" 2>/dev/null |
		grep -cE '"type":"(sched_switch|sched_waking|sched_migrate|fork|exec|exit|free)"') \
		$(stat -c %s "$tmp/rec.ktp")"
}

# The write path alone: N selftest records (reserve, fill, commit) in a
# loop, less the same command writing none.
selftest_ns() {
	local t0 t1
	ctl start
	t0=$(date +%s%N)
	sh -c "echo $1 >$KTPROF_DBG/selftest"
	t1=$(date +%s%N)
	ctl stop
	grep -q "written=$1 " "$KTPROF_DBG/selftest" || fail "selftest: $(cat "$KTPROF_DBG/selftest")"
	echo $((t1 - t0))
}

overhead() {
	local round tracer line wl
	[ -d "$TP/events/sched" ] || fail "no tracefs at $TP"
	echo 16384 >"$TP/buffer_size_kb"	# no ftrace overruns at these sizes
	echo boot >"$TP/trace_clock"
	perf bench sched pipe -l 100 >/dev/null 2>&1 || fail "perf bench does not run in the guest"
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us	# no RT throttling mid-run
	"${YIELD[@]}" -n 100 >/dev/null || fail "yield-pingpong does not run"
	# 16 MiB per CPU: room for the selftest burst; costs nothing per event.
	load_module events=sched samples=none n_subbufs=64
	# Interleaved rounds: drift in the guest hits every tracer alike.
	for wl in yield pipe; do
		if [ $wl = yield ]; then WL=("${YIELD[@]}"); else WL=("${PIPE[@]}"); fi
		run_workload >/dev/null	# warm the page cache once
		for round in $(seq "$ROUNDS"); do
			for tracer in none ftrace perf ktprof record; do
				line=$(run_${tracer})
				[ "$(echo "$line" | wc -w)" = 3 ] || fail "$wl $tracer round $round: '$line'"
				echo "$wl $tracer $line"
			done
		done
	done
	for round in $(seq "$ROUNDS"); do
		echo "selftest $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
	done
	unload_module
}

# ktprof record at its defaults, a pipe flood on both CPUs.
flood() {
	local secs rss_kb records
	load_module
	/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" record -q -e sched -S none \
		-o "$tmp/flood.ktp" -- perf bench sched pipe -l "$FLOOD_LOOPS" \
		>"$out/flood.out" 2>"$out/flood.err" || fail "flood record: $(cat "$out/flood.err")"
	unload_module
	read -r _ rss_kb <"$out/time"
	secs=$(awk '/Total time:/ { print $3 }' "$out/flood.out")
	"$KTPROF" info "$tmp/flood.ktp" >"$out/flood.info"
	records=$(awk '/^per CPU/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { n += $2 }
		on && $1 !~ /^[0-9]+$/ && $1 != "cpu" { on = 0 } END { print n + 0 }' "$out/flood.info")
	echo "flood seconds $secs"
	echo "flood records $records"
	echo "flood lost $(sed -n 's/^lost records *\([0-9]*\).*/\1/p' "$out/flood.info")"
	echo "flood capture_bytes $(stat -c %s "$tmp/flood.ktp")"
	echo "flood recorder_rss_kb $rss_kb"
}

case "$mode" in
overhead|flood) "$mode" ;;
*) fail "usage: guest.sh overhead|flood OUTDIR" ;;
esac
echo "done"
