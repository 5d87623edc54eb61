#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof top live: `top --json -n 4 -o cap.ktp` over the standard
# workload; for each interval, every thread's runtime and voluntary and
# involuntary switch-outs and every CPU's busy, idle and unknown time,
# switches and migrations in equal `ktprof report --json --from A --to B`
# of the capture written at the same time: the recorder's flush and its
# readers' drain gave the live model every record before each interval's
# end (tests/lib/top_check.py). ktprof's own threads are marked; --batch
# prints a block an interval. A session stopped under top (as when the
# module is gone) ends it with a message and exit status 1; cpu1 taken
# offline and brought back under top, the intervals still equal report's
# (the offline time as such, the readers of a CPU that comes back
# awaited by the sync); without a
# terminal the full-screen view refuses before any session starts. The
# full-screen view live in a pseudo-terminal (tests/lib/top_tty.py): it
# draws, obeys keys, and gives the terminal back on q and on SIGTERM.
#
# Under -icount: the intervals' clock is the guest's, whatever the host.
# vm-args: --icount
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

workload_start() {
	( while :; do "$WORKLOADS/sched-mix" -r 300 -t 50 >/dev/null 2>&1 || exit; done ) &
	wl=$!
}

workload_stop() {
	kill "$wl" 2>/dev/null
	pkill -f "$WORKLOADS/sched-mix" 2>/dev/null
	wait "$wl" 2>/dev/null
}

guest() {
	say "top --json -n 4 -o cap.ktp"
	workload_start
	"$KTPROF" top --json -n 4 -d 1 -o "$out/cap.ktp" --load "$KTPROF_KO" \
		>"$out/top.json" 2>"$out/top.err" || { workload_stop; fail "top failed: $(cat "$out/top.err")"; }
	say "top --batch -n 2"
	"$KTPROF" top --batch -n 2 -d 500ms --load "$KTPROF_KO" >"$out/batch.txt" 2>"$out/batch.err" ||
		{ workload_stop; fail "top --batch failed: $(cat "$out/batch.err")"; }
	[ "$(grep -c '^ktprof top: live: ' "$out/batch.txt")" = 2 ] || fail "--batch: want 2 blocks"
	grep -q '\[ktprof\]' "$out/batch.txt" || fail "--batch: ktprof's own threads are not marked"

	say "records lost: 200,000 selftest records into 512K a CPU"
	"$KTPROF" top --json -n 4 -d 1 -m 512K -o "$out/lossy.ktp" --load "$KTPROF_KO" \
		>"$out/lossy.json" 2>"$out/lossy.err" &
	local top_pid=$! i
	for i in $(seq 100); do
		[ -s "$out/lossy.json" ] && break
		sleep 0.1
	done
	echo 200000 >"$KTPROF_DBG/selftest" || fail "selftest write failed"
	wait "$top_pid" || { workload_stop; fail "top -m 512K failed: $(cat "$out/lossy.err")"; }
	workload_stop

	say "cpu1 offline and online again under top"
	workload_start
	"$KTPROF" top --json -n 5 -d 1 -o "$out/hotplug.ktp" --load "$KTPROF_KO" \
		>"$out/hotplug.json" 2>"$out/hotplug.err" &
	top_pid=$!
	for i in $(seq 100); do
		[ -s "$out/hotplug.json" ] && break
		sleep 0.1
	done
	echo 0 >/sys/devices/system/cpu/cpu1/online || fail "cannot take cpu1 offline"
	sleep 1
	echo 1 >/sys/devices/system/cpu/cpu1/online || fail "cannot bring cpu1 online"
	wait "$top_pid" || { workload_stop; fail "top over hotplug failed: $(cat "$out/hotplug.err")"; }
	workload_stop

	say "no terminal"
	"$KTPROF" top --load "$KTPROF_KO" >"$out/noterm.out" 2>"$out/noterm.err" </dev/null &&
		fail "top without a terminal exited 0"
	grep -q 'terminal' "$out/noterm.err" || fail "no terminal: $(cat "$out/noterm.err")"
	module_loaded && fail "the module stayed loaded after a refused top --load"

	say "the session stopped under top"
	insmod "$KTPROF_KO" || fail "insmod failed"
	"$KTPROF" top --batch -d 200ms >"$out/dead.out" 2>"$out/dead.err" &
	local pid=$!
	for i in $(seq 50); do
		grep -q '^ktprof top' "$out/dead.out" 2>/dev/null && break
		sleep 0.2
	done
	echo stop >"$KTPROF_DBG/control" || fail "cannot stop the session"
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "top went on after its session stopped"; }
	wait "$pid" && fail "top exited 0 after its session was stopped"
	grep -q 'ktprof top: ' "$out/dead.err" || fail "no message when the session stopped: $(cat "$out/dead.err")"

	say "the full-screen view in a pseudo-terminal"
	local sc
	workload_start
	for sc in views sort quit sigterm resize; do
		/usr/bin/python3 "$KTPROF_TOP/tests/lib/top_tty.py" "$sc" -- "$KTPROF" top -d 500ms \
			>"$out/tty-$sc.log" 2>&1 || { workload_stop; fail "the view live, $sc: $(tail -5 "$out/tty-$sc.log")"; }
	done
	workload_stop
	rmmod ktprof || fail "rmmod failed"
}

host() {
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/top_check.py" "$KTPROF" "$out/cap.ktp" \
		"$out/top.json" || fail "top's live intervals differ from report's"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/top_check.py" "$KTPROF" "$out/hotplug.ktp" \
		"$out/hotplug.json" || fail "top's live intervals over hotplug differ from report's"
	/usr/bin/python3 -c 'import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
off = sum(c["unknown_ns"] for x in d for c in x["cpus"] if c["cpu"] == 1)
print("cpu1 unknown (offline) in the intervals:", off)
sys.exit(0 if off > 500000000 else 1)' "$out/hotplug.json" || fail "top did not show cpu1 offline"
	# With loss too: the same figures, and the loss shown in the
	# interval and on the CPU where the module counted it.
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/top_check.py" "$KTPROF" "$out/lossy.ktp" \
		"$out/lossy.json" --lost || fail "top's live intervals with loss differ from report's"
}

run_phases
