#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VM that tests/bench/run.sh boots with instruction-counted time.
# The cost of tracing the same scheduler tracepoints with ftrace, perf and
# ktprof on `perf bench sched pipe`, in interleaved rounds, then the record
# rate ktprof record sustains under `perf bench sched messaging`.
# Prints "key value" lines; run.sh turns them into the report.
#
# usage: guest.sh OUTDIR   (ROUNDS, LOOPS, MSG_LOOPS from the environment)
. "$(dirname "$0")/../vm/lib.sh"
out=$1
ROUNDS=${ROUNDS:-5}
LOOPS=${LOOPS:-3000}
MSG_LOOPS=${MSG_LOOPS:-100}
TP=/sys/kernel/tracing
# ktprof's "sched" group, tracepoint for tracepoint.
TPS="sched_switch sched_waking sched_wakeup_new sched_migrate_task
     sched_process_fork sched_process_exec sched_process_exit sched_process_free"
KTP_TYPES="sched_switch sched_waking sched_migrate fork exec exit free"

# usecs per pipe round trip, from perf bench's own clock (guest time).
pipe_bench() {
	perf bench sched pipe -l "$LOOPS" 2>/dev/null | awk '/usecs\/op/ { print $1 }'
}

# Each tracer prints "USECS_PER_OP EVENTS BYTES".
run_none() {
	echo "$(pipe_bench) 0 0"
}

run_ftrace() {
	local e t
	echo 0 >"$TP/tracing_on"
	: >"$TP/trace"
	for e in $TPS; do echo 1 >"$TP/events/sched/$e/enable"; done
	echo 1 >"$TP/tracing_on"
	t=$(pipe_bench)
	echo 0 >"$TP/tracing_on"
	for e in $TPS; do echo 0 >"$TP/events/sched/$e/enable"; done
	echo "$t $(cat "$TP"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } /^bytes:/ { b += $2 }
		     END { print n + 0, b + 0 }')"
}

run_perf() {
	local args=() e t n
	for e in $TPS; do args+=(-e "sched:$e"); done
	perf record -a -o "$out/perf.data" "${args[@]}" -- \
		perf bench sched pipe -l "$LOOPS" >"$out/perf.out" 2>"$out/perf.err"
	t=$(awk '/usecs\/op/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$out/perf.data")"
}

# Buffer only, like ftrace: the session runs, nothing reads until the end.
run_ktprof() {
	local t
	ctl start
	t=$(pipe_bench)
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
	"$KTPROF" record -q -e sched -S none --no-snapshots -o "$out/rec.ktp" -- \
		perf bench sched pipe -l "$LOOPS" >"$out/rec.out" 2>"$out/rec.err" ||
		fail "ktprof record: $(cat "$out/rec.err")"
	t=$(awk '/usecs\/op/ { print $1 }' "$out/rec.out")
	"$KTPROF" dump --json "$out/rec.ktp" >"$out/rec.json" 2>/dev/null
	echo "$t $(grep -cE '"type":"(sched_switch|sched_waking|sched_migrate|fork|exec|exit|free)"' \
		"$out/rec.json") $(stat -c %s "$out/rec.ktp")"
}

[ -d "$TP/events/sched" ] || fail "no tracefs at $TP"
echo 16384 >"$TP/buffer_size_kb"	# no ftrace overruns at these sizes
echo boot >"$TP/trace_clock"
perf bench sched pipe -l 100 >/dev/null 2>&1 || fail "perf bench does not run in the guest"
load_module events=sched samples=none
pipe_bench >/dev/null	# warm caches and the page cache once

# Interleaved rounds: host noise hits every tracer alike.
for round in $(seq "$ROUNDS"); do
	for tracer in none ftrace perf ktprof; do
		echo "pipe $tracer $(run_${tracer})"
	done
done
unload_module

for round in $(seq "$ROUNDS"); do
	echo "pipe record $(run_record)"
done

# Sustained rate: ktprof record at its defaults under a messaging flood.
/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" record -q -e sched -S none \
	--load "$KTPROF_KO" -o "$out/flood.ktp" -- \
	perf bench sched messaging -l "$MSG_LOOPS" >/dev/null 2>"$out/flood.err" ||
	fail "flood record: $(cat "$out/flood.err")"
read -r secs rss_kb <"$out/time"
"$KTPROF" info "$out/flood.ktp" >"$out/flood.info"
records=$(awk '/^per CPU/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { n += $2 }
	on && $1 !~ /^[0-9]+$/ && $1 != "cpu" { on = 0 } END { print n + 0 }' "$out/flood.info")
echo "flood seconds $secs"
echo "flood records $records"
echo "flood lost $(sed -n 's/^lost records *\([0-9]*\).*/\1/p' "$out/flood.info")"
echo "flood capture_bytes $(stat -c %s "$out/flood.ktp")"
echo "flood recorder_rss_kb $rss_kb"
echo "done"
