#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A CPU taken offline during a session keeps what it wrote (its OFFLINE mark
# with final counts is in the data), and traced again when it comes back
# (ONLINE mark, then switches), with continuous switch sequences throughout.
#
# Starts racing CPU hotplug: relay makes a CPU's buffer either at
# relay_open() (CPUs online) or in its hotplug prepare step (channels open
# by then), so a CPU between the two gets none, and must not record. A
# loop of cpu1 offline/online runs against starts and stops; then, where
# the kernel lets a CPU stop between hotplug steps
# (CONFIG_CPU_HOTPLUG_STATE_CONTROL: none of the test kernels yet), cpu1 is
# parked past relay's prepare
# step, a session starts, and cpu1 comes online without a buffer: it is
# not traced, and counted (stats unbuffered).
# vm-args: --cpus 3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu=/sys/devices/system/cpu/cpu2/online
cpu1=/sys/devices/system/cpu/cpu1
# Start/stop rounds against the hotplug loop: a count, not a duration.
rounds=${KTPROF_HOTPLUG_ROUNDS:-$(scaled 30 10)}

stat_value() { sed -n "s/^$1=//p" "$KTPROF_DBG/stats"; }

# cpu1 going offline and online in a loop while sessions start and stop.
start_stop_race() {
	local flip i n=0 total=0
	load_module events=sched samples=cpu-clock@999hz
	: >"$out/flip.run"
	( while [ -e "$out/flip.run" ]; do
		echo 0 >"$cpu1/online" && echo 1 >"$cpu1/online" || exit 1
		n=$((n + 1))
	  done; echo "$n" >"$out/flips" ) &
	flip=$!
	for i in $(seq "$rounds"); do
		ctl start || fail "start $i failed"
		ctl stop || fail "stop $i failed"
		total=$((total + $(stat_value unbuffered)))
	done
	rm -f "$out/flip.run"
	wait "$flip" || fail "the hotplug loop failed"
	[ "$(cat "$cpu1/online")" = 1 ] || fail "cpu1 left offline"
	say "$rounds starts and stops against $(cat "$out/flips") cpu1 offline/online rounds; CPUs without a buffer: $total"
	unload_module
}

# The first step after relay's prepare step that cpu1 can be parked at,
# where the kernel allows it; empty where it does not.
park_past_relay() {
	local states=/sys/devices/system/cpu/hotplug/states relay s
	relay=$(awk -F': ' '$2 == "relay:prepare" { print $1 + 0 }' "$states")
	[ -n "$relay" ] && [ -w "$cpu1/hotplug/target" ] || return 0
	for s in $(awk -F': ' -v r="$relay" '$1 + 0 > r && $2 !~ /bringup|online/ { print $1 + 0 }' "$states"); do
		if echo "$s" >"$cpu1/hotplug/target" 2>/dev/null; then
			echo "$s"
			return 0
		fi
	done
}

parked_cpu() {
	local state
	echo 0 >"$cpu1/online" || fail "cannot take cpu1 offline"
	state=$(park_past_relay)
	if [ -z "$state" ]; then
		echo 1 >"$cpu1/online" || fail "cannot bring cpu1 online"
		say "this kernel does not stop CPUs between hotplug steps: parked-CPU part skipped"
		return 0
	fi
	say "cpu1 parked at hotplug step $state ($(awk -F': ' -v s="$state" '$1 + 0 == s { print $2 }' \
		/sys/devices/system/cpu/hotplug/states)), past relay:prepare"
	load_module events=sched samples=cpu-clock@999hz
	ctl start
	echo 1 >"$cpu1/online" || fail "cannot bring the parked cpu1 online"
	taskset -c 1 "$WORKLOADS/sched-mix" -r 200 -t 20 >/dev/null || fail "workload on cpu1 failed"
	ctl stop
	cat "$KTPROF_DBG/stats"
	[ "$(stat_value unbuffered)" = 1 ] || fail "cpu1 came up without a buffer: unbuffered=$(stat_value unbuffered), want 1"
	[ ! -e "$KTPROF_DBG/cpu1" ] || fail "cpu1 has a relay file, though it came up without a buffer"
	grep -q '^cpu=1 ' "$KTPROF_DBG/stats" && fail "cpu1 recorded without a buffer"
	# The next session gives it one.
	ctl start
	taskset -c 1 "$WORKLOADS/sched-mix" -r 200 -t 20 >/dev/null || fail "workload on cpu1 failed"
	ctl stop
	[ "$(stat_value unbuffered)" = 0 ] || fail "unbuffered=$(stat_value unbuffered) in a session with every CPU online"
	grep -q '^cpu=1 records=[1-9]' "$KTPROF_DBG/stats" || fail "cpu1 not traced in the next session"
	unload_module
}

guest() {
	# No reader runs: the buffers (16 MiB a CPU) hold the whole session,
	# samples included, however long the debug kernel's hotplug takes
	# (2 MiB, the default, lost records in CI).
	load_module n_subbufs=64
	ctl start
	"$WORKLOADS/sched-mix" -r 3000 -t 600 >"$out/pids" &
	wl=$!
	nap 0.3
	echo 0 >"$cpu" || fail "cannot take cpu2 offline"
	nap 0.3
	echo 1 >"$cpu" || fail "cannot bring cpu2 online"
	wait $wl || fail "workload failed"
	# Keep cpu2 busy after it came back, so it records something.
	taskset -c 2 "$WORKLOADS/sched-mix" -r 200 -t 50 >/dev/null || fail "workload on cpu2 failed"
	ctl stop
	dump_session "$out/raw"
	unload_module
	start_stop_race
	parked_cpu
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" "$out/dump.json" --pids "$out/pids" ||
		fail "stream check failed"
	/usr/bin/python3 - "$out/dump.json" <<'PY' || fail "cpu2 hotplug sequence wrong"
import json, sys
marks, after_online = [], 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["cpu"] != 2:
        continue
    if e["type"] == "cpu":
        marks.append(e["reason"])
    elif e["type"] == "sched_switch" and marks and marks[-1] == "online":
        after_online += 1
print("cpu2 marks:", marks, "switches after online:", after_online)
assert marks == ["start", "offline", "online", "stop"], marks
assert after_online > 0
PY
	echo ok
}

run_phases
