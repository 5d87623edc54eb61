#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof record end to end: recorder and cat+import captures of the same
# workload both decode with continuous switch sequences; "-- CMD" ends with
# the command; --activate +2s starts about 2 s late; kill -9 leaves a file
# readable up to its last chunk and a stopped session; no loss at the
# default buffer size (on a debug kernel, 32 MiB: lib.sh debug_buffer);
# without the module it says how to load it.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
check=$(dirname "$0")/check_stream.py
# Ping-pong rounds of the workload captured twice (a third on a debug
# kernel, where each round's switches cost many times as much).
rounds=$(scaled 3000 1000)

guest() {
	"$KTPROF" record -q -o "$out/none.ktp" -d 1s 2>"$out/none.err" && fail "record ran without the module"
	grep -q 'not loaded.*--load' "$out/none.err" || fail "unhelpful error: $(cat "$out/none.err")"

	say "recorder, --load, -- CMD"
	"$KTPROF" record -q $(debug_buffer) --load "$KTPROF_KO" -o "$out/rec.ktp" -- \
		"$WORKLOADS/sched-mix" -r "$rounds" -t 300 >"$out/rec.pids" 2>"$out/rec.err" ||
		fail "record failed: $(cat "$out/rec.err")"
	cat "$out/rec.err"
	module_loaded && fail "--load left the module loaded"
	[ "$(stat -c %a "$out/rec.ktp")" = 600 ] || fail "capture mode is not 0600"
	"$KTPROF" info "$out/rec.ktp" >"$out/rec.info" || fail "info failed"
	grep -q 'complete' "$out/rec.info" || fail "capture not complete"
	grep -q '^lost records      0$' "$out/rec.info" || fail "loss at the buffer size given: $(cat "$out/rec.info")"

	say "shell-only capture + import of the same workload"
	# Nothing reads until the workload ends: the buffer holds all of it,
	# at the CPU samples' rate for however long a slow host makes it run
	# (2 MiB a CPU lost 5,672 records of a debug guest so in CI).
	load_module n_subbufs=64
	ctl start
	"$WORKLOADS/sched-mix" -r "$rounds" -t 300 >"$out/raw.pids" || fail "workload failed"
	ctl stop
	dump_session "$out/raw"
	unload_module
	"$KTPROF" import "$out/raw" -o "$out/raw.ktp" || fail "import failed"

	load_module
	say "-- sleep 1"
	# Without -d the recorder runs until it is told to stop: ending at all is
	# ending with the command (the timeout only catches a recorder that never
	# does, however slow the machine).
	timeout 600 "$KTPROF" record -q $(debug_buffer) -o "$out/sleep.ktp" -- sleep 1 ||
		fail "record -- sleep 1 failed or did not end with the command"
	"$KTPROF" info "$out/sleep.ktp" >"$out/sleep.info" || fail "info failed"
	grep 'duration' "$out/sleep.info" || fail "no duration"
	# The capture covers the whole command: at least its 1 s of sleep.
	awk '$1 == "duration" { ok = $2 + 0 >= 1 } END { exit !ok }' "$out/sleep.info" ||
		fail "the capture is shorter than the command"

	say "--activate +2s"
	launch=$(awk '{ printf "%.0f", $1 * 1e9 }' /proc/uptime)
	"$KTPROF" record -q $(debug_buffer) -o "$out/late.ktp" --activate +2s -d 1s || fail "delayed record failed"
	note launch "$launch"

	say "kill -9 mid-capture"
	# No -d: a recorder that ends on its own before the kill leaves a
	# complete file (a starved debug-kernel guest took over 60 s to get
	# here), and then the test would check nothing.
	"$KTPROF" record -q -o "$out/killed.ktp" 2>/dev/null &
	rec=$!
	size() { stat -c %s "$out/killed.ktp" 2>/dev/null || echo 0; }
	grown() { [ "$(size)" -gt "$1" ]; }
	# The session runs and the file has its first chunks (the recorder
	# writes one at least every second); then a chunk comes after the
	# workload. Deadlines, not counts: under a busy host each poll of a
	# debug kernel takes seconds.
	until_true 300 ctl_is running || fail "the recorder's session did not start"
	until_true 300 grown 100000 || fail "no chunk written: $(size) bytes"
	before=$(size)
	"$WORKLOADS/sched-mix" -r 1000 -t 100 >/dev/null
	until_true 300 grown "$before" || fail "no chunk written after the workload"
	kill -9 $rec || fail "the recorder ended before it was killed"
	wait $rec 2>/dev/null
	until_true 60 eval '! ctl_is running'
	ctl_is stopped || fail "the session outlived its recorder: $(cat "$KTPROF_DBG/control")"
	unload_module
}

# The two captures of the workload, recorder and cat+import, decode with
# continuous switch sequences and the workload's tasks.
host() {
	local launch start delay n
	launch=$(noted launch)
	"$KTPROF" dump --json "$out/late.ktp" | grep -m1 '"reason":"start"' >"$out/late.start"
	start=$(sed 's/.*"ts":\([0-9]*\).*/\1/' "$out/late.start")
	delay=$(( (start - launch) / 1000000 ))
	echo "--activate +2s: first record ${delay} ms after launch"
	# Not before its time; the upper bound only catches a start that never
	# comes (a busy host delays a starved guest by seconds).
	[ "$delay" -ge 1900 ] && [ "$delay" -lt 60000 ] || fail "--activate +2s started after $delay ms"

	"$KTPROF" info "$out/killed.ktp" >"$out/killed.info" 2>&1 && fail "info called a killed capture complete"
	grep -q 'TRUNCATED' "$out/killed.info" || fail "info: $(cat "$out/killed.info")"
	n=$("$KTPROF" dump "$out/killed.ktp" 2>/dev/null | grep -c sched_switch)
	[ "$n" -gt 0 ] || fail "nothing decodes from the killed capture"
	echo "killed capture: $n switches decode; $(grep TRUNCATED "$out/killed.info")"

	"$KTPROF" dump --json "$out/rec.ktp" >"$out/rec.json" || fail "dump failed"
	/usr/bin/python3 "$check" "$out/rec.json" --pids "$out/rec.pids" || fail "recorder capture check failed"
	"$KTPROF" dump --json "$out/raw.ktp" >"$out/raw.json" || fail "dump of the import failed"
	/usr/bin/python3 "$check" "$out/raw.json" --pids "$out/raw.pids" || fail "imported capture check failed"
	echo ok
}

run_phases
