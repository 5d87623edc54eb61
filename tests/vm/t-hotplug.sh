#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A CPU taken offline during a session keeps what it wrote (its OFFLINE mark
# with final counts is in the data), and traced again when it comes back
# (ONLINE mark, then switches), with continuous switch sequences throughout.
# vm-args: --cpus 3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu=/sys/devices/system/cpu/cpu2/online

guest() {
	load_module
	ctl start
	"$WORKLOADS/sched-mix" -r 3000 -t 600 >"$out/pids" &
	wl=$!
	sleep 0.3
	echo 0 >"$cpu" || fail "cannot take cpu2 offline"
	sleep 0.3
	echo 1 >"$cpu" || fail "cannot bring cpu2 online"
	wait $wl || fail "workload failed"
	# Keep cpu2 busy after it came back, so it records something.
	taskset -c 2 "$WORKLOADS/sched-mix" -r 200 -t 50 >/dev/null || fail "workload on cpu2 failed"
	ctl stop
	dump_session "$out/raw"
	unload_module
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
