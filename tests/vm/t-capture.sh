#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Capture with cat while the standard workload runs; every record decodes,
# per-CPU switch sequences are continuous, the workload's tasks appear with
# their comm and tgid, the child's fork/exec/exit are there, and the
# average record stays within 24 bytes.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	# Scheduler records only: the size goal is about them (samples carry
	# stacks).
	load_module samples=none
	[ "$(cat "$KTPROF_DBG/control")" = idle ] || fail "state is not idle after load"
	ctl start
	[ "$(cat "$KTPROF_DBG/control")" = running ] || fail "state is not running after start"
	"$WORKLOADS/sched-mix" -r 3000 -t 300 >"$out/pids" || fail "workload failed"
	ctl stop
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "state is not stopped after stop"
	dump_session "$out/raw"
	unload_module
}

host() {
	cat "$out/raw/stats"
	grep -q '^events=sched,irq,softirq' "$out/raw/meta" || fail "meta lacks events"
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" 2>"$out/dump.err" ||
		fail "ktprof dump failed: $(cat "$out/dump.err")"
	[ ! -s "$out/dump.err" ] && echo "dump: no loss reported" ||
		fail "dump reported: $(cat "$out/dump.err")"
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" "$out/dump.json" --pids "$out/pids" ||
		fail "stream check failed"

	avg=$(kv "$out/raw/stats" '^total ' avg_bytes)
	echo "average record size: $avg bytes"
	awk -v a="$avg" 'BEGIN { exit !(a > 0 && a <= 24) }' || fail "average record $avg bytes > 24"
	# The dump holds exactly what stats says was written (headers aside).
	written=$(kv "$out/raw/stats" '^total ' records)
	decoded=$(grep -vc '"type":"subbuf"' "$out/dump.json")
	[ "$written" = "$decoded" ] || fail "stats say $written records written, dump decodes $decoded"
	echo "ok"
}

run_phases
